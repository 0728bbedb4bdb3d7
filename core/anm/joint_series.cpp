// core/anm/joint_series.cpp — the equations and coordinates of every joint type as graph nodes
// (constraint_graph.h), one block per type, each the same formula as core/kinematics/<type>.cpp:
//   revolute     d = P1 − P2 [x y z];  X1·Z2, Y1·Z2
//   prismatic    X1·Z2, Y1·Z2, X1·Y2;  X1·d, Y1·d            (d = P2 − P1)
//   cylindrical  X1·Z2, Y1·Z2;  X1·d, Y1·d
//   spherical    P1 − P2 [x y z]
//   universal    P1 − P2 [x y z];  Z1·Y2
//   planar       X1·Z2, Y1·Z2;  Z1·d
//   fixed        P1 − P2 [x y z];  X1·Z2, Y1·Z2, X1·Y2
//   distance     d·d − L²  (none when driven: the driver row |d| − L − e replaces it)
// with X_i = R_i x_i etc. the joint frame axes of body i in the world and P_i = r_i + R_i s_i its
// joint point. All rows are polynomials in q, so their series are exact.
#include <stdexcept>

#include "core/anm/constraint_series.h"

namespace mechsim::anm {

namespace {

/// The joint's two bodies and frames, as JointContext of terms.h.
struct Ctx {
  ConstraintGraph& g;
  const Joint& j;
  int axis(int side, int k) const {
    const Mat3& F = side == 0 ? j.frame1 : j.frame2;
    return g.direction(side == 0 ? j.body1 : j.body2, F.col(k));
  }
  int jointPoint(int side) const { return g.point(side == 0 ? j.body1 : j.body2, side == 0 ? j.point1 : j.point2); }
  /// d = P2 − P1.
  int separation() const { return g.difference(jointPoint(1), jointPoint(0)); }
  /// The three rows of P1 − P2 = 0.
  void coincidence(std::vector<int>& rows) const {
    const int d = g.difference(jointPoint(0), jointPoint(1));
    for (int i = 0; i < 3; ++i) rows.push_back(g.component(d, i));
  }
  /// θ about z1 from x1 to x2: C = X1·X2, S = Y1·X2.
  CoordinateNodes axialAngle() const {
    const int x2 = axis(1, 0);
    return {CoordinateKind::Angle, g.dot(axis(0, 1), x2), g.dot(axis(0, 0), x2)};
  }
  /// Slide along frame1's axis k: (R1 e_k)·d.
  CoordinateNodes axialSlide(int k) const { return {CoordinateKind::Linear, g.dot(axis(0, k), separation()), -1}; }
  int neg(int s) const { return g.combine(-1.0, s, 0.0, -1, 0.0); }
};

}  // namespace

void appendJointEquations(ConstraintGraph& g, const Joint& joint, std::vector<int>& rows) {
  const Ctx c{g, joint};
  switch (joint.type) {
    case JointType::Revolute: {
      c.coincidence(rows);
      const int z2 = c.axis(1, 2);
      rows.push_back(g.dot(c.axis(0, 0), z2));
      rows.push_back(g.dot(c.axis(0, 1), z2));
      return;
    }
    case JointType::Prismatic: {
      const int x1 = c.axis(0, 0), y1 = c.axis(0, 1), z2 = c.axis(1, 2);
      rows.push_back(g.dot(x1, z2));
      rows.push_back(g.dot(y1, z2));
      rows.push_back(g.dot(x1, c.axis(1, 1)));
      const int d = c.separation();
      rows.push_back(g.dot(x1, d));
      rows.push_back(g.dot(y1, d));
      return;
    }
    case JointType::Cylindrical: {
      const int x1 = c.axis(0, 0), y1 = c.axis(0, 1), z2 = c.axis(1, 2);
      rows.push_back(g.dot(x1, z2));
      rows.push_back(g.dot(y1, z2));
      const int d = c.separation();
      rows.push_back(g.dot(x1, d));
      rows.push_back(g.dot(y1, d));
      return;
    }
    case JointType::Spherical:
      c.coincidence(rows);
      return;
    case JointType::Universal:
      c.coincidence(rows);
      rows.push_back(g.dot(c.axis(0, 2), c.axis(1, 1)));
      return;
    case JointType::Planar: {
      const int z2 = c.axis(1, 2);
      rows.push_back(g.dot(c.axis(0, 0), z2));
      rows.push_back(g.dot(c.axis(0, 1), z2));
      rows.push_back(g.dot(c.axis(0, 2), c.separation()));
      return;
    }
    case JointType::Fixed: {
      c.coincidence(rows);
      const int x1 = c.axis(0, 0), z2 = c.axis(1, 2);
      rows.push_back(g.dot(x1, z2));
      rows.push_back(g.dot(c.axis(0, 1), z2));
      rows.push_back(g.dot(x1, c.axis(1, 1)));
      return;
    }
    case JointType::Distance: {
      if (joint.nEquations == 0) return;  // driven: the driver row replaces it
      const int d = c.separation();
      rows.push_back(g.combine(1.0, g.dot(d, d), 0.0, -1, joint.length * joint.length));
      return;
    }
  }
  throw std::logic_error("appendJointEquations: unknown joint type");
}

void appendJointCoordinates(ConstraintGraph& g, const Joint& joint, CoordinateNodes* out) {
  const Ctx c{g, joint};
  switch (joint.type) {
    case JointType::Revolute:
      out[0] = c.axialAngle();
      return;
    case JointType::Prismatic:
      out[0] = c.axialSlide(2);
      return;
    case JointType::Cylindrical:
      out[0] = c.axialAngle();
      out[1] = c.axialSlide(2);
      return;
    case JointType::Spherical: {
      // Z-Y-X angles (spherical.cpp): yaw atan2(Y1·X2, X1·X2), pitch asin(−Z1·X2), roll atan2(Z1·Y2, Z1·Z2).
      const int X1 = c.axis(0, 0), Y1 = c.axis(0, 1), Z1 = c.axis(0, 2);
      const int X2 = c.axis(1, 0), Y2 = c.axis(1, 1), Z2 = c.axis(1, 2);
      out[0] = {CoordinateKind::Angle, g.dot(Y1, X2), g.dot(X1, X2)};
      out[1] = {CoordinateKind::Sine, c.neg(g.dot(Z1, X2)), -1};
      out[2] = {CoordinateKind::Angle, g.dot(Z1, Y2), g.dot(Z1, Z2)};
      return;
    }
    case JointType::Universal: {
      // universal.cpp: θ1 = atan2(−X1·Y2, Y1·Y2), θ2 = atan2(−Z1·X2, Z1·Z2).
      const int X1 = c.axis(0, 0), Y1 = c.axis(0, 1), Z1 = c.axis(0, 2);
      const int X2 = c.axis(1, 0), Y2 = c.axis(1, 1), Z2 = c.axis(1, 2);
      out[0] = {CoordinateKind::Angle, c.neg(g.dot(X1, Y2)), g.dot(Y1, Y2)};
      out[1] = {CoordinateKind::Angle, c.neg(g.dot(Z1, X2)), g.dot(Z1, Z2)};
      return;
    }
    case JointType::Planar:
      out[0] = c.axialSlide(0);
      out[1] = c.axialSlide(1);
      out[2] = c.axialAngle();
      return;
    case JointType::Fixed:
      return;
    case JointType::Distance:
      // Extension |d| − L (distance.cpp).
      out[0] = {CoordinateKind::Linear, g.combine(1.0, g.norm(c.separation()), 0.0, -1, joint.length), -1};
      return;
  }
  throw std::logic_error("appendJointCoordinates: unknown joint type");
}

}  // namespace mechsim::anm
