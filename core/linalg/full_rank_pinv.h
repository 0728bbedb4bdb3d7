#pragma once
// core/linalg/full_rank_pinv.h — the pseudo-inverse solutions of A = L U, L (m × r) of full column
// rank and U (r × n) of full row rank (the rank-revealing LU's factors, sparse_lu_rect.h), by two
// sparse augmented systems instead of the dense reduced matrices of lu_nullspace.cpp.
//
// For a full-rank factorisation A⁺ = U⁺ L⁺ and (Aᵀ)⁺ = (Lᵀ)⁺ (Uᵀ)⁺ (Greville), and each factor's
// pseudo-inverse is the solution of a square, nonsingular augmented system (Björck, Numerical
// Methods for Least Squares Problems, §2.5.3; α > 0 any scale, the solutions do not depend on it):
//   K_L = [αI_m  L; Lᵀ  0]   y = L⁺ b:        K_L [s; y] = [b; 0]   (αs = b − L y, Lᵀ s = 0)
//                            x = (Lᵀ)⁺ v:     K_L [x; μ] = [0; v]   (x = −L μ / α ∈ range L, Lᵀ x = v)
//   K_U = [αI_n  Uᵀ; U  0]   z = U⁺ y:        K_U [z; λ] = [0; y]   (z = −Uᵀ λ / α ∈ range Uᵀ, U z = y)
//                            v = (Uᵀ)⁺ c:     K_U [s; v] = [c; 0]   (αs = c − Uᵀ v, U s = 0)
// Both are sparse (nnz of L resp. U twice plus the diagonal) and are factored by UMFPACK's sparse
// LU with partial pivoting, its symbolic analysis kept while the factors' pattern stays. Unlike
// the normal equations (LᵀL, UUᵀ) the condition number is not squared: the error is ~ ε cond(U),
// as for the dense route's Householder QR. What this costs grows with the fill of the augmented
// factors — about linearly in the size for mechanisms (chains, ladders: banded) — where the dense
// route's Jᵀ (r × (m − r)) and K (r × (n − r)) grow with the product of the size and the number of
// redundant equations or free directions.
#include <memory>

#include "core/types.h"

namespace mechsim::linalg {

class FullRankPseudoInverse {
 public:
  FullRankPseudoInverse();
  ~FullRankPseudoInverse();
  FullRankPseudoInverse(const FullRankPseudoInverse&) = delete;
  FullRankPseudoInverse& operator=(const FullRankPseudoInverse&) = delete;

  /// Factors the augmented systems of L (m × r) and U (r × n). False when UMFPACK reports the
  /// augmented matrix singular (L or U not of full rank) or fails.
  bool factorize(const SpMat& L, const SpMat& U);

  /// L⁺ b (b: m, y: r), U⁺ y (y: r, z: n), (Uᵀ)⁺ c (c: n, v: r), (Lᵀ)⁺ v (v: r, x: m).
  void solveL(const VecX& b, VecX& y) const;
  void solveU(const VecX& y, VecX& z) const;
  void solveUTranspose(const VecX& c, VecX& v) const;
  void solveLTranspose(const VecX& v, VecX& x) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mechsim::linalg
