// tests/linalg/test_normal_equations.cpp — tests reference/linalg/normal_equations.cpp against DenseCod,
// both backends; rank-deficient A through the regularised path (looser, it is approximate).
#include <QtTest>

#include "reference/linalg/dense_cod.h"
#include "reference/linalg/normal_equations.h"
#include "linalg_test_util.h"
#include "test_baselines_common.h"

using namespace mechsim;
using namespace mechsim::linalg;

class TestNormalEquations : public QObject {
  Q_OBJECT
 private slots:
  void matchesCod_data();
  void matchesCod();
  void nonFiniteRejected();
};

void TestNormalEquations::matchesCod_data() {
  QTest::addColumn<int>("backend");
  QTest::newRow("simplicial-ldlt") << int(NormalEquations::Backend::SimplicialLdlt);
  QTest::newRow("cholmod-supernodal") << int(NormalEquations::Backend::CholmodSupernodal);
}

void TestNormalEquations::matchesCod() {
  QFETCH(int, backend);
  for (bool deficient : {false, true})
    for (const auto& s : testutil::baselineCases(deficient)) {
      const SpMat A = randomQuasiSquare(s);
      NormalEquations ne(static_cast<NormalEquations::Backend>(backend));
      QVERIFY(ne.compute(A));
      DenseCod cod;
      QVERIFY(cod.compute(A));
      const VecX b = testutil::randomVec(s.rows, s.seed);
      const double e = testutil::relErr(ne.solve(b), cod.solve(b));
      // κ(AᵀA) = κ(A)²: 1e-9 full rank; the regularised rank-deficient solution is approximate.
      if (!deficient) {
        QVERIFY2(e < 1e-9, qPrintable(QString("err %1").arg(e)));
        QCOMPARE(ne.regularization(), 0.0);
      } else {
        QVERIFY(ne.regularization() > 0.0);
        QVERIFY2(e < 1e-3, qPrintable(QString("err %1").arg(e)));
      }
    }
}

void TestNormalEquations::nonFiniteRejected() {
  RandomSparseSpec s;
  s.rows = 12;
  s.cols = 10;
  SpMat A = randomQuasiSquare(s);
  NormalEquations ne;
  QVERIFY(ne.compute(A));
  A.valuePtr()[3] = std::numeric_limits<double>::quiet_NaN();
  QVERIFY(!ne.factorize(A));
  QVERIFY_THROWS_EXCEPTION(std::logic_error, ne.solve(VecX::Ones(12)));
}

QTEST_APPLESS_MAIN(TestNormalEquations)
#include "test_normal_equations.moc"
