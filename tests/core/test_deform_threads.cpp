// tests/core/test_deform_threads.cpp — tests core/deform/parallel.{h,cpp} and the parallel loops of
// the deformable solvers: the thread count can be set; the deterministic sums give the same bits
// on any thread count and agree with a serial sum; the JGS2 precomputation and a solve by every
// method (with and without step control) give bit-identical results on one thread and on two —
// a loop that raced (two vertices of one Gauss–Seidel colour writing the same slot, a shared
// scratch array in the cubature training) or summed in a thread-dependent order would differ.
#include <QtTest>
#include <cstring>
#include <random>

#include "core/deform/parallel.h"
#include "core/deform/solver.h"
#include "deform_fixture.h"

using namespace mechsim;
using namespace mechsim::deform;

namespace {

/// A bent state of the 20× cantilever: three Newton steps from rest, so that the step the methods
/// then solve starts from a stressed, rotated pose.
struct Scene {
  DeformableModel m = testing::cantilever(20 * 1e5, 24, 6);
  VecX x, v;
  Scene() {
    x = restPositions(m);
    v = VecX::Zero(x.size());
    SolveOptions o;
    o.tolerance = 1e-8;
    for (int k = 0; k < 3; ++k) stepImplicitEuler(m, nullptr, o, x, v);
  }
};

bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}
bool sameBits(const VecX& a, const VecX& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(double)) == 0;
}

}  // namespace

class TestDeformThreads : public QObject {
  Q_OBJECT
 private slots:
  void cleanup() { setThreadCount(0); }

  void threadCountIsSettable() {
    setThreadCount(2);
    QCOMPARE(threadCount(), 2);  // 1 would mean the library was built without OpenMP
    setThreadCount(1);
    QCOMPARE(threadCount(), 1);
    setThreadCount(0);
    QVERIFY(threadCount() >= 1);
  }

  void sumsDoNotDependOnTheThreadCount() {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1, 1);
    const int n = 100000, len = 7;
    std::vector<double> a(n);
    for (double& x : a) x = u(rng) * std::pow(10.0, 6 * u(rng));  // magnitudes 1e-6 … 1e6
    std::vector<double> sums, vec1, vec4;
    for (int threads : {1, 2, 4}) {
      setThreadCount(threads);
      sums.push_back(detail::parallelSum(n, 2, [&](int k) { return a[k]; }));
      detail::parallelSumVector(n, len, 2, threads == 1 ? vec1 : vec4,
                                [&](int k, double* acc) { acc[k % len] += a[k]; });
    }
    QCOMPARE(std::memcmp(&sums[0], &sums[1], sizeof(double)), 0);
    QCOMPARE(std::memcmp(&sums[0], &sums[2], sizeof(double)), 0);
    QVERIFY(sameBits(vec1, vec4));
    // Against a serial sum in long double: the chunked sum is a reordering, not a different value.
    long double ref = 0, scale = 0;
    for (double x : a) {
      ref += x;
      scale += std::abs(x);
    }
    QVERIFY2(std::abs(sums[0] - double(ref)) < 1e-13 * double(scale), qPrintable(QString::number(sums[0] - double(ref))));
    long double refVec[len] = {};
    for (int k = 0; k < n; ++k) refVec[k % len] += a[k];
    for (int t = 0; t < len; ++t) QVERIFY(std::abs(vec1[t] - double(refVec[t])) < 1e-13 * double(scale));
  }

  void precomputationDoesNotDependOnTheThreadCount() {
    const Scene s;
    QVERIFY(s.m.tetCount() >= 5000);
    for (Jgs2Subspaces sub : {Jgs2Subspaces::Vertex, Jgs2Subspaces::Colour}) {
      Jgs2Options jo;
      jo.trainingModes = 16;
      jo.subspaces = sub;
      setThreadCount(1);
      const Jgs2Data one = precomputeJgs2(s.m, jo);
      setThreadCount(2);
      const Jgs2Data two = precomputeJgs2(s.m, jo);
      QVERIFY(one.offset == two.offset);
      QVERIFY(one.tet == two.tet);
      QVERIFY(sameBits(one.weight, two.weight));
      QVERIFY(sameBits(one.basis, two.basis));
      QVERIFY(sameBits(one.restSchur, two.restSchur));
      QCOMPARE(one.trainingResidual, two.trainingResidual);
      QVERIFY(one.offset.back() >= 4 * s.m.freeCount());  // every vertex got its cubature elements
    }
  }

  void solvesDoNotDependOnTheThreadCount() {
    const Scene s;
    Jgs2Options jo;
    jo.trainingModes = 16;
    const Jgs2Data jgs2 = precomputeJgs2(s.m, jo);
    jo.subspaces = Jgs2Subspaces::Colour;  // jgs2-gs's own (paper §6)
    const Jgs2Data jgs2Colour = precomputeJgs2(s.m, jo);
    for (Method meth : {Method::Newton, Method::Jacobi, Method::Vbd, Method::Jgs2Jacobi, Method::Jgs2GaussSeidel})
      for (Acceleration acc : {Acceleration::None, Acceleration::Subspace}) {
        if (meth == Method::Newton && acc != Acceleration::None) continue;
        SolveOptions o;
        o.method = meth;
        o.acceleration = acc;
        o.tolerance = 1e-6;
        o.maxIterations = 12;
        VecX x[2] = {s.x, s.x}, v[2] = {s.v, s.v};
        SolveStats st[2];
        for (int k = 0; k < 2; ++k) {
          setThreadCount(k + 1);
          st[k] = stepImplicitEuler(s.m, meth == Method::Jgs2GaussSeidel ? &jgs2Colour : &jgs2, o, x[k], v[k]);
        }
        const QString what = QString("%1 / %2").arg(toString(meth)).arg(toString(acc));
        QVERIFY2(st[0].iterations >= 2, qPrintable(what));  // it did sweep, more than once
        QVERIFY2((x[0] - s.x).norm() > 1e-6, qPrintable(what));
        QVERIFY2(st[0].iterations == st[1].iterations, qPrintable(what));
        QVERIFY2(sameBits(x[0], x[1]), qPrintable(what + QString(": max difference %1").arg((x[0] - x[1]).cwiseAbs().maxCoeff())));
        QVERIFY2(sameBits(v[0], v[1]), qPrintable(what));
        QCOMPARE(st[0].finalEnergy, st[1].finalEnergy);
      }
  }
};

QTEST_APPLESS_MAIN(TestDeformThreads)
#include "test_deform_threads.moc"
