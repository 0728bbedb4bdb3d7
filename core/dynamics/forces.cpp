// core/dynamics/forces.cpp — applied forces (stage 1 of the step) and the potential energy.
//
// Per moving body the generalised force in twist space is (F, τ): the force at the com and the
// torque about it (world axes), so that the virtual power is Fᵀ v + τᵀ ω. Contributions:
//   gravity           F = m g
//   gyroscopic        τ = −ω × (I ω)                         (Euler's equations in world axes)
//   point spring      F₂ = −(k (L − L0) + c L̇) u at x₂, F₁ = −F₂ at x₁, u = (x₂ − x₁)/L,
//                     each with the moment (x − com) × F
//   joint spring      τ_θ = −k (θ − θ0) − c θ̇ on the coordinate (coordinate_rows.h)
//   motor             τ_θ = effort(t)                 or the servo
//                     τ_θ = kp (θ_d(t) − θ) + kd (θ̇_d(t) − θ̇), clamped to ±maxEffort
//   perturbation      F = k (target − x) − c ẋ at the dragged point
// Potential energy: −Σ m g·x_com + Σ ½ k (L − L0)² + Σ ½ k (θ − θ0)².
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/dynamics/coordinate_rows.h"
#include "core/dynamics/dynamics.h"
#include "core/kinematics/assembly.h"
#include "core/tolerances.h"

namespace mechsim {
namespace dyn {

CoordinateRow coordinateRow(const Model& m, const VecX& q, const std::vector<BodyInertia>& bi, int j, int k,
                            double reference) {
  const Joint& joint = m.joints[j];
  kin::CoordExpr e[3];
  kin::jointCoordinates(m, q, nullptr, j, e);
  double value, rate, acc;
  kin::coordinateValue(e[k], 0.0, 0.0, value, rate, acc);
  if (e[k].kind == kin::CoordKind::Angle) value = reference + std::remainder(value - reference, 2.0 * M_PI);
  const kin::Jet1 g = kin::coordinateGradient(e[k]);
  CoordinateRow out;
  out.value = value;
  const int bodies[2] = {joint.body1, joint.body2};
  for (int s = 0; s < 2; ++s) {
    const int qi = m.bodies[bodies[s]].qIndex;
    if (qi < 0) continue;
    const int mv = qi / 7;
    out.moving[s] = mv;
    out.row[s] = twistRow(g.g[s], q.segment<7>(qi), bi[mv].comOffset);
  }
  return out;
}

}  // namespace dyn

namespace {

/// World point of body b's local point, and its velocity from the twist.
void pointState(const Model& m, const VecX& q, const std::vector<dyn::BodyInertia>& bi, const VecX& nu, int b,
                const Vec3& local, Vec3& x, Vec3& v, int& mv, Vec3& arm) {
  const Pose P = bodyPose(m, q, b);
  x = P.apply(local);
  mv = m.bodies[b].qIndex >= 0 ? m.bodies[b].qIndex / 7 : -1;
  v.setZero();
  arm.setZero();
  if (mv < 0) return;
  const Vec3 com = P.apply(m.bodies[b].com);
  arm = x - com;
  v = nu.segment<3>(6 * mv) + nu.segment<3>(6 * mv + 3).cross(arm);
}

void addPointForce(int mv, const Vec3& arm, const Vec3& F, VecX& f) {
  if (mv < 0) return;
  f.segment<3>(6 * mv) += F;
  f.segment<3>(6 * mv + 3) += arm.cross(F);
}

}  // namespace

void DynamicsStepper::appliedForces(const Data& d, const VecX& nu, VecX& f, const VecX* gyroscopicTwist) const {
  f = VecX::Zero(6 * m_.nMoving);
  // Gravity and gyroscopic torques.
  const VecX& nuGyro = gyroscopicTwist ? *gyroscopicTwist : nu;
  for (size_t k = 0; k < bi_.size(); ++k) {
    f.segment<3>(6 * k) += bi_[k].mass * m_.gravity;
    const Vec3 w = nuGyro.segment<3>(6 * k + 3);
    f.segment<3>(6 * k + 3) -= w.cross(bi_[k].inertia * w);
  }
  // Point-to-point springs and dampers.
  for (const Spring& s : m_.springs) {
    Vec3 x1, v1, a1, x2, v2, a2;
    int k1, k2;
    pointState(m_, d.q, bi_, nu, s.body1, s.local1, x1, v1, k1, a1);
    pointState(m_, d.q, bi_, nu, s.body2, s.local2, x2, v2, k2, a2);
    const Vec3 dx = x2 - x1;
    const double L = dx.norm();
    if (L < tol::kLengthEps) continue;  // direction undefined: no force (L0 = 0 springs at rest)
    const Vec3 u = dx / L;
    const double tension = s.stiffness * (L - s.restLength) + s.damping * u.dot(v2 - v1);
    addPointForce(k2, a2, -tension * u, f);
    addPointForce(k1, a1, tension * u, f);
  }
  // Joint springs, motors and servos act on joint coordinates.
  for (const JointSpring& s : m_.jointSprings) {
    const int idx = m_.joints[s.joint].firstCoord + s.coordinate;
    const dyn::CoordinateRow c = dyn::coordinateRow(m_, d.q, bi_, s.joint, s.coordinate, d.coords(idx));
    c.addEffort(-s.stiffness * (c.value - s.rest) - s.damping * c.rate(nu), f);
  }
  for (const Motor& mo : m_.motors) {
    const int idx = m_.joints[mo.joint].firstCoord + mo.coordinate;
    const dyn::CoordinateRow c = dyn::coordinateRow(m_, d.q, bi_, mo.joint, mo.coordinate, d.coords(idx));
    double tau = 0;
    if (mo.driver >= 0) {
      double val = 0, dval = 0, ddval = 0;
      kin::driverValue(m_.drivers[mo.driver], d.t, val, dval, ddval);
      tau = mo.kp * (val - c.value) + mo.kd * (dval - c.rate(nu));
      if (mo.maxEffort > 0) tau = std::clamp(tau, -mo.maxEffort, mo.maxEffort);
    } else if (mo.effort) {
      tau = mo.effort(d.t);
    }
    if (std::isfinite(tau)) c.addEffort(tau, f);
    else f(0) = std::numeric_limits<double>::quiet_NaN();  // reported by step() as a failure
  }
  // Perturbation springs (GUI drag).
  for (const PerturbationSpring& p : perturb_) {
    Vec3 x, v, a;
    int k;
    pointState(m_, d.q, bi_, nu, p.body, p.local, x, v, k, a);
    addPointForce(k, a, p.stiffness * (p.target - x) - p.damping * v, f);
  }
}

namespace {

double potentialEnergy(const Model& m, const Data& d) {
  double e = 0;
  for (const Body& b : m.bodies) {
    if (b.qIndex < 0) continue;
    const Pose P = bodyPose(m, d.q, static_cast<int>(&b - m.bodies.data()));
    e -= b.mass * m.gravity.dot(P.apply(b.com));
  }
  for (const Spring& s : m.springs) {
    const Vec3 x1 = bodyPose(m, d.q, s.body1).apply(s.local1);
    const Vec3 x2 = bodyPose(m, d.q, s.body2).apply(s.local2);
    const double ext = (x2 - x1).norm() - s.restLength;
    e += 0.5 * s.stiffness * ext * ext;
  }
  for (const JointSpring& s : m.jointSprings) {
    const double th = d.coords(m.joints[s.joint].firstCoord + s.coordinate) - s.rest;
    e += 0.5 * s.stiffness * th * th;
  }
  return e;
}

}  // namespace

EnergyReport mechanicalEnergy(const Model& m, const Data& d) {
  EnergyReport r;
  std::vector<dyn::BodyInertia> bi;
  dyn::bodyInertias(m, d.q, bi);
  VecX nu;
  dyn::qdotToTwist(m, d.q, bi, d.qd.size() == m.nq ? d.qd : VecX::Zero(m.nq), nu);
  r.kinetic = dyn::kineticEnergy(bi, nu);
  r.potential = potentialEnergy(m, d);
  return r;
}

EnergyReport DynamicsStepper::energy(const Data& d) const {
  EnergyReport r;
  std::vector<dyn::BodyInertia> bi;
  dyn::bodyInertias(m_, d.q, bi);
  r.kinetic = nu_.size() == 6 * m_.nMoving ? dyn::kineticEnergy(bi, nu_) : 0.0;
  r.potential = potentialEnergy(m_, d);
  return r;
}

}  // namespace mechsim
