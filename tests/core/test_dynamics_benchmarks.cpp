// tests/core/test_dynamics_benchmarks.cpp — the dynamics benchmark problems of mechanisms/dynamics/
// checked against their references (shortened where the full run belongs to `bench dynamics`):
//  * A03 Andrews' squeezing mechanism at t = 0.03 s against the published reference solution of the
//    IVP test set (F. Mazzia, C. Magherini, F. Iavernaro, Test Set for IVP Solvers, release 2.4,
//    University of Bari, problem "andrews", subroutine SOLN; values in bench/dynamics_reference.h);
//  * A02 N-four-bar (N = 40) over 1 s — through the first singular (all-horizontal) position at
//    t ≈ 0.72 s — against the 1-DOF reference (RK4), within the benchmark's 1e-3 m precision on B0
//    (IFToMM benchmark specification A02, lim.ii.udc.es/mbsbenchmark: bars 1 m, 1 kg, x-velocity of
//    B0 1 m/s, errors 1e-1 / 1e-3 for low / high precision);
//  * A01 pendulum over 2 s against the 1-DOF reference;
//  * A04 Bricard and A05 governor: energy conservation (no reference solution exists).
#include <QtTest>

#include <cmath>

#include "bench/dynamics_reference.h"
#include "core/data.h"
#include "core/dynamics/dynamics.h"
#include "core/io/load.h"
#include "core/kinematics/kinematics.h"

using namespace mechsim;

namespace {
std::string file(const char* name) { return std::string(MECHSIM_SOURCE_DIR) + "/mechanisms/dynamics/" + name; }
}  // namespace

class TestDynamicsBenchmarks : public QObject {
  Q_OBJECT
 private slots:
  void a03AndrewsAgainstTestSet();
  void a02NFourBarThroughSingularity();
  void a01Pendulum();
  void a04a05EnergyConserved_data();
  void a04a05EnergyConserved();
};

void TestDynamicsBenchmarks::a03AndrewsAgainstTestSet() {
  const Model m = io::loadModel(file("a03-andrews-squeezer.json"));
  Data d = makeData(m);
  DynamicsStepper sim(m);
  QVERIFY(sim.initialize(d));
  const double h = m.dynamics.timestep;
  QCOMPARE(h, 1e-6);
  const long n = std::lround(0.03 / h);
  for (long k = 0; k < n; ++k) QVERIFY2(sim.step(d, h), sim.stats().message.c_str());
  QVERIFY(std::abs(d.t - 0.03) < 1e-12);
  double err = 0;
  for (int k = 0; k < 7; ++k) {
    const int j = m.findJoint(bench::kAndrewsJoints[k]);
    QVERIFY(j >= 0);
    const double y = bench::kAndrewsInitial[k] + d.coords(m.joints[j].firstCoord);  // unwrapped angles
    err = std::max(err, std::abs(y - bench::kAndrewsReference003[k]));
  }
  // β turns ~2.5 revolutions (15.8 rad) in 0.03 s; the angles agree to better than 1e-3 rad.
  QVERIFY2(err < 1e-3, qPrintable(QString("max angle error %1 rad").arg(err)));
}

void TestDynamicsBenchmarks::a02NFourBarThroughSingularity() {
  const Model m = io::loadModel(file("a02-nfourbar-40.json"));
  Data d = makeData(m);
  DynamicsStepper sim(m);
  QVERIFY(sim.initialize(d));
  // The initial velocity of B0 (top of rod0) is 1 m/s along +x.
  const int rod0 = m.findBody("rod0");
  std::vector<dyn::BodyInertia> bi;
  dyn::bodyInertias(m, d.q, bi);
  const Vec3 w = sim.twist().segment<3>(6 * (m.bodies[rod0].qIndex / 7) + 3);
  QVERIFY(std::abs(w.z() + 1.0) < 1e-9);
  const double h = m.dynamics.timestep;
  const int N = 40;
  double err = 0, phi = M_PI / 2, om = -1.0, t = 0;
  for (long k = 1; k <= std::lround(1.0 / h); ++k) {
    QVERIFY2(sim.step(d, h), sim.stats().message.c_str());
    if (k % 20 == 0) {
      double p2, w2;
      bench::oneDofReference(bench::nFourBarInertia(N), bench::nFourBarGK(N), phi, om, d.t - t, 2000, p2, w2);
      phi = p2, om = w2, t = d.t;
      const Vec3 B0 = bodyPose(m, d.q, rod0).apply(Vec3(1, 0, 0));
      err = std::max(err, (B0 - Vec3(std::cos(phi), std::sin(phi), 0)).norm());
    }
  }
  QVERIFY2(phi < 0, "the reference must have passed the horizontal position");
  QVERIFY2(err < 1e-3, qPrintable(QString("B0 error %1 m").arg(err)));
}

void TestDynamicsBenchmarks::a01Pendulum() {
  const Model m = io::loadModel(file("a01-pendulum.json"));
  Data d = makeData(m);
  DynamicsStepper sim(m);
  QVERIFY(sim.initialize(d));
  double err = 0, phi = 0, om = 0, t = 0;
  for (int k = 1; k <= 2000; ++k) {
    QVERIFY(sim.step(d, 1e-3));
    if (k % 10 == 0) {
      double p2, w2;
      bench::oneDofReference(1.0 + 1e-6, 9.81, phi, om, d.t - t, 500, p2, w2);
      phi = p2, om = w2, t = d.t;
      err = std::max(err, (bodyPose(m, d.q, m.findBody("bob")).position - Vec3(std::cos(phi), std::sin(phi), 0)).norm());
    }
  }
  QVERIFY2(err < 1e-4, qPrintable(QString::number(err)));
}

void TestDynamicsBenchmarks::a04a05EnergyConserved_data() {
  QTest::addColumn<QString>("name");
  QTest::addColumn<double>("seconds");
  QTest::addColumn<double>("relTol");
  QTest::newRow("A04 Bricard") << "a04-bricard.json" << 2.0 << 1e-4;
  QTest::newRow("A05 governor") << "a05-governor.json" << 1.0 << 1e-4;
}

void TestDynamicsBenchmarks::a04a05EnergyConserved() {
  QFETCH(QString, name);
  QFETCH(double, seconds);
  QFETCH(double, relTol);
  const Model m = io::loadModel(file(name.toStdString().c_str()));
  Data d = makeData(m);
  DynamicsStepper sim(m);
  QVERIFY(sim.initialize(d));
  const EnergyReport e0 = sim.energy(d);
  const double scale = std::max(std::abs(e0.kinetic), 1.0);
  double drift = 0, kinMax = 0;
  for (long k = 1; k <= std::lround(seconds / m.dynamics.timestep); ++k) {
    QVERIFY2(sim.step(d, m.dynamics.timestep), sim.stats().message.c_str());
    drift = std::max(drift, std::abs(sim.energy(d).total() - e0.total()));
    kinMax = std::max(kinMax, sim.energy(d).kinetic);
  }
  QVERIFY(kinMax > 0.01);  // it moves
  QVERIFY2(drift < relTol * std::max(scale, kinMax), qPrintable(QString("drift %1 J of %2 J").arg(drift).arg(kinMax)));
  QVERIFY(sim.stats().maxResidual < 1e-9);
}

QTEST_APPLESS_MAIN(TestDynamicsBenchmarks)
#include "test_dynamics_benchmarks.moc"
