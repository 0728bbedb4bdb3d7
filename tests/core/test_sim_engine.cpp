// tests/core/test_sim_engine.cpp — the engine's stages (core/sim/stages.h) on the example
// mechanisms: makeData assembles the file (Φ = 0); a slider move meets its value exactly; bad
// requests are refused with a message and change nothing; a handle drag reaches its target and the
// drivers then hold the pose; time advances along the drivers' expressions; restore puts a state
// back; a driver past the mechanism's reach fails with the analysis's message and keeps the last
// good state; dynamic mode keeps the pendulum's energy; one Model serves two Datas on two threads with
// the same results as one thread.
#include <QtTest>

#include <cmath>
#include <thread>

#include "core/io/engine.h"
#include "core/kinematics/kinematics.h"
#include "core/max_abs.h"
#include "core/sim/frame.h"
#include "core/sim/stages.h"

using namespace mechsim;

namespace {

sim::Model load(const char* name) {
  sim::Options o;
  o.rangeBudgetSeconds = 0.1;
  o.jgs2 = sim::computeJgs2();
  return io::loadEngine(std::string(MECHSIM_SOURCE_DIR "/mechanisms/") + name, o);
}

/// max |Φ| of the bound working model at d's state.
double residual(const sim::Data& d) {
  mechsim::Data r = d.rigid;
  constraintResidual(*d.work, r);
  return maxAbs(r.phi);
}

}  // namespace

class TestSimEngine : public QObject {
  Q_OBJECT
 private slots:
  void makeDataAssemblesTheFile() {
    const sim::Model m = load("fourbar.json");
    QCOMPARE(m.dofCount(), 1);
    QCOMPARE(m.dofs[0].name, std::string("crank"));
    QCOMPARE(m.mobility.dof, 1);
    QCOMPARE(int(m.mobility.redundant.size()), 3);
    const sim::Data d = sim::makeData(m);
    QVERIFY(d.rigid.stats.converged);
    QVERIFY2(residual(d) < 1e-10, qPrintable(QString::number(residual(d))));
    QCOMPARE(d.t(), 0.0);
    QCOMPARE(int(d.inputs->follow[0]), 1);  // the file driver follows its expression
  }

  void sliderMoveMeetsItsValue() {
    // The crank driven to 100° from 60°, by continuation in 5° steps: the coordinate equals the
    // held value and Φ = 0 there; the driver holds it from now on (time moves nothing).
    const sim::Model m = load("fourbar.json");
    sim::Data d = sim::makeData(m);
    const double target = 100 * M_PI / 180;
    QVERIFY2(sim::setDof(m, d, "crank", target), d.message.c_str());
    QVERIFY(std::abs(d.inputs->value[0] - target) < 1e-15);
    QCOMPARE(int(d.inputs->follow[0]), 0);
    const double crank = d.rigid.coords[m.dofs[0].coordIndex];
    QVERIFY2(std::abs(std::remainder(crank - target, 2 * M_PI)) < 1e-9, qPrintable(QString::number(crank)));
    QVERIFY(residual(d) < 1e-10);
    const VecX q = d.rigid.q;
    QVERIFY(sim::advance(m, d, 0.1));
    QVERIFY((d.rigid.q - q).norm() < 1e-9);
    // Following its expression again: at t = 0.1 the crank is at 360°/s · 0.1 s = 36°.
    QVERIFY(sim::setDofFollows(m, d, 0, true));
    QVERIFY(std::abs(d.inputs->value[0] - 36 * M_PI / 180) < 1e-12);
  }

  void turningDofIsNotClamped() {
    // The crank turns without end (sim::isTurning: its reachable range is one turn): moved three
    // turns and 100° on at once it gets there, unwrapped, and so does its joint angle.
    const sim::Model m = load("fourbar.json");
    QVERIFY(sim::isTurning(m.dofs[0]));
    sim::Data d = sim::makeData(m);
    const double target = 3 * 2 * M_PI + 100 * M_PI / 180;
    QVERIFY(target > m.dofs[0].upper);
    QVERIFY2(sim::setDof(m, d, "crank", target), d.message.c_str());
    QVERIFY(std::abs(d.inputs->value[0] - target) < 1e-12);
    QVERIFY2(std::abs(d.rigid.coords[m.dofs[0].coordIndex] - target) < 1e-9,
             qPrintable(QString::number(d.rigid.coords[m.dofs[0].coordIndex])));
    QVERIFY(residual(d) < 1e-10);
  }

  void badRequestsChangeNothing() {
    const sim::Model m = load("fourbar.json");
    sim::Data d = sim::makeData(m);
    const VecX q = d.rigid.q;
    QVERIFY(!sim::setDof(m, d, "rocker", 0.1));
    QVERIFY2(QString::fromStdString(d.message).contains("no DOF named \"rocker\" (the DOFs: crank)"), d.message.c_str());
    QVERIFY(!sim::setDof(m, d, 0, std::nan("")));
    QVERIFY2(QString::fromStdString(d.message).contains("not a finite number"), d.message.c_str());
    QVERIFY(!sim::setDof(m, d, 7, 0.1));
    QVERIFY(!sim::beginDrag(m, d, "Q"));
    QVERIFY2(QString::fromStdString(d.message).contains("(the handles: P)"), d.message.c_str());
    QVERIFY(!sim::beginDrag(m, d, DragPoint{0, Vec3::Zero(), true}));  // the ground is fixed
    QVERIFY(!sim::dragTo(m, d, Vec3(0, 0, 0)));  // no drag on
    QVERIFY(!sim::stepDynamics(m, d, 1e-3));     // dynamic mode off
    QCOMPARE(d.rigid.q, q);
  }

  void dragReachesItsTargetAndTheDriversHold() {
    // The coupler point P dragged in ten frames to where it is with the crank 10° on (the four-bar
    // has one DOF: P moves on its coupler curve, so the targets in between, on the chord, are met in
    // the least-squares sense): every frame is solved (Φ = 0), no time passes, the last target is
    // reached; after the drag the crank's driver holds the pose the drag left, 10° on.
    const sim::Model m = load("fourbar.json");
    sim::Data d = sim::makeData(m);
    const Handle& h = m.file->handles[0];
    sim::Data ahead = sim::makeData(m);
    QVERIFY(sim::setDof(m, ahead, 0, 10 * M_PI / 180));
    const Vec3 goal = bodyPose(*m.file, ahead.rigid.q, h.body).apply(h.local);
    QVERIFY(sim::beginDrag(m, d, "P"));
    const Vec3 start = d.dragTarget;
    QVERIFY((goal - start).norm() > 0.01);
    for (int k = 1; k <= 10; ++k) {
      QVERIFY2(sim::dragTo(m, d, start + (goal - start) * (k / 10.0)), d.message.c_str());
      QVERIFY(residual(d) < 1e-9);
      QCOMPARE(d.rigid.qd.norm(), 0.0);
    }
    const Vec3 p = bodyPose(*m.file, d.rigid.q, h.body).apply(h.local);
    QVERIFY2((p - goal).norm() < 1e-8, qPrintable(QString::number((p - goal).norm())));
    QVERIFY(d.lastDrag.reached);
    QVERIFY(sim::frame(m, d).dragging);
    sim::endDrag(m, d);
    QVERIFY(!d.dragging);
    QVERIFY(residual(d) < 1e-10);
    const double crank = d.rigid.coords[m.dofs[0].coordIndex];
    QVERIFY2(std::abs(crank - 10 * M_PI / 180) < 1e-6, qPrintable(QString::number(crank)));
    QVERIFY(std::abs(d.inputs->value[0] - crank) < 1e-12);
    QCOMPARE(int(d.inputs->follow[0]), 0);
  }

  void timeFollowsTheDriversAndRestoreGoesBack() {
    const sim::Model m = load("fourbar.json");
    sim::Data d = sim::makeData(m);
    const sim::State start = sim::state(m, d);
    for (int k = 1; k <= 12; ++k) QVERIFY(sim::advance(m, d, 1.0 / 60));
    QVERIFY(std::abs(d.t() - 0.2) < 1e-12);
    const double crank = d.rigid.coords[m.dofs[0].coordIndex];  // 0 at the file pose, 360°/s
    QVERIFY2(std::abs(std::remainder(crank - 72 * M_PI / 180, 2 * M_PI)) < 1e-9, qPrintable(QString::number(crank)));
    QVERIFY(std::abs(d.rigid.coordVel[m.dofs[0].coordIndex] - 2 * M_PI) < 1e-6);
    const sim::State later = sim::state(m, d);
    QVERIFY(sim::restore(m, d, start));
    QVERIFY((d.rigid.q - start.q).norm() < 1e-12);
    QVERIFY(sim::restore(m, d, later));
    QVERIFY((d.rigid.q - later.q).norm() < 1e-12);
    sim::assemble(m, d);
    QVERIFY((d.rigid.q - m.q0).norm() < 1e-12);
    QCOMPARE(d.t(), 0.0);
    sim::State wrong = start;
    wrong.q.resize(3);
    QVERIFY(!sim::restore(m, d, wrong));
  }

  void unreachableDriverKeepsTheLastGoodPose() {
    // tests/data/good/slider_crank_unreachable.json (written for the clear-failure tests): the
    // slider driven out at 100 mm/s reaches the crank and rod in line at t = (0.45 − x0) / 0.1 s =
    // 0.169873 s (x0 = 0.1 cos 30° + sqrt(0.35² − 0.05²) m). Advanced to the output times k·0.01 s
    // as the command line does, the first past it (0.17 s) fails: Data::message is the analysis's own
    // ("cannot assemble at t = 0.17 s: …; the last good pose (t = 0.16 s) is kept") and the state
    // (q, rates, coordinates, time) is that of the last good row; trying again changes nothing.
    sim::Options o;
    o.rangeBudgetSeconds = 0.1;
    const sim::Model m =
        io::loadEngine(std::string(MECHSIM_SOURCE_DIR "/tests/data/good/slider_crank_unreachable.json"), o);
    const double x0 = 0.1 * std::cos(M_PI / 6) + std::sqrt(0.35 * 0.35 - 0.05 * 0.05);
    const long kFail = static_cast<long>(std::floor((0.45 - x0) / 0.1 / 0.01)) + 1;
    sim::Data d = sim::makeData(m);
    mechsim::Data good = d.rigid;
    long k = 1;
    for (; k <= 100 && sim::advanceTo(m, d, k * 0.01); ++k) good = d.rigid;
    QCOMPARE(k, kFail);
    const QString msg = QString::fromStdString(d.message);
    QVERIFY2(msg.startsWith("cannot assemble at t = 0.17 s: the residual stalls at "), qPrintable(msg));
    QVERIFY2(msg.contains("(joint \"B\" furthest from met, by "), qPrintable(msg));
    QVERIFY2(msg.endsWith("; the last good pose (t = 0.16 s) is kept"), qPrintable(msg));
    QCOMPARE(d.message, d.rigid.stats.message);  // one message, the engine's
    for (int again = 0; again < 2; ++again) {
      QCOMPARE(d.t(), good.t);
      QVERIFY(d.rigid.q == good.q && d.rigid.qd == good.qd && d.rigid.qdd == good.qdd);
      QVERIFY(d.rigid.coords == good.coords);
      QVERIFY(residual(d) < 1e-10);
      QVERIFY(!sim::advance(m, d, 0.01));
    }
    const sim::Frame f = sim::frame(m, d);
    QCOMPARE(f.t, good.t);
    QVERIFY(f.q == good.q);
  }

  void dynamicModeKeepsThePendulumsEnergy() {
    // IFToMM A01: the pendulum released at rest, 1 s in dynamic mode; the explicit stepper's energy
    // error stays below 1e-3 of the initial energy scale; back in kinematic mode the pose stays.
    const sim::Model m = load("dynamics/a01-pendulum.json");
    sim::Data d = sim::makeData(m);
    QVERIFY2(sim::setDynamic(m, d, true), d.message.c_str());
    QVERIFY(sim::isDynamic(d));
    const EnergyReport e0 = d.dynamics->energy();
    double worst = 0;
    for (int k = 0; k < 20; ++k) {
      QVERIFY2(sim::advance(m, d, 0.05), d.message.c_str());
      worst = std::max(worst, std::abs(d.dynamics->energy().total() - e0.total()));
    }
    const sim::Frame f = sim::frame(m, d);
    QVERIFY(f.dynamic);
    QVERIFY(f.kinetic > 0);
    const double scale = std::abs(e0.potential) + 1;
    QVERIFY2(worst < 1e-3 * scale, qPrintable(QString::number(worst)));
    const VecX q = d.rigid.q;
    QVERIFY(sim::setDynamic(m, d, false));
    QVERIFY(!sim::isDynamic(d));
    QVERIFY((d.rigid.q - q).norm() < 1e-6);
  }

  void oneModelTwoDataTwoThreads() {
    // Each Data binds its own working model and expression evaluators: two threads advancing two
    // Datas of one Model give exactly what one thread gives.
    const sim::Model m = load("slider-crank.json");
    auto run = [&m](VecX& out) {
      sim::Data d = sim::makeData(m);
      for (int k = 1; k <= 200; ++k)
        if (!sim::advanceTo(m, d, k * 0.005)) return;
      out = d.rigid.q;
    };
    VecX serial, a, b;
    run(serial);
    std::thread ta([&] { run(a); }), tb([&] { run(b); });
    ta.join();
    tb.join();
    QCOMPARE(serial.size(), m.nq());
    QCOMPARE(a, serial);
    QCOMPARE(b, serial);
  }
};

QTEST_APPLESS_MAIN(TestSimEngine)
#include "test_sim_engine.moc"
