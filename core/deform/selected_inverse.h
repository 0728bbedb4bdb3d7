// core/deform/selected_inverse.h — the entries of A⁻¹ on the sparsity pattern of A's Cholesky
// factor, for a sparse SPD A (the "selected inverse"; Takahashi, Fagan & Chin 1973).
//
// With P A Pᵀ = L Lᵀ and Z = (P A Pᵀ)⁻¹ = L⁻ᵀ L⁻¹, Z L = L⁻ᵀ is upper triangular with diagonal
// 1/l_jj, so column j of that identity, for the rows i ≥ j, reads
//     Z_ij l_jj + Σ_{k∈S_j} Z_ik L_kj = δ_ij / l_jj,            S_j = {k > j : L_kj ≠ 0}.
// For i ∈ S_j every Z_ik it needs has i, k ∈ S_j, and S_j is a clique of the factor's graph (any
// two of its rows are a nonzero of L or Lᵀ): so Z on the pattern of L + Lᵀ is closed under the
// recurrence, taken for j = n−1 down to 0 — first Z_ij for i ∈ S_j, then Z_jj. The work is of the
// order of the factorisation's, where the dense inverse's columns cost 2 nnz(L) each (n of them).
// By supernodes (columns J with the same rows R below; Lin et al. 2011) it is dense algebra:
//     B = L_RJ L_JJ⁻¹,   Z_RJ = −Z_RR B,   Z_JJ = L_JJ⁻ᵀ L_JJ⁻¹ − Bᵀ Z_RJ,
// with Z_RR gathered from the supernodes of R (all later), taken from the last supernode down.
//
// JGS2's rest-shape subspaces need, per vertex i, the 3×3 blocks (H̄⁻¹)_{a i} (Eq. 19–23): the
// diagonal block gives the rest Schur complement and the blocks of the other vertices the
// subspace Ū_i. The selected inverse has them for the vertices a on i's rows and column of the
// factor's pattern — its neighbours and the separators the elimination fills in — in one pass
// instead of three solves per vertex with the whole factor (jgs2_precompute.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/deform/deformable.h"

struct cholmod_factor_struct;

namespace mechsim::deform {

class SelectedInverse {
 public:
  /// From CHOLMOD's supernodal Cholesky factor of A (with its fill-reducing permutation); the
  /// factor is copied, not changed. `poll`, when given, is called between supernodes every so
  /// often and may throw to abandon the work (a cancel request).
  explicit SelectedInverse(cholmod_factor_struct* L, const std::function<void()>& poll = {});
  /// Factorises A itself (CHOLMOD, its default ordering) — for tests and small matrices.
  explicit SelectedInverse(const SpMat& A);

  int size() const { return n_; }
  /// Values stored: the factor's supernodes, their diagonal blocks whole.
  std::size_t entries() const { return z_.size(); }
  /// Calls f(row, value) once for each known entry (row, col) of A⁻¹ — the diagonal, the factor's
  /// column of `col` and its row — in the original numbering.
  template <class F>
  void forEachInColumn(int col, F&& f) const {
    const int j = pinv_[col], K = snode_[j], c0 = j - super_[K];
    const std::size_t rows = rowStart_[K + 1] - rowStart_[K];
    const double* zK = &z_[valStart_[K]];
    // Column j: the supernode's rows from j down (its diagonal block's lower part, then its rows below).
    for (std::size_t p = c0; p < rows; ++p) f(perm_[rows_[rowStart_[K] + p]], zK[p + c0 * rows]);
    // Row j left of the diagonal: the block's columns before j, then every supernode below whose
    // rows j is — all its columns.
    for (int c = 0; c < c0; ++c) f(perm_[super_[K] + c], zK[c0 + c * rows]);
    for (std::size_t t = rowRefPtr_[j]; t < rowRefPtr_[j + 1]; ++t) {
      const int S = rowRefs_[t].super;
      const std::size_t rowsS = rowStart_[S + 1] - rowStart_[S];
      const double* zS = &z_[valStart_[S] + rowRefs_[t].pos];
      for (int c = super_[S]; c < super_[S + 1]; ++c) f(perm_[c], zS[(c - super_[S]) * rowsS]);
    }
  }
  /// A⁻¹(r, c) when (r, c) is on the pattern; `known` (when given) says whether it is.
  double operator()(int r, int c, bool* known = nullptr) const;
  /// Seconds spent: the copy and conversion of the factor, and the recurrence.
  double seconds() const { return seconds_; }

 private:
  void compute(cholmod_factor_struct* L, const std::function<void()>& poll);

  int n_ = 0;
  std::vector<int> perm_, pinv_;            // permuted index → original, and back
  // Z in the factor's supernodal layout (CHOLMOD's): supernode K has the columns
  // super_[K] … super_[K+1]−1 and the rows rows_[rowStart_[K] …] (its own columns first, then the
  // rows below, ascending); its values are column-major at z_[valStart_[K] …], the diagonal block
  // whole (symmetric).
  std::vector<int> super_, snode_;          // (nsuper + 1) first columns; (n) supernode of a column
  std::vector<std::size_t> rowStart_, valStart_;
  std::vector<int> rows_;
  std::vector<double> z_;
  // Row j's places below the diagonal blocks: (supernode, row position in it), at
  // rowRefs_[rowRefPtr_[j] …].
  struct RowRef {
    int super;
    int pos;
  };
  std::vector<std::size_t> rowRefPtr_;
  std::vector<RowRef> rowRefs_;
  double seconds_ = 0;
};

}  // namespace mechsim::deform
