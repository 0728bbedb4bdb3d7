// tests/core/test_mobility.cpp — tests core/kinematics/mobility.cpp: DOF from the rank of Φ_q,
// redundant equations by name, Grübler counts, the singular flag, and the LU null-space rank
// against a dense complete orthogonal decomposition. On the example files of mechanisms/: the
// README's Grübler / DOF / redundant / driven counts and `singular: no` at every file's
// configuration (mm-scale Andrews squeezer, the parallelogram at 90° included), and `singular`
// exactly at the singular positions of slider-crank-singular (t = 0.5 s), fourbar-changepoint
// (0.5 s, 1.5 s) and nfourbar-40 (1 s) when driven there; the flag is unchanged by the units.
#include <QtTest>

#include <Eigen/QR>

#include "core/kinematics/kinematics.h"
#include "files.h"
#include "mechanisms.h"

using namespace mechsim;
using namespace mechsim::test;

namespace {

/// Dense reference rank of the rows of Φ_q without drivers (COD with a relative threshold).
int denseRank(const Model& m, Data& d) {
  constraintJacobian(m, d);
  const MatX J = MatX(d.Jq).topRows(m.nEquations - static_cast<int>(m.drivers.size()));
  Eigen::CompleteOrthogonalDecomposition<MatX> cod(J);
  cod.setThreshold(1e-9);
  return static_cast<int>(cod.rank());
}

/// Denavit–Hartenberg step Rz(θ) Tx(a) Rx(α).
Eigen::Isometry3d dh(double th, double a, double al) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.rotate(Eigen::AngleAxisd(th, Vec3::UnitZ()));
  T.translate(Vec3(a, 0, 0));
  T.rotate(Eigen::AngleAxisd(al, Vec3::UnitX()));
  return T;
}

}  // namespace

class TestMobility : public QObject {
  Q_OBJECT
 private slots:
  // A planar four-bar modelled in 3-D with revolute joints: 3 redundant equations, DOF 1.
  void fourBarRedundancy() {
    FourBar fb = fourBar(false);
    const Model m = compile(fb.spec);
    Data d = makeData(m);
    const MobilityReport r = analyseMobility(m, d);
    QCOMPARE(r.coordinates, 21);
    QCOMPARE(r.equations, 23);
    QCOMPARE(r.grubler, -2);
    QCOMPARE(r.rank, 20);
    QCOMPARE(r.dof, 1);
    QCOMPARE(r.dofDriven, 1);
    QCOMPARE(static_cast<int>(r.redundant.size()), 3);
    QCOMPARE(r.rank, denseRank(m, d));
    QVERIFY(r.residual < 1e-12);
    QVERIFY(!r.singular);
    // The redundant rows are out-of-plane equations of the revolute joints (z or perp rows).
    for (const auto& name : r.redundant)
      QVERIFY2(name.find(":z") != std::string::npos || name.find(":perp") != std::string::npos, name.c_str());
  }

  void fourBarDriven() {
    FourBar fb = fourBar(true);
    const Model m = compile(fb.spec);
    Data d = makeData(m);
    const MobilityReport r = analyseMobility(m, d);
    QCOMPARE(r.dof, 1);
    QCOMPARE(r.dofDriven, 0);
    QCOMPARE(static_cast<int>(r.redundant.size()), 3);
    QVERIFY(!r.singular);
  }

  void sliderCrank() {
    SliderCrank sc = mechsim::test::sliderCrank(0.3, 1.0, 0.5, true);
    const Model m = compile(sc.spec);
    Data d = makeData(m);
    const MobilityReport r = analyseMobility(m, d);
    QCOMPARE(r.dof, 1);
    QCOMPARE(r.dofDriven, 0);
    QCOMPARE(static_cast<int>(r.redundant.size()), r.equations - r.rank);
    QCOMPARE(r.rank, denseRank(m, d));
    QVERIFY(!r.singular);
  }

  // One body on one joint to ground: DOF = the joint's freedoms; Grübler agrees.
  void singleJointDof() {
    const JointType types[] = {JointType::Revolute, JointType::Prismatic, JointType::Cylindrical, JointType::Spherical,
                               JointType::Universal, JointType::Planar,    JointType::Fixed,       JointType::Distance};
    const int expect[] = {1, 1, 2, 3, 2, 3, 0, 5};
    for (int k = 0; k < 8; ++k) {
      MechanismSpec s;
      s.bodies = {body("ground", Vec3::Zero(), true), body("b", Vec3(0.3, 0.2, 0.1))};
      JointSpec j = joint("J", types[k], "ground", "b", Vec3(0.5, 0.4, -0.2), Vec3(1, 2, 2).normalized());
      j.axis1 = j.axis;
      j.axis2 = j.axis.unitOrthogonal();
      j.point1 = Vec3(1, 1, 1);
      j.point2 = Vec3(0.3, 0.2, 0.1);
      s.joints = {j};
      const Model m = compile(s);
      Data d = makeData(m);
      const MobilityReport r = analyseMobility(m, d);
      QVERIFY2(r.dof == expect[k], toString(types[k]));
      QCOMPARE(r.grubler, expect[k]);
      QVERIFY(r.redundant.empty());
      QCOMPARE(r.rank, denseRank(m, d));
      QVERIFY(!r.singular);
    }
  }

  // Paper 003 Fig. 2.1 at x = 0, y = L: singular (bifurcation), dofDriven 1; regular elsewhere.
  void sliderCrankSingularPosition() {
    {
      SliderCrank sc = mechsim::test::sliderCrank(1.0, 1.0, M_PI / 2, true);
      const Model m = compile(sc.spec);
      Data d = makeData(m);
      const MobilityReport r = analyseMobility(m, d);
      QVERIFY(r.residual < 1e-12);
      QVERIFY(r.singular);
      QCOMPARE(r.dofDriven, 1);
      QCOMPARE(r.rank, denseRank(m, d));
    }
    {
      SliderCrank sc = mechsim::test::sliderCrank(1.0, 1.0, M_PI / 4, true);
      const Model m = compile(sc.spec);
      Data d = makeData(m);
      const MobilityReport r = analyseMobility(m, d);
      QVERIFY(!r.singular);
      QCOMPARE(r.dofDriven, 0);
    }
  }

  // The Bennett linkage: a spatial 4R loop (twists α, β, lengths a/sin α = b/sin β) that moves
  // although Grübler counts −2; its joint angles obey tan(θ1/2) tan(θ2/2) = sin((β+α)/2)/sin((β−α)/2).
  void bennettLinkage() {
    const double al = 0.5, be = 1.1, a = 1.0, b = a * std::sin(be) / std::sin(al);
    const double K = std::sin((be + al) / 2) / std::sin((be - al) / 2);
    const double th1 = 0.7, th2 = 2 * std::atan(K / std::tan(th1 / 2));
    const Eigen::Isometry3d F1 = dh(th1, a, al), F2 = F1 * dh(th2, b, be), F3 = F2 * dh(2 * M_PI - th1, a, al);
    MechanismSpec s;
    auto placed = [](const std::string& n, const Eigen::Isometry3d& F) {
      return body(n, F.translation(), false, Quat(F.rotation()));
    };
    s.bodies = {body("ground", Vec3::Zero(), true), placed("l1", F1), placed("l2", F2), placed("l3", F3)};
    s.joints = {joint("J1", JointType::Revolute, "ground", "l1", Vec3::Zero(), Vec3::UnitZ()),
                joint("J2", JointType::Revolute, "l1", "l2", F1.translation(), F1.rotation().col(2)),
                joint("J3", JointType::Revolute, "l2", "l3", F2.translation(), F2.rotation().col(2)),
                joint("J4", JointType::Revolute, "l3", "ground", F3.translation(), F3.rotation().col(2))};
    s.drivers = {driver("drive", "J1")};
    const Model m = compile(s, {[](double t) { return t; }});
    Data d = makeData(m);
    const MobilityReport r = analyseMobility(m, d);
    QVERIFY(r.residual < 1e-12);
    QCOMPARE(r.grubler, -2);
    QCOMPARE(r.dof, 1);
    QCOMPARE(static_cast<int>(r.redundant.size()), 3);
    QCOMPARE(r.rank, denseRank(m, d));
    QCOMPARE(r.dofDriven, 0);
    QVERIFY(!r.singular);
    // Driven, it follows the closed-form relation between θ1 and θ2.
    for (double t = 0.05; t < 1.0; t += 0.05) {
      QVERIFY2(solvePositions(m, d, t), d.stats.message.c_str());
      updateJointCoordinates(m, d);
      const double t1 = th1 + d.coords(0), t2 = th2 + d.coords(1);
      QVERIFY(std::abs(std::tan(t1 / 2) * std::tan(t2 / 2) - K) < 1e-9);
    }
  }

  // Every example file at its own configuration: the counts of mechanisms/README.md, not singular.
  void exampleFilesAtTheirConfiguration_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("grubler");
    QTest::addColumn<int>("dof");
    QTest::addColumn<int>("redundant");
    QTest::addColumn<int>("driven");
    auto row = [](const char* f, int g, int dof, int red, int drv) { QTest::newRow(f) << QString(f) << g << dof << red << drv; };
    row("fourbar.json", -2, 1, 3, 0);
    row("fourbar-changepoint.json", -2, 1, 3, 0);
    row("slider-crank-singular.json", -2, 1, 3, 0);
    row("slider-crank.json", -2, 1, 3, 0);
    row("stewart.json", 6, 6, 0, 0);
    row("bricard.json", 0, 1, 1, 0);
    row("andrews-squeezer.json", -8, 1, 9, 0);
    row("nfourbar-40.json", -119, 1, 120, 0);
    row("car-suspension.json", 3, 3, 0, 0);
    row("car-full.json", 9, 10, 1, 0);
    row("humanoid.json", 44, 45, 1, 0);
    row("antenna.json", -21, 7, 28, 0);
    row("antenna-satellite.json", -15, 21, 36, 0);
    row("fourbar-meshes.json", -2, 1, 3, 0);
  }
  void exampleFilesAtTheirConfiguration() {
    QFETCH(QString, file);
    QFETCH(int, grubler);
    QFETCH(int, dof);
    QFETCH(int, redundant);
    QFETCH(int, driven);
    const Model m = loadExample(file.toStdString());
    Data d = makeData(m);
    const MobilityReport r = analyseMobility(m, d);
    QCOMPARE(r.grubler, grubler);
    QCOMPARE(r.dof, dof);
    QCOMPARE(static_cast<int>(r.redundant.size()), redundant);
    QCOMPARE(r.dofDriven, driven);
    QVERIFY2(!r.singular, "a regular configuration reported singular");
    // The position analysis at t = 0 agrees.
    QVERIFY2(solvePositions(m, d, 0.0), d.stats.message.c_str());
    QVERIFY(!d.stats.singular);
  }

  // Driven through their singular positions (as mechsim-cli kinematics, dt = 0.01; nfourbar-40
  // 0.02 to keep it short): `singular` exactly there — from solvePositions and from analyseMobility.
  void exampleFilesSingularPositions_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("dt");
    QTest::addColumn<QList<double>>("times");
    QTest::newRow("slider-crank-singular") << QString("slider-crank-singular.json") << 0.01 << QList<double>{0.5};
    QTest::newRow("fourbar-changepoint") << QString("fourbar-changepoint.json") << 0.01 << QList<double>{0.5, 1.5};
    QTest::newRow("nfourbar-40") << QString("nfourbar-40.json") << 0.02 << QList<double>{1.0};
    QTest::newRow("fourbar") << QString("fourbar.json") << 0.01 << QList<double>{};
    QTest::newRow("andrews-squeezer") << QString("andrews-squeezer.json") << 0.01 << QList<double>{};
  }
  void exampleFilesSingularPositions() {
    QFETCH(QString, file);
    QFETCH(double, dt);
    QFETCH(QList<double>, times);
    const Model m = loadExample(file.toStdString());
    int found = 0;
    runLikeCli(m, 2.0, dt, [&](long k, double t, Data& d) {
      bool expected = false;
      for (double ts : times) expected = expected || std::abs(t - ts) < 1e-9;
      QVERIFY2(d.stats.singular == expected, qPrintable(QString("t = %1: singular %2").arg(t).arg(d.stats.singular)));
      if (expected || k % 25 == 0) {
        const MobilityReport r = analyseMobility(m, d);
        QVERIFY2(r.singular == expected, qPrintable(QString("analyseMobility at t = %1").arg(t)));
        // Strict rank (tol::kRankRelative): mobility 1 at regular positions; at the singular ones
        // it rises (2 at a change point, 41 for the N-four-bar horizontal) when Newton lands on the
        // singular point to within the strict threshold.
        if (expected)
          QVERIFY(r.dof >= 1);
        else
          QCOMPARE(r.dof, 1);
      }
      found += expected;
    });
    QCOMPARE(found, static_cast<int>(times.size()));
  }

  // The singular test does not depend on the units: a slider-crank (crank = rod) scaled from
  // 1 mm to 1 km is singular at x = 0, y = L and regular at 45°, with the same ranks.
  void singularFlagIsScaleInvariant() {
    for (double L : {1e-3, 1e-2, 1.0, 1e3}) {
      for (double th : {M_PI / 2, M_PI / 4, 0.3}) {
        SliderCrank sc = mechsim::test::sliderCrank(L, L, th, true);
        const Model m = compile(sc.spec);
        Data d = makeData(m);
        const MobilityReport r = analyseMobility(m, d);
        QVERIFY2(r.singular == (th == M_PI / 2), qPrintable(QString("L = %1, θ = %2").arg(L).arg(th)));
        QCOMPARE(r.dof, th == M_PI / 2 ? 2 : 1);  // mobility 2 at the bifurcation point itself
        QCOMPARE(r.dofDriven, th == M_PI / 2 ? 1 : 0);
      }
      FourBar fb = fourBar(true);
      MechanismSpec s = fb.spec;  // the crank-rocker, scaled by L
      for (auto& b : s.bodies) b.position *= L;
      for (auto& j : s.joints) j.point *= L;
      const Model m = compile(s, {[](double t) { return t; }});
      Data d = makeData(m);
      QVERIFY2(!analyseMobility(m, d).singular, qPrintable(QString("four-bar scaled by %1").arg(L)));
    }
  }

  // A driven distance joint is an actuator: it adds no joint equation, and its driver removes
  // the freedom it leaves.
  void drivenDistance() {
    MechanismSpec s;
    s.bodies = {body("ground", Vec3::Zero(), true), body("b", Vec3(1, 0, 0))};
    JointSpec rev = joint("R", JointType::Revolute, "ground", "b", Vec3::Zero());
    JointSpec dist = joint("L", JointType::Distance, "ground", "b", Vec3::Zero());
    dist.point1 = Vec3(0, 1, 0);
    dist.point2 = Vec3(1, 0, 0);
    s.joints = {rev, dist};
    s.drivers = {driver("act", "L")};
    const Model m = compile(s, {[](double t) { return 0.1 * t; }});
    Data d = makeData(m);
    const MobilityReport r = analyseMobility(m, d);
    QCOMPARE(r.grubler, 1);
    QCOMPARE(r.dof, 1);
    QCOMPARE(r.dofDriven, 0);
    // Drive it: the extension follows.
    QVERIFY(solvePositions(m, d, 1.0));
    updateJointCoordinates(m, d);
    QVERIFY(std::abs(d.coords(m.joints[1].firstCoord) - 0.1) < 1e-9);
  }
};

QTEST_APPLESS_MAIN(TestMobility)
#include "test_mobility.moc"
