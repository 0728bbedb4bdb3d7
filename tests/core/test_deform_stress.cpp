// tests/core/test_deform_stress.cpp — tests core/deform/stress.cpp and the soft handles of
// core/deform/handle.cpp: the Cauchy / von Mises stress of the stable neo-Hookean material against
// closed forms (uniaxial stretch, simple shear) and against P = ∂Ψ/∂F by central finite differences
// of the energy density; per-tet and volume-weighted per-vertex stresses on meshes deformed
// homogeneously and on two tets of different volume; the handle term of the incremental potential
// (energy, gradient, Hessian) against central finite differences; a Newton step with a handle pulls
// the vertex towards its target to the balance of spring and elastic forces (∇E = 0), and the part
// springs back without it; bad handles are clear errors.
#include <QtTest>

#include <cmath>
#include <random>

#include "core/deform/handle.h"
#include "core/deform/hd/element.h"
#include "core/deform/solver.h"
#include "core/deform/stress.h"

using namespace mechsim;
using namespace mechsim::deform;

namespace {

Material rubber() {
  Material mat;
  mat.youngs = 2e6;
  mat.poisson = 0.45;
  mat.density = 1100;
  return mat;
}

/// Ψ(F) of the material (materialEval's energy only).
double psi(const Material& mat, const Mat3& F) {
  double f[9], P[9];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) f[3 * r + c] = F(r, c);
  return hd::materialEval(mat.kind, mat.mu(), mat.lambda(), f, P, nullptr, false);
}

/// One tet with rest vertices 0, e_x, e_y, e_z (scaled by L) deformed homogeneously by F.
DeformableModel oneTet(const Material& mat, double L = 1.0) {
  TetMesh mesh;
  mesh.vertices = {Vec3::Zero(), L * Vec3::UnitX(), L * Vec3::UnitY(), L * Vec3::UnitZ()};
  mesh.tets = {{0, 1, 2, 3}};
  return makeDeformableModel(mesh, mat, 0.01, Vec3::Zero(), {});
}

VecX deformed(const DeformableModel& m, const Mat3& F, const Vec3& shift = Vec3::Zero()) {
  VecX x(3 * m.vertexCount());
  for (int v = 0; v < m.vertexCount(); ++v) x.segment<3>(3 * v) = F * m.mesh.vertices[v] + shift;
  return x;
}

/// A small beam (pinned at x = 0) with a few random handles on free vertices.
DeformableModel beamWithHandles(std::mt19937& rng) {
  TetMesh mesh = makeBoxMesh(Vec3(0.3, 0.1, 0.1), 3, 1, 1);
  std::vector<int> pinned;
  for (int v = 0; v < mesh.vertexCount(); ++v)
    if (mesh.vertices[v].x() < 1e-9) pinned.push_back(v);
  DeformableModel m = makeDeformableModel(mesh, rubber(), 0.01, Vec3(0, 0, -9.81), pinned);
  std::uniform_real_distribution<double> u(-0.05, 0.05);
  for (int v : {m.freeVertices.front(), m.freeVertices[m.freeCount() / 2], m.freeVertices.back()}) {
    VertexHandle hd;
    hd.vertex = v;
    hd.target = m.mesh.vertices[v] + Vec3(u(rng), u(rng), u(rng));
    hd.stiffness = handleStiffness(m.mass[v], m.h);
    m.handles.push_back(hd);
  }
  VertexHandle onPinned;  // no effect on a prescribed vertex
  onPinned.vertex = pinned.front();
  onPinned.target = Vec3(1, 1, 1);
  onPinned.stiffness = 1e3;
  m.handles.push_back(onPinned);
  return m;
}

}  // namespace

class TestDeformStress : public QObject {
  Q_OBJECT
 private slots:
  void uniaxialStretchMatchesClosedForm() {
    // F = diag(a, 1, 1): σ = (μ/a) diag(a², 1, 1) + (λ(a−1) − μ) I, σ_vM = μ |a − 1/a|.
    const Material mat = rubber();
    const double mu = mat.mu(), lam = mat.lambda();
    for (double a : {0.6, 0.9, 1.0, 1.2, 1.7}) {
      const Mat3 F = Vec3(a, 1, 1).asDiagonal();
      const Mat3 s = cauchyStress(mat, F);
      const double s11 = mu * a + lam * (a - 1) - mu, s22 = mu / a + lam * (a - 1) - mu;
      QVERIFY2(std::abs(s(0, 0) - s11) < 1e-9 * mu, qPrintable(QString::number(s(0, 0) - s11)));
      QVERIFY(std::abs(s(1, 1) - s22) < 1e-9 * mu);
      QVERIFY(std::abs(s(2, 2) - s22) < 1e-9 * mu);
      QVERIFY(std::abs(s(0, 1)) + std::abs(s(0, 2)) + std::abs(s(1, 2)) < 1e-9 * mu);
      QVERIFY(std::abs(vonMises(s) - mu * std::abs(a - 1 / a)) < 1e-9 * mu);
      // The same on a single tet deformed by F (and moved: translation does not stress it).
      const DeformableModel m = oneTet(mat, 0.3);
      const std::vector<double> t = tetVonMises(m, deformed(m, F, Vec3(0.1, -2, 3)));
      QCOMPARE(t.size(), size_t(1));
      QVERIFY(std::abs(t[0] - mu * std::abs(a - 1 / a)) < 1e-8 * mu);
    }
  }

  void simpleShearMatchesClosedForm() {
    // F = I + γ e₁e₂ᵀ (J = 1): σ = μ (F Fᵀ − I) = μ [[γ², γ, 0], [γ, 0, 0], [0, 0, 0]],
    // σ_vM = μ γ √(γ² + 3).
    const Material mat = rubber();
    const double mu = mat.mu();
    for (double g : {0.05, 0.3, 1.0}) {
      Mat3 F = Mat3::Identity();
      F(0, 1) = g;
      Mat3 expect = Mat3::Zero();
      expect(0, 0) = mu * g * g;
      expect(0, 1) = expect(1, 0) = mu * g;
      const Mat3 s = cauchyStress(mat, F);
      QVERIFY2((s - expect).norm() < 1e-9 * mu, qPrintable(QString::number((s - expect).norm())));
      QVERIFY(std::abs(vonMises(s) - mu * g * std::sqrt(g * g + 3)) < 1e-9 * mu);
      // A rotation after the shear rotates σ and leaves σ_vM unchanged (frame indifference).
      const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
      const Mat3 sr = cauchyStress(mat, R * F);
      QVERIFY((sr - R * expect * R.transpose()).norm() < 1e-9 * mu);
      QVERIFY(std::abs(vonMises(sr) - vonMises(s)) < 1e-9 * mu);
    }
  }

  void cauchyMatchesFiniteDifferencePiola() {
    // σ = P Fᵀ / J with P = ∂Ψ/∂F by central differences of the energy density (both materials).
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-0.3, 0.3);
    for (int kind : {hd::kStableNeoHookean, hd::kArap}) {
      Material mat = rubber();
      mat.kind = static_cast<hd::MaterialKind>(kind);
      for (int trial = 0; trial < 20; ++trial) {
        Mat3 F = Mat3::Identity();
        for (int k = 0; k < 9; ++k) F(k / 3, k % 3) += u(rng);
        if (F.determinant() <= 0.2) continue;
        Mat3 Pfd;
        const double h = 1e-6;
        for (int k = 0; k < 9; ++k) {
          Mat3 Fp = F, Fm = F;
          Fp(k / 3, k % 3) += h;
          Fm(k / 3, k % 3) -= h;
          Pfd(k / 3, k % 3) = (psi(mat, Fp) - psi(mat, Fm)) / (2 * h);
        }
        const Mat3 expect = Pfd * F.transpose() / F.determinant();
        const Mat3 s = cauchyStress(mat, F);
        QVERIFY2((s - expect).norm() < 1e-5 * std::max(1.0, expect.norm()),
                 qPrintable(QString("kind %1: %2 vs %3").arg(kind).arg(s.norm()).arg(expect.norm())));
        QVERIFY((firstPiolaStress(mat, F) - Pfd).norm() < 1e-5 * std::max(1.0, Pfd.norm()));
      }
    }
  }

  void restIsStressFreeAndInvertedIsFinite() {
    const Material mat = rubber();
    QVERIFY(cauchyStress(mat, Mat3::Identity()).norm() < 1e-9);
    Mat3 F = Vec3(-0.5, 1, 1).asDiagonal();  // inverted: the Kirchhoff stress, finite
    const Mat3 s = cauchyStress(mat, F);
    QVERIFY(s.allFinite());
    QVERIFY(std::abs(vonMises(s) - vonMises(firstPiolaStress(mat, F) * F.transpose())) < 1e-9 * mat.mu());
  }

  void vertexStressIsVolumeWeightedMean() {
    // A box grid stretched homogeneously: every tet and every vertex carries the closed-form value.
    const Material mat = rubber();
    TetMesh mesh = makeBoxMesh(Vec3(0.2, 0.1, 0.1), 4, 2, 2);
    const DeformableModel m = makeDeformableModel(mesh, mat, 0.01, Vec3::Zero(), {});
    const double a = 1.25;
    const VecX x = deformed(m, Vec3(a, 1, 1).asDiagonal());
    const double expect = mat.mu() * (a - 1 / a);
    for (double v : vertexVonMises(m, x)) QVERIFY(std::abs(v - expect) < 1e-8 * expect);

    // Two tets sharing the face (1, 2, 3), of volumes 1/6 and 5/6 ((2, 2, 2) lies 5/√3 from the
    // face's plane), stressed differently: the shared vertices carry the volume-weighted mean.
    TetMesh two;
    two.vertices = {Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ(), Vec3(2, 2, 2)};
    two.tets = {{0, 1, 2, 3}, {4, 3, 2, 1}};
    const DeformableModel m2 = makeDeformableModel(two, mat, 0.01, Vec3::Zero(), {});
    const double V0 = std::abs(m2.volume[0]), V1 = std::abs(m2.volume[1]);
    QVERIFY(std::abs(V0 - 1.0 / 6) < 1e-12 && std::abs(V1 - V0 * 5) < 1e-9);
    VecX x2 = restPositions(m2);
    x2.segment<3>(3 * 4) += Vec3(0.3, -0.1, 0.2);  // only the second tet deforms
    const std::vector<double> t = tetVonMises(m2, x2);
    QVERIFY(t[0] < 1e-6 && t[1] > 1e3);
    const std::vector<double> v = vertexVonMises(m2, x2);
    QVERIFY(std::abs(v[0] - t[0]) < 1e-9 * t[1]);
    QVERIFY(std::abs(v[4] - t[1]) < 1e-9 * t[1]);
    for (int k = 1; k <= 3; ++k) QVERIFY(std::abs(v[k] - (V0 * t[0] + V1 * t[1]) / (V0 + V1)) < 1e-9 * t[1]);
  }

  void handleTermMatchesFiniteDifferences() {
    // E with handles: its gradient by central differences of E, its Hessian (element Hessians
    // unprojected, so exact) by central differences of the gradient, at the free vertices.
    std::mt19937 rng(11);
    const DeformableModel m = beamWithHandles(rng);
    DeformableModel bare = m;
    bare.handles.clear();
    std::uniform_real_distribution<double> u(-0.01, 0.01);
    VecX x = restPositions(m), z = restPositions(m);
    for (int i = 0; i < x.size(); ++i) x[i] += u(rng), z[i] += u(rng);
    for (int v = 0; v < m.vertexCount(); ++v)
      if (m.prescribed[v]) x.segment<3>(3 * v) = m.mesh.vertices[v];

    // The handle energy itself: Σ ½ k ‖x_v − t‖², added to E exactly.
    double expectE = 0;
    for (const VertexHandle& hd : m.handles) expectE += 0.5 * hd.stiffness * (x.segment<3>(3 * hd.vertex) - hd.target).squaredNorm();
    QVERIFY(std::abs(incrementalEnergy(m, z, x) - incrementalEnergy(bare, z, x) - expectE) < 1e-9 * std::max(1.0, expectE));
    QVERIFY(expectE > 0);

    ElementCache c;
    evalElements(m, x, c, true, /*project=*/false);
    const VecX g = assembleGradient(m, z, x, c);
    const SpMat H = assembleFullHessian(m, c);
    const double h = 1e-6;
    double gErr = 0, gScale = 0, hErr = 0, hScale = 0;
    for (int i = 0; i < x.size(); ++i) {
      if (m.prescribed[i / 3]) {
        QCOMPARE(g[i], 0.0);
        continue;
      }
      VecX xp = x, xm = x;
      xp[i] += h;
      xm[i] -= h;
      const double fd = (incrementalEnergy(m, z, xp) - incrementalEnergy(m, z, xm)) / (2 * h);
      gErr = std::max(gErr, std::abs(fd - g[i]));
      gScale = std::max(gScale, std::abs(g[i]));
      ElementCache cp, cm;
      evalElements(m, xp, cp, false);
      evalElements(m, xm, cm, false);
      const VecX col = (assembleGradient(m, z, xp, cp) - assembleGradient(m, z, xm, cm)) / (2 * h);
      for (int j = 0; j < x.size(); ++j) {
        if (m.prescribed[j / 3]) continue;
        hErr = std::max(hErr, std::abs(col[j] - H.coeff(j, i)));
        hScale = std::max(hScale, std::abs(H.coeff(j, i)));
      }
    }
    QVERIFY2(gErr < 1e-5 * gScale, qPrintable(QString("gradient %1 of %2").arg(gErr).arg(gScale)));
    QVERIFY2(hErr < 1e-5 * hScale, qPrintable(QString("Hessian %1 of %2").arg(hErr).arg(hScale)));
    // The handles' share of the gradient and of the free-vertex Hessian, exactly.
    ElementCache cb;
    evalElements(bare, x, cb, true, false);
    const VecX dg = g - assembleGradient(bare, z, x, cb);
    const SpMat dH = assembleHessian(m, c) - assembleHessian(bare, cb);
    for (const VertexHandle& hd : m.handles) {
      if (m.prescribed[hd.vertex]) continue;
      QVERIFY((dg.segment<3>(3 * hd.vertex) - hd.stiffness * (x.segment<3>(3 * hd.vertex) - hd.target)).norm() < 1e-9 * hd.stiffness);
      const int f = m.freeIndex[hd.vertex];
      for (int r = 0; r < 3; ++r) QVERIFY(std::abs(dH.coeff(3 * f + r, 3 * f + r) - hd.stiffness) < 1e-9 * hd.stiffness);
    }
    // … and nothing else (the handle on the pinned vertex adds nothing).
    double sumK = 0;
    for (const VertexHandle& hd : m.handles)
      if (!m.prescribed[hd.vertex]) sumK += 3 * hd.stiffness;
    QVERIFY(std::abs(dH.cwiseAbs().sum() - sumK) < 1e-6 * sumK);
  }

  void newtonStepWithHandlePullsAndReleases() {
    // A cantilever (x = 0 pinned, no gravity) with its tip vertex pulled up by 5 cm: after one step
    // the vertex has moved up a substantial fraction of the way, the step's solution balances the
    // spring against the elastic and inertial forces (∇E = 0 with the handle), attachments (the
    // pinned end) stay; without the handle the part swings back.
    TetMesh mesh = makeBoxMesh(Vec3(0.4, 0.04, 0.02), 20, 2, 1);
    std::vector<int> pinned;
    int tip = -1;
    for (int v = 0; v < mesh.vertexCount(); ++v) {
      if (mesh.vertices[v].x() < 1e-9) pinned.push_back(v);
      if (std::abs(mesh.vertices[v].x() - 0.4) < 1e-9 && tip < 0) tip = v;
    }
    DeformableModel m = makeDeformableModel(mesh, rubber(), 1.0 / 60, Vec3::Zero(), pinned);
    const Vec3 rest = m.mesh.vertices[tip], target = rest + Vec3(0, 0, 0.05);
    VertexHandle hd;
    hd.vertex = tip;
    hd.target = target;
    hd.stiffness = handleStiffness(m.mass[tip], m.h);
    QCOMPARE(hd.stiffness, kHandleStiffnessFactor * m.mass[tip] * 3600.0);
    m.handles = {hd};
    VecX x = restPositions(m), v = VecX::Zero(x.size());
    SolveOptions opt;
    opt.tolerance = 1e-7;  // a thin strap turned by the pull: tens of Newton iterations
    opt.maxIterations = 100;
    for (int k = 0; k < 10; ++k) {
      const VecX xhat = x, vhat = v;
      const SolveStats st = stepImplicitEuler(m, nullptr, opt, x, v);
      QVERIFY2(st.converged, qPrintable(QString("%1 it, step %2").arg(st.iterations).arg(st.lastStep)));
      // Stationarity of the step's potential with the handle's spring.
      VecX zz = xhat + m.h * vhat;
      ElementCache c;
      evalElements(m, x, c, false);
      const VecX g = assembleGradient(m, zz, x, c);
      const double force = hd.stiffness * (x.segment<3>(3 * tip) - target).norm();  // the spring's pull
      QVERIFY2(g.norm() < 1e-4 * force, qPrintable(QString("%1 of %2").arg(g.norm()).arg(force)));
    }
    const double up = x[3 * tip + 2] - rest.z();
    qInfo("tip pulled 5 cm: moved %.4f m after 10 steps (k = %.1f N/m)", up, hd.stiffness);
    QVERIFY2(up > 0.3 * 0.05, qPrintable(QString::number(up)));
    for (int p : pinned) QCOMPARE(Vec3(x.segment<3>(3 * p)), m.mesh.vertices[p]);
    // Released: the strap springs back down through its rest height within a few steps.
    m.handles.clear();
    double lowest = up;
    for (int k = 0; k < 60; ++k) {
      stepImplicitEuler(m, nullptr, opt, x, v);
      lowest = std::min(lowest, x[3 * tip + 2] - rest.z());
    }
    QVERIFY2(lowest < 0.25 * up, qPrintable(QString::number(lowest)));
  }

  void everySolverReachesNewtonsMinimiserWithHandles() {
    // One step's potential with three handles (and one on a pinned vertex, which does nothing),
    // minimised by every solver from the same start: the per-vertex sweeps (Jacobi, VBD, JGS2
    // Jacobi / Gauss–Seidel, with and without step control) and the exact-Schur oracle reach
    // projected Newton's minimiser, whose gradient with the handles' springs vanishes and which lies
    // far from the minimiser without handles (so a solver that dropped the handles' terms from its
    // local blocks or residuals would miss it).
    std::mt19937 rng(5);
    TetMesh mesh = makeBoxMesh(Vec3(0.3, 0.1, 0.1), 6, 2, 2);
    std::vector<int> pinned;
    for (int v = 0; v < mesh.vertexCount(); ++v)
      if (mesh.vertices[v].x() < 1e-9) pinned.push_back(v);
    Material soft = rubber();
    soft.youngs = 2e5;
    DeformableModel m = makeDeformableModel(mesh, soft, 0.01, Vec3(0, 0, -9.81), pinned);
    std::uniform_real_distribution<double> u(-0.03, 0.03);
    for (int v : {m.freeVertices.front(), m.freeVertices[m.freeCount() / 2], m.freeVertices.back()}) {
      VertexHandle hd;
      hd.vertex = v;
      hd.target = m.mesh.vertices[v] + Vec3(u(rng), u(rng), 0.03);
      hd.stiffness = handleStiffness(m.mass[v], m.h, 1e3);
      m.handles.push_back(hd);
    }
    m.handles.push_back(VertexHandle{pinned.front(), Vec3(1, 1, 1), 1e3});
    const VecX z = restPositions(m), x0 = z;
    SolveOptions ref;
    ref.tolerance = 1e-12;
    ref.maxIterations = 100;
    VecX xStar = x0;
    QVERIFY(minimise(m, nullptr, ref, z, xStar).converged);
    ElementCache c;
    evalElements(m, xStar, c, false);
    // Stationary to round-off: the gradient falls by 11 orders from the start's (6e4 here).
    ElementCache c0;
    evalElements(m, x0, c0, false);
    const double g0 = assembleGradient(m, z, x0, c0).norm(), gStar = assembleGradient(m, z, xStar, c).norm();
    QVERIFY2(gStar < 1e-11 * g0, qPrintable(QString("%1 of %2").arg(gStar).arg(g0)));
    DeformableModel bare = m;
    bare.handles.clear();
    VecX xBare = x0;
    QVERIFY(minimise(bare, nullptr, ref, z, xBare).converged);
    const double scale = (xStar - x0).norm();
    QVERIFY2((xBare - xStar).norm() > 0.3 * scale, qPrintable(QString::number((xBare - xStar).norm() / scale)));

    Jgs2Options jo;
    jo.trainingModes = 24;
    const Jgs2Data jgs2 = precomputeJgs2(m, jo);
    struct Case {
      Method method;
      Jgs2Variant variant;
      Acceleration acc;
    };
    for (const Case cs : {Case{Method::Jacobi, Jgs2Variant::Cubature, Acceleration::Subspace},
                          Case{Method::Vbd, Jgs2Variant::Cubature, Acceleration::None},
                          Case{Method::Vbd, Jgs2Variant::Cubature, Acceleration::Subspace},
                          Case{Method::Jgs2Jacobi, Jgs2Variant::Cubature, Acceleration::None},
                          Case{Method::Jgs2Jacobi, Jgs2Variant::Cubature, Acceleration::Subspace},
                          Case{Method::Jgs2GaussSeidel, Jgs2Variant::Cubature, Acceleration::Subspace},
                          Case{Method::Jgs2Jacobi, Jgs2Variant::ExactSchur, Acceleration::None}}) {
      SolveOptions opt;
      opt.method = cs.method;
      opt.variant = cs.variant;
      opt.acceleration = cs.acc;
      opt.tolerance = 0;
      opt.maxIterations = 20000;
      opt.monitor = [&](const VecX& x) { return (x - xStar).norm() < 1e-6 * scale; };
      VecX x = x0;
      const SolveStats st = minimise(m, &jgs2, opt, z, x);
      const QString what = QString("%1 %2 %3: %4 iterations, error %5")
                               .arg(toString(cs.method), toString(cs.variant), toString(cs.acc))
                               .arg(st.iterations)
                               .arg((x - xStar).norm() / scale);
      qInfo("%s", qPrintable(what));
      QVERIFY2(st.converged, qPrintable(what));
    }
  }

  void badHandlesAreErrors() {
    std::mt19937 rng(2);
    DeformableModel m = beamWithHandles(rng);
    const VecX x0 = restPositions(m);
    SolveOptions opt;
    VecX x = x0;
    m.handles[0].vertex = m.vertexCount();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, minimise(m, nullptr, opt, x0, x));
    m.handles[0].vertex = 0;
    m.handles[0].target = Vec3(std::nan(""), 0, 0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, minimise(m, nullptr, opt, x0, x));
    m.handles[0].target = Vec3::Zero();
    m.handles[0].stiffness = -1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, minimise(m, nullptr, opt, x0, x));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, handleStiffness(1.0, 0.0));
  }
};

QTEST_MAIN(TestDeformStress)
#include "test_deform_stress.moc"
