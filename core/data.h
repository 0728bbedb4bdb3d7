#pragma once
// core/data.h — Data: everything that changes while a mechanism moves; plain data. Made by
// makeData(model) (core/kinematics/kinematics.h: it evaluates Φ, Φ_q and the joint coordinates at
// the file's configuration); algorithms take (const Model&, Data&).
#include <memory>
#include <string>

#include "core/model.h"

namespace mechsim {

struct KinematicsWorkspace;  // core/kinematics/workspace.h

/// Holder of the kinematic solvers' cache (pattern analysis, factorisations), created on first use
/// by the kinematics functions. A copy of a Data starts with an empty cache (it rebuilds its own),
/// so Data can be copied to a worker thread without sharing solver state.
struct KinematicsCache {
  std::shared_ptr<KinematicsWorkspace> ws;
  KinematicsCache() = default;
  KinematicsCache(const KinematicsCache&) {}
  KinematicsCache& operator=(const KinematicsCache&) {
    ws.reset();
    return *this;
  }
  KinematicsCache(KinematicsCache&&) noexcept = default;
  KinematicsCache& operator=(KinematicsCache&&) noexcept = default;
};

/// Statistics of the last kinematic solve, shown in the GUI status bar and the CLI summary.
struct KinematicsStats {
  bool converged = true;
  int iterations = 0;        // Newton iterations of the last position analysis
  double residual = 0;       // max |Φ_i| after it (SI)
  int rank = 0;              // numerical rank of Φ_q at the solution
  bool singular = false;     // rank below that of the regular configuration
  double solveSeconds = 0;   // wall time of the last position analysis
  std::string message;       // why it failed, when it did
};

struct Data {
  double t = 0;              // time [s]
  VecX q;                    // (nq) positions: per moving body r (3) and quaternion w x y z (4)
  VecX qd;                   // (nq) velocities dq/dt
  VecX qdd;                  // (nq) accelerations
  VecX phi;                  // (nEquations) constraint residual Φ(q, t)
  SpMat Jq;                  // (nEquations × nq) constraint Jacobian Φ_q, fixed sparsity pattern
  VecX coords;               // (nCoords) joint coordinates (angle [rad] / slide [m])
  VecX coordVel;             // (nCoords) their rates
  VecX coordAcc;             // (nCoords) their second derivatives
  KinematicsStats stats;
  KinematicsCache kinematics;  // solver cache (core/kinematics/workspace.h)
};


}  // namespace mechsim
