// reference/linalg/dense_cod.cpp — the dense reference solver: Eigen's complete orthogonal
// decomposition A P = Q [T 0; 0 0] Z, so that A⁺ = P Zᵀ [T⁻¹ 0; 0 0] Qᵀ for any shape and rank.
// Used by the tests as the reference for LuNullspace and by the benchmark as the dense baseline.
#include "reference/linalg/dense_cod.h"

#include <stdexcept>

namespace mechsim::linalg {

bool DenseCod::factorize(const SpMat& A) {
  // Non-finite entries would poison the Householder reflections: reject them.
  for (int k = 0; k < A.outerSize(); ++k)
    for (SpMat::InnerIterator it(A, k); it; ++it)
      if (!std::isfinite(it.value())) return false;
  dense_ = MatX(A);
  if (threshold_ > 0.0) cod_.setThreshold(threshold_);
  cod_.compute(dense_);
  return true;
}

void DenseCod::solve(const VecX& b, VecX& x) const {
  if (b.size() != dense_.rows()) throw std::invalid_argument("DenseCod::solve: wrong right-hand side size");
  x = cod_.solve(b);
}

VecX DenseCod::solve(const VecX& b) const {
  VecX x;
  solve(b, x);
  return x;
}

VecX DenseCod::solveMinNormTranspose(const VecX& c) const {
  if (c.size() != dense_.cols()) throw std::invalid_argument("DenseCod::solveMinNormTranspose: wrong size");
  // (Aᵀ)⁺ = (A⁺)ᵀ: Eigen 3.4 solves with the transposed decomposition.
  return cod_.transpose().solve(c);
}

}  // namespace mechsim::linalg
