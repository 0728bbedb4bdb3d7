// tests/linalg/test_sparse_qr_solver.cpp — tests reference/linalg/sparse_qr_solver.cpp against DenseCod,
// both backends: full rank → the least-squares solution; rank-deficient → a (basic) least-squares
// solution: same residual as A⁺ b.
#include <QtTest>

#include "reference/linalg/dense_cod.h"
#include "reference/linalg/sparse_qr_solver.h"
#include "linalg_test_util.h"
#include "test_baselines_common.h"

using namespace mechsim;
using namespace mechsim::linalg;

class TestSparseQrSolver : public QObject {
  Q_OBJECT
 private slots:
  void matchesCod_data();
  void matchesCod();
};

void TestSparseQrSolver::matchesCod_data() {
  QTest::addColumn<int>("backend");
  QTest::newRow("eigen-sparseqr") << int(SparseQrSolver::Backend::EigenSparseQr);
  QTest::newRow("spqr") << int(SparseQrSolver::Backend::SuiteSparseQr);
}

void TestSparseQrSolver::matchesCod() {
  QFETCH(int, backend);
  for (bool deficient : {false, true})
    for (const auto& s : testutil::baselineCases(deficient)) {
      const SpMat A = randomQuasiSquare(s);
      SparseQrSolver qr(static_cast<SparseQrSolver::Backend>(backend));
      QVERIFY(qr.compute(A));
      QCOMPARE(qr.rank(), s.rank);
      DenseCod cod;
      QVERIFY(cod.compute(A));
      const VecX b = testutil::randomVec(s.rows, s.seed);
      const VecX x = qr.solve(b), xr = cod.solve(b);
      if (!deficient) {
        QVERIFY2(testutil::relErr(x, xr) < 1e-10, qPrintable(QString("err %1").arg(testutil::relErr(x, xr))));
      } else {
        const double rr = (b - A * xr).norm();
        QVERIFY(std::abs((b - A * x).norm() - rr) <= 1e-10 * std::max(1.0, rr));
      }
    }
}

QTEST_APPLESS_MAIN(TestSparseQrSolver)
#include "test_sparse_qr_solver.moc"
