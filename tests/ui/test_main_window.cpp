// tests/ui/test_main_window.cpp — ui/main_window.cpp: opening files, the model tree, title and
// status, load errors (the open mechanism stays), drag-and-drop, recent files, view toggles, and
// play stopped by a driver past the mechanism's reach (the last good pose kept, the status bar says why);
// the window within the screen with its docks and plot labels whole at 1280 × 800 (screenshot
// window-1280x800.png looked at), the layout and view options of the last session restored (and
// View → Default Layout), the status bar's solver state and units.
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QDir>
#include <QDockWidget>
#include <QGraphicsTextItem>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QProgressDialog>
#include <QScreen>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTreeWidget>

#include "ui/main_window.h"
#include "ui/plot_dock.h"
#include "ui/timeline.h"
#include "ui/viewport.h"
#include "tests/ui/window_test_util.h"
#include "tests/mesh_reader_crash.h"

using namespace mechsim;
using namespace mechsim::ui;
using namespace mechsim::test;

namespace {

const char* kPendulum = R"({
  "mechsim": 1,
  "name": "test pendulum",
  "bodies": [
    { "name": "ground", "fixed": true, "shapes": [ { "type": "box", "size": [0.2, 0.2, 0.05], "position": [0, 0, -0.05] } ] },
    { "name": "arm", "density": 1000,
      "shapes": [ { "type": "box", "size": [0.5, 0.05, 0.05], "position": [0.25, 0, 0] } ] }
  ],
  "joints": [
    { "name": "A", "type": "revolute", "body1": "ground", "body2": "arm", "point": [0, 0, 0], "axis": [0, 0, 1] }
  ],
  "handles": [ { "name": "tip", "body": "arm", "point": [0.5, 0, 0] } ]
}
)";

const char* kSlider = R"({
  "mechsim": 1,
  "name": "test slider",
  "bodies": [
    { "name": "ground", "fixed": true },
    { "name": "block", "density": 1000, "shapes": [ { "type": "box", "size": [0.1, 0.1, 0.1] } ] }
  ],
  "joints": [
    { "name": "S", "type": "prismatic", "body1": "ground", "body2": "block", "point": [0, 0, 0], "axis": [1, 0, 0] }
  ]
}
)";

// A misspelt key on line 4: the loader must point at it.
const char* kBroken = R"({
  "mechsim": 1,
  "bodies": [
    { "name": "ground", "fixd": true }
  ]
}
)";

QString writeFile(const QTemporaryDir& dir, const QString& name, const char* text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(text);
  return path;
}

}  // namespace

class TestMainWindow : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void init();
  void opensAFile();
  void loadWarningsInTheStatusBar();
  void urdfRootFloats();
  void loadErrorKeepsTheMechanism();
  void loadErrorShowsACriticalMessageBox();
  void slowOpenCanBeCancelled();
  void dragAndDropOpens();
  void recentFiles();
  void viewToggles();
  void playStopsWhereTheDriversCannotReach();
  void windowFitsTheScreen();
  void layoutAndViewOptionsRestored();
  void statusBarShowsSolverStateAndUnits();

 private:
  /// Sends w's errors to `errors`, opens the pendulum in it and shows it; false if a step fails.
  bool showPendulum(MainWindow& w, QStringList& errors) {
    w.setErrorHandler([&errors](const QString& m) { errors << m; });
    if (!w.openFile(pendulum_)) return false;
    w.show();
    return QTest::qWaitForWindowExposed(&w);
  }

  QTemporaryDir dir_;
  QString pendulum_, slider_, broken_;
};

void TestMainWindow::initTestCase() {
  QStandardPaths::setTestModeEnabled(true);
  QCoreApplication::setOrganizationName("mechsim-tests");
  QCoreApplication::setApplicationName("test_ui_main_window");
  QVERIFY(dir_.isValid());
  pendulum_ = writeFile(dir_, "pendulum.json", kPendulum);
  slider_ = writeFile(dir_, "slider.json", kSlider);
  broken_ = writeFile(dir_, "broken.json", kBroken);
  // Everything here needs the loader; without it there is nothing to test.
  MainWindow probe;
  QString error;
  probe.setErrorHandler([&](const QString& m) { error = m; });
  if (!probe.openFile(pendulum_)) QSKIP(qPrintable("the test mechanism does not load: " + error));
}

void TestMainWindow::init() { QSettings().clear(); }

void TestMainWindow::opensAFile() {
  MainWindow w;
  QSignalSpy loaded(&w, &MainWindow::modelLoaded);
  QVERIFY(w.openFile(pendulum_));
  QCOMPARE(loaded.count(), 1);
  QVERIFY(w.lastError().isEmpty());
  QCOMPARE(w.currentFile(), QFileInfo(pendulum_).absoluteFilePath());
  // Title: mechanism name and file.
  QVERIFY2(w.windowTitle().contains("test pendulum") && w.windowTitle().contains("pendulum.json"),
           qPrintable(w.windowTitle()));
  // Tree: Bodies / Joints (with type) / Drivers / Handles.
  QTreeWidget* t = w.modelTree();
  QCOMPARE(t->topLevelItemCount(), 4);
  QVERIFY(t->topLevelItem(0)->text(0).startsWith("Bodies (2)"));
  QVERIFY(t->topLevelItem(1)->text(0).startsWith("Joints (1)"));
  QCOMPARE(t->topLevelItem(1)->child(0)->text(0), QString("A"));
  QVERIFY(t->topLevelItem(1)->child(0)->text(1).contains("revolute"));
  QVERIFY(t->topLevelItem(2)->text(0).startsWith("Drivers (0)"));
  QVERIFY(t->topLevelItem(3)->text(0).startsWith("Handles (1)"));
  // Status bar counts.
  bool counted = false;
  for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
    counted |= l->text().contains("2 bodies") && l->text().contains("1 joint ") && l->text().contains("7 coordinates");
  QVERIFY(counted);
  // The scene shows both bodies' boxes and the controller's frame arrives from its thread.
  QVERIFY(w.viewport()->scene().count(ItemRole::BodyShape) == 2);
  QSignalSpy frames(&w, &MainWindow::frameShown);
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().serial > 0, 5000);
  QCOMPARE(w.currentFrame().model, w.model());
}

void TestMainWindow::loadWarningsInTheStatusBar() {
  // The Panda's file pose has joint 4 outside its range (core/io/pose_limits.h): that warning is
  // the status bar's message, every load warning its tooltip; a file without warnings clears it.
  MainWindow w;
  QVERIFY(w.openFile(QStringLiteral(MECHSIM_SOURCE_DIR "/mechanisms/mjcf/panda.xml")));
  const QString msg = w.statusBar()->currentMessage();
  QVERIFY2(msg.contains("warning: joint \"panda_joint4\": the starting pose") && msg.contains("above its upper limit"),
           qPrintable(msg));
  QVERIFY2(w.statusBar()->toolTip().contains("panda_link4"), qPrintable(w.statusBar()->toolTip()));  // the reader's too
  QVERIFY(w.openFile(pendulum_));
  QVERIFY(w.statusBar()->toolTip().isEmpty());
}

void TestMainWindow::urdfRootFloats() {
  // File → URDF Root Floats (issue 46, item 2): the KUKA iiwa's root is fixed (7 DOF of joints,
  // its base not a coordinate); checked, the URDF is opened again with its root free, 7 more
  // coordinates (a free body) and nothing fixed; a native file is not affected; the choice is
  // kept for the next session.
  auto fixedBodies = [](const Model& m) {
    int n = 0;
    for (const Body& b : m.bodies) n += b.qIndex < 0;
    return n;
  };
  const QString kuka = QStringLiteral(MECHSIM_SOURCE_DIR "/tests/data/import/real/kuka_iiwa.urdf");
  QStringList errors;
  {
    MainWindow w;
    w.setErrorHandler([&errors](const QString& m) { errors << m; });
    QAction* floats = findAction(&w, "URDF Root Floats");
    QVERIFY(floats && floats->isCheckable());
    floats->setChecked(false);
    QVERIFY(w.openFile(kuka));
    const int nq = w.model()->nq, fixed = fixedBodies(*w.model());
    QVERIFY(fixed >= 1);
    floats->setChecked(true);  // opens the URDF again
    QTRY_VERIFY(w.model()->nq == nq + 7);
    QCOMPARE(fixedBodies(*w.model()), fixed - 1);
    QVERIFY(w.openFile(pendulum_));  // a native file reads as it is
    QVERIFY(errors.isEmpty());
  }
  {
    MainWindow next;
    QAction* floats = findAction(&next, "URDF Root Floats");
    QVERIFY(floats->isChecked());
    floats->setChecked(false);
  }
  QVERIFY2(errors.isEmpty(), qPrintable(errors.join("\n")));
}

void TestMainWindow::loadErrorKeepsTheMechanism() {
  MainWindow w;
  QStringList errors;
  QVERIFY(showPendulum(w, errors));
  const auto model = w.model();
  const QString title = w.windowTitle();
  const int items = static_cast<int>(w.viewport()->scene().items.size());

  QVERIFY(!w.openFile(broken_));
  QCOMPARE(errors.size(), 1);
  // The loader's full message: FILE:LINE:COL: error: ...
  const QRegularExpression diag(QStringLiteral("broken\\.json:4:\\d+: error: .+"));
  QVERIFY2(diag.match(errors[0]).hasMatch(), qPrintable(errors[0]));
  QCOMPARE(w.lastError(), errors[0]);
  // Nothing changed: same model, file, title, scene; the window still works.
  QCOMPARE(w.model(), model);
  QCOMPARE(w.currentFile(), QFileInfo(pendulum_).absoluteFilePath());
  QCOMPARE(w.windowTitle(), title);
  QCOMPARE(static_cast<int>(w.viewport()->scene().items.size()), items);
  QVERIFY(w.openFile(slider_));
  QVERIFY(w.lastError().isEmpty());
  // A missing file is an error too.
  QVERIFY(!w.openFile(dir_.filePath("no-such-file.json")));
  QCOMPARE(errors.size(), 2);
  QVERIFY(w.windowTitle().contains("test slider"));
  // A mesh on which Assimp's own internal check fails used to abort the whole program; now it is
  // one more located error and the window goes on.
  QVERIFY(!w.openFile(QStringLiteral(MECHSIM_SOURCE_DIR "/tests/data/bad/mesh_assimp_check.json")));
  QCOMPARE(errors.size(), 3);
  QVERIFY2(errors[2].contains("mesh_assimp_check.json:7:45: error:") && errors[2].contains("cannot read mesh file"),
           qPrintable(errors[2]));
  QVERIFY(w.windowTitle().contains("test slider"));
  // A crash while reading a mesh file (the mesh reader made to crash, as a fault in the importer
  // would) ends the reader's process only: one more located error, and the window goes on.
  const QString meshes = QStringLiteral(MECHSIM_SOURCE_DIR "/mechanisms/fourbar-meshes.json");
  qputenv("MECHSIM_MESH_READER_FAULT", "crash");
  const bool crashedOpen = w.openFile(meshes);
  qunsetenv("MECHSIM_MESH_READER_FAULT");
  QVERIFY(!crashedOpen);
  QCOMPARE(errors.size(), 4);
  QVERIFY2(errors[3].contains("fourbar-meshes.json:") && errors[3].contains("error: ") &&
               errors[3].contains(kReaderCrash),
           qPrintable(errors[3]));
  QVERIFY(w.windowTitle().contains("test slider"));
  QVERIFY(w.openFile(meshes));
  QVERIFY(w.openFile(pendulum_));
}

void TestMainWindow::loadErrorShowsACriticalMessageBox() {
  // Without a handler the error goes to a modal critical message box; close it from a timer.
  MainWindow w;
  QVERIFY(w.openFile(pendulum_));
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QString shownText;
  QMessageBox::Icon icon = QMessageBox::NoIcon;
  QTimer::singleShot(0, [&] {
    QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<QMessageBox*>(QApplication::activeModalWidget()), 5000);
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    shownText = box->text();
    icon = box->icon();
    box->accept();
  });
  QVERIFY(!w.openFile(broken_));
  QCOMPARE(icon, QMessageBox::Critical);
  QVERIFY2(shownText.contains("broken.json:4:") && shownText.contains("error:"), qPrintable(shownText));
  QVERIFY(w.windowTitle().contains("test pendulum"));
}

void TestMainWindow::slowOpenCanBeCancelled() {
  // A file that takes long to read (here its mesh reader made to hang, with a 60 s limit) shows a
  // progress dialog; its Cancel, clicked as a person would, stops the read at once: no error, the
  // mechanism shown stays, and the same file opens afterwards.
  MainWindow w;
  QStringList errors;
  QVERIFY(showPendulum(w, errors));
  const QString title = w.windowTitle();
  const QString meshes = QStringLiteral(MECHSIM_SOURCE_DIR "/mechanisms/fourbar-meshes.json");
  bool sawDialog = false;
  QTimer poll;
  poll.setInterval(50);
  connect(&poll, &QTimer::timeout, &w, [&] {
    auto* dialog = w.findChild<QProgressDialog*>("openProgress");
    if (!dialog || !dialog->isVisible()) return;
    sawDialog = true;
    poll.stop();
    // The screen as the user sees it: the window, and the dialog over it.
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QTest::qWait(200);
    QDir().mkpath(QStringLiteral(MECHSIM_SCREENSHOT_DIR));
    QVERIFY(w.screen()->grabWindow(0).save(QStringLiteral(MECHSIM_SCREENSHOT_DIR "/open-progress.png"), "PNG"));
    QVERIFY(dialog->labelText().contains("fourbar-meshes.json"));
    QPushButton* cancel = dialog->findChild<QPushButton*>();
    QVERIFY(cancel);
    QTest::mouseClick(cancel, Qt::LeftButton);
  });
  poll.start();
  qputenv("MECHSIM_MESH_READER_FAULT", "hang");
  qputenv("MECHSIM_MESH_READER_TIMEOUT", "60");
  QElapsedTimer clock;
  clock.start();
  const bool opened = w.openFile(meshes);
  const qint64 took = clock.elapsed();
  qunsetenv("MECHSIM_MESH_READER_FAULT");
  qunsetenv("MECHSIM_MESH_READER_TIMEOUT");
  QVERIFY(!opened);
  QVERIFY(sawDialog);
  QVERIFY2(took < 10000 * MECHSIM_WAIT_SCALE, qPrintable(QString::number(took)));
  QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
  QVERIFY(w.lastError().isEmpty());
  QCOMPARE(w.windowTitle(), title);
  QVERIFY(w.statusBar()->currentMessage().contains("cancelled"));
  QVERIFY(w.openFile(meshes));
  QVERIFY(w.windowTitle().contains("fourbar"));
}

void TestMainWindow::dragAndDropOpens() {
  MainWindow w;
  w.setErrorHandler([](const QString&) {});
  QVERIFY(w.openFile(pendulum_));
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(slider_)});
  const QPoint at(w.width() / 2, w.height() / 2);
  QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&w, &enter);
  QVERIFY(enter.isAccepted());
  QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&w, &drop);
  QVERIFY(drop.isAccepted());
  QCOMPARE(w.currentFile(), QFileInfo(slider_).absoluteFilePath());
  QVERIFY(w.windowTitle().contains("test slider"));
  // A drag without files is refused.
  QMimeData text;
  text.setText("hello");
  QDragEnterEvent refused(at, Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
  refused.setAccepted(false);
  QApplication::sendEvent(&w, &refused);
  QVERIFY(!refused.isAccepted());
}

void TestMainWindow::recentFiles() {
  MainWindow w;
  w.setErrorHandler([](const QString&) {});
  // Most recent first, no duplicates, at most 8.
  QStringList copies;
  for (int i = 0; i < 10; ++i) {
    const QString p = dir_.filePath(QStringLiteral("copy%1.json").arg(i));
    QFile::remove(p);
    QVERIFY(QFile::copy(pendulum_, p));
    copies << QFileInfo(p).absoluteFilePath();
    QVERIFY(w.openFile(p));
  }
  QVERIFY(w.openFile(copies[8]));
  QStringList recent = w.recentFiles();
  QCOMPARE(recent.size(), MainWindow::kMaxRecent);
  QCOMPARE(recent.first(), copies[8]);
  QCOMPARE(recent.count(copies[8]), 1);
  QVERIFY(!recent.contains(copies[0]));
  // Files that disappeared are dropped the next time the list is refreshed.
  QVERIFY(QFile::remove(copies[9]));
  QVERIFY(w.openFile(copies[7]));
  recent = w.recentFiles();
  QVERIFY(!recent.contains(copies[9]));
  QCOMPARE(recent.first(), copies[7]);
  // A failed load is not remembered.
  QVERIFY(!w.openFile(broken_));
  QVERIFY(!w.recentFiles().contains(QFileInfo(broken_).absoluteFilePath()));
  // Reload (F5) opens the current file again.
  QAction* reload = findAction(&w, "Reload");
  QVERIFY(reload);
  QCOMPARE(reload->shortcut(), QKeySequence(Qt::Key_F5));
  QSignalSpy loaded(&w, &MainWindow::modelLoaded);
  reload->trigger();
  QCOMPARE(loaded.count(), 1);
}

void TestMainWindow::viewToggles() {
  MainWindow w;
  QVERIFY(w.openFile(pendulum_));
  QVERIFY(w.viewport()->scene().lines.segmentCount() > 0);
  QVERIFY(w.viewport()->scene().count(ItemRole::JointGlyph) > 0);
  QAction* grid = findAction(&w, "Show Grid");
  QAction* joints = findAction(&w, "Show Joints");
  QVERIFY(grid && joints);
  grid->toggle();
  joints->toggle();
  QCOMPARE(w.viewport()->scene().lines.segmentCount(), 0);
  QCOMPARE(w.viewport()->scene().count(ItemRole::JointGlyph), 0);
  QVERIFY(w.viewport()->scene().count(ItemRole::BodyShape) > 0);
  // Shortcuts of the menu.
  QCOMPARE(findAction(&w, "Fit to View")->shortcut(), QKeySequence(Qt::Key_F));
  QCOMPARE(findAction(&w, "Open…")->shortcut(), QKeySequence(QKeySequence::Open));
}

void TestMainWindow::playStopsWhereTheDriversCannotReach() {
  // tests/data/good/slider_crank_unreachable.json (written for the clear-failure tests): the slider
  // driven out at 100 mm/s is in line with crank and rod at t = (450 − x0) / 100 = 0.169873 s
  // (x0 = 100 cos 30° + sqrt(350² − 50²) mm). Play advances 1/60 s a tick (speed 1): the first
  // tick past the reach fails, play stops, the mechanism stays at the pose of the tick before and
  // the status bar shows the engine's message.
  MainWindow w;
  QStringList errors;
  w.setErrorHandler([&errors](const QString& m) { errors << m; });
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QVERIFY(openAndWait(w, QStringLiteral(MECHSIM_SOURCE_DIR "/tests/data/good/slider_crank_unreachable.json")));
  const double x0 = 100 * std::cos(M_PI / 6) + std::sqrt(350.0 * 350.0 - 50.0 * 50.0);
  const double reach = (450 - x0) / 100;
  double good = 0, bad = 0;  // the controller's times: t + 1/60, tick by tick
  while (bad <= reach) good = bad, bad += SimulationController::kTick;
  QAction* play = findAction(&w, "Play");
  QVERIFY(play);
  play->trigger();
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > 0 && !w.currentFrame().playing, 20000);
  waitIdle(w);
  const Frame& f = w.currentFrame();
  QCOMPARE(f.t, good);
  QVERIFY(!f.stats.converged);
  QVERIFY2(f.maxResidual() < 1e-9, qPrintable(QString::number(f.maxResidual())));  // the kept pose is solved
  const Model& m = *w.model();
  const int slide = m.joints[m.findJoint("S")].firstCoord;
  QVERIFY(std::abs(f.coords[slide] - 0.1 * good) < 1e-9);  // on its driver at the last good time
  char head[96], kept[96];
  std::snprintf(head, sizeof head, "cannot assemble at t = %.9g s: the residual stalls at ", bad);
  std::snprintf(kept, sizeof kept, "; the last good pose (t = %.9g s) is kept", good);
  const QString msg = w.statusBar()->currentMessage();
  QVERIFY2(msg.startsWith(head) && msg.endsWith(kept) && msg.contains("(joint \"B\" furthest from met"),
           qPrintable(msg));
  QCOMPARE(msg, QString::fromStdString(f.stats.message));
  QVERIFY2(errors.isEmpty(), qPrintable(errors.join("; ")));
}

/// What is squeezed below what it needs in w (empty: nothing): a visible dock's contents below
/// their minimum size, the chart below its own minimum (QChart then elides its axis labels to
/// "…"), a label of the docks or the status bar narrower than its text (the model counts may give
/// way: their text is also in the Model tree and the tooltip).
QStringList squeezed(MainWindow& w) {
  QStringList out;
  auto small = [](const QSize& have, const QSize& need) { return have.width() < need.width() || have.height() < need.height(); };
  auto text = [](const QSize& s) { return QStringLiteral("%1×%2").arg(s.width()).arg(s.height()); };
  for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
    if (!d->isVisible() || !d->widget()) continue;
    if (small(d->widget()->size(), d->widget()->minimumSizeHint()))
      out << QStringLiteral("dock %1: %2 < %3").arg(d->objectName(), text(d->widget()->size()), text(d->widget()->minimumSizeHint()));
    for (QLabel* l : d->findChildren<QLabel*>())
      if (l->isVisible() && !l->wordWrap() && !l->text().isEmpty() && l->width() < l->sizeHint().width())
        out << QStringLiteral("label \"%1\" in %2: %3 px < %4").arg(l->text(), d->objectName()).arg(l->width()).arg(l->sizeHint().width());
  }
  // The chart's texts (axis labels and titles, legend) as drawn: Qt Charts elides what does not fit to "...".
  QChartView* chart = w.plotPanel()->chartView();
  for (QGraphicsItem* item : chart->scene()->items()) {
    const auto* t = dynamic_cast<const QGraphicsTextItem*>(item);
    if (t && t->isVisible() && (t->toPlainText().endsWith("...") || t->toPlainText().endsWith(QChar(0x2026))))
      out << QStringLiteral("chart text \"%1\" (chart %2)").arg(t->toPlainText(), text(chart->size()));
  }
  for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
    if (l->isVisible() && l->objectName() != "stressLegend" && l->minimumWidth() != 1 && !l->text().isEmpty() &&
        l->width() < l->sizeHint().width())
      out << QStringLiteral("status \"%1\": %2 px < %3").arg(l->text()).arg(l->width()).arg(l->sizeHint().width());
  return out;
}

void TestMainWindow::windowFitsTheScreen() {
  // The window opens within the screen's available area (a session's saved geometry or not), and at
  // 1280 × 800 (this screen's, or the window fitted into that much of it) the docks, the plot's
  // axis labels and the status bar still have the room they need.
  const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
  MainWindow w;
  QStringList errors;
  w.setErrorHandler([&errors](const QString& m) { errors << m; });
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QVERIFY(openAndWait(w, mechanism("fourbar.json")));
  QTRY_VERIFY2(screen.contains(w.frameGeometry()),
               qPrintable(QStringLiteral("frame %1,%2 %3×%4 outside %5×%6")
                              .arg(w.frameGeometry().x()).arg(w.frameGeometry().y()).arg(w.frameGeometry().width())
                              .arg(w.frameGeometry().height()).arg(screen.width()).arg(screen.height())));
  qInfo("screen %d×%d: window %d×%d, its minimum %d×%d", screen.width(), screen.height(), w.width(), w.height(),
        w.minimumSizeHint().width(), w.minimumSizeHint().height());
  // A crank angle and the coupler point's x plotted while it plays for a while.
  PlotPanel* plots = w.plotPanel();
  for (int q = 0; q < static_cast<int>(plots->quantities().size()); ++q)
    if (plots->quantities()[q].name == "A (rad)" || plots->quantities()[q].name == "P.x (m)") plots->setPlotted(q, true);
  QCOMPARE(plots->plotted().size(), std::size_t(2));
  QAction* play = findAction(&w, "Play");
  play->trigger();
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > 1.0, 20000);
  play->trigger();
  waitIdle(w);
  plots->refresh();
  // Fitted into 1280 × 800 (the screen at 1280 × 800, or its top left corner).
  const QRect small = QRect(screen.topLeft(), QSize(1280, 800)).intersected(screen);
  w.fitInto(small);
  QTest::qWait(200);
  QVERIFY2(small.contains(w.frameGeometry()), qPrintable(QStringLiteral("%1×%2 in %3×%4 (minimum %5×%6)")
                                                             .arg(w.frameGeometry().width()).arg(w.frameGeometry().height())
                                                             .arg(small.width()).arg(small.height())
                                                             .arg(w.minimumSizeHint().width()).arg(w.minimumSizeHint().height())));
  const QStringList tight = squeezed(w);
  QVERIFY2(tight.isEmpty(), qPrintable(tight.join("; ")));
  QVERIFY(w.grab().save(QStringLiteral(MECHSIM_SCREENSHOT_DIR "/window-1280x800.png"), "PNG"));
  // A window larger than the screen and off its edge (a saved geometry of a larger screen) comes back.
  w.setGeometry(QRect(screen.topLeft() + QPoint(400, 300), screen.size() + QSize(300, 200)));
  w.fitToScreen();
  QTRY_VERIFY(screen.contains(w.frameGeometry()));
  QVERIFY2(errors.isEmpty(), qPrintable(errors.join("; ")));
}

void TestMainWindow::layoutAndViewOptionsRestored() {
  // A session hides the plots, moves the time bar to the top, turns the grid off and the body frames
  // on, resizes the window and closes it: the next session opens the same way. Default Layout brings
  // the docks back and forgets the saved layout; the view options stay.
  const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
  const QSize size(1100, 720);
  {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.resize(size);
    auto* plots = w.findChild<QDockWidget*>("plotDock");
    auto* time = w.findChild<QDockWidget*>("timeDock");
    QVERIFY(plots && time);
    plots->toggleViewAction()->trigger();
    w.addDockWidget(Qt::TopDockWidgetArea, time);
    findAction(&w, "Show Grid")->trigger();
    findAction(&w, "Show Body Frames")->trigger();
    QTRY_COMPARE(w.size(), size);
    QVERIFY(!plots->isVisible());
    w.close();
  }
  MainWindow w;
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  auto* plots = w.findChild<QDockWidget*>("plotDock");
  auto* time = w.findChild<QDockWidget*>("timeDock");
  QTRY_COMPARE(w.size(), size);
  QVERIFY(screen.contains(w.frameGeometry()));
  QVERIFY(!plots->isVisible());
  QCOMPARE(w.dockWidgetArea(time), Qt::TopDockWidgetArea);
  QVERIFY(!w.sceneOptions().grid);
  QVERIFY(w.sceneOptions().bodyFrames);
  QVERIFY(!findAction(&w, "Show Grid")->isChecked());
  // View → Default Layout.
  QAction* reset = findAction(&w, "Default Layout");
  QVERIFY(reset);
  reset->trigger();
  QTRY_VERIFY(plots->isVisible());
  QCOMPARE(w.dockWidgetArea(time), Qt::BottomDockWidgetArea);
  QVERIFY(screen.contains(w.frameGeometry()));
  QVERIFY(!QSettings().contains("window/state"));
  QVERIFY(!w.sceneOptions().grid);  // view options are not layout
}

void TestMainWindow::statusBarShowsSolverStateAndUnits() {
  // The four-bar, written in metres and degrees: "Units: m, deg"; its frames are solved by the kinematics and
  // converge; in dynamic mode the label names the dynamics and its step.
  MainWindow w;
  QStringList errors;
  w.setErrorHandler([&errors](const QString& m) { errors << m; });
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QVERIFY(openAndWait(w, mechanism("fourbar.json")));
  QCOMPARE(w.unitsLabel()->text(), QStringLiteral("Units: m, deg"));
  QVERIFY(w.unitsLabel()->isVisible());
  QLabel* state = w.solverStateLabel();
  QVERIFY2(state->text().startsWith("Kinematics: converged · residual "), qPrintable(state->text()));
  QVERIFY2(state->text().section("residual ", 1).toDouble() < 1e-9, qPrintable(state->text()));
  QVERIFY(state->isVisible());
  // Dynamic mode (D): the dynamics and its step h.
  findAction(&w, "Dynamic mode")->trigger();
  QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().dynamic, 10000);
  findAction(&w, "Step")->trigger();
  waitIdle(w);
  const double h = 1e3 * w.model()->dynamics.timestep;
  QVERIFY2(state->text().startsWith(QStringLiteral("Dynamics: step h = %1 ms").arg(h, 0, 'g', 3)), qPrintable(state->text()));
  findAction(&w, "Dynamic mode")->trigger();
  QTRY_VERIFY_WITH_TIMEOUT(!w.currentFrame().dynamic, 10000);
  waitIdle(w);
  QVERIFY2(state->text().startsWith("Kinematics"), qPrintable(state->text()));
  // A file in millimetres.
  QVERIFY(openAndWait(w, QStringLiteral(MECHSIM_SOURCE_DIR "/tests/data/good/slider_crank_unreachable.json")));
  QCOMPARE(w.unitsLabel()->text(), QStringLiteral("Units: mm, deg"));
  QVERIFY2(errors.isEmpty(), qPrintable(errors.join("; ")));
}

int main(int argc, char** argv) {
  QSurfaceFormat::setDefaultFormat(Viewport::requiredFormat());
  QApplication app(argc, argv);
  TestMainWindow t;
  return QTest::qExec(&t, argc, argv);
}
#include "test_main_window.moc"
