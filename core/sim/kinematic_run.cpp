// core/sim/kinematic_run.cpp — a kinematic run over a range of time (see the header).
#include "core/sim/kinematic_run.h"

#include "core/kinematics/kinematics.h"
#include "core/sim/stages.h"

namespace mechsim::sim {

bool kinematicRun(const Model& m, const VecX& qStart, double t0, double dt, long rows,
                  const std::function<void(const mechsim::Data&)>& row, const std::atomic<bool>* cancel,
                  const std::function<void(double)>& progress, std::string* error) {
  Data d = makeData(m);
  if (qStart.size() == m.nq()) {
    // The added coordinates hold where qStart has them; the file's drivers follow their expressions.
    d.rigid.q = qStart;
    updateJointCoordinates(*d.work, d.rigid);
    for (const DofInfo& dof : m.dofs) {
      d.inputs->follow[dof.driver] = dof.kind == DofKind::Driver ? 1 : 0;
      if (dof.kind == DofKind::Coordinate) d.inputs->value[dof.driver] = d.rigid.coords[dof.coordIndex];
    }
  }
  d.rigid.t = t0;
  for (long k = 0; k < rows; ++k) {
    if (cancel && cancel->load()) break;
    const double t = t0 + k * dt;
    if (!advanceTo(m, d, t)) {
      if (error) *error = d.message;
      return false;
    }
    const mechsim::Data& r = d.rigid;
    if (!r.q.allFinite() || !r.qd.allFinite() || !r.qdd.allFinite()) {
      if (error) *error = "non-finite state at t = " + std::to_string(t) + " s";
      return false;
    }
    row(r);
    if (progress && (k % 16 == 0 || k + 1 == rows)) progress(double(k + 1) / double(rows));
  }
  return true;
}

}  // namespace mechsim::sim
