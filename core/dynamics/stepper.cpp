// core/dynamics/stepper.cpp — the time step (pipeline and energy behaviour in dynamics.h):
// constraint rows in twist space, weighted minimum-norm impulses (Riley, paper 002 eq. 66),
// drift projection, initial twists, reactions.
//
// Constraint rows. Every row of Φ except the quaternion normalisations (the twist keeps the
// quaternions unit by construction) and except drivers followed by a servo, plus a row per joint
// coordinate at or beyond one of its limits. A row g of Φ_q becomes g T in twist space (twist.h);
// the velocity constraint is J ν = −Φ_t (limits: J ν = 0 while the limit is active). With the
// free twist ν* the impulses λ solve
//     N λ = r,   N = J M⁻¹ Jᵀ,   r = −Φ_t − J ν*        (N = AᵀA, r = Aᵀb, A = M^{-½} Jᵀ)
// — consistent but singular when rows are redundant — and ν = ν* + M⁻¹ Jᵀ λ. Every least-squares
// λ gives the same ν (M⁻¹Jᵀλ is unique); the weighted minimum-norm λ (D, dynamics.h) makes the
// REACTIONS unique and symmetric where the mechanism is. Joint limits are unilateral: a limit row
// whose impulse comes out pulling (λ < 0 for a lower, > 0 for an upper limit) is dropped and the
// impulses are solved again (active set; at most a few passes).
#include <algorithm>
#include <chrono>
#include <cmath>
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

std::vector<int> imposedDriversOf(const Model& m) {
  std::vector<bool> servo(m.drivers.size(), false);
  for (const Motor& mo : m.motors)
    if (mo.driver >= 0) servo[mo.driver] = true;
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(m.drivers.size()); ++i)
    if (!servo[i]) out.push_back(i);
  return out;
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
    // Candidates: within reach of a bound in the next step (the active set drops those that pull).
    const double th = d.coords(j.firstCoord);
    const double reach = kLimitMargin + (lastH_ > 0 && d.coordVel.size() == m_.nCoords ? 2.0 * std::abs(d.coordVel(j.firstCoord)) * lastH_ : 0.0);
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
  // Limit rows: θ̇ = −(θ − bound)/h, which brings the coordinate onto the bound by the end of the
  // drift and holds it there (an inelastic stop); kept only while the impulse pushes.
  for (int r = 0; r < rows; ++r)
    if (rowKind_[r] == 2 && lastH_ > 0) {
      const Joint& j = m_.joints[rowJoint_[r]];
      const double bound = rowLimitSign_[r] > 0 ? j.limits->first : j.limits->second;
      phiT(r) = (d.coords(rowSource_[r]) - bound) / lastH_;
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
    // Unilateral limits: drop the rows whose impulse pulls, and solve again.
    std::vector<int> keep;
    bool dropped = false;
    for (int r2 = 0; r2 < rows; ++r2)
      if (rowKind_[r2] == 2) {
        if (lambda(r2) * rowLimitSign_[r2] < 0) dropped = true;
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

bool DynamicsStepper::project(Data& d) {
  stats_.projectionIterations = 0;
  stats_.kinematicFallback = false;
  const int rows = static_cast<int>(J_.rows());
  std::vector<int> rowOfEq(m_.nEquations, -1);
  for (int r = 0; r < rows; ++r)
    if (rowKind_[r] != 2) rowOfEq[rowSource_[r]] = r;
  VecX res(rows), mu, jl, delta;
  auto residual = [&]() {
    res.setZero();
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
  };
  double err = residual();
  projectionDelta_ = VecX::Zero(6 * m_.nMoving);
  projectionImpulse_ = VecX::Zero(rows);
  // Mass-metric Newton (chord: J, M⁻¹ and the Riley factors of step n, SHAKE's direction).
  for (int it = 0; it < kProjectionIterations && err >= tol::kPositionResidual && std::isfinite(err); ++it) {
    riley_.solve(-res, mu, nullptr, kProjectionRileyTolerance, kProjectionRileyIterations);
    jl = J_.transpose() * mu;
    dyn::applyInverseMass(bi_, jl, delta);
    dyn::displace(m_, bi_, delta, d.q);
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

// ---- initial state ----

bool DynamicsStepper::initialize(Data& d, bool useInitialRates) {
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
    // M^{-½} per block (the rotational block by its eigen-decomposition)
    MatX Mih = MatX::Zero(nv, nv);
    for (size_t k = 0; k < bi_.size(); ++k) {
      Mih.block<3, 3>(6 * k, 6 * k) = Mat3::Identity() / std::sqrt(bi_[k].mass);
      Eigen::SelfAdjointEigenSolver<Mat3> es(bi_[k].inertia);
      Mih.block<3, 3>(6 * k + 3, 6 * k + 3) =
          es.eigenvectors() * es.eigenvalues().cwiseSqrt().cwiseInverse().asDiagonal() * es.eigenvectors().transpose();
    }
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
  appliedForces(d, nu_, f);
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
