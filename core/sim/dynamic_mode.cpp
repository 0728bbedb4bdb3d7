// core/sim/dynamic_mode.cpp — switching between the kinematic and the dynamic mode, and the rigid
// state the dynamic run hands back (core/sim/stages.h; the run itself: core/sim/dynamic_run.h).
#include <chrono>
#include <cstdio>

#include "core/kinematics/kinematics.h"
#include "core/sim/internal.h"
#include "core/sim/stages.h"

namespace mechsim::sim {
namespace detail {

void copyDynamicState(const Model& m, Data& d) {
  const mechsim::Data& s = d.dynamics->data();
  d.rigid.t = s.t;
  d.rigid.q = s.q;
  d.rigid.qd = s.qd;
  d.rigid.qdd = s.qdd;
  d.rigid.stats = s.stats;
  d.rigid.stats.iterations = d.dynamics->stats().rileyIterations;
  d.rigid.stats.solveSeconds = d.dynamics->stats().seconds;
  updateJointCoordinates(*d.work, d.rigid);
  // The sliders show where the dynamics is (file drivers that follow their expression: its value).
  for (const DofInfo& dof : m.dofs) {
    if (d.inputs->follow[dof.driver]) {
      d.inputs->value[dof.driver] = d.inputs->at(dof.driver, d.rigid.t);
      continue;
    }
    double v = d.rigid.coords[dof.coordIndex];
    if (dof.angular) v = unwrapNear(v, d.inputs->value[dof.driver]);
    d.inputs->value[dof.driver] = v;
  }
}

void restartDynamic(Data& d, bool keepRates) {
  if (!d.dynamics) return;
  if (!d.dynamics->start(d.rigid.q, keepRates ? d.rigid.qd : VecX(), d.rigid.t)) {
    d.message = "Dynamic mode: " + d.dynamics->message();
    d.dynamics.reset();
  }
}

}  // namespace detail

namespace {
/// d is where makeData / assemble put it: t = 0, the assembled pose, the sliders at their start.
bool atFileStart(const Model& m, const Data& d) {
  if (d.rigid.t != 0 || d.rigid.q != m.q0) return false;
  for (int k = 0; k < m.dofCount(); ++k) {
    const int i = m.dofs[k].driver;
    const bool follows = m.dofs[k].kind == DofKind::Driver;
    if (d.inputs->follow[i] != (follows ? 1 : 0) || (!follows && d.inputs->value[i] != m.dofValues0[k])) return false;
  }
  return true;
}

/// The file model the dynamic run of one Data steps: a copy whose drivers and motors evaluate
/// their expressions with evaluators of its own (Options::expressions, Options::efforts), since an
/// evaluator serves one thread at a time and one Model serves Datas on many threads; the file
/// model itself when the Model has no spec or no factories (a bare model: one thread).
std::shared_ptr<const mechsim::Model> ownFileModel(const Model& m) {
  if (!m.spec || (!m.options.expressions && !m.options.efforts)) return m.file;
  auto own = std::make_shared<mechsim::Model>(*m.file);
  if (m.options.expressions) {
    std::vector<std::function<double(double)>> fns = m.options.expressions(*m.spec);
    for (std::size_t i = 0; i < own->drivers.size() && i < fns.size(); ++i) own->drivers[i].value = std::move(fns[i]);
  }
  if (m.options.efforts) {
    std::vector<std::function<double(double)>> fns = m.options.efforts(*m.spec);
    for (std::size_t i = 0; i < own->motors.size() && i < fns.size(); ++i)
      if (fns[i]) own->motors[i].effort = std::move(fns[i]);
  }
  return own;
}
}  // namespace

bool isDynamic(const Data& d) { return d.dynamics != nullptr; }

bool setDynamic(const Model& m, Data& d, bool on) {
  d.message.clear();
  if (d.dragging) endDrag(m, d);
  if (!on) {
    if (!d.dynamics) return true;
    d.dynamics.reset();
    // Back to the drivers: the sliders hold the pose the dynamics left.
    solvePositions(*d.work, d.rigid, d.rigid.t);
    detail::finishPositions(d);
    return true;
  }
  if (d.dynamics) return true;
  // At the file's own start (t = 0, the assembled pose, every slider where it started) the run
  // starts as the file says: its configuration and initial joint rates (startFromFile), as
  // `mechsim-cli simulate` does; elsewhere from the pose and rates the mechanism has now.
  if (atFileStart(m, d)) return startFromFile(m, d);
  auto run = std::make_unique<DynamicRun>(ownFileModel(m));
  if (!run->start(d.rigid.q, d.rigid.qd, d.rigid.t)) {
    d.message = "Dynamic mode not available: " + run->message();
    return false;
  }
  d.dynamics = std::move(run);
  detail::copyDynamicState(m, d);
  return true;
}

bool startFromFile(const Model& m, Data& d) {
  d.message.clear();
  if (d.dragging) endDrag(m, d);
  d.dynamics.reset();
  auto run = std::make_unique<DynamicRun>(ownFileModel(m));
  if (!run->start(m.file->q0, VecX::Zero(m.nq()), 0.0, /*fileRates=*/true)) {
    d.message = "dynamics cannot start: " + run->message();
    return false;
  }
  d.dynamics = std::move(run);
  detail::copyDynamicState(m, d);
  return true;
}

bool stepDynamics(const Model& m, Data& d, double h) {
  if (!d.dynamics) {
    d.message = "dynamic mode is off (setDynamic or startFromFile first)";
    return false;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const bool ok = d.dynamics->step(h);
  d.message = ok ? std::string() : d.dynamics->message();
  detail::copyDynamicState(m, d);
  d.times.dynamics = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return ok;
}

}  // namespace mechsim::sim
