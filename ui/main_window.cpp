// ui/main_window.cpp — window, menus, docks, recent files, drag-and-drop, load errors; frames
// from the controller into the history, the view, the sliders, the plots and the status bar.
#include "ui/main_window.h"

#include "ui/study_dialog.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QPixmap>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShowEvent>
#include <QStatusBar>
#include <QThread>
#include <QToolBar>
#include <QTreeWidget>
#include <QUndoStack>

#include "core/deform/solver.h"
#include "core/io/import/import.h"
#include "core/io/load.h"
#include "core/io/pose_limits.h"
#include "core/io/read_cancel.h"
#include "core/io/read_file.h"
#include "core/io/write.h"
#include "ui/deformable_export.h"
#include "core/io/engine.h"
#include "core/sim/part_surface.h"
#include "ui/pose_spec.h"
#include "ui/dof_panel.h"
#include "ui/parameter_panel.h"
#include "ui/drag_handler.h"
#include "ui/dynamic_mode.h"
#include "ui/plot_dock.h"

#include "ui/timeline.h"
#include "ui/trajectory_export.h"
#include "ui/undo_commands.h"
#include "ui/viewport.h"

namespace mechsim::ui {
namespace {
const char* kRecentKey = "recentFiles";
const char* kLastDirKey = "lastDirectory";
const char* kFloatingBaseKey = "import/floatingBase";
/// Points kept in the trail of the chosen point.
constexpr size_t kTrailPoints = 600;

QString qs(const std::string& s) { return QString::fromStdString(s); }

/// "1 joint", "4 joints".
QString counted(size_t n, const char* one, const char* many) {
  return QStringLiteral("%1 %2").arg(n).arg(QString::fromLatin1(n == 1 ? one : many));
}

QString bodyName(const Model& m, int b) {
  return b >= 0 && b < static_cast<int>(m.bodies.size()) ? qs(m.bodies[b].name) : QStringLiteral("world");
}

/// The stress colour ramp (scene/stress_colours.h), low on the left, as a w × h legend image.
QPixmap stressRampPixmap(int w, int h) {
  QImage img(w, h, QImage::Format_RGB32);
  for (int x = 0; x < w; ++x) {
    const Eigen::Vector4f c = stressRampColour(w > 1 ? double(x) / (w - 1) : 0.0);
    const QRgb rgb = qRgb(int(255 * c.x() + 0.5f), int(255 * c.y() + 0.5f), int(255 * c.z() + 0.5f));
    for (int y = 0; y < h; ++y) img.setPixel(x, y, rgb);
  }
  return QPixmap::fromImage(img);
}

/// A local file among the URLs of a drag, or an empty string.
QString droppedFile(const QMimeData* mime) {
  if (!mime || !mime->hasUrls()) return {};
  for (const QUrl& url : mime->urls())
    if (url.isLocalFile()) return url.toLocalFile();
  return {};
}
}  // namespace

QString mechanismFileFilter() {
  return QObject::tr("Mechanisms (*.json *.urdf *.xml *.mjcf *.sdf *.world);;All files (*)");
}

bool isMechanismFile(const QString& path) {
  const QString ext = QFileInfo(path).suffix().toLower();
  return ext == "json" || ext == "urdf" || ext == "xml" || ext == "sdf";
}

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  // The 3-D view in the middle; a left press on a handle or a body drags it.
  viewport_ = new Viewport(this);
  setCentralWidget(viewport_);
  dragHandler_ = new DragHandler(viewport_, this);
  undo_ = new QUndoStack(this);

  // Status bar: the solver's state (kinematics or dynamics, converged or not, singular, the
  // residual), its figures, the file's units, then the model counts.
  residualLabel_ = new QLabel;
  residualLabel_->setObjectName("solverState");
  solverLabel_ = new QLabel;
  fpsLabel_ = new QLabel;
  fpsLabel_->setObjectName("fpsLabel");
  dofLabel_ = new QLabel;
  unitsLabel_ = new QLabel;
  unitsLabel_->setObjectName("unitsLabel");
  countsLabel_ = new QLabel;
  for (QLabel* l : {residualLabel_, solverLabel_, fpsLabel_, dofLabel_, unitsLabel_, countsLabel_}) statusBar()->addPermanentWidget(l);
  // In a narrow window the model counts (also in the Model tree's headings, and in the label's
  // tooltip) give way first, so that the solver figures and the mobility stay whole. The other
  // labels are clipped rather than widening the window past the screen (a long deformable-solver
  // line: the tooltips say it all).
  countsLabel_->setMinimumWidth(1);
  for (QLabel* l : {solverLabel_, dofLabel_, unitsLabel_}) l->setMinimumWidth(40);
  // The legend of the stress colours: the ramp from low to high and the range it spans.
  stressRamp_ = new QLabel;
  stressRamp_->setPixmap(stressRampPixmap(90, 12));
  stressLabel_ = new QLabel;
  stressLabel_->setObjectName("stressLegend");
  statusBar()->insertPermanentWidget(0, stressLabel_);
  statusBar()->insertPermanentWidget(0, stressRamp_);
  stressRamp_->hide();
  stressLabel_->hide();

  buildMenus();
  buildDocks();
  setAcceptDrops(true);

  // The controller on its worker thread; its frames come back queued to the GUI thread.
  simulation_ = std::make_unique<SimulationThread>();
  simulation_->controller()->setPaced(true);
  connect(simulation_->controller(), &SimulationController::frameReady, this, &MainWindow::onFrame,
          Qt::QueuedConnection);
  connect(simulation_->controller(), &SimulationController::modelInfoReady, this, &MainWindow::onModelInfo,
          Qt::QueuedConnection);
  // The precomputation's progress, while the status bar still says it is preparing this model.
  connect(simulation_->controller(), &SimulationController::deformPreparing, this,
          [this](quintptr model, const QString& text) {
            if (model == reinterpret_cast<quintptr>(model_.get()) &&
                statusBar()->currentMessage().startsWith(tr("Preparing the deformable parts")))
              statusBar()->showMessage(tr("Preparing the deformable parts: %1").arg(text));
          },
          Qt::QueuedConnection);

  // Handle drags: requests to the controller, one undo command per drag.
  connect(dragHandler_, &DragHandler::grabbed, this, &MainWindow::onGrab);
  connect(dragHandler_, &DragHandler::moved, this, [this](const Eigen::Vector3d& target) {
    if (dragging_) simulation_->setDragTarget(target);
    if (deformDragging_) simulation_->setDeformTarget(target);
  });
  connect(dragHandler_, &DragHandler::released, this, [this] {
    if (deformDragging_) {
      // The part springs back on the worker; deformable states are not undone.
      deformDragging_ = false;
      simulation_->endDeformDrag();
      return;
    }
    if (!dragging_) return;
    dragging_ = false;
    simulation_->endDrag();
    const QString what = trailPoint_ ? bodyName(*model_, trailPoint_->body) : tr("point");
    pushStateCommand(tr("Drag %1").arg(what), beforeEdit_, -1);
  });
  fpsClock_.start();
  panelTimer_.setSingleShot(true);
  ackTimer_.setSingleShot(true);
  connect(&ackTimer_, &QTimer::timeout, this, &MainWindow::acknowledgeFrame);
  connect(viewport_, &Viewport::framePainted, this, &MainWindow::acknowledgeFrame);
  connect(&panelTimer_, &QTimer::timeout, this, &MainWindow::showPanels);
  buildEditDocks();
  autosave_ = new Autosave(this);
  // The layout as built is what View → Default Layout goes back to; the saved one replaces it.
  viewMenu_->addSeparator();
  QAction* resetLayout = viewMenu_->addAction(tr("&Default Layout"), this, &MainWindow::resetLayout);
  resetLayout->setObjectName("resetLayoutAction");
  resetLayout->setToolTip(tr("Every dock back where it was at the first start, the window at its default size"));
  defaultState_ = saveState();
  resize(defaultSize());
  restoreSettings();
  fitToScreen();
  updateTitleAndStatus();
}

QSize MainWindow::defaultSize() const {
  // 1440 × 900, or the screen's room when smaller (the frame's title bar and borders aside).
  const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
  const QSize room = s ? s->availableGeometry().size() - (frameGeometry().size() - geometry().size()) : QSize(1440, 900);
  return QSize(1440, 900).boundedTo(room);
}

void MainWindow::fitInto(const QRect& available) {
  // The frame (title bar, borders) as the window system reported it; none before the first show.
  const QSize frame = frameGeometry().size() - geometry().size();
  const QSize room = (available.size() - frame).expandedTo(QSize(1, 1));
  if (size().width() > room.width() || size().height() > room.height()) resize(size().boundedTo(room));
  // Then its frame moved inside (its top left corner first, where the title bar is).
  const QRect f = frameGeometry();
  const int x = std::max(available.left(), std::min(f.left(), available.right() + 1 - f.width()));
  const int y = std::max(available.top(), std::min(f.top(), available.bottom() + 1 - f.height()));
  if (x != f.left() || y != f.top()) move(x, y);
}

void MainWindow::fitToScreen() {
  const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
  if (s) fitInto(s->availableGeometry());
}

void MainWindow::resetLayout() {
  // The docks where they were built, each shown, the window at its default size within the screen.
  restoreState(defaultState_);
  resize(defaultSize());
  if (const QScreen* s = screen()) {
    const QRect a = s->availableGeometry();
    move(a.left() + (a.width() - frameGeometry().width()) / 2, a.top() + (a.height() - frameGeometry().height()) / 2);
  }
  fitToScreen();
  sizeDocks();
  stateRestored_ = false;
  QSettings settings;
  settings.remove("window/geometry");
  settings.remove("window/state");
}

void MainWindow::sizeDocks() {
  // Shares of the window: the side columns about a fifth and a quarter of its width, the plots
  // 30 % of its height, at least what their chart needs.
  auto dock = [this](const char* name) { return findChild<QDockWidget*>(name); };
  resizeDocks({dock("modelDock"), dock("dofDock")}, {std::min(340, width() * 22 / 100), std::min(420, width() * 27 / 100)},
              Qt::Horizontal);
  resizeDocks({dock("plotDock")}, {std::max(PlotPanel::kMinChartHeight + 30, height() * 3 / 10)}, Qt::Vertical);
}

void MainWindow::showEvent(QShowEvent* e) {
  QMainWindow::showEvent(e);
  if (e->spontaneous() || shown_) return;
  shown_ = true;
  // Once shown, the frame's size is known: the window is kept within the screen with it; a layout
  // not restored from the last session is sized to the window.
  if (!fitsScreen_) return;
  QTimer::singleShot(0, this, [this] {
    fitToScreen();
    if (!stateRestored_) sizeDocks();
  });
}

MainWindow::~MainWindow() {
  // Stop the worker before the model it may still use goes away.
  simulation_.reset();
}

void MainWindow::buildMenus() {
  // File
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
  open->setShortcut(QKeySequence::Open);
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::refreshRecentMenu);
  reloadAction_ = file->addAction(tr("Re&load"), this, &MainWindow::reload);
  reloadAction_->setShortcut(QKeySequence(Qt::Key_F5));
  // A URDF's root link is bolted to the world, as ROS tools take it, unless this is checked: then
  // it floats free (a legged robot, a humanoid; `mechsim-cli … --floating-base`). Kept across
  // sessions; toggling it opens the current URDF again. Other formats say in the file what floats.
  floatingBaseAction_ = file->addAction(tr("URDF Root &Floats"));
  floatingBaseAction_->setCheckable(true);
  floatingBaseAction_->setChecked(QSettings().value(kFloatingBaseKey, false).toBool());
  floatingBaseAction_->setToolTip(tr("Open URDF files with their root link free (6 DOF) instead of fixed to the world"));
  connect(floatingBaseAction_, &QAction::toggled, this, [this](bool on) {
    QSettings().setValue(kFloatingBaseKey, on);
    if (!currentFile_.isEmpty() && io::importFormatOf(currentFile_.toStdString()) == io::ImportFormat::Urdf) reload();
  });
  saveAsAction_ = file->addAction(tr("Save &As…"), this, &MainWindow::saveAsDialog);
  saveAsAction_->setShortcut(QKeySequence::SaveAs);
  QAction* exp = file->addAction(tr("&Export Trajectory…"), this, &MainWindow::exportDialog);
  exp->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  exportDeformAction_ = file->addAction(tr("Export &Deformables (VTK)…"), this, &MainWindow::exportDeformablesDialog);
  exportDeformAction_->setEnabled(false);
  file->addAction(tr("Record &Video…"), this, &MainWindow::recordVideoDialog)->setObjectName("recordVideoAction");
  file->addAction(tr("Run &Study…"), this, &MainWindow::studyDialog);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  refreshRecentMenu();

  // Edit: undo / redo of slider moves and drags.
  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* undo = undo_->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction* redo = undo_->createRedoAction(this, tr("&Redo"));
  redo->setShortcuts({QKeySequence::Redo, QKeySequence(Qt::CTRL | Qt::Key_Y)});
  edit->addAction(undo);
  edit->addAction(redo);

  // View
  viewMenu_ = menuBar()->addMenu(tr("&View"));
  QMenu* view = viewMenu_;
  QAction* fit = view->addAction(tr("&Fit to View"), viewport_, &Viewport::fitToView);
  fit->setShortcut(QKeySequence(Qt::Key_F));
  view->addSeparator();
  auto toggle = [&](const QString& text, bool SceneOptions::*flag, const QString& key) {
    QAction* a = view->addAction(text);
    a->setCheckable(true);
    a->setObjectName(key);
    a->setChecked(options_.*flag);
    connect(a, &QAction::toggled, this, [this, flag, key](bool on) {
      options_.*flag = on;
      QSettings().setValue("view/" + key, on);
      rebuildScene(false);
    });
    return a;
  };
  toggle(tr("Show &Grid"), &SceneOptions::grid, "grid");
  toggle(tr("Show World &Axes"), &SceneOptions::axes, "axes");
  toggle(tr("Show &Joints"), &SceneOptions::joints, "joints");
  toggle(tr("Show Joint A&xes"), &SceneOptions::jointAxes, "jointAxes");
  toggle(tr("Show &Body Frames"), &SceneOptions::bodyFrames, "bodyFrames")->setShortcut(QKeySequence(Qt::Key_B));
  toggle(tr("Show &Handles"), &SceneOptions::handles, "handles");
  toggle(tr("Show &Trail"), &SceneOptions::trail, "trail");
  toggle(tr("Show C&ontacts"), &SceneOptions::contacts, "contacts");
  // Deformable parts coloured by their von Mises stress (legend in the status bar).
  QAction* stress = view->addAction(tr("Colour Deformables by &Stress"));
  stress->setCheckable(true);
  stress->setObjectName("stressColours");
  connect(stress, &QAction::toggled, this, [this](bool on) {
    stressColouring_ = on;
    stressHold_.reset();
    QSettings().setValue("view/stressColours", on);
    if (simulation_) simulation_->setStressColouring(on);
    rebuildScene(false);
  });
  QAction* clearTrail = view->addAction(tr("C&lear Trail"));
  connect(clearTrail, &QAction::triggered, this, [this] {
    trail_.clear();
    rebuildScene(false);
  });
  view->addSeparator();
  // The solver behind handle drags and slider moves (drag.h): Newton's position analysis at each
  // new target, or continuation along the path between targets.
  QMenu* solver = view->addMenu(tr("Drag &Solver"));
  auto* solvers = new QActionGroup(this);
  QAction* newton = solver->addAction(tr("&Newton (least-squares steps)"));
  newton->setCheckable(true);
  newton->setChecked(true);
  newton->setObjectName("dragSolverNewton");
  solvers->addAction(newton);
  connect(newton, &QAction::triggered, this, [this] {
    simulation_->setDragMethod(sim::DragMethod::Newton);
    QSettings().setValue("drag/solver", "newton");
  });
  // Continuation along the ANM path (paper 004): drags and slider moves keep their branch.
  QAction* anmSolver = solver->addAction(tr("&Continuation (ANM)"));
  anmSolver->setCheckable(true);
  anmSolver->setObjectName("dragSolverAnm");
  solvers->addAction(anmSolver);
  connect(anmSolver, &QAction::triggered, this, [this] {
    simulation_->setDragMethod(sim::DragMethod::Anm);
    QSettings().setValue("drag/solver", "anm");
  });
  view->addSeparator();

  // Simulation: time.
  QMenu* sim = menuBar()->addMenu(tr("&Simulation"));
  playAction_ = sim->addAction(tr("&Play"));
  playAction_->setObjectName("playAction");
  playAction_->setCheckable(true);
  playAction_->setShortcut(QKeySequence(Qt::Key_Space));
  connect(playAction_, &QAction::toggled, this, [this](bool on) {
    playAction_->setText(on ? tr("&Pause") : tr("&Play"));
    if (!simulation_) return;
    if (on) simulation_->play();
    else simulation_->pause();
  });
  stepAction_ = sim->addAction(tr("&Step"));
  stepAction_->setShortcut(QKeySequence(Qt::Key_Period));
  connect(stepAction_, &QAction::triggered, this, [this] {
    const QSignalBlocker block(playAction_);
    playAction_->setChecked(false);
    playAction_->setText(tr("&Play"));
    simulation_->stepOnce();
  });
  resetAction_ = sim->addAction(tr("&Reset"));
  resetAction_->setShortcut(QKeySequence(Qt::Key_Home));
  connect(resetAction_, &QAction::triggered, this, [this] {
    const QSignalBlocker block(playAction_);
    playAction_->setChecked(false);
    playAction_->setText(tr("&Play"));
    undo_->clear();
    simulation_->reset();
  });
  // Dynamic mode (ui/dynamic_mode.h): menu action and toolbar toggle, key D.
  sim->addSeparator();
  QAction* dynamicAction = sim->addAction(tr("&Dynamic mode"));
  dynamicAction->setObjectName("dynamicModeAction");
  dynamicAction->setCheckable(true);
  dynamicAction->setShortcut(QKeySequence(Qt::Key_D));
  dynamicAction->setToolTip(tr("Dynamic mode: the mechanism moves under gravity and its forces; drag a body to pull it with a spring (D)"));
  connect(dynamicAction, &QAction::toggled, this, [this](bool on) {
    if (on && autosave_) autosave_->saveNow();  // the forward dynamics may run long
    if (simulation_) simulation_->setDynamic(on);
  });
  // The solver of the deformable parts' implicit-Euler steps (docs/deform.md), for all parts at
  // once; "From the File" gives each part its own "solver" back. The run restarts at t = 0.
  deformSolverMenu_ = sim->addMenu(tr("Deformable &Solver"));
  deformSolverMenu_->setObjectName("deformSolverMenu");
  deformSolverMenu_->setEnabled(false);
  deformSolvers_ = new QActionGroup(this);
  const std::pair<QString, QString> deformMethods[] = {
      {QString(), tr("From the &File")},
      {QStringLiteral("newton"), tr("&Newton (sparse direct)")},
      {QStringLiteral("vbd"), tr("&VBD (coloured Gauss–Seidel)")},
      {QStringLiteral("jacobi"), tr("&Jacobi (per vertex)")},
      {QStringLiteral("jgs2-jacobi"), tr("JGS2 J&acobi")},
      {QStringLiteral("jgs2-gs"), tr("JGS2 &Gauss–Seidel")}};
  for (const auto& [method, text] : deformMethods) {
    QAction* a = deformSolverMenu_->addAction(text);
    a->setCheckable(true);
    a->setData(method);
    a->setChecked(method.isEmpty());
    a->setObjectName(QStringLiteral("deformSolver-%1").arg(method.isEmpty() ? QStringLiteral("file") : method));
    deformSolvers_->addAction(a);
    connect(a, &QAction::triggered, this, [this, method] { setDeformableSolver(method); });
    if (method.isEmpty()) deformSolverMenu_->addSeparator();
  }
  QToolBar* simBar = addToolBar(tr("Simulation"));
  simBar->setObjectName("simulationToolBar");
  simBar->addAction(dynamicAction);

  // Mechanism
  QMenu* mech = menuBar()->addMenu(tr("&Mechanism"));
  QAction* report = mech->addAction(tr("&Report…"), this, &MainWindow::showReport);
  report->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
  buildEditMenus(file, edit, mech);

  buildMeasureMenu();

  // Help
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About mechsim"), this, &MainWindow::about);
}

QDockWidget* MainWindow::addDock(const QString& title, const char* name, QWidget* w, Qt::DockWidgetArea area) {
  auto* d = new QDockWidget(title, this);
  d->setObjectName(name);
  d->setWidget(w);
  addDockWidget(area, d);
  viewMenu_->addAction(d->toggleViewAction());
  docks_.push_back(d);
  return d;
}

void MainWindow::buildDocks() {
  auto dock = [this](const QString& title, const char* name, QWidget* w, Qt::DockWidgetArea area) {
    return addDock(title, name, w, area);
  };
  // The model tree.
  tree_ = new QTreeWidget;
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Name"), tr("Details")});
  // Both columns as wide as their texts (a narrow dock scrolls sideways rather than eliding the details).
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  tree_->header()->setStretchLastSection(false);
  tree_->setUniformRowHeights(true);
  QDockWidget* modelDock = dock(tr("Model"), "modelDock", tree_, Qt::LeftDockWidgetArea);

  // DOF sliders.
  dofPanel_ = new DofPanel;
  auto* scroll = new QScrollArea;
  scroll->setWidget(dofPanel_);
  scroll->setWidgetResizable(true);
  QDockWidget* dofDock = dock(tr("Degrees of Freedom"), "dofDock", scroll, Qt::RightDockWidgetArea);
  connect(dofPanel_, &DofPanel::editStarted, this, [this](int) {
    if (editing_) return;
    editing_ = true;
    beforeEdit_ = frame_.state();
  });
  connect(dofPanel_, &DofPanel::valueRequested, this, [this](int i, double v) { simulation_->setDofValue(i, v); });
  connect(dofPanel_, &DofPanel::editFinished, this, [this](int i, bool oneShot) {
    if (!editing_) return;
    editing_ = false;
    pushStateCommand(tr("Move %1").arg(qs(dofPanel_->dof(i).name)), beforeEdit_, oneShot ? kDofMergeBase + i : -1);
  });
  connect(dofPanel_, &DofPanel::followRequested, this, [this](int i, bool on) { simulation_->setDofFollows(i, on); });

  // Time bar.
  timeline_ = new Timeline(playAction_, stepAction_, resetAction_);
  timeline_->setMaximumHeight(timeline_->sizeHint().height());
  QDockWidget* timeDock = dock(tr("Time"), "timeDock", timeline_, Qt::BottomDockWidgetArea);
  connect(timeline_, &Timeline::scrubbed, this, &MainWindow::onScrub);
  connect(timeline_, &Timeline::speedChanged, this, [this](double s) {
    simulation_->setSpeed(s);
    QSettings().setValue("time/speed", s);
  });

  // Plots.
  plots_ = new PlotPanel(&history_);
  QDockWidget* plotDock = dock(tr("Plots"), "plotDock", plots_, Qt::BottomDockWidgetArea);
  // The plots under the time bar, both the window's width: side by side the chart got what the
  // time bar left (130 px at 1100 px, its time labels elided to "...").
  splitDockWidget(timeDock, plotDock, Qt::Vertical);
  resizeDocks({modelDock, dofDock}, {280, 340}, Qt::Horizontal);
  resizeDocks({timeDock, plotDock}, {40, 220}, Qt::Vertical);
}

void MainWindow::restoreSettings() {
  // The window's size, place and dock layout of the last session (fitted to the screen after: a
  // smaller screen now, or another one).
  QSettings s;
  if (s.contains("window/geometry")) restoreGeometry(s.value("window/geometry").toByteArray());
  if (s.contains("window/state")) stateRestored_ = restoreState(s.value("window/state").toByteArray());
  // View options: the toggles carry their keys as object names.
  for (QAction* a : viewMenu_->actions()) {
    const QString key = a->objectName();
    if (!key.isEmpty() && a->isCheckable() && s.contains("view/" + key)) a->setChecked(s.value("view/" + key).toBool());
  }
  if (s.contains("time/speed")) timeline_->speedBox()->setValue(s.value("time/speed").toDouble());
  // The drag solver chosen last time.
  if (s.value("drag/solver").toString() == "anm")
    if (auto* a = findChild<QAction*>("dragSolverAnm")) a->trigger();
}

void MainWindow::saveSettings() {
  QSettings s;
  s.setValue("window/geometry", saveGeometry());
  s.setValue("window/state", saveState());
}

void MainWindow::closeEvent(QCloseEvent* e) {
  // A modified mechanism: Save, Discard or Cancel; its autosaved copy goes once the window closes.
  if (isWindowModified() && spec_) {
    int answer = 1;
    if (closeHandler_) {
      answer = closeHandler_();
    } else {
      const auto b = QMessageBox::question(this, tr("Unsaved changes"),
                                           tr("The mechanism has changes that are not saved. Save them before closing?"),
                                           QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
      answer = b == QMessageBox::Save ? 0 : b == QMessageBox::Discard ? 1 : 2;
    }
    if (answer == 2 || (answer == 0 && !save())) {
      e->ignore();
      return;
    }
  }
  autosave_->clear();
  saveSettings();
  QMainWindow::closeEvent(e);
}

bool MainWindow::openFile(const QString& path) {
  // Read and compile first, on a worker thread; only a model that loaded replaces the one shown.
  // A file that takes long (large mesh files; a hostile one runs into the mesh reader's time
  // limit) shows a progress dialog after 300 ms whose Cancel stops the mesh reads at once
  // (io::ReadCancelScope); a quick one looks as it always did. The worker's state is shared, not
  // borrowed from this frame.
  struct Load {
    std::atomic<bool> cancel{false};
    std::shared_ptr<const Model> model;
    std::shared_ptr<const MechanismSpec> spec;
    std::vector<std::shared_ptr<const MeshData>> surfaces;  // the deformable parts at rest
    io::FileComments comments;  // a native file's, for Save
    std::size_t readerWarnings = 0;  // spec->warnings before the pose-limit ones (core/io/pose_limits.h)
    QString error;
  };
  const auto load = std::make_shared<Load>();
  io::ImportOptions import;  // File → URDF Root Floats, for URDF files only
  import.floatingBase = floatingBaseAction_ && floatingBaseAction_->isChecked() &&
                        io::importFormatOf(path.toStdString()) == io::ImportFormat::Urdf;
  QThread* worker = QThread::create([load, path, import] {
    io::ReadCancelScope scope(load->cancel);
    try {
      auto s = std::make_shared<MechanismSpec>(io::readMechanismFile(path.toStdString(), import));
      load->model = std::make_shared<const Model>(io::compileSpec(*s));
      load->readerWarnings = s->warnings.size();
      io::addPoseLimitWarnings(*s, *load->model);  // a starting pose outside a joint's limits
      load->surfaces = sim::restSurfaces(*s);
      load->spec = std::move(s);
      // Its comments, for Save; a file whose comments cannot be taken still opens (Save drops them).
      if (QFileInfo(path).suffix().toLower() == "json") try {
          load->comments = io::readComments(io::readMechanismText(path.toStdString(), std::uintmax_t(1) << 30).text);
        } catch (const std::exception&) {
          load->comments = io::FileComments{};
        }
    } catch (const io::LoadError& e) {
      load->error = QString::fromStdString(e.what());
    } catch (const std::exception& e) {
      load->error = QStringLiteral("%1: error: %2").arg(path, QString::fromStdString(e.what()));
    }
  });
  worker->start();
  if (!worker->wait(QDeadlineTimer(300))) {
    QProgressDialog progress(tr("Opening %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 0, this);
    progress.setObjectName("openProgress");
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    progress.setAutoClose(false);
    progress.setAutoReset(false);
    connect(&progress, &QProgressDialog::canceled, this, [&] {
      load->cancel = true;
      progress.setLabelText(tr("Cancelling…"));
    });
    progress.show();
    while (!worker->wait(QDeadlineTimer(20))) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  delete worker;
  if (load->cancel.load()) {
    lastError_.clear();
    statusBar()->showMessage(tr("Opening %1 cancelled; the mechanism shown is unchanged").arg(path), 5000);
    return false;
  }
  if (!load->error.isEmpty()) {
    reportError(load->error);
    return false;
  }
  std::shared_ptr<const Model> model = std::move(load->model);
  std::shared_ptr<const MechanismSpec> spec = std::move(load->spec);
  lastError_.clear();
  currentFile_ = QFileInfo(path).absoluteFilePath();
  comments_ = std::move(load->comments);
  addRecent(currentFile_);
  fileSolvers_.clear();
  for (const DeformableSpec& d : spec->deformables) fileSolvers_.push_back(d.solver);
  checkDeformableSolver(QString());  // a new file starts with its own solvers
  deformSolverMenu_->setEnabled(!spec->deformables.empty());
  exportDeformAction_->setEnabled(!spec->deformables.empty());
  restSurfaces_ = std::move(load->surfaces);
  // The load's warnings, a starting pose outside a joint's limits (core/io/pose_limits.h) first,
  // then what the reader worked around: the first in the status bar, all in its tooltip — unless
  // the deformable parts' preparation shows there.
  std::vector<std::string> warnings(spec->warnings.begin() + static_cast<long>(std::min(load->readerWarnings, spec->warnings.size())),
                                    spec->warnings.end());
  warnings.insert(warnings.end(), spec->warnings.begin(),
                  spec->warnings.begin() + static_cast<long>(std::min(load->readerWarnings, spec->warnings.size())));
  const bool preparing = showMechanism(std::move(model), std::move(spec), /*fit=*/true);
  QString all;
  for (const std::string& w : warnings) all += (all.isEmpty() ? "" : "\n") + QString::fromStdString(w);
  statusBar()->setToolTip(all);
  if (!warnings.empty() && !preparing)
    statusBar()->showMessage(warnings.size() == 1 ? QString::fromStdString(warnings[0])
                                                  : tr("%1 (and %n more warning(s))", nullptr, int(warnings.size()) - 1)
                                                        .arg(QString::fromStdString(warnings[0])),
                             20000);
  emit modelLoaded(currentFile_);
  return true;
}

bool MainWindow::setDeformableSolver(const QString& method) {
  if (!spec_ || spec_->deformables.empty()) return false;
  autosave_->saveNow();  // a precomputation may follow: long
  if (!method.isEmpty() && !deform::methodFromString(method.toStdString())) return false;
  auto spec = std::make_shared<MechanismSpec>(*spec_);
  for (std::size_t k = 0; k < spec->deformables.size(); ++k)
    spec->deformables[k].solver = method.isEmpty() ? fileSolvers_[k] : method.toStdString();
  checkDeformableSolver(method);
  if (!showMechanism(model_, std::move(spec), /*fit=*/false))  // else its precomputation message stays
    statusBar()->showMessage(tr("Deformable parts: %1; the run restarts at t = 0")
                                 .arg(method.isEmpty() ? tr("each part's solver from the file") : method),
                             5000);
  return true;
}

QString MainWindow::deformableSolver() const {
  const QAction* a = deformSolvers_->checkedAction();
  return a ? a->data().toString() : QString();
}

void MainWindow::checkDeformableSolver(const QString& method) {
  for (QAction* a : deformSolvers_->actions())
    if (a->data().toString() == method) a->setChecked(true);
}

bool MainWindow::showMechanism(std::shared_ptr<const Model> model, std::shared_ptr<const MechanismSpec> spec,
                               bool fit) {
  model_ = std::move(model);
  stressHold_.reset();
  spec_ = std::move(spec);
  info_ = ModelInfo{};
  fillTree();
  updateTitleAndStatus();

  // A fresh session: no history, no undo, no selection.
  history_.clear();
  scrubIndex_ = -1;
  singular_.clear();
  lastSingular_ = false;
  undo_->clear();
  gridCache_ = Scene{};
  selectedBody_ = selectedJoint_ = selectedHandle_ = -1;
  selection_.reset();
  cancelTool();
  inspector_->showItem(spec_.get(), std::nullopt);
  parameters_->setParameters(spec_.get());
  pendingEdit_ = PendingEdit{};
  gestureBefore_.reset();
  setWindowModified(false);
  trailPoint_.reset();
  trail_.clear();
  measures_.clear();  // their points belonged to the bodies of the mechanism shown before
  for (int& c : measureCount_) c = 0;
  traceFrames_ = -1;
  dragging_ = false;
  editing_ = false;
  dofPanel_->setDofs({});
  plots_->setModel(model_);
  {
    const QSignalBlocker block(playAction_);
    playAction_->setChecked(false);
    playAction_->setText(tr("&Play"));
  }

  // Show the file's configuration at once, with its deformable parts at rest (the view fits to them
  // too), then let the controller take over: its frames bring the parts once built and precomputed.
  Frame first = initialFrame(model_);
  first.deformables = restSurfaces_;
  showFrame(first, fit);
  simulation_->setSpeed(timeline_->speed());
  simulation_->setModel(model_, spec_);
  // JGS2 parts are precomputed on the worker before the first frame (seconds to a minute).
  int jgs2Tets = 0;
  for (const DeformableSpec& d : spec_->deformables)
    if (d.solver.rfind("jgs2", 0) == 0) jgs2Tets += static_cast<int>(d.tets.size());
  if (jgs2Tets > 0)
    statusBar()->showMessage(tr("Preparing the deformable parts: JGS2 precomputation on %1 tets …").arg(jgs2Tets));
  return jgs2Tets > 0;
}

void MainWindow::reportError(const QString& message) {
  lastError_ = message;
  statusBar()->showMessage(tr("Load failed: %1").arg(message), 10000);
  if (errorHandler_) {
    errorHandler_(message);
    return;
  }
  QMessageBox::critical(this, tr("Cannot open mechanism"), message);
}

void MainWindow::openDialog() {
  QSettings settings;
  const QString dir = settings.value(kLastDirKey, QFileInfo(currentFile_).absolutePath()).toString();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Mechanism"), dir, mechanismFileFilter());
  if (path.isEmpty()) return;
  settings.setValue(kLastDirKey, QFileInfo(path).absolutePath());
  openFile(path);
}

void MainWindow::reload() {
  if (!currentFile_.isEmpty()) openFile(currentFile_);
}

void MainWindow::about() {
  QMessageBox::about(this, tr("About mechsim"),
                     tr("<b>mechsim</b> %1<br>Kinematic and dynamic mechanism simulator.<br><br>"
                        "Left drag on a handle or a body: drag it (Ctrl: along an axis)<br>"
                        "Left drag elsewhere or Alt+left: orbit &nbsp; Middle / Shift+left drag: pan &nbsp; "
                        "Wheel: zoom &nbsp; F: fit<br>Space: play / pause &nbsp; .: step &nbsp; Home: reset")
                         .arg(QCoreApplication::applicationVersion()));
}

bool MainWindow::saveAs(const QString& path) {
  if (!spec_) {
    lastError_ = tr("No mechanism to save");
    return false;
  }
  try {
    // At the pose reached (sliders, drags), not as loaded (ui/pose_spec.h).
    const bool posed = model_ && frame_.poses.size() == model_->bodies.size() && frame_.coords.size() == model_->nCoords;
    // With the file's comments where they stood (core/io/comments.h) and its parameters.
    io::writeMechanismFile(posed ? specAtPose(*spec_, *model_, frame_.poses, frame_.coords) : *spec_, path.toStdString(),
                           comments_);
  } catch (const std::exception& e) {
    lastError_ = QStringLiteral("%1: error: %2").arg(path, QString::fromStdString(e.what()));
    return false;
  }
  lastError_.clear();
  // The saved file is the document from now on (Save writes it again); no copy is needed now.
  currentFile_ = QFileInfo(path).absoluteFilePath();
  setWindowModified(false);
  autosave_->clear();
  updateTitleAndStatus();
  statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
  return true;
}

void MainWindow::saveAsDialog() {
  if (!spec_) return;
  const QString path = QFileDialog::getSaveFileName(this, tr("Save Mechanism As"), currentFile_, tr("Mechanisms (*.json)"));
  if (path.isEmpty()) return;
  if (!saveAs(path)) QMessageBox::critical(this, tr("Cannot save"), lastError_);
}

void MainWindow::studyDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Run Study"), QString(), tr("Study files (*.json)"));
  if (!path.isEmpty()) openStudy(path);
}

StudyDialog* MainWindow::openStudy(const QString& studyFile) {
  autosave_->saveNow();  // a study keeps every core busy
  auto* d = new StudyDialog(studyFile, this);
  if (!d->isValid()) {
    reportError(d->errorText());
    delete d;
    return nullptr;
  }
  d->setAttribute(Qt::WA_DeleteOnClose);
  connect(d, &StudyDialog::openMechanism, this, [this](const QString& path) { openFile(path); });
  d->show();
  return d;
}

void MainWindow::exportDialog() {
  if (!model_) return;
  const QString suggested = QFileInfo(currentFile_).absolutePath() + "/" + QFileInfo(currentFile_).completeBaseName() +
                            "-trajectory.csv";
  ExportDialog dlg(suggested, history_.size(), this);
  if (dlg.exec() != QDialog::Accepted) return;
  if (!exportTrajectory(dlg.request()) && !lastError_.isEmpty())
    QMessageBox::critical(this, tr("Export failed"), lastError_);
}

void MainWindow::exportDeformablesDialog() {
  if (!spec_ || spec_->deformables.empty()) return;
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Export Deformables to Folder"),
                                                        QFileInfo(currentFile_).absolutePath());
  if (dir.isEmpty()) return;
  if (!exportDeformables(dir) && !lastError_.isEmpty()) QMessageBox::critical(this, tr("Export failed"), lastError_);
}

bool MainWindow::exportDeformables(const QString& dir) {
  if (!spec_ || spec_->deformables.empty()) {
    lastError_ = tr("No deformable parts");
    return false;
  }
  if (!QFileInfo(dir).isDir()) {
    lastError_ = QStringLiteral("%1: error: not a folder").arg(dir);
    return false;
  }
  // A copy of what the history holds now (shared surfaces, no copies of the meshes): frames keep
  // arriving while the progress dialog runs the event loop.
  std::vector<SurfaceFrame> frames;
  for (int i = 0; i < history_.size(); ++i)
    frames.push_back({history_.at(i).t, history_.at(i).deformables, history_.at(i).deformableStress});
  std::vector<std::string> names;
  for (const DeformableSpec& d : spec_->deformables) names.push_back(d.name);
  QProgressDialog progress(tr("Exporting the deformable parts…"), tr("Cancel"), 0, 1, this);
  progress.setObjectName("exportDeformProgress");
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(300);
  std::string error;
  const bool ok = writeSurfaceSeries(dir.toStdString(), names, frames, [&](int done, int total) {
    progress.setMaximum(total);
    progress.setValue(done);  // runs the event loop (modal dialog): the Cancel button is live
    return !progress.wasCanceled();
  }, error);
  progress.setValue(progress.maximum());
  if (!ok && error.empty()) {
    lastError_.clear();
    statusBar()->showMessage(tr("Export cancelled; nothing written"), 5000);
    return false;
  }
  if (!ok) {
    lastError_ = QStringLiteral("%1: error: %2").arg(dir, QString::fromStdString(error));
    return false;
  }
  lastError_.clear();
  statusBar()->showMessage(tr("Exported %n frame(s) of the deformable parts to %1", nullptr, int(frames.size())).arg(dir), 5000);
  return true;
}

bool MainWindow::exportTrajectory(const ExportRequest& req) {
  if (!model_) {
    lastError_ = tr("No mechanism");
    return false;
  }
  // The work runs on its own thread; this thread shows the progress and takes the cancel.
  std::atomic<bool> cancel{false};
  std::atomic<int> permille{0};
  std::string error;
  bool cancelled = false;
  const std::string path = req.path.toStdString();
  std::vector<io::TrajectoryFrame> recorded;
  if (!req.kinematicRun) recorded = history_.trajectory(0, history_.size() - 1);
  // Dynamic frames add energy and reaction columns (ui/dynamic_mode.h).
  // Then the traced points' and measures' columns (ui/measures.h), for the recorded rows here and
  // for a kinematic run's rows once computed.
  std::vector<std::string> extraColumns =
      req.kinematicRun ? std::vector<std::string>{} : addDynamicColumns(*model_, history_, recorded);
  const std::vector<Measure> measures = measures_;
  if (!req.kinematicRun) appendMeasureColumns(*model_, measures, recorded, extraColumns);
  else
    for (const Measure& ms : measures)
      for (const std::string& c : measureColumns(ms)) extraColumns.push_back(c);
  const std::shared_ptr<const Model> fileModel = model_;
  const std::shared_ptr<const MechanismSpec> spec = spec_;
  const VecX qStart = frame_.q;
  QThread* worker = QThread::create([&] {
    try {
      std::vector<io::TrajectoryFrame> frames;
      if (req.kinematicRun) {
        // The engine's model of the rigid mechanism (its Data binds its own driver expressions).
        sim::Options o;
        o.rangeBudgetSeconds = 0;  // no sliders shown
        o.deformables = false;
        const sim::Model m = spec ? io::compileEngine(spec, o) : sim::compile(nullptr, fileModel, o);
        frames = kinematicRun(m, qStart, req.range, &cancel, [&](double f) { permille = static_cast<int>(900 * f); }, &error);
        std::vector<std::string> unused;
        appendMeasureColumns(*fileModel, measures, frames, unused);
      } else {
        frames = std::move(recorded);
      }
      if (cancel.load() || !error.empty()) return;
      permille = 950;
      writeTrajectoryWithColumns(path, *fileModel, frames, extraColumns);
      permille = 1000;
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  QProgressDialog progress(tr("Exporting trajectory…"), tr("Cancel"), 0, 1000, this);
  progress.setObjectName("exportProgress");
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(300);
  connect(&progress, &QProgressDialog::canceled, this, [&] { cancel = true; });
  worker->start();
  while (!worker->wait(QDeadlineTimer(20))) {
    if (progress.wasCanceled()) cancel = true;
    progress.setValue(std::min(permille.load(), 999));
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  delete worker;
  cancelled = cancel.load();
  progress.setValue(1000);
  if (cancelled) {
    lastError_.clear();
    statusBar()->showMessage(tr("Export cancelled; nothing written"), 5000);
    return false;
  }
  if (!error.empty()) {
    lastError_ = QStringLiteral("%1: error: %2").arg(req.path, QString::fromStdString(error));
    return false;
  }
  lastError_.clear();
  statusBar()->showMessage(tr("Exported %1").arg(req.path), 5000);
  return true;
}

void MainWindow::showReport() {
  if (!model_) return;
  ReportDialog dlg(info_, singular_, this);
  dlg.exec();
}

void MainWindow::onModelInfo(const ModelInfo& info) {
  if (!model_ || info.model != model_) return;
  info_ = info;
  dofPanel_->setDofs(info.dofs);
  updateSolverStatus();
  // What the worker could not set up (deformable parts, the working model) is said; the rest runs.
  if (!info.message.empty())
    statusBar()->showMessage(qs(info.message), 20000);
  else if (statusBar()->currentMessage().startsWith(tr("Preparing the deformable parts")))
    statusBar()->clearMessage();
  emit modelInfoShown();
}

void MainWindow::acknowledgeFrame() {
  ackTimer_.stop();
  if (!ackPending_) return;
  ackPending_ = false;
  simulation_->controller()->frameShown();
}

void MainWindow::onFrame(const Frame& frame) {
  // Each frame is acknowledged once: at once, or (dragging, view visible) when it has been painted.
  acknowledgeFrame();
  if ((frame.dragging || frame.deformDragging) && viewport_->isVisible()) {
    ackPending_ = true;
    ackTimer_.start(kAckTimeoutMs);
  } else {
    simulation_->controller()->frameShown();
  }
  // Frames of a model that was replaced meanwhile are dropped.
  if (!model_ || frame.model != model_) return;
  if (frame.startsHistory) {
    history_.clear();
    scrubIndex_ = -1;
    singular_.clear();
    lastSingular_ = false;
    trail_.clear();
  }
  if (frame.recorded) {
    // Going on from a scrubbed point replaces what was recorded after it.
    if (scrubIndex_ >= 0) history_.truncateAfter(scrubIndex_), scrubIndex_ = -1;
    history_.append(frame);
    plots_->historyChanged();
    // Singular positions met, once per visit.
    if (frame.stats.singular && !lastSingular_)
      singular_.push_back({frame.t, frame.dofValues, frame.stats.rank});
    lastSingular_ = frame.stats.singular;
  }
  // The trail of the chosen point.
  if (trailPoint_ && frame.recorded) {
    trail_.push_back(dragPointPosition(*model_, frame.q, *trailPoint_));
    while (trail_.size() > kTrailPoints) trail_.pop_front();
  }
  showFrame(frame, /*fit=*/false);
  // Frames per second over the last second.
  ++fpsFrames_;
  if (fpsClock_.elapsed() >= 1000) {
    fps_ = 1000.0 * fpsFrames_ / fpsClock_.restart();
    fpsFrames_ = 0;
  }
  // The real-time factor: the simulated time the frames advanced per second of wall time, over
  // about a second of play (1: play keeps up with the clock at speed 1×). Paused, or when time
  // went back (a reset, a scrub), it starts again.
  if (!frame.playing) {
    realTimeFactor_ = 0, rtfT0_ = -1;
  } else if (rtfT0_ < 0 || frame.t < rtfTLast_) {
    rtfT0_ = frame.t;
    rtfClock_.start();
  } else if (rtfClock_.elapsed() >= 1000) {
    realTimeFactor_ = (frame.t - rtfT0_) / (rtfClock_.restart() * 1e-3);
    rtfT0_ = frame.t;
  }
  rtfTLast_ = frame.t;
  // While a handle is dragged the view shows every frame, but the sliders, the time bar and the
  // status bar follow at most every kPanelIntervalMs: widgets repainting at the frame rate cost
  // a software-rendered desktop nearly as much as the 3-D view, for changes no one can read at
  // that rate. The timer shows the last frame of the drag once the frames stop.
  if ((frame.dragging || frame.deformDragging) && panelClock_.isValid() && panelClock_.elapsed() < kPanelIntervalMs) {
    if (!panelTimer_.isActive()) panelTimer_.start(int(kPanelIntervalMs - panelClock_.elapsed()));
  } else {
    showPanels();
  }
  emit frameShown(frame.serial);
}

void MainWindow::showPanels() {
  panelTimer_.stop();
  panelClock_.start();
  const Frame& frame = frame_;
  dofPanel_->showFrame(frame);
  if (playAction_->isChecked() != frame.playing) {
    const QSignalBlocker block(playAction_);
    playAction_->setChecked(frame.playing);
    playAction_->setText(frame.playing ? tr("&Pause") : tr("&Play"));
  }
  const int n = history_.size();
  timeline_->setHistory(n, scrubIndex_ >= 0 ? scrubIndex_ : n - 1, frame.t);
  updateSolverStatus();
  showDynamicModeStatus(this, findChild<QAction*>("dynamicModeAction"), frame);
}

void MainWindow::onScrub(int index) {
  if (!model_ || index < 0 || index >= history_.size()) return;
  // Time stops; the recorded frame is shown and becomes the controller's state.
  {
    const QSignalBlocker block(playAction_);
    playAction_->setChecked(false);
    playAction_->setText(tr("&Play"));
  }
  simulation_->pause();
  scrubIndex_ = index;
  const Frame& f = history_.at(index);
  showFrame(f, false);
  dofPanel_->showFrame(f);
  timeline_->setHistory(history_.size(), index, f.t);
  simulation_->restore(f.state(), /*record=*/false);
}

void MainWindow::onGrab(const PickHit& hit, const Eigen::Vector3d& anchor) {
  if (!model_ || frame_.poses.size() != model_->bodies.size()) return;
  if (hit.role == ItemRole::DeformableSurface) {
    // A soft handle on the surface vertex; time goes on as it was (the worker steps the parts
    // once per frame, with a frame per display tick while paused).
    deformDragging_ = true;
    simulation_->beginDeformDrag(hit.deformable, hit.vertex, anchor);
    return;
  }
  DragPoint p;
  if (hit.role == ItemRole::HandleMarker && hit.handle >= 0 && hit.handle < static_cast<int>(model_->handles.size())) {
    p.body = model_->handles[hit.handle].body;
    p.local = model_->handles[hit.handle].local;
  } else {
    p.body = hit.body;
    const Pose& pose = frame_.poses[p.body];
    p.local = pose.orientation.conjugate() * (anchor - pose.position);
  }
  // What was clicked is selected (tree, inspector, highlight).
  if (hit.role == ItemRole::HandleMarker && hit.handle >= 0)
    select(SpecItem{SpecKind::Handle, model_->handles[hit.handle].name});
  else if (p.body >= 0)
    select(SpecItem{SpecKind::Body, model_->bodies[p.body].name});
  if (p.body < 0 || model_->bodies[p.body].fixed) {
    rebuildScene(false);
    return;
  }
  {
    const QSignalBlocker block(playAction_);
    playAction_->setChecked(false);
    playAction_->setText(tr("&Play"));
  }
  if (!trailPoint_ || trailPoint_->body != p.body || !trailPoint_->local.isApprox(p.local)) trail_.clear();
  trailPoint_ = p;
  beforeEdit_ = frame_.state();
  dragging_ = true;
  simulation_->beginDrag(p);
  rebuildScene(false);
}

void MainWindow::pushStateCommand(const QString& text, const ControllerState& before, int mergeId) {
  if (before.q.size() == 0) return;
  undo_->push(new StateCommand(
      text, before, [this] { return frame_.state(); },
      [this](const ControllerState& s) { simulation_->restore(s, true); }, mergeId));
}

void MainWindow::showFrame(const Frame& frame, bool fit) {
  frame_ = frame;
  rebuildScene(fit);
}

void MainWindow::rebuildScene(bool fit) {
  if (!model_) return;
  SceneOverlay overlay;
  overlay.selectedBody = selectedBody_;
  overlay.selectedJoint = selectedJoint_;
  overlay.selectedHandle = selectedHandle_;
  overlay.trail.assign(trail_.begin(), trail_.end());
  overlay.traces = tracePaths();
  for (const Measure& ms : measures_)
    if (ms.kind != Measure::Trace && frame_.q.size() == model_->nq)
      for (size_t k = 1; k < ms.points.size(); ++k)
        overlay.measureSegments.emplace_back(pointPosition(*model_, frame_, ms.points[k - 1]), pointPosition(*model_, frame_, ms.points[k]));
  overlay.dragging = frame_.dragging;
  overlay.dragPoint = frame_.dragPoint;
  overlay.dragTarget = frame_.dragTarget;
  for (const Frame::ContactMark& c : frame_.contacts) overlay.contacts.emplace_back(c.point, c.normal);
  overlay.deformables = frame_.deformables;
  if (frame_.deformDragging) {
    overlay.dragging = true;
    overlay.dragPoint = frame_.deformPoint;
    overlay.dragTarget = frame_.deformTarget;
  }
  // Stress colouring: the ramp over the held range (the stresses seen since colouring was switched
  // on or the file opened; it only grows, so a colour keeps its stress), shown in the legend.
  const bool colour = stressColouring_ && !frame_.deformables.empty() &&
                      frame_.deformableStress.size() == frame_.deformables.size();
  StressColours sc;
  if (colour) {
    sc = colourByStress(frame_.deformableStress, &stressHold_);
    overlay.deformableColors = sc.colours;
  }
  stressMin_ = sc.valid ? sc.min : 0;
  stressMax_ = sc.valid ? sc.max : 0;
  if (colour && sc.valid) {
    stressLabel_->setText(tr("von Mises stress %1 … %2")
                              .arg(QString::fromStdString(formatPascal(sc.min)), QString::fromStdString(formatPascal(sc.max))));
    stressLabel_->setToolTip(tr("Deformable parts coloured by the von Mises stress of the Cauchy stress, blue (low) to red (high)"));
  }
  stressRamp_->setVisible(colour && sc.valid);
  stressLabel_->setVisible(colour && sc.valid);
  // Joints whose equations are not met (their rows of Φ come first, in joint order).
  overlay.jointViolated.assign(model_->joints.size(), 0);
  for (size_t j = 0; j < model_->joints.size(); ++j) {
    const Joint& jt = model_->joints[j];
    for (int r = jt.firstEquation; r < jt.firstEquation + jt.nEquations && r < frame_.phi.size(); ++r)
      if (std::abs(frame_.phi[r]) > kResidualShown) overlay.jointViolated[j] = 1;
  }
  // The grid is built once per model (at the fit) and reused: it stays put while the mechanism
  // moves, and the viewport need not upload it again.
  overlay.gridFrom = !fit && gridCache_.gridId != 0 ? &gridCache_ : nullptr;
  Scene scene = buildScene(*model_, frame_.poses, options_, &overlay);
  if (!overlay.gridFrom && scene.gridId != 0) {
    gridCache_.lines = scene.lines;
    gridCache_.gridSpacing = scene.gridSpacing;
    gridCache_.gridZ = scene.gridZ;
    gridCache_.gridId = scene.gridId;
  }
  viewport_->setScene(std::move(scene), fit);
}

void MainWindow::updateSolverStatus() {
  if (!model_) {
    for (QLabel* l : {residualLabel_, solverLabel_, fpsLabel_, dofLabel_, unitsLabel_}) l->clear();
    return;
  }
  // The solver's state: which analysis made the frame (the kinematics — play, sliders, drags — or
  // the dynamics with its step), whether it met the constraints, a singular position, the residual.
  const double r = frame_.maxResidual();
  const bool off = r > kResidualShown || !frame_.stats.converged;
  // A failed solve keeps (and shows) the last good pose: its residual is small, and said so.
  const bool kept = !frame_.stats.converged && r <= kResidualShown;
  QString text = frame_.dynamic ? tr("Dynamics: step h = %1 ms").arg(1e3 * model_->dynamics.timestep, 0, 'g', 3) : tr("Kinematics");
  const QString state = kept                    ? tr("not converged, last good pose kept")
                        : off                   ? tr("constraints not met")
                        : frame_.stats.singular ? tr("singular position (rank %1)").arg(frame_.stats.rank)
                        : frame_.dynamic        ? QString()  // a dynamic step that met its constraints
                                                : tr("converged");
  if (!state.isEmpty()) text += (frame_.dynamic ? QStringLiteral(", ") : QStringLiteral(": ")) + state;
  residualLabel_->setText(text + tr(" · residual %1").arg(r, 0, 'g', off && !kept ? 3 : 2));
  residualLabel_->setStyleSheet(off ? QStringLiteral("color: #d02020; font-weight: bold")
                                : frame_.stats.singular ? QStringLiteral("color: #b06000")
                                                        : QString());
  residualLabel_->setToolTip(frame_.stats.message.empty()
                                 ? tr("The last analysis: max |Φ| = %1 (SI) after %2 Newton iteration(s)")
                                       .arg(r, 0, 'g', 3)
                                       .arg(frame_.stats.iterations)
                                 : qs(frame_.stats.message));
  // The file's units (what Save writes back); the panels show SI, angles in degrees.
  if (spec_) {
    const UnitsSpec& u = spec_->units;
    unitsLabel_->setText(tr("Units: %1, %2").arg(qs(u.length), qs(u.angle)));
    unitsLabel_->setToolTip(tr("The file's units: lengths in %1, angles in %2 (Save writes them). The sliders show metres and "
                               "degrees, the plots and exports SI (m, rad).")
                                .arg(qs(u.length), qs(u.angle)));
  }
  solverLabel_->setText(tr("Newton %1 it · %2 ms").arg(frame_.stats.iterations).arg(1e3 * frame_.stats.solveSeconds, 0, 'f', 2));
  if (frame_.dynamic && frame_.hasContact)
    solverLabel_->setText(solverLabel_->text() + tr(" · %n contact(s), RES %1", nullptr, static_cast<int>(frame_.contacts.size()))
                                                     .arg(frame_.contactResidual, 0, 'g', 2));
  if (!frame_.deformables.empty()) {  // the deformable parts' own solver (docs/deform.md)
    solverLabel_->setText(solverLabel_->text() + tr(" · deformables: %1, %2 it").arg(qs(frame_.deformSolvers)).arg(frame_.deformIterations));
    // A step that stopped at the iteration cap is said so (its state is kept: docs/deform.md).
    if (frame_.deformUnconverged > 0)
      solverLabel_->setText(solverLabel_->text() + tr(", not converged"));
  }
  solverLabel_->setToolTip(frame_.deformUnconverged > 0
                               ? tr("The last step of %n deformable part(s) stopped at the iteration cap (\"maxIterations\") "
                                    "before meeting the tolerance; the state it reached is kept.",
                                    nullptr, frame_.deformUnconverged)
                               : QString());
  fpsLabel_->setText(realTimeFactor_ > 0 ? tr("%1 fps · %2× real time").arg(fps_, 0, 'f', 0).arg(realTimeFactor_, 0, 'f', 2)
                                          : tr("%1 fps").arg(fps_, 0, 'f', 0));
  fpsLabel_->setToolTip(tr("Frames shown per second; while time runs, the simulated seconds per second of wall time "
                           "(1.00×: play keeps up with the clock at speed 1×)"));
  const MobilityReport& m = info_.mobility;
  dofLabel_->setText(info_.model ? tr("DOF %1 (%2 left by drivers) · %3 redundant").arg(m.dof).arg(m.dofDriven).arg(m.redundant.size())
                                 : QString());
}

void MainWindow::fillTree() {
  tree_->clear();
  if (!model_) return;
  const Model& m = *model_;
  auto group = [&](const QString& title, int n) {
    auto* g = new QTreeWidgetItem(tree_, {QStringLiteral("%1 (%2)").arg(title).arg(n)});
    g->setExpanded(true);
    QFont f = g->font(0);
    f.setBold(true);
    g->setFont(0, f);
    return g;
  };
  // Each item knows what it names (the selection: ui/main_window_edit.cpp).
  auto tag = [](QTreeWidgetItem* it, SpecKind kind, const std::string& name) {
    it->setData(0, Qt::UserRole, static_cast<int>(kind));
    it->setData(0, Qt::UserRole + 1, qs(name));
  };
  QTreeWidgetItem* bodies = group(tr("Bodies"), static_cast<int>(m.bodies.size()));
  for (const Body& b : m.bodies)
    tag(new QTreeWidgetItem(bodies, {qs(b.name), b.fixed ? tr("fixed") : tr("moving, %1 kg").arg(b.mass, 0, 'g', 4)}),
        SpecKind::Body, b.name);
  QTreeWidgetItem* joints = group(tr("Joints"), static_cast<int>(m.joints.size()));
  for (const Joint& j : m.joints)
    tag(new QTreeWidgetItem(joints, {qs(j.name), QStringLiteral("%1: %2 → %3")
                                                     .arg(QString::fromLatin1(toString(j.type)), bodyName(m, j.body1),
                                                          bodyName(m, j.body2))}),
        SpecKind::Joint, j.name);
  QTreeWidgetItem* drivers = group(tr("Drivers"), static_cast<int>(m.drivers.size()));
  for (const Driver& d : m.drivers) {
    const QString joint = d.joint >= 0 && d.joint < static_cast<int>(m.joints.size()) ? qs(m.joints[d.joint].name) : "?";
    tag(new QTreeWidgetItem(drivers, {qs(d.name), QStringLiteral("%1 = %2").arg(joint, qs(d.expression))}), SpecKind::Driver,
        d.name);
  }
  QTreeWidgetItem* handles = group(tr("Handles"), static_cast<int>(m.handles.size()));
  for (const Handle& h : m.handles)
    tag(new QTreeWidgetItem(handles, {qs(h.name), tr("on %1").arg(bodyName(m, h.body))}), SpecKind::Handle, h.name);
  // The dynamics section's named items (what forces act in dynamic mode).
  if (spec_ && !spec_->dynamics.springs.empty()) {
    QTreeWidgetItem* g = group(tr("Springs"), static_cast<int>(spec_->dynamics.springs.size()));
    for (const SpringSpec& s : spec_->dynamics.springs)
      tag(new QTreeWidgetItem(g, {qs(s.name), tr("%1 → %2, %3 N/m").arg(qs(s.body1), qs(s.body2)).arg(s.stiffness, 0, 'g', 4)}),
          SpecKind::Spring, s.name);
  }
  if (spec_ && !spec_->dynamics.jointSprings.empty()) {
    QTreeWidgetItem* g = group(tr("Joint springs"), static_cast<int>(spec_->dynamics.jointSprings.size()));
    for (const JointSpringSpec& s : spec_->dynamics.jointSprings)
      tag(new QTreeWidgetItem(g, {qs(s.name), tr("on %1, k = %2").arg(qs(s.joint)).arg(s.stiffness, 0, 'g', 4)}), SpecKind::JointSpring,
          s.name);
  }
  if (spec_ && !spec_->dynamics.motors.empty()) {
    QTreeWidgetItem* g = group(tr("Motors"), static_cast<int>(spec_->dynamics.motors.size()));
    for (const MotorSpec& mo : spec_->dynamics.motors)
      tag(new QTreeWidgetItem(g, {qs(mo.name), mo.servo.empty() ? tr("on %1: %2").arg(qs(mo.joint), qs(mo.effort))
                                                                  : tr("on %1: servo to %2").arg(qs(mo.joint), qs(mo.servo))}),
          SpecKind::Motor, mo.name);
  }
  if (spec_ && !spec_->deformables.empty()) {
    QTreeWidgetItem* parts = group(tr("Deformables"), static_cast<int>(spec_->deformables.size()));
    for (const DeformableSpec& d : spec_->deformables) {
      auto* it = new QTreeWidgetItem(parts, {qs(d.name), tr("%1 tets, %2").arg(d.tets.size()).arg(qs(d.solver.empty() ? "newton" : d.solver))});
      tag(it, SpecKind::Deformable, d.name);
      it->setToolTip(1, tr("%1 tets, %2, E = %3 Pa, ν = %4, %5 kg/m³, solver %6")
                            .arg(d.tets.size())
                            .arg(qs(d.material))
                            .arg(d.youngs, 0, 'g', 4)
                            .arg(d.poisson)
                            .arg(d.density)
                            .arg(qs(d.solver.empty() ? "newton" : d.solver)));
    }
  }
}

void MainWindow::updateTitleAndStatus() {
  saveAsAction_->setEnabled(spec_ != nullptr);
  if (saveAction_) saveAction_->setEnabled(spec_ != nullptr);
  if (!model_) {
    setWindowTitle(QStringLiteral("mechsim"));
    countsLabel_->setText(tr("No mechanism"));
    countsLabel_->setToolTip(QString());
    reloadAction_->setEnabled(false);
    updateSolverStatus();
    return;
  }
  const Model& m = *model_;
  const QString name = m.name.empty() ? QFileInfo(currentFile_).completeBaseName() : qs(m.name);
  const QString fileName = currentFile_.isEmpty() ? tr("not saved") : QFileInfo(currentFile_).fileName();
  setWindowTitle(QStringLiteral("%1 — %2[*] — mechsim").arg(name, fileName));
  setWindowFilePath(currentFile_);
  countsLabel_->setText(QStringLiteral("%1 (%2 moving) · %3 · %4 · %5")
                            .arg(counted(m.bodies.size(), "body", "bodies"))
                            .arg(m.nMoving)
                            .arg(counted(m.joints.size(), "joint", "joints"))
                            .arg(counted(m.nq, "coordinate", "coordinates"))
                            .arg(counted(m.drivers.size(), "driver", "drivers")));
  countsLabel_->setToolTip(countsLabel_->text());
  reloadAction_->setEnabled(true);
  updateSolverStatus();
}

QStringList MainWindow::recentFiles() const { return QSettings().value(kRecentKey).toStringList(); }

void MainWindow::addRecent(const QString& path) {
  QStringList list = recentFiles();
  list.removeAll(path);
  list.prepend(path);
  while (list.size() > kMaxRecent) list.removeLast();
  QSettings().setValue(kRecentKey, list);
  refreshRecentMenu();
}

void MainWindow::refreshRecentMenu() {
  // Files that no longer exist are dropped from the list.
  QStringList list = recentFiles();
  QStringList kept;
  for (const QString& p : list)
    if (QFileInfo::exists(p) && !kept.contains(p)) kept << p;
  while (kept.size() > kMaxRecent) kept.removeLast();
  if (kept != list) QSettings().setValue(kRecentKey, kept);
  recentMenu_->clear();
  for (int i = 0; i < kept.size(); ++i) {
    const QString p = kept[i];
    QAction* a = recentMenu_->addAction(QStringLiteral("&%1  %2").arg(i + 1).arg(QFileInfo(p).fileName()));
    a->setToolTip(p);
    a->setStatusTip(p);
    connect(a, &QAction::triggered, this, [this, p] { openFile(p); });
  }
  recentMenu_->setEnabled(!kept.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (!droppedFile(e->mimeData()).isEmpty()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
  const QString path = droppedFile(e->mimeData());
  if (path.isEmpty()) return;
  e->acceptProposedAction();
  openFile(path);
}

}  // namespace mechsim::ui
