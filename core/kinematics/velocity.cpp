// core/kinematics/velocity.cpp — velocity and acceleration analysis.
//
// Differentiating Φ(q, t) = 0 once and twice in time:
//   Φ_q q̇ = −Φ_t                                   (velocity)
//   Φ_q q̈ = γ = −(Φ_q q̇)_q q̇ − 2 Φ_qt q̇ − Φ_tt      (acceleration; γ from constraints.cpp)
// Both are consistent, overdetermined where equations are redundant, and solved with the same
// LU null-space factorisation of Φ_q at the solved position (least squares; minimum norm where
// Φ_q loses rank, so at a singular position the rates stay bounded). The factorisation left by
// solvePositions is reused when (q, t) did not change. Rates computed at a regular position that
// solvePositions just returned are kept as the anchor of its predictor (position.cpp).
// At a position solvePositions reported SINGULAR (kinematics.h), Newton has stopped ~√tolerance
// from the singular point, where Φ_q still has full rank with pivots ~1e-5: the strict solve would
// return the exact rates of that nearby configuration, amplified by 1e5 in the accelerations
// (γ from a non-tangent q̇). There both rates are taken as MINIMUM-NORM least-squares solutions
// with the loose rank of the singular test: q̇ = C Ĵ⁺ R (−Φ_t), q̈ = C Ĵ⁺ R γ with Ĵ = R Φ_q C
// (mobility.cpp), i.e. minimum norm in commensurate coordinates (translations / length scale).
#include <limits>

#include "core/kinematics/kinematics.h"
#include "core/kinematics/workspace.h"

namespace mechsim {
namespace {

/// The full solver factored at (d.q, d.t).
KinematicSolver& factoredAt(const Model& m, Data& d) {
  KinematicsWorkspace& ws = kinematicsWorkspace(m, d);
  if (!(ws.factoredValid && ws.factoredT == d.t && ws.factoredQ.size() == d.q.size() && ws.factoredQ == d.q)) {
    constraintJacobian(m, d);
    ws.full.factorize(d.Jq);
    ws.factoredQ = d.q;
    ws.factoredT = d.t;
    ws.factoredValid = true;
  }
  return ws.full;
}

/// True when (d.q, d.t) is the position solvePositions returned last and it was singular.
bool atSingularPosition(const Model& m, Data& d) {
  const KinematicsWorkspace& ws = kinematicsWorkspace(m, d);
  return ws.lastSeq >= 0 && ws.lastSingular && d.t == ws.lastT && ws.lastQ.size() == d.q.size() && d.q == ws.lastQ;
}

/// x = C Ĵ⁺ R b with Ĵ = R Φ_q C factored with the loose threshold tol::kSingularRelative: the
/// minimum-norm least-squares solution in the commensurate coordinates (translations / ℓ), with
/// the directions that are singular to within that threshold treated as exactly singular.
VecX solveSingular(const Model& m, Data& d, const VecX& b) {
  KinematicsWorkspace& ws = kinematicsWorkspace(m, d);
  if (!(ws.singularValid && ws.singularT == d.t && ws.singularQ.size() == d.q.size() && ws.singularQ == d.q)) {
    constraintJacobian(m, d);
    SpMat J = d.Jq;
    kin::scaleForSingularTest(m, J, ws.singularRowScale, ws.singularColScale);
    ws.singularValid = ws.singularRates.factorize(J);
    ws.singularQ = d.q;
    ws.singularT = d.t;
    if (!ws.singularValid) return VecX::Constant(m.nq, std::numeric_limits<double>::quiet_NaN());
  }
  const VecX y = ws.singularRates.solve(ws.singularRowScale.cwiseProduct(b));
  return ws.singularColScale.cwiseProduct(y);
}

}  // namespace

void solveVelocities(const Model& m, Data& d) {
  if (m.nq == 0) return;
  if (atSingularPosition(m, d)) {
    d.qd = solveSingular(m, d, -constraintTimeDerivative(m, d));
    return;  // minimum-norm rates: never the predictor's anchor
  }
  KinematicSolver& s = factoredAt(m, d);
  d.qd = s.solve(-constraintTimeDerivative(m, d));
  // A regular solved position with its rates becomes the predictor's anchor (position.cpp).
  KinematicsWorkspace& ws = kinematicsWorkspace(m, d);
  if (ws.lastSeq >= 0 && !ws.lastSingular && d.t == ws.lastT && d.q == ws.lastQ && d.qd.allFinite()) {
    auto& a = ws.anchor;
    a.valid = true;
    a.hasAcc = false;
    a.seq = ws.lastSeq;
    a.t = d.t;
    a.q = d.q;
    a.qd = d.qd;
  }
}

void solveAccelerations(const Model& m, Data& d) {
  if (m.nq == 0) return;
  if (d.qd.size() != m.nq) d.qd = VecX::Zero(m.nq);
  if (atSingularPosition(m, d)) {
    d.qdd = solveSingular(m, d, accelerationRhs(m, d));
    return;
  }
  KinematicSolver& s = factoredAt(m, d);
  d.qdd = s.solve(accelerationRhs(m, d));
  KinematicsWorkspace& ws = kinematicsWorkspace(m, d);
  auto& a = ws.anchor;
  if (a.valid && a.seq == ws.lastSeq && d.t == a.t && d.q == a.q && d.qd == a.qd && d.qdd.allFinite()) {
    a.qdd = d.qdd;
    a.hasAcc = true;
  }
}

}  // namespace mechsim
