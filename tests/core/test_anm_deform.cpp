// tests/core/test_anm_deform.cpp — tests reference/anm/deform_static.cpp: handle-controlled static
// deformation of a tet mesh by ANM continuation (paper 004 §3.3-3.4, eq. 68 with the
// error-correcting form eq. 34), stable neo-Hookean and ARAP (core/deform), against the projected
// Newton solver of core/deform (solveNewton via minimise) as the independent reference, each case
// for both materials:
//   * forward gravity equilibrium of a cantilever (λ scales gravity 0 → 1): the ANM end point
//     matches Newton's static solution (the incremental potential with h = 100 s, whose inertia term
//     M/h² shifts the equilibrium by ~1e-10 of the sag) to 1e-6 m (2.5e-6 of the beam length; Newton
//     itself stops at a force residual ~4e-10 μ·extent², which allows ~1e-7 m), and its static force
//     residual, evaluated by the production element code, is below 1e-10 μ·extent²;
//   * handle pull (the free end moved up 0.12 m and twisted 30°, gravity on): ANM end point vs
//     Newton to 1e-6 m, no tet inverted;
//   * the slope test on the series: ‖H(x(a), λ(a))‖ = O(a^{N+1}), H evaluated independently
//     (staticResidual on hd::elementEval's gradients);
//   * the polar rotation series (polar_series.h, ARAP's R): for polynomial paths F(a) of degree 2,
//     Σ R_k a^k against hd::polarRotation(F(a)) computed by the SVD, error O(a^{N+1}) (the slope
//     test again), R orthogonal to the series' order; also through an inverted F_0 (det < 0, the
//     rotation-variant branch); a flattened F_0 (σ_1 + σ_2 = 0) is reported as not differentiable;
//   * bad sizes and non-finite input are refused with std::invalid_argument.
#include <QtTest>

#include <cmath>

#include "reference/anm/deform_static.h"
#include "core/anm/polar_series.h"
#include "core/deform/hd/mat3.h"
#include "core/deform/solver.h"

using namespace mechsim;

Q_DECLARE_METATYPE(mechsim::Mat3)

namespace {

constexpr double kLength = 0.4, kWidth = 0.1;

/// Cantilever 0.4 × 0.1 × 0.1 m (8×2×2 cells), E = 5e5 Pa, ν = 0.4, ρ = 1000 kg/m³, gravity −z,
/// clamped at x = 0; with `handle`, the x = L face is prescribed too.
deform::DeformableModel beam(bool handle, deform::hd::MaterialKind kind = deform::hd::kStableNeoHookean) {
  deform::TetMesh mesh = deform::makeBoxMesh(Vec3(kLength, kWidth, kWidth), 8, 2, 2);
  deform::Material mat;
  mat.kind = kind;
  mat.youngs = 5e5;
  mat.poisson = 0.4;
  mat.density = 1000;
  std::vector<int> pinned;
  for (int v = 0; v < mesh.vertexCount(); ++v)
    if (mesh.vertices[v].x() < 1e-12 || (handle && mesh.vertices[v].x() > kLength - 1e-12)) pinned.push_back(v);
  return deform::makeDeformableModel(mesh, mat, 1e2, Vec3(0, 0, -9.81), pinned);
}

/// Newton's static solution: minimise the incremental potential with v̂ = 0, x̂ = x (prescribed set).
VecX newtonStatic(const deform::DeformableModel& m, VecX x, double gravityScale, int& iterations) {
  VecX z = x;
  for (int v = 0; v < m.vertexCount(); ++v) z.segment<3>(3 * v) += m.h * m.h * gravityScale * m.gravity;
  deform::SolveOptions opt;
  opt.method = deform::Method::Newton;
  opt.tolerance = 1e-13;
  opt.maxIterations = 100;
  const deform::SolveStats st = deform::minimise(m, nullptr, opt, z, x);
  iterations = st.iterations;
  return x;
}

double maxVertexDistance(const VecX& a, const VecX& b) {
  double d = 0;
  for (int v = 0; v < a.size() / 3; ++v) d = std::max(d, (a.segment<3>(3 * v) - b.segment<3>(3 * v)).norm());
  return d;
}

/// The data rows of the cases run for both materials.
void materials() {
  QTest::addColumn<int>("kind");
  QTest::newRow("stable-neo-hookean") << int(deform::hd::kStableNeoHookean);
  QTest::newRow("arap") << int(deform::hd::kArap);
}

}  // namespace

class TestAnmDeform : public QObject {
  Q_OBJECT
 private slots:
  void forwardGravityMatchesNewton_data() { materials(); }
  void forwardGravityMatchesNewton() {
    QFETCH(int, kind);
    const deform::DeformableModel m = beam(false, deform::hd::MaterialKind(kind));
    const VecX rest = deform::restPositions(m);
    const anm::StaticDeformResult r = anm::solveStaticAnm(m, rest, 0.0, rest, 1.0);
    QVERIFY2(r.converged, r.message.c_str());
    QVERIFY(r.residual < 1e-10);
    int newtonIt = 0;
    const VecX xn = newtonStatic(m, rest, 1.0, newtonIt);
    const double sag = maxVertexDistance(r.x, rest), diff = maxVertexDistance(r.x, xn);
    const double newtonResidual = anm::staticResidual(m, xn, 1.0).lpNorm<Eigen::Infinity>() / (m.mu() * m.extent * m.extent);
    qInfo("gravity: ANM %d steps (%d solves), residual %.1e; Newton %d iterations, residual %.1e; tip sag %.4f m, "
          "|x_anm - x_newton| = %.2e m",
          r.steps, r.solves, r.residual, newtonIt, newtonResidual, sag, diff);
    QVERIFY(sag > 0.02);  // a large deflection (nonlinear regime)
    QVERIFY(newtonResidual < 1e-8);
    QVERIFY2(diff < 1e-6, qPrintable(QString("|x_anm − x_newton| = %1").arg(diff)));
  }

  void handlePullMatchesNewton_data() { materials(); }
  void handlePullMatchesNewton() {
    QFETCH(int, kind);
    const deform::DeformableModel m = beam(true, deform::hd::MaterialKind(kind));
    const VecX rest = deform::restPositions(m);
    // First the gravity equilibrium with the handle held, then the handle moved up 0.12 m and
    // twisted 30° about the beam axis.
    const anm::StaticDeformResult g = anm::solveStaticAnm(m, rest, 0.0, rest, 1.0);
    QVERIFY2(g.converged, g.message.c_str());
    VecX target = g.x;
    const Vec3 axis(kLength, kWidth / 2, kWidth / 2);
    const Eigen::AngleAxisd twist(M_PI / 6, Vec3::UnitX());
    for (int v = 0; v < m.vertexCount(); ++v)
      if (m.prescribed[v] && rest(3 * v) > kLength - 1e-12)
        target.segment<3>(3 * v) = axis + twist * (Vec3(rest.segment<3>(3 * v)) - axis) + Vec3(0, 0, 0.12);
    const anm::StaticDeformResult r = anm::solveStaticAnm(m, g.x, 1.0, target, 1.0);
    QVERIFY2(r.converged, r.message.c_str());
    QVERIFY(maxVertexDistance(r.x, target) > 0.05);  // the free vertices moved far
    for (int v = 0; v < m.vertexCount(); ++v)
      if (m.prescribed[v]) QVERIFY((r.x.segment<3>(3 * v) - target.segment<3>(3 * v)).norm() < 1e-12);
    int newtonIt = 0;
    const VecX xn = newtonStatic(m, target, 1.0, newtonIt);
    const double diff = maxVertexDistance(r.x, xn);
    qInfo("handle pull (0.12 m up, 30 deg twist): ANM %d steps (%d solves), residual %.1e; Newton %d iterations; "
          "|x_anm - x_newton| = %.2e m",
          r.steps, r.solves, r.residual, newtonIt, diff);
    QVERIFY2(diff < 1e-6, qPrintable(QString("|x_anm − x_newton| = %1").arg(diff)));
    // No tet inverted at the end (paper §3.4).
    for (int t = 0; t < m.tetCount(); ++t) {
      deform::TetMesh moved = m.mesh;
      for (int k = 0; k < 4; ++k) moved.vertices[moved.tets[t][k]] = r.x.segment<3>(3 * moved.tets[t][k]);
      QVERIFY(deform::tetVolume(moved, t) > 0);
    }
  }

  void slopeTest_data() { materials(); }
  void slopeTest() {
    QFETCH(int, kind);
    const deform::DeformableModel m = beam(true, deform::hd::MaterialKind(kind));
    const VecX rest = deform::restPositions(m);
    VecX dp = VecX::Zero(rest.size());
    for (int v = 0; v < m.vertexCount(); ++v)
      if (m.prescribed[v] && rest(3 * v) > kLength - 1e-12) dp.segment<3>(3 * v) = Vec3(0.02, -0.05, 0.1);
    anm::AnmOptions opt;
    opt.order = 6;
    // Rest is an equilibrium without gravity: the plain homotopy H = R(x, p_0 + μΔp, 0).
    anm::StaticDeformHomotopy h(m, rest, dp, 0.0, 0.0, opt.order, false);
    QVERIFY(h.factorised());
    const anm::AnmSeries s = anm::expandSeries(h, h.freeCoordinates(rest), 0.0, opt);
    auto H = [&](double a) {
      return anm::staticResidual(m, h.fullPositions(s.xAt(a), s.lambdaAt(a)), 0.0).lpNorm<Eigen::Infinity>();
    };
    const double a1 = s.range / 4, a2 = s.range / 8, h1 = H(a1), h2 = H(a2);
    const double slope = std::log2(h1 / h2);
    qInfo("slope test, N = 6: H(a_r/4) = %.3e, H(a_r/8) = %.3e, slope %.2f", h1, h2, slope);
    QVERIFY2(slope > opt.order + 0.5 && slope < opt.order + 1.5, qPrintable(QString("slope %1").arg(slope)));
    // The handle moves by μ(a) Δp and the series is not trivial.
    QVERIFY(s.lambda[1] > 0 && s.lambdaAt(s.range) > 0.05);
  }

  void polarRotationSeries_data() {
    QTest::addColumn<Mat3>("F0");
    QTest::addColumn<bool>("differentiable");
    Mat3 stretch;
    stretch << 1.3, 0.2, -0.1, 0.2, 0.8, 0.15, -0.1, 0.15, 1.1;
    const Mat3 turn = Eigen::AngleAxisd(0.7, Vec3(1, 2, -1).normalized()).toRotationMatrix();
    QTest::newRow("stretched and turned") << Mat3(turn * stretch) << true;
    // det F_0 < 0: the rotation-variant branch (σ_2 < 0, R still a rotation), σ_1 + σ_2 > 0.
    QTest::newRow("inverted") << Mat3(turn * Vec3(1.2, 0.9, -0.3).asDiagonal()) << true;
    QTest::newRow("flattened") << Mat3(turn * Vec3(1.2, 0.5, -0.5).asDiagonal()) << false;
  }

  void polarRotationSeries() {
    QFETCH(Mat3, F0);
    QFETCH(bool, differentiable);
    const anm::PolarSeriesBase b = anm::polarSeriesBase(F0);
    QCOMPARE(b.ok, differentiable);
    if (!differentiable) return;
    QVERIFY((b.R0 * b.S0 - F0).norm() < 1e-12 && std::abs(b.R0.determinant() - 1) < 1e-12);
    Mat3 F1, F2;
    F1 << 0.3, -0.5, 0.2, 0.1, 0.4, -0.6, 0.7, 0.2, 0.1;
    F2 << -0.2, 0.1, 0.5, 0.3, -0.3, 0.2, 0.1, 0.6, -0.4;
    constexpr int N = 8;
    std::vector<Mat3> F = {F0, F1, F2}, R = {b.R0};
    F.resize(N + 1, Mat3::Zero());
    for (int k = 1; k <= N; ++k)
      R.push_back(anm::polarRotationCoeff(
          b, F[size_t(k)], [&](int i) -> const Mat3& { return F[size_t(i)]; },
          [&](int i) -> const Mat3& { return R[size_t(i)]; }, k));
    // The reference: the SVD's rotation of F(a) itself.
    auto error = [&](double a) {
      const Eigen::Matrix<double, 3, 3, Eigen::RowMajor> Fa = F0 + a * F1 + a * a * F2;
      Eigen::Matrix<double, 3, 3, Eigen::RowMajor> Ra;
      deform::hd::polarRotation(Fa.data(), Ra.data());
      Mat3 series = Mat3::Zero();
      for (int k = N; k >= 0; --k) series = series * a + R[size_t(k)];
      return (series - Mat3(Ra)).norm();
    };
    const double a1 = 0.2, e1 = error(a1), e2 = error(a1 / 2);
    const double slope = std::log2(e1 / e2);
    qInfo("polar series, N = %d: error %.2e at a = %.3f, %.2e at a/2, slope %.2f", N, e1, a1, e2, slope);
    QVERIFY2(e1 < 1e-3 && e2 > 1e-13, qPrintable(QString("%1, %2").arg(e1).arg(e2)));
    QVERIFY2(slope > N + 0.5 && slope < N + 1.5, qPrintable(QString("slope %1").arg(slope)));
    // Orthogonality and det = 1 hold order by order: Σ_i R_iᵀ R_{k−i} = 0 for 1 ≤ k ≤ N.
    for (int k = 1; k <= N; ++k) {
      Mat3 q = Mat3::Zero();
      for (int i = 0; i <= k; ++i) q += R[size_t(i)].transpose() * R[size_t(k - i)];
      QVERIFY2(q.norm() < 1e-9 * std::pow(10.0, k / 2.0), qPrintable(QString("order %1: %2").arg(k).arg(q.norm())));
    }
  }

  void badInput() {
    const deform::DeformableModel m = beam(false);
    const VecX rest = deform::restPositions(m);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, anm::solveStaticAnm(m, VecX::Zero(3), 0.0, rest, 1.0));
    VecX bad = rest;
    bad(4) = std::nan("");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, anm::solveStaticAnm(m, bad, 0.0, rest, 1.0));
  }
};

QTEST_APPLESS_MAIN(TestAnmDeform)
#include "test_anm_deform.moc"
