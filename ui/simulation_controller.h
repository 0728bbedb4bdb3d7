#pragma once
// ui/simulation_controller.h — the GUI's link to the solvers (DESIGN.md: the GUI never calls a
// solver on its own thread; STYLE.md §9, MuJoCo simulate's physics loop).
//
// SimulationController is a QObject that lives on a worker QThread (SimulationThread). It owns
// the mutable state (Data) of the current Model and publishes finished Frames: plain snapshots
// (body poses, coordinates and their rates, residual, time, solver statistics) that the GUI
// thread records, plots and draws. The GUI talks to it only through queued calls (the
// SimulationThread wrappers); it never touches Data.
//
// What runs on the worker:
//   setModel       the DOF analysis (dof_analysis.h): file drivers + independent coordinates,
//                  their ranges, the working model and the drag model; then the first frame.
//   setDofValue    a slider: the held value of one driver; the position analysis follows in
//                  steps (continuation) and stops at the last reachable value.
//   setDofFollows  a driver follows its expression of t (play) or holds its slider value.
//   play / pause / step / reset / setSpeed   time: a QTimer on the worker calls advance(dt).
//   beginDrag / setDragTarget / endDrag     a handle: the DragSolver made by the factory (drag.h)
//                  on the drag model (drivers released); at the end the drivers hold the new pose.
//   restore        a recorded state (timeline scrubbing, undo / redo).
//   beginDeformDrag / setDeformTarget / endDeformDrag   a soft handle on a deformable part's surface
//                  vertex (ui/deformable_parts.h). The parts step once per frame; while the handle
//                  is held, and after it until the parts have settled, a timer on the worker
//                  publishes a frame per display tick (paced like drags) even when time is paused.
//   setStressColouring   frames carry the parts' per-vertex von Mises stress.
// Requests that arrive faster than frames are produced are coalesced (latest value wins): each
// stores its value and schedules one processing pass.
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <QObject>
#include <QThread>

#include "core/data.h"
#include "core/kinematics/drag.h"
#include "core/kinematics/kinematics.h"
#include "core/max_abs.h"
#include "core/model.h"
#include "core/spec.h"
#include "core/types.h"
#include "ui/dof_analysis.h"

class QTimer;

namespace mechsim::ui {
class AnmSliderPath;
class DeformableParts;
class DynamicMode;
}

namespace mechsim::ui {

/// What the user set: enough to put the mechanism back where it was (undo, timeline).
struct ControllerState {
  double t = 0;
  VecX q;                       // (nq)
  std::vector<double> dofValues;  // (DOFs) held values, SI
  std::vector<char> dofFollows;   // (DOFs) 1: the driver follows its expression of t
};

/// One finished frame: everything the view, the plots and the exports need at one instant.
struct Frame {
  std::shared_ptr<const Model> model;  // the (file) model the frame belongs to
  quint64 serial = 0;                  // increases with every frame the controller publishes
  double t = 0;                        // time [s]
  std::vector<Pose> poses;             // (bodies) world pose of every body
  KinematicsStats stats;               // of the solve that produced the frame
  VecX q, qd, qdd;                     // (nq)
  VecX coords, coordVel, coordAcc;     // (nCoords) joint coordinates and rates, SI
  VecX phi;                            // (rows of the model solved) Φ; joint rows first, as in `model`
  std::vector<double> dofValues;       // (DOFs)
  std::vector<char> dofFollows;        // (DOFs)
  bool recorded = true;                // false: a restored state re-shown (timeline scrubbing)
  bool startsHistory = false;          // true: a new model or a reset; earlier history is over
  bool dragging = false;               // a handle drag is on
  Vec3 dragPoint = Vec3::Zero();       // the dragged point (world) …
  Vec3 dragTarget = Vec3::Zero();      // … and where the cursor wants it
  bool playing = false;
  // Dynamic mode (ui/dynamic_mode.h): energies, reactions, the drag spring's work; and the
  // mode's last message (entered, not available, a failed step) for the status bar.
  bool dynamic = false;
  double kinetic = 0, potential = 0;   // J
  double perturbationWork = 0;         // J, done by drag springs since the mode started
  std::vector<Vec3> reactionForce;     // (joints) N, on body2 (world axes)
  std::vector<Vec3> reactionTorque;    // (joints) N·m about the joint point on body2
  // Contact of the dynamic mode's last step (core/dynamics contact stage): the points with their
  // normals (from body A to body B) and normal impulses, and the solve's statistics.
  struct ContactMark {
    Vec3 point = Vec3::Zero(), normal = Vec3::UnitZ();
    double normalImpulse = 0;  // N·s
  };
  std::vector<ContactMark> contacts;
  // Deformable parts (ui/deformable_parts.h): each part's boundary surface in this frame's state.
  std::vector<std::shared_ptr<const MeshData>> deformables;
  // With stress colouring on: per part, the von Mises stress at each surface vertex (Pa).
  std::vector<std::shared_ptr<const std::vector<float>>> deformableStress;
  std::string deformSolvers;           // the parts' solvers ("newton", "jgs2-jacobi, newton", ...)
  int deformIterations = 0;            // their iterations in the last step taken
  int deformUnconverged = 0;           // parts whose last step stopped at the iteration cap
  bool deformDragging = false;         // a soft handle pulls a deformable part's vertex …
  Vec3 deformPoint = Vec3::Zero();     // … now here (world) …
  Vec3 deformTarget = Vec3::Zero();    // … towards the cursor's target
  bool hasContact = false;             // the model has contact (the statistics below mean something)
  int contactIterations = 0;           // sweeps of the mixed LCP solve
  double contactResidual = 0;          // its RES (paper 000), N·s
  double maxPenetration = 0;           // m
  std::string modeMessage;

  double maxResidual() const { return maxAbs(phi); }
  ControllerState state() const { return {t, q, dofValues, dofFollows}; }
};

/// What the GUI learns once per model: the sliders and the mobility report.
struct ModelInfo {
  std::shared_ptr<const Model> model;
  std::vector<DofInfo> dofs;
  MobilityReport mobility;             // of the file model at its assembled configuration
  bool hasSpec = false;                // coordinates sliders and handle drags of every DOF available
  std::string message;                 // why the DOF analysis or the deformable parts fell short, when they did
};

/// World poses of all bodies at coordinates q (fixed bodies: pose0), via core's bodyPose.
std::vector<Pose> bodyPoses(const Model& m, const VecX& q);

/// The frame of a model at its file's configuration, without any solver (serial 0). The GUI
/// shows it at once when a file opens, before the controller's first frame arrives.
Frame initialFrame(std::shared_ptr<const Model> model);

using DragSolverFactory = std::function<std::unique_ptr<DragSolver>()>;

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
  void restore(const mechsim::ui::ControllerState& state, bool record);
  void setDragSolverFactory(mechsim::ui::DragSolverFactory factory);
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

 signals:
  /// A finished frame; connect with a queued connection from the GUI thread.
  void frameReady(const mechsim::ui::Frame& frame);
  /// The sliders of a new model (before its first frame).
  void modelInfoReady(const mechsim::ui::ModelInfo& info);
  /// Where the JGS2 precomputation of `model`'s deformable parts is (DeformableParts::setProgress);
  /// `model` is the Model's address, to tell a replaced model's line from the current one's.
  void deformPreparing(quintptr model, const QString& text);

 private:
  /// Advances time by dt with the drivers that follow their expressions: the position,
  /// velocity and acceleration analyses at t + dt. The single step of the kinematic mode; a
  /// dynamic mode replaces this function. Returns false when the position analysis failed.
  bool advance(double dt);
  // Dynamic mode (defined in ui/dynamic_mode.cpp).
  bool advanceDynamic(double dt);
  void copyDynamicState();
  void restartDynamic(bool keepRates);
  void beginPerturbation(const DragPoint& point);
  void endPerturbation();
  void fillDynamicFrame(Frame& f) const;
  void tick();
  void process();
  void schedule();
  void applyDofValue(int dof, double value);
  void applyDragTarget(const Vec3& target);
  void finishPositions();
  /// Publishes a frame. The deformable parts take one step when `recorded` or `stepParts`.
  void publish(bool recorded, bool startsHistory = false, bool stepParts = false);
  /// The deformable-parts timer: one frame per tick while a soft handle is held or the parts
  /// move after it, when play does not produce frames already.
  void deformTick();
  void startDeformTimer();

  std::shared_ptr<const Model> model_;        // the file model
  std::shared_ptr<const MechanismSpec> spec_;
  std::unique_ptr<Model> work_;                // file drivers + coordinate drivers, read from inputs_
  std::unique_ptr<Model> free_;                // no drivers (handle drags); null without a spec
  std::shared_ptr<DriverInputs> inputs_;
  std::vector<DofInfo> dofs_;
  std::unique_ptr<Data> data_;                 // of work_
  std::unique_ptr<Data> freeData_;             // of free_ (during drags)
  ControllerState initial_;                    // the assembled file configuration (reset)

  DragSolverFactory factory_;
  std::unique_ptr<DynamicMode> dyn_;           // dynamic mode on: non-null
  bool resumeAfterDrag_ = false;               // dynamic drag: play went on before the grab
  std::string modeMessage_;
  bool anmSliders_ = false;                    // the factory makes ANM solvers: sliders follow the ANM path too
  std::unique_ptr<AnmSliderPath> anmPath_;     // the series of the last ANM slider step (dof_anm.h)
  std::unique_ptr<DeformableParts> deform_;    // the file's deformable parts (one step per frame)
  std::unique_ptr<DragSolver> drag_;
  DragPoint dragPoint_;
  Vec3 dragTarget_ = Vec3::Zero();
  bool dragging_ = false;
  bool stressColours_ = false;
  bool deformDragging_ = false;                // a soft handle on a deformable part is held
  QTimer* deformTimer_ = nullptr;
  int settleTicks_ = 0;                        // deformTick frames since the handle was released
  int stillTicks_ = 0;                         // consecutive ones with the parts nearly still

  QTimer* timer_ = nullptr;
  double speed_ = 1.0;
  bool playing_ = false;

  // Coalesced requests.
  std::vector<std::optional<double>> pendingDof_;
  std::optional<Vec3> pendingTarget_;
  bool scheduled_ = false;

  std::atomic<quint64> serial_{0};
  std::atomic<int> inFlight_{0};
  std::atomic<bool> paced_{false};
  std::atomic<int> modelsPending_{0};  // setModel calls posted and not yet begun
  std::atomic<bool> stopping_{false};
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
  void setDragSolverFactory(DragSolverFactory factory);
  void setDynamic(bool on);
  void beginDeformDrag(int part, int surfaceVertex, const Vec3& target);
  void setDeformTarget(const Vec3& target);
  void endDeformDrag();
  void setStressColouring(bool on);

 private:
  template <class F>
  void post(F&& f);
  QThread thread_;
  SimulationController* controller_ = nullptr;
};

}  // namespace mechsim::ui

Q_DECLARE_METATYPE(mechsim::ui::Frame)
Q_DECLARE_METATYPE(mechsim::ui::ModelInfo)
