// core/sim/dynamic_run.cpp — the engine's dynamic mode (core/sim/dynamic_run.h): forward dynamics
// from a given state, the drag perturbation spring and the work it does.
#include "core/sim/dynamic_run.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "core/kinematics/kinematics.h"

namespace mechsim::sim {
namespace {
constexpr double kPi = 3.14159265358979323846;
/// Perturbation spring (header): natural frequency of the whole mechanism on it, damping ratio,
/// and the caps that keep the explicit kicks of the dragged body stable.
constexpr double kSpringHz = 2.0;
constexpr double kSpringZeta = 0.7;
constexpr double kMaxOmegaH = 0.2;
constexpr double kMaxDampingH = 0.5;
}  // namespace

std::string dynamicModeProblem(const mechsim::Model& m) {
  if (m.nMoving == 0) return "the mechanism has no moving body";
  for (const Body& b : m.bodies) {
    if (b.qIndex < 0) continue;
    if (!(b.mass > 0) || !std::isfinite(b.mass))
      return "body '" + b.name + "' has no mass: dynamic mode needs the mass and inertia of every moving body "
             "(\"mass\", \"inertia\" in the file)";
    Eigen::SelfAdjointEigenSolver<Mat3> es(b.inertia, Eigen::EigenvaluesOnly);
    if (!(es.eigenvalues().minCoeff() > 0))
      return "body '" + b.name + "' has no positive-definite inertia: dynamic mode needs it (\"inertia\" in the file)";
  }
  return {};
}

DynamicRun::DynamicRun(std::shared_ptr<const mechsim::Model> model) : m_(std::move(model)), sim_(*m_), d_(makeData(*m_)) {}

bool DynamicRun::start(const VecX& q, const VecX& qd, double t, bool fileRates) {
  message_ = dynamicModeProblem(*m_);
  if (!message_.empty()) return false;
  if (q.size() != m_->nq) {
    message_ = "the state does not belong to this mechanism";
    return false;
  }
  d_.q = q;
  d_.qd = qd.size() == m_->nq && qd.allFinite() ? qd : VecX::Zero(m_->nq);
  d_.t = t;
  work_ = 0;
  if (!sim_.initialize(d_, fileRates)) {
    message_ = sim_.stats().message;
    return false;
  }
  return true;
}

Vec3 DynamicRun::grabbedPoint() const {
  if (spring_.body < 0) return Vec3::Zero();
  return bodyPose(*m_, d_.q, spring_.body).apply(spring_.local);
}

Vec3 DynamicRun::springForce() const {
  // F = k (T − P) − c Ṗ, Ṗ = v_com + ω × (P − com) from the stepper's twist.
  const Body& b = m_->bodies[spring_.body];
  const int mv = b.qIndex / 7;
  const VecX& nu = sim_.twist();
  const Pose P = bodyPose(*m_, d_.q, spring_.body);
  const Vec3 x = P.apply(spring_.local), com = P.apply(b.com);
  Vec3 v = Vec3::Zero();
  if (nu.size() >= 6 * (mv + 1)) v = nu.segment<3>(6 * mv) + nu.segment<3>(6 * mv + 3).cross(x - com);
  return spring_.stiffness * (spring_.target - x) - spring_.damping * v;
}

bool DynamicRun::advance(double dt) {
  message_.clear();
  if (!(dt > 0)) return true;
  const double hMax = m_->dynamics.timestep > 0 ? m_->dynamics.timestep : 1e-3;
  const int n = std::max(1, static_cast<int>(std::ceil(dt / hMax - 1e-9)));
  const double h = dt / n;
  for (int k = 0; k < n; ++k)
    if (!step(h)) return false;
  return true;
}

bool DynamicRun::step(double h) {
  message_.clear();
  const bool spring = springId_ >= 0;
  Vec3 f0 = Vec3::Zero(), x0 = Vec3::Zero();
  if (spring) f0 = springForce(), x0 = grabbedPoint();
  if (!sim_.step(d_, h)) {
    message_ = "dynamics step failed at t = " + std::to_string(d_.t) + " s: " + sim_.stats().message;
    return false;
  }
  // Work of the spring over the step (trapezoidal rule).
  if (spring) work_ += 0.5 * (f0 + springForce()).dot(grabbedPoint() - x0);
  return true;
}

void DynamicRun::grab(const DragPoint& point, const Vec3& target) {
  release();
  const Body& b = m_->bodies[point.body];
  double total = 0;
  for (const Body& x : m_->bodies)
    if (x.qIndex >= 0) total += x.mass;
  const double h = m_->dynamics.timestep > 0 ? m_->dynamics.timestep : 1e-3;
  const double w0 = 2 * kPi * kSpringHz;
  spring_ = PerturbationSpring{};
  spring_.body = point.body;
  spring_.local = point.local;
  spring_.target = target;
  spring_.stiffness = std::min(total * w0 * w0, b.mass * (kMaxOmegaH / h) * (kMaxOmegaH / h));
  spring_.damping = std::min(2 * kSpringZeta * std::sqrt(spring_.stiffness * b.mass), kMaxDampingH * b.mass / h);
  target_ = target;
  springId_ = sim_.addPerturbation(spring_);
}

void DynamicRun::setTarget(const Vec3& target) {
  if (springId_ < 0 || !target.allFinite()) return;
  target_ = target;
  spring_.target = target;
  sim_.setPerturbationTarget(springId_, target);
}

void DynamicRun::release() {
  if (springId_ >= 0) sim_.removePerturbation(springId_);
  springId_ = -1;
}

}  // namespace mechsim::sim
