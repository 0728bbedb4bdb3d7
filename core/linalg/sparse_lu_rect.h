#pragma once
// core/linalg/sparse_lu_rect.h — left-looking sparse LU of a rectangular m × n matrix with
// threshold partial (row) pivoting and rank detection, the factorisation (3.4) of paper 003.
//
//   P A Q ≈ [L1; L2] [U1 U2]
//     L1 (r × r) unit lower triangular, L2 ((m − r) × r), U1 (r × r) upper, U2 (r × (n − r)),
//     r = numerical rank, P puts the r pivot rows first (in pivot order), Q the r pivot columns
//     first (in pivot order) and the n − r free columns after them.
// The column order is chosen once per pattern (COLAMD, analyzePattern); the row order is chosen
// per numeric factorisation by threshold pivoting (factorize). See sparse_lu_rect.cpp.
#include <vector>

#include "core/types.h"

namespace mechsim::linalg {

class RectangularSparseLu {
 public:
  struct Options {
    double pivotThreshold = 0.1;  // u: accept a pivot ≥ u × the largest candidate of its column
    double rankTolerance = 1e-9;  // largest candidate ≤ this × max|A(:,j)| → column j is free
    bool reusePivots = true;      // factorize() first tries the previous pivot sequence (refactor)
  };

  /// Column ordering (COLAMD on the pattern of A, i.e. of AᵀA) and workspace. A: m × n.
  void analyzePattern(const SpMat& A, const Options& opt);
  /// Numeric factorisation of A (pattern as analysed; compressed). False on non-finite values.
  /// With reusePivots, it first refactors with the previous row/column order and structure (no
  /// graph search, no allocation) and keeps it if every pivot still passes the threshold and rank
  /// tests; otherwise it redoes the factorisation with fresh pivoting.
  bool factorize(const SpMat& A);
  /// True when the last factorize() reused the previous pivot sequence.
  bool lastReusedPivots() const { return lastReused_; }
  /// True when A (compressed) has exactly the analysed pattern.
  bool samePattern(const SpMat& A) const;
  bool analyzed() const { return analyzed_; }

  int rows() const { return m_; }
  int cols() const { return n_; }
  int rank() const { return r_; }

  // ---- factors, all indices in pivot order (see the layout comment in the .cpp) ----
  /// rowOrder[k] = original row of permuted row k: k < r pivot rows, k ≥ r redundant rows. (m)
  const std::vector<int>& rowOrder() const { return rowOrder_; }
  /// colOrder[k] = original column of permuted column k: k < r pivot columns, then free. (n)
  const std::vector<int>& colOrder() const { return colOrder_; }

  // In-place triangular solves on vectors of length r (pivot order). No allocation.
  void solveL1(double* x) const;            // x ← L1⁻¹ x
  void solveL1Transpose(double* x) const;   // x ← L1⁻ᵀ x
  void solveU1(double* x) const;            // x ← U1⁻¹ x
  void solveU1Transpose(double* x) const;   // x ← U1⁻ᵀ x
  /// y (m − r) ← y − L2 x, x (r).
  void subtractL2Times(const double* x, double* y) const;
  /// x (r) ← x + L2ᵀ y, y (m − r).
  void addL2TransposeTimes(const double* y, double* x) const;
  /// Jᵀ = L1⁻ᵀ L2ᵀ (J = L2 L1⁻¹, paper eq. 3.6) into jt (r × (m − r), row-major): the m − r
  /// sparse triangular solves done together (contiguous rows of length m − r).
  void jTranspose(double* jt) const;
  /// Column f (0 ≤ f < n − r) of K = U1⁻¹ U2 into dense k (r).
  void kColumn(int f, double* k) const;

  /// The factors as matrices in pivot order, for tests and diagnostics (allocates):
  /// L = [L1; L2] (m × r, unit diagonal stored), U = [U1 U2] (r × n), so P A Q ≈ L U with
  /// (P A Q)(k, l) = A(rowOrder[k], colOrder[l]).
  void factorsAsMatrices(SpMat& L, SpMat& U) const;

  int nnzL() const { return static_cast<int>(Li_.size()); }
  int nnzU() const { return static_cast<int>(Ui_.size()) + r_; }

 private:
  int reach(const SpMat& A, int col);  // DFS of the column's pattern through L's graph
  bool factorizePivoting(const SpMat& A);  // full left-looking LU with threshold pivoting
  bool refactor(const SpMat& A);       // numeric only, previous pivots and structure
  void finishFactors();                // permuted indices, L1/L2 split, row-wise copies

  Options opt_;
  bool analyzed_ = false;
  bool haveStructure_ = false;  // factors hold a structural (zero-including) pattern to refactor
  bool lastReused_ = false;
  int m_ = 0, n_ = 0, r_ = 0;

  // Analysed pattern and column order.
  std::vector<int> patOuter_, patInner_;  // copy of A's pattern, to detect a change
  std::vector<int> colamdOrder_;          // (n) column processed at step k
  std::vector<int> rowCount_;             // (m) nonzeros per row of A: sparsity tie-break

  // Factors. L by columns (pivot index t), row indices original during the factorisation and
  // permuted afterwards; within a column the L1 entries (row < r) come first, up to Lsplit_[t],
  // then the L2 entries. Entries are structural (zeros kept) so that refactor() can reuse them.
  std::vector<int> Lp_, Li_, Lsplit_;
  std::vector<double> Lx_;
  // U by steps k (the order columns were processed): off-diagonal entries with row = pivot index.
  std::vector<int> Up_, Ui_;
  std::vector<double> Ux_;
  std::vector<double> Udiag_;             // (r) pivots
  std::vector<int> pivotStep_, freeStep_; // (r), (n − r): step of each U1 / U2 column
  std::vector<int> stepPivot_;            // (n) pivot index of step k, or −(f + 1) for free column f
  std::vector<double> colScale_;          // (n) max |A(:,j)| by step, of the last factorisation
  // Free columns: the rows of the residual that was dropped (checked again by refactor()).
  std::vector<int> Dp_, Di_;
  mutable std::vector<char> jtNonzero_;          // (m) workspace of jTranspose: row of Jᵀ not all zero

  std::vector<int> pinv_, rowOrder_, colOrder_;

  // Workspace (sized in analyzePattern).
  std::vector<double> x_;                 // (m) dense accumulator, zero between columns
  std::vector<int> xi_, stack_, pstack_;  // (m) reach output and DFS stacks
  std::vector<unsigned> mark_;            // (m) DFS marks, compared with stamp_
  unsigned stamp_ = 0;
};

}  // namespace mechsim::linalg
