#pragma once
// ui/simulation_controller.h — the GUI's link to the solvers (DESIGN.md: the GUI never calls a
// solver on its own thread; STYLE.md §9, MuJoCo simulate's physics loop).
//
// SimulationController is a QObject that lives on a worker QThread (SimulationThread). It owns
// the mutable state (Data) of the current Model and publishes finished Frames: plain snapshots
// (body poses, time, solver statistics) that the GUI thread turns into a Scene and draws. The GUI
// talks to it only through queued slots; it never touches Data.
//
// Today it only publishes the file's configuration (makeData(model)). Later issues add slots here
// that run on the worker: setDriverValue(driver, value) and play/pause (a QTimer on the worker
// stepping t, solvePositions/solveVelocities per tick), setHandleTarget(handle, point) for
// dragging; each request updates Data and ends with publish(). Requests that arrive faster than
// frames are produced should be coalesced (latest value wins).
#include <atomic>
#include <memory>
#include <vector>

#include <QObject>
#include <QThread>

#include "core/data.h"
#include "core/model.h"
#include "core/types.h"

namespace mechsim::ui {

/// One finished frame: everything the view needs to draw the mechanism at one instant.
struct Frame {
  std::shared_ptr<const Model> model;  // the model the poses belong to
  quint64 serial = 0;                  // increases with every frame the controller publishes
  double t = 0;                        // time [s]
  std::vector<Pose> poses;             // (bodies) world pose of every body
  KinematicsStats stats;               // of the solve that produced the frame
};

/// World poses of all bodies at coordinates q (fixed bodies: pose0), via core's bodyPose.
std::vector<Pose> bodyPoses(const Model& m, const VecX& q);

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

 public slots:
  /// Takes a new model (on the worker thread): fresh Data at the file's configuration, then a
  /// frame. A null model clears the state.
  void setModel(std::shared_ptr<const mechsim::Model> model);

 signals:
  /// A finished frame; connect with a queued connection from the GUI thread.
  void frameReady(const mechsim::ui::Frame& frame);

 private:
  void publish();

  std::shared_ptr<const Model> model_;
  std::unique_ptr<Data> data_;
  std::atomic<quint64> serial_{0};
};

/// Owns the worker thread and the controller living on it; stops the thread on destruction.
class SimulationThread : public QObject {
  Q_OBJECT
 public:
  explicit SimulationThread(QObject* parent = nullptr);
  ~SimulationThread() override;

  /// The controller (lives on the worker: call its slots through queued invocations only).
  SimulationController* controller() const { return controller_; }
  /// Queues controller()->setModel(model) on the worker thread.
  void setModel(std::shared_ptr<const Model> model);

 private:
  QThread thread_;
  SimulationController* controller_ = nullptr;
};

}  // namespace mechsim::ui

Q_DECLARE_METATYPE(mechsim::ui::Frame)
