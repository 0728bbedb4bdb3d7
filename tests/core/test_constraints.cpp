// tests/core/test_constraints.cpp — tests core/kinematics/{revolute,prismatic,cylindrical,spherical,
// universal,planar,fixed,distance,normalization,driver,coupling,constraints,coordinates}.cpp:
//   * Φ_q against central finite differences of Φ, Φ_t against differences in t, and γ against the
//     time derivative of Φ_q q̇ + Φ_t along q(τ) = q + τ q̇ — for every joint type, with a joint to
//     ground and one between two moving bodies, undriven and with every coordinate driven, at
//     random (not normalised, not consistent) coordinates and velocities;
//   * the sparsity pattern stays fixed;
//   * every joint's equations vanish, and its coordinates read back, after moving body2 by the
//     motion the joint allows.
#include <QtTest>
#include <random>

#include "core/kinematics/kinematics.h"
#include "mechanisms.h"

using namespace mechsim;
using namespace mechsim::test;

namespace {

const JointType kTypes[] = {JointType::Revolute, JointType::Prismatic, JointType::Cylindrical, JointType::Spherical,
                            JointType::Universal, JointType::Planar,    JointType::Fixed,       JointType::Distance};

Quat rotation(const Vec3& axis, double angle) { return Quat(Eigen::AngleAxisd(angle, axis.normalized())); }

/// ground, a, b; joint "K" ground→a and "J" a→b of the same type, at skewed poses.
MechanismSpec rig(JointType type, bool driven) {
  MechanismSpec s;
  s.bodies = {body("ground", Vec3(0.1, 0, 0), true, rotation(Vec3(1, 1, 0), 0.3)),
              body("a", Vec3(0.3, -0.2, 0.5), false, rotation(Vec3(0, 1, 1), 0.7)),
              body("b", Vec3(-0.4, 0.6, 0.2), false, rotation(Vec3(1, 0, 1), -1.1))};
  const Vec3 axis = Vec3(0.3, -0.5, 0.8).normalized();
  JointSpec k = joint("K", type, "ground", "a", Vec3(0.2, 0.1, -0.3), axis);
  JointSpec j = joint("J", type, "a", "b", Vec3(-0.1, 0.4, 0.3), Vec3(-0.6, 0.2, 0.4).normalized());
  for (JointSpec* js : {&k, &j}) {
    js->axis1 = js->axis;
    js->axis2 = js->axis.unitOrthogonal();
    js->point1 = js->point;
    js->point2 = js->point + Vec3(0.5, -0.3, 0.2);
  }
  s.joints = {k, j};
  if (driven)
    for (int c = 0; c < jointCoordinateCount(type); ++c) s.drivers.push_back(driver("d" + std::to_string(c), "J", c));
  return s;
}

std::vector<std::function<double(double)>> driverFunctions(size_t n) {
  std::vector<std::function<double(double)>> f;
  for (size_t k = 0; k < n; ++k) f.push_back([k](double t) { return 0.2 * std::sin(1.3 * t + k) + 0.05 * t * t; });
  return f;
}

VecX randomQ(const Model& m, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  VecX q(m.nq);
  for (const Body& b : m.bodies) {
    if (b.qIndex < 0) continue;
    for (int k = 0; k < 3; ++k) q(b.qIndex + k) = u(rng);
    Eigen::Vector4d p(u(rng), u(rng), u(rng), u(rng));
    q.segment<4>(b.qIndex + 3) = p.normalized() * (1.0 + 0.1 * u(rng));
  }
  return q;
}

VecX phiAt(const Model& m, Data& d, const VecX& q, double t) {
  d.q = q;
  d.t = t;
  constraintResidual(m, d);
  return d.phi;
}

/// Φ_q q̇ + Φ_t at (q, t).
VecX velocityResidual(const Model& m, Data& d, const VecX& q, const VecX& qd, double t) {
  d.q = q;
  d.t = t;
  constraintJacobian(m, d);
  return d.Jq * qd + constraintTimeDerivative(m, d);
}

void checkDerivatives(const Model& m, const char* what) {
  Data d = makeData(m);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  const Eigen::Index nnz = d.Jq.nonZeros();
  for (int trial = 0; trial < 3; ++trial) {
    const VecX q = randomQ(m, rng);
    VecX qd(m.nq);
    for (int k = 0; k < m.nq; ++k) qd(k) = u(rng);
    const double t = 0.37 + trial;

    // Φ_q against central differences.
    d.q = q;
    d.t = t;
    constraintJacobian(m, d);
    QCOMPARE(d.Jq.nonZeros(), nnz);  // the pattern is fixed
    const MatX J = MatX(d.Jq);
    const double h = 1e-6;
    MatX Jfd(m.nEquations, m.nq);
    for (int k = 0; k < m.nq; ++k) {
      VecX qp = q, qm = q;
      qp(k) += h;
      qm(k) -= h;
      Jfd.col(k) = (phiAt(m, d, qp, t) - phiAt(m, d, qm, t)) / (2 * h);
    }
    const double scale = 1.0 + J.cwiseAbs().maxCoeff();
    QVERIFY2((J - Jfd).cwiseAbs().maxCoeff() < 1e-6 * scale,
             qPrintable(QString("%1: Φ_q error %2").arg(what).arg((J - Jfd).cwiseAbs().maxCoeff())));

    // Φ_t against differences in t.
    d.q = q;
    d.t = t;
    const VecX phiT = constraintTimeDerivative(m, d);
    const double ht = 1e-5;
    const VecX phiTfd = (phiAt(m, d, q, t + ht) - phiAt(m, d, q, t - ht)) / (2 * ht);
    QVERIFY2((phiT - phiTfd).cwiseAbs().maxCoeff() < 1e-6,
             qPrintable(QString("%1: Φ_t error %2").arg(what).arg((phiT - phiTfd).cwiseAbs().maxCoeff())));

    // γ: d/dτ (Φ_q q̇ + Φ_t) along (q + τ q̇, t + τ) equals −γ (q̈ = 0 on this path).
    d.q = q;
    d.qd = qd;
    d.t = t;
    const VecX gamma = accelerationRhs(m, d);
    const double hg = 1e-6;
    const VecX dg = (velocityResidual(m, d, q + hg * qd, qd, t + hg) - velocityResidual(m, d, q - hg * qd, qd, t - hg)) / (2 * hg);
    const double gscale = 1.0 + gamma.cwiseAbs().maxCoeff();
    QVERIFY2((gamma + dg).cwiseAbs().maxCoeff() < 1e-6 * gscale,
             qPrintable(QString("%1: γ error %2").arg(what).arg((gamma + dg).cwiseAbs().maxCoeff())));
  }
}

/// Moves body b of a rig by the world rotation Rw about the joint point P, then by `shift`.
void moveBody(const Model& m, VecX& q, int b, const Vec3& P, const Quat& Rw, const Vec3& shift) {
  const int qi = m.bodies[b].qIndex;
  const Vec3 r = q.segment<3>(qi);
  const Quat o(q(qi + 3), q(qi + 4), q(qi + 5), q(qi + 6));
  q.segment<3>(qi) = P + Rw * (r - P) + shift;
  const Quat o2 = Rw * o;
  q.segment<4>(qi + 3) << o2.w(), o2.x(), o2.y(), o2.z();
}

}  // namespace

class TestConstraints : public QObject {
  Q_OBJECT
 private slots:
  void derivativesEveryJointType() {
    for (JointType type : kTypes) {
      const Model m = compile(rig(type, false));
      checkDerivatives(m, toString(type));
    }
  }

  void derivativesWithDrivers() {
    for (JointType type : kTypes) {
      if (type == JointType::Fixed) continue;
      const MechanismSpec s = rig(type, true);
      const Model m = compile(s, driverFunctions(s.drivers.size()));
      checkDerivatives(m, (std::string(toString(type)) + " driven").c_str());
    }
  }

  // Coupling rows (coupling.cpp): every coordinate of J (body a → b) held at a polynomial of one
  // of K's (ground → a), so the row spans three bodies, a shared one between its two parts; and
  // J's coordinate 0 on K's coordinate 0 of a second rig joint between the same bodies as K
  // (all four sides on the same two bodies); each with and without a driver on the leader.
  void derivativesWithCouplings() {
    for (JointType type : kTypes) {
      if (type == JointType::Fixed || type == JointType::Distance) continue;
      for (bool driven : {false, true}) {
        MechanismSpec s = rig(type, false);
        const int n = jointCoordinateCount(type);
        for (int c = 0; c < n; ++c) {
          CouplingSpec cs;
          cs.name = "c" + std::to_string(c);
          cs.joint = "J";
          cs.coordinate = c;
          cs.leader = "K";
          cs.leaderCoordinate = (c + 1) % n;
          cs.polynomial = {0.1, -1.7, 0.4, -0.3, 0.2};
          s.couplings.push_back(cs);
        }
        if (driven) s.drivers.push_back(driver("dK", "K", 0));
        const Model m = compile(s, driverFunctions(s.drivers.size()));
        checkDerivatives(m, (std::string(toString(type)) + (driven ? " coupled, driven" : " coupled")).c_str());
      }
    }
    // Follower and leader on one joint's two coordinates (both parts on the same two bodies).
    MechanismSpec s = rig(JointType::Cylindrical, false);
    CouplingSpec cs;
    cs.name = "screw";
    cs.joint = "J";
    cs.coordinate = 1;
    cs.leader = "J";
    cs.leaderCoordinate = 0;
    cs.polynomial = {0.05, 0.3, 0, 0, 0};
    s.couplings.push_back(cs);
    cs.name = "lock";
    cs.joint = "K";
    cs.coordinate = 0;
    cs.leader.clear();
    cs.polynomial = {0.4, 0, 0, 0, 0};
    s.couplings.push_back(cs);
    checkDerivatives(compile(s), "cylindrical screw + lock");
  }

  void fileConfigurationIsConsistent() {
    for (JointType type : kTypes) {
      const Model m = compile(rig(type, false));
      Data d = makeData(m);
      QVERIFY2(d.phi.cwiseAbs().maxCoeff() < 1e-12, toString(type));
      if (m.nCoords > 0) QVERIFY2(d.coords.cwiseAbs().maxCoeff() < 1e-12, toString(type));
    }
  }

  // Each joint's allowed motion keeps Φ = 0 and reads back as its coordinates.
  void coordinatesReadBack() {
    for (JointType type : kTypes) {
      if (type == JointType::Fixed) continue;
      const Model m = compile(rig(type, false));
      Data d = makeData(m);
      const Joint& j = m.joints[1];
      const Pose Pa = m.bodies[j.body1].pose0;
      const Mat3 W = Pa.orientation.toRotationMatrix() * j.frame1;  // joint frame in the world
      const Vec3 P = Pa.apply(j.point1);
      const Quat Wq(W);
      auto inFrame = [&](const Quat& rel) { return Wq * rel * Wq.conjugate(); };
      VecX q = m.q0;
      VecX expect(j.nCoords);
      const int b = j.body2;
      switch (type) {
        case JointType::Revolute:
          moveBody(m, q, b, P, inFrame(rotation(Vec3::UnitZ(), 2.5)), Vec3::Zero());
          expect << 2.5;
          break;
        case JointType::Prismatic:
          moveBody(m, q, b, P, Quat::Identity(), W.col(2) * 0.7);
          expect << 0.7;
          break;
        case JointType::Cylindrical:
          moveBody(m, q, b, P, inFrame(rotation(Vec3::UnitZ(), -1.2)), W.col(2) * 0.3);
          expect << -1.2, 0.3;
          break;
        case JointType::Spherical: {
          const Quat rel = rotation(Vec3::UnitZ(), 0.4) * rotation(Vec3::UnitY(), -0.3) * rotation(Vec3::UnitX(), 1.1);
          moveBody(m, q, b, P, inFrame(rel), Vec3::Zero());
          expect << 0.4, -0.3, 1.1;
          break;
        }
        case JointType::Universal: {
          const Quat rel = rotation(Vec3::UnitZ(), 0.8) * rotation(Vec3::UnitY(), -0.5);
          moveBody(m, q, b, P, inFrame(rel), Vec3::Zero());
          expect << 0.8, -0.5;
          break;
        }
        case JointType::Planar:
          moveBody(m, q, b, P, inFrame(rotation(Vec3::UnitZ(), 0.6)), W * Vec3(0.2, -0.35, 0));
          expect << 0.2, -0.35, 0.6;
          break;
        case JointType::Distance: {
          // Rotate body b about body a's attachment point: the length is kept; then stretch by 0.25.
          const Vec3 A = Pa.apply(j.point1);
          const Vec3 B = m.bodies[b].pose0.apply(j.point2);
          moveBody(m, q, b, A, rotation(Vec3(1, 2, 3), 0.9), Vec3::Zero());
          const Pose Pb = bodyPose(m, q, b);
          const Vec3 dir = (Pb.apply(j.point2) - A).normalized();
          moveBody(m, q, b, A, Quat::Identity(), 0.25 * dir);
          expect << 0.25;
          (void)B;
          break;
        }
        default: break;
      }
      d.q = q;
      constraintResidual(m, d);
      updateJointCoordinates(m, d);
      if (type != JointType::Distance)
        QVERIFY2(d.phi.segment(j.firstEquation, j.nEquations).cwiseAbs().maxCoeff() < 1e-12, toString(type));
      QVERIFY2((d.coords.segment(j.firstCoord, j.nCoords) - expect).cwiseAbs().maxCoeff() < 1e-12,
               qPrintable(QString("%1: coordinates read back wrong").arg(toString(type))));
    }
  }

  // A revolute angle stays continuous across ±π.
  void angleUnwraps() {
    const Model m = compile(rig(JointType::Revolute, false));
    Data d = makeData(m);
    const Joint& j = m.joints[1];
    const Pose Pa = m.bodies[j.body1].pose0;
    const Mat3 W = Pa.orientation.toRotationMatrix() * j.frame1;
    for (double angle = 0; angle < 12.0; angle += 0.5) {
      VecX q = m.q0;
      moveBody(m, q, j.body2, Pa.apply(j.point1), rotation(W.col(2), angle), Vec3::Zero());
      d.q = q;
      updateJointCoordinates(m, d);
      QVERIFY(std::abs(d.coords(j.firstCoord) - angle) < 1e-12);
    }
  }
};

QTEST_APPLESS_MAIN(TestConstraints)
#include "test_constraints.moc"
