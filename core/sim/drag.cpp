// core/sim/drag.cpp — handle drags (core/sim/stages.h). Kinematic mode: the drag solver
// (core/kinematics/drag.h — Newton on Φ = 0 stacked with the handle's least-squares rows, or the
// ANM continuation of paper 004, core/anm/anm_drag.h) on Model::free, the model without drivers,
// so that the handle moves every DOF; no time passes (quasi-static: rates zero) and at the end the
// drivers hold the dragged pose. Dynamic mode: a spring-damper pulls the point while time runs
// (core/sim/dynamic_run.h).
#include <chrono>

#include "core/anm/anm_drag.h"
#include "core/kinematics/kinematics.h"
#include "core/sim/internal.h"
#include "core/sim/stages.h"

namespace mechsim::sim {
namespace {
using Clock = std::chrono::steady_clock;

/// The model and state a kinematic drag solves on: the drag model when there is one.
const mechsim::Model& dragModel(const Model& m, const Data& d) { return m.free ? *m.free : *d.work; }
mechsim::Data& dragData(const Model& m, Data& d) { return m.free ? d.freeData : d.rigid; }
}  // namespace

bool beginDrag(const Model& m, Data& d, const DragPoint& point) {
  d.message.clear();
  if (point.body < 0 || point.body >= static_cast<int>(m.file->bodies.size()) || m.file->bodies[point.body].fixed) {
    d.message = "only a point of a moving body can be dragged";
    return false;
  }
  if (d.dragging) endDrag(m, d);
  if (d.dynamics) {
    d.dragPoint = point;
    d.dragTarget = dragPointPosition(*m.file, d.rigid.q, point);
    d.dynamics->grab(point, d.dragTarget);
    d.dragging = true;
    return true;
  }
  const mechsim::Model& dm = dragModel(m, d);
  mechsim::Data& dd = dragData(m, d);
  if (m.free) {
    dd.q = d.rigid.q;
    dd.t = d.rigid.t;
  }
  d.drag = d.dragMethod == DragMethod::Anm ? makeAnmDragSolver() : makeNewtonDragSolver();
  d.drag->begin(dm, dd, point);
  d.dragPoint = point;
  d.dragTarget = dragPointPosition(dm, dd.q, point);
  d.dragging = true;
  return true;
}

bool beginDrag(const Model& m, Data& d, const std::string& handle) {
  const int h = m.findHandle(handle);
  if (h < 0) {
    std::string names;
    for (const Handle& x : m.file->handles) names += (names.empty() ? "" : ", ") + x.name;
    d.message = "no handle named \"" + handle + "\" (the handles: " + (names.empty() ? "none" : names) + ")";
    return false;
  }
  const Handle& x = m.file->handles[h];
  return beginDrag(m, d, DragPoint{x.body, x.local, true});
}

bool dragTo(const Model& m, Data& d, const Vec3& target) {
  if (!d.dragging) {
    d.message = "no drag is on (beginDrag first)";
    return false;
  }
  if (!target.allFinite()) {
    d.message = "the drag target is not finite";
    return false;
  }
  d.dragTarget = target;
  if (d.dynamics) {
    d.dynamics->setTarget(target);
    return true;
  }
  const auto t0 = Clock::now();
  const mechsim::Model& dm = dragModel(m, d);
  mechsim::Data& dd = dragData(m, d);
  const DragResult r = d.drag->update(dm, dd, target);
  d.lastDrag = r;
  if (m.free) {
    d.rigid.q = dd.q;
    d.rigid.stats = dd.stats;
  }
  d.rigid.stats.solveSeconds = r.seconds;
  d.rigid.stats.iterations = r.iterations;
  if (!r.converged) d.rigid.stats.message = r.message;
  d.message = r.converged ? std::string() : r.message;
  // Quasi-static: no time passes during a drag.
  d.rigid.qd.setZero();
  d.rigid.qdd.setZero();
  updateJointCoordinates(*d.work, d.rigid);
  // The drivers hold the new pose (angles unwrapped next to the slider's value).
  for (const DofInfo& dof : m.dofs) {
    double v = d.rigid.coords[dof.coordIndex];
    if (dof.angular) v = unwrapNear(v, d.inputs->value[dof.driver]);
    d.inputs->value[dof.driver] = v;
    d.inputs->follow[dof.driver] = 0;
  }
  d.times.drag = std::chrono::duration<double>(Clock::now() - t0).count();
  return r.converged;
}

void endDrag(const Model& m, Data& d) {
  if (!d.dragging) return;
  d.dragging = false;
  if (d.dynamics) {
    d.dynamics->release();
    return;
  }
  if (d.drag) d.drag->end();
  d.drag.reset();
  d.anmPath->reset();
  // Back on the working model, whose drivers now hold the dragged pose.
  solvePositions(*d.work, d.rigid, d.rigid.t);
  detail::finishPositions(d);
}

void setDragMethod(const Model& m, Data& d, DragMethod method) {
  d.dragMethod = method;
  d.anmPath->reset();
}

}  // namespace mechsim::sim
