// tests/linalg/test_lu_nullspace.cpp — tests core/linalg/lu_nullspace.cpp (LuNullspace, paper 003
// eq. 3.7-3.10 and the rank-deficient extension) against reference/linalg/dense_cod.cpp (A⁺ b).
#include <QtTest>

#include <limits>
#include <random>

#include "reference/linalg/dense_cod.h"
#include "core/linalg/lu_nullspace.h"
#include "reference/linalg/random_sparse.h"
#include "linalg_test_util.h"

using namespace mechsim;
using namespace mechsim::linalg;
using testutil::randomVec;
using testutil::relErr;

namespace {
// Agreement with the dense complete orthogonal decomposition the brief asks for.
constexpr double kRelTol = 1e-10;

struct Case {
  int m, n, r, dep;
  std::uint64_t seed;
};

// The quasi-square sweep: m/n = 1.0 … 1.3, n = 5 … 300.
std::vector<Case> sweep(bool rankDeficient) {
  std::vector<Case> cases;
  const double ratios[] = {1.0, 1.05, 1.1, 1.2, 1.3};
  const int sizes[] = {5, 12, 40, 105, 300};
  std::uint64_t seed = rankDeficient ? 1000 : 1;
  for (int n : sizes)
    for (double ratio : ratios) {
      const int m = static_cast<int>(std::lround(n * ratio));
      int r = n, dep = 0;
      if (rankDeficient) {
        r = n - std::max(1, n / 20);          // a few free columns
        dep = std::min(m - r, 1 + (m - n) / 2);  // and explicitly redundant rows
      }
      cases.push_back({m, n, r, dep, seed++});
    }
  return cases;
}

SpMat make(const Case& c) {
  RandomSparseSpec s;
  s.rows = c.m;
  s.cols = c.n;
  s.rank = c.r;
  s.dependentRows = c.dep;
  s.nnzPerCol = 5 + static_cast<double>(c.seed % 4);  // 5-8 per column
  s.seed = c.seed;
  return randomQuasiSquare(s);
}

QString name(const Case& c) { return QString("%1x%2 r=%3 seed=%4").arg(c.m).arg(c.n).arg(c.r).arg(c.seed); }
}  // namespace

class TestLuNullspace : public QObject {
  Q_OBJECT
 private slots:
  void fullRankAgainstCod();
  void rankDeficientAgainstCod();
  void underdeterminedAgainstCod();
  void redundantRowsSpanRowSpace();
  void refactorizeSamePattern();
  void refactorizeRankDeficient();
  void thresholdPivotingAvoidsTinyPivot();
  void nonFiniteRejected();
  void sliderCrankSingularPosition();
  void zeroAndEdgeShapes();
  void equation310NeedsInverseTranspose();
  void scaledFreeColumnsMechanismLike();
  void sparseRouteAgainstCod();
  void autoRouteLargeReduced();
};

// Full column rank: rank, redundant rows, consistent and inconsistent LS, min-norm transpose.
void TestLuNullspace::fullRankAgainstCod() {
  double worst = 0.0;
  for (const Case& c : sweep(false)) {
    const SpMat A = make(c);
    LuNullspace lu;
    QVERIFY2(lu.compute(A), qPrintable(name(c)));
    QCOMPARE(lu.rank(), c.n);
    QCOMPARE(static_cast<int>(lu.redundantRows().size()), c.m - c.n);
    QVERIFY(lu.freeCols().empty());
    DenseCod cod;
    QVERIFY(cod.compute(A));
    QCOMPARE(cod.rank(), c.n);

    // Consistent right-hand side: recovers x0 exactly (up to round-off).
    const VecX x0 = randomVec(c.n, c.seed + 7);
    const VecX bc = A * x0;
    const double e0 = relErr(lu.solve(bc), x0);
    // Inconsistent right-hand side: the least-squares solution.
    const VecX b = randomVec(c.m, c.seed + 11);
    const VecX xr = cod.solve(b);
    const double e1 = relErr(lu.solve(b), xr);
    const double e2 = relErr(lu.solveLeastSquares(b), xr);
    // Minimum norm for Aᵀ x = c (eq. 3.9-3.10): consistent since A has full column rank.
    const VecX cv = randomVec(c.n, c.seed + 13);
    const VecX y = lu.solveMinNormTranspose(cv);
    const double e3 = relErr(y, cod.solveMinNormTranspose(cv));
    const double e4 = relErr(A.transpose() * y, cv);
    const double e = std::max({e0, e1, e2, e3, e4});
    worst = std::max(worst, e);
    QVERIFY2(e < kRelTol, qPrintable(name(c) + QString(" err %1 %2 %3 %4 %5").arg(e0).arg(e1).arg(e2).arg(e3).arg(e4)));
  }
  qInfo("full rank: worst relative error vs COD %.2e", worst);
}

// Rank-deficient: duplicated / combined columns and rows. solve() must be A⁺ b.
void TestLuNullspace::rankDeficientAgainstCod() {
  double worst = 0.0;
  for (const Case& c : sweep(true)) {
    const SpMat A = make(c);
    LuNullspace lu;
    QVERIFY(lu.compute(A));
    DenseCod cod;
    QVERIFY(cod.compute(A));
    QCOMPARE(cod.rank(), c.r);
    QVERIFY2(lu.rank() == c.r, qPrintable(name(c) + QString(" lu rank %1").arg(lu.rank())));
    QCOMPARE(static_cast<int>(lu.freeCols().size()), c.n - c.r);
    QCOMPARE(static_cast<int>(lu.redundantRows().size()), c.m - c.r);

    // Consistent: A x = b has many solutions; A⁺ b is the minimum-norm one.
    const VecX bc = A * randomVec(c.n, c.seed + 7);
    const double e0 = relErr(lu.solve(bc), cod.solve(bc));
    // Inconsistent: minimum-norm least-squares solution.
    const VecX b = randomVec(c.m, c.seed + 11);
    const VecX xr = cod.solve(b);
    const VecX x = lu.solve(b);
    const double e1 = relErr(x, xr);
    // solveLeastSquares: same residual (a least-squares solution), zero in the free columns.
    const VecX xl = lu.solveLeastSquares(b);
    const double rr = (b - A * xr).norm();
    const double e2 = std::abs((b - A * xl).norm() - rr) / std::max(rr, 1.0);
    for (int f : lu.freeCols()) QCOMPARE(xl[f], 0.0);
    // Transposed problem: (Aᵀ)⁺ c.
    const VecX cv = randomVec(c.n, c.seed + 13);
    const double e3 = relErr(lu.solveMinNormTranspose(cv), cod.solveMinNormTranspose(cv));
    const double e = std::max({e0, e1, e2, e3});
    worst = std::max(worst, e);
    QVERIFY2(e < kRelTol, qPrintable(name(c) + QString(" err %1 %2 %3 %4").arg(e0).arg(e1).arg(e2).arg(e3)));
  }
  qInfo("rank deficient: worst relative error vs COD %.2e", worst);
}

// m < n (full row rank and rank-deficient): the minimum-norm solution.
void TestLuNullspace::underdeterminedAgainstCod() {
  std::uint64_t seed = 5000;
  for (int n : {6, 40, 150})
    for (double ratio : {0.75, 0.9, 0.95})
      for (int deficiency : {0, 2}) {
        const int m = static_cast<int>(std::lround(n * ratio));
        const Case c{m, n, m - deficiency, 0, seed++};
        const SpMat A = make(c);
        LuNullspace lu;
        QVERIFY(lu.compute(A));
        QCOMPARE(lu.rank(), c.r);
        DenseCod cod;
        QVERIFY(cod.compute(A));
        const VecX b = randomVec(m, c.seed);
        QVERIFY2(relErr(lu.solve(b), cod.solve(b)) < kRelTol, qPrintable(name(c)));
        const VecX cv = randomVec(n, c.seed + 1);
        QVERIFY2(relErr(lu.solveMinNormTranspose(cv), cod.solveMinNormTranspose(cv)) < kRelTol, qPrintable(name(c)));
      }
}

// Removing redundantRows() leaves r rows of full row rank with A's row space; removing
// freeCols() leaves r columns of full column rank.
void TestLuNullspace::redundantRowsSpanRowSpace() {
  for (const Case& c : sweep(true)) {
    if (c.n > 105) continue;  // dense rank checks: keep the test quick
    const SpMat A = make(c);
    LuNullspace lu;
    QVERIFY(lu.compute(A));
    const MatX Ad(A);
    const MatX kept = testutil::keepRowsExcept(Ad, lu.redundantRows());
    QCOMPARE(static_cast<int>(kept.rows()), lu.rank());
    Eigen::CompleteOrthogonalDecomposition<MatX> codKept(kept), codAll(Ad);
    QCOMPARE(static_cast<int>(codKept.rank()), lu.rank());  // full row rank
    QCOMPARE(static_cast<int>(codAll.rank()), lu.rank());   // kept rows ⊆ rows, same dimension
    // Every removed row is reproduced from the kept ones (same row space), to round-off.
    const MatX removedT = Ad.transpose()(Eigen::all, lu.redundantRows());
    const MatX coeff = codKept.transpose().solve(removedT);
    QVERIFY((kept.transpose() * coeff - removedT).norm() <= 1e-10 * std::max(1.0, removedT.norm()));
    // Free columns dropped: full column rank r.
    const MatX keptCols = testutil::keepRowsExcept(Ad.transpose(), lu.freeCols()).transpose();
    Eigen::CompleteOrthogonalDecomposition<MatX> codCols(keptCols);
    QCOMPARE(static_cast<int>(codCols.rank()), lu.rank());
  }
}

// One analysis, many numeric factorisations with new values on the same pattern (Newton steps).
void TestLuNullspace::refactorizeSamePattern() {
  const Case c{117, 105, 105, 0, 42};
  SpMat A = make(c);
  LuNullspace lu;
  lu.analyzePattern(A);
  QVERIFY(lu.factorize(A));
  QVERIFY(!lu.lastFactorizeReusedPivots());  // first factorisation: pivoting
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> small(0.99, 1.01), big(0.2, 5.0);
  const SpMat A0 = A;
  int reusedSmall = 0, reusedBig = 0;
  for (int it = 0; it < 40; ++it) {
    // Same pattern, new values: 1 % changes of A0 (Newton steps, it < 20) keep the pivots; large
    // ones (it ≥ 20) may force fresh pivoting. Both must give A⁺ b.
    const bool isBig = it >= 20;
    for (int k = 0; k < A.nonZeros(); ++k) A.valuePtr()[k] = A0.valuePtr()[k] * (isBig ? big(rng) : small(rng));
    QVERIFY(lu.factorize(A));
    (isBig ? reusedBig : reusedSmall) += lu.lastFactorizeReusedPivots();
    DenseCod cod;
    QVERIFY(cod.compute(A));
    const VecX b = randomVec(c.m, 100 + it);
    QVERIFY(relErr(lu.solve(b), cod.solve(b)) < kRelTol);
    QVERIFY(relErr(lu.solveMinNormTranspose(b.head(c.n)), cod.solveMinNormTranspose(b.head(c.n))) < kRelTol);
  }
  qInfo("refactorisations that kept the pivot order: %d of 20 small changes, %d of 20 large", reusedSmall, reusedBig);
  QCOMPARE(reusedSmall, 20);
  // Zeroing a pivot's column forces fresh pivoting (rank drops) and is still right.
  {
    SpMat Z = A;
    for (SpMat::InnerIterator it(Z, 7); it; ++it) it.valueRef() = 0.0;
    QVERIFY(lu.factorize(Z));
    QVERIFY(!lu.lastFactorizeReusedPivots());
    QCOMPARE(lu.rank(), c.n - 1);
    QCOMPARE(lu.freeCols(), std::vector<int>{7});
    DenseCod cod;
    QVERIFY(cod.compute(Z));
    const VecX b = randomVec(c.m, 5);
    QVERIFY(relErr(lu.solve(b), cod.solve(b)) < kRelTol);
    // … and back: the structure with a free column is refactored again or re-pivoted.
    QVERIFY(lu.factorize(A));
    QCOMPARE(lu.rank(), c.n);
  }
  // A different pattern is a programming error for factorize(); compute() re-analyses.
  const SpMat B = make({117, 105, 105, 0, 43});
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lu.factorize(B));
  QVERIFY(lu.compute(B));
  DenseCod cod;
  QVERIFY(cod.compute(B));
  const VecX b = randomVec(117, 9);
  QVERIFY(relErr(lu.solve(b), cod.solve(b)) < kRelTol);
}

// Rank-deficient A refactored with new values of the same rank (row and column scalings D1 A D2):
// the pivot order with its free columns is kept, and solve() stays A⁺ b.
void TestLuNullspace::refactorizeRankDeficient() {
  const Case c{126, 110, 104, 3, 77};
  const SpMat A0 = make(c);
  LuNullspace lu;
  QVERIFY(lu.compute(A0));
  QCOMPARE(lu.rank(), c.r);
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> U(0.98, 1.02);
  int reused = 0;
  for (int it = 0; it < 10; ++it) {
    VecX d1(c.m), d2(c.n);
    for (int i = 0; i < c.m; ++i) d1[i] = U(rng);
    for (int j = 0; j < c.n; ++j) d2[j] = U(rng);
    const SpMat A = d1.asDiagonal() * A0 * d2.asDiagonal();
    QVERIFY(lu.factorize(A));
    reused += lu.lastFactorizeReusedPivots();
    QCOMPARE(lu.rank(), c.r);
    DenseCod cod;
    QVERIFY(cod.compute(A));
    const VecX b = randomVec(c.m, 300 + it);
    QVERIFY(relErr(lu.solve(b), cod.solve(b)) < kRelTol);
  }
  QCOMPARE(reused, 10);
}

// A tiny entry in the sparsest row must not be taken as pivot: threshold pivoting (u = 0.1) picks a
// larger one, and the tiny row ends up redundant.
void TestLuNullspace::thresholdPivotingAvoidsTinyPivot() {
  // Rows 0 has a single (tiny) entry, so a pure sparsity choice would pivot on it.
  std::vector<Triplet> t = {{0, 0, 1e-7}, {1, 0, 1.0}, {2, 0, 0.5}, {1, 1, 1.0}, {2, 1, -1.0}};
  SpMat A(3, 2);
  A.setFromTriplets(t.begin(), t.end());
  LuNullspace lu;
  QVERIFY(lu.compute(A));
  QCOMPARE(lu.rank(), 2);
  QCOMPARE(lu.redundantRows(), std::vector<int>{0});
  DenseCod cod;
  QVERIFY(cod.compute(A));
  const VecX b = randomVec(3, 1);
  QVERIFY(relErr(lu.solve(b), cod.solve(b)) < 1e-13);

  // Random case with tiny entries planted in short rows: with u = 0.1 the accuracy holds; with
  // u → 0 the sparsity tie-break picks the tiny pivots and the growth shows in the error.
  SpMat B = make({160, 150, 150, 0, 77});
  {
    std::vector<int> rowCount(B.rows(), 0);
    for (int k = 0; k < B.nonZeros(); ++k) rowCount[B.innerIndexPtr()[k]]++;
    for (int j = 0; j < B.cols(); ++j)
      for (SpMat::InnerIterator it(B, j); it; ++it)
        if (rowCount[it.row()] <= 3 && j % 3 == 0) it.valueRef() *= 1e-6;
  }
  DenseCod codB;
  QVERIFY(codB.compute(B));
  const VecX bb = randomVec(160, 2);
  const VecX ref = codB.solve(bb);
  LuNullspace safe;  // u = 0.1
  QVERIFY(safe.compute(B));
  const double eSafe = relErr(safe.solve(bb), ref);
  LuNullspaceOptions loose;
  loose.pivotThreshold = 1e-12;
  LuNullspace risky(loose);
  QVERIFY(risky.compute(B));
  const double eRisky = relErr(risky.solve(bb), ref);
  qInfo("planted tiny entries: error u=0.1 %.2e, u=1e-12 %.2e", eSafe, eRisky);
  QVERIFY(eSafe < kRelTol);
}

// NaN / Inf in A: factorize() returns false, the object refuses to solve until refactored.
void TestLuNullspace::nonFiniteRejected() {
  SpMat A = make({30, 25, 25, 0, 8});
  LuNullspace lu;
  QVERIFY(lu.compute(A));
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    SpMat B = A;
    B.valuePtr()[B.nonZeros() / 2] = bad;
    QVERIFY(!lu.factorize(B));
    QVERIFY(!lu.factorized());
    QVERIFY(!lu.compute(B));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, lu.solve(VecX::Ones(30)));
  }
  QVERIFY(lu.factorize(A));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lu.solve(VecX::Ones(29)));
  QCOMPARE(lu.solve(VecX::Ones(30)).size(), 25);
}

// Paper eq. 2.8: the slider-crank at x = 0, y = L, s = 0, φ = π/2: rank 3, 5 equations, 4 unknowns.
void TestLuNullspace::sliderCrankSingularPosition() {
  const double L = 1.0;
  MatX Ad(5, 4);
  Ad << 0, 2 * L, 0, 0,  //
      0, 2 * L, 0, 0,    //
      1, 0, 0, L,        //
      0, 1, 0, 0,        //
      1, 0, 0, 0;
  const SpMat A = Ad.sparseView();
  LuNullspace lu;
  QVERIFY(lu.compute(A));
  QCOMPARE(lu.rank(), 3);
  QCOMPARE(static_cast<int>(lu.redundantRows().size()), 2);
  QCOMPARE(lu.freeCols(), std::vector<int>{2});  // s is not fixed by the equations
  DenseCod cod;
  QVERIFY(cod.compute(A));
  const VecX b = randomVec(5, 3);
  QVERIFY(relErr(lu.solve(b), cod.solve(b)) < 1e-13);
  const VecX c = randomVec(4, 4);
  QVERIFY(relErr(lu.solveMinNormTranspose(c), cod.solveMinNormTranspose(c)) < 1e-13);
}

// Zero matrix, a zero column, a single row: A⁺ b stays well defined.
void TestLuNullspace::zeroAndEdgeShapes() {
  SpMat Z(4, 3);
  LuNullspace lu;
  QVERIFY(lu.compute(Z));
  QCOMPARE(lu.rank(), 0);
  QCOMPARE(static_cast<int>(lu.redundantRows().size()), 4);
  QCOMPARE(lu.solve(VecX::Ones(4)), VecX::Zero(3));
  QCOMPARE(lu.solveMinNormTranspose(VecX::Ones(3)), VecX::Zero(4));

  std::vector<Triplet> t = {{0, 0, 2.0}, {1, 0, 1.0}, {1, 2, 3.0}, {2, 2, -1.0}};  // column 1 empty
  SpMat A(3, 3);
  A.setFromTriplets(t.begin(), t.end());
  QVERIFY(lu.compute(A));
  QCOMPARE(lu.rank(), 2);
  QCOMPARE(lu.freeCols(), std::vector<int>{1});
  DenseCod cod;
  QVERIFY(cod.compute(A));
  const VecX b = randomVec(3, 5);
  QVERIFY(relErr(lu.solve(b), cod.solve(b)) < 1e-13);

  MatX rowd(1, 4);
  rowd << 1, -2, 0, 3;
  const SpMat R = rowd.sparseView();
  QVERIFY(lu.compute(R));
  QCOMPARE(lu.rank(), 1);
  QVERIFY(cod.compute(R));
  QVERIFY(relErr(lu.solve(VecX::Constant(1, 2.0)), cod.solve(VecX::Constant(1, 2.0))) < 1e-14);
}

// Paper eq. 3.10 is printed as x1 = A1ᵀ b − Jᵀ x2; the derivation from (3.6) gives A1⁻ᵀ b.
// Dense check of both against the reference, with the paper's block names.
void TestLuNullspace::equation310NeedsInverseTranspose() {
  const int m = 12, n = 10;
  std::mt19937_64 rng(310);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  MatX A(m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) A(i, j) = U(rng) + (i == j ? 3.0 : 0.0);  // A1 = top rows, nonsingular
  const MatX A1 = A.topRows(n), A2 = A.bottomRows(m - n);
  const MatX J = A2 * A1.inverse();                                       // J = A2 A1⁻¹
  const MatX S = MatX::Identity(m - n, m - n) + J * J.transpose();       // S = I + J Jᵀ
  const VecX b = randomVec(n, 31);
  // Reference: min ‖x‖ s.t. Aᵀ x = b.
  const VecX ref = Eigen::CompleteOrthogonalDecomposition<MatX>(A.transpose()).solve(b);

  const VecX z = A1.transpose().partialPivLu().solve(b);  // A1⁻ᵀ b
  const VecX x2 = S.llt().solve(J * z);                     // (3.9)
  VecX good(m), typo(m);
  good << z - J.transpose() * x2, x2;                       // (3.10) with A1⁻ᵀ b
  typo << A1.transpose() * b - J.transpose() * x2, x2;      // (3.10) as printed, A1ᵀ b
  QVERIFY(relErr(good, ref) < 1e-12);
  QVERIFY(relErr(A.transpose() * good, b) < 1e-12);
  QVERIFY(relErr(typo, ref) > 1e-2);                 // the printed formula is wrong …
  QVERIFY(relErr(A.transpose() * typo, b) > 1e-2);   // … it does not even satisfy Aᵀ x = b
  // And the least-squares pair (3.7)-(3.8) as printed is right.
  const VecX bl = randomVec(m, 37);
  const VecX r2 = S.llt().solve(bl.tail(m - n) - J * bl.head(n));
  const VecX xl = A1.partialPivLu().solve(bl.head(n) + J.transpose() * r2);
  QVERIFY(relErr(xl, Eigen::CompleteOrthogonalDecomposition<MatX>(A).solve(bl)) < 1e-12);

  // The library (A1⁻ᵀ) agrees with the reference on the same matrix.
  LuNullspace lu;
  QVERIFY(lu.compute(A.sparseView()));
  QVERIFY(relErr(lu.solveMinNormTranspose(b), ref) < 1e-12);
}

QTEST_APPLESS_MAIN(TestLuNullspace)

// Regression: an underdetermined, rank-deficient matrix shaped like a mechanism's joint rows — a
// chain of bodies, each with 3 "position" columns of scale 1 and 4 "rotation" columns of scale
// 1e-3 (cf. lengths vs quaternion entries), 3 nonzeros per row coupling neighbouring bodies, one
// redundant row. A itself is well conditioned, but the rank test is relative to each column's own
// scale, so COLAMD's column order lets small-scale columns take pivots: U1 is ill conditioned and
// K = U1⁻¹U2 is large. The free-column stage (I + KᵀK) x2 = Kᵀ w, solved by Cholesky of the
// formed matrix, lost ~‖K‖²ε (A⁺b to ~1e-8 here); solved by QR of [K; I] it agrees with the COD.
void TestLuNullspace::scaledFreeColumnsMechanismLike() {
  std::mt19937 rng(20261121);
  std::normal_distribution<double> g;
  const int bodies = 12, perBody = 7, n = bodies * perBody;
  std::vector<Triplet> t;
  int row = 0;
  auto scale = [](int col) { return col % 7 < 3 ? 1.0 : 1e-3; };
  for (int b = 0; b < bodies; ++b)
    for (int k = 0; k < 5; ++k, ++row) {  // 5 joint-like rows per body: 2 free columns per body
      const int c0 = b * perBody + k % perBody;
      const int c1 = b * perBody + (k + 3) % perBody;
      const int c2 = ((b + 1) % bodies) * perBody + (k + 1) % perBody;
      for (int c : {c0, c1, c2}) t.emplace_back(row, c, g(rng) * scale(c));
    }
  SpMat A0(row, n);
  A0.setFromTriplets(t.begin(), t.end());
  // One redundant row: the sum of two others.
  SpMat A(row + 1, n);
  {
    std::vector<Triplet> t2 = t;
    for (int k = 0; k < A0.outerSize(); ++k)
      for (SpMat::InnerIterator it(A0, k); it; ++it)
        if (it.row() == 3 || it.row() == 17) t2.emplace_back(row, it.col(), it.value());
    A.setFromTriplets(t2.begin(), t2.end());
  }
  A.makeCompressed();
  DenseCod cod;
  QVERIFY(cod.compute(A));
  for (double u : {0.1, 1.0}) {
    LuNullspaceOptions o;
    o.pivotThreshold = u;
    LuNullspace lu(o);
    QVERIFY(lu.compute(A));
    QCOMPARE(lu.rank(), cod.rank());
    QVERIFY(lu.rank() < A.rows() && lu.rank() < n);
    const VecX b1 = A * randomVec(n, 3);  // consistent
    const VecX b2 = randomVec(A.rows(), 4);  // inconsistent
    const VecX c = randomVec(n, 5);
    const double e1 = relErr(lu.solve(b1), cod.solve(b1));
    const double e2 = relErr(lu.solve(b2), cod.solve(b2));
    const double e3 = relErr(lu.solveMinNormTranspose(c), cod.solveMinNormTranspose(c));
    qInfo("scaled mechanism-like %dx%d rank %d (u = %.1f): errors vs COD %.2e %.2e %.2e", int(A.rows()), n,
          lu.rank(), u, e1, e2, e3);
    QVERIFY2(std::max({e1, e2, e3}) < kRelTol, qPrintable(QString("errors %1 %2 %3").arg(e1).arg(e2).arg(e3)));
  }
}

// The sparse route of the reduced systems (full_rank_pinv.h: A⁺ = Q U⁺ L⁺ P by two augmented
// systems) forced on the sweeps: the same A⁺ b, least-squares residual and (Aᵀ)⁺ c as the COD.
void TestLuNullspace::sparseRouteAgainstCod() {
  LuNullspaceOptions o;
  o.reduced = ReducedRoute::Sparse;
  double worst = 0.0;
  std::vector<Case> cases = sweep(true);
  for (const Case& c : sweep(false)) cases.push_back(c);
  for (const Case& c : {Case{30, 40, 28, 0, 7001}, Case{120, 150, 117, 0, 7002}}) cases.push_back(c);  // m < n
  for (const Case& c : cases) {
    const SpMat A = make(c);
    LuNullspace lu(o);
    QVERIFY(lu.compute(A));
    QVERIFY(lu.sparseReduced());
    DenseCod cod;
    QVERIFY(cod.compute(A));
    QCOMPARE(lu.rank(), cod.rank());
    const VecX bc = A * randomVec(c.n, c.seed + 7);
    const VecX b = randomVec(c.m, c.seed + 11);
    const VecX cv = randomVec(c.n, c.seed + 13);
    const double e0 = relErr(lu.solve(bc), cod.solve(bc));
    const double e1 = relErr(lu.solve(b), cod.solve(b));
    const VecX xl = lu.solveLeastSquares(b);
    const double rr = (b - A * cod.solve(b)).norm();
    const double e2 = std::abs((b - A * xl).norm() - rr) / std::max(rr, 1.0);
    for (int f : lu.freeCols()) QCOMPARE(xl[f], 0.0);
    const double e3 = relErr(lu.solveMinNormTranspose(cv), cod.solveMinNormTranspose(cv));
    const double e = std::max({e0, e1, e2, e3});
    worst = std::max(worst, e);
    QVERIFY2(e < kRelTol, qPrintable(name(c) + QString(" err %1 %2 %3 %4").arg(e0).arg(e1).arg(e2).arg(e3)));
  }
  qInfo("sparse route: worst relative error vs COD %.2e over %d matrices", worst, int(cases.size()));
}

// Auto takes the dense route for small reduced systems and the sparse one past 2²⁰ stored numbers
// (Jᵀ and K, r × (m − r + n − r), and the QR factors of [Jᵀ; I] and [K; I]); both give the same
// solutions. The third case has few pivots and many redundant rows (Jᵀ small, its QR factor not).
void TestLuNullspace::autoRouteLargeReduced() {
  const Case small{300, 300, 285, 10, 7101}, large{2000, 2000, 1400, 300, 7102}, manyRows{1200, 20, 20, 0, 7103};
  for (const Case& c : {small, large, manyRows}) {
    const SpMat A = make(c);
    LuNullspace automatic, dense(LuNullspaceOptions{tol::kPivotThreshold, tol::kRankRelative, true, ReducedRoute::Dense});
    QVERIFY(automatic.compute(A) && dense.compute(A));
    QCOMPARE(automatic.rank(), c.r);
    const double m2 = c.m - c.r, n2 = c.n - c.r;
    const double stored = c.r * (m2 + n2) + (c.r + m2) * m2 + (c.r + n2) * n2;
    QCOMPARE(automatic.sparseReduced(), stored > double(1 << 20));
    if (c.seed == 7103) QVERIFY(automatic.sparseReduced() && double(c.r) * (m2 + n2) < double(1 << 20));
    QVERIFY(!dense.sparseReduced());
    const VecX b = randomVec(c.m, c.seed + 11), cv = randomVec(c.n, c.seed + 13);
    const double e1 = relErr(automatic.solve(b), dense.solve(b));
    const double e2 = relErr(automatic.solveMinNormTranspose(cv), dense.solveMinNormTranspose(cv));
    qInfo("%s: %s route, against the dense route %.2e %.2e", qPrintable(name(c)),
          automatic.sparseReduced() ? "sparse" : "dense", e1, e2);
    QVERIFY2(std::max(e1, e2) < 1e-9, qPrintable(QString("errors %1 %2").arg(e1).arg(e2)));
  }
}

#include "test_lu_nullspace.moc"
