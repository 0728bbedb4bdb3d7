// core/kinematics/universal.cpp — the universal (Hooke / cardan) joint (2 DOF).
//
// Frames (compile.cpp): frame1's z = axis1 (fixed in body1), frame2's y = axis2 (fixed in body2);
// both frames coincide in the world in the file configuration, so x = axis2 × axis1 there
// (axis1 ⟂ axis2 is required).
// Equations (4 rows):
//   C_point = r1 + R1 s1 − r2 − R2 s2 = 0              [x, y, z]
//   C_perp  = (R1 z1)·(R2 y2) = 0                      [perp]    the cross keeps the axes at 90°
// Jacobian and γ: point rows as in spherical.cpp; C_perp as the dot rows of revolute.cpp.
// Coordinates: the relative rotation is F1ᵀ R1ᵀ R2 F2 = Rz(θ1) Ry(θ2) (first about axis1, then
// about axis2 carried by the cross), so with X_i = R_i x_i etc.
//   U.0 = θ1 = atan2(−X1·Y2, Y1·Y2)    (rotation of the cross about axis1)
//   U.1 = θ2 = atan2(−Z1·X2, Z1·Z2)    (rotation of body2 about axis2)
#include "core/kinematics/equations.h"

namespace mechsim::kin {
namespace {

const char* const kNames[] = {"x", "y", "z", "perp"};

struct Universal {
  template <unsigned W>
  static void equations(const JointContext<W>& c, RowJet<W>* out) {
    // Point coincidence.
    const Jet3<W> d = c.jointPoint(0) - c.jointPoint(1);
    components(d, out);
    // The two axes stay perpendicular.
    out[3] = dot(c.axis(0, 2), c.axis(1, 1));
  }

  template <unsigned W>
  static void coordinates(const JointContext<W>& c, CoordExprOf<RowJet<W>>* out) {
    const Jet3<W> X1 = c.axis(0, 0), Y1 = c.axis(0, 1), Z1 = c.axis(0, 2);
    const Jet3<W> X2 = c.axis(1, 0), Y2 = c.axis(1, 1), Z2 = c.axis(1, 2);
    out[0].kind = CoordKind::Angle;
    out[0].s = negate(dot(X1, Y2));
    out[0].c = dot(Y1, Y2);
    out[1].kind = CoordKind::Angle;
    out[1].s = negate(dot(Z1, X2));
    out[1].c = dot(Z1, Z2);
  }
};

}  // namespace

const JointKind universalKind = makeJointKind<Universal>(4, kNames);

}  // namespace mechsim::kin
