// tests/core/test_deform_material.cpp — tests core/deform/hd/{mat3,element}.h, core/deform/tet_mesh.cpp
// and the incremental potential of core/deform/deformable.cpp: the SVD against its definition,
// stress and Hessians of both materials against central finite differences (step √ε-scaled, the
// tolerance its truncation error), PSD projection, element and assembled derivatives, mesh
// generators against closed-form volumes, face counts and outward faces, and the colouring's
// defining property. The stable neo-Hookean material with a file's E and ν is linear elasticity
// with that E and ν at small strain: its tangent at rest is the isotropic elasticity tensor, and
// a bar stretched by 1e-6 under uniaxial stress shortens sideways by ν times that, with σ = Eε.
#include <QtTest>
#include <random>

#include <Eigen/Eigenvalues>

#include "core/deform/deformable.h"
#include "core/deform/hd/element.h"

using namespace mechsim;
using namespace mechsim::deform;

namespace {

using Mat9 = Eigen::Matrix<double, 9, 9, Eigen::RowMajor>;
using Mat12 = Eigen::Matrix<double, 12, 12, Eigen::RowMajor>;

/// A random deformation gradient: rotation × (I + scale·random), det > 0 when scale is moderate.
Mat3 randomF(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-1, 1);
  Mat3 A;
  for (int k = 0; k < 9; ++k) A(k / 3, k % 3) = u(rng);
  const Quat q = Quat(u(rng), u(rng), u(rng), u(rng)).normalized();
  return q.toRotationMatrix() * (Mat3::Identity() + scale * A);
}

void toRow(const Mat3& F, double* f) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) f[3 * r + c] = F(r, c);
}

double psi(int kind, const double* F) {
  double P[9];
  return hd::materialEval(kind, 1.3, 4.1, F, P, nullptr, false);
}

}  // namespace

class TestDeformMaterial : public QObject {
  Q_OBJECT
 private slots:
  void svdReconstructsAndIsRotationVariant() {
    std::mt19937 rng(3);
    for (int trial = 0; trial < 50; ++trial) {
      Mat3 F = randomF(rng, 0.8);
      if (trial % 5 == 0) F.col(0) *= -1;  // inverted
      double f[9], U[9], s[3], V[9];
      toRow(F, f);
      hd::svd3(f, U, s, V);
      const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> Um(U), Vm(V);
      const Mat3 R = Um * Eigen::Vector3d(s[0], s[1], s[2]).asDiagonal() * Vm.transpose();
      QVERIFY((R - F).norm() < 1e-12 * F.norm());
      QVERIFY(std::abs(Um.determinant() - 1) < 1e-12);
      QVERIFY(std::abs(Vm.determinant() - 1) < 1e-12);
      QVERIFY(s[0] >= s[1] && s[1] >= std::abs(s[2]) - 1e-12);
      QCOMPARE(s[2] < 0, F.determinant() < 0);
    }
  }

  void stressMatchesFiniteDifferences_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("stable-neo-hookean") << int(hd::kStableNeoHookean);
    QTest::newRow("arap") << int(hd::kArap);
  }
  void stressMatchesFiniteDifferences() {
    QFETCH(int, kind);
    std::mt19937 rng(7);
    const double h = 1e-6;
    for (int trial = 0; trial < 20; ++trial) {
      double f[9], P[9], dP[81];
      toRow(randomF(rng, 0.4), f);
      hd::materialEval(kind, 1.3, 4.1, f, P, dP, false);
      for (int k = 0; k < 9; ++k) {
        double fp[9], fm[9], Pp[9], Pm[9];
        std::copy(f, f + 9, fp);
        std::copy(f, f + 9, fm);
        fp[k] += h;
        fm[k] -= h;
        const double fd = (psi(kind, fp) - psi(kind, fm)) / (2 * h);
        QVERIFY2(std::abs(fd - P[k]) < 1e-6 * (1 + std::abs(P[k])), qPrintable(QString::number(fd - P[k])));
        hd::materialEval(kind, 1.3, 4.1, fp, Pp, nullptr, false);
        hd::materialEval(kind, 1.3, 4.1, fm, Pm, nullptr, false);
        for (int j = 0; j < 9; ++j) {
          const double fdH = (Pp[j] - Pm[j]) / (2 * h);
          QVERIFY2(std::abs(fdH - dP[9 * j + k]) < 1e-5 * (1 + std::abs(dP[9 * j + k])),
                   qPrintable(QString("dP[%1,%2]: fd %3 analytic %4").arg(j).arg(k).arg(fdH).arg(dP[9 * j + k])));
        }
      }
    }
  }

  void projectionIsPsdAndExactWhenAlreadyPsd() {
    std::mt19937 rng(11);
    int alreadyPsd = 0, projected = 0;
    for (int kind : {int(hd::kStableNeoHookean), int(hd::kArap)})
      for (int trial = 0; trial < 40; ++trial) {
        double f[9], P[9], dP[81], dPp[81];
        Mat3 F = randomF(rng, trial < 20 ? 0.05 : 0.9);
        if (trial % 7 == 0) F.col(1) *= -1;
        toRow(F, f);
        hd::materialEval(kind, 1.3, 4.1, f, P, dP, false);
        hd::materialEval(kind, 1.3, 4.1, f, P, dPp, true);
        const Mat9 A = Eigen::Map<Mat9>(dP), Ap = Eigen::Map<Mat9>(dPp);
        QVERIFY((A - A.transpose()).norm() < 1e-10 * (1 + A.norm()));
        const Eigen::SelfAdjointEigenSolver<Mat9> e(A), ep(Ap);
        QVERIFY(ep.eigenvalues().minCoeff() > -1e-10 * (1 + A.norm()));
        if (e.eigenvalues().minCoeff() >= 0) {
          ++alreadyPsd;
          QVERIFY((A - Ap).norm() < 1e-12 * (1 + A.norm()));
        } else {
          ++projected;
          // Projection = clamping the negative eigenvalues of the exact Hessian.
          Eigen::VectorXd l = e.eigenvalues().cwiseMax(0.0);
          const Mat9 ref = e.eigenvectors() * l.asDiagonal() * e.eigenvectors().transpose();
          QVERIFY2((ref - Ap).norm() < 1e-9 * (1 + A.norm()), qPrintable(QString::number((ref - Ap).norm())));
        }
      }
    QVERIFY(alreadyPsd > 0);
    QVERIFY(projected > 0);  // both branches exercised
  }

  void elementDerivativesMatchFiniteDifferences() {
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(-0.2, 0.2);
    TetMesh mesh;
    mesh.vertices = {Vec3(0, 0, 0), Vec3(1, 0.1, 0), Vec3(0.2, 0.9, 0), Vec3(0.1, 0.2, 1.1)};
    mesh.tets = {{0, 1, 2, 3}};
    Mat3 Dm;
    for (int k = 0; k < 3; ++k) Dm.col(k) = mesh.vertices[k + 1] - mesh.vertices[0];
    const Mat3 B = Dm.inverse();
    double Bm[9];
    toRow(B, Bm);
    const double V = Dm.determinant() / 6;
    for (int kind : {int(hd::kStableNeoHookean), int(hd::kArap)}) {
      double x[12];
      for (int a = 0; a < 4; ++a)
        for (int r = 0; r < 3; ++r) x[3 * a + r] = mesh.vertices[a][r] + u(rng);
      double g[12], H[144];
      hd::elementEval(kind, 2.0, 5.0, V, Bm, x, g, H, false);
      const double h = 1e-6;
      for (int k = 0; k < 12; ++k) {
        double xp[12], xm[12], gp[12], gm[12];
        std::copy(x, x + 12, xp);
        std::copy(x, x + 12, xm);
        xp[k] += h;
        xm[k] -= h;
        const double Ep = hd::elementEval(kind, 2.0, 5.0, V, Bm, xp, gp, nullptr, false);
        const double Em = hd::elementEval(kind, 2.0, 5.0, V, Bm, xm, gm, nullptr, false);
        QVERIFY(std::abs((Ep - Em) / (2 * h) - g[k]) < 1e-6 * (1 + std::abs(g[k])));
        for (int j = 0; j < 12; ++j)
          QVERIFY2(std::abs((gp[j] - gm[j]) / (2 * h) - H[12 * j + k]) < 1e-5 * (1 + std::abs(H[12 * j + k])),
                   qPrintable(QString("H[%1,%2]").arg(j).arg(k)));
      }
      // Translation invariance: the gradient sums to zero over the four vertices.
      for (int r = 0; r < 3; ++r) QVERIFY(std::abs(g[r] + g[3 + r] + g[6 + r] + g[9 + r]) < 1e-10);
    }
  }

  void incrementalPotentialDerivatives() {
    // E = inertia + elasticity on a small pinned beam: assembled ∇E and (unprojected) ∇²E against
    // central differences of E and ∇E.
    TetMesh mesh = makeBoxMesh(Vec3(1, 0.3, 0.3), 3, 1, 1);
    Material mat;
    mat.youngs = 1e4;
    DeformableModel m = makeDeformableModel(mesh, mat, 0.01, Vec3(0, 0, -9.81), {0, 4, 8, 12});
    std::mt19937 rng(2);
    std::uniform_real_distribution<double> u(-0.03, 0.03);
    VecX x = restPositions(m), z = restPositions(m);
    for (int k = 0; k < x.size(); ++k) {
      if (m.prescribed[k / 3]) continue;
      x[k] += u(rng);
      z[k] += u(rng);
    }
    ElementCache c;
    evalElements(m, x, c, true, false);
    const VecX g = assembleGradient(m, z, x, c);
    const SpMat H = assembleFullHessian(m, c);
    const double h = 1e-6;
    for (int k = 0; k < x.size(); ++k) {
      if (m.prescribed[k / 3]) {
        QCOMPARE(g[k], 0.0);
        continue;
      }
      VecX xp = x, xm = x;
      xp[k] += h;
      xm[k] -= h;
      const double fd = (incrementalEnergy(m, z, xp) - incrementalEnergy(m, z, xm)) / (2 * h);
      QVERIFY2(std::abs(fd - g[k]) < 1e-5 * (1 + std::abs(g[k])), qPrintable(QString::number(fd - g[k])));
      ElementCache cp, cm;
      evalElements(m, xp, cp, false);
      evalElements(m, xm, cm, false);
      const VecX col = (assembleGradient(m, z, xp, cp) - assembleGradient(m, z, xm, cm)) / (2 * h);
      for (int j = 0; j < x.size(); ++j)
        if (!m.prescribed[j / 3]) QVERIFY(std::abs(col[j] - H.coeff(j, k)) < 1e-4 * (1 + std::abs(H.coeff(j, k))));
    }
  }

  void smallStrainIsLinearElasticity_data() {
    QTest::addColumn<double>("E");
    QTest::addColumn<double>("nu");
    for (double nu : {0.0, 0.3, 0.45, 0.49, -0.2}) QTest::newRow(qPrintable(QString("nu=%1").arg(nu))) << 2.5e6 << nu;
  }
  void smallStrainIsLinearElasticity() {
    QFETCH(double, E);
    QFETCH(double, nu);
    Material mat;
    mat.youngs = E;
    mat.poisson = nu;
    // Linear elasticity from E and ν, written out here: C_ijkl = λ δ_ij δ_kl + G (δ_ik δ_jl + δ_il δ_jk).
    const double G = E / (2 * (1 + nu)), lam = E * nu / ((1 + nu) * (1 - 2 * nu));
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, P[9], dP[81];
    hd::materialEval(hd::kStableNeoHookean, mat.mu(), mat.lambda(), I, P, dP, false);
    for (int k = 0; k < 9; ++k) QVERIFY(std::abs(P[k]) < 1e-12 * E);  // stress-free at rest
    const auto d = [](int a, int b) { return a == b ? 1.0 : 0.0; };
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k)
          for (int l = 0; l < 3; ++l) {
            const double C = lam * d(i, j) * d(k, l) + G * (d(i, k) * d(j, l) + d(i, l) * d(j, k));
            QVERIFY2(std::abs(dP[9 * (3 * i + j) + 3 * k + l] - C) < 1e-9 * E,
                     qPrintable(QString("C_%1%2%3%4: %5 vs %6").arg(i).arg(j).arg(k).arg(l).arg(dP[9 * (3 * i + j) + 3 * k + l]).arg(C)));
          }
    // Uniaxial stress: F = diag(1 + ε, b, b) with b such that P_22 = 0 (secant iterations on the
    // material's own stress); then (1 − b)/ε = ν and P_11/ε = E, to O(ε).
    const double eps = 1e-6;
    const auto lateral = [&](double b) {
      double F[9] = {1 + eps, 0, 0, 0, b, 0, 0, 0, b}, Pb[9];
      hd::materialEval(hd::kStableNeoHookean, mat.mu(), mat.lambda(), F, Pb, nullptr, false);
      return Pb[4];
    };
    double b0 = 1, b1 = 1 - 0.5 * eps, f0 = lateral(b0), f1 = lateral(b1);
    for (int it = 0; it < 50 && std::abs(f1) > 1e-14 * E && f1 != f0; ++it) {
      const double b2 = b1 - f1 * (b1 - b0) / (f1 - f0);
      b0 = b1, f0 = f1, b1 = b2, f1 = lateral(b1);
    }
    double F[9] = {1 + eps, 0, 0, 0, b1, 0, 0, 0, b1}, Pu[9];
    hd::materialEval(hd::kStableNeoHookean, mat.mu(), mat.lambda(), F, Pu, nullptr, false);
    const double nuMeasured = (1 - b1) / eps, EMeasured = Pu[0] / eps;
    qInfo("nu %g: measured nu %.6f, E %.6g (file %.6g)", nu, nuMeasured, EMeasured, E);
    QVERIFY2(std::abs(nuMeasured - nu) < 1e-4, qPrintable(QString::number(nuMeasured)));
    QVERIFY2(std::abs(EMeasured - E) < 1e-4 * E, qPrintable(QString::number(EMeasured)));
  }

  void boxMeshVolumeFacesAndColouring() {
    const TetMesh m = makeBoxMesh(Vec3(2, 1, 0.5), 4, 3, 2);
    QCOMPARE(m.vertexCount(), 5 * 4 * 3);
    QCOMPARE(m.tetCount(), 6 * 4 * 3 * 2);
    double vol = 0;
    for (int t = 0; t < m.tetCount(); ++t) {
      QVERIFY(tetVolume(m, t) > 0);
      vol += tetVolume(m, t);
    }
    QVERIFY(std::abs(vol - 1.0) < 1e-12);
    // Conforming: only the box's faces are boundary, two triangles per boundary square.
    QCOMPARE(int(boundaryFaces(m).size()), 4 * (4 * 3 + 3 * 2 + 4 * 2));
    // Outward: each face's normal points away from the box's centre along the axis of its side.
    const Vec3 centre(1, 0.5, 0.25);
    for (const auto& f : boundaryFaces(m)) {
      const Vec3 n = (m.vertices[f[1]] - m.vertices[f[0]]).cross(m.vertices[f[2]] - m.vertices[f[0]]);
      int axis;
      n.cwiseAbs().maxCoeff(&axis);
      QVERIFY(n[axis] * (m.vertices[f[0]][axis] - centre[axis]) > 0);
    }
    int ncol = 0;
    const auto col = colourVertices(m, &ncol);
    QVERIFY(ncol >= 4);
    for (const auto& t : m.tets)
      for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) QVERIFY(col[t[a]] != col[t[b]]);
  }

  void cylinderMeshVolume() {
    const double r = 0.1, L = 0.5;
    const TetMesh m = makeCylinderMesh(r, L, 8, 5);
    double vol = 0;
    for (int t = 0; t < m.tetCount(); ++t) {
      QVERIFY(tetVolume(m, t) > 0);
      vol += tetVolume(m, t);
    }
    // The boundary polygon has 32 sides on the circle: area ≥ (32/2π) sin(2π/32) πr² ≈ 0.9936 πr².
    const double exact = M_PI * r * r * L;
    QVERIFY2(vol < exact && vol > 0.98 * exact, qPrintable(QString::number(vol / exact)));
    for (const Vec3& p : m.vertices) QVERIFY(std::hypot(p.x(), p.y()) <= r * (1 + 1e-12));
  }

  void badMeshesAreRejected() {
    TetMesh m;
    m.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
    m.tets = {{0, 1, 2, 5}};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validateAndOrient(m));
    m.tets = {{0, 1, 2, 2}};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validateAndOrient(m));
    m.tets = {{0, 2, 1, 3}};  // negative orientation is repaired
    QCOMPARE(validateAndOrient(m), 1);
    QVERIFY(tetVolume(m, 0) > 0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeBoxMesh(Vec3(1, 1, 1), 0, 1, 1));
  }
};

QTEST_APPLESS_MAIN(TestDeformMaterial)
#include "test_deform_material.moc"
