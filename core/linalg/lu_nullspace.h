#pragma once
// core/linalg/lu_nullspace.h — least-squares and minimum-norm solutions of quasi-square systems
// from one row-pivoted sparse LU (paper 003, Cardenal, Duff & Jiménez 1996, eq. 3.3-3.10).
//
//   P A Q = [L1; L2] U,  A1 = L1 U  (r × r, r = numerical rank),  J = L2 L1⁻¹,  S = I + J Jᵀ
//   least squares  min ‖b − A x‖:            S r2 = b2 − J b1 ;  A1 x = b1 + Jᵀ r2       (3.7-3.8)
//   minimum norm   min ‖x‖ s.t. Aᵀ x = c:     S x2 = J A1⁻ᵀ c  ;  x1 = A1⁻ᵀ c − Jᵀ x2     (3.9-3.10)
// Rank loss shows in the pivots; the rows left in L2 are the redundant equations and the columns
// without a pivot are directions the equations do not fix. (Full derivation in the .cpp.)
#include <memory>
#include <vector>

#include "core/tolerances.h"
#include "core/types.h"

namespace mechsim::linalg {

/// How the reduced systems of a solve are held: Auto — dense (Jᵀ, K and their Householder QR, the
/// paper's S) unless they would store more than 2²⁰ numbers, then the sparse augmented systems of
/// L and U (full_rank_pinv.h); Dense or Sparse to force one (tests, benchmarks).
enum class ReducedRoute { Auto, Dense, Sparse };

struct LuNullspaceOptions {
  double pivotThreshold = tol::kPivotThreshold;  // threshold partial pivoting parameter u (0.1)
  double rankTolerance = tol::kRankRelative;     // pivot below this × column scale counts as zero (1e-9)
  bool reusePivots = true;  // factorize() first refactors with the previous pivot order (see .cpp)
  ReducedRoute reduced = ReducedRoute::Auto;
};

class LuNullspace {
 public:
  explicit LuNullspace(LuNullspaceOptions opt = {});

  /// Symbolic analysis of A's pattern (m × n, any m, n). Call once per pattern.
  void analyzePattern(const SpMat& A);
  /// Numeric factorisation of A (same pattern as analysed). Returns false on non-finite input.
  bool factorize(const SpMat& A);
  /// analyzePattern (when the pattern changed or none was analysed) + factorize.
  bool compute(const SpMat& A);

  int rows() const;
  int cols() const;
  int rank() const;                           // numerical rank r
  const std::vector<int>& redundantRows() const;   // (m − r) rows of A dependent on the others
  const std::vector<int>& freeCols() const;        // (n − r) columns without an acceptable pivot

  /// x minimising ‖b − A x‖₂, and among those the one of minimum ‖x‖₂ (the pseudo-inverse
  /// solution A⁺ b). b: (m), returns (n).
  VecX solve(const VecX& b) const;
  /// Least squares on the full-rank part: x minimising ‖b − A x‖, with the free columns' entries
  /// set to zero (cheaper than solve(); equals it when rank = n).
  VecX solveLeastSquares(const VecX& b) const;
  /// Minimum-norm x with Aᵀ x = c in the least-squares sense (c: (n), returns (m)).
  VecX solveMinNormTranspose(const VecX& c) const;

  // ---- additions (beyond the original interface) ----
  /// Allocation-free variants of the three solves: x is resized only when its size is wrong.
  /// The solves share a workspace inside the object: do not call them concurrently on one object
  /// (copies share it too — give each thread its own LuNullspace).
  void solve(const VecX& b, VecX& x) const;
  void solveLeastSquares(const VecX& b, VecX& x) const;
  void solveMinNormTranspose(const VecX& c, VecX& x) const;
  /// True after a successful factorize()/compute() (false after non-finite input).
  bool factorized() const;
  /// Whether the solves of this factorisation take the sparse augmented systems (ReducedRoute).
  bool sparseReduced() const;
  /// True when the last factorize() kept the previous pivot sequence (fast numeric refactor).
  bool lastFactorizeReusedPivots() const;
  /// Nonzeros of L (without the unit diagonal) and of U (with the pivots), for diagnostics.
  int nnzL() const;
  int nnzU() const;
  const LuNullspaceOptions& options() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace mechsim::linalg
