// tests/ui/test_dof_control.cpp — core/sim/dofs.cpp and ui/simulation_controller.cpp without a
// window: the independent coordinates of an undriven mechanism (checked against the dense rank of
// [Φ_q; ∇ coordinate], the gradient by finite differences), exact sliders (Φ = 0 and the
// coordinate equal to the slider), the reachable range (the slider-crank's dead points
// |x| = l ± r), play following the driver expression, handle drags (reachable and unreachable
// targets), restore, and the pacing of frames.
#include <QtTest>

#include <Eigen/Dense>

#include "core/io/load.h"
#include "core/kinematics/kinematics.h"
#include "core/sim/dofs.h"
#include "ui/simulation_controller.h"

using namespace mechsim;
using namespace mechsim::ui;

namespace {

// An undriven slider-crank in the xy plane: crank r = 0.1 at 90°, rod l = 0.3, slider on x.
// The prismatic joint comes first, so the mobility analysis offers its slide.
const char* kSliderCrank = R"({
  "mechsim": 1, "name": "undriven slider-crank",
  "bodies": [
    { "name": "ground", "fixed": true },
    { "name": "crank", "density": 1000, "shapes": [ { "type": "box", "size": [0.02, 0.1, 0.02], "position": [0, 0.05, 0] } ] },
    { "name": "rod", "position": [0, 0.1, 0], "density": 1000,
      "shapes": [ { "type": "box", "size": [0.28, 0.02, 0.02], "position": [0.14, -0.05, 0] } ] },
    { "name": "slider", "position": [0.282842712474619, 0, 0], "density": 1000,
      "shapes": [ { "type": "box", "size": [0.05, 0.03, 0.03] } ] }
  ],
  "joints": [
    { "name": "S", "type": "prismatic", "body1": "ground", "body2": "slider", "point": [0.282842712474619, 0, 0], "axis": [1, 0, 0] },
    { "name": "A", "type": "revolute", "body1": "ground", "body2": "crank", "point": [0, 0, 0], "axis": [0, 0, 1] },
    { "name": "B", "type": "revolute", "body1": "crank", "body2": "rod", "point": [0, 0.1, 0], "axis": [0, 0, 1] },
    { "name": "C", "type": "revolute", "body1": "rod", "body2": "slider", "point": [0.282842712474619, 0, 0], "axis": [0, 0, 1] }
  ],
  "handles": [ { "name": "pin", "body": "rod", "point": [0.1414213562373095, 0.05, 0] } ]
})";

struct Loaded {
  std::shared_ptr<const MechanismSpec> spec;
  std::shared_ptr<const Model> model;
};

Loaded load(const char* text) {
  auto spec = std::make_shared<MechanismSpec>(io::parseMechanism(text, "test.json", "."));
  Loaded l;
  l.model = std::make_shared<const Model>(io::compileSpec(*spec));
  l.spec = spec;
  return l;
}

Loaded loadFile(const char* name) {
  auto spec = std::make_shared<MechanismSpec>(io::readMechanismFile(std::string(MECHSIM_SOURCE_DIR) + "/mechanisms/" + name));
  Loaded l;
  l.model = std::make_shared<const Model>(io::compileSpec(*spec));
  l.spec = spec;
  return l;
}

/// max |Φ| of the model's joints and normalisations at q (drivers left out).
double jointResidual(const Model& m, const VecX& q) {
  Data d = makeData(m);
  d.q = q;
  constraintResidual(m, d);
  return d.phi.head(m.nJointEquations + m.nMoving).cwiseAbs().maxCoeff();
}

/// Collects the frames and model infos of a controller thread.
struct Recorder : QObject {
  std::vector<Frame> frames;
  std::vector<ModelInfo> infos;
  explicit Recorder(SimulationThread& sim) {
    connect(sim.controller(), &SimulationController::frameReady, this, [this](const Frame& f) { frames.push_back(f); },
            Qt::QueuedConnection);
    connect(sim.controller(), &SimulationController::modelInfoReady, this,
            [this](const ModelInfo& i) { infos.push_back(i); }, Qt::QueuedConnection);
  }
  /// Waits until `n` more frames than `seen` arrived.
  bool waitFor(size_t count, int ms = 10000) { return QTest::qWaitFor([&] { return frames.size() >= count; }, ms); }
  const Frame& last() const { return frames.back(); }
};

/// Waits until the controller is idle and every frame is in.
void settle(SimulationThread& sim, Recorder& rec) {
  size_t n = 0;
  quint64 published = 0;
  do {
    n = rec.frames.size();
    published = sim.controller()->framesPublished();
    QTest::qWait(60);
  } while (rec.frames.size() != n || sim.controller()->framesPublished() != published ||
           rec.frames.size() < published);
}
}  // namespace

class TestDofControl : public QObject {
  Q_OBJECT
 private slots:
  void independentCoordinateRaisesTheRank();
  void coordinateSliderIsExact();
  void reachableRangeEndsAtTheDeadPoints();
  void unreachableSliderStopsAtTheLimit();
  void driverSliderAndPlay();
  void handleDragReachableAndUnreachable();
  void restoreAndReset();
};

void TestDofControl::independentCoordinateRaisesTheRank() {
  const Loaded l = load(kSliderCrank);
  const Model& m = *l.model;
  Data d = makeData(m);
  const MobilityReport r = analyseMobility(m, d);
  QCOMPARE(r.dof, 1);
  QCOMPARE(r.dofDriven, 1);
  const auto chosen = sim::independentCoordinates(*l.spec, m, d.q, r.dofDriven);
  QCOMPARE(chosen.size(), size_t(1));
  QCOMPARE(m.joints[chosen[0].first].name, std::string("S"));

  // Reference: the coordinate's gradient by central differences of updateJointCoordinates, and
  // the dense rank (column-pivoting QR) of [Φ_q; ∇s] against that of Φ_q.
  const int c = m.joints[chosen[0].first].firstCoord + chosen[0].second;
  Eigen::RowVectorXd g(m.nq);
  for (int k = 0; k < m.nq; ++k) {
    Data p = d, n = d;
    p.q[k] += 1e-6;
    n.q[k] -= 1e-6;
    updateJointCoordinates(m, p);
    updateJointCoordinates(m, n);
    g[k] = (p.coords[c] - n.coords[c]) / 2e-6;
  }
  constraintJacobian(m, d);
  const Eigen::MatrixXd J = Eigen::MatrixXd(d.Jq).topRows(m.nJointEquations + m.nMoving);
  Eigen::MatrixXd Jg(J.rows() + 1, J.cols());
  Jg << J, g;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr1(J), qr2(Jg);
  qr1.setThreshold(1e-8);
  qr2.setThreshold(1e-8);
  QCOMPARE(int(qr1.rank()), m.nq - 1);
  QCOMPARE(int(qr2.rank()), int(qr1.rank()) + 1);
  // A coordinate whose row does not raise the rank is not taken: with S driven nothing is left.
  MechanismSpec driven = *l.spec;
  driven.drivers.push_back({"s", "S", "0", 0});
  const Model md = io::compileSpec(driven);
  Data dd = makeData(md);
  QCOMPARE(analyseMobility(md, dd).dofDriven, 0);
  QVERIFY(sim::independentCoordinates(driven, md, dd.q, 0).empty());
}

void TestDofControl::coordinateSliderIsExact() {
  const Loaded l = load(kSliderCrank);
  SimulationThread sim;
  Recorder rec(sim);
  sim.setModel(l.model, l.spec);
  QVERIFY(rec.waitFor(1));
  QCOMPARE(rec.infos.size(), size_t(1));
  const ModelInfo& info = rec.infos[0];
  QCOMPARE(info.dofs.size(), size_t(1));
  const DofInfo& dof = info.dofs[0];
  QCOMPARE(int(dof.kind), int(DofKind::Coordinate));
  QVERIFY(!dof.angular);
  for (double s : {0.05, -0.03, 0.08}) {
    sim.setDofValue(0, s);
    settle(sim, rec);
    const Frame& f = rec.last();
    QVERIFY2(std::abs(f.coords[dof.coordIndex] - s) < 1e-9, qPrintable(QString::number(f.coords[dof.coordIndex])));
    QVERIFY(std::abs(f.dofValues[0] - s) < 1e-12);
    QVERIFY(jointResidual(*l.model, f.q) < 1e-9);
    // The slider's position: the slider body moved by s along x from its file position.
    QVERIFY(std::abs(f.poses[3].position.x() - (0.282842712474619 + s)) < 1e-9);
  }
}

void TestDofControl::reachableRangeEndsAtTheDeadPoints() {
  const Loaded l = load(kSliderCrank);
  SimulationThread sim;
  Recorder rec(sim);
  sim.setModel(l.model, l.spec);
  QVERIFY(rec.waitFor(1));
  const DofInfo dof = rec.infos[0].dofs[0];
  QVERIFY(!dof.limitsFromFile);
  // Dead points: slider pin at |x| = l + r = 0.4 and l − r = 0.2 (crank and rod aligned).
  const double x0 = 0.282842712474619;
  QVERIFY2(std::abs(x0 + dof.upper - 0.4) < 2e-3, qPrintable(QString::number(x0 + dof.upper)));
  QVERIFY2(std::abs(x0 + dof.lower - 0.2) < 2e-3, qPrintable(QString::number(x0 + dof.lower)));
}

void TestDofControl::unreachableSliderStopsAtTheLimit() {
  // A spec limit wider than the reach: the slider asks beyond the dead point and the mechanism
  // stops at the last reachable value, assembled, without jumping.
  MechanismSpec spec = io::parseMechanism(kSliderCrank, "test.json", ".");
  spec.joints[0].limits = std::make_pair(-0.5, 0.5);
  auto s = std::make_shared<const MechanismSpec>(spec);
  auto m = std::make_shared<const Model>(io::compileSpec(spec));
  SimulationThread sim;
  Recorder rec(sim);
  sim.setModel(m, s);
  QVERIFY(rec.waitFor(1));
  QVERIFY(rec.infos[0].dofs[0].limitsFromFile);
  QCOMPARE(rec.infos[0].dofs[0].upper, 0.5);
  const size_t before = rec.frames.size();
  sim.setDofValue(0, 0.3);
  QTRY_VERIFY_WITH_TIMEOUT(rec.frames.size() > before, 10000 * MECHSIM_WAIT_SCALE);
  settle(sim, rec);
  const Frame& f = rec.last();
  const double x = f.poses[3].position.x();
  QVERIFY2(x < 0.4 + 1e-9 && x > 0.39, qPrintable(QString::number(x)));
  QVERIFY(f.dofValues[0] < 0.3);
  QVERIFY(std::abs(f.coords[rec.infos[0].dofs[0].coordIndex] - f.dofValues[0]) < 1e-8);
  QVERIFY(jointResidual(*m, f.q) < 1e-9);
}

void TestDofControl::driverSliderAndPlay() {
  const Loaded l = loadFile("fourbar.json");
  SimulationThread sim;
  Recorder rec(sim);
  sim.setModel(l.model, l.spec);
  QVERIFY(rec.waitFor(1));
  const ModelInfo& info = rec.infos[0];
  QCOMPARE(info.dofs.size(), size_t(1));
  const DofInfo dof = info.dofs[0];
  QCOMPARE(int(dof.kind), int(DofKind::Driver));
  QVERIFY(dof.angular);
  QVERIFY(rec.last().dofFollows[0]);
  // Slider: the crank angle equals the slider exactly (the driver equation holds it).
  sim.setDofValue(0, 1.0);
  settle(sim, rec);
  QVERIFY(std::abs(rec.last().coords[dof.coordIndex] - 1.0) < 1e-9);
  QVERIFY(!rec.last().dofFollows[0]);
  QVERIFY(jointResidual(*l.model, rec.last().q) < 1e-9);
  // Play with the driver following 360·t (deg): the crank angle is 2π t (mod 2π).
  sim.setDofFollows(0, true);
  sim.play();
  QTRY_VERIFY_WITH_TIMEOUT(!rec.frames.empty() && rec.last().t > 0.1, 10000);
  sim.pause();
  settle(sim, rec);
  const Frame& f = rec.last();
  QVERIFY(!f.playing);
  const double expected = std::remainder(2 * M_PI * f.t, 2 * M_PI);
  QVERIFY2(std::abs(std::remainder(f.coords[dof.coordIndex] - expected, 2 * M_PI)) < 1e-8,
           qPrintable(QString("%1 vs %2").arg(f.coords[dof.coordIndex]).arg(expected)));
  QVERIFY(jointResidual(*l.model, f.q) < 1e-9);
  // The crank rate is 2π rad/s.
  QVERIFY(std::abs(f.coordVel[dof.coordIndex] - 2 * M_PI) < 1e-6);
  // One step advances by one tick.
  const double t = f.t;
  sim.stepOnce();
  settle(sim, rec);
  QVERIFY(std::abs(rec.last().t - (t + SimulationController::kTick)) < 1e-12);
  // Speed scales the tick.
  sim.setSpeed(2.0);
  sim.stepOnce();
  settle(sim, rec);
  QVERIFY(std::abs(rec.last().t - (t + 3 * SimulationController::kTick)) < 1e-12);
}

void TestDofControl::handleDragReachableAndUnreachable() {
  const Loaded l = load(kSliderCrank);
  const Model& m = *l.model;
  SimulationThread sim;
  Recorder rec(sim);
  sim.setModel(l.model, l.spec);
  QVERIFY(rec.waitFor(1));
  const DragPoint p{m.handles[0].body, m.handles[0].local};
  const Vec3 x0 = dragPointPosition(m, rec.last().q, p);
  // Reachable: where the rod's midpoint is with the slide at 0.03 (one DOF: it moves on a curve).
  const ControllerState start = rec.last().state();
  sim.setDofValue(0, 0.03);
  settle(sim, rec);
  const Vec3 target = dragPointPosition(m, rec.last().q, p);
  QVERIFY((target - x0).norm() > 0.01);
  sim.restore(start, true);
  settle(sim, rec);
  sim.beginDrag(p);
  sim.setDragTarget(target);
  settle(sim, rec);
  QVERIFY(rec.last().dragging);
  QVERIFY2((dragPointPosition(m, rec.last().q, p) - target).norm() < 1e-6,
           qPrintable(QString::number((dragPointPosition(m, rec.last().q, p) - target).norm())));
  QVERIFY(jointResidual(m, rec.last().q) < 1e-9);
  // Unreachable (0.2 m out of the plane above the start): the point stays in its plane and
  // slides back along its curve to the point closest to the target — the start, x0 — with
  // the mechanism assembled on the same branch (the crank tip stays above the x axis).
  const Vec3 far = x0 + Vec3(0.0, 0.0, 0.2);
  sim.setDragTarget(far);
  settle(sim, rec);
  const Vec3 x = dragPointPosition(m, rec.last().q, p);
  QVERIFY(std::abs(x.z()) < 1e-8);
  QVERIFY2((x - x0).norm() < 1e-4, qPrintable(QString::number((x - x0).norm())));
  QVERIFY(jointResidual(m, rec.last().q) < 1e-9);
  QVERIFY(rec.last().poses[1].apply(Vec3(0, 0.1, 0)).y() > 0.09);
  sim.endDrag();
  settle(sim, rec);
  QVERIFY(!rec.last().dragging);
  // The slider (the coordinate DOF) now holds the dragged pose.
  const DofInfo dof = rec.infos[0].dofs[0];
  QVERIFY(std::abs(rec.last().coords[dof.coordIndex] - rec.last().dofValues[0]) < 1e-9);
  QVERIFY(jointResidual(m, rec.last().q) < 1e-9);
}

void TestDofControl::restoreAndReset() {
  const Loaded l = load(kSliderCrank);
  SimulationThread sim;
  Recorder rec(sim);
  sim.setModel(l.model, l.spec);
  QVERIFY(rec.waitFor(1));
  const ControllerState start = rec.last().state();
  QVERIFY(rec.last().startsHistory);
  sim.setDofValue(0, 0.06);
  settle(sim, rec);
  const ControllerState moved = rec.last().state();
  QVERIFY((moved.q - start.q).norm() > 1e-3);
  sim.restore(start, false);
  settle(sim, rec);
  QVERIFY(!rec.last().recorded);
  QVERIFY((rec.last().q - start.q).norm() < 1e-9);
  sim.restore(moved, true);
  settle(sim, rec);
  QVERIFY((rec.last().q - moved.q).norm() < 1e-9);
  sim.reset();
  settle(sim, rec);
  QVERIFY(rec.last().startsHistory);
  QVERIFY((rec.last().q - start.q).norm() < 1e-9);
  QCOMPARE(rec.last().t, 0.0);
}

QTEST_GUILESS_MAIN(TestDofControl)
#include "test_dof_control.moc"
