// tests/ui/test_measures.cpp — the Measure menu as a user works it (ui/measures.h,
// ui/main_window_measure.cpp): on the four-bar, a coupler point traced by clicking it in the view
// (T, then a click), a distance and an angle; played for a crank turn; then each checked against
// references independent of ui/measures.cpp — the coupler curve closes after one turn and lies on
// the coupler's pose of every frame, the distance between the coupler's two joints is the coupler
// length 0.35 m (closed form), the angle at the ground pivot is the crank angle read from its
// pose, and the traced point's velocity and acceleration agree with central differences of its
// recorded positions; the plots list them, Export Traces writes them with a header row, the
// trajectory export carries their columns, and Clear removes them.
#include <QtTest>

#include <QAction>
#include <QTemporaryDir>

#include <cmath>

#include "ui/main_window.h"
#include "ui/plot_dock.h"
#include "ui/viewport.h"
#include "tests/ui/interaction_util.h"
#include "tests/ui/window_test_util.h"

using namespace mechsim;
using namespace mechsim::ui;
using namespace mechsim::test;

class TestMeasures : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { useFreshSettings("test_measures"); }
  void fourBarTraceDistanceAngle();
};

void TestMeasures::fourBarTraceDistanceAngle() {
  MainWindow w;
  w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
  QVERIFY(showAndOpen(w, mechanism("fourbar.json")));
  Viewport* v = w.viewport();
  const Model& m = *w.model();
  const int ground = m.findBody("ground"), crank = m.findBody("crank"), coupler = m.findBody("coupler"),
            rocker = m.findBody("rocker");
  QVERIFY(ground >= 0 && crank >= 0 && coupler >= 0 && rocker >= 0);

  // T, then a click on the coupler's ball (local (0.175, 0.12, 0.025), radius 15 mm): a trace.
  QTest::keyClick(v, Qt::Key_T);
  QVERIFY(w.toolActive());
  const Vec3 ball = w.currentFrame().poses[coupler].apply(Vec3(0.175, 0.12, 0.025));
  QTest::mouseClick(v, Qt::LeftButton, Qt::NoModifier, pixelOf(w, ball));
  QCOMPARE(int(w.measures().size()), 1);
  QVERIFY(!w.toolActive());
  const Measure trace = w.measures()[0];
  QCOMPARE(trace.kind, Measure::Trace);
  QCOMPARE(trace.name, std::string("P1"));
  QCOMPARE(trace.points[0].body, coupler);
  QVERIFY2(trace.points[0].local.z() > 0.025 && (trace.points[0].local - Vec3(0.175, 0.12, 0.025)).norm() < 0.016,
           "the point clicked is on the ball's surface");

  // The distance between the coupler's joints B (crank tip) and C (rocker tip), and the angle at
  // the ground pivot A between the ground link and the crank.
  QCOMPARE(w.addMeasure(Measure::Distance, {{crank, Vec3(0.1, 0, 0)}, {rocker, Vec3(0.3, 0, 0)}}), QString("d1"));
  QCOMPARE(w.addMeasure(Measure::Angle, {{ground, Vec3(0.4, 0, 0)}, {ground, Vec3::Zero()}, {crank, Vec3(0.1, 0, 0)}}),
           QString("angle1"));
  QVERIFY(w.addMeasure(Measure::Angle, {{ground, Vec3::Zero()}}).isEmpty());  // too few points: refused

  // The plots offer them in their own group.
  int px = -1;
  for (int q = 0; q < int(w.plotPanel()->quantities().size()); ++q)
    if (w.plotPanel()->quantities()[q].name == "P1.x (m)") px = q;
  QVERIFY(px >= 0);
  QCOMPARE(w.plotPanel()->quantities()[px].group, QString("Measures"));
  w.plotPanel()->setPlotted(px, true);

  // Play one crank turn (360°/s: 1 s) and a little more, then pause.
  const double t0 = w.currentFrame().t;
  QTest::keyClick(v, Qt::Key_Space);
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > t0 + 1.1, 30000);
  QTest::keyClick(v, Qt::Key_Space);
  waitIdle(w);
  const History& h = w.history();
  QVERIFY(h.size() > 40);
  w.plotPanel()->refresh();
  QVERIFY(w.plotPanel()->pointCount(0) > 40);

  // The trace: one point per recorded frame, on the coupler's pose of that frame; the coupler
  // curve closes after a turn (the frame nearest t0 + 1 s is back where the first was, up to the
  // ball's travel in half a frame).
  const auto& paths = w.tracePaths();
  QCOMPARE(int(paths.size()), 1);
  QCOMPARE(int(paths[0].size()), h.size());
  double worstPose = 0;
  int turn = 0;
  for (int i = 0; i < h.size(); ++i) {
    worstPose = std::max(worstPose, (paths[0][i] - h.at(i).poses[coupler].apply(trace.points[0].local)).norm());
    if (std::abs(h.at(i).t - (h.at(0).t + 1.0)) < std::abs(h.at(turn).t - (h.at(0).t + 1.0))) turn = i;
  }
  QVERIFY2(worstPose < 1e-12, qPrintable(QString::number(worstPose)));
  const double dtTurn = std::abs(h.at(turn).t - h.at(0).t - 1.0);
  QVERIFY2((paths[0][turn] - paths[0][0]).norm() < 1e-6 + 2.0 * dtTurn, qPrintable(QString::number((paths[0][turn] - paths[0][0]).norm())));
  double extent = 0;
  for (const Vec3& p : paths[0]) extent = std::max(extent, (p - paths[0][0]).norm());
  QVERIFY(extent > 0.1);  // it did go round

  // Distance: the coupler length, closed form; angle: the crank's angle from its pose, in [0, π].
  double worstD = 0, worstA = 0, worstV = 0, worstAcc = 0;
  int checkedRates = 0;
  for (int i = 0; i < h.size(); ++i) {
    const Frame& f = h.at(i);
    const std::vector<double> d = measureValues(m, f, w.measures()[1]), a = measureValues(m, f, w.measures()[2]);
    worstD = std::max(worstD, std::abs(d[0] - 0.35));
    const Mat3 R = f.poses[crank].orientation.toRotationMatrix();
    worstA = std::max(worstA, std::abs(a[0] - std::abs(std::remainder(std::atan2(R(1, 0), R(0, 0)), 2 * M_PI))));
    // Rates against central differences of the recorded positions, where the frames are evenly spaced.
    if (i == 0 || i + 1 >= h.size()) continue;
    const double dtm = f.t - h.at(i - 1).t, dtp = h.at(i + 1).t - f.t;
    if (!(dtm > 0) || std::abs(dtm - dtp) > 1e-9 * dtm) continue;
    const std::vector<double> x = measureValues(m, f, trace);
    const Vec3 vel(x[3], x[4], x[5]), acc(x[6], x[7], x[8]);
    const Vec3 vfd = (paths[0][i + 1] - paths[0][i - 1]) / (2 * dtm);
    const Vec3 afd = (paths[0][i + 1] - 2 * paths[0][i] + paths[0][i - 1]) / (dtm * dtm);
    worstV = std::max(worstV, (vel - vfd).norm() / vel.norm());
    worstAcc = std::max(worstAcc, (acc - afd).norm() / acc.norm());
    ++checkedRates;
  }
  qInfo("measures: %d frames; |d1 − 0.35| ≤ %.2g m, angle error ≤ %.2g rad, velocity %.3g, acceleration %.3g of "
        "|v|, |a| against central differences (%d frames)",
        h.size(), worstD, worstA, worstV, worstAcc, checkedRates);
  QVERIFY2(worstD < 1e-8, qPrintable(QString::number(worstD)));
  QVERIFY2(worstA < 1e-8, qPrintable(QString::number(worstA)));
  QVERIFY(checkedRates > 30);
  QVERIFY2(worstV < 0.01, qPrintable(QString::number(worstV)));    // (ω dt)²/6 ≈ 0.2 % at 60 frames a turn
  QVERIFY2(worstAcc < 0.03, qPrintable(QString::number(worstAcc)));

  // Export Traces: a header row, then a row per recorded frame, every field a finite number.
  QTemporaryDir dir;
  const QString csv = dir.filePath("traces.csv");
  QVERIFY2(w.exportMeasures(csv), qPrintable(w.lastError()));
  const QStringList lines = readLines(csv);
  QCOMPARE(lines.size(), h.size() + 1);
  QCOMPARE(lines[0], QString("t,P1.x,P1.y,P1.z,P1.vx,P1.vy,P1.vz,P1.ax,P1.ay,P1.az,d1,angle1"));
  for (int i = 1; i < lines.size(); ++i) {
    const QStringList fields = lines[i].split(',');
    QCOMPARE(fields.size(), 12);
    for (const QString& s : fields) {
      bool ok = false;
      QVERIFY(std::isfinite(s.toDouble(&ok)) && ok);
    }
  }
  QVERIFY(!w.exportMeasures(dir.filePath("no/such/folder/traces.csv")));  // a clear error, nothing written
  QVERIFY(w.lastError().contains("traces.csv"));

  // The trajectory export of the recorded history carries the measures' columns too.
  ExportRequest req;
  req.path = dir.filePath("trajectory.csv");
  QVERIFY2(w.exportTrajectory(req), qPrintable(w.lastError()));
  const QStringList traj = readLines(req.path);
  QVERIFY(traj.size() > 1);
  QVERIFY2(traj[0].endsWith(",P1.az,d1,angle1"), qPrintable(traj[0].right(80)));

  // A screenshot of the view with the coupler curve and the two measures drawn.
  v->grabFramebuffer().save(dir.filePath("measures.png"));
  if (qEnvironmentVariableIsSet("MECHSIM_TEST_SCREENSHOTS"))
    v->grabFramebuffer().save(qEnvironmentVariable("MECHSIM_TEST_SCREENSHOTS") + "/measures-fourbar.png");

  // Clear Measures: gone from the view, the plots and the exports.
  findAction(&w, "Clear Measures")->trigger();
  QVERIFY(w.measures().empty());
  QVERIFY(w.tracePaths().empty());
  for (const PlotQuantity& q : w.plotPanel()->quantities()) QVERIFY(q.group != "Measures");
  QVERIFY(!w.exportMeasures(csv));
}

QTEST_MAIN(TestMeasures)
#include "test_measures.moc"
