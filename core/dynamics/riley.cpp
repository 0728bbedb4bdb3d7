// core/dynamics/riley.cpp — Riley's iterated regularisation for weighted minimum-norm solutions
// (paper 002 eq. 66; derivation and convergence bound in riley.h).
#include "core/dynamics/riley.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

namespace mechsim::dyn {

namespace {

/// The dense route of estimateMu: every eigenvalue of N̂.
double estimateMuDense(const SpMat& N, const VecX& D, double relativeZero);

}  // namespace

double estimateMu(const SpMat& N, const VecX& D, double relativeZero) {
  if (N.rows() > kDenseMuRows) {
    const double mu = estimateMuByInertia(N, D, relativeZero);
    if (mu >= 0) return mu;
  }
  return estimateMuDense(N, D, relativeZero);
}

double estimateMuByInertia(const SpMat& N, const VecX& D, double relativeZero) {
  const Eigen::Index n = N.rows();
  if (n == 0) return 0;
  // N̂ = D^{-½} N D^{-½}, symmetrised, with every diagonal entry stored (the shifts land there;
  // as RileySolver::analyse stores them).
  const VecX d = D.cwiseSqrt().cwiseInverse();
  SpMat Nh = d.asDiagonal() * N * d.asDiagonal();
  Nh = 0.5 * (Nh + SpMat(Nh.transpose()));
  for (Eigen::Index i = 0; i < n; ++i) Nh.coeffRef(i, i) += 0.0;
  Nh.makeCompressed();
  // λ_max: from below by 40 power iterations (for σ₀, as the dense route scales its threshold by
  // the largest eigenvalue), from above by Gershgorin (the bisection's upper end).
  double gershgorin = 0;
  for (Eigen::Index j = 0; j < n; ++j) {
    double sum = 0;
    for (SpMat::InnerIterator it(Nh, j); it; ++it) sum += std::abs(it.value());
    gershgorin = std::max(gershgorin, sum);
  }
  if (!(gershgorin > 0)) return 0;
  VecX v = VecX::Ones(n) / std::sqrt(double(n));
  for (Eigen::Index i = 0; i < n; ++i) v(i) *= 1.0 + 0.5 * std::sin(double(i));  // not orthogonal to anything special
  double top = 0;
  for (int k = 0; k < 40; ++k) {
    const VecX w = Nh * v;
    top = v.dot(w) / v.squaredNorm();
    const double nw = w.norm();
    if (!(nw > 0)) break;
    v = w / nw;
  }
  if (!(top > 0)) return 0;
  // Negative pivots of LDLᵀ(N̂ − σI): the eigenvalues below σ (a zero pivot: σ nudged once).
  Eigen::SimplicialLDLT<SpMat, Eigen::Lower, Eigen::AMDOrdering<int>> ldlt;
  ldlt.analyzePattern(Nh);
  auto below = [&](double sigma) -> Eigen::Index {
    for (int attempt = 0; attempt < 2; ++attempt, sigma *= 1 + 1e-7) {
      SpMat S = Nh;
      for (Eigen::Index i = 0; i < n; ++i) S.coeffRef(i, i) -= sigma;
      ldlt.factorize(S);
      if (ldlt.info() != Eigen::Success) continue;
      const VecX& piv = ldlt.vectorD();
      if (!piv.allFinite()) continue;
      Eigen::Index count = 0;
      bool zero = false;
      for (Eigen::Index i = 0; i < n; ++i) {
        count += piv(i) < 0;
        zero = zero || piv(i) == 0;
      }
      if (!zero) return count;
    }
    return -1;
  };
  double lo = relativeZero * top, hi = gershgorin * (1 + 1e-9);
  const Eigen::Index k0 = below(lo);
  if (k0 < 0) return -1;
  if (k0 >= n) return top;  // as the dense route: nothing counts as non-zero but the largest
  while (hi / lo > 1.2) {
    const double mid = std::sqrt(lo * hi);
    const Eigen::Index c = below(mid);
    if (c < 0) return -1;
    (c > k0 ? hi : lo) = mid;
  }
  return std::sqrt(lo * hi);
}

namespace {

double estimateMuDense(const SpMat& N, const VecX& D, double relativeZero) {
  const Eigen::Index n = N.rows();
  if (n == 0) return 0;
  // N̂ = D^{-½} N D^{-½}: its eigenvalues are (α_i/β_i)² of the GSVD of (A, D^{½}) (paper eq. 82).
  const VecX d = D.cwiseSqrt().cwiseInverse();
  MatX Nh = d.asDiagonal() * MatX(N) * d.asDiagonal();
  Nh = 0.5 * (Nh + Nh.transpose());
  Eigen::SelfAdjointEigenSolver<MatX> es(Nh, Eigen::EigenvaluesOnly);
  if (es.info() != Eigen::Success) return 0;
  const VecX& ev = es.eigenvalues();  // ascending
  const double top = ev(n - 1);
  if (!(top > 0)) return 0;
  for (Eigen::Index i = 0; i < n; ++i)
    if (ev(i) > relativeZero * top) return ev(i);
  return top;
}

}  // namespace

void RileySolver::analyse(const SpMat& N) {
  const Eigen::Index n = N.rows();
  // AMD ordering of the symmetric pattern of N + I (N stores both triangles).
  SpMat S = N;
  for (Eigen::Index i = 0; i < n; ++i) S.coeffRef(i, i) += 0.0;
  S.makeCompressed();
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> Pinv;
  Eigen::AMDOrdering<int>()(S, Pinv);
  const Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> P = Pinv.inverse();
  perm_ = P.indices();
  // Upper-triangle pattern of K̃ = P (N + I) Pᵀ: entry (i, j) of N lands at (perm(i), perm(j)).
  std::vector<Triplet> t;
  t.reserve(static_cast<size_t>(N.nonZeros() / 2 + n));
  for (Eigen::Index j = 0; j < n; ++j) {
    for (SpMat::InnerIterator it(N, j); it; ++it) {
      const int pi = perm_(it.row()), pj = perm_(j);
      if (pi <= pj) t.emplace_back(pi, pj, 0.0);
    }
    t.emplace_back(perm_(j), perm_(j), 0.0);
  }
  Kp_.resize(n, n);
  Kp_.setFromTriplets(t.begin(), t.end());
  Kp_.makeCompressed();
  auto slot = [&](int r, int c) {
    const int* begin = Kp_.innerIndexPtr() + Kp_.outerIndexPtr()[c];
    const int* end = Kp_.innerIndexPtr() + Kp_.outerIndexPtr()[c + 1];
    return static_cast<int>(std::lower_bound(begin, end, r) - Kp_.innerIndexPtr());
  };
  nSlot_.assign(static_cast<size_t>(N.nonZeros()), -1);
  for (Eigen::Index j = 0; j < n; ++j)
    for (SpMat::InnerIterator it(N, j); it; ++it) {
      const int pi = perm_(it.row()), pj = perm_(j);
      if (pi <= pj) nSlot_[static_cast<size_t>(&it.value() - N.valuePtr())] = slot(pi, pj);
    }
  dSlot_.resize(static_cast<size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) dSlot_[i] = slot(perm_(i), perm_(i));
  ldlt_.analyzePattern(Kp_);
  patternRows_ = n;
  patternNnz_ = N.nonZeros();
  patternOuter_.assign(N.outerIndexPtr(), N.outerIndexPtr() + N.outerSize() + 1);
  patternInner_.assign(N.innerIndexPtr(), N.innerIndexPtr() + N.nonZeros());
}

bool RileySolver::factorize(const SpMat& N, const VecX& D, double mu, const RileyOptions& opt) {
  opt_ = opt;
  mu_ = mu;
  D_ = D;
  if (!(mu > 0) || !std::isfinite(mu) || D.size() != N.rows() || !(D.minCoeff() > 0) || !N.isCompressed()) return false;
  s_ = opt.reduction / (1.0 - opt.reduction) * mu;
  // Ordering and symbolic analysis only when N's pattern changed.
  const bool same = patternRows_ == N.rows() && patternNnz_ == N.nonZeros() &&
                    std::equal(patternOuter_.begin(), patternOuter_.end(), N.outerIndexPtr()) &&
                    std::equal(patternInner_.begin(), patternInner_.end(), N.innerIndexPtr());
  if (!same) analyse(N);
  // K̃ = P (N + s D) Pᵀ, values only.
  double* kv = Kp_.valuePtr();
  std::fill(kv, kv + Kp_.nonZeros(), 0.0);
  const double* nv = N.valuePtr();
  for (size_t k = 0; k < nSlot_.size(); ++k)
    if (nSlot_[k] >= 0) kv[nSlot_[k]] += nv[k];
  const Eigen::Index n = N.rows();
  Dp_.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    kv[dSlot_[i]] += s_ * D(i);
    Dp_(perm_(i)) = D(i);
  }
  if (!Eigen::Map<const VecX>(kv, Kp_.nonZeros()).allFinite()) return false;
  ldlt_.factorize(Kp_);
  return ldlt_.info() == Eigen::Success;
}

VecX RileySolver::regularizedSolve(const VecX& r) const {
  VecX rp(r.size());
  for (Eigen::Index i = 0; i < r.size(); ++i) rp(perm_(i)) = r(i);
  const VecX yp = ldlt_.solve(rp);
  VecX y(r.size());
  for (Eigen::Index i = 0; i < r.size(); ++i) y(i) = yp(perm_(i));
  return y;
}

RileyResult RileySolver::solve(const VecX& c, VecX& x, std::vector<VecX>* iterates, double tolerance,
                               int maxIterations) const {
  RileyResult r;
  const double tol = tolerance > 0 ? tolerance : opt_.tolerance;
  const int cap = maxIterations >= 0 ? maxIterations : opt_.maxIterations;
  const Eigen::Index n = c.size();
  x = VecX::Zero(n);
  if (n == 0) {
    r.converged = true;
    return r;
  }
  // The iteration in K̃'s numbering: c̃ = P c, D̃ = P D P^T, x̃ = P x.
  cp_.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) cp_(perm_(i)) = c(i);
  xp_.setZero(n);
  rhs_.resize(n);
  next_.resize(n);
  auto unpermute = [&]() {
    for (Eigen::Index i = 0; i < n; ++i) x(i) = xp_(perm_(i));
  };
  for (int k = 0; k < cap; ++k) {
    // (N + sD) x^{k+1} = s D x^k + c        (eq. 66)
    rhs_ = cp_ + s_ * Dp_.cwiseProduct(xp_);
    next_ = ldlt_.solve(rhs_);
    const double change = std::sqrt((next_ - xp_).cwiseAbs2().dot(Dp_));
    const double size = std::sqrt(next_.cwiseAbs2().dot(Dp_));
    xp_.swap(next_);
    if (iterates) {
      unpermute();
      iterates->push_back(x);
    }
    r.iterations = k + 1;
    r.lastChange = size > 0 ? change / size : change;
    if (!std::isfinite(r.lastChange)) break;
    if (change <= tol * size || size == 0) {
      r.converged = true;
      break;
    }
  }
  unpermute();
  return r;
}

VecX weightedMinNormReference(const MatX& N, const VecX& c, const VecX& D, double rankThreshold) {
  // x_D* = D^{-½} argmin{‖y‖ : N D^{-½} y = c in the least-squares sense}   (eq. 85)
  const VecX d = D.cwiseSqrt().cwiseInverse();
  const MatX B = N * d.asDiagonal();
  Eigen::CompleteOrthogonalDecomposition<MatX> cod;
  cod.setThreshold(rankThreshold);
  cod.compute(B);
  const VecX y = cod.solve(c);
  return d.cwiseProduct(y);
}

}  // namespace mechsim::dyn
