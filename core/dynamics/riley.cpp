// core/dynamics/riley.cpp — Riley's iterated regularisation for weighted minimum-norm solutions
// (paper 002 eq. 66; derivation and convergence bound in riley.h).
#include "core/dynamics/riley.h"

#include <cmath>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

namespace mechsim::dyn {

double estimateMu(const SpMat& N, const VecX& D, double relativeZero) {
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

bool RileySolver::factorize(const SpMat& N, const VecX& D, double mu, const RileyOptions& opt) {
  opt_ = opt;
  mu_ = mu;
  D_ = D;
  if (!(mu > 0) || !std::isfinite(mu) || D.size() != N.rows() || !(D.minCoeff() > 0)) return false;
  s_ = opt.reduction / (1.0 - opt.reduction) * mu;
  // K = N + s D (the diagonal is structurally present in every constraint system: each row has
  // a non-zero J_i M⁻¹ J_iᵀ; add it explicitly otherwise).
  SpMat Ds(N.rows(), N.cols());
  Ds.reserve(Eigen::VectorXi::Constant(N.cols(), 1));
  for (Eigen::Index i = 0; i < N.rows(); ++i) Ds.insert(i, i) = s_ * D(i);
  K_ = N + Ds;
  K_.makeCompressed();
  if (!Eigen::Map<const VecX>(K_.valuePtr(), K_.nonZeros()).allFinite()) return false;
  // Symbolic analysis only when the pattern changed.
  const bool same = patternRows_ == K_.rows() && patternNnz_ == K_.nonZeros() &&
                    std::equal(patternOuter_.begin(), patternOuter_.end(), K_.outerIndexPtr()) &&
                    std::equal(patternInner_.begin(), patternInner_.end(), K_.innerIndexPtr());
  if (!same) {
    ldlt_.analyzePattern(K_);
    patternRows_ = K_.rows();
    patternNnz_ = K_.nonZeros();
    patternOuter_.assign(K_.outerIndexPtr(), K_.outerIndexPtr() + K_.outerSize() + 1);
    patternInner_.assign(K_.innerIndexPtr(), K_.innerIndexPtr() + K_.nonZeros());
  }
  ldlt_.factorize(K_);
  return ldlt_.info() == Eigen::Success;
}

RileyResult RileySolver::solve(const VecX& c, VecX& x, std::vector<VecX>* iterates, double tolerance) const {
  RileyResult r;
  const double tol = tolerance > 0 ? tolerance : opt_.tolerance;
  const Eigen::Index n = c.size();
  x = VecX::Zero(n);
  if (n == 0) {
    r.converged = true;
    return r;
  }
  VecX rhs(n), next(n);
  for (int k = 0; k < opt_.maxIterations; ++k) {
    // (N + sD) x^{k+1} = s D x^k + c        (eq. 66)
    rhs = c + s_ * D_.cwiseProduct(x);
    next = ldlt_.solve(rhs);
    const double change = std::sqrt((next - x).cwiseAbs2().dot(D_));
    const double size = std::sqrt(next.cwiseAbs2().dot(D_));
    x.swap(next);
    if (iterates) iterates->push_back(x);
    r.iterations = k + 1;
    r.lastChange = size > 0 ? change / size : change;
    if (!std::isfinite(r.lastChange)) return r;
    if (change <= tol * size || size == 0) {
      r.converged = true;
      return r;
    }
  }
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
