#pragma once
// core/sim/anm_slider.h — a slider move of one DOF along the ANM continuation path (paper 004 §3-4,
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
#include "core/sim/dofs.h"

namespace mechsim::sim {

constexpr double kAnmAngleChunk = 0.7853981633974483;  // π/4
constexpr double kAnmLengthChunk = 0.25;

struct AnmMoveResult {
  bool converged = false;  // the final configuration meets Φ = 0 with the driver at the target
  int steps = 0;           // ANM steps (one factorisation each)
  bool fromSeries = false; // read off the kept series (AnmSliderPath): no new expansion
  double seconds = 0;
};

/// Moves driver `driver` of `work` (held, not following) from inputs.value[driver] to `target`
/// along the ANM path, from the solved configuration d.q at time d.t. On success d.q is the new
/// configuration and inputs.value[driver] = target; on failure (the target is out of reach, or a
/// series breaks down) d.q and the input are restored.
/// `last` (optional) receives the series of the move's last ANM step (left empty when none was taken).
AnmMoveResult anmMoveDriver(const mechsim::Model& work, mechsim::Data& d, DriverInputs& inputs, int driver, double target, bool angular,
                            const anm::AnmOptions& opt = {}, int maxStepsPerChunk = 30,
                            anm::AnmSeries* last = nullptr);

/// The ANM options of slider drags: order 20 with the Padé approximants (eq. 30-31), whose range
/// a_p is what lets one expansion serve many frames (test_ui_dof_paths measures both: on the
/// four-bar's crank dragged 1° per frame, 272 of 280 frames read off a kept Padé path against 142
/// of 280 for the plain series).
inline anm::AnmOptions sliderAnmOptions() {
  anm::AnmOptions o;
  o.pade = true;
  return o;
}

/// A slider drag along the ANM path, frame by frame (paper 004 §3: the series IS the path).
/// A slider dragged by the user sends a new value every frame. The series of the last ANM step,
/// x(a) = Σ x_i a^i, holds the path for every |a| < a_r (the range of eq. 24), on both sides of its
/// expansion point, so a frame whose value lies on it takes q = x(a_v) at that frame's a (found by
/// bisection on the driver's coordinate v(a), which is monotone between the folds of the path), and
/// only a Newton correction follows (max|Φ| ≤ ε‖u_1‖ there, so one or two iterations). Values off the
/// kept series take a full ANM move (anmMoveDriver), whose last series is kept in turn. The kept
/// series belongs to one driver, one time and the other drivers' values; any change of those, or of
/// d.q by anything else (a drag, a restore), makes the next move a full one.
class AnmSliderPath {
 public:
  /// Moves driver `driver` (its coordinate is Data::coords[coordIndex]) to `target`, as
  /// anmMoveDriver (same result and failure contract).
  AnmMoveResult move(const mechsim::Model& work, mechsim::Data& d, DriverInputs& inputs, int driver, int coordIndex, double target,
                     bool angular, const anm::AnmOptions& opt = sliderAnmOptions());
  /// Forgets the kept series (and the model it belonged to).
  void reset() {
    driver_ = -1;
    model_ = nullptr;
  }
  /// Frames served from the kept series and full moves, since construction (tests, statistics).
  int seriesFrames() const { return seriesFrames_; }
  int fullMoves() const { return fullMoves_; }

 private:
  bool keep(const mechsim::Model& work, const mechsim::Data& d, const DriverInputs& inputs, int driver, int coordIndex, bool angular,
            anm::AnmSeries&& s);
  double coordinateAt(const mechsim::Model& work, double a);
  const mechsim::Model* model_ = nullptr;
  int driver_ = -1, coordIndex_ = -1;
  bool angular_ = false;
  double t_ = 0;
  std::vector<double> others_;     // every driver's value when the series was kept
  VecX qAfter_;                    // d.q after the last move: anything else moving d.q resets
  anm::AnmSeries series_;
  std::vector<double> a_, v_;      // samples of the monotone stretch of v(a) around a = 0
  mechsim::Data scratch_;
  int seriesFrames_ = 0, fullMoves_ = 0;
};

}  // namespace mechsim::sim
