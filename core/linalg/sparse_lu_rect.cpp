// core/linalg/sparse_lu_rect.cpp — rectangular sparse LU with threshold pivoting (paper 003, eq. 3.4).
//
// Algorithm: left-looking, column by column (Gilbert & Peierls 1988, as in CSparse's cs_lu),
// columns in a fixed order Q chosen once per pattern, rows chosen per factorisation by threshold
// partial pivoting. Step k processes column j = Q(k):
//   1. reach   : the nonzero pattern of x = L(:,0:k)⁻¹ A(:,j) is the set of rows reachable from
//                the pattern of A(:,j) in the graph of L (edge i → rows of L(:, pinv(i))); a DFS
//                gives it in topological order at a cost proportional to the flops.
//   2. solve   : x = A(:,j); for each reached pivot row i (topological order) x -= L(:,pinv i) x_i.
//                Entries of x in pivot rows are U(0:k, k); the others are the Schur-complement
//                column, the pivot candidates.
//   3. pivot   : c = max |candidate|. If c ≤ rankTolerance × max|A(:,j)| the column has no
//                acceptable pivot: it is a free column (rank loss), its U entries form a column
//                of U2 and its tiny residual is dropped (A is factored up to that residual).
//                Otherwise any candidate with |x_i| ≥ u c is acceptable (threshold pivoting,
//                Duff, Erisman & Reid 1986 §7.8: growth in L bounded by 1/u per step); among
//                those we take the row with the fewest entries in A (a static Markowitz row
//                count: the row's entries are what the pivot row carries into U), ties → larger.
//   4. store   : L(:,k) = candidates / pivot (rows that never pivot end up as L2), U(k,k) = pivot.
//
// Why column-ordered left-looking rather than a full Markowitz search (MA48): the Jacobians here
// are small (10²-10³), very sparse (≈ 5-6 per column) and refactored every Newton step with the
// same pattern. COLAMD on the pattern of A orders the columns to keep the fill of AᵀA's Cholesky
// factor (an upper bound for the fill of U with any row pivoting, George & Ng 1987) small, once
// per pattern; the numeric step then only needs the reach + sparse triangular solve, with no
// active-submatrix bookkeeping, and runs in time proportional to the flops. The price is that the
// row choice can only use a static sparsity measure; for these matrices fill stays modest.
// The m − r rows that never get a pivot are exactly the redundant rows of the paper (block A2).
//
// Refactorisation (factorize() after a first factorisation): Newton steps change the values, not
// the pattern, and usually not enough to change the pivots. refactor() reruns the numeric steps
// 2-4 on the stored structure with the previous row and column order — no reach, no pivot
// search, no allocation — and checks every pivot (threshold with hysteresis u/2, rank test) and
// every free column's dropped residual; on any failure factorize() pivots afresh.
//
// Final layout (finishFactors): with pinv(i) = permuted position of original row i,
//   rows 0..r−1 = pivot rows in pivot order, rows r..m−1 = the others in increasing original order;
//   L column t: entries L1 (row < r) first, then L2 (row ≥ r); unit diagonal not stored.
//   U1 column t = step pivotStep_[t] of Up_/Ui_/Ux_ (rows < t) with diagonal Udiag_[t];
//   U2 column f = step freeStep_[f] (rows < number of pivots found before that step).
#include "core/linalg/sparse_lu_rect.h"

#include <Eigen/OrderingMethods>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

namespace mechsim::linalg {

void RectangularSparseLu::analyzePattern(const SpMat& A, const Options& opt) {
  if (!A.isCompressed()) throw std::invalid_argument("RectangularSparseLu: matrix must be compressed");
  opt_ = opt;
  m_ = static_cast<int>(A.rows());
  n_ = static_cast<int>(A.cols());
  const int nnz = static_cast<int>(A.nonZeros());

  // Keep the pattern, to check later factorisations against it.
  patOuter_.assign(A.outerIndexPtr(), A.outerIndexPtr() + n_ + 1);
  patInner_.assign(A.innerIndexPtr(), A.innerIndexPtr() + nnz);

  // Column order: COLAMD on A's pattern (an approximate minimum degree order of AᵀA).
  colamdOrder_.resize(n_);
  if (n_ > 0 && m_ > 0 && nnz > 0) {
    Eigen::COLAMDOrdering<int> colamd;
    Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> perm;
    colamd(A, perm);  // perm.indices()(j) = position of column j
    for (int j = 0; j < n_; ++j) colamdOrder_[perm.indices()(j)] = j;
  } else {
    for (int j = 0; j < n_; ++j) colamdOrder_[j] = j;
  }

  // Row counts for the static Markowitz tie-break.
  rowCount_.assign(m_, 0);
  for (int p = 0; p < nnz; ++p) rowCount_[patInner_[p]]++;

  // Workspace and a first guess of the factor sizes (they grow once and are then reused).
  x_.assign(m_, 0.0);
  xi_.assign(m_, 0);
  stack_.assign(m_, 0);
  pstack_.assign(m_, 0);
  mark_.assign(m_, 0u);
  stamp_ = 0;
  pinv_.assign(m_, -1);
  stepPivot_.assign(n_, 0);
  colScale_.assign(n_, 0.0);
  haveStructure_ = false;
  lastReused_ = false;
  rowOrder_.assign(m_, 0);
  colOrder_.assign(n_, 0);
  const int kmax = std::min(m_, n_);
  Lp_.reserve(kmax + 1);
  Lsplit_.reserve(kmax);
  Udiag_.reserve(kmax);
  pivotStep_.reserve(kmax);
  freeStep_.reserve(n_);
  Up_.reserve(n_ + 1);
  Li_.reserve(4 * nnz);
  Lx_.reserve(4 * nnz);
  Ui_.reserve(4 * nnz);
  Ux_.reserve(4 * nnz);
  jtNonzero_.assign(m_, 0);
  r_ = 0;
  analyzed_ = true;
}

bool RectangularSparseLu::samePattern(const SpMat& A) const {
  if (!analyzed_ || !A.isCompressed() || A.rows() != m_ || A.cols() != n_) return false;
  if (static_cast<size_t>(A.nonZeros()) != patInner_.size()) return false;
  return std::equal(patOuter_.begin(), patOuter_.end(), A.outerIndexPtr()) &&
         std::equal(patInner_.begin(), patInner_.end(), A.innerIndexPtr());
}

// Non-recursive DFS from the entries of A(:,col) through the graph of L built so far; returns top,
// with the reached rows in xi_[top..m) in topological order (cs_reach / cs_dfs).
int RectangularSparseLu::reach(const SpMat& A, int col) {
  const int* Ap = A.outerIndexPtr();
  const int* Ai = A.innerIndexPtr();
  int top = m_;
  if (++stamp_ == 0) {  // wrapped: clear the marks once every 2³² columns
    std::fill(mark_.begin(), mark_.end(), 0u);
    stamp_ = 1;
  }
  for (int p = Ap[col]; p < Ap[col + 1]; ++p) {
    const int start = Ai[p];
    if (mark_[start] == stamp_) continue;
    int head = 0;
    stack_[0] = start;
    while (head >= 0) {
      const int i = stack_[head];
      const int t = pinv_[i];
      if (mark_[i] != stamp_) {
        mark_[i] = stamp_;
        pstack_[head] = (t < 0) ? 0 : Lp_[t];
      }
      bool done = true;
      const int pend = (t < 0) ? 0 : Lp_[t + 1];
      for (int q = pstack_[head]; q < pend; ++q) {
        const int child = Li_[q];
        if (mark_[child] == stamp_) continue;
        pstack_[head] = q + 1;  // resume after this child
        stack_[++head] = child;
        done = false;
        break;
      }
      if (done) {
        --head;
        xi_[--top] = i;
      }
    }
  }
  return top;
}

bool RectangularSparseLu::factorize(const SpMat& A) {
  if (!analyzed_) throw std::logic_error("RectangularSparseLu::factorize before analyzePattern");
  if (!samePattern(A)) throw std::invalid_argument("RectangularSparseLu::factorize: pattern differs from the analysed one");
  // Reject non-finite input before touching the factors.
  const double* Ax = A.valuePtr();
  for (Eigen::Index p = 0; p < A.nonZeros(); ++p)
    if (!std::isfinite(Ax[p])) {
      r_ = 0;
      haveStructure_ = false;
      return false;
    }
  lastReused_ = opt_.reusePivots && haveStructure_ && refactor(A);
  if (lastReused_) return true;
  return factorizePivoting(A);
}

bool RectangularSparseLu::factorizePivoting(const SpMat& A) {
  const int* Ap = A.outerIndexPtr();
  const int* Ai = A.innerIndexPtr();
  const double* Ax = A.valuePtr();
  haveStructure_ = false;
  r_ = 0;

  std::fill(pinv_.begin(), pinv_.end(), -1);
  Lp_.clear();
  Li_.clear();
  Lx_.clear();
  Up_.clear();
  Ui_.clear();
  Ux_.clear();
  Udiag_.clear();
  pivotStep_.clear();
  freeStep_.clear();
  Dp_.clear();
  Di_.clear();
  Lp_.push_back(0);
  Up_.push_back(0);
  Dp_.push_back(0);

  const double u = opt_.pivotThreshold;
  int npiv = 0;
  for (int k = 0; k < n_; ++k) {
    const int col = colamdOrder_[k];

    // 1. Pattern of x = L⁻¹ A(:,col), topologically ordered.
    const int top = reach(A, col);

    // 2. Scatter the column and eliminate with the pivot rows reached (left-looking update).
    double colScale = 0.0;
    for (int p = Ap[col]; p < Ap[col + 1]; ++p) {
      x_[Ai[p]] = Ax[p];
      colScale = std::max(colScale, std::abs(Ax[p]));
    }
    colScale_[k] = colScale;
    for (int p = top; p < m_; ++p) {
      const int i = xi_[p];
      const int t = pinv_[i];
      if (t < 0) continue;
      const double xv = x_[i];
      if (xv == 0.0) continue;
      for (int q = Lp_[t]; q < Lp_[t + 1]; ++q) x_[Li_[q]] -= Lx_[q] * xv;
    }

    // 3a. U entries (pivot rows) and the largest candidate (non-pivot rows).
    double cmax = 0.0;
    for (int p = top; p < m_; ++p) {
      const int i = xi_[p];
      const int t = pinv_[i];
      if (t >= 0) {
        Ui_.push_back(t);  // structural entry, kept even if zero: refactor() reuses the pattern
        Ux_.push_back(x_[i]);
      } else {
        cmax = std::max(cmax, std::abs(x_[i]));
      }
    }
    Up_.push_back(static_cast<int>(Ui_.size()));

    // 3b. Rank decision, then threshold pivoting with the row-count tie-break.
    if (cmax <= opt_.rankTolerance * colScale || cmax == 0.0) {
      // Free column: U2 column = entries above; the residual (pattern kept for refactor) dropped.
      stepPivot_[k] = -static_cast<int>(freeStep_.size()) - 1;
      freeStep_.push_back(k);
      for (int p = top; p < m_; ++p)
        if (pinv_[xi_[p]] < 0) Di_.push_back(xi_[p]);
      Dp_.push_back(static_cast<int>(Di_.size()));
    } else {
      int piv = -1;
      double pivAbs = 0.0;
      for (int p = top; p < m_; ++p) {
        const int i = xi_[p];
        if (pinv_[i] >= 0) continue;
        const double a = std::abs(x_[i]);
        if (a < u * cmax) continue;
        if (piv < 0 || rowCount_[i] < rowCount_[piv] || (rowCount_[i] == rowCount_[piv] && a > pivAbs)) {
          piv = i;
          pivAbs = a;
        }
      }
      // 4. L column = candidates / pivot; the pivot row leaves the candidate set.
      const double pv = x_[piv];
      pinv_[piv] = npiv;
      for (int p = top; p < m_; ++p) {
        const int i = xi_[p];
        if (pinv_[i] >= 0) continue;
        Li_.push_back(i);
        Lx_.push_back(x_[i] / pv);
      }
      Lp_.push_back(static_cast<int>(Li_.size()));
      Udiag_.push_back(pv);
      pivotStep_.push_back(k);
      stepPivot_[k] = npiv;
      ++npiv;
    }

    // Clear the accumulator for the next column.
    for (int p = top; p < m_; ++p) x_[xi_[p]] = 0.0;
  }
  r_ = npiv;
  finishFactors();
  haveStructure_ = true;
  return true;
}

// Numeric refactorisation with the previous pivot sequence and structure (KLU's "refactor", the
// fast FACTOR entry of MA48): step k processes the same column; the rows of its U column, in
// increasing pivot index (a topological order, L being lower triangular in pivot order), update
// x with the L columns; the pivot must still pass the threshold test against the candidates in
// its L column and the rank test; a free column's dropped residual must stay below the rank
// tolerance. Any failure → false, and factorize() pivots afresh. x_ is indexed by permuted row.
// Hysteresis: a kept pivot needs |pivot| ≥ (u/2) × max candidate, not u. The sparsity tie-break
// often picks a pivot right at the threshold (ratio 0.1001), and a 1 % change of the Jacobian
// between Newton steps would otherwise throw the pivot order away every other step; the growth
// bound per step becomes 2/u = 20 instead of 10.
constexpr double kRefactorThresholdFactor = 0.5;

bool RectangularSparseLu::refactor(const SpMat& A) {
  const int* Ap = A.outerIndexPtr();
  const int* Ai = A.innerIndexPtr();
  const double* Ax = A.valuePtr();
  const double u = kRefactorThresholdFactor * opt_.pivotThreshold;
  for (int k = 0; k < n_; ++k) {
    const int col = colamdOrder_[k];
    double colScale = 0.0;
    for (int p = Ap[col]; p < Ap[col + 1]; ++p) {
      x_[pinv_[Ai[p]]] = Ax[p];
      colScale = std::max(colScale, std::abs(Ax[p]));
    }
    colScale_[k] = colScale;
    // U entries, eliminating as we go (x_[t] is final when reached, then cleared).
    for (int q = Up_[k]; q < Up_[k + 1]; ++q) {
      const int t = Ui_[q];
      const double xt = x_[t];
      x_[t] = 0.0;
      Ux_[q] = xt;
      if (xt == 0.0) continue;
      for (int l = Lp_[t]; l < Lp_[t + 1]; ++l) x_[Li_[l]] -= Lx_[l] * xt;
    }
    const int sp = stepPivot_[k];
    const double rankLimit = opt_.rankTolerance * colScale;
    if (sp >= 0) {
      // Pivot column t = sp: pivot at permuted row t, candidates in L(:, t)'s pattern.
      const double pv = x_[sp];
      x_[sp] = 0.0;
      double cmax = 0.0;
      for (int l = Lp_[sp]; l < Lp_[sp + 1]; ++l) cmax = std::max(cmax, std::abs(x_[Li_[l]]));
      const double apv = std::abs(pv);
      const bool ok = apv > 0.0 && apv >= u * cmax && std::max(apv, cmax) > rankLimit;
      for (int l = Lp_[sp]; l < Lp_[sp + 1]; ++l) {
        Lx_[l] = x_[Li_[l]] / pv;
        x_[Li_[l]] = 0.0;
      }
      if (!ok) return false;
      Udiag_[sp] = pv;
    } else {
      // Free column f: the dropped residual must still be negligible.
      const int f = -sp - 1;
      bool ok = true;
      for (int d = Dp_[f]; d < Dp_[f + 1]; ++d) {
        ok = ok && std::abs(x_[Di_[d]]) <= rankLimit;
        x_[Di_[d]] = 0.0;
      }
      if (!ok) return false;
    }
  }
  return true;
}

void RectangularSparseLu::finishFactors() {
  // Row permutation: pivot rows first, then the redundant rows in increasing original order.
  int next = r_;
  for (int i = 0; i < m_; ++i)
    if (pinv_[i] < 0) pinv_[i] = next++;
  for (int i = 0; i < m_; ++i) rowOrder_[pinv_[i]] = i;
  // Column permutation: pivot columns in pivot order, then free columns.
  for (int t = 0; t < r_; ++t) colOrder_[t] = colamdOrder_[pivotStep_[t]];
  for (int f = 0; f < n_ - r_; ++f) colOrder_[r_ + f] = colamdOrder_[freeStep_[f]];

  // Dropped residual rows of free columns: permuted indices.
  for (int& i : Di_) i = pinv_[i];
  // U columns in increasing pivot index (refactor() eliminates in this order). Most columns are
  // short and sorted by insertion; a long one — a body that many joints share, such as a hub with
  // 10^5 bodies hinged to it, whose columns COLAMD orders last and whose U columns then hold an
  // entry for nearly every pivot — by a sort of (index, value) pairs: insertion was quadratic
  // there (a third of `check`'s time at 3·10^3 joints on one body).
  constexpr int kInsertionSortMax = 64;
  std::vector<std::pair<int, double>> pairs;
  for (int k = 0; k < n_; ++k) {
    if (Up_[k + 1] - Up_[k] > kInsertionSortMax) {
      pairs.clear();
      for (int q = Up_[k]; q < Up_[k + 1]; ++q) pairs.emplace_back(Ui_[q], Ux_[q]);
      std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (int q = Up_[k], c = 0; q < Up_[k + 1]; ++q, ++c) {
        Ui_[q] = pairs[c].first;
        Ux_[q] = pairs[c].second;
      }
      continue;
    }
    for (int q = Up_[k] + 1; q < Up_[k + 1]; ++q) {
      const int ti = Ui_[q];
      const double tx = Ux_[q];
      int p = q - 1;
      for (; p >= Up_[k] && Ui_[p] > ti; --p) {
        Ui_[p + 1] = Ui_[p];
        Ux_[p + 1] = Ux_[p];
      }
      Ui_[p + 1] = ti;
      Ux_[p + 1] = tx;
    }
  }

  // L: permuted row indices, L1 entries first within each column.
  Lsplit_.resize(r_);
  for (int t = 0; t < r_; ++t) {
    int a = Lp_[t], b = Lp_[t + 1];
    for (int q = a; q < b; ++q) Li_[q] = pinv_[Li_[q]];
    while (a < b) {  // two-pointer partition: rows < r to the front
      if (Li_[a] < r_) {
        ++a;
      } else {
        --b;
        std::swap(Li_[a], Li_[b]);
        std::swap(Lx_[a], Lx_[b]);
      }
    }
    Lsplit_[t] = a;
  }

  // L2's column ranges are the tails of L's columns: no row-wise copy is needed (jTranspose
  // and the L2 products all work by columns).
}

// ---- triangular solves (pivot order, length r) ----

void RectangularSparseLu::solveL1(double* x) const {
  // Column-oriented forward substitution, unit diagonal: x(rows of L1(:,t)) -= L1(:,t) x_t.
  for (int t = 0; t < r_; ++t) {
    const double xt = x[t];
    if (xt == 0.0) continue;
    for (int q = Lp_[t]; q < Lsplit_[t]; ++q) x[Li_[q]] -= Lx_[q] * xt;
  }
}

void RectangularSparseLu::solveL1Transpose(double* x) const {
  // L1ᵀ is unit upper: x_t -= L1(:,t) · x, from the last row up.
  for (int t = r_ - 1; t >= 0; --t) {
    double s = x[t];
    for (int q = Lp_[t]; q < Lsplit_[t]; ++q) s -= Lx_[q] * x[Li_[q]];
    x[t] = s;
  }
}

void RectangularSparseLu::solveU1(double* x) const {
  // Column-oriented back substitution.
  for (int t = r_ - 1; t >= 0; --t) {
    const double xt = x[t] / Udiag_[t];
    x[t] = xt;
    if (xt == 0.0) continue;
    const int k = pivotStep_[t];
    for (int q = Up_[k]; q < Up_[k + 1]; ++q) x[Ui_[q]] -= Ux_[q] * xt;
  }
}

void RectangularSparseLu::solveU1Transpose(double* x) const {
  // U1ᵀ is lower: x_t = (x_t − U1(0:t,t) · x) / u_tt, from the first row down.
  for (int t = 0; t < r_; ++t) {
    const int k = pivotStep_[t];
    double s = x[t];
    for (int q = Up_[k]; q < Up_[k + 1]; ++q) s -= Ux_[q] * x[Ui_[q]];
    x[t] = s / Udiag_[t];
  }
}

void RectangularSparseLu::subtractL2Times(const double* x, double* y) const {
  // y -= L2 x column by column: y(rows of L2(:,t)) -= L2(:,t) x_t.
  for (int t = 0; t < r_; ++t) {
    const double xt = x[t];
    if (xt == 0.0) continue;
    for (int q = Lsplit_[t]; q < Lp_[t + 1]; ++q) y[Li_[q] - r_] -= Lx_[q] * xt;
  }
}

void RectangularSparseLu::addL2TransposeTimes(const double* y, double* x) const {
  // x_t += L2(:,t) · y.
  for (int t = 0; t < r_; ++t) {
    double s = 0.0;
    for (int q = Lsplit_[t]; q < Lp_[t + 1]; ++q) s += Lx_[q] * y[Li_[q] - r_];
    x[t] += s;
  }
}

void RectangularSparseLu::jTranspose(double* jt) const {
  // Jᵀ = L1⁻ᵀ L2ᵀ, i.e. L1ᵀ Jᵀ = L2ᵀ with L1ᵀ unit upper triangular. Row t of jt (length m − r,
  // contiguous) is J(:, t):   jt(t,:) = L2(:,t)ᵀ − Σ_{s>t} L1(s,t) jt(s,:),
  // back substitution from the last row, the sum running over the column t of L1 (rows s > t).
  // All m − r right-hand sides (the rows of J, paper Table 4.4 step 2) go together, so the inner
  // loop is a contiguous axpy of length m − r; rows of jt that are still zero are skipped.
  const int m2 = m_ - r_;
  std::fill(jt, jt + static_cast<size_t>(r_) * m2, 0.0);
  std::vector<char>& nz = jtNonzero_;
  for (int t = r_ - 1; t >= 0; --t) {
    double* jtt = jt + static_cast<size_t>(t) * m2;
    bool any = false;
    for (int q = Lsplit_[t]; q < Lp_[t + 1]; ++q) {
      jtt[Li_[q] - r_] = Lx_[q];
      any = true;
    }
    for (int q = Lp_[t]; q < Lsplit_[t]; ++q) {
      const int srow = Li_[q];
      if (!nz[srow]) continue;
      const double l = Lx_[q];
      const double* js = jt + static_cast<size_t>(srow) * m2;
      for (int i = 0; i < m2; ++i) jtt[i] -= l * js[i];
      any = true;
    }
    nz[t] = any;
  }
}

void RectangularSparseLu::kColumn(int f, double* k) const {
  // U1 k = U2(:,f): scatter the sparse column, then back substitution.
  std::fill(k, k + r_, 0.0);
  const int step = freeStep_[f];
  for (int q = Up_[step]; q < Up_[step + 1]; ++q) k[Ui_[q]] = Ux_[q];
  solveU1(k);
}

void RectangularSparseLu::factorsAsMatrices(SpMat& L, SpMat& U) const {
  std::vector<Triplet> tl, tu;
  for (int t = 0; t < r_; ++t) {
    tl.emplace_back(t, t, 1.0);
    for (int q = Lp_[t]; q < Lp_[t + 1]; ++q) tl.emplace_back(Li_[q], t, Lx_[q]);
    tu.emplace_back(t, t, Udiag_[t]);
    const int k = pivotStep_[t];
    for (int q = Up_[k]; q < Up_[k + 1]; ++q) tu.emplace_back(Ui_[q], t, Ux_[q]);
  }
  for (int f = 0; f < n_ - r_; ++f) {
    const int k = freeStep_[f];
    for (int q = Up_[k]; q < Up_[k + 1]; ++q) tu.emplace_back(Ui_[q], r_ + f, Ux_[q]);
  }
  L.resize(m_, r_);
  L.setFromTriplets(tl.begin(), tl.end());
  U.resize(r_, n_);
  U.setFromTriplets(tu.begin(), tu.end());
}

}  // namespace mechsim::linalg
