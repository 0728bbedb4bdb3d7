// tests/linalg/test_dense_cod.cpp — tests reference/linalg/dense_cod.cpp, the reference itself: the four
// Penrose conditions hold for the solutions it returns, and the transposed solve is (Aᵀ)⁺ c.
#include <QtTest>

#include "reference/linalg/dense_cod.h"
#include "reference/linalg/random_sparse.h"
#include "linalg_test_util.h"

using namespace mechsim;
using namespace mechsim::linalg;

class TestDenseCod : public QObject {
  Q_OBJECT
 private slots:
  void pseudoInverseProperties();
};

void TestDenseCod::pseudoInverseProperties() {
  for (auto [m, n, r] : {std::tuple{20, 17, 17}, {20, 17, 14}, {15, 22, 13}}) {
    RandomSparseSpec s;
    s.rows = m;
    s.cols = n;
    s.rank = r;
    s.seed = 11 + m + r;
    const SpMat A = randomQuasiSquare(s);
    DenseCod cod;
    QVERIFY(cod.compute(A));
    QCOMPARE(cod.rank(), r);
    // X = A⁺ column by column.
    MatX X(n, m);
    for (int i = 0; i < m; ++i) X.col(i) = cod.solve(VecX::Unit(m, i));
    const MatX Ad(A);
    QVERIFY((Ad * X * Ad - Ad).norm() < 1e-12 * Ad.norm());
    QVERIFY((X * Ad * X - X).norm() < 1e-12 * X.norm());
    QVERIFY((Ad * X - (Ad * X).transpose()).norm() < 1e-12);
    QVERIFY((X * Ad - (X * Ad).transpose()).norm() < 1e-12);
    const VecX c = testutil::randomVec(n, 3);
    QVERIFY(testutil::relErr(cod.solveMinNormTranspose(c), X.transpose() * c) < 1e-12);
  }
}

QTEST_APPLESS_MAIN(TestDenseCod)
#include "test_dense_cod.moc"
