// tests/ui/test_interaction.cpp — the main window used as a person would: slider moves (mouse
// and keyboard) and undo / redo, handle drags on the viewport (in the view plane and along an
// axis with Ctrl), play / pause / step, timeline scrubbing, plots and their export, trajectory
// export (history and kinematic run, CSV and JSON, through the dialog, cancelled), the mechanism
// report, Save As, and settings kept between runs; a crank's slider after seven turns (the
// unwrapped angle shown, dragged and typed); play keeping to the wall clock with a slow display.
// Asserts on the mechanism state (Φ, joint
// coordinates, handle positions) and on the written files; screenshots go to <build>/screenshots/.
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QThread>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QProgressDialog>
#include <QPushButton>
#include <QRadioButton>
#include <QSlider>
#include <QStyleOptionSlider>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QUndoStack>

#include "core/io/trajectory.h"
#include "core/kinematics/kinematics.h"
#include "ui/dof_panel.h"
#include "ui/drag_handler.h"
#include "ui/export_dialog.h"
#include "ui/main_window.h"
#include "scene/picking.h"
#include "ui/plot_dock.h"
#include "ui/report_dialog.h"
#include "ui/timeline.h"
#include "ui/viewport.h"
#include "tests/ui/interaction_util.h"
#include "tests/ui/window_test_util.h"

using namespace mechsim;
using namespace mechsim::ui;
using namespace mechsim::test;

namespace {
/// The handle's world position in the frame shown.
Vec3 handlePosition(const MainWindow& w, int h = 0) {
  const Model& m = *w.model();
  return w.currentFrame().poses[m.handles[h].body].apply(m.handles[h].local);
}

/// Centre of a slider's handle (where a person grabs it).
QPoint sliderHandle(QSlider* s) {
  QStyleOptionSlider opt;
  opt.initFrom(s);
  opt.orientation = s->orientation();
  opt.minimum = s->minimum();
  opt.maximum = s->maximum();
  opt.sliderPosition = s->sliderPosition();
  opt.sliderValue = s->value();
  opt.subControls = QStyle::SC_SliderHandle;
  return s->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, s).center();
}

void saveShot(QWidget* w, const QString& name) {
  const QString dir = QStringLiteral(MECHSIM_SCREENSHOT_DIR);
  QDir().mkpath(dir);
  QVERIFY(w->grab().save(dir + "/" + name, "PNG"));
}

QStringList expectedHeader(const Model& m) {
  QStringList h;
  for (const std::string& c : io::trajectoryColumns(m, true)) h << QString::fromStdString(c);
  return h;
}
}  // namespace

class TestInteraction : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void sliderMovesAndUndo();
  void viewportDragFollowsTheCursor();
  void playStepScrubAndPlots();
  void exportTrajectory();
  void reportSaveAsAndSettings();
  void turningSliderShowsTheUnwrappedAngle();
  void playFollowsTheClock();

 private:
  QTemporaryDir dir_;
};

void TestInteraction::initTestCase() {
  useFreshSettings("test_ui_interaction");
  QVERIFY(dir_.isValid());
}

void TestInteraction::sliderMovesAndUndo() {
  MainWindow w;
  QVERIFY(showAndOpen(w, mechanism("fourbar.json")));
  DofPanel* panel = w.dofPanel();
  QCOMPARE(panel->count(), 1);
  const DofInfo dof = panel->dof(0);
  QVERIFY(dof.angular);
  QVERIFY(panel->followBox(0)->isChecked());
  QSlider* s = panel->slider(0);
  const double before = w.currentFrame().coords[dof.coordIndex];

  // Drag the slider's handle 80 px to the right with the mouse.
  const QPoint h = sliderHandle(s);
  mouseDrag(s, h, h + QPoint(80, 0), 8);
  waitIdle(w);
  const double asked = DofPanel::fromSlider(dof, s->value());
  const Frame& f = w.currentFrame();
  QVERIFY2(std::abs(std::remainder(f.coords[dof.coordIndex] - asked, 2 * M_PI)) < 1e-9,
           qPrintable(QString("%1 vs %2").arg(f.coords[dof.coordIndex]).arg(asked)));
  QVERIFY(std::abs(asked - before) > 0.1);
  QVERIFY(f.maxResidual() < 1e-9);
  QVERIFY(!panel->followBox(0)->isChecked());  // the slider took the driver over
  QCOMPARE(w.undoStack()->count(), 1);

  // Keyboard: two PageDown steps are one merged edit; the spin box shows degrees.
  s->setFocus();
  QTest::keyClick(s, Qt::Key_PageDown);
  QTest::keyClick(s, Qt::Key_PageDown);
  waitIdle(w);
  const double asked2 = DofPanel::fromSlider(dof, s->value());
  QVERIFY(std::abs(std::remainder(w.currentFrame().coords[dof.coordIndex] - asked2, 2 * M_PI)) < 1e-9);
  QVERIFY(std::abs(panel->spinBox(0)->value() - asked2 * 180 / M_PI) < 0.01);
  QCOMPARE(w.undoStack()->count(), 2);

  // Undo twice: back to where the mouse drag left it, then to the start; redo once.
  QTest::keySequence(&w, QKeySequence::Undo);
  waitIdle(w);
  QVERIFY(std::abs(std::remainder(w.currentFrame().coords[dof.coordIndex] - asked, 2 * M_PI)) < 1e-9);
  QTest::keySequence(&w, QKeySequence::Undo);
  waitIdle(w);
  QVERIFY(std::abs(std::remainder(w.currentFrame().coords[dof.coordIndex] - before, 2 * M_PI)) < 1e-9);
  QTest::keySequence(&w, QKeySequence(Qt::CTRL | Qt::Key_Y));
  waitIdle(w);
  QVERIFY(std::abs(std::remainder(w.currentFrame().coords[dof.coordIndex] - asked, 2 * M_PI)) < 1e-9);
  QVERIFY(w.currentFrame().maxResidual() < 1e-9);
  QVERIFY(std::abs(DofPanel::fromSlider(dof, s->value()) - asked) < 1e-9);
  saveShot(&w, "interaction-fourbar-slider.png");
}

void TestInteraction::viewportDragFollowsTheCursor() {
  MainWindow w;
  QVERIFY(showAndOpen(w, mechanism("stewart.json")));
  QCOMPARE(w.dofPanel()->count(), 6);
  Viewport* v = w.viewport();
  QTRY_VERIFY_WITH_TIMEOUT(v->paintCount() > 0, 10000);
  const VecX q0 = w.currentFrame().q;

  // Grab the platform's handle and drag it 40 px right and 25 px up in the view plane.
  const Vec3 anchor = handlePosition(w);
  const QPoint p0 = pixelOf(w, anchor);
  QVERIFY(v->rect().contains(p0));
  QTest::mousePress(v, Qt::LeftButton, Qt::NoModifier, p0);
  QVERIFY(w.dragHandler()->dragging());
  QCOMPARE(w.selectedBody(), w.model()->handles[0].body);
  const QPoint p1 = p0 + QPoint(40, -25);
  moveInSteps(v, p0, p1, 5);
  waitIdle(w);
  QVERIFY(w.currentFrame().dragging);
  QTest::mouseRelease(v, Qt::LeftButton, Qt::NoModifier, p1);
  waitIdle(w);
  // The handle sits where the cursor's ray meets the plane through the grabbed point facing
  // the camera, the constraints hold, and the leg sliders hold the new pose.
  const Ray ray = cameraRay(v->camera(), p1.x(), p1.y(), v->width(), v->height());
  const Vec3 target = *dragOnPlane(ray, anchor, v->camera().backward());
  QVERIFY((target - anchor).norm() > 0.02);
  QVERIFY2((handlePosition(w) - target).norm() < 1e-6, qPrintable(QString::number((handlePosition(w) - target).norm())));
  const Frame& f = w.currentFrame();
  QVERIFY(!f.dragging);
  QVERIFY(f.maxResidual() < 1e-9);
  for (int i = 0; i < 6; ++i) QVERIFY(std::abs(f.coords[w.dofPanel()->dof(i).coordIndex] - f.dofValues[i]) < 1e-9);
  QCOMPARE(w.undoStack()->count(), 1);
  // The trail of the dragged point is drawn.
  QVERIFY(v->scene().overlayLines.segmentCount() > 0);

  // Ctrl: along the world axis that best follows the mouse; the other two coordinates stay.
  const Vec3 a2 = handlePosition(w);
  const QPoint q0px = pixelOf(w, a2);
  QTest::mousePress(v, Qt::LeftButton, Qt::NoModifier, q0px);
  moveInSteps(v, q0px, q0px + QPoint(0, -32), 4, Qt::ControlModifier);
  waitIdle(w);
  const int axis = w.dragHandler()->axis();
  QVERIFY(axis >= 0);
  QTest::mouseRelease(v, Qt::LeftButton, Qt::ControlModifier, q0px + QPoint(0, -32));
  waitIdle(w);
  const Vec3 a3 = handlePosition(w);
  QVERIFY2(std::abs(a3[axis] - a2[axis]) > 1e-3, qPrintable(QString::number(a3[axis] - a2[axis])));
  for (int k = 0; k < 3; ++k)
    if (k != axis) QVERIFY2(std::abs(a3[k] - a2[k]) < 1e-6, qPrintable(QString::number(a3[k] - a2[k])));
  QVERIFY(w.currentFrame().maxResidual() < 1e-9);

  // Body frames and joint axes on demand, then a screenshot of the dragged platform.
  findAction(&w, "Show Body Frames")->trigger();
  findAction(&w, "Show Joint Axes")->trigger();
  QVERIFY(v->scene().count(ItemRole::BodyFrame) == 3 * w.model()->nMoving);
  waitIdle(w);
  saveShot(&w, "interaction-stewart-drag.png");
  findAction(&w, "Show Body Frames")->trigger();
  findAction(&w, "Show Joint Axes")->trigger();

  // Undo both drags: the file's configuration again.
  w.undoStack()->undo();
  waitIdle(w);
  w.undoStack()->undo();
  waitIdle(w);
  QVERIFY((w.currentFrame().q - q0).norm() < 1e-9);

  // A body (not a handle) can be grabbed too: press on the platform's centre.
  const int platform = w.model()->findBody("platform");
  const QPoint pc = pixelOf(w, w.currentFrame().poses[platform].position);
  QTest::mousePress(v, Qt::LeftButton, Qt::NoModifier, pc);
  QVERIFY(w.dragHandler()->dragging());
  QTest::mouseRelease(v, Qt::LeftButton, Qt::NoModifier, pc);
  // A press on the background orbits the camera instead.
  const double az = v->camera().azimuth;
  QTest::mousePress(v, Qt::LeftButton, Qt::NoModifier, QPoint(5, 5));
  QVERIFY(!w.dragHandler()->dragging());
  QTest::mouseMove(v, QPoint(45, 5));
  QTest::mouseRelease(v, Qt::LeftButton, Qt::NoModifier, QPoint(45, 5));
  QVERIFY(std::abs(v->camera().azimuth - az) > 0.1);
}

void TestInteraction::playStepScrubAndPlots() {
  MainWindow w;
  QVERIFY(showAndOpen(w, mechanism("fourbar.json")));
  PlotPanel* plots = w.plotPanel();
  // Plot the crank angle and the coupler's x.
  int crank = -1, couplerX = -1;
  for (int q = 0; q < static_cast<int>(plots->quantities().size()); ++q) {
    if (plots->quantities()[q].name == "A (rad)") crank = q;
    if (plots->quantities()[q].name == "coupler.x (m)") couplerX = q;
  }
  QVERIFY(crank >= 0 && couplerX >= 0);
  plots->setPlotted(crank, true);
  plots->setPlotted(couplerX, true);
  QCOMPARE(plots->plotted().size(), size_t(2));

  // Play until t > 0.3 s, then pause (the Play action is a toggle).
  QAction* play = findAction(&w, "Play");
  QVERIFY(play);
  play->trigger();
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > 0.3, 20000);
  play->trigger();
  waitIdle(w);
  QVERIFY(!w.currentFrame().playing);
  const History& h = w.history();
  QVERIFY(h.size() > 5);
  const DofInfo dof = w.dofPanel()->dof(0);
  for (int i = 0; i < h.size(); ++i) {
    // Every recorded frame: the crank at 2π t, constraints met.
    QVERIFY(std::abs(std::remainder(h.at(i).coords[dof.coordIndex] - 2 * M_PI * h.at(i).t, 2 * M_PI)) < 1e-8);
    QVERIFY(h.at(i).maxResidual() < 1e-9);
  }
  plots->refresh();
  QCOMPARE(plots->pointCount(0), h.size());
  QCOMPARE(plots->pointCount(1), h.size());
  const QString plotCsv = dir_.filePath("plot.csv");
  plots->exportCsv(plotCsv);
  const QStringList plotLines = readLines(plotCsv);
  QCOMPARE(plotLines.size(), h.size() + 1);
  QCOMPARE(plotLines[0], QString("t,\"A (rad)\",\"coupler.x (m)\""));
  const QStringList row = plotLines.last().split(',');
  QVERIFY(std::abs(row[0].toDouble() - h.back().t) < 1e-12);
  QVERIFY(std::abs(row[2].toDouble() - h.back().poses[w.model()->findBody("coupler")].position.x()) < 1e-12);

  // Step: one tick.
  const double t = w.currentFrame().t;
  QTest::keyClick(&w, Qt::Key_Period);
  waitIdle(w);
  QVERIFY(std::abs(w.currentFrame().t - (t + SimulationController::kTick)) < 1e-12);
  saveShot(&w, "interaction-fourbar-play.png");

  // Scrub the timeline back to its start (Home on the scrubber): the first frame is shown and
  // the controller is there; a step from there replaces the recorded future.
  QSlider* scrub = w.timeline()->scrubber();
  scrub->setFocus();
  QTest::keyClick(scrub, Qt::Key_Home);
  waitIdle(w);
  QCOMPARE(w.currentFrame().t, h.at(0).t);
  QVERIFY((w.currentFrame().q - h.at(0).q).norm() < 1e-9);
  findAction(&w, "Step")->trigger();
  waitIdle(w);
  QCOMPARE(w.history().size(), 2);
  QVERIFY(std::abs(w.currentFrame().t - (h.at(0).t + SimulationController::kTick)) < 1e-12);
  // Reset: time 0, history starts again.
  findAction(&w, "Reset")->trigger();
  waitIdle(w);
  QCOMPARE(w.currentFrame().t, 0.0);
  QCOMPARE(w.history().size(), 1);
}

void TestInteraction::exportTrajectory() {
  MainWindow w;
  QVERIFY(showAndOpen(w, mechanism("fourbar.json")));
  const Model& m = *w.model();
  for (int k = 0; k < 5; ++k) findAction(&w, "Step")->trigger();
  waitIdle(w);
  QCOMPARE(w.history().size(), 6);

  // The recorded history as CSV: FORMAT.md §3 columns, one row per recorded frame.
  ExportRequest hist;
  hist.path = dir_.filePath("history.csv");
  QVERIFY2(w.exportTrajectory(hist), qPrintable(w.lastError()));
  QStringList lines = readLines(hist.path);
  QCOMPARE(lines.size(), 7);
  QCOMPARE(lines[0].split(','), expectedHeader(m));
  QCOMPARE(lines[0].split(',')[0], QString("t"));
  QCOMPARE(lines[0].split(',')[1], QString("A"));
  QVERIFY(std::abs(lines[6].split(',')[0].toDouble() - 5 * SimulationController::kTick) < 1e-12);

  // A kinematic run from 0 to 1 s by 0.1 s as JSON: 11 rows, the crank at 2π t.
  ExportRequest run;
  run.path = dir_.filePath("run.json");
  run.kinematicRun = true;
  run.range = {0.0, 1.0, 0.1};
  QVERIFY2(w.exportTrajectory(run), qPrintable(w.lastError()));
  QFile jf(run.path);
  QVERIFY(jf.open(QIODevice::ReadOnly));
  const QJsonObject doc = QJsonDocument::fromJson(jf.readAll()).object();
  QCOMPARE(doc["format"].toString(), QString("mechsim-trajectory"));
  const QJsonArray rows = doc["rows"].toArray(), cols = doc["columns"].toArray();
  QCOMPARE(rows.size(), 11);
  QCOMPARE(cols.size(), expectedHeader(m).size());
  for (int r = 0; r < rows.size(); ++r) {
    const QJsonArray row = rows[r].toArray();
    const double t = row[0].toDouble();
    QVERIFY(std::abs(t - 0.1 * r) < 1e-12);
    QVERIFY(std::abs(std::remainder(row[1].toDouble() - 2 * M_PI * t, 2 * M_PI)) < 1e-8);
  }

  // Through the dialog, as a person would: File → Export Trajectory…, choose the run, 0 … 0.5 s
  // by 0.05 s, a CSV path, Export.
  const QString viaDialog = dir_.filePath("dialog.csv");
  QTimer::singleShot(200, &w, [&] {
    auto* dlg = qobject_cast<ExportDialog*>(QApplication::activeModalWidget());
    if (!dlg) return;
    dlg->runButton()->setChecked(true);
    dlg->t0Box()->setValue(0);
    dlg->t1Box()->setValue(0.5);
    dlg->dtBox()->setValue(0.05);
    dlg->pathEdit()->setText(viaDialog);
    for (QPushButton* b : dlg->findChildren<QPushButton*>())
      if (b->text() == "Export") QTest::mouseClick(b, Qt::LeftButton);
  });
  QTest::keySequence(&w, QKeySequence(Qt::CTRL | Qt::Key_E));
  lines = readLines(viaDialog);
  QCOMPARE(lines.size(), 12);
  QCOMPARE(lines[0].split(','), expectedHeader(m));

  // A long run cancelled from its progress dialog writes nothing.
  ExportRequest longRun;
  longRun.path = dir_.filePath("cancelled.csv");
  longRun.kinematicRun = true;
  longRun.range = {0.0, 400.0, 0.0005};
  QTimer::singleShot(300, &w, [&] {
    if (auto* p = w.findChild<QProgressDialog*>("exportProgress")) p->cancel();
  });
  QVERIFY(!w.exportTrajectory(longRun));
  QVERIFY(!QFile::exists(longRun.path));
  // A bad path fails with a message and leaves nothing behind.
  ExportRequest bad = hist;
  bad.path = dir_.filePath("no/such/dir/x.csv");
  QVERIFY(!w.exportTrajectory(bad));
  QVERIFY(!w.lastError().isEmpty());
}

void TestInteraction::reportSaveAsAndSettings() {
  const QString saved = dir_.filePath("saved-suspension.json");
  {
    MainWindow w;
    QVERIFY(showAndOpen(w, mechanism("car-suspension.json")));
    // Report: the mobility analysis of the file.
    const QString html = mechanismReportHtml(w.modelInfo(), w.singularEvents());
    QVERIFY(html.contains("Mobility (DOF)"));
    QCOMPARE(w.modelInfo().dofs.size(), w.model()->drivers.size() + size_t(w.modelInfo().mobility.dofDriven));
    ReportDialog dlg(w.modelInfo(), w.singularEvents(), &w);
    QVERIFY(dlg.browser()->toPlainText().contains("Redundant equations"));
    // Drag the wheel handle upwards a little, screenshot.
    Viewport* v = w.viewport();
    const QPoint p0 = pixelOf(w, handlePosition(w));
    mouseDrag(v, p0, p0 + QPoint(0, -24), 4);
    waitIdle(w);
    QVERIFY(w.currentFrame().maxResidual() < 1e-9);
    saveShot(&w, "interaction-suspension-drag.png");
    // Save As writes the native format; it opens again with the same model.
    QVERIFY2(w.saveAs(saved), qPrintable(w.lastError()));
    // A view option and the speed are remembered.
    findAction(&w, "Show Body Frames")->trigger();
    w.timeline()->speedBox()->setValue(2.5);
    w.close();
  }
  MainWindow w2;
  QVERIFY(w2.sceneOptions().bodyFrames);
  QVERIFY(findAction(&w2, "Show Body Frames")->isChecked());
  QCOMPARE(w2.timeline()->speed(), 2.5);
  QVERIFY(openAndWait(w2, saved));
  QCOMPARE(w2.model()->joints.size(), size_t(8));
  QCOMPARE(w2.model()->drivers.size(), size_t(3));
  findAction(&w2, "Show Body Frames")->trigger();
  w2.close();
}

void TestInteraction::turningSliderShowsTheUnwrappedAngle() {
  // The four-bar's crank, driven at 360°/s, played for seven turns (at 10×): its spin box shows the
  // unwrapped angle (~2520°, not the slider range's end) and its slider the angle within one
  // turn. Dragging the slider, then typing into the box, keep the seven turns.
  MainWindow w;
  QVERIFY(showAndOpen(w, mechanism("fourbar.json")));
  DofPanel* panel = w.dofPanel();
  QCOMPARE(panel->count(), 1);
  const DofInfo dof = panel->dof(0);
  QVERIFY(sim::isTurning(dof));
  QSlider* s = panel->slider(0);
  QDoubleSpinBox* spin = panel->spinBox(0);
  w.timeline()->speedBox()->setValue(10);
  QAction* play = findAction(&w, "Play");
  play->trigger();
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t >= 7.0, 20000);
  play->trigger();
  waitIdle(w);
  const Frame& f = w.currentFrame();
  const double angle = f.dofValues[0];                       // the driver's 2π t
  QVERIFY2(std::abs(angle - 2 * M_PI * f.t) < 1e-9, qPrintable(QString("%1 at t = %2").arg(angle).arg(f.t)));
  QVERIFY(std::abs(f.coords[dof.coordIndex] - angle) < 1e-6);  // the joint coordinate is continuous too
  QVERIFY2(std::abs(spin->value() - angle * 180 / M_PI) < 0.01 && spin->value() > 2500,
           qPrintable(QString("spin box %1°, crank %2°").arg(spin->value()).arg(angle * 180 / M_PI)));
  QVERIFY(std::abs(panel->value(0) - angle) < 1e-9);
  // The slider: the angle within its turn [lower, lower + 360°).
  const double inTurn = std::remainder(angle - dof.lower - M_PI, 2 * M_PI) + M_PI + dof.lower;
  QCOMPARE(s->value(), DofPanel::toSlider(dof, inTurn));
  QVERIFY2(s->toolTip().contains("after 7 whole turn"), qPrintable(s->toolTip()));
  saveShot(&w, "interaction-fourbar-seven-turns.png");

  // Drag the slider's handle 40 px to the right: the crank moves on from 2520°, not back a turn.
  const QPoint h = sliderHandle(s);
  mouseDrag(s, h, h + QPoint(40, 0), 6);
  waitIdle(w);
  const double dragged = w.currentFrame().dofValues[0];
  QVERIFY2(dragged > angle + 0.05 && dragged < angle + M_PI,
           qPrintable(QString("dragged to %1°, from %2°").arg(dragged * 180 / M_PI).arg(angle * 180 / M_PI)));
  QVERIFY(std::abs(dragged - DofPanel::fromSlider(dof, s->value(), angle)) < 1e-12);
  QVERIFY(std::abs(w.currentFrame().coords[dof.coordIndex] - dragged) < 1e-6);
  QVERIFY(w.currentFrame().maxResidual() < 1e-9);
  QVERIFY(std::abs(spin->value() - dragged * 180 / M_PI) < 0.01);
  QVERIFY(!panel->followBox(0)->isChecked());  // the slider took the driver over

  // Type 3000° into the spin box: reached: eight turns and 120°.
  spin->setFocus();
  spin->selectAll();
  QTest::keyClicks(spin, "3000");
  QTest::keyClick(spin, Qt::Key_Return);
  waitIdle(w);
  w.setFocus();  // the box shows frames again once it loses the focus
  waitIdle(w);
  QVERIFY2(std::abs(w.currentFrame().dofValues[0] - 3000 * M_PI / 180) < 1e-9,
           qPrintable(QString::number(w.currentFrame().dofValues[0] * 180 / M_PI)));
  QVERIFY(std::abs(w.currentFrame().coords[dof.coordIndex] - 3000 * M_PI / 180) < 1e-6);
  QVERIFY(w.currentFrame().maxResidual() < 1e-9);
  QVERIFY(std::abs(spin->value() - 3000) < 0.01);
  QCOMPARE(s->value(), DofPanel::toSlider(dof, 3000 * M_PI / 180 - 8 * 2 * M_PI));
}

void TestInteraction::playFollowsTheClock() {
  // Play at 1× runs simulated time at the wall clock's rate, even when the display is slow (here
  // every frame shown costs the GUI 40 ms more: 25 frames a second at most): frames are dropped,
  // time is not slowed. At 2× it runs twice as fast. The rate is taken between the first frames
  // shown at t ≥ 0.5 s and at t ≥ 2 s: by then the frames in flight to the slow display (a few,
  // 40 ms each) are as many at both ends, and their latency cancels.
  MainWindow w;
  QVERIFY(showAndOpen(w, mechanism("fourbar.json")));
  QAction* play = findAction(&w, "Play");
  QElapsedTimer clock;
  std::vector<std::pair<double, double>> shown;  // (wall time s, frame t) of each frame shown
  connect(&w, &MainWindow::frameShown, this, [&] {
    shown.emplace_back(clock.nsecsElapsed() * 1e-9, w.currentFrame().t);
    QThread::msleep(40);
  });
  for (const double speed : {1.0, 2.0}) {
    findAction(&w, "Reset")->trigger();
    waitIdle(w);
    w.timeline()->speedBox()->setValue(speed);
    const int frames0 = w.history().size();
    shown.clear();
    clock.start();
    play->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t >= 2.0, 20000);
    play->trigger();
    waitIdle(w);
    const int frames = w.history().size() - frames0;
    auto first = std::find_if(shown.begin(), shown.end(), [](const auto& p) { return p.second >= 0.5; });
    auto last = std::find_if(shown.begin(), shown.end(), [](const auto& p) { return p.second >= 2.0; });
    QVERIFY(first != shown.end() && last != shown.end() && last->first > first->first);
    const double rate = (last->second - first->second) / (last->first - first->first);
    qInfo("speed %g: simulated time at %.3f × the wall clock; t = 2 s shown %.3f s after Play; %d frames recorded for %g ticks",
          speed, rate, last->first, frames, 2.0 / (speed * SimulationController::kTick));
    QVERIFY2(std::abs(rate / speed - 1) < 0.08, qPrintable(QString("speed %1: rate %2").arg(speed).arg(rate)));
    // Late by no more than the display's few frames in flight (40 ms each) and the start.
    QVERIFY2(last->first < 2.0 / speed + 0.35, qPrintable(QString::number(last->first)));
    // Frames were dropped: fewer recorded than ticks taken.
    QVERIFY2(frames < 0.8 * 2.0 / (speed * SimulationController::kTick), qPrintable(QString::number(frames)));
    QVERIFY(w.currentFrame().maxResidual() < 1e-9);
  }
  w.disconnect(this);
  w.timeline()->speedBox()->setValue(1.0);
}

int main(int argc, char** argv) {
  QSurfaceFormat::setDefaultFormat(Viewport::applicationFormat());
  QApplication app(argc, argv);
  TestInteraction t;
  return QTest::qExec(&t, argc, argv);
}
#include "test_interaction.moc"
