// tests/ui/test_dynamic_mode.cpp — the dynamic mode of the main window used as a person would:
// the key D switches it on, Step / Play advance the forward dynamics, a mouse drag on the
// viewport pulls a body with a spring, File → Export writes energy and reaction columns.
// References: the closed-form start of a pendulum released from the horizontal (free fall of the
// bob, θ ≈ −(m g L / J) t²/2), the rod tension of a pendulum released from rest at the horizontal
// (T = 3 m g sin φ, φ the angle below the horizontal, from energy conservation), conservation of
// the mechanical energy, and the energy balance of the drag: E(release) = E(grab) + W(spring).
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QStatusBar>
#include <QTemporaryDir>

#include <cmath>

#include "ui/drag_handler.h"
#include "ui/export_dialog.h"
#include "ui/main_window.h"
#include "scene/picking.h"
#include "ui/plot_dock.h"
#include "ui/viewport.h"
#include "tests/ui/interaction_util.h"
#include "tests/ui/window_test_util.h"

using namespace mechsim;
using namespace mechsim::ui;
using namespace mechsim::test;

namespace {
double totalEnergy(const Frame& f) { return f.kinetic + f.potential; }

// A01 pendulum: 1 kg bob at L = 1 m, inertia 1e-6 kg m² about its centre, gravity 9.81 along −y.
constexpr double kG = 9.81, kL = 1.0, kMass = 1.0, kJ = 1.0 + 1e-6;
}  // namespace

class TestDynamicMode : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void pendulumInDynamicMode();
  void fileWithoutDynamicsSectionUsesTheDefaults();
  void poseBeyondALimitIsMovedAndSaid();
  void failedStepIsReportedAndTheLastGoodStateKept();
};

void TestDynamicMode::initTestCase() {
  QCoreApplication::setOrganizationName("mechsim-test");
  QCoreApplication::setApplicationName("test_dynamic_mode");
  QSettings().clear();
}

void TestDynamicMode::pendulumInDynamicMode() {
  MainWindow w;
  w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
  QVERIFY(showAndOpen(w, mechanism("dynamics/a01-pendulum.json")));
  Viewport* v = w.viewport();
  QTRY_VERIFY_WITH_TIMEOUT(v->paintCount() > 0, 10000);
  const int bob = w.model()->findBody("bob");
  QVERIFY(bob >= 0);
  QVERIFY(!w.currentFrame().dynamic);

  // D: dynamic mode on (menu action and toolbar toggle checked, status bar says so).
  auto* action = w.findChild<QAction*>("dynamicModeAction");
  QVERIFY(action);
  QTest::keyClick(v, Qt::Key_D);
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().dynamic, 10000);
  waitIdle(w);
  QVERIFY(action->isChecked());
  QVERIFY2(w.statusBar()->currentMessage().startsWith("Dynamic mode"), qPrintable(w.statusBar()->currentMessage()));
  const Frame f0 = w.currentFrame();
  QVERIFY(std::abs(f0.poses[bob].position.y()) < 1e-9);  // released at the horizontal, at rest
  QVERIFY(f0.kinetic < 1e-12);
  const double e0 = totalEnergy(f0);

  // Step (.) twice: the bob falls as θ(t) = −(m g L / J) t²/2 + O(t⁶), y = L sin θ.
  for (int k = 1; k <= 2; ++k) {
    QTest::keyClick(v, Qt::Key_Period);
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > f0.t + (k - 0.5) * SimulationController::kTick, 10000);
    waitIdle(w);
    const Frame& f = w.currentFrame();
    const double t = f.t - f0.t;
    QVERIFY(std::abs(t - k * SimulationController::kTick) < 1e-12);
    const double yRef = kL * std::sin(-kMass * kG * kL / kJ * t * t / 2);
    const double y = f.poses[bob].position.y();
    QVERIFY2(std::abs(y - yRef) < 1e-3 * std::abs(yRef), qPrintable(QString("y %1 closed form %2").arg(y).arg(yRef)));
    // Rod tension from energy conservation: T = 3 m g sin φ (φ below the horizontal) → tiny here.
    QVERIFY2(std::abs(f.reactionForce[0].norm() - 3 * kMass * kG * std::abs(y) / kL) < 0.05,
             qPrintable(QString("|F| %1, 3 m g sin φ %2").arg(f.reactionForce[0].norm()).arg(3 * kMass * kG * std::abs(y) / kL)));
  }

  // Play (Space) for about 0.7 s of simulated time, then pause.
  QTest::keyClick(v, Qt::Key_Space);
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > f0.t + 0.7, 30000);
  QTest::keyClick(v, Qt::Key_Space);
  waitIdle(w);
  QVERIFY(!w.currentFrame().playing);
  // Every recorded dynamic frame: energy within 1e-4 J of the start (the stepper's O(h²)
  // oscillation at h = 1 ms is ~1e-6 J here), tension 3 m g sin φ within 1 % + 0.05 N.
  const History& hist = w.history();
  int dynamicFrames = 0;
  double worstE = 0, worstT = 0;
  for (int i = 0; i < hist.size(); ++i) {
    const Frame& f = hist.at(i);
    if (!f.dynamic) continue;
    ++dynamicFrames;
    worstE = std::max(worstE, std::abs(totalEnergy(f) - e0));
    const double sinPhi = -f.poses[bob].position.y() / kL;
    const double tension = 3 * kMass * kG * sinPhi;
    worstT = std::max(worstT, std::abs(f.reactionForce[0].norm() - tension) / (0.01 * tension + 0.05));
  }
  qInfo("pendulum: %d dynamic frames, max |E - E0| %.3g J, worst tension error %.3g of its tolerance", dynamicFrames,
        worstE, worstT);
  QVERIFY(dynamicFrames > 30);
  QVERIFY2(worstE < 1e-4, qPrintable(QString::number(worstE)));
  QVERIFY2(worstT < 1, qPrintable(QString::number(worstT)));
  const Frame before = w.currentFrame();
  QVERIFY(before.poses[bob].position.y() < -0.5);  // it has swung well down

  // Drag the bob with the mouse: a spring to the cursor pulls it while time runs.
  QTest::keyClick(v, Qt::Key_F);  // fit the view to where the pendulum is now
  QTest::qWait(100);
  const QPoint p0 = pixelOf(w, before.poses[bob].position);
  QVERIFY(v->rect().contains(p0));
  const double eGrab = totalEnergy(before), wGrab = before.perturbationWork;
  QTest::mousePress(v, Qt::LeftButton, Qt::NoModifier, p0);
  QVERIFY(w.dragHandler()->dragging());
  moveInSteps(v, p0, p0 + QPoint(-72, -48), 6, Qt::NoModifier, 60);
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().dragging && w.currentFrame().t > before.t + 0.3, 20000);
  QTest::mouseRelease(v, Qt::LeftButton, Qt::NoModifier, p0 + QPoint(-72, -48));
  QTRY_VERIFY_WITH_TIMEOUT(!w.currentFrame().dragging && !w.currentFrame().playing, 20000);
  waitIdle(w);
  const Frame released = w.currentFrame();
  const double work = released.perturbationWork - wGrab;
  // The spring did real work, and the mechanism kept exactly that (integrator error aside).
  QVERIFY2(std::abs(work) > 0.05, qPrintable(QString::number(work)));
  const double balance = totalEnergy(released) - (eGrab + work);
  qInfo("drag: E grab %.6f J, spring work %.6f J, E release %.6f J, balance %.3g J", eGrab, work, totalEnergy(released),
        balance);
  QVERIFY2(std::abs(balance) < 0.01 * std::abs(work) + 1e-3,
           qPrintable(QString("E grab %1, work %2, E release %3").arg(eGrab).arg(work).arg(totalEnergy(released))));

  // After the release nothing is left of the spring: the energy stays at its release value.
  QTest::keyClick(v, Qt::Key_Space);
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > released.t + 0.5, 30000);
  QTest::keyClick(v, Qt::Key_Space);
  waitIdle(w);
  double drift = 0;
  for (int i = 0; i < hist.size(); ++i)
    if (hist.at(i).t > released.t) {
      QCOMPARE(hist.at(i).perturbationWork, released.perturbationWork);
      drift = std::max(drift, std::abs(totalEnergy(hist.at(i)) - totalEnergy(released)));
    }
  qInfo("after release: max |E - E_release| %.3g J", drift);
  QVERIFY2(drift < 1e-3, qPrintable(QString::number(drift)));

  // The plot dock offers energy and reactions; plot the total energy and the pivot force.
  PlotPanel* plots = w.plotPanel();
  int energyTotal = -1, pivotF = -1;
  for (int i = 0; i < static_cast<int>(plots->quantities().size()); ++i) {
    const PlotQuantity& q = plots->quantities()[i];
    if (q.name == "total (J)") energyTotal = i;
    if (q.name == "pivot |F| (N)") pivotF = i;
  }
  QVERIFY(energyTotal >= 0 && pivotF >= 0);
  QCOMPARE(plots->quantities()[energyTotal].value(released), totalEnergy(released));
  plots->setPlotted(energyTotal, true);
  plots->setPlotted(pivotF, true);
  plots->refresh();
  QVERIFY(plots->pointCount(0) > 30);
  QVERIFY(plots->pointCount(1) > 30);

  // Export the recorded history: energy and reaction columns, one row per recorded frame.
  QTemporaryDir dir;
  const QString csv = dir.filePath("pendulum-dynamics.csv");
  ExportRequest req;
  req.path = csv;
  QVERIFY2(w.exportTrajectory(req), qPrintable(w.lastError()));
  const QStringList lines = readLines(csv);
  QCOMPARE(lines.size(), hist.size() + 1);
  const QStringList header = lines[0].split(',');
  for (const char* col : {"dynamic", "energy.kinetic", "energy.potential", "energy.total", "pivot.Fx", "pivot.Fy",
                          "pivot.Fz", "pivot.Tz"})
    QVERIFY2(header.contains(col), col);
  const QStringList last = lines.last().split(',');
  QCOMPARE(last.size(), header.size());
  const Frame& lastFrame = hist.at(hist.size() - 1);
  QVERIFY(std::abs(last[header.indexOf("energy.total")].toDouble() - totalEnergy(lastFrame)) < 1e-9);
  QVERIFY(std::abs(last[header.indexOf("pivot.Fy")].toDouble() - lastFrame.reactionForce[0].y()) < 1e-9);
  QCOMPARE(last[header.indexOf("dynamic")].toDouble(), 1.0);

  // A screenshot of the dynamic mode with its energy plot.
  QVERIFY(w.grab().save("/tmp/dyn_mode.png", "PNG"));

  // D again: kinematic mode; the pendulum stays where the dynamics left it.
  const Vec3 at = w.currentFrame().poses[bob].position;
  QTest::keyClick(v, Qt::Key_D);
  QTRY_VERIFY_WITH_TIMEOUT(!w.currentFrame().dynamic, 10000);
  waitIdle(w);
  QVERIFY(!action->isChecked());
  QVERIFY((w.currentFrame().poses[bob].position - at).norm() < 1e-6);
}

void TestDynamicMode::fileWithoutDynamicsSectionUsesTheDefaults() {
  // fourbar.json has no dynamics section: gravity −z 9.81 (the default), masses from its shapes,
  // and its crank driver stays imposed (a rheonomic constraint the dynamics follows).
  MainWindow w;
  w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
  QVERIFY(showAndOpen(w, mechanism("fourbar.json"), QSize(1000, 700)));
  const Model& m = *w.model();
  QVERIFY(m.gravity.isApprox(Vec3(0, 0, -9.81)));
  QTest::keyClick(w.viewport(), Qt::Key_D);
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().dynamic, 10000);
  waitIdle(w);
  const QString msg = w.statusBar()->currentMessage();
  QVERIFY2(msg.contains("gravity (0, 0, -9.81)"), qPrintable(msg));
  // Play for 1.3 s. Play follows the clock at 1×: the status bar's real-time factor (simulated
  // seconds per wall second over the last second of play) is about 1, and never above it.
  const double t0 = w.currentFrame().t;
  QTest::keyClick(w.viewport(), Qt::Key_Space);
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > t0 + 1.3, 30000);
  QTRY_VERIFY_WITH_TIMEOUT(w.realTimeFactor() > 0, 5000);
  const double rtf = w.realTimeFactor();
  auto* fpsLabel = w.findChild<QLabel*>("fpsLabel");
  QVERIFY(fpsLabel);
  QVERIFY2(fpsLabel->text().contains(QString("%1× real time").arg(rtf, 0, 'f', 2)), qPrintable(fpsLabel->text()));
  QVERIFY2(rtf > 0.3 && rtf < 1.1, qPrintable(QString::number(rtf)));
  QTest::keyClick(w.viewport(), Qt::Key_Space);
  waitIdle(w);
  const Frame& f = w.currentFrame();
  QVERIFY(f.dynamic);
  // The driven coordinate follows its expression, every constraint holds.
  const Driver& drv = m.drivers[0];
  const int c = m.joints[drv.joint].firstCoord + drv.coordinate;
  QVERIFY2(std::abs(std::remainder(f.coords[c] - drv.value(f.t), 2 * M_PI)) < 1e-6, qPrintable(QString("%1 vs %2").arg(f.coords[c]).arg(drv.value(f.t))));
  QVERIFY2(f.maxResidual() < 1e-8, qPrintable(QString::number(f.maxResidual())));
}

void TestDynamicMode::poseBeyondALimitIsMovedAndSaid() {
  // The Panda's file pose has joint 4 at 0, beyond its upper limit −0.0698 rad: entering dynamic
  // mode moves it onto the limit before the first step (core/dynamics), and the status bar says so.
  MainWindow w;
  QVERIFY(showAndOpen(w, mechanism("mjcf/panda.xml")));
  QTest::keyClick(w.viewport(), Qt::Key_D);
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().dynamic, 10000);
  waitIdle(w);
  const QString msg = w.statusBar()->currentMessage();
  QVERIFY2(msg.startsWith("Dynamic mode") && msg.contains("1 joint was beyond a limit") && msg.contains("panda_joint4") &&
               msg.contains("moved onto the limit"),
           qPrintable(msg));
}

void TestDynamicMode::failedStepIsReportedAndTheLastGoodStateKept() {
  // The pendulum with a motor whose effort expression has no real value after t = 0.05 s.
  QFile in(mechanism("dynamics/a01-pendulum.json"));
  QVERIFY(in.open(QIODevice::ReadOnly));
  QString text = QString::fromUtf8(in.readAll());
  const QString plain = R"("dynamics": {"solver": {"timestep": 0.001}})";
  QVERIFY(text.contains(plain));
  text.replace(plain, R"J("dynamics": {"motors": [{"name": "bad", "joint": "pivot", "effort": "sqrt(0.05 - t)"}], "solver": {"timestep": 0.001}})J");
  QTemporaryDir dir;
  const QString path = dir.filePath("pendulum-bad-motor.json");
  QFile out(path);
  QVERIFY(out.open(QIODevice::WriteOnly));
  out.write(text.toUtf8());
  out.close();

  MainWindow w;
  w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
  QVERIFY(showAndOpen(w, path, QSize(1000, 700)));
  QTest::keyClick(w.viewport(), Qt::Key_D);
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().dynamic, 10000);
  QTest::keyClick(w.viewport(), Qt::Key_Space);
  // Play stops by itself at the failed step; the status bar says why.
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > 0 && !w.currentFrame().playing, 20000);
  waitIdle(w);
  const QString msg = w.statusBar()->currentMessage();
  QVERIFY2(msg.startsWith("dynamics step failed") && msg.contains("non-finite applied forces"), qPrintable(msg));
  const Frame& f = w.currentFrame();
  QVERIFY(f.dynamic);
  QVERIFY2(f.t <= 0.05 + 1e-9 && f.t > 0.05 - 0.002, qPrintable(QString::number(f.t)));  // the last good step
  QVERIFY(f.q.allFinite() && f.qd.allFinite());
  QVERIFY(f.maxResidual() < 1e-9);
}

QTEST_MAIN(TestDynamicMode)
#include "test_dynamic_mode.moc"
