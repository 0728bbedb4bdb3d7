// core/sim/anm_slider.cpp — slider moves along the ANM path (the homotopy is derived in dof_anm.h).
#include "core/sim/anm_slider.h"

#include <chrono>
#include <cmath>

#include "core/anm/constraint_series.h"
#include "core/kinematics/kinematics.h"
#include "core/linalg/lu_nullspace.h"
#include "core/max_abs.h"
#include "core/tolerances.h"

namespace mechsim::sim {
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

AnmMoveResult anmMoveDriver(const mechsim::Model& work, mechsim::Data& d, DriverInputs& inputs, int driver, double target, bool angular,
                            const anm::AnmOptions& opt, int maxStepsPerChunk, anm::AnmSeries* last) {
  if (last) *last = anm::AnmSeries{};
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
  mechsim::Data scratch = makeData(work);
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
      if (maxAbs(F0) < tol::kPositionResidual) break;
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
        anm::AnmSeries s = anm::expandSeries(h, q, 0.0, opt);
        q = s.xAt(s.stepTo(1.0));
        if (last) *last = std::move(s);
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

// ---- AnmSliderPath ----

namespace {
constexpr int kSamples = 16;  // samples of v(a) on each side of a = 0 (the bisection brackets)
}  // namespace

double AnmSliderPath::coordinateAt(const mechsim::Model& work, double a) {
  scratch_.q = series_.xAt(a);
  updateJointCoordinates(work, scratch_);
  return scratch_.coords[coordIndex_];
}

bool AnmSliderPath::keep(const mechsim::Model& work, const mechsim::Data& d, const DriverInputs& inputs, int driver, int coordIndex,
                         bool angular, anm::AnmSeries&& s) {
  driver_ = -1;
  if (s.x.empty() || !(s.range > 0)) return false;
  series_ = std::move(s);
  if (model_ != &work) scratch_ = makeData(work);  // reset() clears model_: a new model, a new scratch
  model_ = &work;
  coordIndex_ = coordIndex;
  angular_ = angular;
  scratch_.t = d.t;
  // v(a) on a grid of |a| ≤ a_r (0.999 a_r: strictly inside the range), angles unwrapped
  // continuously along the grid, then shifted by the whole turns that put v at the step's end
  // (λ = 1) on the slider's value there, inputs.value[driver].
  const double ar = 0.999 * series_.range, aEnd = series_.stepTo(1.0);
  std::vector<double> a(2 * kSamples + 1), v(a.size());
  for (int j = -kSamples; j <= kSamples; ++j) {
    a[j + kSamples] = ar * j / kSamples;
    v[j + kSamples] = coordinateAt(work, a[j + kSamples]);
  }
  if (angular_) {
    for (size_t j = 1; j < v.size(); ++j) v[j] = unwrapNear(v[j], v[j - 1]);
    size_t k = 0;
    while (k + 1 < a.size() && a[k + 1] < aEnd) ++k;
    const double vEnd = unwrapNear(coordinateAt(work, aEnd), v[k]);
    const double shift = unwrapNear(vEnd, inputs.value[driver]) - vEnd;  // whole turns
    for (double& x : v) x += shift;
  }
  // The monotone stretch around a = 0 (a fold of the driver's coordinate ends it).
  const double sign = v[kSamples + 1] - v[kSamples];
  if (!(sign != 0)) return false;
  int hi = kSamples, lo = kSamples;
  while (hi + 1 < static_cast<int>(v.size()) && (v[hi + 1] - v[hi]) * sign > 0) ++hi;
  while (lo - 1 >= 0 && (v[lo] - v[lo - 1]) * sign > 0) --lo;
  if (hi == lo) return false;
  a_.assign(a.begin() + lo, a.begin() + hi + 1);
  v_.assign(v.begin() + lo, v.begin() + hi + 1);
  driver_ = driver;
  t_ = d.t;
  others_ = inputs.value;
  return true;
}

AnmMoveResult AnmSliderPath::move(const mechsim::Model& work, mechsim::Data& d, DriverInputs& inputs, int driver, int coordIndex,
                                  double target, bool angular, const anm::AnmOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  // The kept series still describes this path: same model, driver, time, other drivers, and d.q
  // where the last move left it.
  bool onPath = driver_ == driver && model_ == &work && t_ == d.t && qAfter_.size() == d.q.size() &&
                qAfter_ == d.q && others_.size() == inputs.value.size();
  for (size_t k = 0; onPath && k < others_.size(); ++k)
    onPath = static_cast<int>(k) == driver || others_[k] == inputs.value[k];
  onPath = onPath && v_.size() >= 2 && target >= std::min(v_.front(), v_.back()) &&
           target <= std::max(v_.front(), v_.back());
  if (onPath) {
    // Bisection for v(a) = target between the bracketing samples.
    size_t j = 0;
    while (j + 2 < v_.size() && (v_[j + 1] - target) * (v_[j] - target) > 0) ++j;
    double aL = a_[j], aR = a_[j + 1], vL = v_[j];
    for (int it = 0; it < 60 && aR - aL > 1e-15 * std::max(1.0, std::abs(aR)); ++it) {
      const double am = 0.5 * (aL + aR);
      double vm = coordinateAt(work, am);
      if (angular_) vm = unwrapNear(vm, vL);
      if ((vm - target) * (vL - target) > 0) aL = am, vL = vm;
      else aR = am;
    }
    const VecX qStart = d.q;
    const double vStart = inputs.value[driver];
    const char followStart = inputs.follow[driver];
    inputs.follow[driver] = 0;
    inputs.value[driver] = target;
    d.q = series_.xAt(0.5 * (aL + aR));
    if (solvePositions(work, d, d.t)) {
      AnmMoveResult r;
      r.converged = r.fromSeries = true;
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      qAfter_ = d.q;
      ++seriesFrames_;
      return r;
    }
    d.q = qStart;  // the correction failed: a full move from where the slider was
    inputs.value[driver] = vStart;
    inputs.follow[driver] = followStart;
  }
  anm::AnmSeries last;
  AnmMoveResult r = anmMoveDriver(work, d, inputs, driver, target, angular, opt, 30, &last);
  ++fullMoves_;
  if (r.converged && keep(work, d, inputs, driver, coordIndex, angular, std::move(last))) qAfter_ = d.q;
  else driver_ = -1;
  return r;
}

}  // namespace mechsim::sim
