#pragma once
// core/kinematics/workspace.h — the per-Data cache of the kinematic solvers (internal header).
//
// One KinematicsWorkspace per Data (Data::kinematics, created on first use): the LU null-space
// solvers for Φ_q with and without the driver rows (symbolic analysis on their first
// factorisation, numeric refactorisation afterwards), the generic ranks used to call a
// configuration singular, and which (q, t) the full solver was last factored at. Copying a Data
// does not share it, so one worker thread per Data needs no locking.
#include <limits>
#include <memory>

#include "core/data.h"
#include "core/linalg/lu_nullspace.h"
#include "core/tolerances.h"

namespace mechsim {

/// Φ_q solver: the minimum-norm least-squares solution A⁺ b from linalg::LuNullspace.
class KinematicSolver {
 public:
  explicit KinematicSolver(double rankTolerance)
      : lu_(linalg::LuNullspaceOptions{tol::kPivotThreshold, rankTolerance}) {}
  /// Factor A (pattern analysed on the first call and whenever it changes). False if non-finite.
  bool factorize(const SpMat& A) { return ok_ = lu_.compute(A); }
  bool ok() const { return ok_; }
  /// x = A⁺ b (least squares; minimum norm where A loses column rank).
  VecX solve(const VecX& b) const { return lu_.solve(b); }
  int rank() const { return lu_.rank(); }
  const std::vector<int>& redundantRows() const { return lu_.redundantRows(); }

 private:
  linalg::LuNullspace lu_;
  bool ok_ = false;
};

struct KinematicsWorkspace {
  // The model it was built for (address, sizes, pattern size and q0: a model recompiled at the
  // same address with other geometry gets a fresh workspace).
  const Model* model = nullptr;
  int nq = -1, nEquations = -1;
  Eigen::Index nnz = -1;
  VecX q0;

  KinematicSolver full{tol::kRankRelative};      // all rows of Φ_q (drivers included)
  KinematicSolver joints{tol::kRankRelative};    // without the driver rows
  KinematicSolver looseFull{tol::kSingularRelative};    // rank tests for `singular`
  KinematicSolver looseJoints{tol::kSingularRelative};
  // Rates at a singular position (velocity.cpp): R Φ_q C (scaleForSingularTest) factored with the
  // loose threshold, and the scales; valid at (singularQ, singularT).
  KinematicSolver singularRates{tol::kSingularRelative};
  VecX singularRowScale, singularColScale, singularQ;
  double singularT = std::numeric_limits<double>::quiet_NaN();
  bool singularValid = false;
  SpMat jointRows;                               // (rows without drivers × nq) copy of the top of Φ_q
  SpMat J;                                       // (nEquations × nq) Newton's Φ_q (model pattern)
  VecX phi, dq;                                  // Newton's Φ (rows in use) and step (nq)
  VecX trialQ, trialPhi;                         // step halving: trial iterate and its Φ, Φ_q
  SpMat trialJ;

  // (q, t) at which `full` holds the factorisation of Φ_q (velocity / acceleration reuse it).
  VecX factoredQ;
  double factoredT = std::numeric_limits<double>::quiet_NaN();
  bool factoredValid = false;

  // Generic ranks (mobility.cpp): of the scaled Φ_q without drivers and of the scaled
  // [Φ_q; ∇ driven coordinates] (singularRanksAt) at nearby, randomly perturbed consistent
  // configurations.
  bool genericKnown = false;
  int genericRank = 0, genericRankDriven = 0;

  // Continuation state (position.cpp, velocity.cpp): the last positions solvePositions returned
  // (sequence numbers count its successful calls), whether that position was singular, and the
  // ANCHOR — the latest regular (non-singular) solved position at which solveVelocities (and
  // possibly solveAccelerations) ran — from which the next call predicts its starting guess.
  long solveSeq = 0;
  VecX lastQ, prevQ;
  double lastT = std::numeric_limits<double>::quiet_NaN(), prevT = std::numeric_limits<double>::quiet_NaN();
  long lastSeq = -1, prevSeq = -1;
  bool lastSingular = false;
  struct Anchor {
    bool valid = false, hasAcc = false;
    long seq = -1;
    double t = 0;
    VecX q, qd, qdd;
  } anchor;
};

/// The workspace of d for model m (created, or rebuilt when d was made for another model).
KinematicsWorkspace& kinematicsWorkspace(const Model& m, Data& d);

namespace kin {
/// Φ_q restricted to its first `rows` rows (the joint and normalisation rows), pattern kept.
void topRows(const SpMat& J, int rows, SpMat& out);
/// The rank of the rows of Φ_q at q (no drivers) and of [Φ_q; ∇ of each driven coordinate], by `a`
/// and `b` (used for the generic and the loose ranks, mobility.cpp).
void ranksAt(const Model& m, const VecX& q, double t, KinematicSolver& a, KinematicSolver& b, int& rankJoints,
             int& rankDriven);
/// Ĵ = R J C of the SINGULAR test (mobility.cpp), in place: C = diag(colScale) (translation columns
/// × Model::lengthScale), R = diag(rowScale) (rows of J C to unit max-norm).
void scaleForSingularTest(const Model& m, SpMat& J, VecX& rowScale, VecX& colScale);
/// Rank at q for the SINGULAR test (mobility.cpp): Φ_q (drivers replaced by the driven coordinates'
/// gradients) with its translation columns scaled by the length scale and each row scaled to unit
/// max-norm, factored by the loose solvers of ws (tol::kSingularRelative).
void singularRanksAt(const Model& m, const VecX& q, double t, KinematicsWorkspace& ws, int& rankJoints,
                     int& rankDriven);
/// Generic ranks (computed once per workspace).
void ensureGenericRanks(const Model& m, KinematicsWorkspace& ws);
/// Newton iterations (least-squares / minimum-norm steps with step halving, position.cpp) on Φ
/// (drivers per `withDrivers`) from q; true when max|Φ| < tol.
bool newton(const Model& m, KinematicsWorkspace& ws, VecX& q, double t, bool withDrivers, int maxIterations,
            double tolerance, int& iterations, double& residual);
/// The predictor's starting guess for solvePositions(t) from d (position.cpp); false when there
/// is none (not continuing from the last solved position, no anchor or history).
bool predictPosition(const Model& m, const KinematicsWorkspace& ws, const Data& d, double t, VecX& q);
}  // namespace kin

}  // namespace mechsim
