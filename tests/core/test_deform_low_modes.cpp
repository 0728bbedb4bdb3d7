// tests/core/test_deform_low_modes.cpp — tests core/deform/low_modes.cpp, the block Krylov–Schur
// eigensolver behind JGS2's rest modes, against a dense symmetric eigendecomposition (Eigen's
// SelfAdjointEigenSolver) of the same matrix: a cantilever's rest Hessian H̄ (its 3 × 3 blocks and
// the square cross-section give close and repeated eigenvalues), on one block size and on several,
// with the basis small enough to force restarts, on a spectrum whose Krylov space turns invariant,
// and the errors: a bad count, no convergence within the restarts allowed, a failing solve.
#include <QtTest>

#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <stdexcept>

#include "core/deform/low_modes.h"
#include "deform_fixture.h"

using namespace mechsim;
using namespace mechsim::deform;

namespace {

/// The cantilever's rest Hessian over its free vertices (SPD through the inertia term).
SpMat restHessian(int nx, int nyz) {
  const DeformableModel m = testing::cantilever(2e6, nx, nyz);
  ElementCache c;
  evalElements(m, restPositions(m), c, true);
  return assembleHessian(m, c);
}

/// A = H⁻¹ by a simplicial Cholesky factor (not the CHOLMOD one JGS2 uses), counting columns.
struct Inverse {
  Eigen::SimplicialLLT<SpMat> llt;
  int columns = 0;
  explicit Inverse(const SpMat& H) : llt(H) {}
  BlockInverse op() {
    return [this](const MatX& in, MatX& out) {
      columns += static_cast<int>(in.cols());
      out = llt.solve(in);
    };
  }
};

/// Checks `got` against the dense decomposition's k lowest pairs: eigenvalues to `valueTol`
/// (relative), Φ orthonormal, and every reference eigenvector u_t whose eigenvalue is separated
/// from λ_{k+1} inside span Φ (the modes of a repeated eigenvalue are any basis of its space).
void compareWithDense(const LowModes& got, const Eigen::SelfAdjointEigenSolver<MatX>& ref, int k, double valueTol) {
  QCOMPARE(got.values.size(), Eigen::Index(k));
  QCOMPARE(got.vectors.cols(), Eigen::Index(k));
  for (int t = 0; t < k; ++t) {
    const double want = ref.eigenvalues()[t];
    if (std::abs(got.values[t] - want) > valueTol * want)
      QFAIL(qPrintable(QString("λ_%1: %2, dense %3").arg(t).arg(got.values[t], 0, 'g', 15).arg(want, 0, 'g', 15)));
  }
  const MatX gram = got.vectors.transpose() * got.vectors;
  QVERIFY2((gram - MatX::Identity(k, k)).norm() < 1e-10, "modes not orthonormal");
  const double next = ref.eigenvalues()[k];
  int checked = 0;
  for (int t = 0; t < k; ++t) {
    if (next - ref.eigenvalues()[t] < 1e-6 * next) continue;  // shares its eigenspace with λ_{k+1}
    const VecX u = ref.eigenvectors().col(t);
    const double outside = (u - got.vectors * (got.vectors.transpose() * u)).norm();
    if (outside > 1e-6) QFAIL(qPrintable(QString("eigenvector %1 is %2 outside the modes").arg(t).arg(outside)));
    ++checked;
  }
  QVERIFY(checked >= k - 2);
}

}  // namespace

class TestDeformLowModes : public QObject {
  Q_OBJECT
 private slots:
  void matchesDenseDecomposition_data() {
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("block");
    QTest::addColumn<int>("basis");
    QTest::newRow("k=24 b=16") << 24 << 16 << 0;
    QTest::newRow("k=24 b=1 (single-vector Krylov)") << 24 << 1 << 0;
    QTest::newRow("k=24 b=3") << 24 << 3 << 0;
    QTest::newRow("k=40 b=8") << 40 << 8 << 0;
    QTest::newRow("k=24 b=4, basis k+2b: restarts") << 24 << 4 << 32;
  }
  void matchesDenseDecomposition() {
    QFETCH(int, k);
    QFETCH(int, block);
    QFETCH(int, basis);
    const SpMat H = restHessian(20, 4);  // 525 vertices, 1500 unknowns
    const Eigen::SelfAdjointEigenSolver<MatX> ref{MatX(H)};
    QCOMPARE(ref.info(), Eigen::Success);
    Inverse inv(H);
    LowModesOptions o;
    o.blockSize = block;
    o.basisSize = basis;
    o.denseBelow = 0;  // the Krylov path even at this size
    const LowModes got = lowestModes(H, k, inv.op(), o);
    QVERIFY(!got.dense);
    QVERIFY(got.largestResidual <= o.tolerance);
    QCOMPARE(got.applications, inv.columns);
    compareWithDense(got, ref, k, 1e-9);
    // The true residual in H's terms: H φ − λ φ = −H (A φ − θ φ) / θ, so at most ‖H‖ · tolerance.
    const double normH = ref.eigenvalues().maxCoeff();
    for (int t = 0; t < k; ++t) {
      const double res = (H * got.vectors.col(t) - got.values[t] * got.vectors.col(t)).norm();
      QVERIFY2(res <= 10 * normH * o.tolerance, qPrintable(QString("mode %1: residual %2").arg(t).arg(res)));
    }
    if (basis > 0) QVERIFY2(got.restarts > 0, "a basis of k + 2b columns should have restarted");
    // Far fewer applications than a dense decomposition's n columns.
    QVERIFY(got.applications < H.rows() / 2);
  }

  void sameModesOnEveryRun() {
    const SpMat H = restHessian(12, 3);
    Inverse a(H), b(H);
    LowModesOptions o;
    o.denseBelow = 0;
    const LowModes first = lowestModes(H, 10, a.op(), o), second = lowestModes(H, 10, b.op(), o);
    QCOMPARE((first.vectors - second.vectors).norm(), 0.0);
  }

  void invariantSubspaceContinues() {
    // H = diag(1…1, 2…2, 3…3, 4…4), each 200 times: the block Krylov space of 4 start vectors is
    // invariant after 4 blocks (the start block's components in the 4 eigenspaces), and the next
    // block vanishes. Its columns are replaced by random directions (no division by zero, no
    // NaN); the 4 modes are eigenvectors of eigenvalue 1, orthonormal.
    const int n = 800;
    SpMat H(n, n);
    for (int i = 0; i < n; ++i) H.insert(i, i) = 1.0 + i / 200;
    H.makeCompressed();
    const BlockInverse inverse = [&](const MatX& in, MatX& out) {
      out = in;
      for (int i = 0; i < n; ++i) out.row(i) /= H.coeff(i, i);
    };
    LowModesOptions o;
    o.blockSize = 4;
    o.basisSize = 64;  // the first Rayleigh–Ritz at 12 columns, the next at 24: past the 16
    o.denseBelow = 0;
    const LowModes got = lowestModes(H, 4, inverse, o);
    QVERIFY(got.applications > 16);  // beyond the invariant space
    QVERIFY(got.vectors.allFinite());
    for (int t = 0; t < 4; ++t) QVERIFY(std::abs(got.values[t] - 1.0) < 1e-10);
    QVERIFY((got.vectors.transpose() * got.vectors - MatX::Identity(4, 4)).norm() < 1e-10);
    QVERIFY(got.vectors.bottomRows(n - 200).norm() < 1e-8);  // inside the eigenspace of 1
  }

  void smallMatrixIsDense() {
    const SpMat H = restHessian(6, 2);  // 171 unknowns: below LowModesOptions::denseBelow
    Inverse inv(H);
    const LowModes got = lowestModes(H, 12, inv.op());
    QVERIFY(got.dense);
    QCOMPARE(inv.columns, 0);
    const Eigen::SelfAdjointEigenSolver<MatX> ref{MatX(H)};
    compareWithDense(got, ref, 12, 1e-12);
  }

  void errors() {
    const SpMat H = restHessian(12, 3);
    Inverse inv(H);
    LowModesOptions o;
    o.denseBelow = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lowestModes(H, 0, inv.op(), o));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lowestModes(H, int(H.rows()), inv.op(), o));
    o.maxRestarts = 0;  // the first Rayleigh–Ritz is not converged with a basis of k + 2b
    o.basisSize = 1;
    o.blockSize = 2;
    try {
      lowestModes(H, 20, inv.op(), o);
      QFAIL("no error without convergence");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).contains("not converged after 0 restarts"), e.what());
    }
    const BlockInverse failing = [](const MatX&, MatX&) { throw std::domain_error("cancelled"); };
    QVERIFY_THROWS_EXCEPTION(std::domain_error, lowestModes(H, 5, failing, LowModesOptions{16, 0, 1e-8, 10, 1, 0}));
  }
};

QTEST_APPLESS_MAIN(TestDeformLowModes)
#include "test_deform_low_modes.moc"
