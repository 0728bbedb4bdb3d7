// core/linalg/lu_nullspace.cpp — least-squares, minimum-norm and pseudo-inverse solutions from one
// row-pivoted sparse LU: Cardenal, Duff & Jiménez (1996), "A projection method for the solution
// of rectangular systems" (paper 003), §3, extended to rank-deficient A.
//
// ---- The paper's method (full column rank, m ≥ n) ----
// With P A = [A1; A2] = [L1; L2] U (3.4) and the augmented system (3.3), the block factorisation
// (3.6) of the permuted augmented matrix has J = A2 A1⁻¹ = L2 L1⁻¹ and S = I + J Jᵀ (SPD, order m − n).
// [−Jᵀ; I] spans null(Aᵀ). Then
//   least squares  min ‖b − A x‖ :        S r2 = b2 − J b1                          (3.7)
//                                         A1 x = b1 + Jᵀ r2                          (3.8)
//   minimum norm   min ‖x‖, Aᵀ x = c :    S x2 = J (A1⁻ᵀ c)                          (3.9)
//                                         x1  = A1⁻ᵀ c − Jᵀ x2                       (3.10)
// (3.10 is printed with A1ᵀ c; it must be A1⁻ᵀ c: from the second block row of (3.6), A1ᵀ x1 +
// A2ᵀ x2 = c ⇒ x1 = A1⁻ᵀ(c − A2ᵀ x2) = A1⁻ᵀ c − Jᵀ x2. tests/linalg/test_lu_nullspace.cpp checks
// both versions against a complete orthogonal decomposition.)
//
// ---- Rank-deficient A (and m < n): the pseudo-inverse from the same factors ----
// The LU of sparse_lu_rect.cpp gives, up to entries below rankTolerance × column scale,
//     P A Q = L [U1 U2],   L = [L1; L2] (m × r, L1 unit lower, full column rank),
//                          U1 (r × r, upper, nonsingular), U2 (r × (n − r)),
// with b̃ = P b = [b1; b2] and x = Q [x1; x2] split as the pivot rows / pivot columns.
// Write y = U1 x1 + U2 x2 ∈ ℝʳ. Then A x = Pᵀ L y, and since [U1 U2] has full row rank every y is
// reachable, so
//   (a) min_x ‖b − A x‖ = min_y ‖b̃ − L y‖: the paper's least-squares problem for the m × r matrix L
//       with "A1" = L1, "U" = I, so J = L2 L1⁻¹, S = I + J Jᵀ and, by (3.7)-(3.8),
//           S r2 = b2 − J b1 ,   L1 y = b1 + Jᵀ r2.                                   (R1)
//       y is unique (L has full column rank); the least-squares minimisers are exactly the x with
//       U1 x1 + U2 x2 = y.
//   (b) among those, min ‖x‖ (Q is a permutation, ‖x‖ = ‖[x1; x2]‖). With w = U1⁻¹ y and
//       K = U1⁻¹ U2 (r × (n − r)) the constraint reads [I K] [x1; x2] = w: a minimum-norm problem
//       of the paper's form (3.2) for the quasi-square (n × r) matrix [I; Kᵀ], "A1" = I, "J" = Kᵀ,
//       "S" = I + Kᵀ K (order n − r, small), and by (3.9)-(3.10)
//           (I + Kᵀ K) x2 = Kᵀ w ,   x1 = w − K x2.                                   (R2)
//       (Directly: minimise ‖w − K x2‖² + ‖x2‖² ⇒ (I + KᵀK) x2 = Kᵀ w.)
//   So x = Q [w − K x2; x2] = A⁺ b of the factored matrix. With r = n, (R2) disappears and (R1) with
//   w = U1⁻¹ y is exactly (3.7)-(3.8) (A1 = L1 U1). solveLeastSquares() stops at x = Q [w; 0].
// The transposed problem min ‖x‖ s.t. Aᵀ x = c (least squares when inconsistent), x ∈ ℝᵐ, uses the
// same pieces in the other order: Aᵀ x = Q [U1ᵀ; U2ᵀ] Lᵀ P x. With c̃ = Qᵀ c = [c1; c2] and
// v = Lᵀ P x:  min ‖c̃ − [I; Kᵀ] U1ᵀ v‖ is least squares for [I; Kᵀ] in u = U1ᵀ v, by (3.7)-(3.8)
//           (I + Kᵀ K) s = c2 − Kᵀ c1 ,  u = c1 + K s ,  v = U1⁻ᵀ u,                    (T1)
// and then min ‖x‖ s.t. Lᵀ (P x) = v is the paper's (3.9)-(3.10) with A1 = L1:
//           S x2 = J (L1⁻ᵀ v) ,  x1 = L1⁻ᵀ v − Jᵀ x2 ,  x = Pᵀ [x1; x2].               (T2)
// With r = n, (T1) is just v = U⁻ᵀ c and (T2) is (3.9)-(3.10) with A1⁻ᵀ c = L1⁻ᵀ U⁻ᵀ c.
//
// ---- Sparsity (paper §4.2) ----
// Symbolic analysis (COLAMD column order, workspace) once per pattern; factorize() reruns only the
// numeric LU — first with the previous pivot sequence and factor structure (no graph search, as
// MA48's fast refactorisation), falling back to fresh threshold pivoting when a pivot fails the
// threshold or rank test. J comes from sparse triangular solves L1ᵀ Jᵀ = L2ᵀ for all m − r rows
// at once (RectangularSparseLu::jTranspose, paper Table 4.4 step 2), skipping zero rows; it is
// kept dense as Jᵀ (r × (m − r)) because L2 fills in anyway, so J b1 and Jᵀ r2 in a solve are two
// short dense products. K = U1⁻¹ U2 likewise (dense, r × (n − r)).
// That is right while m − r and n − r are small (a mechanism's redundant equations and DOFs), and
// wrong at scale: a ladder of 5 000 planar loops in 3-D has 15 000 redundant equations and
// r ≈ 70 000, so Jᵀ alone would be 8 GB. Past 2²⁰ stored numbers (ensureReduced) the solves use
// the full-rank factorisation A = Pᵀ L U Qᵀ directly instead, A⁺ = Q U⁺ L⁺ P, each factor's
// pseudo-inverse from a sparse augmented system (full_rank_pinv.h) — the same solution, at a cost
// that follows the fill instead of r (m − r + n − r). The reduced systems are built by the first
// solve after a factorisation: the rank tests (mobility, singular positions) never pay for them.
//
// ---- Factoring S = I + J Jᵀ and I + Kᵀ K without forming them ----
// Both reduced systems are normal equations: S = [Jᵀ; I]ᵀ [Jᵀ; I], I + KᵀK = [K; I]ᵀ [K; I], and
// every use above is a linear least-squares problem for the stacked matrix (a "min ‖[M; I] z − g‖"):
//   (3.7)  S r2 = b2 − J b1   ⇔ r2 = argmin ‖[Jᵀ; I] r2 − [−b1; b2]‖
//   (3.9)  S x2 = J z         ⇔ x2 = argmin ‖[Jᵀ; I] x2 − [z; 0]‖
//   (R2)   (I + KᵀK) x2 = Kᵀ w ⇔ x2 = argmin ‖[K; I] x2 − [w; 0]‖
//   (T1)   (I + KᵀK) s = c2 − Kᵀ c1 ⇔ s = argmin ‖[K; I] s − [−c1; c2]‖
// Forming S and factoring it by Cholesky squares the condition number: cond(I + KᵀK) = 1 + ‖K‖²
// (for ‖K‖ ≫ 1). J is harmless (L1 is well conditioned under threshold pivoting), but K = U1⁻¹ U2
// is not: the pivot columns are fixed by COLAMD, so on a mechanism's joint rows (free columns =
// the degrees of freedom) U1 can be far worse conditioned than A — car-full's joint rows have
// cond(A) ≈ 42 but cond(U1) ≈ 4e6, ‖K‖ ≈ 5e5 — and the Cholesky route lost 7-8 digits (A⁺b to
// 2.5e-8 relative). So the stacked matrices are factored by Householder QR instead, [M; I] = Q R
// with Rᵀ R = the paper's S (never formed), and each solve is z = R⁻¹ (Qᵀ g)(0:k): backward stable
// for the least-squares problem, error ~ ε cond([M; I]) = ε ‖K‖ instead of ε ‖K‖². Same orders of
// work as forming and factoring S (r k² flops, k = m − r or n − r), and the solves stay
// allocation-free (reflectors applied in place).
#include "core/linalg/lu_nullspace.h"

#include <Eigen/QR>
#include <algorithm>
#include <stdexcept>

#include "core/linalg/full_rank_pinv.h"
#include "core/linalg/sparse_lu_rect.h"

namespace mechsim::linalg {

struct LuNullspace::Impl {
  LuNullspaceOptions opt;
  RectangularSparseLu lu;
  bool ok = false;
  SpMat compressed;                      // copy of an uncompressed input
  std::vector<int> redundantRows;        // (m − r) original rows in L2
  std::vector<int> freeCols;             // (n − r) original columns without a pivot
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> Jt;  // (r × m − r) Jᵀ = L1⁻ᵀ L2ᵀ
  MatX K;                                // (r × n − r) U1⁻¹ U2
  // Householder QR of [Jᵀ; I] ((r + m − r) × (m − r)) and [K; I] ((r + n − r) × (n − r)):
  // Rᵀ R = S = I + J Jᵀ resp. I + Kᵀ K (see the opening comment).
  Eigen::HouseholderQR<MatX> qrS, qrSK;
  // Solve workspace (mutable: solves are const but not re-entrant on one object).
  mutable VecX wm, wr, wr2, wm2, wn2, gS, gSK, wn;
  // The reduced systems are built by the first solve after a factorisation (a rank alone never
  // needs them), densely (Jᵀ, K and their QR) or, when those would be large, as the sparse
  // augmented systems of L and U (full_rank_pinv.h).
  bool reducedReady = false;
  bool sparseRoute = false;
  FullRankPseudoInverse pinv;

  void ensureReduced();

  int m() const { return lu.rows(); }
  int n() const { return lu.cols(); }
  int r() const { return lu.rank(); }
  void buildReduced();
  static void lsqStacked(const Eigen::HouseholderQR<MatX>& qr, VecX& g, VecX& z);
  void solveRows(const VecX& b, VecX& x, bool minNormCols) const;
  void solveTranspose(const VecX& c, VecX& x) const;
};

namespace {
RectangularSparseLu::Options luOptions(const LuNullspaceOptions& o) {
  RectangularSparseLu::Options lo;
  lo.pivotThreshold = o.pivotThreshold;
  lo.rankTolerance = o.rankTolerance;
  lo.reusePivots = o.reusePivots;
  return lo;
}
const SpMat& compressedInput(const SpMat& A, SpMat& copy) {
  if (A.isCompressed()) return A;
  copy = A;
  copy.makeCompressed();
  return copy;
}
}  // namespace

LuNullspace::LuNullspace(LuNullspaceOptions opt) : impl_(std::make_shared<Impl>()) {
  if (!(opt.pivotThreshold > 0.0 && opt.pivotThreshold <= 1.0))
    throw std::invalid_argument("LuNullspace: pivotThreshold must be in (0, 1]");
  if (!(opt.rankTolerance >= 0.0)) throw std::invalid_argument("LuNullspace: rankTolerance must be ≥ 0");
  impl_->opt = opt;
}

void LuNullspace::analyzePattern(const SpMat& A) {
  const SpMat& Ac = compressedInput(A, impl_->compressed);
  impl_->lu.analyzePattern(Ac, luOptions(impl_->opt));
  impl_->ok = false;
}

bool LuNullspace::factorize(const SpMat& A) {
  Impl& d = *impl_;
  const SpMat& Ac = compressedInput(A, d.compressed);
  d.ok = false;
  if (!d.lu.factorize(Ac)) return false;  // non-finite entries
  d.reducedReady = false;
  const auto& ro = d.lu.rowOrder();
  const auto& co = d.lu.colOrder();
  d.redundantRows.assign(ro.begin() + d.r(), ro.end());
  std::sort(d.redundantRows.begin(), d.redundantRows.end());
  d.freeCols.assign(co.begin() + d.r(), co.end());
  std::sort(d.freeCols.begin(), d.freeCols.end());
  d.ok = true;
  return true;
}

bool LuNullspace::compute(const SpMat& A) {
  const SpMat& Ac = compressedInput(A, impl_->compressed);
  if (!impl_->lu.samePattern(Ac)) analyzePattern(Ac);
  return factorize(Ac);
}

// Which route the reduced systems take. The dense one stores Jᵀ and K, r × (m − r + n − r)
// numbers, and the QR factors of [Jᵀ; I] and [K; I], (r + m − r)(m − r) + (r + n − r)(n − r)
// more, in r ((m − r)² + (n − r)²) flops: a few milliseconds for the example mechanisms, but
// quadratic in memory and cubic in time when a large mechanism has many redundant equations (a
// ladder of planar loops modelled in 3-D: 3 per loop; 10^4 joints between the same two bodies,
// whose QR factor of 5·10^4 × 5·10^4 took the machine's 22 GB) or many free directions (an
// undriven chain). Past 2²⁰ stored numbers (8 MB) the sparse augmented systems take over.
void LuNullspace::Impl::ensureReduced() {
  if (reducedReady) return;
  const double r_ = r(), m2 = m() - r(), n2 = n() - r();
  const double stored = r_ * (m2 + n2) + (r_ + m2) * m2 + (r_ + n2) * n2;
  sparseRoute = opt.reduced == ReducedRoute::Sparse ||
                (opt.reduced == ReducedRoute::Auto && r() > 0 && stored > double(1 << 20));
  if (sparseRoute) {
    SpMat L, U;
    lu.factorsAsMatrices(L, U);
    if (!pinv.factorize(L, U)) sparseRoute = false;  // cannot happen for full-rank factors; dense then
  }
  if (!sparseRoute) buildReduced();
  wm.resize(m());
  wr.resize(r());
  wn.resize(n());
  reducedReady = true;
}

// The dense route: J and S = I + J Jᵀ (3.6), K and I + Kᵀ K (R2).
void LuNullspace::Impl::buildReduced() {
  const int m_ = m(), n_ = n(), r_ = r();
  const int m2 = m_ - r_, n2 = n_ - r_;

  // J = L2 L1⁻¹ by sparse triangular solves (all m − r rows at once, as Jᵀ); S = I + J Jᵀ (3.7, 3.9)
  // as the QR factor of [Jᵀ; I].
  Jt.resize(r_, m2);
  if (m2 > 0 && r_ > 0) lu.jTranspose(Jt.data());
  if (m2 > 0) {
    MatX stacked(r_ + m2, m2);
    stacked.topRows(r_) = Jt;
    stacked.bottomRows(m2).setIdentity();
    qrS.compute(stacked);
  }

  // Columns of K = U1⁻¹ U2; I + Kᵀ K (R2, T1) as the QR factor of [K; I].
  K.resize(r_, n2);
  for (int f = 0; f < n2; ++f) lu.kColumn(f, K.col(f).data());
  if (n2 > 0) {
    MatX stacked(r_ + n2, n2);
    stacked.topRows(r_) = K;
    stacked.bottomRows(n2).setIdentity();
    qrSK.compute(stacked);
  }

  wr2.resize(r_);  // wm, wr: ensureReduced, for both routes
  wm2.resize(m2);
  wn2.resize(n2);
  gS.resize(r_ + m2);
  gSK.resize(r_ + n2);
}

// z = argmin ‖[M; I] z − g‖ from the QR factors of [M; I] (k columns): g ← Qᵀ g (reflectors applied
// one by one, in place), z = R⁻¹ g(0:k). No allocation.
void LuNullspace::Impl::lsqStacked(const Eigen::HouseholderQR<MatX>& qr, VecX& g, VecX& z) {
  const MatX& QR = qr.matrixQR();
  const auto& tau = qr.hCoeffs();
  const Eigen::Index rows = QR.rows(), k = QR.cols();
  for (Eigen::Index j = 0; j < k; ++j) {
    // H_j = I − τ v vᵀ, v = [1; QR(j+1:rows, j)] acting on g(j:rows).
    double d = g[j];
    for (Eigen::Index i = j + 1; i < rows; ++i) d += QR(i, j) * g[i];
    d *= tau[j];
    g[j] -= d;
    for (Eigen::Index i = j + 1; i < rows; ++i) g[i] -= d * QR(i, j);
  }
  z = g.head(k);
  QR.topLeftCorner(k, k).triangularView<Eigen::Upper>().solveInPlace(z);
}

// x = Q [w − K x2; x2] (or Q [w; 0]) from (R1)-(R2); on the sparse route x = Q U⁺ L⁺ P b
// (or Q [U1⁻¹ L⁺ P b; 0]).
void LuNullspace::Impl::solveRows(const VecX& b, VecX& x, bool minNormCols) const {
  const int m_ = m(), n_ = n(), r_ = r();
  const int m2 = m_ - r_, n2 = n_ - r_;
  const auto& ro = lu.rowOrder();
  const auto& co = lu.colOrder();
  if (x.size() != n_) x.resize(n_);
  if (sparseRoute) {
    for (int k = 0; k < m_; ++k) wm[k] = b[ro[k]];
    pinv.solveL(wm, wr);  // y = L⁺ b̃: (R1) without S
    if (minNormCols && n2 > 0) {
      pinv.solveU(wr, wn);  // [x1; x2] = U⁺ y: (R2) without K
    } else {
      lu.solveU1(wr.data());
      wn.head(r_) = wr;
      wn.tail(n2).setZero();
    }
    for (int l = 0; l < n_; ++l) x[co[l]] = wn[l];
    return;
  }

  // b̃ = P b: pivot rows b1 = wm[0:r), redundant rows b2 = wm[r:m).
  for (int k = 0; k < m_; ++k) wm[k] = b[ro[k]];
  double* y = wm.data();  // y overwrites b1
  if (m2 > 0 && r_ > 0) {
    Eigen::Map<VecX> b1(y, r_);
    Eigen::Map<const VecX> b2(wm.data() + r_, m2);
    // (3.7): S r2 = b2 − J b1, i.e. r2 = argmin ‖[Jᵀ; I] r2 − [−b1; b2]‖.
    gS.head(r_) = -b1;
    gS.tail(m2) = b2;
    lsqStacked(qrS, gS, wm2);
    // (3.8): L1 y = b1 + Jᵀ r2.
    b1.noalias() += Jt * wm2;
  }
  lu.solveL1(y);
  // w = U1⁻¹ y: the least-squares solution in the pivot columns.
  lu.solveU1(y);

  if (n2 > 0 && minNormCols && r_ > 0) {
    // (R2): (I + KᵀK) x2 = Kᵀ w, i.e. x2 = argmin ‖[K; I] x2 − [w; 0]‖; x1 = w − K x2.
    Eigen::Map<const VecX> w(y, r_);
    gSK.head(r_) = w;
    gSK.tail(n2).setZero();
    lsqStacked(qrSK, gSK, wn2);
    wr.noalias() = w - K * wn2;
    for (int t = 0; t < r_; ++t) x[co[t]] = wr[t];
    for (int f = 0; f < n2; ++f) x[co[r_ + f]] = wn2[f];
  } else {
    for (int t = 0; t < r_; ++t) x[co[t]] = y[t];
    for (int f = 0; f < n2; ++f) x[co[r_ + f]] = 0.0;
  }
}

// x = Pᵀ [x1; x2] from (T1)-(T2); on the sparse route x = Pᵀ (Lᵀ)⁺ (Uᵀ)⁺ Qᵀ c.
void LuNullspace::Impl::solveTranspose(const VecX& c, VecX& x) const {
  const int m_ = m(), n_ = n(), r_ = r();
  const int m2 = m_ - r_, n2 = n_ - r_;
  const auto& ro = lu.rowOrder();
  const auto& co = lu.colOrder();
  if (sparseRoute) {
    for (int l = 0; l < n_; ++l) wn[l] = c[co[l]];
    pinv.solveUTranspose(wn, wr);  // v = (Uᵀ)⁺ c̃: (T1) without K
    pinv.solveLTranspose(wr, wm);  // x̃ = (Lᵀ)⁺ v: (T2) without S
    if (x.size() != m_) x.resize(m_);
    for (int k = 0; k < m_; ++k) x[ro[k]] = wm[k];
    return;
  }

  // c̃ = Qᵀ c = [c1; c2] → u (T1).
  for (int t = 0; t < r_; ++t) wr[t] = c[co[t]];
  if (n2 > 0 && r_ > 0) {
    // (I + KᵀK) s = c2 − Kᵀ c1, i.e. s = argmin ‖[K; I] s − [−c1; c2]‖; u = c1 + K s.
    gSK.head(r_) = -wr;
    for (int f = 0; f < n2; ++f) gSK[r_ + f] = c[co[r_ + f]];
    lsqStacked(qrSK, gSK, wn2);
    wr.noalias() += K * wn2;
  }
  // v = U1⁻ᵀ u, then z = L1⁻ᵀ v (= A1⁻ᵀ c when r = n).
  lu.solveU1Transpose(wr.data());
  lu.solveL1Transpose(wr.data());

  if (x.size() != m_) x.resize(m_);
  if (m2 > 0 && r_ > 0) {
    // (3.9): S x2 = J z, i.e. x2 = argmin ‖[Jᵀ; I] x2 − [z; 0]‖.
    gS.head(r_) = wr;
    gS.tail(m2).setZero();
    lsqStacked(qrS, gS, wm2);
    // (3.10): x1 = z − Jᵀ x2.
    wr.noalias() -= Jt * wm2;
    for (int t = 0; t < r_; ++t) x[ro[t]] = wr[t];
    for (int i = 0; i < m2; ++i) x[ro[r_ + i]] = wm2[i];
  } else {
    for (int t = 0; t < r_; ++t) x[ro[t]] = wr[t];
    for (int i = 0; i < m2; ++i) x[ro[r_ + i]] = 0.0;
  }
}

int LuNullspace::rows() const { return impl_->m(); }
int LuNullspace::cols() const { return impl_->n(); }
int LuNullspace::rank() const { return impl_->ok ? impl_->r() : 0; }
const std::vector<int>& LuNullspace::redundantRows() const { return impl_->redundantRows; }
const std::vector<int>& LuNullspace::freeCols() const { return impl_->freeCols; }
bool LuNullspace::factorized() const { return impl_->ok; }
bool LuNullspace::sparseReduced() const {
  if (impl_->ok) impl_->ensureReduced();
  return impl_->ok && impl_->sparseRoute;
}
bool LuNullspace::lastFactorizeReusedPivots() const { return impl_->ok && impl_->lu.lastReusedPivots(); }
int LuNullspace::nnzL() const { return impl_->lu.nnzL(); }
int LuNullspace::nnzU() const { return impl_->lu.nnzU(); }
const LuNullspaceOptions& LuNullspace::options() const { return impl_->opt; }

namespace {
void checkSolve(bool ok, Eigen::Index got, int want, const char* what) {
  if (!ok) throw std::logic_error(std::string("LuNullspace::") + what + ": no valid factorisation");
  if (got != want) throw std::invalid_argument(std::string("LuNullspace::") + what + ": wrong right-hand side size");
}
}  // namespace

void LuNullspace::solve(const VecX& b, VecX& x) const {
  checkSolve(impl_->ok, b.size(), rows(), "solve");
  impl_->ensureReduced();
  impl_->solveRows(b, x, true);
}
void LuNullspace::solveLeastSquares(const VecX& b, VecX& x) const {
  checkSolve(impl_->ok, b.size(), rows(), "solveLeastSquares");
  impl_->ensureReduced();
  impl_->solveRows(b, x, false);
}
void LuNullspace::solveMinNormTranspose(const VecX& c, VecX& x) const {
  checkSolve(impl_->ok, c.size(), cols(), "solveMinNormTranspose");
  impl_->ensureReduced();
  impl_->solveTranspose(c, x);
}
VecX LuNullspace::solve(const VecX& b) const {
  VecX x;
  solve(b, x);
  return x;
}
VecX LuNullspace::solveLeastSquares(const VecX& b) const {
  VecX x;
  solveLeastSquares(b, x);
  return x;
}
VecX LuNullspace::solveMinNormTranspose(const VecX& c) const {
  VecX x;
  solveMinNormTranspose(c, x);
  return x;
}

}  // namespace mechsim::linalg
