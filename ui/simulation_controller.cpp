// ui/simulation_controller.cpp — worker-thread owner of Data, publishing frames to the GUI.
#include "ui/simulation_controller.h"

#include <QMetaObject>

namespace mechsim::ui {

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
  }
  return f;
}

SimulationController::SimulationController(QObject* parent) : QObject(parent) {
  qRegisterMetaType<mechsim::ui::Frame>("mechsim::ui::Frame");
}

SimulationController::~SimulationController() = default;

void SimulationController::setModel(std::shared_ptr<const mechsim::Model> model) {
  // New state for the new model; the old Data goes with the old model.
  model_ = std::move(model);
  data_.reset();
  if (!model_) return;
  data_ = std::make_unique<Data>(makeData(*model_));
  publish();
}

void SimulationController::publish() {
  // Snapshot what the view needs; the GUI thread never sees Data itself.
  Frame f;
  f.model = model_;
  f.serial = ++serial_;
  f.t = data_->t;
  f.poses = bodyPoses(*model_, data_->q);
  f.stats = data_->stats;
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
  thread_.quit();
  thread_.wait();
}

void SimulationThread::setModel(std::shared_ptr<const Model> model) {
  QMetaObject::invokeMethod(
      controller_, [c = controller_, m = std::move(model)]() mutable { c->setModel(std::move(m)); },
      Qt::QueuedConnection);
}

}  // namespace mechsim::ui
