// tests/ui/test_simulation_controller.cpp — ui/simulation_controller.cpp: the worker thread takes
// a model, builds its Data and publishes frames whose poses are those of the file's configuration.
#include <QtTest>

#include "core/compile.h"
#include "test_models.h"
#include "ui/simulation_controller.h"

using namespace mechsim;
using namespace mechsim::ui;

namespace {
/// A compiled pendulum (makeData needs a model that went through compile): ground and an arm
/// turned 30° about z, joined by a revolute joint at the origin.
std::shared_ptr<const Model> pendulum() {
  MechanismSpec spec;
  spec.name = "pendulum";
  BodySpec ground;
  ground.name = "ground";
  ground.fixed = true;
  BodySpec arm;
  arm.name = "arm";
  arm.mass = 1.0;
  arm.inertia = Eigen::Matrix<double, 6, 1>(0.01, 0.01, 0.01, 0, 0, 0);
  arm.position = Vec3(0.1, 0.2, 0);
  arm.orientation = Quat(Eigen::AngleAxisd(M_PI / 6, Vec3::UnitZ()));
  ShapeSpec box;
  box.type = ShapeType::Box;
  box.size = Vec3(0.5, 0.05, 0.05);
  arm.shapes.push_back(box);
  spec.bodies = {ground, arm};
  JointSpec j;
  j.name = "A";
  j.type = JointType::Revolute;
  j.body1 = "ground";
  j.body2 = "arm";
  j.point = Vec3(0.1, 0.2, 0);
  spec.joints = {j};
  return std::make_shared<const Model>(compile(spec));
}
}  // namespace

class TestSimulationController : public QObject {
  Q_OBJECT
 private slots:
  void initialFrameIsTheFileConfiguration();
  void publishesFramesFromItsThread();
};

void TestSimulationController::initialFrameIsTheFileConfiguration() {
  auto model = std::make_shared<const Model>(test::fourbarModel());
  const Frame f = initialFrame(model);
  QCOMPARE(f.serial, quint64(0));
  QCOMPARE(f.poses.size(), model->bodies.size());
  for (size_t b = 0; b < f.poses.size(); ++b) {
    QVERIFY(f.poses[b].position.isApprox(model->bodies[b].pose0.position));
    QVERIFY(f.poses[b].orientation.isApprox(model->bodies[b].pose0.orientation));
  }
  QVERIFY(initialFrame(nullptr).poses.empty());
}

void TestSimulationController::publishesFramesFromItsThread() {
  SimulationThread sim;
  QVERIFY(sim.controller()->thread() != QThread::currentThread());
  std::vector<Frame> frames;
  QThread* emitter = nullptr;
  connect(sim.controller(), &SimulationController::frameReady, this, [&](const Frame& f) {
    frames.push_back(f);
    emitter = QThread::currentThread();
  }, Qt::QueuedConnection);
  auto a = pendulum();
  auto b = pendulum();
  sim.setModel(a);
  sim.setModel(b);
  QTRY_COMPARE_WITH_TIMEOUT(frames.size(), size_t(2), 5000);
  // Delivered on this (the GUI) thread, in order, each with its model and the poses of q0.
  QCOMPARE(emitter, QThread::currentThread());
  QCOMPARE(frames[0].model, a);
  QCOMPARE(frames[1].model, b);
  QVERIFY(frames[1].serial > frames[0].serial);
  const std::vector<Pose> expected = bodyPoses(*b, b->q0);
  QCOMPARE(frames[1].poses.size(), b->bodies.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    QVERIFY((frames[1].poses[i].position - b->bodies[i].pose0.position).norm() < 1e-12);
    QVERIFY(frames[1].poses[i].orientation.angularDistance(b->bodies[i].pose0.orientation) < 1e-12);
    QVERIFY((frames[1].poses[i].position - expected[i].position).norm() < 1e-12);
  }
  QCOMPARE(sim.controller()->framesPublished(), quint64(2));
  // A null model clears the state and publishes nothing.
  sim.setModel(nullptr);
  QTest::qWait(50);
  QCOMPARE(frames.size(), size_t(2));
}

QTEST_GUILESS_MAIN(TestSimulationController)
#include "test_simulation_controller.moc"
