// ui/main_window_edit.cpp — editing the mechanism in the window: the inspector, the parameters, the
// building tools (File → New, Mechanism → Add Body / Joint / Driver / Handle, Edit → Delete), the
// selection shared by the tree, the view and the inspector, Save; every edit as spec → compile →
// the controller's assembly (ui/main_window.h, "editing").
#include "ui/main_window.h"

#include <cmath>

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QScrollArea>
#include <QStatusBar>
#include <QTreeWidget>
#include <QUndoStack>

#include "core/io/load.h"
#include "core/io/mesh.h"
#include "core/io/parameters.h"
#include "core/io/write.h"
#include "core/sim/part_surface.h"
#include "ui/dof_panel.h"
#include "ui/drag_handler.h"
#include "ui/parameter_panel.h"
#include "ui/pick_tool.h"
#include "ui/plot_dock.h"
#include "ui/pose_spec.h"
#include "ui/undo_commands.h"
#include "ui/viewport.h"

namespace mechsim::ui {
namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

/// A picked face's normal as a joint axis: a world axis when it is within 5° of one (faces of
/// boxes and cylinders drawn square to the world give exact axes despite rounding in the pick).
Vec3 snappedAxis(const Vec3& n) {
  for (int k = 0; k < 3; ++k)
    if (std::abs(n[k]) > std::cos(5.0 * 3.14159265358979323846 / 180.0)) return Vec3::Unit(k) * (n[k] > 0 ? 1.0 : -1.0);
  return n.normalized();
}

template <class T>
int indexOf(const std::vector<T>& items, const std::string& name) {
  for (std::size_t i = 0; i < items.size(); ++i)
    if (items[i].name == name) return static_cast<int>(i);
  return -1;
}
}  // namespace

void MainWindow::buildEditMenus(QMenu* file, QMenu* edit, QMenu* mech) {
  QAction* first = file->actions().isEmpty() ? nullptr : file->actions().first();
  QAction* neu = new QAction(tr("&New"), this);
  neu->setShortcut(QKeySequence::New);
  connect(neu, &QAction::triggered, this, &MainWindow::newMechanism);
  file->insertAction(first, neu);
  saveAction_ = new QAction(tr("&Save"), this);
  saveAction_->setShortcut(QKeySequence::Save);
  saveAction_->setObjectName("saveAction");
  connect(saveAction_, &QAction::triggered, this, [this] {
    if (!save() && !lastError_.isEmpty()) QMessageBox::critical(this, tr("Cannot save"), lastError_);
  });
  file->insertAction(saveAsAction_, saveAction_);

  edit->addSeparator();
  QAction* del = edit->addAction(tr("&Delete"), this, &MainWindow::deleteSelection);
  del->setShortcut(QKeySequence::Delete);
  del->setObjectName("deleteAction");

  mech->addSeparator();
  QMenu* bodies = mech->addMenu(tr("Add &Body"));
  const std::pair<ShapeType, QString> shapes[] = {{ShapeType::Box, tr("&Box")},
                                                  {ShapeType::Cylinder, tr("&Cylinder")},
                                                  {ShapeType::Capsule, tr("C&apsule")},
                                                  {ShapeType::Sphere, tr("&Sphere")}};
  for (const auto& [type, text] : shapes) {
    QAction* a = bodies->addAction(text);
    a->setObjectName(QStringLiteral("addBody-") + QString(text).remove('&').toLower());
    connect(a, &QAction::triggered, this, [this, type = type] { addBody(type); });
  }
  bodies->addAction(tr("From &Mesh File…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Add Body from Mesh"), QString(),
                                                      tr("Meshes (*.stl *.obj *.ply *.dae *.gltf *.glb *.off);;All files (*)"));
    if (!path.isEmpty()) addMeshBody(path);
  });
  QMenu* joints = mech->addMenu(tr("Add &Joint"));
  for (JointType t : {JointType::Revolute, JointType::Prismatic, JointType::Cylindrical, JointType::Spherical,
                      JointType::Universal, JointType::Planar, JointType::Fixed}) {
    QString text = QString::fromLatin1(toString(t));
    text[0] = text[0].toUpper();
    QAction* a = joints->addAction(text);
    a->setObjectName(QStringLiteral("addJoint-%1").arg(QString::fromLatin1(toString(t))));
    connect(a, &QAction::triggered, this, [this, t] { beginJointTool(t); });
  }
  QAction* revolute = joints->actions().first();
  revolute->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_J));
  QAction* driver = mech->addAction(tr("Add D&river to Joint"), this, &MainWindow::addDriverToSelection);
  driver->setObjectName("addDriver");
  QAction* handle = mech->addAction(tr("Add &Handle…"), this, &MainWindow::beginHandleTool);
  handle->setObjectName("addHandle");
  QAction* cancel = mech->addAction(tr("Cancel Tool"), this, &MainWindow::cancelTool);
  cancel->setShortcut(QKeySequence(Qt::Key_Escape));
  cancel->setShortcutContext(Qt::WindowShortcut);
}

void MainWindow::buildEditDocks() {
  // Two docks of scrolled panels: the inspector under the model tree, the parameters under the sliders.
  auto scrolled = [this](const QString& title, const char* name, QWidget* panel, Qt::DockWidgetArea area) {
    auto* scroll = new QScrollArea;
    scroll->setWidget(panel);
    scroll->setWidgetResizable(true);
    return addDock(title, name, scroll, area);
  };
  inspector_ = new Inspector;
  QDockWidget* inspectorDock = scrolled(tr("Inspector"), "inspectorDock", inspector_, Qt::LeftDockWidgetArea);
  // The inspector's fields get the larger share of the left column (the tree scrolls).
  if (auto* modelDock = findChild<QDockWidget*>("modelDock")) resizeDocks({modelDock, inspectorDock}, {260, 420}, Qt::Vertical);
  connect(inspector_, &Inspector::editRequested, this,
          [this](const QString& path, const SpecValue& v, const QString& label) { editValue(path, v, label); });
  parameters_ = new ParameterPanel;
  scrolled(tr("Parameters"), "parameterDock", parameters_, Qt::RightDockWidgetArea);
  connect(parameters_, &ParameterPanel::valueRequested, this,
          [this](const QString& name, double v, bool final) { setParameter(name, v, final); });

  connect(tree_, &QTreeWidget::itemSelectionChanged, this, &MainWindow::onTreeSelection);
  pickTool_ = new PickTool(viewport_, this);
  connect(pickTool_, &PickTool::picked, this, &MainWindow::onPicked);
  connect(simulation_->controller(), &SimulationController::editDone, this, &MainWindow::onEditDone, Qt::QueuedConnection);
}

// ---- selection ----

void MainWindow::onTreeSelection() {
  const QList<QTreeWidgetItem*> items = tree_->selectedItems();
  if (items.isEmpty() || items.first()->data(0, Qt::UserRole).isNull()) return;
  const QTreeWidgetItem* it = items.first();
  select(SpecItem{static_cast<SpecKind>(it->data(0, Qt::UserRole).toInt()), it->data(0, Qt::UserRole + 1).toString().toStdString()});
}

void MainWindow::select(const std::optional<SpecItem>& item) {
  const bool same = selection_ == item;
  selection_ = item;
  showSelection();
  if (!same || !inspector_->item()) inspector_->showItem(spec_.get(), selection_);
}

void MainWindow::showSelection() {
  // The tree follows (without echoing), the view highlights by model index.
  {
    const QSignalBlocker block(tree_);
    tree_->clearSelection();
    if (selection_)
      for (int g = 0; g < tree_->topLevelItemCount(); ++g)
        for (int c = 0; c < tree_->topLevelItem(g)->childCount(); ++c) {
          QTreeWidgetItem* it = tree_->topLevelItem(g)->child(c);
          if (it->data(0, Qt::UserRole).toInt() == static_cast<int>(selection_->kind) &&
              it->data(0, Qt::UserRole + 1).toString().toStdString() == selection_->name) {
            it->setSelected(true);
            tree_->scrollToItem(it);
          }
        }
  }
  selectedBody_ = selectedJoint_ = selectedHandle_ = -1;
  if (model_ && selection_) {
    if (selection_->kind == SpecKind::Body) selectedBody_ = model_->findBody(selection_->name);
    if (selection_->kind == SpecKind::Joint) selectedJoint_ = indexOf(model_->joints, selection_->name);
    if (selection_->kind == SpecKind::Handle) {
      // A handle's body is highlighted with it (the body a handle drag moves).
      selectedHandle_ = indexOf(model_->handles, selection_->name);
      if (selectedHandle_ >= 0) selectedBody_ = model_->handles[selectedHandle_].body;
    }
  }
  rebuildScene(false);
}

// ---- edits ----

bool MainWindow::editValue(const QString& path, const SpecValue& value, const QString& label) {
  if (!spec_) return false;
  auto spec = std::make_shared<MechanismSpec>(*spec_);
  EditOrigin origin;
  origin.field = path;
  const QStringList parts = path.split('.');
  // "Set B point", "Set crank shape 0 length", "Set c0 stiffness": the item's name, then the field.
  const int item = parts.value(0) == "dynamics" ? 2 : 1;
  QString where = parts.value(item, path);
  if (parts.size() > item + 3 && (parts[item + 1] == "shapes" || parts[item + 1] == "visuals"))
    where += QStringLiteral(" %1 %2").arg(parts[item + 1] == "shapes" ? tr("shape") : tr("visual"), parts[item + 2]);
  origin.text = tr("Set %1 %2").arg(where, label.isEmpty() ? parts.last() : label.toLower());
  try {
    setSpecValue(*spec, path.toStdString(), value);
  } catch (const std::exception& e) {
    refused(origin, QString::fromStdString(e.what()));
    return false;
  }
  // A renamed item stays selected under its new name.
  if (selection_ && parts.size() >= 3 && parts.last() == "name" && value.text) {
    origin.selectAfter = selection_;
    origin.selectAfter->name = *value.text;
  }
  return requestSpec(std::move(spec), std::move(origin));
}

bool MainWindow::setParameter(const QString& name, double value, bool final) {
  if (!spec_) return false;
  EditOrigin origin;
  origin.parameter = name.toStdString();
  origin.text = tr("Set parameter %1").arg(name);
  origin.final = final;
  std::shared_ptr<MechanismSpec> spec;
  try {
    spec = std::make_shared<MechanismSpec>(io::specWithParameters(*spec_, {{name.toStdString(), value}}));
  } catch (const std::exception& e) {
    refused(origin, QString::fromStdString(e.what()));
    return false;
  }
  return requestSpec(std::move(spec), std::move(origin));
}

bool MainWindow::requestSpec(std::shared_ptr<const MechanismSpec> spec, EditOrigin origin) {
  // Compiled here (the reader's checks: names, expressions, geometry); the controller assembles.
  std::shared_ptr<const Model> model;
  try {
    model = std::make_shared<const Model>(io::compileSpec(*spec));
  } catch (const std::exception& e) {
    refused(origin, QString::fromStdString(e.what()));
    return false;
  }
  if (!origin.undoing && !gestureBefore_) gestureBefore_ = spec_;
  if (!origin.field.isEmpty()) inspector_->setFieldError(origin.field, QString());
  if (!origin.parameter.empty()) parameters_->setError(origin.parameter, QString());
  pendingEdit_.id = nextEditId_++;
  pendingEdit_.origin = std::move(origin);
  simulation_->editModel(EditRequest{pendingEdit_.id, std::move(model), std::move(spec)});
  return true;
}

void MainWindow::refused(const EditOrigin& origin, const QString& message) {
  lastEditMessage_ = message;
  if (!origin.field.isEmpty()) inspector_->setFieldError(origin.field, message);
  if (!origin.parameter.empty()) {
    parameters_->setError(origin.parameter, message);
    parameters_->showValues(spec_.get());  // the last good value back
  }
  statusBar()->showMessage(tr("%1 refused: %2").arg(origin.text, message), 10000);
  // A refused end of a gesture closes it (what was accepted before it stays one command).
  closeGesture(origin);
  emit editFinished(false, message);
}

void MainWindow::closeGesture(const EditOrigin& origin) {
  if (!origin.final) return;
  // The gesture's one undo command, from the spec before it to the one shown now (if it changed).
  if (!origin.undoing && gestureBefore_ && gestureBefore_ != spec_)
    undo_->push(new SpecCommand(origin.text, gestureBefore_, spec_, [this](const SpecCommand::Spec& s) {
      EditOrigin o;
      o.text = tr("Undo");
      o.undoing = true;
      requestSpec(s, o);
    }));
  gestureBefore_.reset();
}

void MainWindow::onEditDone(const EditResult& r) {
  const bool latest = r.id == pendingEdit_.id;
  const EditOrigin origin = latest ? pendingEdit_.origin : EditOrigin{};
  if (latest) pendingEdit_.id = 0;
  if (!r.accepted) {
    if (latest) refused(origin, qs(r.message));
    return;
  }
  // The controller runs the edited mechanism now (an older edit overtaken by a newer one too).
  // The measures follow their bodies by name; one whose body is gone goes with it.
  if (model_ && r.model) {
    std::vector<Measure> kept;
    for (Measure ms : measures_) {
      bool ok = true;
      for (BodyPoint& p : ms.points) {
        p.body = p.body >= 0 && p.body < static_cast<int>(model_->bodies.size()) ? r.model->findBody(model_->bodies[p.body].name) : -1;
        ok = ok && p.body >= 0;
      }
      if (ok) kept.push_back(std::move(ms));
    }
    measures_ = std::move(kept);
    traceFrames_ = -1;
  }
  model_ = r.model;
  spec_ = r.spec;
  info_ = ModelInfo{};
  trailPoint_.reset();
  trail_.clear();
  gridCache_ = Scene{};
  restSurfaces_ = sim::restSurfaces(*spec_);
  deformSolverMenu_->setEnabled(!spec_->deformables.empty());
  exportDeformAction_->setEnabled(!spec_->deformables.empty());
  fileSolvers_.clear();
  for (const DeformableSpec& d : spec_->deformables) fileSolvers_.push_back(d.solver);
  plots_->setModel(model_);
  updateMeasurePlots();
  fillTree();
  if (!latest) return;
  lastEditMessage_ = qs(r.message);
  setWindowModified(true);
  // The selection: the new item, else the same item if it is still there.
  std::optional<SpecItem> sel = origin.selectAfter ? origin.selectAfter : selection_;
  if (sel && !hasItem(*spec_, sel->kind, sel->name)) sel.reset();
  // The fields are rebuilt when what they are changes (another item, a type, a name), else re-read.
  const bool rebuild = sel != selection_ || origin.field.isEmpty() || origin.field.endsWith(".type") ||
                       origin.field.endsWith(".name");
  selection_ = sel;
  showSelection();
  if (rebuild && origin.parameter.empty()) inspector_->showItem(spec_.get(), selection_);
  else inspector_->refresh(spec_.get());
  const bool sameParameters = parameters_->count() == static_cast<int>(spec_->parameters.size()) && !origin.parameter.empty();
  if (sameParameters) parameters_->showValues(spec_.get());
  else parameters_->setParameters(spec_.get());
  updateTitleAndStatus();
  if (!r.message.empty()) statusBar()->showMessage(qs(r.message), 10000);
  else statusBar()->showMessage(tr("%1: re-assembled").arg(origin.text), 3000);
  closeGesture(origin);
  emit editFinished(true, lastEditMessage_);
}

MechanismSpec MainWindow::specHere() const {
  const bool posed = model_ && frame_.poses.size() == model_->bodies.size() && frame_.coords.size() == model_->nCoords;
  return posed ? specAtPose(*spec_, *model_, frame_.poses, frame_.coords) : *spec_;
}

// ---- building ----

bool MainWindow::build(const QString& what, const std::function<EditOrigin(MechanismSpec&)>& change) {
  // On the spec at the pose shown: what was clicked is where it is now.
  MechanismSpec spec = specHere();
  EditOrigin o;
  try {
    o = change(spec);
  } catch (const std::exception& e) {
    lastEditMessage_ = QString::fromStdString(e.what());
    statusBar()->showMessage(tr("%1: %2").arg(what, lastEditMessage_), 10000);
    return false;
  }
  return requestSpec(std::make_shared<MechanismSpec>(std::move(spec)), std::move(o));
}

MainWindow::EditOrigin MainWindow::added(SpecKind kind, const std::string& name, const QString& text) {
  EditOrigin o;
  o.text = text.arg(qs(name));
  o.selectAfter = SpecItem{kind, name};
  return o;
}

void MainWindow::newMechanism() {
  cancelTool();
  auto spec = std::make_shared<MechanismSpec>(newMechanismSpec());
  std::shared_ptr<const Model> model;
  try {
    model = std::make_shared<const Model>(io::compileSpec(*spec));
  } catch (const std::exception& e) {
    reportError(QString::fromStdString(e.what()));
    return;
  }
  currentFile_.clear();
  comments_ = io::FileComments{};
  restSurfaces_.clear();
  fileSolvers_.clear();
  deformSolverMenu_->setEnabled(false);
  exportDeformAction_->setEnabled(false);
  showMechanism(std::move(model), std::move(spec), /*fit=*/true);
  setWindowModified(false);
  statusBar()->showMessage(tr("New mechanism: add bodies (Mechanism → Add Body), then join them (Mechanism → Add Joint)"), 10000);
}

QString MainWindow::addBody(ShapeType type) {
  if (!spec_) newMechanism();
  // At the view's centre, sized to the view (a tenth of what it spans), in round numbers.
  const double size = std::max(0.01, std::pow(10.0, std::round(std::log10(0.25 * viewport_->camera().distance))));
  std::string name;
  const bool ok = build(tr("Add body"), [&](MechanismSpec& spec) {
    name = mechsim::addBody(spec, type, viewport_->camera().target, size);
    return added(SpecKind::Body, name, tr("Add body %1"));
  });
  return ok ? qs(name) : QString();
}

QString MainWindow::addMeshBody(const QString& path) {
  if (!spec_) newMechanism();
  std::string name;
  const bool ok = build(tr("Add body"), [&](MechanismSpec& spec) {
    const std::string abs = QFileInfo(path).absoluteFilePath().toStdString();
    name = mechsim::addMeshBody(spec, abs, abs, io::loadMeshFile(abs), viewport_->camera().target);
    return added(SpecKind::Body, name, tr("Add body %1"));
  });
  return ok ? qs(name) : QString();
}

void MainWindow::beginJointTool(JointType type) {
  if (!spec_) return;
  tool_ = Tool{Tool::Joint, type, 0, {}};
  pickTool_->setIgnoredBody(-1);
  viewport_->setMouseHook(pickTool_);
  viewport_->setCursor(Qt::CrossCursor);
  statusBar()->showMessage(tr("Add %1 joint: click the first body (empty space: the ground) — Esc cancels")
                               .arg(QString::fromLatin1(toString(type))));
}

void MainWindow::beginHandleTool() {
  if (!spec_) return;
  tool_ = Tool{Tool::Handle, JointType::Revolute, 0, {}};
  pickTool_->setIgnoredBody(-1);
  viewport_->setMouseHook(pickTool_);
  viewport_->setCursor(Qt::CrossCursor);
  statusBar()->showMessage(tr("Add handle: click the point of a body it marks — Esc cancels"));
}

void MainWindow::cancelTool() {
  if (tool_.kind == Tool::None) return;
  tool_ = Tool{};
  viewport_->setMouseHook(dragHandler_);
  viewport_->unsetCursor();
  statusBar()->showMessage(tr("Tool cancelled"), 3000);
}

void MainWindow::onPicked(const std::optional<PickHit>& hit) {
  if (model_ && tool_.kind == Tool::Measure) return measurePicked(hit);  // ui/main_window_measure.cpp
  if (!spec_ || !model_ || tool_.kind == Tool::None) return;
  const auto bodyOf = [&](const PickHit& h) -> std::string {
    return h.body >= 0 && h.body < static_cast<int>(model_->bodies.size()) ? model_->bodies[h.body].name : std::string();
  };
  // The tool ends with its click, whatever the step comes to.
  auto finish = [this] {
    tool_ = Tool{};
    viewport_->setMouseHook(dragHandler_);
    viewport_->unsetCursor();
  };
  if (tool_.kind == Tool::Handle) {
    if (!hit || bodyOf(*hit).empty()) return;
    finish();
    build(tr("Add handle"), [&](MechanismSpec& spec) {
      return added(SpecKind::Handle, mechsim::addHandle(spec, bodyOf(*hit), hit->point), tr("Add handle %1"));
    });
    return;
  }
  if (tool_.step == 0) {
    // Empty space is the ground: the first fixed body.
    std::string first = hit ? bodyOf(*hit) : std::string();
    if (first.empty())
      for (const BodySpec& b : spec_->bodies)
        if (b.fixed) {
          first = b.name;
          break;
        }
    if (first.empty()) {
      statusBar()->showMessage(tr("No fixed body to join to: click a body"), 10000);
      return;
    }
    tool_.body1 = first;
    tool_.step = 1;
    pickTool_->setIgnoredBody(model_->findBody(first));
    statusBar()->showMessage(tr("Add %1 joint to %2: click the second body where the joint goes (the face clicked gives the axis) — Esc cancels")
                                 .arg(QString::fromLatin1(toString(tool_.type)), qs(first)));
    return;
  }
  if (!hit || bodyOf(*hit).empty()) return;
  const Tool tool = tool_;
  finish();
  build(tr("Add joint"), [&](MechanismSpec& spec) {
    return added(SpecKind::Joint, mechsim::addJoint(spec, tool.type, tool.body1, bodyOf(*hit), hit->point, snappedAxis(hit->normal)),
                 tr("Add joint %1"));
  });
}

bool MainWindow::addDriverToSelection() {
  if (!spec_ || !selection_ || selection_->kind != SpecKind::Joint) {
    statusBar()->showMessage(tr("Add driver: select a joint first"), 5000);
    return false;
  }
  const int j = indexOf(spec_->joints, selection_->name);
  if (j < 0) return false;
  const JointType t = spec_->joints[j].type;
  const bool turns = t == JointType::Revolute || t == JointType::Cylindrical || t == JointType::Spherical ||
                     t == JointType::Universal;
  const std::string expr = !turns ? "0" : spec_->units.angle == "deg" ? "360 * t" : "2 * pi * t";
  const std::string joint = selection_->name;
  return build(tr("Add driver"), [&](MechanismSpec& spec) {
    return added(SpecKind::Driver, mechsim::addDriver(spec, joint, expr), tr("Add driver %1"));
  });
}

bool MainWindow::deleteSelection() {
  if (!spec_ || !selection_) return false;
  const SpecItem item = *selection_;
  return build(tr("Delete"), [&](MechanismSpec& spec) {
    EditOrigin o;
    o.text = tr("Delete %1").arg(qs(describeRemoved(removeItem(spec, item.kind, item.name))));
    return o;
  });
}

bool MainWindow::offerRecovery() {
  for (const AutosavedCopy& copy : Autosave::orphans()) {
    bool open = false;
    if (recoveryHandler_) {
      open = recoveryHandler_(copy);
    } else {
      const QString what = copy.original.isEmpty() ? tr("a new mechanism") : QStringLiteral("\u201c%1\u201d").arg(copy.original);
      open = QMessageBox::question(this, tr("Recover unsaved changes"),
                                   tr("mechsim ended while %1 had changes that were not saved. A copy was autosaved at %2.\n\n"
                                      "Open the autosaved copy? (No removes it.)")
                                       .arg(what, QLocale().toString(copy.saved, QLocale::ShortFormat)),
                                   QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes) == QMessageBox::Yes;
    }
    if (!open) {
      Autosave::discard(copy);
      continue;
    }
    if (!openFile(copy.file)) return false;  // the loader said why; the copy stays for the next start
    // The copy stands for its original: Save writes there (a new mechanism asks for a name).
    currentFile_ = copy.original;
    // (The copy was written with the original's comments: openFile took them from it for Save.)
    setWindowModified(true);
    updateTitleAndStatus();
    Autosave::discard(copy);
    autosave_->saveNow();  // this session's copy from now on
    statusBar()->showMessage(tr("Recovered the autosaved copy of %1 (not saved yet)")
                                 .arg(copy.original.isEmpty() ? tr("a new mechanism") : copy.original),
                             10000);
    return true;
  }
  return false;
}

bool MainWindow::save() {
  if (!spec_) return false;
  if (currentFile_.isEmpty() || QFileInfo(currentFile_).suffix().toLower() != "json") {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Mechanism"), currentFile_, tr("Mechanisms (*.json)"));
    if (path.isEmpty()) {
      lastError_.clear();
      return false;
    }
    return saveAs(path);
  }
  return saveAs(currentFile_);
}

}  // namespace mechsim::ui
