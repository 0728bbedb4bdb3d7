// tests/core/test_large_mechanisms.cpp — the generated chains and ladders of
// reference/scale/large_mechanisms.h (`mechsim-cli bench scale` measures their cost against size)
// solved at sizes where the LU null-space solver's reduced systems take the sparse route
// (core/linalg/full_rank_pinv.h), against closed forms: a ladder of parallelogram cells turns every
// rod by the driven angle and keeps every coupler horizontal; a driven serial chain puts its tip
// where the product of its joint rotations says.
#include <QtTest>

#include <cmath>

#include "core/data.h"
#include "core/io/load.h"
#include "core/kinematics/kinematics.h"
#include "reference/scale/large_mechanisms.h"

using namespace mechsim;

namespace {

Quat orientationOf(const Model& m, const Data& d, int body) {
  const int q = m.bodies[body].qIndex;
  return Quat(d.q[q + 3], d.q[q + 4], d.q[q + 5], d.q[q + 6]).normalized();
}
Vec3 positionOf(const Model& m, const Data& d, int body) { return d.q.segment<3>(m.bodies[body].qIndex); }

/// Solves from t = 0 to t in steps of h (continuation, as the runs do). False if one fails.
bool solveTo(const Model& m, Data& d, double t, double h) {
  for (double s = h; s < t + 0.5 * h; s += h)
    if (!solvePositions(m, d, std::min(s, t))) return false;
  return true;
}

}  // namespace

class TestLargeMechanisms : public QObject {
  Q_OBJECT
 private slots:
  void ladderMobilityAndParallelograms();
  void drivenChainAgainstForwardKinematics();
};

// 200 cells: 401 moving bodies, 601 revolutes, 3 redundant equations per cell; the rank-revealing
// LU keeps 600 rows in L2 and r ≈ 2 800 pivots, so the dense reduced systems would store 1.7
// million numbers: the sparse route. Every rod turns with the driven one (parallelograms), every
// coupler translates.
void TestLargeMechanisms::ladderMobilityAndParallelograms() {
  const int cells = 200;
  const Model m = io::compileSpec(reference::ladderMechanism(cells));
  Data d = makeData(m);
  const MobilityReport r = analyseMobility(m, d);
  QCOMPARE(r.dof, 1);
  QCOMPARE(r.dofDriven, 0);
  QCOMPARE(static_cast<int>(r.redundant.size()), 3 * cells);
  QVERIFY(!r.singular);
  const double kPi = 3.14159265358979323846;
  for (double t : {0.4, 1.2}) {
    QVERIFY(solveTo(m, d, t, 0.1));
    QVERIFY2(d.stats.residual < 1e-9, qPrintable(QString::number(d.stats.residual)));
    const double angle = kPi / 2 + 0.3 * std::sin(t);
    double worstAngle = 0, worstBar = 0;
    for (int i = 0; i <= cells; ++i) {
      const int rod = m.findBody("rod" + std::to_string(i));
      const Quat q = orientationOf(m, d, rod);
      worstAngle = std::max(worstAngle, std::abs(2 * std::atan2(q.z(), q.w()) - angle));
      QVERIFY(std::abs(q.x()) < 1e-9 && std::abs(q.y()) < 1e-9);  // stays in the plane
      if (i < cells) {
        const int bar = m.findBody("bar" + std::to_string(i));
        const Vec3 top = Vec3(i, 0, 0) + Vec3(std::cos(angle), std::sin(angle), 0);
        worstBar = std::max({worstBar, (positionOf(m, d, bar) - top).norm(),
                             orientationOf(m, d, bar).angularDistance(Quat::Identity())});
      }
    }
    qInfo("t = %.1f s: rods within %.1e rad of the driven angle, couplers within %.1e", t, worstAngle, worstBar);
    QVERIFY(worstAngle < 1e-9);
    QVERIFY(worstBar < 1e-9);
  }
}

// 300 links, every joint driven to 0.2 sin t about z or y alternately: the tip against
// T = Π_i Tx(L)·R(a_i, θ) (each link's frame starts where the one before ends).
void TestLargeMechanisms::drivenChainAgainstForwardKinematics() {
  const int links = 300;
  constexpr double L = 0.1;
  const Model m = io::compileSpec(reference::chainMechanism(links, true));
  Data d = makeData(m);
  const MobilityReport r = analyseMobility(m, d);
  QCOMPARE(r.dof, links);
  QCOMPARE(r.dofDriven, 0);
  QVERIFY(r.redundant.empty());
  const double t = 0.5;
  QVERIFY(solveTo(m, d, t, 0.01));
  QVERIFY(d.stats.residual < 1e-9);
  const double th = 0.2 * std::sin(t);
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  double worst = 0;
  for (int i = 0; i < links; ++i) {
    if (i > 0) T.translate(Vec3(L, 0, 0));
    T.rotate(Eigen::AngleAxisd(th, i % 2 ? Vec3::UnitY() : Vec3::UnitZ()));
    const int b = m.findBody("link" + std::to_string(i));
    worst = std::max(worst, (positionOf(m, d, b) - T.translation()).norm());
    worst = std::max(worst, orientationOf(m, d, b).angularDistance(Quat(T.rotation())));
  }
  const int last = m.findBody("link" + std::to_string(links - 1));
  const Vec3 tip = positionOf(m, d, last) + orientationOf(m, d, last) * Vec3(L, 0, 0);
  qInfo("%d links at t = %.1f s: poses within %.1e of the forward kinematics, tip at (%.3f, %.3f, %.3f)", links, t,
        worst, tip.x(), tip.y(), tip.z());
  QVERIFY(worst < 1e-8);
}

QTEST_GUILESS_MAIN(TestLargeMechanisms)
#include "test_large_mechanisms.moc"
