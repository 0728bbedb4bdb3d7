#pragma once
// core/kinematics/kinematics.h — the kinematic pipeline (paper 003):
//   constraintResidual → constraintJacobian → solvePositions (Newton, least-squares steps from the
//   LU null-space solver, minimum-norm where Φ_q loses rank) → solveVelocities → solveAccelerations,
//   and analyseMobility (true DOF from the rank of Φ_q, redundant equations by name).
#include <string>
#include <vector>

#include "core/data.h"
#include "core/model.h"

namespace mechsim {

/// Data sized for m, at the file's configuration (q = q0, t = 0, rates zero), with Φ, Φ_q and the
/// joint coordinates evaluated there (make_data.cpp).
Data makeData(const Model& m);

/// Φ(q, t) into d.phi (nEquations). Uses d.q and d.t.
void constraintResidual(const Model& m, Data& d);

/// Φ_q into d.Jq, keeping its sparsity pattern fixed per model. Uses d.q and d.t.
void constraintJacobian(const Model& m, Data& d);

/// Φ_t (nEquations): the partial derivative in t (only driver rows are non-zero).
VecX constraintTimeDerivative(const Model& m, const Data& d);

/// γ = −(Φ_q q̇)_q q̇ − 2 Φ_qt q̇ − Φ_tt, so that Φ_q q̈ = γ (nEquations). Uses d.q, d.qd, d.t.
VecX accelerationRhs(const Model& m, const Data& d);

struct PositionOptions {
  int maxIterations = 30;     // Newton iterations; up to 4× as many while the residual still falls
                              // at least linearly (×0.75 per iteration: bifurcation points)
  double tolerance = 1e-10;   // on max |Φ_i|
  bool drivers = true;        // false: drivers' equations are left out (free motion)
};

/// Newton position analysis at time t (least-squares steps, minimum-norm where Φ_q loses rank,
/// step halving on ‖Φ‖₂; position.cpp). CONTINUATION: when d.q, d.t are what the previous call
/// returned, Newton starts from a predictor — q_a + q̇_a Δt + ½ q̈_a Δt² (quaternions renormalised)
/// from the latest regular solved position a at which solveVelocities / solveAccelerations ran,
/// else the linear extrapolation of the last two solved positions — which keeps the assembly
/// branch through singular positions; otherwise Newton starts from d.q. On failure d.q is restored
/// to its value on entry and d.stats says why. Returns d.stats.converged.
bool solvePositions(const Model& m, Data& d, double t, const PositionOptions& opt = {});

/// q̇ from Φ_q q̇ = −Φ_t (least squares; minimum norm where singular). Needs a solved d.q.
/// At a position solvePositions reported singular: the minimum-norm solution with the singular
/// test's loose rank (velocity.cpp), so the rates stay bounded there.
void solveVelocities(const Model& m, Data& d);

/// q̈ from Φ_q q̈ = γ. Needs solved d.q and d.qd.
void solveAccelerations(const Model& m, Data& d);

/// Joint coordinates (and their rates from q̇, q̈) into d.coords, d.coordVel, d.coordAcc.
void updateJointCoordinates(const Model& m, Data& d);

struct MobilityReport {
  int coordinates = 0;        // nq
  int equations = 0;          // rows of Φ without drivers
  int grubler = 0;            // 6 × moving bodies − Σ joint constraint counts
  int rank = 0;               // rank of Φ_q without driver rows
  int dof = 0;                // nq − rank
  int dofDriven = 0;          // nq − rank of Φ_q with driver rows
  std::vector<std::string> redundant;  // names of redundant equations ("joint:equation")
  double residual = 0;        // max |Φ_i| at the analysed configuration
  bool singular = false;      // the configuration is singular (rank below its generic value)
};
// Definitions (mobility.cpp): rank and redundant rows by linalg::LuNullspace with
// tol::kRankRelative; dofDriven uses the driven coordinates' gradients as driver rows (equal to
// Φ_q's driver rows wherever the drivers are satisfied). `singular`: the rank of the SCALED matrix
// Ĵ = R Φ_q C without drivers, or of the scaled [Φ_q; ∇ driven coordinates] — C multiplies the
// translation columns by Model::lengthScale (translations and rotations commensurate), R scales
// each row to unit max-norm (removes its units) — taken with the loose tol::kSingularRelative, is
// below its generic value: the same rank, same scaling and threshold, at randomly perturbed nearby
// consistent configurations (maximum over two, computed once per Data). The test is unchanged when
// the model is rescaled (mm / m), and flags positions within ~1e-4 (relative) of a rank drop.
// solvePositions sets d.stats.singular by the same test.
// Driver equations (driver.cpp): slides / distance extension L(q) − s(t); angles
// −sin θ_d C(q) + cos θ_d S(q) (free of the ±π wrap); a driven distance joint's own equation is
// replaced by |d| − (L + s(t)). Joint coordinate definitions open each joint's file.

/// Mobility and redundancy at d.q, d.t.
MobilityReport analyseMobility(const Model& m, Data& d);

/// The Grübler–Kutzbach estimate 6·(moving bodies) − Σ constraints of the joints.
int grublerDof(const Model& m);

}  // namespace mechsim
