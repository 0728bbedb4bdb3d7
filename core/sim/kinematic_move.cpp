// core/sim/kinematic_move.cpp — the kinematic mode's stages: assemble, slider moves, following
// drivers, time, recorded states (core/sim/stages.h).
//
// A slider move of DOF i from its held value v0 to v1 is a continuation in the slider value:
// v_k = v0 + (v1 − v0) k / n with steps |v_k − v_{k−1}| ≤ h (Options::sliderStepAngle or
// sliderStepLength × lengthScale), each position analysis (Newton with the LU null-space least-
// squares / minimum-norm steps of paper 003) started from the solution of the step before, so that
// Newton starts close to its solution and stays on the assembly branch. A step that fails is out of
// reach: the value is bisected (Options::sliderBisections times) between the last value that
// solved and the failed one, and the mechanism stops at the last that solved — it never jumps.
// With Options::drag = Anm the move first follows the ANM path (core/sim/anm_slider.h, paper 004)
// and only what that cannot reach is left to the stepped search.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/kinematics/kinematics.h"
#include "core/sim/internal.h"
#include "core/sim/stages.h"

namespace mechsim::sim {
namespace detail {

void finishPositions(Data& d) {
  if (d.rigid.stats.converged) {
    solveVelocities(*d.work, d.rigid);
    solveAccelerations(*d.work, d.rigid);
  }
  updateJointCoordinates(*d.work, d.rigid);
}

}  // namespace detail

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// Drops a kinematic drag's state (no pose change).
void dropDrag(Data& d) {
  if (d.drag) d.drag->end();
  d.drag.reset();
  if (d.dynamics) d.dynamics->release();
  d.dragging = false;
}

/// Position analysis of the bound model at d.t after a change of the held values, and its rates.
bool resolve(Data& d) {
  const bool ok = solvePositions(*d.work, d.rigid, d.rigid.t);
  detail::finishPositions(d);
  return ok;
}

/// The kinematic side of advance: the analyses at t1, the following sliders take their values.
bool advanceKinematic(const Model& m, Data& d, double t1) {
  if (!solvePositions(*d.work, d.rigid, t1)) {
    // The analysis's own message names t1, what is not met and the pose kept (position.cpp).
    d.message = d.rigid.stats.message;
    return false;
  }
  detail::finishPositions(d);
  for (const DofInfo& dof : m.dofs)
    if (d.inputs->follow[dof.driver]) d.inputs->value[dof.driver] = d.inputs->at(dof.driver, t1);
  return true;
}

/// advance / advanceTo: to time t1 = t + dt in the current mode (the dynamics takes dt itself: t1 − t
/// is not dt in floating point).
bool moveTime(const Model& m, Data& d, double t1, double dt) {
  d.message.clear();
  const auto t0 = Clock::now();
  if (d.dynamics) {
    const bool ok = d.dynamics->advance(dt);
    if (!ok) d.message = d.dynamics->message();
    detail::copyDynamicState(m, d);
    d.times.dynamics = since(t0);
    return ok;
  }
  const bool ok = advanceKinematic(m, d, t1);
  d.times.kinematics = since(t0);
  return ok;
}

}  // namespace

void assemble(const Model& m, Data& d) {
  dropDrag(d);
  d.dynamics.reset();
  d.anmPath->reset();
  d.rigid.t = 0;
  d.rigid.q = m.q0;
  for (int k = 0; k < m.dofCount(); ++k) {
    const int i = m.dofs[k].driver;
    d.inputs->value[i] = m.dofValues0[k];
    d.inputs->follow[i] = m.dofs[k].kind == DofKind::Driver ? 1 : 0;
  }
  const auto t0 = Clock::now();
  resolve(d);
  d.times.kinematics = since(t0);
  resetDeformables(m, d);
  d.message.clear();
}

bool setDof(const Model& m, Data& d, int dof, double value) {
  d.message.clear();
  if (dof < 0 || dof >= m.dofCount()) {
    d.message = "no DOF " + std::to_string(dof) + " (the mechanism has " + std::to_string(m.dofCount()) + ")";
    return false;
  }
  if (!std::isfinite(value)) {
    d.message = "DOF \"" + m.dofs[dof].name + "\": the value is not a finite number";
    return false;
  }
  const auto t0 = Clock::now();
  const DofInfo& info = m.dofs[dof];
  const int i = info.driver;
  DriverInputs& in = *d.inputs;
  // The slider's range bounds the value, but for a turning DOF, whose range is one turn of a dial
  // that goes on turning (isTurning).
  const double target = isTurning(info) ? value : std::clamp(value, info.lower, info.upper);
  double good = in.at(i, d.rigid.t);
  in.follow[i] = 0;
  in.value[i] = good;
  if (d.dragMethod == DragMethod::Anm && target != good) {
    // Along the ANM path; what it cannot reach is left to the stepped search below. Each call
    // reads the kept series at its own value when it can (AnmSliderPath, anm_slider.h).
    const AnmMoveResult r = d.anmPath->move(*d.work, d.rigid, in, i, info.coordIndex, target, info.angular);
    if (r.converged) {
      d.rigid.stats.solveSeconds = r.seconds;
      detail::finishPositions(d);
      if (d.dynamics) detail::restartDynamic(d, false);
      d.times.kinematics = since(t0);
      return true;
    }
  }
  // Continuation in the slider value: steps no larger than h, each solved from the last.
  const double h = info.angular ? m.options.sliderStepAngle : m.options.sliderStepLength * d.work->lengthScale;
  const int n = std::max(1, static_cast<int>(std::ceil(std::abs(target - good) / h)));
  const double from = good;
  bool reached = true;
  for (int k = 1; k <= n; ++k) {
    const double next = from + (target - from) * k / n;
    in.value[i] = next;
    if (solvePositions(*d.work, d.rigid, d.rigid.t)) {
      good = next;
      // The joint angles follow step by step: each is unwrapped against its last value, and a
      // move of more than half a turn at once (a typed value) would otherwise lose turns.
      if (n > 1) updateJointCoordinates(*d.work, d.rigid);
      continue;
    }
    // Out of reach: bisect towards the last value that solved; q stays at the last solution
    // (solvePositions restores d.q on failure), so the mechanism never jumps.
    double bad = next;
    for (int b = 0; b < m.options.sliderBisections; ++b) {
      const double mid = 0.5 * (good + bad);
      in.value[i] = mid;
      if (solvePositions(*d.work, d.rigid, d.rigid.t)) good = mid;
      else bad = mid;
    }
    in.value[i] = good;
    solvePositions(*d.work, d.rigid, d.rigid.t);
    reached = false;
    break;
  }
  detail::finishPositions(d);
  if (!reached && value == target) {
    const double shown = info.angular ? 180.0 / 3.14159265358979323846 : 1.0;
    char buf[256];
    std::snprintf(buf, sizeof buf, "DOF \"%s\": %.6g %s is out of reach; the mechanism stops at %.6g %s",
                  info.name.c_str(), target * shown, info.angular ? "deg" : "m", good * shown,
                  info.angular ? "deg" : "m");
    d.message = buf;
  }
  if (d.dynamics) detail::restartDynamic(d, false);  // dynamic mode: from the slider's pose, at rest
  d.times.kinematics = since(t0);
  return reached;
}

bool setDof(const Model& m, Data& d, const std::string& dof, double value) {
  const int k = m.findDof(dof);
  if (k < 0) {
    std::string names;
    for (const DofInfo& info : m.dofs) names += (names.empty() ? "" : ", ") + info.name;
    d.message = "no DOF named \"" + dof + "\" (the DOFs: " + (names.empty() ? "none" : names) + ")";
    return false;
  }
  return setDof(m, d, k, value);
}

bool setDofFollows(const Model& m, Data& d, int dof, bool follows) {
  if (dof < 0 || dof >= m.dofCount()) return false;
  const int i = m.dofs[dof].driver;
  if (!d.inputs->expression[i]) return false;  // added coordinate drivers have no expression
  d.inputs->follow[i] = follows ? 1 : 0;
  if (follows) {
    // Back onto the expression at the current time.
    const auto t0 = Clock::now();
    resolve(d);
    d.inputs->value[i] = d.inputs->at(i, d.rigid.t);
    d.times.kinematics = since(t0);
  }
  return true;
}

bool advance(const Model& m, Data& d, double dt) { return moveTime(m, d, d.rigid.t + dt, dt); }

bool advanceTo(const Model& m, Data& d, double t) { return moveTime(m, d, t, t - d.rigid.t); }

State state(const Model& m, const Data& d) {
  State s{d.rigid.t, d.rigid.q, {}, {}};
  for (const DofInfo& dof : m.dofs) {
    s.dofValues.push_back(d.inputs->value[dof.driver]);
    s.dofFollows.push_back(d.inputs->follow[dof.driver]);
  }
  return s;
}

bool restore(const Model& m, Data& d, const State& s) {
  if (s.q.size() != m.nq() || s.dofValues.size() != m.dofs.size()) return false;
  dropDrag(d);
  d.rigid.t = s.t;
  d.rigid.q = s.q;
  for (std::size_t k = 0; k < m.dofs.size(); ++k) {
    d.inputs->value[m.dofs[k].driver] = s.dofValues[k];
    d.inputs->follow[m.dofs[k].driver] = k < s.dofFollows.size() ? s.dofFollows[k] : 0;
  }
  const auto t0 = Clock::now();
  solvePositions(*d.work, d.rigid, s.t);
  detail::finishPositions(d);
  d.times.kinematics = since(t0);
  if (d.dynamics) detail::restartDynamic(d, false);  // dynamic mode: from the restored pose, at rest
  return true;
}

MobilityReport analyse(const Model& m, const Data& d) {
  mechsim::Data a = mechsim::makeData(*m.file);
  a.q = d.rigid.q;
  a.t = d.rigid.t;
  return analyseMobility(*m.file, a);
}

}  // namespace mechsim::sim
