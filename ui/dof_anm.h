#pragma once
// ui/dof_anm.h — a slider move of one DOF along the ANM continuation path (paper 004 §3-4,
// notes §7.2), the slider counterpart of the ANM drag solver (core/anm/anm_drag.h). No Qt, no GL;
// runs on the simulation worker.
//
// THE PATH. Moving driver i of the working model from its held value v0 to v1 is the homotopy
//   H(q, λ) = F(q) − (1 − λ) F(q0),   F(q) = Φ(q) with driver i held at v1,    λ: 0 → 1
// (the error-correcting form of paper 004 eq. 34). The joint and normalisation rows of F vanish at
// q0, so Φ_joints(q(λ)) = 0 along the whole path: it is the mechanism's own motion. The driver row
// moves monotonically: a length driver L(q) − v1 = (1 − λ)(L0 − v1), an angle driver
// sin(θ(q) − v1) = (1 − λ) sin(θ0 − v1) — monotone while |v1 − v0| < 90°, so angle moves are
// split into chunks of at most kAnmAngleChunk (and length moves into chunks of at most
// kAnmLengthChunk × Model::lengthScale, which keeps the series' range large).
// Each ANM step factorises Φ_q once (the LU null-space solver, so the redundant rows of planar loops
// in 3-D and rank drops at singular positions are handled by the minimum-norm solve) and expands
// q(a), λ(a) to order N by anm::expandSeries, with Φ's series from anm::ConstraintSeries; the step
// goes to λ = 1 or to the end of the series' range a_r, and the next step starts from there. Since
// the series follows the path continuously, the assembly branch is kept where a Newton jump to v1
// could land on the other one. A final Newton correction (solvePositions, started at the ANM end
// point) brings max|Φ| below the position tolerance.
#include "core/anm/anm_step.h"
#include "core/data.h"
#include "core/model.h"
#include "ui/dof_analysis.h"

namespace mechsim::ui {

constexpr double kAnmAngleChunk = 0.7853981633974483;  // π/4
constexpr double kAnmLengthChunk = 0.25;

struct AnmMoveResult {
  bool converged = false;  // the final configuration meets Φ = 0 with the driver at the target
  int steps = 0;           // ANM steps (one factorisation each)
  double seconds = 0;
};

/// Moves driver `driver` of `work` (held, not following) from inputs.value[driver] to `target`
/// along the ANM path, from the solved configuration d.q at time d.t. On success d.q is the new
/// configuration and inputs.value[driver] = target; on failure (the target is out of reach, or a
/// series breaks down) d.q and the input are restored.
AnmMoveResult anmMoveDriver(const Model& work, Data& d, DriverInputs& inputs, int driver, double target, bool angular,
                            const anm::AnmOptions& opt = {}, int maxStepsPerChunk = 30);

}  // namespace mechsim::ui
