// core/kinematics/drag_newton.cpp — the Newton drag solver: "handle at the cursor" as a
// prioritised least-squares problem, solved with the LU null-space factors of paper 003.
//
// At each iteration, with Φ and Φ_q at q and the handle error e = c − x(q), x = r_b + R(p_b) ℓ:
//
//   constraint step     δq_c = −Φ_q⁺ Φ                       (least squares / minimum norm, eq. 3.7-3.10)
//   null-space basis    Z = P_N Hᵀ = Hᵀ − Φ_q⁺ (Φ_q Hᵀ)        (H = ∂x/∂q, 3 × nq; P_N = I − Φ_q⁺ Φ_q)
//   handle step         δq_h = Z (ZᵀZ + μ² I)⁺ (e − H δq_c)   (damped least squares in the null space)
//   step                q ← q + δq_c + δq_h                    (quaternions renormalised)
//
// P_N projects on the null space of Φ_q, so δq_h does not disturb the linearised constraints: the
// constraints have strict priority and the handle is met as well as the mechanism allows (its
// least-squares solution). H P_N Hᵀ = ZᵀZ because P_N is a symmetric idempotent. Φ_q⁺ is the
// pseudo-inverse from one LuNullspace factorisation (four solves per iteration: δq_c and the three
// columns of Z), so redundant equations and singular positions need nothing special.
//
// Near the edge of the reachable set ZᵀZ becomes singular and Gauss–Newton would take a huge step
// along the lost direction; far from the set (a large residual) it overshoots along the curved
// set. The pseudo-inverse with a relative cut-off, the Levenberg–Marquardt damping μ² with its
// gain-ratio control and a cap on the step size make each iteration a descent step on ‖e‖²
// restricted to Φ = 0: an unreachable target leaves the mechanism at the closest reachable
// configuration it slides to (a local minimum of the distance), and it never jumps. A final solvePositions at the same t
// (no predictor there) polishes Φ to tolerance and fills d.stats with the rank and the singular test.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

#include <Eigen/Eigenvalues>

#include "core/kinematics/drag.h"
#include "core/kinematics/kinematics.h"
#include "core/kinematics/workspace.h"
#include "core/linalg/lu_nullspace.h"
#include "core/max_abs.h"
#include "core/tolerances.h"

namespace mechsim {

namespace {

using Mat37 = Eigen::Matrix<double, 3, 7>;

/// ∂x/∂(r, p) of x = r + R(p) ℓ for the (not necessarily unit) quaternion p = (w, v):
///   R(p) ℓ = (w² − v·v) ℓ + 2 (v·ℓ) v + 2 w (v × ℓ)   (equals R ℓ for unit p)
///   ∂/∂w = 2 w ℓ + 2 v × ℓ,   ∂/∂v = 2 (v·ℓ) I + 2 v ℓᵀ − 2 ℓ vᵀ − 2 w [ℓ]×.
Mat37 pointJacobian(const VecX& q, int qi, const Vec3& l) {
  const double w = q[qi + 3];
  const Vec3 v(q[qi + 4], q[qi + 5], q[qi + 6]);
  Mat37 H;
  H.leftCols<3>().setIdentity();
  H.col(3) = 2 * w * l + 2 * v.cross(l);
  Mat3 lx;
  lx << 0, -l.z(), l.y(), l.z(), 0, -l.x(), -l.y(), l.x(), 0;
  H.rightCols<3>() = 2 * v.dot(l) * Mat3::Identity() + 2 * v * l.transpose() - 2 * l * v.transpose() - 2 * w * lx;
  return H;
}

void normaliseQuaternions(const Model& m, VecX& q) {
  for (const Body& b : m.bodies) {
    if (b.qIndex < 0) continue;
    auto p = q.segment<4>(b.qIndex + 3);
    const double n = p.norm();
    if (n > 0) p /= n;
  }
}

/// Zeroes the driver rows of Φ and Φ_q (pattern kept): Φ_q⁺ then treats them as empty, redundant
/// rows, which is the system without drivers.
void dropDriverRows(const Model& m, Data& d) {
  const int first = m.nEquations - static_cast<int>(m.drivers.size());
  if (first >= m.nEquations) return;
  d.phi.tail(m.nEquations - first).setZero();
  for (int k = 0; k < d.Jq.outerSize(); ++k)
    for (SpMat::InnerIterator it(d.Jq, k); it; ++it)
      if (it.row() >= first) it.valueRef() = 0;
}

class NewtonDragSolver final : public DragSolver {
 public:
  std::string name() const override { return "newton"; }

  void begin(const Model& m, Data& d, const DragPoint& point) override {
    point_ = point;
    analysed_ = false;
    lambda_ = kLambdaMin;
  }

  DragResult update(const Model& m, Data& d, const Vec3& target) override;

 private:
  DragPoint point_;
  linalg::LuNullspace lu_;
  bool analysed_ = false;
  double lambda_ = kLambdaMin;  // Levenberg–Marquardt parameter (relative to the largest eigenvalue)
  static constexpr double kLambdaMin = 1e-8, kLambdaMax = 1e8;
};

DragResult NewtonDragSolver::update(const Model& m, Data& d, const Vec3& target) {
  const auto start = std::chrono::steady_clock::now();
  DragResult res;
  auto finish = [&](DragResult& r) -> DragResult& {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  if (point_.body < 0 || point_.body >= static_cast<int>(m.bodies.size()) || m.bodies[point_.body].qIndex < 0 ||
      !target.allFinite()) {
    res.message = "drag: the point is not on a moving body, or the target is not finite";
    res.distance = std::numeric_limits<double>::quiet_NaN();
    return finish(res);
  }
  const int qi = m.bodies[point_.body].qIndex;
  const double L = m.lengthScale > 0 ? m.lengthScale : 1.0;
  // Step caps per iteration: translations 0.25 L, quaternion entries 0.25 (≈ 30°).
  const double maxTranslation = 0.25 * L, maxQuaternion = 0.25;
  constexpr int kMaxIterations = 30;
  constexpr int kMaxAttempts = 8;

  const VecX qEntry = d.q;
  VecX q = d.q, trial(m.nq), dqc(m.nq), dqh(m.nq), soc(m.nq);
  Eigen::Matrix<double, Eigen::Dynamic, 3> Z(m.nq, 3);
  VecX col(m.nq), Jcol(m.nEquations), negPhi(m.nEquations);

  auto handleError = [&](const VecX& qq) { return Vec3(target - dragPointPosition(m, qq, point_)); };

  for (int it = 0; it < kMaxIterations; ++it) {
    d.q = q;
    constraintResidual(m, d);
    constraintJacobian(m, d);
    if (!point_.drivers) dropDriverRows(m, d);
    if (!d.phi.allFinite()) break;
    const double phiAtQ = maxAbs(d.phi);
    if (!analysed_) {
      lu_.analyzePattern(d.Jq);
      analysed_ = true;
    }
    if (!lu_.factorize(d.Jq)) break;
    ++res.factorizations;
    negPhi = -d.phi;
    lu_.solve(negPhi, dqc);
    ++res.solves;

    const Mat37 Hb = pointJacobian(q, qi, point_.local);
    for (int k = 0; k < 3; ++k) {
      col.setZero();
      col.segment<7>(qi) = Hb.row(k).transpose();
      Jcol = d.Jq * col;
      VecX corr;
      lu_.solve(Jcol, corr);
      ++res.solves;
      Z.col(k) = col - corr;
    }
    const Vec3 e = handleError(q);
    const Vec3 r = e - Hb * dqc.segment<7>(qi);
    // y = (ZᵀZ + λ·l_max I)⁺ r by the eigen-decomposition of the 3 × 3 ZᵀZ: directions the
    // mechanism cannot move the point in (eigenvalues below 1e-12 of the largest: a planar
    // mechanism and an out-of-plane target, a one-DOF coupler curve) are left out instead of
    // amplified. λ is the Levenberg–Marquardt parameter, kept from one iteration (and frame) to the
    // next: it shrinks after a step whose actual gain in ‖e‖² matches the linear prediction and
    // grows (shorter, more gradient-like steps) after one that does not — the far-target case,
    // where Gauss–Newton alone overshoots along a curved reachable set.
    const Mat3 ZtZ = Z.transpose() * Z;
    const Eigen::SelfAdjointEigenSolver<Mat3> eig(ZtZ);
    const double lmax = eig.eigenvalues().maxCoeff();
    // The constraint step alone, the reference for the handle step's gain.
    trial = q + dqc;
    normaliseQuaternions(m, trial);
    if (!trial.allFinite()) break;
    const VecX qc = trial;
    const double eC2 = handleError(qc).squaredNorm();
    bool accepted = false;
    double predicted = 0;
    for (int attempt = 0; attempt < kMaxAttempts && lmax > 0 && std::isfinite(lmax); ++attempt) {
      Vec3 y = Vec3::Zero();
      for (int k = 0; k < 3; ++k) {
        const double l = eig.eigenvalues()[k];
        if (l <= 1e-12 * lmax) continue;
        const Vec3 v = eig.eigenvectors().col(k);
        y += v * (v.dot(r) / (l + lambda_ * lmax));
      }
      dqh = Z * y;
      // Cap the handle step (the constraint step is a Newton correction and stays as it is).
      double scale = 1.0;
      for (const Body& b : m.bodies) {
        if (b.qIndex < 0) continue;
        const double tr = dqh.segment<3>(b.qIndex).cwiseAbs().maxCoeff();
        const double rot = dqh.segment<4>(b.qIndex + 3).cwiseAbs().maxCoeff();
        if (tr > maxTranslation) scale = std::min(scale, maxTranslation / tr);
        if (rot > maxQuaternion) scale = std::min(scale, maxQuaternion / rot);
      }
      dqh *= scale;
      predicted = r.squaredNorm() - (r - Hb * dqh.segment<7>(qi)).squaredNorm();
      if (!(predicted > 1e-30 * L * L)) break;  // stationary: nothing to gain
      trial = qc + dqh;
      normaliseQuaternions(m, trial);
      // Second-order correction: back towards Φ = 0 with the factors already at hand (a chord
      // step, one solve), so that the gain is measured on the constraint set and not on its tangent.
      if (trial.allFinite()) {
        d.q = trial;
        constraintResidual(m, d);
        if (!point_.drivers) dropDriverRows(m, d);
        negPhi = -d.phi;
        lu_.solve(negPhi, soc);
        ++res.solves;
        trial += soc;
        normaliseQuaternions(m, trial);
      }
      const double gain = trial.allFinite() ? eC2 - handleError(trial).squaredNorm() : -1.0;
      if (gain > 0) {
        // Nielsen's update from the gain ratio ρ = actual / predicted gain: λ shrinks smoothly
        // when the linear model is good (ρ → 1) and grows when it is poor.
        const double rho = gain / predicted;
        const double f = 2 * rho - 1;
        lambda_ = std::clamp(lambda_ * std::max(1.0 / 3.0, 1 - f * f * f), kLambdaMin, kLambdaMax);
        accepted = true;
        break;
      }
      lambda_ = std::min(lambda_ * 4, kLambdaMax);
    }
    if (!accepted) trial = qc;  // the constraint correction alone
    if (!trial.allFinite()) break;
    const VecX step = trial - q;
    q = trial;
    res.iterations = it + 1;

    // Stop when both the constraint correction and the handle step have become negligible.
    const double phiMax = phiAtQ;
    double stepMax = 0;
    for (const Body& b : m.bodies) {
      if (b.qIndex < 0) continue;
      stepMax = std::max(stepMax, step.segment<3>(b.qIndex).cwiseAbs().maxCoeff() / L);
      stepMax = std::max(stepMax, step.segment<4>(b.qIndex + 3).cwiseAbs().maxCoeff());
    }
    // (or no handle gain is left to predict: a stationary point of ‖e‖ on Φ = 0).
    if (phiMax < tol::kPositionResidual && (stepMax < 1e-12 || !(predicted > 1e-18 * L * L))) break;
  }

  // Polish Φ at the same time (Newton from q, no predictor since t is unchanged) and fill d.stats.
  d.q = q;
  const int dragIterations = res.iterations;
  PositionOptions opt;
  opt.drivers = point_.drivers;
  const bool ok = q.allFinite() && solvePositions(m, d, d.t, opt);
  if (!ok) {
    d.q = qEntry;
    constraintResidual(m, d);
    res.converged = false;
    res.residual = maxAbs(d.phi);
    res.distance = handleError(d.q).norm();
    std::ostringstream msg;
    msg << "drag: the constraints could not be satisfied near the target (" << d.stats.message << ")";
    res.message = msg.str();
    d.stats.converged = false;
    d.stats.message = res.message;
    return finish(res);
  }
  // The drag moved the mechanism: the time-continuation anchor of solvePositions is stale now.
  kinematicsWorkspace(m, d).anchor.valid = false;
  res.factorizations += 1 + d.stats.iterations;
  res.iterations = dragIterations;
  d.stats.iterations += dragIterations;
  res.converged = true;
  res.residual = d.stats.residual;
  res.distance = handleError(d.q).norm();
  res.reached = res.distance <= 1e-9 * L;
  finish(res);
  d.stats.solveSeconds = res.seconds;
  return res;
}

}  // namespace

Vec3 dragPointPosition(const Model& m, const VecX& q, const DragPoint& p) {
  return bodyPose(m, q, p.body).apply(p.local);
}

std::unique_ptr<DragSolver> makeNewtonDragSolver() { return std::make_unique<NewtonDragSolver>(); }

}  // namespace mechsim
