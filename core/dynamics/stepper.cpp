// core/dynamics/stepper.cpp — the time step (pipeline and energy behaviour in dynamics.h):
// constraint rows in twist space, weighted minimum-norm impulses (Riley, paper 002 eq. 66),
// drift projection, initial twists, reactions.
//
// Constraint rows. Every row of Φ except the quaternion normalisations (the twist keeps the
// quaternions unit by construction) and except drivers followed by a servo, plus a row per joint
// coordinate at or beyond one of its limits. A row g of Φ_q becomes g T in twist space (twist.h);
// the velocity constraint is J ν = −Φ_t (limits: σθ̇ = −max(g, 0)/h while active, rowVelocityBias).
// With the free twist ν* the impulses λ solve
//     N λ = r,   N = J M⁻¹ Jᵀ,   r = −Φ_t − J ν*        (N = AᵀA, r = Aᵀb, A = M^{-½} Jᵀ)
// — consistent but singular when rows are redundant — and ν = ν* + M⁻¹ Jᵀ λ. Every least-squares
// λ gives the same ν (M⁻¹Jᵀλ is unique); the weighted minimum-norm λ (D, dynamics.h) makes the
// REACTIONS unique and symmetric where the mechanism is. Joint limits are unilateral: a limit row
// whose impulse comes out pulling (λ < 0 for a lower, > 0 for an upper limit) is dropped and the
// impulses are solved again (active set; at most a few passes) — unless its coordinate is beyond
// the bound, when it holds θ̇ = 0 for the step and the projection lifts it back. A pose that starts
// beyond a bound is moved onto it before the first step (projectIntoLimits).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include "core/dynamics/coordinate_rows.h"
#include "core/dynamics/dynamics.h"
#include "core/kinematics/assembly.h"
#include "core/kinematics/kinematics.h"
#include "core/max_abs.h"
#include "core/tolerances.h"

namespace mechsim {
namespace {

/// A limit row is a candidate when its coordinate is within this of the bound (SI, rad or m).
constexpr double kLimitMargin = 1e-9;
/// Iterations of the mass-metric Newton projection before the kinematic solver takes over.
constexpr int kProjectionIterations = 8;
/// Relative tolerance of the Riley solves inside the projection (Newton corrects the rest).
constexpr double kProjectionRileyTolerance = 1e-6;
/// At most this many Riley iterations per projection Newton step. The projection needs only the
/// displacement M⁻¹Jᵀμ, which is the same for every least-squares μ; but −Φ of redundant rows is
/// in general NOT in the range of N (unlike the impulse right-hand side −Jν*, paper eq. 84), and
/// then the iterates' null-space part grows without the relative change ever reaching the
/// tolerance. Measured on A02 (3 s): 95 % of the projection solves converge in ≤ 5 iterations,
/// the rest (next to the singular positions) ran to the 40-iteration cap, a quarter of all
/// projection solves; 10 leaves the displacement converged to ~f¹⁰ = 1e-10 relative.
constexpr int kProjectionRileyIterations = 10;
/// Steps of one move of the initial pose onto a limit (moveOntoLimits), and the
/// largest change of the moved coordinate per iteration (SI: rad or m).
constexpr int kLimitMoveIterations = 40;
constexpr double kLimitMoveStep = 0.1;
/// Rank threshold of its least-squares solves, relative to the rows' size before the projection
/// onto what the higher priorities leave free.
constexpr double kLimitMoveRank = 1e-8;

std::vector<int> imposedDriversOf(const Model& m) {
  std::vector<bool> servo(m.drivers.size(), false);
  for (const Motor& mo : m.motors)
    if (mo.driver >= 0) servo[mo.driver] = true;
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(m.drivers.size()); ++i)
    if (!servo[i]) out.push_back(i);
  return out;
}

/// M^{-½} of the bodies' mass matrix (nv = 6 per body): 1/√m on each translation block, and the
/// rotational block's inverse square root by its eigen-decomposition.
MatX inverseSqrtMass(const std::vector<dyn::BodyInertia>& bi, Eigen::Index nv) {
  MatX Mih = MatX::Zero(nv, nv);
  for (size_t k = 0; k < bi.size(); ++k) {
    Mih.block<3, 3>(6 * k, 6 * k) = Mat3::Identity() / std::sqrt(bi[k].mass);
    Eigen::SelfAdjointEigenSolver<Mat3> es(bi[k].inertia);
    Mih.block<3, 3>(6 * k + 3, 6 * k + 3) =
        es.eigenvectors() * es.eigenvalues().cwiseSqrt().cwiseInverse().asDiagonal() * es.eigenvectors().transpose();
  }
  return Mih;
}

}  // namespace

DynamicsStepper::DynamicsStepper(const Model& m) : m_(m), imposedDrivers_(imposedDriversOf(m)) {
  if (m.contact.enabled) {
    world_ = std::make_unique<collision::CollisionWorld>(m);
    if (!world_->anyPair()) world_.reset();
  }
}

// ---- constraint rows, N = J M⁻¹ Jᵀ, Riley factors ----

void DynamicsStepper::buildRows(const Data& d) {
  const int nv = 6 * m_.nMoving;
  std::vector<bool> imposed(m_.drivers.size(), false);
  for (int i : imposedDrivers_) imposed[i] = true;
  std::vector<int> rowOf(m_.nEquations, -1);
  rowJoint_.clear();
  rowKind_.clear();
  rowSource_.clear();
  rowLimitSign_.clear();
  int rows = 0;
  for (int j = 0; j < static_cast<int>(m_.joints.size()); ++j)
    for (int k = 0; k < m_.joints[j].nEquations; ++k) {
      rowOf[m_.joints[j].firstEquation + k] = rows++;
      rowJoint_.push_back(j);
      rowKind_.push_back(0);
      rowSource_.push_back(m_.joints[j].firstEquation + k);
      rowLimitSign_.push_back(0);
    }
  // Couplings (kind 3): scleronomic rows like the joints', on up to four bodies.
  for (const Coupling& c : m_.couplings) {
    rowOf[c.equation] = rows++;
    rowJoint_.push_back(c.joint);
    rowKind_.push_back(3);
    rowSource_.push_back(c.equation);
    rowLimitSign_.push_back(0);
  }
  for (int i = 0; i < static_cast<int>(m_.drivers.size()); ++i)
    if (imposed[i]) {
      rowOf[m_.drivers[i].equation] = rows++;
      rowJoint_.push_back(m_.drivers[i].joint);
      rowKind_.push_back(1);
      rowSource_.push_back(m_.drivers[i].equation);
      rowLimitSign_.push_back(0);
    }
  std::vector<int> signature(activeLimits_);
  signature.push_back(rows + static_cast<int>(activeLimits_.size()));
  // J's pattern is fixed for a given row set: the entries are visited in the same order every
  // time, so after the first build their values are written straight into J_ (jSlots_: value
  // index of each visited entry) with no triplet list and no sort.
  const bool refill = signature == rowSignature_ && J_.rows() == signature.back() && J_.cols() == nv && !jSlots_.empty();
  std::vector<Triplet> trip;
  size_t visit = 0;
  double* jv = J_.valuePtr();
  bool patternOk = true;
  auto put = [&](int row, int col, double v) {
    if (!refill) {
      trip.emplace_back(row, col, v);
    } else if (visit < jSlots_.size()) {
      jv[jSlots_[visit++]] += v;
    } else {
      patternOk = false;
    }
  };
  if (refill) std::fill(jv, jv + J_.nonZeros(), 0.0);
  else trip.reserve(12 * rows + 12 * activeLimits_.size());
  kin::forEachRowAt<kin::kGradient>(m_, d.q, nullptr, d.t, true, [&](const kin::RowInfo& info, const kin::Jet1& r) {
    const int row = rowOf[info.row];
    if (row < 0) return;
    for (int s = 0; s < 2; ++s) {
      const int b = info.body[s];
      if (b < 0 || m_.bodies[b].qIndex < 0) continue;
      const int qi = m_.bodies[b].qIndex, mv = qi / 7;
      const dyn::Vec6 tr = dyn::twistRow(r.g[s], d.q.segment<7>(qi), bi_[mv].comOffset);
      for (int c = 0; c < 6; ++c) put(row, 6 * mv + c, tr(c));
    }
  });
  // Active joint limits: code 2 j (lower) or 2 j + 1 (upper) of one-coordinate joint j.
  for (const int code : activeLimits_) {
    const int j = code / 2;
    const double sign = code % 2 == 0 ? 1.0 : -1.0;
    const int coord = m_.joints[j].firstCoord;
    const dyn::CoordinateRow c = dyn::coordinateRow(m_, d.q, bi_, j, 0, d.coords(coord));
    for (int s = 0; s < 2; ++s)
      if (c.moving[s] >= 0)
        for (int k = 0; k < 6; ++k) put(rows, 6 * c.moving[s] + k, c.row[s](k));
    rowJoint_.push_back(j);
    rowKind_.push_back(2);
    rowSource_.push_back(coord);
    rowLimitSign_.push_back(sign);
    ++rows;
  }
  if (refill && patternOk && visit == jSlots_.size()) return;
  if (refill) {
    // The visit sequence changed (it does not for a fixed row set): rebuild from scratch.
    rowSignature_.clear();
    jSlots_.clear();
    buildRows(d);
    return;
  }
  if (signature != rowSignature_) nPatternRows_ = -1;  // N's pattern must be rebuilt
  rowSignature_ = signature;
  J_.resize(rows, nv);
  J_.setFromTriplets(trip.begin(), trip.end());
  J_.makeCompressed();
  nPatternRows_ = -1;
  wrenchPatternRows_ = -1;
  jSlots_.resize(trip.size());
  for (size_t k = 0; k < trip.size(); ++k) {
    const int c = trip[k].col();
    const int* begin = J_.innerIndexPtr() + J_.outerIndexPtr()[c];
    const int* end = J_.innerIndexPtr() + J_.outerIndexPtr()[c + 1];
    jSlots_[k] = static_cast<int>(std::lower_bound(begin, end, trip[k].row()) - J_.innerIndexPtr());
  }
}

void DynamicsStepper::assembleN() {
  // N = J M⁻¹ Jᵀ = Σ_k J_k M_k⁻¹ J_kᵀ over the moving bodies k (J_k: J's 6 columns of body k,
  // non-zero in the few rows of the joints at k). The pattern of N is built once per pattern of J;
  // afterwards each body's dense block product is added straight into N's value array.
  const int rows = static_cast<int>(J_.rows());
  const int nb = static_cast<int>(bi_.size());
  const bool samePattern = nPatternRows_ == rows && nPatternNnz_ == J_.nonZeros() && N_.rows() == rows;
  if (!samePattern) {
    bodyRows_.assign(nb, {});
    for (int k = 0; k < nb; ++k) {
      for (int c = 0; c < 6; ++c)
        for (SpMat::InnerIterator it(J_, 6 * k + c); it; ++it) bodyRows_[k].push_back(static_cast<int>(it.row()));
      std::sort(bodyRows_[k].begin(), bodyRows_[k].end());
      bodyRows_[k].erase(std::unique(bodyRows_[k].begin(), bodyRows_[k].end()), bodyRows_[k].end());
    }
    std::vector<Triplet> t;
    for (int k = 0; k < nb; ++k)
      for (int a : bodyRows_[k])
        for (int b : bodyRows_[k]) t.emplace_back(a, b, 0.0);
    N_.resize(rows, rows);
    N_.setFromTriplets(t.begin(), t.end());
    N_.makeCompressed();
    nSlots_.clear();
    for (int k = 0; k < nb; ++k)
      for (int a : bodyRows_[k])
        for (int b : bodyRows_[k]) {
          // value index of N(a, b) (column b, row a)
          const int* begin = N_.innerIndexPtr() + N_.outerIndexPtr()[b];
          const int* end = N_.innerIndexPtr() + N_.outerIndexPtr()[b + 1];
          nSlots_.push_back(static_cast<int>(std::lower_bound(begin, end, a) - N_.innerIndexPtr()));
        }
    nPatternRows_ = rows;
    nPatternNnz_ = J_.nonZeros();
    size_t most = 0;
    for (const auto& br : bodyRows_) most = std::max(most, br.size());
    blockB_.resize(static_cast<Eigen::Index>(most), 6);
    blockBM_.resize(static_cast<Eigen::Index>(most), 6);
  }
  std::fill(N_.valuePtr(), N_.valuePtr() + N_.nonZeros(), 0.0);
  size_t slot = 0;
  for (int k = 0; k < nb; ++k) {
    const std::vector<int>& r = bodyRows_[k];
    const int n = static_cast<int>(r.size());
    // B = J_k restricted to its rows (n × 6), BM = B M_k⁻¹ (M_k⁻¹ = diag(1/m E₃, I⁻¹)).
    auto B = blockB_.topRows(n);
    auto BM = blockBM_.topRows(n);
    B.setZero();
    for (int c = 0; c < 6; ++c)
      for (SpMat::InnerIterator it(J_, 6 * k + c); it; ++it)
        B(std::lower_bound(r.begin(), r.end(), static_cast<int>(it.row())) - r.begin(), c) = it.value();
    BM.leftCols<3>() = bi_[k].invMass * B.leftCols<3>();
    BM.rightCols<3>() = B.rightCols<3>() * bi_[k].invInertia;
    // (B M_k⁻¹ Bᵀ)(a, b) into N's slots (a-major, b-minor order of nSlots_), symmetric.
    double* nv = N_.valuePtr();
    const int* sl = nSlots_.data() + slot;
    for (int a = 0; a < n; ++a) {
      nv[sl[a * n + a]] += BM.row(a).dot(B.row(a));
      for (int b = a + 1; b < n; ++b) {
        const double v = BM.row(a).dot(B.row(b));
        nv[sl[a * n + b]] += v;
        nv[sl[b * n + a]] += v;
      }
    }
    slot += static_cast<size_t>(n * n);
  }
}

bool DynamicsStepper::prepareConstraints(const Data& d) {
  dyn::bodyInertias(m_, d.q, bi_);
  // Limit candidates: coordinates at or beyond a bound.
  activeLimits_.clear();
  for (int jj = 0; jj < static_cast<int>(m_.joints.size()); ++jj) {
    const Joint& j = m_.joints[jj];
    if (!j.limits || j.nCoords != 1) continue;
    // Candidates: within reach of a bound in the next step, 2|θ̇|h + |θ̈|h² from the last step's
    // rate and acceleration (the active set drops those that pull).
    const double th = d.coords(j.firstCoord);
    double reach = kLimitMargin;
    if (lastH_ > 0 && d.coordVel.size() == m_.nCoords) reach += 2.0 * std::abs(d.coordVel(j.firstCoord)) * lastH_;
    if (lastH_ > 0 && d.coordAcc.size() == m_.nCoords && std::isfinite(d.coordAcc(j.firstCoord)))
      reach += std::abs(d.coordAcc(j.firstCoord)) * lastH_ * lastH_;
    if (th <= j.limits->first + reach) activeLimits_.push_back(2 * jj);
    if (th >= j.limits->second - reach) activeLimits_.push_back(2 * jj + 1);
  }
  buildRows(d);
  assembleN();
  const int rows = static_cast<int>(J_.rows());
  stats_.constraintRows = rows;
  if (rows == 0) return true;
  // Weights D (dynamics.h): the inverse effective masses N_ii, or identity.
  D_.resize(rows);
  const VecX diag = N_.diagonal();
  const double top = diag.maxCoeff();
  for (int i = 0; i < rows; ++i)
    D_(i) = m_.dynamics.weights == ConstraintWeights::Mass ? std::max(diag(i), 1e-12 * top) : 1.0;
  // μ: estimated once per set of rows (the generic configuration of the first step).
  std::vector<int> key(activeLimits_);
  key.push_back(rows);
  if (!(mu_ > 0) || key != muKey_) {
    mu_ = dyn::estimateMu(N_, D_);
    muKey_ = key;
  }
  stats_.mu = mu_;
  dyn::RileyOptions ro;
  ro.reduction = m_.dynamics.reduction;
  ro.tolerance = m_.dynamics.tolerance;
  ro.maxIterations = m_.dynamics.maxIterations;
  const bool ok = riley_.factorize(N_, D_, mu_, ro);
  stats_.s = riley_.s();
  if (!ok) stats_.message = "the constraint system could not be factored (non-finite values or μ = 0)";
  return ok;
}

// ---- impulses (stage 3) ----

VecX DynamicsStepper::rowVelocityBias(const Data& d, double tPhi) const {
  const int rows = static_cast<int>(J_.rows());
  // Φ_t of the imposed driver rows at tPhi (joint and limit rows are scleronomic).
  VecX phiT = VecX::Zero(rows);
  if (!imposedDrivers_.empty()) {
    const kin::BodyFrames frames(m_, d.q, nullptr);
    std::vector<int> rowOfEq(m_.nEquations, -1);
    for (int r = 0; r < rows; ++r)
      if (rowKind_[r] == 1) rowOfEq[rowSource_[r]] = r;
    kin::forEachDriverRow<kin::kGradient | kin::kTime>(m_, frames, tPhi, [&](const kin::RowInfo& info, const kin::Jet1&) {
      if (rowOfEq[info.row] >= 0) phiT(rowOfEq[info.row]) = info.phiT;
    });
  }
  // Limit rows (an inelastic stop that never adds energy). With the gap g = σ (θ − bound) (σ = +1 at
  // a lower, −1 at an upper bound; g ≥ 0 inside the range) the row asks for
  //     σ θ̇ ≥ −max(g, 0)/h,   i.e. Φ_t = σ max(g, 0)/h   (J ν = −Φ_t while the row is kept):
  // inside the range the coordinate may close the gap at most by the end of the drift (a
  // speculative contact, landing on the bound); on or beyond the bound it may not move further
  // in, and is NEVER pushed out by the velocity (the old target −(θ − bound)/h did push a
  // coordinate beyond the bound back at (bound − θ)/h: started 0.3 rad past its stop, a pendulum
  // got 300 rad/s at h = 1 ms). Why no energy is added: a kick with target J ν⁺ = c changes the
  // kinetic energy by
  //     ½ν⁺ᵀMν⁺ − ½ν*ᵀMν* = λᵀ J ν* + ½ λᵀNλ = λᵀc − ½ λᵀNλ        (ν⁺ = ν* + M⁻¹Jᵀλ, N = J M⁻¹ Jᵀ)
  // where c = 0 on the scleronomic joint rows and, on a kept limit row, σλ ≥ 0 (it pushes) and
  // σc = −max(g, 0)/h ≤ 0: so λᵀc ≤ 0 and the kick only removes kinetic energy. A coordinate
  // found beyond its bound (penetration after a nonlinear drift) is put back by the position
  // projection, whose limit part is not turned into velocity (project, step); the pose before the
  // first step is brought into range by initialize (projectIntoLimits).
  for (int r = 0; r < rows; ++r)
    if (rowKind_[r] == 2 && lastH_ > 0) {
      const Joint& j = m_.joints[rowJoint_[r]];
      const double sigma = rowLimitSign_[r];
      const double bound = sigma > 0 ? j.limits->first : j.limits->second;
      const double gap = sigma * (d.coords(rowSource_[r]) - bound);
      phiT(r) = sigma * std::max(gap, 0.0) / lastH_;
    }
  return phiT;
}

VecX DynamicsStepper::constraintImpulses(const Data& d, double tPhi, VecX& nu) {
  const int rows = static_cast<int>(J_.rows());
  if (rows == 0) return VecX();
  VecX phiT = rowVelocityBias(d, tPhi);
  VecX lambda;
  for (int pass = 0; pass < 4; ++pass) {
    // r = −Φ_t − J ν*
    const VecX r = -phiT - J_ * nu;
    const dyn::RileyResult res = riley_.solve(r, lambda);
    stats_.rileyIterations += res.iterations;
    stats_.maxRileyIterations = std::max(stats_.maxRileyIterations, res.iterations);
    // Unilateral limits: drop the rows whose impulse pulls, and solve again. A row whose
    // coordinate is beyond its bound (the drift crossed it within one step) is kept even when it
    // pulls: its target θ̇ = 0 holds the coordinate for the step, so that the drift projection,
    // which works on these rows, lifts it back onto the bound (positions only). Pulling at c = 0
    // adds no energy either (λᵀc − ½λᵀNλ ≤ 0, rowVelocityBias); a dropped row would leave the
    // penetration to whatever the joint rows' projection does (a Panda finger crept 3.6 mm past).
    std::vector<int> keep;
    bool dropped = false;
    for (int r2 = 0; r2 < rows; ++r2)
      if (rowKind_[r2] == 2) {
        const Joint& j = m_.joints[rowJoint_[r2]];
        const double bound = rowLimitSign_[r2] > 0 ? j.limits->first : j.limits->second;
        const bool beyond = rowLimitSign_[r2] * (d.coords(rowSource_[r2]) - bound) < -kLimitMargin;
        if (lambda(r2) * rowLimitSign_[r2] < 0 && !beyond) dropped = true;
        else keep.push_back(rowLimitSign_[r2] > 0 ? 2 * rowJoint_[r2] : 2 * rowJoint_[r2] + 1);
      }
    if (!dropped) break;
    activeLimits_ = keep;
    buildRows(d);
    // Refactor with the smaller row set (μ re-estimated for it).
    assembleN();
    const int nr = static_cast<int>(J_.rows());
    D_.resize(nr);
    const VecX diag = N_.diagonal();
    const double top = nr > 0 ? diag.maxCoeff() : 1.0;
    for (int i = 0; i < nr; ++i)
      D_(i) = m_.dynamics.weights == ConstraintWeights::Mass ? std::max(diag(i), 1e-12 * top) : 1.0;
    mu_ = dyn::estimateMu(N_, D_);
    muKey_.clear();
    dyn::RileyOptions ro{m_.dynamics.reduction, m_.dynamics.tolerance, m_.dynamics.maxIterations};
    riley_.factorize(N_, D_, mu_, ro);
    phiT.conservativeResize(nr);
    if (nr == 0) return VecX();
    return constraintImpulses(d, tPhi, nu);
  }
  // ν = ν* + M⁻¹ Jᵀ λ
  VecX jl = J_.transpose() * lambda, dv;
  dyn::applyInverseMass(bi_, jl, dv);
  nu += dv;
  addReactionImpulse(lambda);
  return lambda;
}

void DynamicsStepper::addReactionImpulse(const VecX& lambda) {
  // Reaction wrenches of the step: (Jᵀλ) per joint on its two bodies (twist space).
  if (reactionWrench_.size() != m_.joints.size()) reactionWrench_.assign(m_.joints.size(), {dyn::Vec6::Zero(), dyn::Vec6::Zero()});
  if (wrenchTarget_.size() != static_cast<size_t>(J_.nonZeros()) || wrenchPatternRows_ != J_.rows()) {
    // Per stored entry of J: 2 joint + 1 when it acts on the joint's body2, 2 joint for body1, −1 neither.
    wrenchTarget_.assign(static_cast<size_t>(J_.nonZeros()), -1);
    for (int k = 0; k < J_.outerSize(); ++k)
      for (SpMat::InnerIterator it(J_, k); it; ++it) {
        if (rowKind_[it.row()] == 3) continue;  // a coupling's reaction is no joint's
        const int j = rowJoint_[it.row()];
        const Joint& jt = m_.joints[j];
        const int mv = k / 6;
        int& t = wrenchTarget_[static_cast<size_t>(&it.value() - J_.valuePtr())];
        if (m_.bodies[jt.body2].qIndex == 7 * mv) t = 2 * j + 1;
        else if (m_.bodies[jt.body1].qIndex == 7 * mv) t = 2 * j;
      }
    wrenchPatternRows_ = J_.rows();
  }
  for (int k = 0; k < J_.outerSize(); ++k)
    for (SpMat::InnerIterator it(J_, k); it; ++it) {
      const int t = wrenchTarget_[static_cast<size_t>(&it.value() - J_.valuePtr())];
      if (t < 0) continue;
      auto& w = reactionWrench_[t / 2];
      (t % 2 ? w.second : w.first)(k % 6) += it.value() * lambda(it.row());
    }
}

// ---- projection (stage 5) ----

double DynamicsStepper::rowResidual(const Data& d, VecX& res) const {
  // Φ of the joint and driver rows of J; a limit row's one-sided violation (0 inside the range).
  const int rows = static_cast<int>(J_.rows());
  std::vector<int> rowOfEq(m_.nEquations, -1);
  for (int r = 0; r < rows; ++r)
    if (rowKind_[r] != 2) rowOfEq[rowSource_[r]] = r;
  res = VecX::Zero(rows);
  kin::forEachRowAt<kin::kValue>(m_, d.q, nullptr, d.t, true, [&](const kin::RowInfo& info, const kin::Jet1Lean& r) {
    if (rowOfEq[info.row] >= 0) res(rowOfEq[info.row]) = r.v;
  });
  for (int r = 0; r < rows; ++r)
    if (rowKind_[r] == 2) {
      const int coord = rowSource_[r];
      const Joint& j = m_.joints[rowJoint_[r]];
      const dyn::CoordinateRow c = dyn::coordinateRow(m_, d.q, bi_, rowJoint_[r], 0, d.coords(coord));
      const double bound = rowLimitSign_[r] > 0 ? j.limits->first : j.limits->second;
      const double viol = c.value - bound;
      res(r) = rowLimitSign_[r] > 0 ? std::min(viol, 0.0) : std::max(viol, 0.0);
    }
  return rows > 0 ? maxAbs(res) : 0.0;
}

bool DynamicsStepper::project(Data& d) {
  stats_.projectionIterations = 0;
  stats_.kinematicFallback = false;
  const int rows = static_cast<int>(J_.rows());
  VecX res, mu, jl, delta;
  auto residual = [&]() { return rowResidual(d, res); };
  double err = residual();
  projectionDelta_ = VecX::Zero(6 * m_.nMoving);
  projectionImpulse_ = VecX::Zero(rows);
  bool anyLimit = false;
  for (int r = 0; r < rows; ++r) anyLimit = anyLimit || rowKind_[r] == 2;
  // Mass-metric Newton (chord: J, M⁻¹ and the Riley factors of step n, SHAKE's direction).
  for (int it = 0; it < kProjectionIterations && err >= tol::kPositionResidual && std::isfinite(err); ++it) {
    riley_.solve(-res, mu, nullptr, kProjectionRileyTolerance, kProjectionRileyIterations);
    jl = J_.transpose() * mu;
    dyn::applyInverseMass(bi_, jl, delta);
    dyn::displace(m_, bi_, delta, d.q);
    // The displacement is linear in μ: Δ = M⁻¹J_bᵀμ_b + M⁻¹J_lᵀμ_l over the joint and driver rows
    // (b) and the limit rows (l). Only the first part becomes velocity in step() (RATTLE's secant)
    // and a reaction: the limit part is a pure position correction — it lifts a coordinate that
    // drifted past its bound back onto it, and turning that into the velocity Δ_l/h would throw
    // the coordinate off the stop, adding kinetic energy (dynamics.h, "Joint limits").
    if (anyLimit) {
      for (int r = 0; r < rows; ++r)
        if (rowKind_[r] == 2) mu(r) = 0;
      jl = J_.transpose() * mu;
      dyn::applyInverseMass(bi_, jl, delta);
    }
    projectionDelta_ += delta;
    projectionImpulse_ += mu;
    ++stats_.projectionIterations;
    err = residual();
  }
  // The projection's displacement M⁻¹Jᵀ(Σμ) becomes the velocity change (Σ M⁻¹Jᵀμ)/h in step():
  // the constraint impulse (Σμ)/h of the step's position part (with the drift's curvature: the
  // centripetal part of the reactions), on J of step n like the first half kick's λ.
  if (lastH_ > 0 && rows > 0) {
    projectionImpulse_ /= lastH_;
    addReactionImpulse(projectionImpulse_);
  }
  if (!(err < tol::kPositionResidual)) {
    // The kinematic position solver (least-squares Newton, paper 003) from here.
    stats_.kinematicFallback = true;
    PositionOptions po;
    po.drivers = !imposedDrivers_.empty() || m_.drivers.empty();
    if (!solvePositions(m_, d, d.t, po)) {
      stats_.message = "drift projection failed: " + d.stats.message;
      return false;
    }
    err = residual();
  }
  stats_.residual = err;
  return true;
}

// ---- the pose brought into range (before the first step) ----

bool DynamicsStepper::moveOntoLimits(Data& d, const VecX& startCoords, int target, const std::vector<double>& fixedAt) {
  // Steps of the displacement Δ (twist space) with rows in four priorities:
  //   0  every joint and imposed driver row of J: J Δ = 0 (tangent; after each step the kinematic
  //      position solver closes the joints again),
  //   1  the coordinate moved: ∇θ_t Δ = bound − θ_t,
  //   2  the coordinates put on a bound by earlier moves: held there,
  //   3  every other one-coordinate joint that started inside its range: held at its starting
  //      value (coordinates still beyond a bound, left for later moves, have no row; the joints
  //      of several coordinates follow freely),
  // solved lexicographically in the mass metric z = M^{½}Δ by the null-space method: with
  // A_k = (rows of priority k) M^{-½} and P_0 = I,
  //   z ← z + P_k (A_k P_k)⁺ (r_k − A_k z),   P_{k+1} = P_k − (A_k P_k)⁺ (A_k P_k),
  // so each priority is met as well as the ones above it allow (a closed loop may not let a
  // coordinate stay where it was), and among those moves the smallest in the M-norm. In an open
  // chain only the moved joint turns. The moved coordinate goes at most kLimitMoveStep per step.
  const int nv = 6 * m_.nMoving;
  if (nv == 0) return true;
  const Joint& tj = m_.joints[target];
  const int tIndex = tj.firstCoord;
  const double tBound = startCoords(tIndex) < tj.limits->first ? tj.limits->first : tj.limits->second;
  std::vector<bool> driven(m_.nCoords, false);
  for (int i : imposedDrivers_) driven[m_.joints[m_.drivers[i].joint].firstCoord + m_.drivers[i].coordinate] = true;
  auto inRange = [&](int jj, double th) {
    const Joint& j = m_.joints[jj];
    return !j.limits || j.nCoords != 1 || (th >= j.limits->first - kLimitMargin && th <= j.limits->second + kLimitMargin);
  };
  VecX res;
  for (int it = 0; it < kLimitMoveIterations; ++it) {
    dyn::bodyInertias(m_, d.q, bi_);
    buildRows(d);  // J's values at this q (the row set of the last prepareConstraints)
    rowResidual(d, res);
    const MatX Mih = inverseSqrtMass(bi_, nv);  // the mass metric's M^{-½}
    // Priority 0: the joint and driver rows of J (its limit rows are replaced by 1–3).
    std::vector<MatX> A(4);
    std::vector<VecX> r(4);
    double err = 0;
    {
      const MatX Jd(J_);
      std::vector<int> keep;
      for (int i = 0; i < static_cast<int>(J_.rows()); ++i)
        if (rowKind_[i] != 2) keep.push_back(i);
      A[0].resize(static_cast<Eigen::Index>(keep.size()), nv);
      r[0].resize(static_cast<Eigen::Index>(keep.size()));
      for (size_t i = 0; i < keep.size(); ++i) {
        A[0].row(static_cast<Eigen::Index>(i)) = Jd.row(keep[i]);
        r[0](static_cast<Eigen::Index>(i)) = 0;  // tangent: the joints are closed after the step
        err = std::max(err, std::abs(res(keep[i])));
      }
    }
    // Priorities 1–3: coordinate rows ∇θ T (coordinate_rows.h).
    std::vector<std::vector<std::pair<dyn::CoordinateRow, double>>> rows(4);  // row, wanted change
    for (int jj = 0; jj < static_cast<int>(m_.joints.size()); ++jj)
      for (int k = 0; k < m_.joints[jj].nCoords; ++k) {
        const int idx = m_.joints[jj].firstCoord + k;
        if (driven[idx]) continue;
        int level = 3;
        double want = startCoords(idx);
        if (idx == tIndex) level = 1, want = tBound;
        else if (!std::isnan(fixedAt[idx])) level = 2, want = fixedAt[idx];
        else if (!inRange(jj, startCoords(idx))) continue;  // beyond a bound: a later move's
        else if (m_.joints[jj].nCoords != 1) continue;  // ball, universal, ... joints follow (their
                                                          // coordinates are ill-conditioned holds)
        const dyn::CoordinateRow c = dyn::coordinateRow(m_, d.q, bi_, jj, k, d.coords(idx));
        rows[level].emplace_back(c, want - c.value);
        if (level == 1) err = std::max(err, std::abs(want - c.value));
      }
    // A long way to go is taken in steps of at most kLimitMoveStep (rad or m) of the moved
    // coordinate, so that the linearised loop closure of each step stays accurate.
    for (auto& rc : rows[1]) rc.second = std::clamp(rc.second, -kLimitMoveStep, kLimitMoveStep);
    if (err < tol::kPositionResidual) break;
    for (int level = 1; level < 4; ++level) {
      A[level] = MatX::Zero(static_cast<Eigen::Index>(rows[level].size()), nv);
      r[level].resize(static_cast<Eigen::Index>(rows[level].size()));
      for (size_t i = 0; i < rows[level].size(); ++i) {
        const dyn::CoordinateRow& c = rows[level][i].first;
        for (int s2 = 0; s2 < 2; ++s2)
          if (c.moving[s2] >= 0) A[level].block<1, 6>(static_cast<Eigen::Index>(i), 6 * c.moving[s2]) += c.row[s2].transpose();
        r[level](static_cast<Eigen::Index>(i)) = rows[level][i].second;
      }
    }
    // The lexicographic null-space solve.
    VecX z = VecX::Zero(nv);
    MatX P = MatX::Identity(nv, nv);
    for (int level = 0; level < 4; ++level) {
      if (A[level].rows() == 0) continue;
      const MatX AM = A[level] * Mih, AP = AM * P;
      // Rank by a threshold relative to the rows before the projection: what P leaves of a row
      // that the priorities above already fix is round-off (a closed loop's coordinates are
      // dependent), and inverting it would throw the pose off.
      const double apNorm = AP.norm();
      if (!(apNorm > kLimitMoveRank * AM.norm())) continue;
      Eigen::CompleteOrthogonalDecomposition<MatX> cod;
      cod.setThreshold(std::min(1.0, kLimitMoveRank * AM.norm() / apNorm));
      cod.compute(AP);
      z += P * cod.solve(VecX(r[level] - A[level] * Mih * z));
      if (level < 3) P -= cod.pseudoInverse() * AP;
    }
    const VecX delta = Mih * z;
    if (!delta.allFinite()) {
      stats_.message = "non-finite displacement";
      return false;
    }
    dyn::displace(m_, bi_, delta, d.q);
    // The step is tangent to the joints (J Δ = 0); their second-order opening is closed by the
    // kinematic position solver (least-squares Newton, paper 003: redundant loop rows included).
    PositionOptions po;
    po.drivers = !imposedDrivers_.empty() || m_.drivers.empty();
    if (!solvePositions(m_, d, d.t, po)) {
      stats_.message = d.stats.message;
      return false;
    }
    updateJointCoordinates(m_, d);
  }
  return true;
}

bool DynamicsStepper::projectIntoLimits(Data& d) {
  // A coordinate beyond a bound at the start (a file pose outside the range, a kinematic drag past
  // a stop) is moved onto the bound before the first step, positions only: the twist is set from
  // the rates afterwards, so nothing of the move becomes velocity (no energy is given to the
  // stop). One coordinate at a time, the furthest beyond its bound first (moveOntoLimits: the
  // joints closed, the coordinates already moved kept on their bounds, the others at their
  // starting values as far as the joints allow); a coordinate that a move brought into range
  // needs none (in a closed loop, moving one often does). Then the drift projection of stage 5
  // (project) cleans up. A coordinate an imposed driver prescribes is left to the driver.
  std::vector<bool> driven(m_.joints.size(), false);
  for (int i : imposedDrivers_) driven[m_.drivers[i].joint] = true;
  auto excess = [&](int jj) {  // how far beyond its range, SI (≤ 0 inside)
    const Joint& j = m_.joints[jj];
    if (!j.limits || j.nCoords != 1 || driven[jj]) return 0.0;
    const double th = d.coords(j.firstCoord);
    return std::max(j.limits->first - th, th - j.limits->second);
  };
  std::vector<double> start(m_.joints.size(), std::numeric_limits<double>::quiet_NaN());
  std::vector<double> fixedAt(m_.nCoords, std::numeric_limits<double>::quiet_NaN());
  const VecX startCoords = d.coords;
  const double hSave = lastH_;
  lastH_ = 0;  // candidates at the bounds only; no reaction bookkeeping in project()
  bool any = false;
  auto fail = [&](const std::string& why) {
    lastH_ = hSave;
    stats_.message = "could not move the initial pose into the joint limits: " + why;
    return false;
  };
  for (int pass = 0; pass < static_cast<int>(m_.joints.size()) + 1; ++pass) {
    int worst = -1;
    for (int jj = 0; jj < static_cast<int>(m_.joints.size()); ++jj) {
      if (!(excess(jj) > kLimitMargin)) continue;
      if (std::isnan(start[jj])) start[jj] = startCoords(m_.joints[jj].firstCoord);
      if (worst < 0 || excess(jj) > excess(worst)) worst = jj;
    }
    if (worst < 0) break;
    any = true;
    if (!std::isnan(fixedAt[m_.joints[worst].firstCoord])) break;  // moved once already: a loop that will not let it
    if (!prepareConstraints(d)) return fail(stats_.message);
    const Joint& wj = m_.joints[worst];
    VecX from = startCoords;
    from(wj.firstCoord) = d.coords(wj.firstCoord);  // the side it is beyond now
    if (!moveOntoLimits(d, from, worst, fixedAt)) return fail(stats_.message);
    fixedAt[wj.firstCoord] = from(wj.firstCoord) < wj.limits->first ? wj.limits->first : wj.limits->second;
  }
  if (any && (!prepareConstraints(d) || !project(d))) return fail(stats_.message);
  updateJointCoordinates(m_, d);
  lastH_ = hSave;
  if (!any) return true;
  // Say what moved (the CLI prints these as warnings).
  for (int jj = 0; jj < static_cast<int>(m_.joints.size()); ++jj) {
    if (std::isnan(start[jj])) continue;
    const Joint& j = m_.joints[jj];
    const char* unit = j.type == JointType::Revolute ? "rad" : "m";
    const bool below = start[jj] < j.limits->first;
    const double bound = below ? j.limits->first : j.limits->second;
    const double now = d.coords(j.firstCoord);
    char buf[400];
    std::snprintf(buf, sizeof buf, "joint '%s' started at %.6g %s, %.4g %s %s its %s limit %.6g %s: ", j.name.c_str(),
                  std::abs(start[jj]) < 1e-12 ? 0.0 : start[jj], unit,
                  std::abs(start[jj] - bound), unit, below ? "below" : "above", below ? "lower" : "upper", bound, unit);
    std::string line = buf;
    if (excess(jj) > kLimitMargin) {
      std::snprintf(buf, sizeof buf, "the joints do not let it into its range (still %.4g %s beyond)", excess(jj), unit);
      line += buf;
    } else if (std::abs(now - bound) <= 1e-6) {
      line += "the initial pose was moved onto the limit before the first step";
    } else {
      std::snprintf(buf, sizeof buf, "moving another joint into range brought it to %.6g %s before the first step", now, unit);
      line += buf;
    }
    stats_.notices.push_back(line);
  }
  return true;
}

// ---- initial state ----

bool DynamicsStepper::initialize(Data& d, bool useInitialRates) {
  const kin::CoordinateReference reference(d.coords);  // coupled leaders' branches (coupling.cpp)
  stats_ = DynamicsStats{};
  mu_ = 0;
  muKey_.clear();
  if (d.q.size() != m_.nq) {
    stats_.message = "Data does not belong to this model";
    return false;
  }
  PositionOptions po;
  po.drivers = !imposedDrivers_.empty() || m_.drivers.empty();
  if (m_.nq > 0 && !solvePositions(m_, d, d.t, po)) {
    stats_.message = "no consistent initial position: " + d.stats.message;
    return false;
  }
  if (d.qd.size() != m_.nq) d.qd = VecX::Zero(m_.nq);
  updateJointCoordinates(m_, d);
  if (!projectIntoLimits(d)) return false;
  dyn::bodyInertias(m_, d.q, bi_);
  dyn::qdotToTwist(m_, d.q, bi_, d.qd, nu_);
  if (!prepareConstraints(d)) return false;
  if (useInitialRates && !m_.initialRates.empty()) {
    // The M-norm-smallest twist with J ν = −Φ_t and the given coordinate rates (dense, once):
    // ν = M^{-½} ([J; G] M^{-½})⁺ [−Φ_t; rates].
    const int rows = static_cast<int>(J_.rows());
    const int nr = static_cast<int>(m_.initialRates.size());
    const int nv = 6 * m_.nMoving;
    MatX A = MatX::Zero(rows + nr, nv);
    A.topRows(rows) = MatX(J_);
    VecX rhs = VecX::Zero(rows + nr);
    VecX phiT = VecX::Zero(rows);
    {
      // −Φ_t of the driver rows: the twist change an impulse solve from ν = 0 would need.
      const kin::BodyFrames frames(m_, d.q, nullptr);
      std::vector<int> rowOfEq(m_.nEquations, -1);
      for (int r = 0; r < rows; ++r)
        if (rowKind_[r] == 1) rowOfEq[rowSource_[r]] = r;
      kin::forEachDriverRow<kin::kGradient | kin::kTime>(m_, frames, d.t, [&](const kin::RowInfo& info, const kin::Jet1&) {
        if (rowOfEq[info.row] >= 0) phiT(rowOfEq[info.row]) = info.phiT;
      });
    }
    rhs.head(rows) = -phiT;
    for (int i = 0; i < nr; ++i) {
      const InitialRate& ir = m_.initialRates[i];
      const int idx = m_.joints[ir.joint].firstCoord + ir.coordinate;
      const dyn::CoordinateRow c = dyn::coordinateRow(m_, d.q, bi_, ir.joint, ir.coordinate, d.coords(idx));
      for (int s = 0; s < 2; ++s)
        if (c.moving[s] >= 0) A.block<1, 6>(rows + i, 6 * c.moving[s]) += c.row[s].transpose();
      rhs(rows + i) = ir.value;
    }
    const MatX Mih = inverseSqrtMass(bi_, nv);
    Eigen::CompleteOrthogonalDecomposition<MatX> cod(A * Mih);
    nu_ = Mih * cod.solve(rhs);
    if (!nu_.allFinite()) {
      stats_.message = "the initial velocities could not be solved";
      return false;
    }
  } else if (J_.rows() > 0) {
    // Project the given twist onto the velocity constraints (an impulse solve with no forces).
    constraintImpulses(d, d.t, nu_);
  }
  dyn::twistToQdot(m_, d.q, bi_, nu_, d.qd);
  d.qdd = VecX::Zero(m_.nq);
  updateJointCoordinates(m_, d);
  lastImpulse_ = VecX::Zero(J_.rows());
  writtenQ_ = d.q;
  writtenQd_ = d.qd;
  writtenT_ = d.t;
  initialized_ = true;
  return true;
}

// ---- the step ----

bool DynamicsStepper::step(Data& d, double h) {
  const auto t0 = std::chrono::steady_clock::now();
  const kin::CoordinateReference reference(d.coords);  // coupled leaders' branches (coupling.cpp)
  if (!(h > 0) || !std::isfinite(h)) {
    stats_.message = "the time step must be positive";
    return false;
  }
  if (!initialized_ || d.q.size() != writtenQ_.size() || d.q != writtenQ_ || d.qd != writtenQd_ || d.t != writtenT_) {
    if (!initialize(d, !initialized_)) return false;
  }
  const VecX qSave = d.q, qdSave = d.qd, coordsSave = d.coords, nuSave = nu_;
  const double tSave = d.t;
  auto fail = [&](const std::string& why) {
    d.q = qSave;
    d.qd = qdSave;
    d.coords = coordsSave;
    d.t = tSave;
    nu_ = nuSave;
    stats_.message = why;
    prepareConstraints(d);
    return false;
  };
  stats_.rileyIterations = 0;
  stats_.message.clear();
  lastH_ = h;
  VecX f, dv;
  // 1-3. half kick at q_n: forces, free twist, impulses (rows prepared at q_n).
  appliedForces(d, nu_, f);
  if (!f.allFinite()) return fail("non-finite applied forces (a motor's effort expression?)");
  dyn::applyInverseMass(bi_, f, dv);
  nu_ += 0.5 * h * dv;
  reactionWrench_.assign(m_.joints.size(), {dyn::Vec6::Zero(), dyn::Vec6::Zero()});
  VecX lambdaA = constraintImpulses(d, d.t + 0.5 * h, nu_);
  // 3b. contact: contact rows and the bilateral rows in one boxed LCP (contact_stage.cpp).
  if (world_) {
    const VecX lc = contactImpulses(d, d.t + 0.5 * h, h);
    if (lc.size() > 0 && lc.size() == lambdaA.size()) lambdaA += lc;
    if (!nu_.allFinite()) return fail("the contact impulses are not finite");
  }
  if (contactStage) contactStage(m_, d, bi_, nu_, h);
  // 4. drift.
  dyn::displace(m_, bi_, h * nu_, d.q);
  d.t += h;
  // 5. projection onto Φ(q, t_{n+1}) = 0.
  if (!project(d)) return fail(stats_.message);
  // The half-step twist becomes the secant (q_{n+1} − q_n)/h, as in RATTLE: the projection's
  // displacement is part of the step's motion. Without this the closing kick would remove the
  // twist's component normal to the constraints at q_{n+1} — an O(h) energy loss per unit time.
  nu_ += projectionDelta_ / h;
  // 6. closing half kick at q_{n+1}.
  dyn::twistToQdot(m_, d.q, bi_, nu_, d.qd);
  updateJointCoordinates(m_, d);
  if (!prepareConstraints(d)) return fail(stats_.message);
  // The gyroscopic torques at the predicted ν̂ = 2 ν_{n+½} − ν_n (second order; dynamics.h, stage 6).
  const VecX nuPredicted = 2.0 * nu_ - nuSave;
  appliedForces(d, nu_, f, &nuPredicted);
  if (!f.allFinite()) return fail("non-finite applied forces (a motor's effort expression?)");
  dyn::applyInverseMass(bi_, f, dv);
  nu_ += 0.5 * h * dv;
  VecX lambdaB = constraintImpulses(d, d.t, nu_);
  if (!nu_.allFinite() || !d.q.allFinite()) return fail("the step produced non-finite values");
  // Impulses of the step (rows of the closing J; the first half kick's rows map onto them when the
  // row sets agree, which they do unless a joint limit switched).
  lastImpulse_ = lambdaB;
  if (lambdaA.size() == lambdaB.size()) lastImpulse_ += lambdaA;
  if (projectionImpulse_.size() == lambdaB.size()) lastImpulse_ += projectionImpulse_;
  finishStep(d, h, qdSave);
  stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return true;
}

void DynamicsStepper::finishStep(Data& d, double h, const VecX& qdOld) {
  dyn::twistToQdot(m_, d.q, bi_, nu_, d.qd);
  d.qdd = (d.qd - qdOld) / h;
  updateJointCoordinates(m_, d);
  ++stats_.steps;
  stats_.maxResidual = std::max(stats_.maxResidual, stats_.residual);
  d.stats.converged = true;
  d.stats.residual = stats_.residual;
  d.stats.message.clear();
  writtenQ_ = d.q;
  writtenQd_ = d.qd;
  writtenT_ = d.t;
}

// ---- reactions ----

std::vector<JointReaction> DynamicsStepper::reactions() const {
  std::vector<JointReaction> out(m_.joints.size());
  if (!(lastH_ > 0) || reactionWrench_.size() != m_.joints.size()) return out;
  for (size_t j = 0; j < m_.joints.size(); ++j) {
    const Joint& jt = m_.joints[j];
    // Wrench on body2 (force at its com, torque about its com) — or minus body1's when body2 is fixed.
    const bool useB2 = m_.bodies[jt.body2].qIndex >= 0;
    const int b = useB2 ? jt.body2 : jt.body1;
    const dyn::Vec6 w = (useB2 ? reactionWrench_[j].second : -reactionWrench_[j].first) / lastH_;
    const Pose P = bodyPose(m_, writtenQ_, b);
    const Vec3 com = P.apply(m_.bodies[b].com);
    const Vec3 point = P.apply(useB2 ? jt.point2 : jt.point1);
    out[j].force = w.head<3>();
    // τ about the joint point = τ about the com − (point − com) × F
    out[j].torque = w.tail<3>() - (point - com).cross(out[j].force);
  }
  return out;
}

// ---- perturbation springs ----

int DynamicsStepper::addPerturbation(const PerturbationSpring& p) {
  perturb_.push_back(p);
  perturbIds_.push_back(nextPerturbId_);
  return nextPerturbId_++;
}

void DynamicsStepper::setPerturbationTarget(int id, const Vec3& target) {
  for (size_t i = 0; i < perturbIds_.size(); ++i)
    if (perturbIds_[i] == id) perturb_[i].target = target;
}

void DynamicsStepper::removePerturbation(int id) {
  for (size_t i = 0; i < perturbIds_.size(); ++i)
    if (perturbIds_[i] == id) {
      perturb_.erase(perturb_.begin() + static_cast<long>(i));
      perturbIds_.erase(perturbIds_.begin() + static_cast<long>(i));
      return;
    }
}

}  // namespace mechsim
