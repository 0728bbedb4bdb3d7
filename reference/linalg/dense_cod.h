#pragma once
// reference/linalg/dense_cod.h — reference: dense complete orthogonal decomposition (Eigen), A⁺ b.
#include "core/types.h"

#include <Eigen/QR>

namespace mechsim::linalg {

/// A P = Q [T 0; 0 0] Z (rank-revealing QR with column pivoting, then RZ of the upper rows), which
/// gives the pseudo-inverse solution A⁺ b for any m, n and rank. O(m n²): a reference, not for speed.
class DenseCod {
 public:
  /// rankThreshold ≤ 0 keeps Eigen's default (ε × min(m, n), relative to the largest pivot).
  explicit DenseCod(double rankThreshold = 0.0) : threshold_(rankThreshold) {}
  void analyzePattern(const SpMat&) {}
  /// Dense copy of A and its decomposition. False on non-finite input.
  bool factorize(const SpMat& A);
  bool compute(const SpMat& A) { return factorize(A); }
  /// A⁺ b (b: (m), returns (n)).
  VecX solve(const VecX& b) const;
  void solve(const VecX& b, VecX& x) const;
  /// (A⁺)ᵀ c = (Aᵀ)⁺ c: minimum-norm x with Aᵀ x = c in the least-squares sense (c: (n), returns (m)).
  VecX solveMinNormTranspose(const VecX& c) const;
  int rank() const { return static_cast<int>(cod_.rank()); }

 private:
  double threshold_;
  MatX dense_;
  Eigen::CompleteOrthogonalDecomposition<MatX> cod_;
};

}  // namespace mechsim::linalg
