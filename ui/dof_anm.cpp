// ui/dof_anm.cpp — slider moves along the ANM path (the homotopy is derived in dof_anm.h).
#include "ui/dof_anm.h"

#include <chrono>
#include <cmath>

#include "core/anm/constraint_series.h"
#include "core/kinematics/kinematics.h"
#include "core/linalg/lu_nullspace.h"
#include "core/tolerances.h"

namespace mechsim::ui {
namespace {

/// H(q, λ) = F(q) − (1 − λ) F(q0): P = Φ_q(q0) (one factorisation), v = ∂H/∂λ = F(q0), and the
/// bias of order k is the a^k coefficient of F(q(a)) with q_k = 0 (the λ term is linear in λ).
class SliderHomotopy : public anm::AnmProblem {
 public:
  SliderHomotopy(anm::ConstraintSeries& cs, const linalg::LuNullspace& lu, const VecX& F0)
      : cs_(cs), lu_(lu), F0_(F0), zero_(VecX::Zero(0)) {}
  void lambdaColumn(VecX& v) override { v = F0_; }
  void solve(const VecX& b, VecX& x) override { lu_.solve(b, x); }
  void bias(int k, VecX& q) override {
    if (zero_.size() != lu_.cols()) zero_ = VecX::Zero(lu_.cols());
    cs_.setOrder(k, zero_);
    cs_.rows(k, q);
  }
  void push(int k, const VecX& xk, double) override { cs_.setOrder(k, xk); }

 private:
  anm::ConstraintSeries& cs_;
  const linalg::LuNullspace& lu_;
  const VecX& F0_;
  VecX zero_;
};

}  // namespace

AnmMoveResult anmMoveDriver(const Model& work, Data& d, DriverInputs& inputs, int driver, double target, bool angular,
                            const anm::AnmOptions& opt, int maxStepsPerChunk) {
  const auto t0 = std::chrono::steady_clock::now();
  AnmMoveResult res;
  const VecX qStart = d.q;
  const double vStart = inputs.value[driver];
  const char followStart = inputs.follow[driver];
  inputs.follow[driver] = 0;
  auto fail = [&] {
    d.q = qStart;
    inputs.value[driver] = vStart;
    inputs.follow[driver] = followStart;
    res.converged = false;
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
  };
  const double chunk = angular ? kAnmAngleChunk : kAnmLengthChunk * (work.lengthScale > 0 ? work.lengthScale : 1.0);
  const int chunks = std::max(1, static_cast<int>(std::ceil(std::abs(target - vStart) / chunk)));
  Data scratch = makeData(work);
  scratch.t = d.t;
  linalg::LuNullspace lu;
  VecX q = d.q, F0;
  for (int c = 1; c <= chunks; ++c) {
    inputs.value[driver] = vStart + (target - vStart) * c / chunks;
    // Φ's series with the drivers at their values now (driver i at this chunk's end value).
    anm::ConstraintSeries cs(work, d.t, opt.order);
    for (int step = 0;; ++step) {
      cs.start(q);
      cs.rows(0, F0);
      if (!F0.allFinite()) return fail();
      if (F0.lpNorm<Eigen::Infinity>() < tol::kPositionResidual) break;
      if (step >= maxStepsPerChunk) {
        // The series keep folding back (the value is out of reach): stop here unless the
        // Newton correction below still finds the end value close by.
        break;
      }
      scratch.q = q;
      constraintJacobian(work, scratch);
      if (!lu.compute(scratch.Jq)) return fail();
      SliderHomotopy h(cs, lu, F0);
      try {
        const anm::AnmSeries s = anm::expandSeries(h, q, 0.0, opt);
        q = s.xAt(s.stepTo(1.0));
      } catch (const std::exception&) {
        return fail();
      }
      ++res.steps;
    }
  }
  // Newton correction from the ANM end point (it starts from d.q: a changed q is no continuation).
  d.q = q;
  if (!solvePositions(work, d, d.t)) return fail();
  res.converged = true;
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace mechsim::ui
