// tests/core/test_deform_gpu.cpp — tests gpu/deform_kernels.cu + gpu/deform_gpu.cpp against the CPU
// twin (core/deform): one Jacobi sweep of per-vertex Newton and of JGS2 (cubature, modal split) from
// the same stressed, rotated state must give the same δx to kGpuParity (relative, max norm). Both
// run the same hd/ formulas in double precision; only the summation order of the modal reduction
// (block sums + atomics on the device) differs, so agreement is to round-off far below 1e-9.
// Skipped, with the reason, when no CUDA device is present.
#include <QtTest>
#include <random>

#include "core/deform/solver.h"
#include "gpu/deform_gpu.h"
#include "gpu/device_info.h"

using namespace mechsim;
using namespace mechsim::deform;

namespace {
/// Named tolerance of the CPU/GPU parity (relative to the largest |δx|).
constexpr double kGpuParity = 1e-9;
}  // namespace

class TestDeformGpu : public QObject {
  Q_OBJECT
 private slots:
  void jacobiSweepMatchesCpu_data() {
    QTest::addColumn<int>("method");
    QTest::newRow("jacobi") << int(Method::Jacobi);
    QTest::newRow("jgs2-jacobi") << int(Method::Jgs2Jacobi);
  }
  void jacobiSweepMatchesCpu() {
    if (gpu::deviceCount() == 0) QSKIP(qPrintable("no CUDA device: " + QString::fromStdString(gpu::deviceDescription())));
    QFETCH(int, method);
    TetMesh mesh = makeBoxMesh(Vec3(1, 0.2, 0.2), 8, 2, 2);
    std::vector<int> pinned;
    for (int v = 0; v < mesh.vertexCount(); ++v)
      if (mesh.vertices[v].x() < 1e-9) pinned.push_back(v);
    Material mat;
    mat.youngs = 2e6;
    const DeformableModel m = makeDeformableModel(mesh, mat, 0.01, Vec3(0, 0, -9.81), pinned);
    const Jgs2Data jgs2 = precomputeJgs2(m);
    // A stressed, twisted state: rotate the free end by 0.3 rad about x, plus noise.
    VecX x = restPositions(m), z = restPositions(m);
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(-0.005, 0.005);
    for (int v = 0; v < m.vertexCount(); ++v) {
      if (m.prescribed[v]) continue;
      const Vec3 p = m.mesh.vertices[v];
      x.segment<3>(3 * v) = Eigen::AngleAxisd(0.3 * p.x(), Vec3::UnitX()) * p + Vec3(u(rng), u(rng), u(rng));
      z.segment<3>(3 * v) = p + Vec3(0, 0, -9.81e-4);
    }
    // CPU: one Jacobi sweep = minimise() with one iteration.
    SolveOptions o;
    o.method = Method(method);
    o.maxIterations = 1;
    VecX xc = x;
    minimise(m, &jgs2, o, z, xc);
    const VecX dxCpu = xc - x;
    const VecX dxGpu = gpu::sweepOnce(m, &jgs2, Method(method), z, x);
    const double scale = dxCpu.lpNorm<Eigen::Infinity>();
    QVERIFY(scale > 0);
    const double err = (dxGpu - dxCpu).lpNorm<Eigen::Infinity>() / scale;
    qInfo("%s: max |dx| %.3e, relative CPU/GPU difference %.3e (%s)", toString(Method(method)), scale, err,
          gpu::deviceDescription().c_str());
    QVERIFY2(err < kGpuParity, qPrintable(QString::number(err)));
  }
};

QTEST_APPLESS_MAIN(TestDeformGpu)
#include "test_deform_gpu.moc"
