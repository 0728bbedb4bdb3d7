// tests/linalg/test_sparse_lu_rect.cpp — tests core/linalg/sparse_lu_rect.cpp: P A Q ≈ L U,
// the threshold-pivoting bound |L| ≤ 1/u, rank detection, reuse of one analysis, and the
// triangular-solve helpers against the assembled factors.
#include <QtTest>

#include "reference/linalg/random_sparse.h"
#include "core/linalg/sparse_lu_rect.h"
#include "linalg_test_util.h"

using namespace mechsim;
using namespace mechsim::linalg;
using testutil::randomVec;

namespace {
MatX permuted(const SpMat& A, const RectangularSparseLu& lu) {
  const MatX Ad(A);
  MatX P(A.rows(), A.cols());
  for (int k = 0; k < A.rows(); ++k)
    for (int l = 0; l < A.cols(); ++l) P(k, l) = Ad(lu.rowOrder()[k], lu.colOrder()[l]);
  return P;
}
}  // namespace

class TestSparseLuRect : public QObject {
  Q_OBJECT
 private slots:
  void reconstructsAndBoundsL();
  void triangularHelpersMatchFactors();
};

void TestSparseLuRect::reconstructsAndBoundsL() {
  std::uint64_t seed = 1;
  for (int n : {5, 30, 120})
    for (double ratio : {0.8, 1.0, 1.1, 1.3})
      for (int def : {0, 3}) {
        RandomSparseSpec s;
        s.rows = static_cast<int>(std::lround(n * ratio));
        s.cols = n;
        s.rank = std::min(s.rows, n) - def;
        s.seed = seed++;
        const SpMat A = randomQuasiSquare(s);
        RectangularSparseLu lu;
        RectangularSparseLu::Options opt;  // u = 0.1
        lu.analyzePattern(A, opt);
        QVERIFY(lu.factorize(A));
        QCOMPARE(lu.rank(), s.rank);
        SpMat L, U;
        lu.factorsAsMatrices(L, U);
        const MatX PAQ = permuted(A, lu);
        const double resid = (PAQ - MatX(L) * MatX(U)).norm() / PAQ.norm();
        QVERIFY2(resid < 1e-13, qPrintable(QString("resid %1").arg(resid)));
        // Threshold pivoting: every multiplier is at most 1/u in magnitude.
        QVERIFY(MatX(L).cwiseAbs().maxCoeff() <= 1.0 / opt.pivotThreshold * (1 + 1e-12));
        // Permutations are permutations.
        std::vector<int> ro = lu.rowOrder(), co = lu.colOrder();
        std::sort(ro.begin(), ro.end());
        std::sort(co.begin(), co.end());
        for (int i = 0; i < s.rows; ++i) QCOMPARE(ro[i], i);
        for (int j = 0; j < n; ++j) QCOMPARE(co[j], j);
        // Refactor with the same analysis gives the same factors.
        QVERIFY(lu.samePattern(A));
        QVERIFY(lu.factorize(A));
        SpMat L2, U2;
        lu.factorsAsMatrices(L2, U2);
        QCOMPARE((MatX(L2) - MatX(L)).norm(), 0.0);
      }
}

void TestSparseLuRect::triangularHelpersMatchFactors() {
  RandomSparseSpec s;
  s.rows = 70;
  s.cols = 60;
  s.rank = 57;
  s.seed = 9;
  const SpMat A = randomQuasiSquare(s);
  RectangularSparseLu lu;
  lu.analyzePattern(A, {});
  QVERIFY(lu.factorize(A));
  const int r = lu.rank(), m2 = s.rows - r, n2 = s.cols - r;
  SpMat L, U;
  lu.factorsAsMatrices(L, U);
  const MatX Ld(L), Ud(U);
  const MatX L1 = Ld.topRows(r), L2 = Ld.bottomRows(m2), U1 = Ud.leftCols(r), U2 = Ud.rightCols(n2);
  const VecX v = randomVec(r, 1);
  auto apply = [&](void (RectangularSparseLu::*f)(double*) const) {
    VecX w = v;
    (lu.*f)(w.data());
    return w;
  };
  auto close = [](const VecX& a, const VecX& b) { return (a - b).norm() <= 1e-11 * std::max(1.0, b.norm()); };
  QVERIFY(close(apply(&RectangularSparseLu::solveL1), L1.triangularView<Eigen::Lower>().solve(v)));
  QVERIFY(close(apply(&RectangularSparseLu::solveL1Transpose), L1.transpose().triangularView<Eigen::Upper>().solve(v)));
  QVERIFY(close(apply(&RectangularSparseLu::solveU1), U1.triangularView<Eigen::Upper>().solve(v)));
  QVERIFY(close(apply(&RectangularSparseLu::solveU1Transpose), U1.transpose().triangularView<Eigen::Lower>().solve(v)));
  // J = L2 L1⁻¹ row by row, K = U1⁻¹ U2 column by column.
  const MatX J = L1.transpose().triangularView<Eigen::Upper>().solve(L2.transpose()).transpose();
  const MatX K = U1.triangularView<Eigen::Upper>().solve(U2);
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> Jt(r, m2);
  lu.jTranspose(Jt.data());
  QVERIFY((MatX(Jt) - J.transpose()).norm() <= 1e-11 * std::max(1.0, J.norm()));
  VecX row(r);
  for (int f = 0; f < n2; ++f) {
    lu.kColumn(f, row.data());
    QVERIFY(close(row, K.col(f)));
  }
  // L2 products.
  const VecX y = randomVec(m2, 2);
  VecX t = y;
  lu.subtractL2Times(v.data(), t.data());
  QVERIFY(close(t, y - L2 * v));
  VecX xr = v;
  lu.addL2TransposeTimes(y.data(), xr.data());
  QVERIFY(close(xr, v + L2.transpose() * y));
}

QTEST_APPLESS_MAIN(TestSparseLuRect)
#include "test_sparse_lu_rect.moc"
