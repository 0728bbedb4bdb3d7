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

/// Φ(q, t) into d.phi (nEquations). Uses d.q and d.t.
void constraintResidual(const Model& m, Data& d);

/// Φ_q into d.Jq, keeping its sparsity pattern fixed per model. Uses d.q and d.t.
void constraintJacobian(const Model& m, Data& d);

/// Φ_t (nEquations): the partial derivative in t (only driver rows are non-zero).
VecX constraintTimeDerivative(const Model& m, const Data& d);

/// γ = −(Φ_q q̇)_q q̇ − 2 Φ_qt q̇ − Φ_tt, so that Φ_q q̈ = γ (nEquations). Uses d.q, d.qd, d.t.
VecX accelerationRhs(const Model& m, const Data& d);

struct PositionOptions {
  int maxIterations = 30;
  double tolerance = 1e-10;   // on max |Φ_i|
  bool drivers = true;        // false: drivers' equations are left out (free motion)
};

/// Newton position analysis at time t from d.q; on failure d.q is restored to its value on entry
/// and d.stats says why. Returns d.stats.converged.
bool solvePositions(const Model& m, Data& d, double t, const PositionOptions& opt = {});

/// q̇ from Φ_q q̇ = −Φ_t (least squares; minimum norm where singular). Needs a solved d.q.
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

/// Mobility and redundancy at d.q, d.t.
MobilityReport analyseMobility(const Model& m, Data& d);

/// The Grübler–Kutzbach estimate 6·(moving bodies) − Σ constraints of the joints.
int grublerDof(const Model& m);

}  // namespace mechsim
