#pragma once
// core/anm/anm_drag.h — handle dragging along an ANM continuation path (paper 004 §3.4 eq. 68,
// notes §7.2): the DragSolver of core/kinematics/drag.h that follows the mechanism's solution path
// from the drag's current configuration to the target instead of jumping there, so a long drag stays
// on the assembly branch it started on and passes smoothly near singular positions.
//
// THE PATH. Φ(q) = 0 (joints, normalisations, drivers held at d.t) leaves the mechanism f degrees of
// freedom, and the dragged point x(q) = r_b + R(p_b) ℓ (3 equations) may be over- or
// under-determined by them. Each ANM step starts at a consistent q0 and first finds the directions
// the point can move in: with the LU null-space solver's factorisation of Φ_q (paper 003),
//   g_i⊥ = g_i − Φ_qᵀ (Φ_qᵀ)⁺ g_i,   g_i = ∇x_i     (the handle gradients with their row-space part
//                                                   removed: the part the constraints leave free)
//   M = X_q P_N X_qᵀ = [g_i⊥·g_j⊥] = B Λ Bᵀ         (3×3; keep eigenvalues > handleRankRelative ×
//                                                   max |g_i|², B: 3 × r, r ≤ 3 reachable directions)
// and follows the homotopy (explicit error-correcting form of paper 004 eq. 34, notes §1.7)
//   H(q, λ) = F(q) − (1 − λ) F(q0),   F(q) = [ Φ(q) ; Bᵀ (x(q) − c) ],   λ: 0 → 1,
// i.e. Φ(q(λ)) = (1 − λ) Φ(q0) (the residual left by the previous step is corrected on the way) and
// Bᵀ x(q(λ)) moves on the straight line from Bᵀ x(q0) to Bᵀ c. The series solve uses the ONE
// factorisation of Φ_q, bordered by the r handle rows (a Schur complement of size r):
//   P⁺ b:  x_p = Φ_q⁺ b_Φ;   w = Λ⁻¹ (b_h − Bᵀ X_q x_p);   x = x_p + G⊥ B w
// which is the minimum-norm solution of [Φ_q; Bᵀ X_q] x = b whenever that system is consistent
// (x_p lies in Φ_q's row space, G⊥ B w in its null space and in the span of the g⊥). So:
//  * f > 3 (Stewart platform without drivers): r = 3, the point follows c exactly and the other
//    freedoms take the minimum-norm series (the pseudo-inverse gauge, as the Newton steps do);
//  * f < 3, or directions the point cannot move in (four-bar coupler point, 1 DOF): r < 3, the
//    point follows the projection of c onto its reachable directions; each new step re-projects,
//    and the drag ends where Bᵀ (x − c) = 0 with B taken at the end point, i.e. Nᵀ X_qᵀ (x − c) = 0:
//    the first-order condition of the closest reachable point, as drag.h asks.
// A fold of λ within a step (the reachable direction turns away from the target) stops that step at
// the largest λ; the next step re-projects there.
// COST per ANM step: one numeric factorisation of Φ_q, 3 transposed solves for g⊥, N + 1 solves for
// the series (N = 20), the series bias by the expression graph of constraint_series.h.
// DRIVERS are held at d.t (their rows are part of Φ) unless DragPoint::drivers is false; then the
// driver rows, which come last in Φ, are left out.
// STOP: max|Φ_i| < tolerance and |Bᵀ (x − c)| < tolerance × Model::lengthScale at a step's start;
// "reached" when |x − c| ≤ 1e-9 × lengthScale (as the Newton drag solver). Near an unreachable
// target the re-projection converges linearly; after maxSteps the update keeps the configuration it
// reached (converged when Φ holds there, not reached).
#include <memory>

#include "core/anm/anm_step.h"
#include "core/kinematics/drag.h"
#include "core/tolerances.h"

namespace mechsim {

struct AnmDragOptions {
  anm::AnmOptions anm;                          // truncation order N = 20, range ε = 1e-6
  int maxSteps = 50;                            // ANM steps per update; then the update ends where
                                                // it got (converged if Φ holds there, not reached)
  double tolerance = tol::kPositionResidual;    // max|Φ_i| and |Bᵀ(x − c)| [m] at convergence
  double handleRankRelative = 1e-10;            // eigenvalues of M below this × max|g_i|²: fixed directions
};

/// The ANM drag solver (name "anm"). Statistics of each update: iterations = ANM steps,
/// factorizations = numeric factorisations of Φ_q (one per step), solves = all solves with them.
std::unique_ptr<DragSolver> makeAnmDragSolver(const AnmDragOptions& opt = {});

}  // namespace mechsim
