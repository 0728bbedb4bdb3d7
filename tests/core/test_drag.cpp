// tests/core/test_drag.cpp — tests core/kinematics/drag_newton.cpp (the Newton DragSolver of
// drag.h) on the example files: a reachable target is reached with Φ = 0 and the four-bar lands on
// the configuration the position analysis gives at the same crank angle; a target out of the
// mechanism's plane gives the least-squares (in-plane) point; an unreachable target leaves the
// coupler point at a closest point (a local minimum of the distance) of its coupler curve, found
// independently by scanning the crank angle with solvePositions, and the drag there never jumps; with the drivers imposed a
// fully driven mechanism does not move; the Stewart platform and the car suspension follow a
// handle; bad requests are refused with a message and the state is kept.
#include <QtTest>

#include <cmath>
#include <vector>

#include "core/kinematics/drag.h"
#include "core/kinematics/kinematics.h"
#include "files.h"

using namespace mechsim;
using namespace mechsim::test;

namespace {

DragPoint handlePoint(const Model& m, const std::string& name, bool drivers) {
  for (const Handle& h : m.handles)
    if (h.name == name) return DragPoint{h.body, h.local, drivers};
  return {};
}

double jointRowsResidual(const Model& m, Data& d) {
  constraintResidual(m, d);
  const int rows = m.nEquations - static_cast<int>(m.drivers.size());
  return d.phi.head(rows).cwiseAbs().maxCoeff();
}

/// Drags p from its current position to `target` along a straight line in `frames` updates, as
/// the GUI does (one update per frame). Returns the last result; fails the test on a failed update.
DragResult dragAlong(const Model& m, Data& d, DragSolver& s, const DragPoint& p, const Vec3& target, int frames,
                     double* maxJump = nullptr) {
  s.begin(m, d, p);
  const Vec3 start = dragPointPosition(m, d.q, p);
  DragResult r;
  Vec3 prev = start;
  for (int k = 1; k <= frames; ++k) {
    const Vec3 c = start + (target - start) * (double(k) / frames);
    r = s.update(m, d, c);
    if (!r.converged) {
      qWarning("%s", r.message.c_str());
      return r;
    }
    const Vec3 x = dragPointPosition(m, d.q, p);
    if (maxJump) *maxJump = std::max(*maxJump, (x - prev).norm());
    prev = x;
  }
  s.end();
  return r;
}

}  // namespace

class TestDrag : public QObject {
  Q_OBJECT
 private slots:
  void fourBarReachableMatchesPositionAnalysis() {
    const Model m = loadExample("fourbar.json");
    // Reference: the crank at 60° + 25° (driver 360 t deg), solved by the position analysis.
    Data ref = makeData(m);
    const double t = 25.0 / 360.0;
    for (int k = 1; k <= 25; ++k) QVERIFY(solvePositions(m, ref, t * k / 25));
    const DragPoint p = handlePoint(m, "P", false);
    QVERIFY(p.body >= 0);
    const Vec3 target = dragPointPosition(m, ref.q, p);

    Data d = makeData(m);
    auto solver = makeNewtonDragSolver();
    QCOMPARE(solver->name(), std::string("newton"));
    const DragResult r = dragAlong(m, d, *solver, p, target, 10);
    QVERIFY2(r.converged, r.message.c_str());
    QVERIFY(r.reached);
    QVERIFY(r.distance < 1e-9);
    QVERIFY(jointRowsResidual(m, d) < 1e-10);
    QVERIFY(r.factorizations >= 1 && r.solves >= 4);
    // A coupler point of a four-bar fixes the configuration locally: same q as the reference.
    const VecX dq = d.q - ref.q;
    QVERIFY2(dq.cwiseAbs().maxCoeff() < 1e-7, qPrintable(QString::number(dq.cwiseAbs().maxCoeff())));
  }

  void fourBarOutOfPlaneTargetIsLeastSquares() {
    const Model m = loadExample("fourbar.json");
    Data ref = makeData(m);
    for (int k = 1; k <= 10; ++k) QVERIFY(solvePositions(m, ref, -10.0 / 360.0 * k / 10));
    const DragPoint p = handlePoint(m, "P", false);
    const Vec3 inPlane = dragPointPosition(m, ref.q, p);
    Data d = makeData(m);
    auto solver = makeNewtonDragSolver();
    const DragResult r = dragAlong(m, d, *solver, p, inPlane + Vec3(0, 0, 0.1), 8);
    QVERIFY2(r.converged, r.message.c_str());
    QVERIFY(!r.reached);
    QVERIFY(std::abs(r.distance - 0.1) < 1e-9);
    QVERIFY((dragPointPosition(m, d.q, p) - inPlane).norm() < 1e-7);
  }

  void fourBarUnreachableStopsAtClosestPointWithoutJumping() {
    const Model m = loadExample("fourbar.json");
    const DragPoint p = handlePoint(m, "P", false);
    // Independent reference: the coupler curve by the position analysis over a full crank turn
    // (0.05° steps) and the local minima of the distance to the target along it. A drag is a
    // descent: it must stop at one of them (where the point cannot get closer by moving a little).
    const Vec3 target(0.9, 0.9, 0.025);
    Data scan = makeData(m);
    std::vector<double> dist;
    const int n = 7200;
    for (int k = 1; k <= n; ++k) {
      QVERIFY(solvePositions(m, scan, k / double(n)));
      dist.push_back((dragPointPosition(m, scan.q, p) - target).norm());
    }
    std::vector<double> localMinima;
    for (int k = 0; k < n; ++k)
      if (dist[k] <= dist[(k + n - 1) % n] && dist[k] <= dist[(k + 1) % n]) localMinima.push_back(dist[k]);
    QVERIFY(!localMinima.empty());
    Data d = makeData(m);
    auto solver = makeNewtonDragSolver();
    double maxJump = 0;
    const Vec3 start = dragPointPosition(m, d.q, p);
    const int frames = 60;
    DragResult r = dragAlong(m, d, *solver, p, target, frames, &maxJump);
    QVERIFY2(r.converged, r.message.c_str());
    // A few more frames at the same target let the Gauss–Newton descent settle.
    solver->begin(m, d, p);
    for (int k = 0; k < 20; ++k) r = solver->update(m, d, target);
    QVERIFY(r.converged && !r.reached);
    QVERIFY(jointRowsResidual(m, d) < 1e-10);
    // The sampled curve's minima are within (0.05° × crank 0.1 m × lever ≤ 4)² ≈ 1e-6 m of the true ones.
    double nearest = 1e300;
    for (double v : localMinima) nearest = std::min(nearest, std::abs(v - r.distance));
    QVERIFY2(nearest < 1e-5, qPrintable(QString("distance %1, nearest local minimum off by %2").arg(r.distance, 0, 'g', 12).arg(nearest)));
    // No jump: per frame the point moves no more than a few target steps.
    const double stepLen = (target - start).norm() / frames;
    QVERIFY2(maxJump < 4 * stepLen, qPrintable(QString("%1 vs %2").arg(maxJump).arg(stepLen)));
  }

  void driversImposedKeepAFullyDrivenMechanismStill() {
    const Model m = loadExample("fourbar.json");
    const DragPoint p = handlePoint(m, "P", true);
    Data d = makeData(m);
    const VecX q0 = d.q;
    auto solver = makeNewtonDragSolver();
    solver->begin(m, d, p);
    const Vec3 x0 = dragPointPosition(m, d.q, p);
    const DragResult r = solver->update(m, d, x0 + Vec3(0.05, -0.03, 0));
    QVERIFY2(r.converged, r.message.c_str());
    QVERIFY(!r.reached);
    QVERIFY((d.q - q0).cwiseAbs().maxCoeff() < 1e-9);
    QVERIFY(std::abs(r.distance - std::hypot(0.05, 0.03)) < 1e-9);
  }

  void stewartAndCarFollowAHandle() {
    for (const char* file : {"stewart.json", "car-suspension.json"}) {
      const Model m = loadExample(file);
      QVERIFY(!m.handles.empty());
      const DragPoint p{m.handles[0].body, m.handles[0].local, false};
      // A reachable target: where the file's drivers take the handle at t = 0.1 s.
      Data ref = makeData(m);
      for (int k = 1; k <= 10; ++k) QVERIFY(solvePositions(m, ref, 0.01 * k));
      const Vec3 target = dragPointPosition(m, ref.q, p);
      Data d = makeData(m);
      QVERIFY((dragPointPosition(m, d.q, p) - target).norm() > 1e-3 * m.lengthScale);
      auto solver = makeNewtonDragSolver();
      const DragResult r = dragAlong(m, d, *solver, p, target, 5);
      QVERIFY2(r.converged, (std::string(file) + ": " + r.message).c_str());
      QVERIFY2(r.distance < 1e-8 * m.lengthScale,
               qPrintable(QString("%1: distance %2").arg(file).arg(r.distance)));
      QVERIFY(jointRowsResidual(m, d) < 1e-10);
      // The quaternions stay unit.
      for (const Body& b : m.bodies)
        if (b.qIndex >= 0) QVERIFY(std::abs(d.q.segment<4>(b.qIndex + 3).norm() - 1) < 1e-12);
    }
  }

  void badRequestsKeepTheState() {
    const Model m = loadExample("fourbar.json");
    Data d = makeData(m);
    const VecX q0 = d.q;
    auto solver = makeNewtonDragSolver();
    solver->begin(m, d, DragPoint{m.findBody("ground"), Vec3::Zero(), false});
    DragResult r = solver->update(m, d, Vec3(1, 1, 1));
    QVERIFY(!r.converged && !r.message.empty());
    QCOMPARE(d.q, q0);
    solver->begin(m, d, handlePoint(m, "P", false));
    r = solver->update(m, d, Vec3(std::nan(""), 0, 0));
    QVERIFY(!r.converged && !r.message.empty());
    QCOMPARE(d.q, q0);
  }
};

QTEST_GUILESS_MAIN(TestDrag)
#include "test_drag.moc"
