// ui/simulation_controller.cpp — the worker-thread client of the engine: requests from the GUI
// become the engine's stages (core/sim/stages.h) on the open mechanism's sim::Data; finished
// frames go back to the GUI.
#include "ui/simulation_controller.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <QElapsedTimer>
#include <QMetaObject>
#include <QScopeGuard>
#include <QTimer>

#include "core/io/engine.h"
#include "core/io/jgs2_cache.h"
#ifdef MECHSIM_HAVE_CUDA
#include "gpu/engine_device.h"
#endif

namespace mechsim::ui {
namespace {
/// After a soft handle on a deformable part is released, frames go on until every vertex has been
/// slower than kSettledSpeed for kSettledTicks frames in a row, or for kMaxSettleTicks frames.
constexpr double kSettledSpeed = 5e-3;  // m/s
constexpr int kSettledTicks = 10;
constexpr int kMaxSettleTicks = 900;
}  // namespace

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

SimulationController::SimulationController(QObject* parent)
    : QObject(parent), cacheDir_(io::defaultJgs2CacheDir()) {
  qRegisterMetaType<mechsim::ui::Frame>("mechsim::ui::Frame");
  qRegisterMetaType<mechsim::ui::ModelInfo>("mechsim::ui::ModelInfo");
  qRegisterMetaType<mechsim::ui::EditResult>("mechsim::ui::EditResult");
}

SimulationController::~SimulationController() = default;

sim::Options SimulationController::engineOptions() {
  sim::Options o;  // the engine's defaults: one display tick per deformable step, the GUI's caps
  o.deformStep = kTick;
  o.drag = dragMethod_;
  o.cancel = [this] { return stopping_.load() || modelsPending_.load() > 0; };
  const quintptr id = reinterpret_cast<quintptr>(model_.get());
  o.progress = [this, id](const std::string& text) { emit deformPreparing(id, QString::fromStdString(text)); };
#ifdef MECHSIM_HAVE_CUDA
  o.device = gpu::engineDevice();
#endif
  return io::engineOptions(std::move(o), cacheDir_);
}

void SimulationController::setModel(std::shared_ptr<const mechsim::Model> model,
                                    std::shared_ptr<const mechsim::MechanismSpec> spec) {
  // New state for the new model; the old Data goes with the old model.
  pause();
  deformDragging_ = false;
  stopDeformTimer();
  pendingDof_.clear();
  pendingTarget_.reset();
  modeMessage_.clear();  // a new model opens in kinematic mode
  data_.reset();
  sim_.reset();
  model_ = std::move(model);
  if (!model_) return;
  ModelInfo info;
  info.model = model_;
  try {
    sim_ = std::make_shared<const sim::Model>(sim::compile(std::move(spec), model_, engineOptions()));
  } catch (const deform::Cancelled&) {
    return;  // a newer model is on its way (or the window closes): it follows
  } catch (const std::exception& e) {
    info.message = e.what();
    sim_ = std::make_shared<const sim::Model>(sim::compile(nullptr, model_, engineOptions()));
  }
  data_ = std::make_unique<sim::Data>(sim::makeData(*sim_));
  info.dofs = sim_->dofs;
  info.mobility = sim_->mobility;
  info.hasSpec = sim_->spec && sim_->free;
  // (A message of a model already replaced again says nothing: that model follows.)
  if (modelsPending_.load() == 0) {
    for (const std::string& m : {sim_->message, data_->message})
      if (!m.empty()) info.message += (info.message.empty() ? "" : "; ") + m;
  }
  pendingDof_.assign(sim_->dofs.size(), std::nullopt);
  initial_ = sim::state(*sim_, *data_);
  emit modelInfoReady(info);
  publish(true, true);
}

std::string assemblyFailure(const Model& m, const Data& d) {
  // The position analysis's own tolerance is 1e-10; what the GUI shows as not met is kResidualShown.
  constexpr double kMet = 1e-6;
  double worst = 0;
  int joint = -1;
  for (std::size_t j = 0; j < m.joints.size(); ++j) {  // the joints' rows of Φ come first, in joint order
    const Joint& jt = m.joints[j];
    for (int r = jt.firstEquation; r < jt.firstEquation + jt.nEquations && r < d.phi.size(); ++r)
      if (std::abs(d.phi[r]) > worst) worst = std::abs(d.phi[r]), joint = static_cast<int>(j);
  }
  const double all = d.phi.size() ? d.phi.cwiseAbs().maxCoeff() : 0.0;
  if (std::isfinite(all) && all <= kMet && d.stats.converged) return {};
  char buf[160];
  if (!std::isfinite(all))
    return "the position analysis diverged";
  if (joint >= 0 && worst >= all)
    std::snprintf(buf, sizeof buf, "joint \"%s\" stays %.3g apart (the residual stalls at %.3g)", m.joints[joint].name.c_str(),
                  worst, all);
  else
    std::snprintf(buf, sizeof buf, "the drivers' equations stay unmet (the residual stalls at %.3g)", all);
  return buf;
}

VecX carriedPose(const Model& from, const VecX& q, const Model& to, const VecX& q0) {
  // Each body of the new model where the old one is now, moved as the edit moved its file pose:
  // T = T_now · (T_file_old)⁻¹ · T_file_new — a body whose file pose the edit left alone stays
  // where it is, one the edit moved (its position typed, a parameter) moves by as much in its own
  // frame. The position analysis then closes the loops from there, on the branch it was on.
  VecX out = q0;
  for (const Body& b : to.bodies) {
    if (b.fixed || b.qIndex < 0) continue;
    const int k = from.findBody(b.name);
    if (k < 0 || from.bodies[k].fixed || from.bodies[k].qIndex < 0 || from.bodies[k].qIndex + 7 > q.size()) continue;
    const Body& old = from.bodies[k];
    const Vec3 r = q.segment<3>(old.qIndex);
    const Quat R = Quat(q[old.qIndex + 3], q[old.qIndex + 4], q[old.qIndex + 5], q[old.qIndex + 6]).normalized();
    const Quat delta = R * old.pose0.orientation.conjugate();  // T_now · T_file_old⁻¹: rotation part
    const Vec3 rNew = r + delta * (b.pose0.position - old.pose0.position);
    const Quat qNew = (delta * b.pose0.orientation).normalized();
    out.segment<3>(b.qIndex) = rNew;
    out[b.qIndex + 3] = qNew.w(), out[b.qIndex + 4] = qNew.x(), out[b.qIndex + 5] = qNew.y(), out[b.qIndex + 6] = qNew.z();
  }
  return out;
}

quint64 SimulationController::postEdit(EditRequest edit) {
  std::lock_guard<std::mutex> lock(editMutex_);
  const quint64 replaced = pendingEdit_ ? pendingEdit_->id : 0;
  pendingEdit_ = std::move(edit);
  return replaced;
}

void SimulationController::takeEdit() {
  std::optional<EditRequest> edit;
  {
    std::lock_guard<std::mutex> lock(editMutex_);
    edit.swap(pendingEdit_);
  }
  if (!edit || !edit->model) return;  // a later takeEdit: the edit was run already
  EditResult result;
  result.id = edit->id;
  result.model = edit->model;
  result.spec = edit->spec;
  // The new engine model; the old one keeps running until the new one assembles. The sliders'
  // range search (up to Options::rangeBudgetSeconds per DOF) is left out when the DOFs are those
  // of the old model: they keep their ranges (an edit must be re-solved and drawn at once), and a
  // slider moved past what the new geometry reaches stops at the last reachable value (setDof).
  sim::Options o = engineOptions();
  const bool hadModel = sim_ && data_;
  o.rangeBudgetSeconds = 0;
  // The engine's compile; a failure refuses the edit with its reason (a newer edit or the window's
  // end abandons it: no answer, the next one follows).
  auto compile = [&](const sim::Options& opt) -> std::shared_ptr<sim::Model> {
    try {
      return std::make_shared<sim::Model>(sim::compile(edit->spec, edit->model, opt));
    } catch (const deform::Cancelled&) {
    } catch (const std::exception& e) {
      result.message = e.what();
      emit editDone(result);
    }
    return nullptr;
  };
  std::shared_ptr<sim::Model> next = compile(o);
  if (!next) return;
  bool sameDofs = hadModel && next->dofs.size() == sim_->dofs.size();
  for (std::size_t k = 0; sameDofs && k < next->dofs.size(); ++k)
    sameDofs = next->dofs[k].name == sim_->dofs[k].name && next->dofs[k].kind == sim_->dofs[k].kind;
  if (sameDofs) {
    for (std::size_t k = 0; k < next->dofs.size(); ++k)
      if (!next->dofs[k].limitsFromFile) {
        next->dofs[k].lower = std::min(sim_->dofs[k].lower, next->dofValues0[k]);
        next->dofs[k].upper = std::max(sim_->dofs[k].upper, next->dofValues0[k]);
      }
  } else {
    // New DOFs (a joint or driver added or removed): their ranges are searched as for a new file.
    next = compile(engineOptions());
    if (!next) return;
  }
  auto data = std::make_unique<sim::Data>(sim::makeData(*next));
  const sim::State start = sim::state(*next, *data);  // the new model's assembled start (reset)
  // The pose reached (slider values, drags, time) is kept when the coordinates are the same: the
  // new mechanism is solved there, from the old positions (the same assembly branch). An edit it
  // cannot be solved at is refused (SolveSpace's unsolvable dimension), the old one stays.
  std::string why;
  if (hadModel && sameDofs && !sim::isDynamic(*data_)) {
    sim::State here = sim::state(*sim_, *data_);
    here.q = carriedPose(*model_, data_->rigid.q, *edit->model, data->rigid.q);
    sim::restore(*next, *data, here);
    why = assemblyFailure(*data->work, data->rigid);
    if (!why.empty()) why = "cannot assemble at the pose reached (t = " + std::to_string(here.t).substr(0, 6) + " s): " + why +
                            "; the last good mechanism is kept (Simulation → Reset goes back to the file's configuration)";
  } else {
    why = assemblyFailure(*data->work, data->rigid);
    if (!why.empty()) why = "cannot assemble: " + why + "; the last good mechanism is kept";
  }
  if (!why.empty()) {
    result.message = why;
    emit editDone(result);
    return;
  }
  // Accepted: the new model and data replace the old ones (as setModel does, keeping the pose).
  result.accepted = true;
  emit editDone(result);
  pause();
  deformDragging_ = false;
  stopDeformTimer();
  pendingTarget_.reset();
  modeMessage_.clear();
  model_ = edit->model;
  sim_ = std::move(next);
  data_ = std::move(data);
  ModelInfo info;
  info.model = model_;
  info.dofs = sim_->dofs;
  info.mobility = sim_->mobility;
  info.hasSpec = sim_->spec && sim_->free;
  info.message = sim_->message;
  pendingDof_.assign(sim_->dofs.size(), std::nullopt);
  initial_ = start;
  emit modelInfoReady(info);
  publish(true, true);
}

bool SimulationController::advance(double dt) {
  if (!data_) return false;
  const bool ok = sim::advance(*sim_, *data_, dt);
  // A failed step — the dynamics', or a pose the drivers ask for that cannot be assembled — is shown
  // once in the status bar (the engine's message: "cannot assemble at t = …; the last good pose
  // (t = …) is kept"); the last good state is kept. A step that succeeds clears the message (it was
  // shown when it came: the status bar shows a frame's message when it changes).
  modeMessage_ = ok ? std::string() : data_->message;
  return ok;
}

void SimulationController::tick() {
  if (!data_ || (data_->dragging && !sim::isDynamic(*data_))) return;
  // Play follows the wall clock: one tick of speed · kTick simulated seconds is due per kTick of
  // wall time since play began, however late the timer fires. A lag beyond kMaxLagTicks (a stall:
  // a modal dialog, a long request) is given up rather than raced through.
  const qint64 due = static_cast<qint64>(playClock_.nsecsElapsed() * 1e-9 / kTick) + 1;
  ticksDone_ = std::max(ticksDone_, due - kMaxLagTicks);
  if (ticksDone_ >= due) return;
  // Pacing: while the GUI has frames waiting no frame is added; the ticks wait (the clock does not).
  if (paced_ && inFlight_.load() > 2) return;
  // The ticks due, each from the last (continuation keeps its small steps), and only the last one
  // published: frames the display could not show are dropped, not slowed down for. Solving may
  // take no longer than the wall time it catches up; a solve slower than that slows play down.
  // Deformable parts take one step of one tick (Options::deformStep) per frame published: with
  // them a frame advances one tick, and a part's step slower than a tick slows play down.
  const qint64 last = sim_->parts.empty() ? due : std::min(due, ticksDone_ + 1);
  QElapsedTimer spent;
  spent.start();
  bool ok = true;
  while (ok && ticksDone_ < last) {
    ok = advance(speed_ * kTick);
    ++ticksDone_;
    if (spent.nsecsElapsed() * 1e-9 > kTick) ticksDone_ = std::max(ticksDone_, last);
  }
  if (!ok) playing_ = false, timer_->stop();
  publish(true);
}

void SimulationController::play() {
  if (!data_) return;
  if (!timer_) {
    timer_ = new QTimer(this);
    timer_->setTimerType(Qt::PreciseTimer);
    // A little under a tick (16 of its 16.7 ms): a fire finds at most one tick due as a rule; the
    // clock (tick()) says how many.
    timer_->setInterval(static_cast<int>(1000 * kTick));
    connect(timer_, &QTimer::timeout, this, &SimulationController::tick);
  }
  playing_ = true;
  playClock_.start();
  ticksDone_ = 0;
  timer_->start();
}

void SimulationController::pause() {
  const bool was = playing_;
  playing_ = false;
  if (timer_) timer_->stop();
  if (was && data_) publish(false);  // tells the GUI that play stopped
}

void SimulationController::stepOnce() {
  if (!data_) return;
  playing_ = false;
  if (timer_) timer_->stop();
  advance(speed_ * kTick);
  publish(true);
}

void SimulationController::reset() {
  if (!data_) return;
  playing_ = false;
  if (timer_) timer_->stop();
  restore(initial_, true);
}

void SimulationController::setSpeed(double speed) {
  if (std::isfinite(speed) && speed > 0) speed_ = speed;
}

void SimulationController::setDofValue(int dof, double value) {
  if (!data_ || dof < 0 || dof >= sim_->dofCount() || !std::isfinite(value)) return;
  pendingDof_[dof] = value;
  schedule();
}

void SimulationController::setDofFollows(int dof, bool follows) {
  if (!data_ || !sim::setDofFollows(*sim_, *data_, dof, follows)) return;
  publish(true);
}

void SimulationController::schedule() {
  if (scheduled_) return;
  scheduled_ = true;
  requestPosted();  // pending until process() has run (requestsPending)
  QMetaObject::invokeMethod(this, [this] { process(); }, Qt::QueuedConnection);
}

void SimulationController::process() {
  // Pacing: while the GUI has frames waiting, requests keep coalescing (latest value wins).
  // During a drag one frame at a time (the GUI acknowledges it once painted): the cursor's latest
  // target is solved for each painted frame, and no frame is solved only to be dropped.
  if (data_ && paced_ && inFlight_.load() > (data_->dragging ? 0 : 1)) {
    QTimer::singleShot(1, this, [this] { process(); });  // still scheduled, still pending
    return;
  }
  scheduled_ = false;
  const auto done = qScopeGuard([this] { requestDone(); });
  if (!data_) return;
  bool changed = false;
  for (int i = 0; i < static_cast<int>(pendingDof_.size()); ++i) {
    if (!pendingDof_[i]) continue;
    const double v = *pendingDof_[i];
    pendingDof_[i].reset();
    if (data_->dragging) continue;
    applyDofValue(i, v);
    changed = true;
  }
  if (pendingTarget_) {
    const Vec3 target = *pendingTarget_;
    pendingTarget_.reset();
    if (data_->dragging) applyDragTarget(target), changed = true;
  }
  if (changed) publish(true);
}

void SimulationController::applyDofValue(int dof, double value) {
  // The slider's move (in dynamic mode the run restarts there, at rest); one it cannot reach stops
  // at the last reachable value, where the mechanism stays.
  const bool dynamic = sim::isDynamic(*data_);
  sim::setDof(*sim_, *data_, dof, value);
  if (dynamic && !sim::isDynamic(*data_)) modeMessage_ = data_->message;
}

void SimulationController::beginDrag(const mechsim::DragPoint& point) {
  if (!data_ || point.body < 0 || point.body >= static_cast<int>(model_->bodies.size()) ||
      model_->bodies[point.body].fixed)
    return;
  if (sim::isDynamic(*data_)) return beginPerturbation(point);
  if (data_->dragging) endDrag();
  playing_ = false;
  if (timer_) timer_->stop();
  sim::beginDrag(*sim_, *data_, point);
}

void SimulationController::setDragTarget(const mechsim::Vec3& target) {
  if (!data_ || !data_->dragging || !target.allFinite()) return;
  pendingTarget_ = target;
  schedule();
}

void SimulationController::applyDragTarget(const Vec3& target) { sim::dragTo(*sim_, *data_, target); }

void SimulationController::endDrag() {
  if (!data_ || !data_->dragging) return;
  if (sim::isDynamic(*data_)) return endPerturbation();
  if (pendingTarget_) {
    applyDragTarget(*pendingTarget_);
    pendingTarget_.reset();
  }
  sim::endDrag(*sim_, *data_);
  publish(true);
}

void SimulationController::beginPerturbation(const DragPoint& point) {
  sim::beginDrag(*sim_, *data_, point);
  resumeAfterDrag_ = playing_;
  // Time runs while the spring pulls.
  if (!playing_) play();
  modeMessage_.clear();
}

void SimulationController::endPerturbation() {
  if (pendingTarget_) {
    applyDragTarget(*pendingTarget_);
    pendingTarget_.reset();
  }
  sim::endDrag(*sim_, *data_);
  if (!resumeAfterDrag_) pause();
  publish(true);
}

void SimulationController::restore(const mechsim::sim::State& state, bool record) {
  if (!data_) return;
  pendingTarget_.reset();
  for (auto& p : pendingDof_) p.reset();
  const bool dynamic = sim::isDynamic(*data_);
  if (!sim::restore(*sim_, *data_, state)) return;
  if (dynamic && !sim::isDynamic(*data_)) modeMessage_ = data_->message;
  publish(record, &state == &initial_);
}

void SimulationController::setDragMethod(mechsim::sim::DragMethod method) {
  dragMethod_ = method;
  if (data_) sim::setDragMethod(*sim_, *data_, method);
}

void SimulationController::setDynamic(bool on) {
  if (!data_) return;
  if (data_->dragging) endDrag();
  if (!on) {
    modeMessage_ = "Kinematic mode";
    sim::setDynamic(*sim_, *data_, false);
    publish(true);
    return;
  }
  if (!sim::setDynamic(*sim_, *data_, true)) {
    modeMessage_ = data_->message;
    publish(false);
    return;
  }
  const Vec3 g = model_->gravity;
  char buf[160];
  std::snprintf(buf, sizeof buf, "Dynamic mode: gravity (%g, %g, %g) m/s², time step %g s", g.x(), g.y(), g.z(),
                data_->dynamics->timestep());
  modeMessage_ = buf;
  // A coordinate that started beyond a joint limit was moved onto it before the first step
  // (DynamicsStepper::initialize): say so, the first of them in full.
  const std::vector<std::string>& notices = data_->dynamics->stats().notices;
  if (!notices.empty())
    modeMessage_ += " · " + (notices.size() == 1 ? std::string("1 joint was") : std::to_string(notices.size()) + " joints were") +
                    " beyond a limit: " + notices.front();
  publish(true);
}

void SimulationController::beginDeformDrag(int part, int surfaceVertex, const mechsim::Vec3& target) {
  if (!data_ || sim_->parts.empty()) return;
  deformDragging_ = sim::setDeformHandle(*sim_, *data_, part, surfaceVertex, target);
  if (deformDragging_) startDeformTimer();
}

void SimulationController::setDeformTarget(const mechsim::Vec3& target) {
  if (deformDragging_) sim::moveDeformHandle(*sim_, *data_, target);  // the next step pulls there
}

void SimulationController::endDeformDrag() {
  if (!deformDragging_) return;
  deformDragging_ = false;
  sim::clearDeformHandle(*sim_, *data_);
  startDeformTimer();  // the part springs back: frames until it settles
}

void SimulationController::setStressColouring(bool on) {
  stressColours_ = on;
  // Time standing still: the current state again, now with (or without) its stress.
  const bool framesComing = playing_ || (deformTimer_ && deformTimer_->isActive());
  if (data_ && !sim_->parts.empty() && !framesComing) publish(false);
}

void SimulationController::startDeformTimer() {
  if (!deformTimer_) {
    deformTimer_ = new QTimer(this);
    deformTimer_->setTimerType(Qt::PreciseTimer);
    deformTimer_->setInterval(static_cast<int>(std::lround(1000 * kTick)));
    connect(deformTimer_, &QTimer::timeout, this, &SimulationController::deformTick);
  }
  settleTicks_ = stillTicks_ = 0;
  partsMoving_ = true;
  deformTimer_->start();
}

void SimulationController::stopDeformTimer() {
  if (deformTimer_) deformTimer_->stop();
  partsMoving_ = false;
}

void SimulationController::deformTick() {
  if (!data_ || sim_->parts.empty()) return stopDeformTimer();
  // Play's own frames step the parts (unless a body drag holds time in the kinematic mode).
  const bool dynamic = sim::isDynamic(*data_);
  if (playing_ && !(data_->dragging && !dynamic)) return;
  if (!deformDragging_) {
    stillTicks_ = sim::deformMaxSpeed(*data_) < kSettledSpeed ? stillTicks_ + 1 : 0;
    if (stillTicks_ >= kSettledTicks || ++settleTicks_ > kMaxSettleTicks) return stopDeformTimer();
  }
  // Paced like a drag: one frame at a time while the handle is held.
  if (paced_ && inFlight_.load() > (deformDragging_ || data_->dragging ? 0 : 1)) return;
  publish(false, false, /*stepParts=*/true);
}

void SimulationController::publish(bool recorded, bool startsHistory, bool stepParts) {
  // The deformable parts take one step with the bodies of each recorded frame; the frame that
  // starts the history (a new model, a reset) shows them at rest, at once, however long their step
  // takes. A state only re-shown (scrubbing, a pause notice) does not advance them.
  std::string partsMessage;
  if (!sim_->parts.empty()) {
    if (startsHistory) sim::resetDeformables(*sim_, *data_);
    const bool stepped = (recorded && !startsHistory) || stepParts;
    if (stepped && !sim::stepDeformables(*sim_, *data_)) partsMessage = data_->message;
  }
  // Snapshot what the GUI needs; it never sees Data itself.
  Frame f;
  static_cast<sim::Frame&>(f) = sim::frame(*sim_, *data_, sim::FrameOptions{stressColours_, true});
  f.serial = ++serial_;
  f.recorded = recorded;
  f.startsHistory = startsHistory;
  f.playing = playing_;
  f.modeMessage = modeMessage_.empty() ? partsMessage : modeMessage_;
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
  // Counted until it has run, so that a caller can tell a worker still busy with a request from one
  // that is idle (SimulationController::requestsPending).
  controller_->requestPosted();
  QMetaObject::invokeMethod(
      controller_,
      [c = controller_, f = std::forward<F>(f)]() mutable {
        f();
        c->requestDone();
      },
      Qt::QueuedConnection);
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
void SimulationThread::editModel(EditRequest edit) {
  controller_->postEdit(std::move(edit));
  post([c = controller_] { c->takeEdit(); });
}
void SimulationThread::setDragMethod(sim::DragMethod m) { post([c = controller_, m] { c->setDragMethod(m); }); }

}  // namespace mechsim::ui
