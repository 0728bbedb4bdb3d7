// ui/main_window.cpp — window, menus, model tree, recent files, drag-and-drop, load errors.
#include "ui/main_window.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTreeWidget>

#include "core/io/load.h"
#include "ui/viewport.h"

namespace mechsim::ui {
namespace {
const char* kRecentKey = "recentFiles";
const char* kLastDirKey = "lastDirectory";

QString qs(const std::string& s) { return QString::fromStdString(s); }

/// "1 joint", "4 joints".
QString counted(size_t n, const char* one, const char* many) {
  return QStringLiteral("%1 %2").arg(n).arg(QString::fromLatin1(n == 1 ? one : many));
}

QString bodyName(const Model& m, int b) {
  return b >= 0 && b < static_cast<int>(m.bodies.size()) ? qs(m.bodies[b].name) : QStringLiteral("world");
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
  return QObject::tr("Mechanisms (*.json *.urdf *.xml *.sdf);;All files (*)");
}

bool isMechanismFile(const QString& path) {
  const QString ext = QFileInfo(path).suffix().toLower();
  return ext == "json" || ext == "urdf" || ext == "xml" || ext == "sdf";
}

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  // The 3-D view in the middle.
  viewport_ = new Viewport(this);
  setCentralWidget(viewport_);

  // The model tree in a dock on the left.
  tree_ = new QTreeWidget;
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Name"), tr("Details")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->setUniformRowHeights(true);
  auto* dock = new QDockWidget(tr("Model"), this);
  dock->setObjectName("modelDock");
  dock->setWidget(tree_);
  addDockWidget(Qt::LeftDockWidgetArea, dock);
  resizeDocks({dock}, {320}, Qt::Horizontal);

  countsLabel_ = new QLabel;
  statusBar()->addPermanentWidget(countsLabel_);

  buildMenus();
  setAcceptDrops(true);
  resize(1280, 800);

  // The controller on its worker thread; its frames come back queued to the GUI thread.
  simulation_ = std::make_unique<SimulationThread>();
  connect(simulation_->controller(), &SimulationController::frameReady, this, &MainWindow::onFrame,
          Qt::QueuedConnection);
  updateTitleAndStatus();
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
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  refreshRecentMenu();

  // View
  QMenu* view = menuBar()->addMenu(tr("&View"));
  QAction* fit = view->addAction(tr("&Fit to View"), viewport_, &Viewport::fitToView);
  fit->setShortcut(QKeySequence(Qt::Key_F));
  view->addSeparator();
  auto toggle = [&](const QString& text, bool SceneOptions::*flag) {
    QAction* a = view->addAction(text);
    a->setCheckable(true);
    a->setChecked(options_.*flag);
    connect(a, &QAction::toggled, this, [this, flag](bool on) {
      options_.*flag = on;
      rebuildScene(false);
    });
  };
  toggle(tr("Show &Grid"), &SceneOptions::grid);
  toggle(tr("Show World &Axes"), &SceneOptions::axes);
  toggle(tr("Show &Joints"), &SceneOptions::joints);
  toggle(tr("Show &Handles"), &SceneOptions::handles);

  // Help
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About mechsim"), this, &MainWindow::about);
}

bool MainWindow::openFile(const QString& path) {
  // Load first; only a model that loaded replaces the one shown.
  std::shared_ptr<const Model> model;
  try {
    model = std::make_shared<const Model>(io::loadModel(path.toStdString()));
  } catch (const io::LoadError& e) {
    reportError(QString::fromStdString(e.what()));
    return false;
  } catch (const std::exception& e) {
    reportError(QStringLiteral("%1: error: %2").arg(path, QString::fromStdString(e.what())));
    return false;
  }
  lastError_.clear();
  model_ = model;
  currentFile_ = QFileInfo(path).absoluteFilePath();
  addRecent(currentFile_);
  fillTree();
  updateTitleAndStatus();

  // Show the file's configuration at once, then let the controller take over.
  showFrame(initialFrame(model_), /*fit=*/true);
  simulation_->setModel(model_);
  emit modelLoaded(currentFile_);
  return true;
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
                        "Left drag: orbit &nbsp; Middle / Shift+left drag: pan &nbsp; Wheel: zoom &nbsp; F: fit")
                         .arg(QCoreApplication::applicationVersion()));
}

void MainWindow::onFrame(const Frame& frame) {
  // Frames of a model that was replaced meanwhile are dropped.
  if (!model_ || frame.model != model_) return;
  showFrame(frame, /*fit=*/false);
  emit frameShown(frame.serial);
}

void MainWindow::showFrame(const Frame& frame, bool fit) {
  frame_ = frame;
  rebuildScene(fit);
}

void MainWindow::rebuildScene(bool fit) {
  if (!model_) return;
  viewport_->setScene(buildScene(*model_, frame_.poses, options_), fit);
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
  QTreeWidgetItem* bodies = group(tr("Bodies"), static_cast<int>(m.bodies.size()));
  for (const Body& b : m.bodies)
    new QTreeWidgetItem(bodies, {qs(b.name), b.fixed ? tr("fixed") : tr("moving, %1 kg").arg(b.mass, 0, 'g', 4)});
  QTreeWidgetItem* joints = group(tr("Joints"), static_cast<int>(m.joints.size()));
  for (const Joint& j : m.joints)
    new QTreeWidgetItem(joints, {qs(j.name), QStringLiteral("%1: %2 → %3")
                                                 .arg(QString::fromLatin1(toString(j.type)), bodyName(m, j.body1),
                                                      bodyName(m, j.body2))});
  QTreeWidgetItem* drivers = group(tr("Drivers"), static_cast<int>(m.drivers.size()));
  for (const Driver& d : m.drivers) {
    const QString joint = d.joint >= 0 && d.joint < static_cast<int>(m.joints.size()) ? qs(m.joints[d.joint].name) : "?";
    new QTreeWidgetItem(drivers, {qs(d.name), QStringLiteral("%1 = %2").arg(joint, qs(d.expression))});
  }
  QTreeWidgetItem* handles = group(tr("Handles"), static_cast<int>(m.handles.size()));
  for (const Handle& h : m.handles) new QTreeWidgetItem(handles, {qs(h.name), tr("on %1").arg(bodyName(m, h.body))});
}

void MainWindow::updateTitleAndStatus() {
  if (!model_) {
    setWindowTitle(QStringLiteral("mechsim"));
    countsLabel_->setText(tr("No mechanism"));
    reloadAction_->setEnabled(false);
    return;
  }
  const Model& m = *model_;
  const QString name = m.name.empty() ? QFileInfo(currentFile_).completeBaseName() : qs(m.name);
  setWindowTitle(QStringLiteral("%1 — %2 — mechsim").arg(name, QFileInfo(currentFile_).fileName()));
  setWindowFilePath(currentFile_);
  countsLabel_->setText(QStringLiteral("%1 (%2 moving) · %3 · %4 · %5")
                            .arg(counted(m.bodies.size(), "body", "bodies"))
                            .arg(m.nMoving)
                            .arg(counted(m.joints.size(), "joint", "joints"))
                            .arg(counted(m.nq, "coordinate", "coordinates"))
                            .arg(counted(m.drivers.size(), "driver", "drivers")));
  reloadAction_->setEnabled(true);
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
