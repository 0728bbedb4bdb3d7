#pragma once
// ui/simulation_controller.h — the GUI's link to the solvers (DESIGN.md: the GUI never calls a
// solver on its own thread; STYLE.md §9, MuJoCo simulate's physics loop).
//
// SimulationController is a QObject that lives on a worker QThread (SimulationThread). It holds the
// engine's model and data of the open mechanism (core/sim: sim::Model, sim::Data) and runs the
// engine's stages on them; it holds no algorithm of its own. It publishes finished Frames (the
// engine's sim::Frame and what the GUI adds: serial, recorded, playing, the mode's message) that
// the GUI thread records, plots and draws. The GUI talks to it only through queued calls (the
// SimulationThread wrappers); it never touches the Data.
//
// What runs on the worker (the stage each request runs, core/sim/stages.h):
//   setModel       sim::compile (the DOF analysis, the working and drag models, the sliders'
//                  ranges, the deformable parts with their JGS2 precomputation), sim::makeData;
//                  then a ModelInfo and the first frame.
//   setDofValue    a slider: sim::setDof (continuation, or the ANM path; the last reachable value).
//   setDofFollows  sim::setDofFollows: a driver follows its expression of t (play) or holds.
//   play / pause / step / reset / setSpeed   time: a QTimer on the worker calls sim::advance(dt)
//                  for every tick the wall clock says is due since play (speed 1: simulated time
//                  keeps to the clock; frames the display cannot take are dropped, tick());
//                  reset is sim::restore of the assembled start.
//   beginDrag / setDragTarget / endDrag     a handle: sim::beginDrag / dragTo / endDrag.
//   restore        sim::restore of a recorded state (timeline scrubbing, undo / redo).
//   setDynamic     sim::setDynamic: time runs by the forward dynamics; drags pull with a spring.
//   beginDeformDrag / setDeformTarget / endDeformDrag   sim::setDeformHandle / moveDeformHandle /
//                  clearDeformHandle. The parts step once per frame (sim::stepDeformables); while
//                  the handle is held, and after it until the parts have settled, a timer on the
//                  worker publishes a frame per display tick (paced like drags) even when time is
//                  paused.
//   setStressColouring   frames carry the parts' per-vertex von Mises stress.
//   editModel      an edited mechanism (inspector, parameters, building): sim::compile of the new
//                  model, the current pose restored in it (else its assembled start); accepted
//                  only when it assembles, else refused with the reason and the old model kept
//                  as it was (editDone says which). Edits coalesce like the other requests.
// Requests that arrive faster than frames are produced are coalesced (latest value wins): each
// stores its value and schedules one processing pass.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include <QElapsedTimer>
#include <QObject>
#include <QThread>

#include "core/kinematics/drag.h"
#include "core/kinematics/kinematics.h"
#include "core/model.h"
#include "core/sim/data.h"
#include "core/sim/frame.h"
#include "core/sim/model.h"
#include "core/sim/stages.h"
#include "core/spec.h"
#include "core/types.h"

class QTimer;

namespace mechsim::ui {

using DofInfo = sim::DofInfo;
using DofKind = sim::DofKind;

/// What the user set: enough to put the mechanism back where it was (undo, timeline).
using ControllerState = sim::State;

/// One finished frame: the engine's snapshot (core/sim/frame.h) and what the GUI adds to it.
struct Frame : sim::Frame {
  quint64 serial = 0;                  // increases with every frame the controller publishes
  bool recorded = true;                // false: a restored state re-shown (timeline scrubbing)
  bool startsHistory = false;          // true: a new model or a reset; earlier history is over
  bool playing = false;
  // The mode's last message (entered, not available, a failed step) for the status bar.
  std::string modeMessage;

  ControllerState state() const { return {t, q, dofValues, dofFollows}; }
};

/// An edited mechanism for the controller (editModel): the new file model and its spec.
struct EditRequest {
  quint64 id = 0;                              // the GUI's number of the edit (EditResult::id)
  std::shared_ptr<const Model> model;
  std::shared_ptr<const MechanismSpec> spec;
};

/// What an edit came to. Accepted: the controller runs the new model from now on (its ModelInfo
/// and first frame follow); refused: the old model, its pose and history stay as they were.
struct EditResult {
  quint64 id = 0;
  bool accepted = false;
  std::string message;                         // refused: why; accepted: what to know, or empty
  std::shared_ptr<const Model> model;          // the request's
  std::shared_ptr<const MechanismSpec> spec;
};

/// Why `data`'s configuration does not assemble (empty when it does): the joint whose equations
/// are furthest from met and by how much, in the model's own words.
std::string assemblyFailure(const Model& model, const Data& data);

/// The positions q of model `from` carried to model `to` (an edit of it; bodies by name): each
/// body where it is now, moved as the edit moved its file pose; bodies new in `to` at q0 (its own).
VecX carriedPose(const Model& from, const VecX& q, const Model& to, const VecX& q0);

/// What the GUI learns once per model: the sliders and the mobility report.
struct ModelInfo {
  std::shared_ptr<const Model> model;
  std::vector<DofInfo> dofs;
  MobilityReport mobility;             // of the file model at its assembled configuration
  bool hasSpec = false;                // coordinates sliders and handle drags of every DOF available
  std::string message;                 // why the DOF analysis or the deformable parts fell short, when they did
};

using sim::bodyPoses;

/// The frame of a model at its file's configuration, without any solver (serial 0). The GUI
/// shows it at once when a file opens, before the controller's first frame arrives.
Frame initialFrame(std::shared_ptr<const Model> model);

class SimulationController : public QObject {
  Q_OBJECT
 public:
  explicit SimulationController(QObject* parent = nullptr);
  ~SimulationController() override;

  /// Frames published so far (any thread; for tests and diagnostics).
  quint64 framesPublished() const { return serial_.load(); }
  /// Frame pacing: with it on, time does not advance while more than a few published frames are
  /// waiting to be shown (the GUI calls frameShown() for each). Off by default (tests).
  void setPaced(bool on) { paced_ = on; }
  void frameShown() { --inFlight_; }
  /// Long work on the worker — a deformable part's step or its JGS2 precomputation — is abandoned
  /// while a model change is on its way or the controller is stopping (any thread): the worker
  /// then reaches the next request within one solver iteration. SimulationThread calls these.
  void modelRequested() { ++modelsPending_; }
  void modelTaken() { --modelsPending_; }
  void stop() { stopping_ = true; }
  /// Requests posted by SimulationThread and not yet run to their end (any thread): 0 when the
  /// worker has nothing of the GUI's left to do (tests wait for it).
  int requestsPending() const { return requests_.load(); }
  /// The deformable parts are stepped frame by frame outside play: a soft handle is held, or they
  /// have not settled since it was released (any thread).
  bool partsMoving() const { return partsMoving_.load(); }
  void requestPosted() { ++requests_; }
  void requestDone() { --requests_; }

  /// Length of one play tick in simulated seconds at speed 1 (the display's 60 Hz).
  static constexpr double kTick = 1.0 / 60.0;

 public slots:
  /// Takes a new model (on the worker thread): the DOF analysis, fresh Data at the file's
  /// configuration, then a ModelInfo and a frame. `spec` (may be null) lets the analysis add
  /// coordinate drivers and release the drivers for handle drags. A null model clears the state.
  void setModel(std::shared_ptr<const mechsim::Model> model, std::shared_ptr<const mechsim::MechanismSpec> spec);

  void setDofValue(int dof, double value);
  void setDofFollows(int dof, bool follows);
  void play();
  void pause();
  void stepOnce();
  void reset();
  void setSpeed(double speed);
  void beginDrag(const mechsim::DragPoint& point);
  void setDragTarget(const mechsim::Vec3& target);
  void endDrag();
  void restore(const mechsim::sim::State& state, bool record);
  /// The solver of handle drags (and, with Anm, of slider moves) from now on.
  void setDragMethod(mechsim::sim::DragMethod method);
  /// Dynamic mode on / off (ui/dynamic_mode.h): time advances by the forward dynamics; handle
  /// drags pull with a spring-damper. The frame's modeMessage says why when it cannot start.
  void setDynamic(bool on);
  /// A soft handle on surface vertex `surfaceVertex` of deformable part `part` pulled to `target`.
  void beginDeformDrag(int part, int surfaceVertex, const mechsim::Vec3& target);
  void setDeformTarget(const mechsim::Vec3& target);
  /// Removes the handle; frames go on until the parts have settled.
  void endDeformDrag();
  /// Frames carry the per-vertex stress of the deformable parts (Frame::deformableStress). When
  /// time stands still the current state is published again at once, with its stress.
  void setStressColouring(bool on);
  /// Runs the latest edit posted with postEdit() (older ones it replaced are dropped unanswered).
  void takeEdit();

 public:
  /// Stores `edit` as the one to run next (any thread), replacing one not yet taken; the caller
  /// then queues takeEdit(). Returns the id of the edit it replaced (0: none).
  quint64 postEdit(EditRequest edit);

 signals:
  /// The outcome of an edit; emitted before the new model's ModelInfo and frame.
  void editDone(const mechsim::ui::EditResult& result);
  /// A finished frame; connect with a queued connection from the GUI thread.
  void frameReady(const mechsim::ui::Frame& frame);
  /// The sliders of a new model (before its first frame).
  void modelInfoReady(const mechsim::ui::ModelInfo& info);
  /// Where the JGS2 precomputation of `model`'s deformable parts is (DeformableParts::setProgress);
  /// `model` is the Model's address, to tell a replaced model's line from the current one's.
  void deformPreparing(quintptr model, const QString& text);

 private:
  /// Advances time by dt (sim::advance: the kinematic analyses, or the dynamics in dynamic mode).
  /// Returns false when it failed (the last good state is kept; the mode's message says why).
  bool advance(double dt);
  void tick();
  void process();
  void schedule();
  void applyDofValue(int dof, double value);
  void applyDragTarget(const Vec3& target);
  void beginPerturbation(const DragPoint& point);
  void endPerturbation();
  /// Publishes a frame. The deformable parts take one step when `recorded` or `stepParts`.
  void publish(bool recorded, bool startsHistory = false, bool stepParts = false);
  /// The deformable-parts timer: one frame per tick while a soft handle is held or the parts
  /// move after it, when play does not produce frames already.
  void deformTick();
  void startDeformTimer();
  void stopDeformTimer();
  /// The engine's options for the GUI: the defaults, with the file services (expressions, the JGS2
  /// cache), the device when built, and the worker's cancel and progress lines.
  sim::Options engineOptions();

  std::shared_ptr<const Model> model_;        // the file model
  std::shared_ptr<const sim::Model> sim_;     // the engine's model of it
  std::unique_ptr<sim::Data> data_;           // its data (on this worker only)
  ControllerState initial_;                    // the assembled file configuration (reset)
  sim::DragMethod dragMethod_ = sim::DragMethod::Newton;
  bool resumeAfterDrag_ = false;               // dynamic drag: play went on before the grab
  std::string modeMessage_;
  bool stressColours_ = false;
  bool deformDragging_ = false;                // a soft handle on a deformable part is held
  QTimer* deformTimer_ = nullptr;
  int settleTicks_ = 0;                        // deformTick frames since the handle was released
  int stillTicks_ = 0;                         // consecutive ones with the parts nearly still
  std::string cacheDir_;                       // the JGS2 cache folder, as $MECHSIM_CACHE_DIR said when made

  QTimer* timer_ = nullptr;
  double speed_ = 1.0;
  bool playing_ = false;
  QElapsedTimer playClock_;                    // wall time since play began
  qint64 ticksDone_ = 0;                       // play ticks advanced since then
  /// Play gives up a lag of more than this many ticks (a quarter of a second) behind the clock.
  static constexpr qint64 kMaxLagTicks = 15;

  // Coalesced requests.
  std::vector<std::optional<double>> pendingDof_;
  std::optional<Vec3> pendingTarget_;
  bool scheduled_ = false;
  std::mutex editMutex_;                       // guards pendingEdit_ (postEdit from the GUI thread)
  std::optional<EditRequest> pendingEdit_;

  std::atomic<quint64> serial_{0};
  std::atomic<int> inFlight_{0};
  std::atomic<bool> paced_{false};
  std::atomic<int> modelsPending_{0};  // setModel calls posted and not yet begun
  std::atomic<bool> stopping_{false};
  std::atomic<int> requests_{0};       // posted and not yet done (requestsPending)
  std::atomic<bool> partsMoving_{false};  // the deformable-parts timer runs (partsMoving)
};

/// Owns the worker thread and the controller living on it; stops the thread on destruction
/// (abandoning a long deformable step or precomputation, SimulationController::stop()).
/// Its methods queue the controller's slots on the worker (callable from the GUI thread).
class SimulationThread : public QObject {
  Q_OBJECT
 public:
  explicit SimulationThread(QObject* parent = nullptr);
  ~SimulationThread() override;

  /// The controller (lives on the worker: call its slots through queued invocations only).
  SimulationController* controller() const { return controller_; }
  void setModel(std::shared_ptr<const Model> model, std::shared_ptr<const MechanismSpec> spec = nullptr);
  void setDofValue(int dof, double value);
  void setDofFollows(int dof, bool follows);
  void play();
  void pause();
  void stepOnce();
  void reset();
  void setSpeed(double speed);
  void beginDrag(const DragPoint& point);
  void setDragTarget(const Vec3& target);
  void endDrag();
  void restore(const ControllerState& state, bool record);
  void setDragMethod(sim::DragMethod method);
  void setDynamic(bool on);
  void beginDeformDrag(int part, int surfaceVertex, const Vec3& target);
  void setDeformTarget(const Vec3& target);
  void endDeformDrag();
  void setStressColouring(bool on);
  /// An edited mechanism (SimulationController::editModel); coalesced, latest wins.
  void editModel(EditRequest edit);

 private:
  template <class F>
  void post(F&& f);
  QThread thread_;
  SimulationController* controller_ = nullptr;
};

}  // namespace mechsim::ui

Q_DECLARE_METATYPE(mechsim::ui::Frame)
Q_DECLARE_METATYPE(mechsim::ui::ModelInfo)
Q_DECLARE_METATYPE(mechsim::ui::EditResult)
