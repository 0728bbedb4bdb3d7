// core/deform/selected_inverse.cpp — Takahashi's recurrence on CHOLMOD's factor (see the header).
#include "core/deform/selected_inverse.h"

#include <cholmod.h>

#include <Eigen/CholmodSupport>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "core/deform/blas.h"

namespace mechsim::deform {

namespace {
/// Eigen's supernodal Cholesky with its CHOLMOD factor and common exposed.
class ExposedFactor : public Eigen::CholmodSupernodalLLT<SpMat> {
 public:
  explicit ExposedFactor(const SpMat& A) : Eigen::CholmodSupernodalLLT<SpMat>(A) {}
  cholmod_factor* factor() const { return m_cholmodFactor; }
};
}  // namespace

SelectedInverse::SelectedInverse(cholmod_factor_struct* L, const std::function<void()>& poll) {
  compute(L, poll);
}

SelectedInverse::SelectedInverse(const SpMat& A) {
  ExposedFactor f(A);
  if (f.info() != Eigen::Success) throw std::runtime_error("selected inverse: the matrix is not positive definite");
  compute(f.factor(), {});
}

void SelectedInverse::compute(cholmod_factor_struct* L, const std::function<void()>& poll) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!L->is_super || !L->is_ll || L->itype != CHOLMOD_INT || L->xtype != CHOLMOD_REAL || L->dtype != CHOLMOD_DOUBLE)
    throw std::logic_error("selected inverse: expects CHOLMOD's supernodal int / real / double factor");
  n_ = static_cast<int>(L->n);
  const int ns = static_cast<int>(L->nsuper);
  const int* P = static_cast<const int*>(L->Perm);
  perm_.assign(P, P + n_);
  pinv_.assign(n_, 0);
  for (int k = 0; k < n_; ++k) pinv_[perm_[k]] = k;
  const int* Ls = static_cast<const int*>(L->super);
  const int* Lpi = static_cast<const int*>(L->pi);
  const int* Lpx = static_cast<const int*>(L->px);
  super_.assign(Ls, Ls + ns + 1);
  rowStart_.assign(Lpi, Lpi + ns + 1);
  valStart_.assign(Lpx, Lpx + ns + 1);
  rows_.assign(static_cast<const int*>(L->s), static_cast<const int*>(L->s) + rowStart_[ns]);
  z_.assign(static_cast<const double*>(L->x), static_cast<const double*>(L->x) + valStart_[ns]);  // L, then Z
  snode_.assign(n_, 0);
  for (int K = 0; K < ns; ++K)
    for (int c = super_[K]; c < super_[K + 1]; ++c) snode_[c] = K;

  // The supernodes from the last down (a supernode's rows below its block are columns of later
  // ones). Z overwrites L in each supernode once it is done with it. The dense algebra is BLAS's
  // (OpenBLAS: its threads on the large supernodes near the root); the buffers only grow.
  std::vector<int> where;      // position of each row of R in the row list of its column's supernode
  std::vector<double> Zrr, B, Linv;
  for (int K = ns - 1; K >= 0; --K) {
    if (poll && K % 256 == 0) poll();
    const int w = super_[K + 1] - super_[K];
    const int rows = static_cast<int>(rowStart_[K + 1] - rowStart_[K]), m = rows - w;
    const int* R = &rows_[rowStart_[K] + w];
    double* X = &z_[valStart_[K]];  // column-major, leading dimension `rows`: L_JJ over L_RJ
    // L_JJ⁻¹ (w × w).
    Linv.assign(std::size_t(w) * w, 0.0);
    for (int c = 0; c < w; ++c) Linv[std::size_t(c) * w + c] = 1.0;
    blas::trsm('L', 'L', 'N', 'N', w, w, 1.0, X, rows, Linv.data(), w);
    if (m > 0) {
      // B = L_RJ L_JJ⁻¹ (m × w).
      B.resize(std::size_t(m) * w);
      for (int c = 0; c < w; ++c) std::copy_n(X + std::size_t(c) * rows + w, m, &B[std::size_t(c) * m]);
      blas::trsm('R', 'L', 'N', 'N', m, w, 1.0, X, rows, B.data(), m);
      // Z_RR's lower triangle: entry (b, a), b ≥ a, is in the supernode S of column R[a], column
      // R[a] − super_[S], at the row of R[b] in S's list (R[b] ≥ R[a] is there: S's rows hold R
      // from R[a] on). A run of R's columns in the same S shares one walk of S's rows.
      if (Zrr.size() < std::size_t(m) * m) Zrr.resize(std::size_t(m) * m);
      where.resize(m);
      for (int a = 0; a < m;) {
        const int S = snode_[R[a]];
        const std::size_t rowsS = rowStart_[S + 1] - rowStart_[S];
        const int* rS = &rows_[rowStart_[S]];
        for (std::size_t p = static_cast<std::size_t>(R[a] - super_[S]), b = a; b < static_cast<std::size_t>(m); ++b) {
          while (rS[p] != R[b]) ++p;  // the clique property: R[b] is ahead in S's rows
          where[b] = static_cast<int>(p);
        }
        int end = a;
        while (end < m && R[end] < super_[S + 1]) ++end;
        for (; a < end; ++a) {
          const double* zc = &z_[valStart_[S] + static_cast<std::size_t>(R[a] - super_[S]) * rowsS];
          double* out = &Zrr[std::size_t(a) * m];
          for (int b = a; b < m; ++b) out[b] = zc[where[b]];
        }
      }
      // Z_RJ = −Z_RR B, over L_RJ.
      blas::symm('L', 'L', m, w, -1.0, Zrr.data(), m, B.data(), m, 0.0, X + w, rows);
    }
    // Z_JJ = L_JJ⁻ᵀ L_JJ⁻¹ − Bᵀ Z_RJ (its lower triangle is what is read), over L_JJ.
    blas::syrk('L', 'T', w, w, 1.0, Linv.data(), w, 0.0, X, rows);
    if (m > 0) blas::gemm('T', 'N', w, w, m, -1.0, B.data(), m, X + w, rows, 1.0, X, rows);
  }

  // Row references: row j sits below the block of every supernode whose rows list it.
  rowRefPtr_.assign(n_ + 1, 0);
  for (int K = 0; K < ns; ++K)
    for (std::size_t t = rowStart_[K] + (super_[K + 1] - super_[K]); t < rowStart_[K + 1]; ++t) ++rowRefPtr_[rows_[t] + 1];
  for (int j = 0; j < n_; ++j) rowRefPtr_[j + 1] += rowRefPtr_[j];
  rowRefs_.resize(rowRefPtr_[n_]);
  std::vector<std::size_t> next(rowRefPtr_.begin(), rowRefPtr_.end() - 1);
  for (int K = 0; K < ns; ++K)
    for (std::size_t t = rowStart_[K] + (super_[K + 1] - super_[K]); t < rowStart_[K + 1]; ++t)
      rowRefs_[next[rows_[t]]++] = RowRef{K, static_cast<int>(t - rowStart_[K])};
  seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double SelectedInverse::operator()(int r, int c, bool* known) const {
  int i = pinv_[r], j = pinv_[c];
  if (i < j) std::swap(i, j);
  const int K = snode_[j];
  const auto first = rows_.begin() + static_cast<std::ptrdiff_t>(rowStart_[K]);
  const auto last = rows_.begin() + static_cast<std::ptrdiff_t>(rowStart_[K + 1]);
  // The block's rows are its columns (ascending), then the rows below (ascending).
  const auto it = std::lower_bound(first + (j - super_[K]), last, i);
  const bool found = it != last && *it == i;
  if (known) *known = found;
  return found ? z_[valStart_[K] + static_cast<std::size_t>(it - first) + static_cast<std::size_t>(j - super_[K]) * (rowStart_[K + 1] - rowStart_[K])]
               : 0.0;
}

}  // namespace mechsim::deform
