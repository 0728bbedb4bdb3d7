// tests/core/test_riley.cpp — tests core/dynamics/riley.cpp (Riley's iteration, paper 002 eq. 66)
// against an independent reference: the weighted minimum-norm solution x_D* = D^{-½} B⁺ c with
// B = N D^{-½} (eq. 85-86), the pseudo-inverse taken by a dense SVD (JacobiSVD) — riley.cpp's own
// reference uses a complete orthogonal decomposition, so the two references check each other too.
// Systems: random rank-deficient A (tall and fat), N = AᵀA, c = Aᵀb, weights |N(0,1)| + 1 as in the
// paper's §6; and the constraint system of a redundant mechanism (the N-four-bar, N = 40).
#include <QtTest>

#include <Eigen/SVD>
#include <random>

#include "core/data.h"
#include "core/dynamics/dynamics.h"
#include "core/dynamics/riley.h"
#include "core/io/load.h"
#include "core/kinematics/kinematics.h"

using namespace mechsim;

namespace {

/// A random m × n matrix of rank r (product of Gaussian factors).
MatX randomRankDeficient(int m, int n, int r, std::mt19937& g) {
  std::normal_distribution<double> N01;
  MatX L(m, r), R(r, n);
  for (int i = 0; i < m; ++i)
    for (int k = 0; k < r; ++k) L(i, k) = N01(g);
  for (int k = 0; k < r; ++k)
    for (int j = 0; j < n; ++j) R(k, j) = N01(g);
  return L * R;
}

VecX svdReference(const MatX& N, const VecX& c, const VecX& D) {
  const VecX d = D.cwiseSqrt().cwiseInverse();
  const MatX B = N * d.asDiagonal();
  Eigen::JacobiSVD<MatX> svd(B, Eigen::ComputeThinU | Eigen::ComputeThinV);
  svd.setThreshold(1e-10);
  return d.cwiseProduct(svd.solve(c));
}

double dNorm(const VecX& x, const VecX& D) { return std::sqrt(x.cwiseAbs2().dot(D)); }

SpMat sparse(const MatX& A) { return A.sparseView(); }

}  // namespace

class TestRiley : public QObject {
  Q_OBJECT
 private slots:
  void convergesToWeightedMinNorm_data();
  void convergesToWeightedMinNorm();
  void identityWeightsGiveMinimumNorm();
  void mechanismSystem();
  void muByInertiaAgainstEigenvalues();
  void refusesBadInput();
};

void TestRiley::convergesToWeightedMinNorm_data() {
  QTest::addColumn<int>("m");
  QTest::addColumn<int>("n");
  QTest::addColumn<int>("r");
  QTest::addColumn<double>("f");
  QTest::newRow("fat f=0.1") << 30 << 60 << 25 << 0.1;
  QTest::newRow("fat f=0.5") << 30 << 60 << 25 << 0.5;
  QTest::newRow("tall f=0.5") << 80 << 40 << 28 << 0.5;
  QTest::newRow("tall f=0.9") << 80 << 40 << 28 << 0.9;
  QTest::newRow("square f=0.1") << 50 << 50 << 35 << 0.1;
}

void TestRiley::convergesToWeightedMinNorm() {
  QFETCH(int, m);
  QFETCH(int, n);
  QFETCH(int, r);
  QFETCH(double, f);
  std::mt19937 g(1234 + m + n + r);
  std::normal_distribution<double> N01;
  const MatX A = randomRankDeficient(m, n, r, g);
  VecX b(m);
  for (int i = 0; i < m; ++i) b(i) = N01(g);
  VecX D(n);
  for (int i = 0; i < n; ++i) D(i) = std::abs(N01(g)) + 1.0;  // the paper's weights (§6)
  const MatX N = A.transpose() * A;
  const VecX c = A.transpose() * b;
  const VecX ref = svdReference(N, c, D);
  // The two references agree.
  QVERIFY((dyn::weightedMinNormReference(N, c, D) - ref).norm() <= 1e-8 * ref.norm());
  // The reference is a least-squares solution and has a smaller D-norm than another one (the
  // reference plus a null-space vector of A).
  QVERIFY((N * ref - c).norm() <= 1e-8 * c.norm());
  Eigen::JacobiSVD<MatX> svdA(A, Eigen::ComputeFullV);
  const VecX nullVec = svdA.matrixV().col(n - 1);
  QVERIFY((A * nullVec).norm() < 1e-8);
  QVERIFY(dNorm(ref, D) < dNorm(ref + 0.1 * nullVec, D));

  const double mu = dyn::estimateMu(sparse(N), D);
  QVERIFY(mu > 0);
  dyn::RileySolver solver;
  dyn::RileyOptions opt;
  opt.reduction = f;
  opt.tolerance = 1e-14;
  opt.maxIterations = f > 0.8 ? 400 : 120;
  QVERIFY(solver.factorize(sparse(N), D, mu, opt));
  QCOMPARE(solver.s(), f / (1 - f) * mu);
  std::vector<VecX> it;
  VecX x;
  solver.solve(c, x, &it);
  // Convergence to the reference.
  QVERIFY2(dNorm(x - ref, D) <= 1e-8 * dNorm(ref, D), qPrintable(QString::number(dNorm(x - ref, D) / dNorm(ref, D))));
  // Measured contraction per iteration ≤ s/(s + μ) (eq. 83), while the error is above round-off.
  const double bound = solver.contractionBound();
  QVERIFY(std::abs(bound - f) < 1e-12);
  double worst = 0;
  double e0 = dNorm(ref, D);  // x⁰ = 0
  for (const VecX& xk : it) {
    const double ek = dNorm(xk - ref, D);
    if (e0 < 1e-9 * dNorm(ref, D)) break;
    worst = std::max(worst, ek / e0);
    e0 = ek;
  }
  QVERIFY2(worst <= bound * (1 + 1e-6) + 1e-9, qPrintable(QString("contraction %1 > bound %2").arg(worst).arg(bound)));
  // ... and the bound is nearly attained (the slowest mode is present in a random right side).
  QVERIFY2(worst >= 0.5 * bound, qPrintable(QString("contraction %1 far below the bound %2").arg(worst).arg(bound)));
}

void TestRiley::identityWeightsGiveMinimumNorm() {
  std::mt19937 g(7);
  std::normal_distribution<double> N01;
  const MatX A = randomRankDeficient(40, 30, 20, g);
  VecX b(40);
  for (int i = 0; i < 40; ++i) b(i) = N01(g);
  const MatX N = A.transpose() * A;
  const VecX c = A.transpose() * b;
  // D = I: the minimum-norm least-squares solution A⁺ b.
  const VecX pinv = A.jacobiSvd(Eigen::ComputeThinU | Eigen::ComputeThinV).solve(b);
  const VecX I = VecX::Ones(30);
  dyn::RileySolver s;
  QVERIFY(s.factorize(sparse(N), I, dyn::estimateMu(sparse(N), I), dyn::RileyOptions{0.5, 1e-13, 200}));
  VecX x;
  s.solve(c, x);
  QVERIFY((x - pinv).norm() <= 1e-8 * pinv.norm());
  // D ≠ I: a different solution (same residual).
  VecX D(30);
  for (int i = 0; i < 30; ++i) D(i) = std::abs(N01(g)) + 1.0;
  dyn::RileySolver w;
  QVERIFY(w.factorize(sparse(N), D, dyn::estimateMu(sparse(N), D), dyn::RileyOptions{0.5, 1e-14, 200}));
  VecX xw;
  w.solve(c, xw);
  QVERIFY((xw - x).norm() > 1e-3 * x.norm());
  QVERIFY((N * xw - c).norm() <= 1e-8 * c.norm());
  QVERIFY((xw - svdReference(N, c, D)).norm() <= 1e-8 * xw.norm());
}

void TestRiley::mechanismSystem() {
  // The impulse system of the N-four-bar (120 redundant rows) at its file configuration, with the
  // stepper's mass weights: Riley's iterate equals the dense reference, contraction within bound.
  const Model m = io::loadModel(std::string(MECHSIM_SOURCE_DIR) + "/mechanisms/dynamics/a02-nfourbar-40.json");
  Data d = makeData(m);
  DynamicsStepper sim(m);
  QVERIFY(sim.initialize(d));
  const SpMat& N = sim.constraintSystem();
  const VecX& D = sim.constraintWeights();
  QCOMPARE(int(N.rows()), 5 * 121);
  // Right side: the impulse that stops gravity's free fall over 1 ms, r = −J (h M⁻¹ f_g).
  VecX f;
  sim.appliedForces(d, sim.twist(), f);
  std::vector<dyn::BodyInertia> bi;
  dyn::bodyInertias(m, d.q, bi);
  VecX dv;
  dyn::applyInverseMass(bi, f, dv);
  const VecX c = -(sim.constraintJacobian() * (1e-3 * dv));
  const VecX ref = svdReference(MatX(N), c, D);
  QVERIFY((MatX(N) * ref - c).norm() <= 1e-8 * c.norm());
  dyn::RileySolver s;
  const double mu = dyn::estimateMu(N, D);
  QVERIFY(s.factorize(N, D, mu, dyn::RileyOptions{0.5, 1e-13, 300}));
  std::vector<VecX> it;
  VecX x;
  s.solve(c, x, &it);
  QVERIFY2(dNorm(x - ref, D) <= 1e-7 * dNorm(ref, D), qPrintable(QString::number(dNorm(x - ref, D) / dNorm(ref, D))));
  double e0 = dNorm(ref, D), worst = 0;
  for (const VecX& xk : it) {
    const double ek = dNorm(xk - ref, D);
    if (e0 < 1e-8 * dNorm(ref, D)) break;
    worst = std::max(worst, ek / e0);
    e0 = ek;
  }
  QVERIFY2(worst <= s.contractionBound() * (1 + 1e-6) + 1e-9, qPrintable(QString::number(worst)));
}

// estimateMuByInertia (Sylvester's inertia, bisection) brackets the smallest non-zero eigenvalue
// that the dense eigensolver finds: on rank-deficient N = AᵀA with random weights (null spaces of
// 5 to 60 directions, μ spread over decades) and on the N-four-bar's impulse system (120 redundant
// rows), its answer is within 10 % of the dense one.
void TestRiley::muByInertiaAgainstEigenvalues() {
  std::mt19937 g(4242);
  std::uniform_real_distribution<double> U(0.1, 10.0);
  double worst = 1;
  struct Shape {
    int m, n, r;
  };
  for (const Shape& c : {Shape{80, 60, 55}, Shape{200, 150, 90}, Shape{300, 260, 200}, Shape{120, 120, 119}}) {
    MatX A = randomRankDeficient(c.m, c.n, c.r, g);
    // Spread the spectrum: scale columns over four decades.
    for (int j = 0; j < c.n; ++j) A.col(j) *= std::pow(10.0, -2.0 + 4.0 * j / c.n);
    const MatX N = A.transpose() * A;
    VecX D(c.n);
    for (int i = 0; i < c.n; ++i) D(i) = U(g);
    const double dense = dyn::estimateMu(sparse(N), D), counted = dyn::estimateMuByInertia(sparse(N), D);
    QVERIFY2(dense > 0 && counted > 0, qPrintable(QString("%1 %2").arg(dense).arg(counted)));
    worst = std::max({worst, counted / dense, dense / counted});
    QVERIFY2(counted <= 1.1 * dense && counted >= dense / 1.1,
             qPrintable(QString("%1x%2 rank %3: counted %4, eigenvalues %5").arg(c.m).arg(c.n).arg(c.r).arg(counted).arg(dense)));
  }
  const Model m = io::loadModel(std::string(MECHSIM_SOURCE_DIR) + "/mechanisms/dynamics/a02-nfourbar-40.json");
  Data d = makeData(m);
  DynamicsStepper sim(m);
  QVERIFY(sim.initialize(d));
  const double dense = dyn::estimateMu(sim.constraintSystem(), sim.constraintWeights());
  const double counted = dyn::estimateMuByInertia(sim.constraintSystem(), sim.constraintWeights());
  QVERIFY2(counted <= 1.1 * dense && counted >= dense / 1.1, qPrintable(QString("counted %1, eigenvalues %2").arg(counted).arg(dense)));
  worst = std::max({worst, counted / dense, dense / counted});
  qInfo("μ by inertia against the eigenvalues: worst ratio %.3f", worst);
}

void TestRiley::refusesBadInput() {
  const MatX N = MatX::Identity(3, 3);
  dyn::RileySolver s;
  QVERIFY(!s.factorize(sparse(N), VecX::Ones(3), 0.0, {}));             // μ = 0
  QVERIFY(!s.factorize(sparse(N), -VecX::Ones(3), 1.0, {}));            // D not positive
  MatX bad = N;
  bad(0, 0) = std::numeric_limits<double>::quiet_NaN();
  QVERIFY(!s.factorize(sparse(bad), VecX::Ones(3), 1.0, {}));           // non-finite
  QCOMPARE(dyn::estimateMu(sparse(MatX::Zero(3, 3)), VecX::Ones(3)), 0.0);
}

QTEST_APPLESS_MAIN(TestRiley)
#include "test_riley.moc"
