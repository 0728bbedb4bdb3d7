// tests/linalg/test_random_sparse.cpp — tests reference/linalg/random_sparse.cpp: exact rank, shape,
// density, determinism.
#include <QtTest>

#include "reference/linalg/random_sparse.h"

using namespace mechsim;
using namespace mechsim::linalg;

class TestRandomSparse : public QObject {
  Q_OBJECT
 private slots:
  void rankShapeDeterminism();
};

void TestRandomSparse::rankShapeDeterminism() {
  for (auto [m, n, r, dep] : {std::tuple{117, 105, 105, 0}, {117, 105, 100, 4}, {90, 100, 88, 0}, {50, 50, 50, 0}}) {
    RandomSparseSpec s;
    s.rows = m;
    s.cols = n;
    s.rank = r;
    s.dependentRows = dep;
    s.seed = 5;
    const SpMat A = randomQuasiSquare(s);
    QCOMPARE(int(A.rows()), m);
    QCOMPARE(int(A.cols()), n);
    Eigen::CompleteOrthogonalDecomposition<MatX> cod{MatX(A)};
    QCOMPARE(int(cod.rank()), r);
    const double perCol = double(A.nonZeros()) / n;
    QVERIFY2(perCol > 3.0 && perCol < 12.0, qPrintable(QString::number(perCol)));
    const SpMat B = randomQuasiSquare(s);
    QCOMPARE((MatX(A) - MatX(B)).norm(), 0.0);
  }
}

QTEST_APPLESS_MAIN(TestRandomSparse)
#include "test_random_sparse.moc"
