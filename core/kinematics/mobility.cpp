// core/kinematics/mobility.cpp — mobility, redundancy and singular positions from the rank of Φ_q.
//
// Rank of Φ_q without the driver rows (joint rows + normalisations) by linalg::LuNullspace
// (pivots below tol::kRankRelative × column scale count as zero):
//   dof        = nq − rank           (the normalisation rows are in Φ, so each body counts 6)
//   redundant  = the rows LuNullspace leaves in L2 (equations − rank of them), by name
//   dofDriven  = nq − rank [Φ_q; ∇c_k], c_k the driven coordinates. On a configuration that
//                satisfies the drivers, ∇c_k is exactly the driver row of Φ_q; using the
//                coordinate's own gradient keeps the answer independent of t (a file's
//                configuration need not satisfy its drivers at t = 0).
// SINGULAR (our definition): the configuration q is singular when the rank of Φ_q without drivers,
// or of [Φ_q; ∇c_k] when there are drivers, is lower than its GENERIC value. Both ranks are taken
// the same way (singularRanksAt), on a SCALED matrix and with the loose pivot threshold
// tol::kSingularRelative:
//   Ĵ = R Φ_q C,  C = diag(ℓ on the translation columns of each body, 1 on its quaternion columns),
//                 R = diag(1 / max_j |(Φ_q C)_ij|)   (row equilibration; an all-zero row is left)
// with ℓ = Model::lengthScale. C makes translations and rotations commensurate (a translation of
// ℓ moves points as much as a rotation of 1 rad), R removes the units of each row (length,
// length², dimensionless), so Ĵ is unchanged when the whole model is rescaled (mm vs m files) and
// row scaling by bounded positive factors cannot change the exact rank. The relative pivot test of
// LuNullspace is column-scale invariant, so only R matters for its decisions; C matters for R.
// GENERIC value: the maximum of the same loose rank over nearby consistent configurations (q0
// perturbed randomly by 1e-3 and 1e-2 × ℓ / rad, projected back onto Φ = 0 by Newton without
// drivers; computed once per Data, fixed seeds). Comparing like with like (same scaling, same
// threshold) is what keeps a well-conditioned but small-pivot mechanism from being called singular
// everywhere. The threshold is loose because Newton stops ~√tolerance away from a bifurcation point
// (see tolerances.h): a configuration within ~1e-4 (relative) of a rank drop is reported singular.
// This flags lock-up, dead-centre, bifurcation and change points (the slider-crank of paper 003
// Fig. 2.1 at x = 0, y = L; a parallelogram at its collinear positions; the N-four-bar horizontal)
// and not the permanent redundancy of a planar loop modelled in 3-D.
#include <algorithm>
#include <cmath>
#include <random>

#include "core/kinematics/assembly.h"
#include "core/kinematics/kinematics.h"
#include "core/kinematics/workspace.h"
#include "core/max_abs.h"

namespace mechsim {
namespace kin {

namespace {

/// Φ_q at (q, t) with the driver rows replaced by the driven coordinates' gradients.
void jacobianWithCoordinateRows(const Model& m, const VecX& q, double t, SpMat& J) {
  J = m.jacobianPattern;
  double* values = J.valuePtr();
  forEachRow(m, q, nullptr, t, false, [&](const RowInfo& info, const Jet1& r) { scatterRow(m, info, r, values); });
  CoordExpr e[3];
  for (const Driver& drv : m.drivers) {
    jointCoordinates(m, q, nullptr, drv.joint, e);
    RowInfo info;
    info.row = drv.equation;
    info.body[0] = m.joints[drv.joint].body1;
    info.body[1] = m.joints[drv.joint].body2;
    scatterRow(m, info, coordinateGradient(e[drv.coordinate]), values);
  }
}

}  // namespace

void ranksAt(const Model& m, const VecX& q, double t, KinematicSolver& a, KinematicSolver& b, int& rankJoints,
             int& rankDriven) {
  const int nd = static_cast<int>(m.drivers.size());
  const int rows = m.nEquations - nd;
  SpMat J;
  jacobianWithCoordinateRows(m, q, t, J);
  if (m.nq == 0) {
    rankJoints = rankDriven = 0;
    return;
  }
  SpMat top;
  topRows(J, rows, top);
  rankJoints = rows > 0 && a.factorize(top) ? a.rank() : 0;
  rankDriven = rankJoints;
  if (nd > 0) rankDriven = b.factorize(J) ? b.rank() : 0;
}

void scaleForSingularTest(const Model& m, SpMat& J, VecX& rowScale, VecX& colScale) {
  // C: translation columns × ℓ.
  colScale = VecX::Ones(m.nq);
  for (const Body& b : m.bodies)
    if (b.qIndex >= 0)
      for (int k = 0; k < 3; ++k) colScale(b.qIndex + k) = m.lengthScale;
  VecX rowMax = VecX::Zero(J.rows());
  for (int c = 0; c < J.outerSize(); ++c)
    for (SpMat::InnerIterator it(J, c); it; ++it) {
      it.valueRef() *= colScale(it.col());
      rowMax(it.row()) = std::max(rowMax(it.row()), std::abs(it.value()));
    }
  // R: unit max-norm rows (an all-zero row keeps scale 1).
  rowScale.resize(J.rows());
  for (int i = 0; i < J.rows(); ++i) rowScale(i) = rowMax(i) > 0 ? 1.0 / rowMax(i) : 1.0;
  for (int c = 0; c < J.outerSize(); ++c)
    for (SpMat::InnerIterator it(J, c); it; ++it) it.valueRef() *= rowScale(it.row());
}

void singularRanksAt(const Model& m, const VecX& q, double t, KinematicsWorkspace& ws, int& rankJoints,
                     int& rankDriven) {
  const int nd = static_cast<int>(m.drivers.size());
  const int rows = m.nEquations - nd;
  if (m.nq == 0) {
    rankJoints = rankDriven = 0;
    return;
  }
  SpMat J;
  jacobianWithCoordinateRows(m, q, t, J);
  VecX rowScale, colScale;
  scaleForSingularTest(m, J, rowScale, colScale);
  SpMat top;
  topRows(J, rows, top);
  rankJoints = rows > 0 && ws.looseJoints.factorize(top) ? ws.looseJoints.rank() : 0;
  rankDriven = rankJoints;
  if (nd > 0) rankDriven = ws.looseFull.factorize(J) ? ws.looseFull.rank() : 0;
}

void ensureGenericRanks(const Model& m, KinematicsWorkspace& ws) {
  if (ws.genericKnown) return;
  ws.genericKnown = true;
  // Near q0 the coupled leaders' angles are read on their principal branch (no reference).
  static const VecX kNoReference;
  const CoordinateReference reference(kNoReference);
  ws.factoredValid = false;
  ws.genericRank = ws.genericRankDriven = 0;
  // Random nearby consistent configurations (fixed seeds: reproducible); the maximum rank wins.
  const double sizes[] = {1e-3, 1e-2};
  bool any = false;
  for (int s = 0; s < 2; ++s) {
    std::mt19937 rng(20240611u + 7919u * static_cast<unsigned>(s));
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    VecX q = m.q0;
    for (const Body& b : m.bodies) {
      if (b.qIndex < 0) continue;
      for (int k = 0; k < 3; ++k) q(b.qIndex + k) += sizes[s] * m.lengthScale * u(rng);
      for (int k = 3; k < 7; ++k) q(b.qIndex + k) += sizes[s] * u(rng);
    }
    int iterations = 0;
    double residual = 0;
    if (!newton(m, ws, q, 0.0, false, 50, tol::kPositionResidual, iterations, residual)) continue;
    any = true;
    int rj = 0, rd = 0;
    singularRanksAt(m, q, 0.0, ws, rj, rd);
    ws.genericRank = std::max(ws.genericRank, rj);
    ws.genericRankDriven = std::max(ws.genericRankDriven, rd);
  }
  if (!any) singularRanksAt(m, m.q0, 0.0, ws, ws.genericRank, ws.genericRankDriven);
}

}  // namespace kin

MobilityReport analyseMobility(const Model& m, Data& d) {
  KinematicsWorkspace& ws = kinematicsWorkspace(m, d);
  kin::ensureGenericRanks(m, ws);
  const kin::CoordinateReference reference(d.coords);
  MobilityReport r;
  r.coordinates = m.nq;
  r.equations = m.nEquations - static_cast<int>(m.drivers.size());
  r.grubler = grublerDof(m);
  constraintResidual(m, d);
  r.residual = maxAbs(d.phi);
  // Strict ranks at d.q: mobility and the redundant equations.
  int rankDriven = 0;
  kin::ranksAt(m, d.q, d.t, ws.joints, ws.full, r.rank, rankDriven);
  ws.factoredValid = false;
  r.dof = m.nq - r.rank;
  r.dofDriven = m.nq - rankDriven;
  if (m.nq > 0 && r.equations > 0)
    for (int row : ws.joints.redundantRows()) r.redundant.push_back(m.equationNames[row]);
  // Singular: scaled loose ranks below the generic ones.
  int looseJoints = 0, looseDriven = 0;
  kin::singularRanksAt(m, d.q, d.t, ws, looseJoints, looseDriven);
  r.singular = looseJoints < ws.genericRank || (!m.drivers.empty() && looseDriven < ws.genericRankDriven);
  d.stats.rank = rankDriven;
  d.stats.singular = r.singular;
  return r;
}

int grublerDof(const Model& m) {
  int dof = 6 * m.nMoving;
  for (const Joint& j : m.joints) {
    // A driven distance joint is an actuator: its row is the driver's, not a joint constraint.
    if (j.type == JointType::Distance && j.nEquations == 0) continue;
    dof -= jointConstraintCount(j.type);
  }
  return dof - static_cast<int>(m.couplings.size());  // one equation per coupling
}

}  // namespace mechsim
