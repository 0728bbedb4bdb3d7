// ui/simulation_controller.cpp — worker-thread owner of Data: sliders, time, handle drags,
// restores; publishes frames to the GUI.
#include "ui/simulation_controller.h"
#include "ui/deformable_parts.h"
#include "ui/dof_anm.h"
#include "ui/dynamic_mode.h"

#include <algorithm>
#include <cmath>

#include <QMetaObject>
#include <QTimer>

namespace mechsim::ui {
namespace {
constexpr double kPi = 3.14159265358979323846;
/// Time the reachable-range search may take per DOF when a model opens [s].
constexpr double kRangeBudgetSeconds = 0.25;
/// After a soft handle on a deformable part is released, frames go on until every vertex has been
/// slower than kSettledSpeed for kSettledTicks frames in a row, or for kMaxSettleTicks frames.
constexpr double kSettledSpeed = 5e-3;  // m/s
constexpr int kSettledTicks = 10;
constexpr int kMaxSettleTicks = 900;

/// The largest slider step the position analysis takes at once; larger moves are split so that
/// Newton starts close to the solution and stays on the assembly branch (continuation).
double maxStep(const DofInfo& d, const Model& m) { return d.angular ? 5.0 * kPi / 180.0 : 0.02 * m.lengthScale; }

}  // namespace

std::vector<Pose> bodyPoses(const Model& m, const VecX& q) {
  std::vector<Pose> poses;
  poses.reserve(m.bodies.size());
  for (int b = 0; b < static_cast<int>(m.bodies.size()); ++b) poses.push_back(bodyPose(m, q, b));
  return poses;
}

Frame initialFrame(std::shared_ptr<const Model> model) {
  Frame f;
  f.model = std::move(model);
  if (f.model) {
    f.poses.reserve(f.model->bodies.size());
    for (const Body& b : f.model->bodies) f.poses.push_back(b.pose0);
    f.q = f.model->q0;
  }
  return f;
}

SimulationController::SimulationController(QObject* parent) : QObject(parent) {
  qRegisterMetaType<mechsim::ui::Frame>("mechsim::ui::Frame");
  qRegisterMetaType<mechsim::ui::ModelInfo>("mechsim::ui::ModelInfo");
  factory_ = [] { return makeNewtonDragSolver(); };
  anmPath_ = std::make_unique<AnmSliderPath>();
  deform_ = std::make_unique<DeformableParts>();
  deform_->setCancel([this] { return stopping_.load() || modelsPending_.load() > 0; });
  deform_->setProgress([this](const std::string& text) {
    emit deformPreparing(reinterpret_cast<quintptr>(model_.get()), QString::fromStdString(text));
  });
}

SimulationController::~SimulationController() = default;

void SimulationController::setModel(std::shared_ptr<const mechsim::Model> model,
                                    std::shared_ptr<const mechsim::MechanismSpec> spec) {
  // New state for the new model; the old Data goes with the old model.
  pause();
  anmPath_->reset();
  deformDragging_ = false;
  if (deformTimer_) deformTimer_->stop();
  if (drag_) drag_->end();
  drag_.reset();
  dragging_ = false;
  pendingDof_.clear();
  pendingTarget_.reset();
  dyn_.reset();  // a new model opens in kinematic mode
  modeMessage_.clear();
  model_ = std::move(model);
  spec_ = std::move(spec);
  work_.reset();
  free_.reset();
  data_.reset();
  freeData_.reset();
  dofs_.clear();
  if (!model_) return;
  const Model& file = *model_;
  ModelInfo info;
  info.model = model_;

  // Assemble the file's configuration with its drivers at t = 0, then the mobility analysis.
  Data assembled = makeData(file);
  solvePositions(file, assembled, 0.0);
  info.mobility = analyseMobility(file, assembled);

  // The working model: file drivers plus the coordinates that complete them.
  inputs_ = std::make_shared<DriverInputs>();
  std::vector<std::pair<int, int>> extra;
  try {
    if (spec_) extra = independentCoordinates(*spec_, file, assembled.q, info.mobility.dofDriven);
    work_ = std::make_unique<Model>(buildWorkModel(spec_.get(), file, extra, inputs_));
    free_ = buildFreeModel(spec_.get());
  } catch (const std::exception& e) {
    info.message = e.what();
    extra.clear();
    work_ = std::make_unique<Model>(buildWorkModel(nullptr, file, extra, inputs_));
    free_.reset();
  }
  info.hasSpec = spec_ && free_;
  // Deformable parts: one implicit-Euler step of a display tick per frame.
  deform_->clear();
  // (A build abandoned for a model already replaced again says nothing: that model follows.)
  if (spec_ && !spec_->deformables.empty() && !deform_->build(*spec_, file, kTick) && modelsPending_.load() == 0)
    info.message += (info.message.empty() ? "" : "; ") + deform_->message();
  data_ = std::make_unique<Data>(makeData(*work_));
  data_->q = assembled.q;
  if (free_) freeData_ = std::make_unique<Data>(makeData(*free_));

  // The sliders: one per driver of the working model, starting where the mechanism is.
  updateJointCoordinates(*work_, *data_);
  const int nFile = static_cast<int>(file.drivers.size());
  for (int i = 0; i < static_cast<int>(work_->drivers.size()); ++i) {
    const Driver& drv = work_->drivers[i];
    const Joint& jt = work_->joints[drv.joint];
    DofInfo d;
    d.kind = i < nFile ? DofKind::Driver : DofKind::Coordinate;
    d.driver = i;
    d.joint = drv.joint;
    d.coordinate = drv.coordinate;
    d.coordIndex = jt.firstCoord + drv.coordinate;
    d.angular = isAngularCoordinate(jt, drv.coordinate);
    d.name = d.kind == DofKind::Driver ? drv.name : work_->coordNames[d.coordIndex];
    d.expression = d.kind == DofKind::Driver ? drv.expression : std::string();
    inputs_->value[i] = d.kind == DofKind::Driver ? inputs_->at(i, 0.0) : data_->coords[d.coordIndex];
    dofs_.push_back(d);
  }
  solvePositions(*work_, *data_, 0.0);
  finishPositions();

  // Slider ranges: the file's limits, else what the position analysis can reach.
  for (DofInfo& d : dofs_) {
    const double v = inputs_->value[d.driver];
    const Joint& jt = work_->joints[d.joint];
    if (jt.limits && (jt.nCoords == 1 || d.coordinate == 0)) {
      d.lower = jt.limits->first;
      d.upper = jt.limits->second;
      d.limitsFromFile = true;
    } else {
      std::tie(d.lower, d.upper) = reachableRange(*work_, *data_, *inputs_, d, kRangeBudgetSeconds);
    }
    d.lower = std::min(d.lower, v);
    d.upper = std::max(d.upper, v);
  }
  info.dofs = dofs_;
  pendingDof_.assign(dofs_.size(), std::nullopt);
  initial_ = {data_->t, data_->q, inputs_->value, inputs_->follow};
  emit modelInfoReady(info);
  publish(true, true);
}

void SimulationController::finishPositions() {
  // Rates from the drivers that follow their expressions (held values have zero rate).
  if (data_->stats.converged) {
    solveVelocities(*work_, *data_);
    solveAccelerations(*work_, *data_);
  }
  updateJointCoordinates(*work_, *data_);
}

bool SimulationController::advance(double dt) {
  if (!work_) return false;
  if (dyn_) return advanceDynamic(dt);
  const double t1 = data_->t + dt;
  if (!solvePositions(*work_, *data_, t1)) return false;
  finishPositions();
  // Sliders of playing drivers show their expression's value.
  for (const DofInfo& d : dofs_)
    if (inputs_->follow[d.driver]) inputs_->value[d.driver] = inputs_->at(d.driver, t1);
  return true;
}

void SimulationController::tick() {
  if (!work_ || (dragging_ && !dyn_)) return;
  // Pacing: simulated time waits for the display rather than running ahead of it.
  if (paced_ && inFlight_.load() > 2) return;
  const bool ok = advance(speed_ * kTick);
  if (!ok) playing_ = false, timer_->stop();
  publish(true);
}

void SimulationController::play() {
  if (!work_) return;
  if (!timer_) {
    timer_ = new QTimer(this);
    timer_->setTimerType(Qt::PreciseTimer);
    timer_->setInterval(static_cast<int>(std::lround(1000 * kTick)));
    connect(timer_, &QTimer::timeout, this, &SimulationController::tick);
  }
  playing_ = true;
  timer_->start();
}

void SimulationController::pause() {
  const bool was = playing_;
  playing_ = false;
  if (timer_) timer_->stop();
  if (was && work_ && data_) publish(false);  // tells the GUI that play stopped
}

void SimulationController::stepOnce() {
  if (!work_) return;
  playing_ = false;
  if (timer_) timer_->stop();
  advance(speed_ * kTick);
  publish(true);
}

void SimulationController::reset() {
  if (!work_) return;
  playing_ = false;
  if (timer_) timer_->stop();
  restore(initial_, true);
}

void SimulationController::setSpeed(double speed) {
  if (std::isfinite(speed) && speed > 0) speed_ = speed;
}

void SimulationController::setDofValue(int dof, double value) {
  if (!work_ || dof < 0 || dof >= static_cast<int>(dofs_.size()) || !std::isfinite(value)) return;
  pendingDof_[dof] = value;
  schedule();
}

void SimulationController::setDofFollows(int dof, bool follows) {
  if (!work_ || dof < 0 || dof >= static_cast<int>(dofs_.size())) return;
  const int i = dofs_[dof].driver;
  if (!inputs_->expression[i]) return;  // added coordinate drivers have no expression
  inputs_->follow[i] = follows ? 1 : 0;
  if (follows) {
    // Back onto the expression at the current time.
    solvePositions(*work_, *data_, data_->t);
    finishPositions();
    inputs_->value[i] = inputs_->at(i, data_->t);
  }
  publish(true);
}

void SimulationController::schedule() {
  if (scheduled_) return;
  scheduled_ = true;
  QMetaObject::invokeMethod(this, [this] { process(); }, Qt::QueuedConnection);
}

void SimulationController::process() {
  scheduled_ = false;
  if (!work_) return;
  // Pacing: while the GUI has frames waiting, requests keep coalescing (latest value wins).
  // During a drag one frame at a time (the GUI acknowledges it once painted): the cursor's latest
  // target is solved for each painted frame, and no frame is solved only to be dropped.
  if (paced_ && inFlight_.load() > (dragging_ ? 0 : 1)) {
    scheduled_ = true;
    QTimer::singleShot(1, this, [this] { process(); });
    return;
  }
  bool changed = false;
  for (int i = 0; i < static_cast<int>(pendingDof_.size()); ++i) {
    if (!pendingDof_[i]) continue;
    const double v = *pendingDof_[i];
    pendingDof_[i].reset();
    if (dragging_) continue;
    applyDofValue(i, v);
    if (dyn_) restartDynamic(false);  // dynamic mode: from the slider's pose, at rest
    changed = true;
  }
  if (pendingTarget_) {
    const Vec3 target = *pendingTarget_;
    pendingTarget_.reset();
    if (dragging_) applyDragTarget(target), changed = true;
  }
  if (changed) publish(true);
}

void SimulationController::applyDofValue(int dof, double value) {
  const DofInfo& d = dofs_[dof];
  const int i = d.driver;
  const double target = std::clamp(value, d.lower, d.upper);
  double good = inputs_->at(i, data_->t);
  inputs_->follow[i] = 0;
  inputs_->value[i] = good;
  if (anmSliders_ && target != good) {
    // Along the ANM path; what it cannot reach is left to the stepped search below.
    // Each frame reads the kept series at its own value when it can (AnmSliderPath, dof_anm.h).
    const AnmMoveResult r = anmPath_->move(*work_, *data_, *inputs_, i, d.coordIndex, target, d.angular);
    if (r.converged) {
      data_->stats.solveSeconds = r.seconds;
      finishPositions();
      return;
    }
  }
  // Continuation in the slider value: steps no larger than maxStep, each solved from the last.
  const double h = maxStep(d, *work_);
  const int n = std::max(1, static_cast<int>(std::ceil(std::abs(target - good) / h)));
  const double from = good;
  for (int k = 1; k <= n; ++k) {
    const double next = from + (target - from) * k / n;
    inputs_->value[i] = next;
    if (solvePositions(*work_, *data_, data_->t)) {
      good = next;
      continue;
    }
    // Out of reach: bisect towards the last value that solved; q stays at the last solution
    // (solvePositions restores d.q on failure), so the mechanism never jumps.
    double bad = next;
    for (int b = 0; b < 8; ++b) {
      const double mid = 0.5 * (good + bad);
      inputs_->value[i] = mid;
      if (solvePositions(*work_, *data_, data_->t)) good = mid;
      else bad = mid;
    }
    inputs_->value[i] = good;
    solvePositions(*work_, *data_, data_->t);
    break;
  }
  finishPositions();
}

void SimulationController::beginDrag(const mechsim::DragPoint& point) {
  if (!work_ || point.body < 0 || point.body >= static_cast<int>(work_->bodies.size()) ||
      work_->bodies[point.body].fixed)
    return;
  if (dyn_) return beginPerturbation(point);
  if (dragging_) endDrag();
  playing_ = false;
  if (timer_) timer_->stop();
  // The drag runs on the model without drivers when there is one: the handle moves every DOF.
  const Model& m = free_ ? *free_ : *work_;
  Data& d = free_ ? *freeData_ : *data_;
  if (free_) {
    d.q = data_->q;
    d.t = data_->t;
  }
  drag_ = factory_ ? factory_() : makeNewtonDragSolver();
  drag_->begin(m, d, point);
  dragPoint_ = point;
  dragTarget_ = dragPointPosition(m, d.q, point);
  dragging_ = true;
}

void SimulationController::setDragTarget(const mechsim::Vec3& target) {
  if (!dragging_ || !target.allFinite()) return;
  pendingTarget_ = target;
  schedule();
}

void SimulationController::applyDragTarget(const Vec3& target) {
  if (dyn_) {
    dragTarget_ = target;
    return dyn_->setTarget(target);
  }
  const Model& m = free_ ? *free_ : *work_;
  Data& d = free_ ? *freeData_ : *data_;
  dragTarget_ = target;
  const DragResult r = drag_->update(m, d, target);
  if (free_) {
    data_->q = d.q;
    data_->stats = d.stats;
  }
  data_->stats.solveSeconds = r.seconds;
  data_->stats.iterations = r.iterations;
  if (!r.converged) data_->stats.message = r.message;
  // Quasi-static: no time passes during a drag.
  data_->qd.setZero();
  data_->qdd.setZero();
  updateJointCoordinates(*work_, *data_);
  // The drivers hold the new pose (angles unwrapped next to the slider's value).
  for (const DofInfo& dof : dofs_) {
    double v = data_->coords[dof.coordIndex];
    if (dof.angular) v = unwrapNear(v, inputs_->value[dof.driver]);
    inputs_->value[dof.driver] = v;
    inputs_->follow[dof.driver] = 0;
  }
}

void SimulationController::endDrag() {
  if (!dragging_) return;
  if (dyn_) return endPerturbation();
  if (pendingTarget_) {
    applyDragTarget(*pendingTarget_);
    pendingTarget_.reset();
  }
  drag_->end();
  drag_.reset();
  dragging_ = false;
  // Back on the working model, whose drivers now hold the dragged pose.
  solvePositions(*work_, *data_, data_->t);
  finishPositions();
  publish(true);
}

void SimulationController::restore(const mechsim::ui::ControllerState& state, bool record) {
  if (!work_ || state.q.size() != work_->nq || state.dofValues.size() != dofs_.size()) return;
  if (dragging_) {
    if (drag_) drag_->end();
    drag_.reset();
    if (dyn_) dyn_->release();
    dragging_ = false;
  }
  pendingTarget_.reset();
  for (auto& p : pendingDof_) p.reset();
  data_->t = state.t;
  data_->q = state.q;
  for (size_t k = 0; k < dofs_.size(); ++k) {
    inputs_->value[dofs_[k].driver] = state.dofValues[k];
    inputs_->follow[dofs_[k].driver] = k < state.dofFollows.size() ? state.dofFollows[k] : 0;
  }
  solvePositions(*work_, *data_, state.t);
  finishPositions();
  if (dyn_) restartDynamic(false);  // dynamic mode: from the restored pose, at rest
  publish(record, &state == &initial_);
}

void SimulationController::setDragSolverFactory(mechsim::ui::DragSolverFactory factory) {
  factory_ = std::move(factory);
  // Slider moves follow the ANM path (ui/dof_anm.h) when handle drags do.
  anmSliders_ = factory_ && factory_()->name() == "anm";
}

void SimulationController::beginDeformDrag(int part, int surfaceVertex, const mechsim::Vec3& target) {
  if (!work_ || deform_->empty()) return;
  deformDragging_ = deform_->setHandle(part, surfaceVertex, target);
  if (deformDragging_) startDeformTimer();
}

void SimulationController::setDeformTarget(const mechsim::Vec3& target) {
  if (deformDragging_) deform_->setHandleTarget(target);  // the next step pulls there
}

void SimulationController::endDeformDrag() {
  if (!deformDragging_) return;
  deformDragging_ = false;
  deform_->clearHandle();
  startDeformTimer();  // the part springs back: frames until it settles
}

void SimulationController::setStressColouring(bool on) {
  stressColours_ = on;
  // Time standing still: the current state again, now with (or without) its stress.
  const bool framesComing = playing_ || (deformTimer_ && deformTimer_->isActive());
  if (work_ && data_ && !deform_->empty() && !framesComing) publish(false);
}

void SimulationController::startDeformTimer() {
  if (!deformTimer_) {
    deformTimer_ = new QTimer(this);
    deformTimer_->setTimerType(Qt::PreciseTimer);
    deformTimer_->setInterval(static_cast<int>(std::lround(1000 * kTick)));
    connect(deformTimer_, &QTimer::timeout, this, &SimulationController::deformTick);
  }
  settleTicks_ = stillTicks_ = 0;
  deformTimer_->start();
}

void SimulationController::deformTick() {
  if (!work_ || deform_->empty()) return deformTimer_->stop();
  // Play's own frames step the parts (unless a body drag holds time in the kinematic mode).
  if (playing_ && !(dragging_ && !dyn_)) return;
  if (!deformDragging_) {
    stillTicks_ = deform_->maxSpeed() < kSettledSpeed ? stillTicks_ + 1 : 0;
    if (stillTicks_ >= kSettledTicks || ++settleTicks_ > kMaxSettleTicks) return deformTimer_->stop();
  }
  // Paced like a drag: one frame at a time while the handle is held.
  if (paced_ && inFlight_.load() > (deformDragging_ || dragging_ ? 0 : 1)) return;
  publish(false, false, /*stepParts=*/true);
}

void SimulationController::publish(bool recorded, bool startsHistory, bool stepParts) {
  // Snapshot what the GUI needs; it never sees Data itself.
  Frame f;
  f.model = model_;
  f.serial = ++serial_;
  f.t = data_->t;
  f.poses = bodyPoses(*model_, data_->q);
  f.stats = data_->stats;
  f.q = data_->q;
  f.qd = data_->qd;
  f.qdd = data_->qdd;
  f.coords = data_->coords;
  f.coordVel = data_->coordVel;
  f.coordAcc = data_->coordAcc;
  if (dragging_ && free_) {
    constraintResidual(*free_, *freeData_);
    f.phi = freeData_->phi;
  } else {
    constraintResidual(*work_, *data_);
    f.phi = data_->phi;
  }
  for (const DofInfo& d : dofs_) {
    f.dofValues.push_back(inputs_->value[d.driver]);
    f.dofFollows.push_back(inputs_->follow[d.driver]);
  }
  f.recorded = recorded;
  f.startsHistory = startsHistory;
  f.dragging = dragging_;
  if (dragging_) {
    f.dragPoint = dragPointPosition(*work_, data_->q, dragPoint_);
    f.dragTarget = dragTarget_;
  }
  f.playing = playing_;
  fillDynamicFrame(f);
  if (!deform_->empty()) {
    // The parts take one step with the bodies of each recorded frame; the frame that starts the
    // history (a new model, a reset) shows them at rest, at once, however long their step takes. A
    // state only re-shown (scrubbing, a pause notice) does not advance them.
    if (startsHistory) deform_->reset();
    const bool stepped = (recorded && !startsHistory) || stepParts;
    if (stepped && !deform_->step(*model_, data_->q) && f.modeMessage.empty()) f.modeMessage = deform_->message();
    f.deformIterations = deform_->iterations();  // of the last step taken
    f.deformUnconverged = deform_->unconverged();
    std::vector<std::string> solvers;  // each solver named once
    for (int k = 0; k < deform_->count(); ++k) {
      const std::string name = deform_->solverName(k);
      if (std::find(solvers.begin(), solvers.end(), name) == solvers.end()) {
        f.deformSolvers += (solvers.empty() ? "" : ", ") + name;
        solvers.push_back(name);
      }
      f.deformables.push_back(deform_->surface(k));
      if (stressColours_) f.deformableStress.push_back(deform_->surfaceStress(k));
    }
    f.deformDragging = deformDragging_ && deform_->hasHandle();
    if (f.deformDragging) {
      f.deformPoint = deform_->handlePoint();
      f.deformTarget = deform_->handleTarget();
    }
  }
  ++inFlight_;
  emit frameReady(f);
}

SimulationThread::SimulationThread(QObject* parent) : QObject(parent) {
  // The controller has no parent so that it can move; the thread deletes it when it finishes.
  controller_ = new SimulationController;
  controller_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, controller_, &QObject::deleteLater);
  thread_.setObjectName("mechsim-simulation");
  thread_.start();
}

SimulationThread::~SimulationThread() {
  controller_->stop();
  thread_.quit();
  thread_.wait();
}

template <class F>
void SimulationThread::post(F&& f) {
  QMetaObject::invokeMethod(controller_, std::forward<F>(f), Qt::QueuedConnection);
}

void SimulationThread::setModel(std::shared_ptr<const Model> model, std::shared_ptr<const MechanismSpec> spec) {
  // Counted from now until the worker begins it: the step or precomputation in progress for the
  // old model is abandoned meanwhile, and so is the one of a model already replaced again.
  controller_->modelRequested();
  post([c = controller_, m = std::move(model), s = std::move(spec)]() mutable {
    c->modelTaken();
    c->setModel(std::move(m), std::move(s));
  });
}
void SimulationThread::setDofValue(int dof, double value) { post([c = controller_, dof, value] { c->setDofValue(dof, value); }); }
void SimulationThread::setDofFollows(int dof, bool on) { post([c = controller_, dof, on] { c->setDofFollows(dof, on); }); }
void SimulationThread::play() { post([c = controller_] { c->play(); }); }
void SimulationThread::pause() { post([c = controller_] { c->pause(); }); }
void SimulationThread::stepOnce() { post([c = controller_] { c->stepOnce(); }); }
void SimulationThread::reset() { post([c = controller_] { c->reset(); }); }
void SimulationThread::setSpeed(double s) { post([c = controller_, s] { c->setSpeed(s); }); }
void SimulationThread::beginDrag(const DragPoint& p) { post([c = controller_, p] { c->beginDrag(p); }); }
void SimulationThread::setDragTarget(const Vec3& x) { post([c = controller_, x] { c->setDragTarget(x); }); }
void SimulationThread::endDrag() { post([c = controller_] { c->endDrag(); }); }
void SimulationThread::restore(const ControllerState& s, bool record) {
  post([c = controller_, s, record] { c->restore(s, record); });
}
void SimulationThread::setDynamic(bool on) { post([c = controller_, on] { c->setDynamic(on); }); }
void SimulationThread::beginDeformDrag(int part, int v, const Vec3& x) {
  post([c = controller_, part, v, x] { c->beginDeformDrag(part, v, x); });
}
void SimulationThread::setDeformTarget(const Vec3& x) { post([c = controller_, x] { c->setDeformTarget(x); }); }
void SimulationThread::endDeformDrag() { post([c = controller_] { c->endDeformDrag(); }); }
void SimulationThread::setStressColouring(bool on) { post([c = controller_, on] { c->setStressColouring(on); }); }
void SimulationThread::setDragSolverFactory(DragSolverFactory f) {
  post([c = controller_, f = std::move(f)]() mutable { c->setDragSolverFactory(std::move(f)); });
}

}  // namespace mechsim::ui
