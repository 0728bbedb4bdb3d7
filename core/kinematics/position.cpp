// core/kinematics/position.cpp — position analysis: Newton with least-squares steps (paper 003).
//
// Φ(q, t) = 0 stacks m ≥ n equations in n coordinates (redundant joint equations, normalisations,
// drivers), so each Newton iteration solves the linearisation in the least-squares sense:
//   Δq = −Φ_q⁺ Φ,   q ← q + α Δq,
// with Φ_q⁺ applied by linalg::LuNullspace (paper 003 eq. 3.7-3.8 with a row-pivoted sparse LU;
// where Φ_q loses rank — dead centre, bifurcation, change point — the minimum-norm least-squares
// step, which lets the mechanism pass through the singular position instead of failing). The
// consistent system makes the least-squares residual vanish at the root, so the iteration converges
// quadratically at regular points and linearly at singular ones. Safeguards (all keep the method
// Newton with least-squares / minimum-norm steps):
//  * step halving: α = 1, ½, ¼, … (at most kMaxHalvings) until ‖Φ‖₂ decreases; when no α does,
//    the full step is taken (as plain Newton would);
//  * iteration budget: maxIterations, extended up to kIterationFactor × maxIterations while the
//    residual still falls by at least kLinearRate per iteration (linear convergence at a
//    bifurcation, where Φ is quadratic along the lost direction);
//  * PREDICTOR (continuation): when solvePositions is called again from the position it returned
//    last, the starting guess is the Taylor step from the anchor — the latest REGULAR solved
//    position at which solveVelocities (and solveAccelerations) ran:
//        q_pred = q_a + q̇_a Δt + ½ q̈_a Δt²,  Δt = t − t_a,   quaternions renormalised,
//    and the linear extrapolation of the last two solved positions when no anchor is at hand.
//    Rates at a singular position are minimum-norm, not the tangent of the branch being followed,
//    so a singular position never becomes the anchor: the step after it predicts from the regular
//    position before it. The prediction error is O(Δt³) against a branch separation O(Δt), so the
//    continuation keeps its assembly branch through bifurcation and change points (the
//    parallelogram stays a parallelogram). The prediction is used only when its ‖Φ(·, t)‖₂ is
//    below the entry position's, and if Newton fails from it, Newton is retried from the entry
//    position.
//  * ANGLE DRIVERS: ρ sin(θ − θ_d) = 0 also holds at θ_d + π. A solution there (a jump of more than
//    90° of driven angle with no usable prediction: a fresh Data, a scrub of the timeline) is
//    redone by continuation in t from the entry position (8, 32, 128, 512 steps); if none keeps
//    every driven angle at θ_d, the call fails and says so.
// The pattern of Φ_q is fixed per model: the symbolic analysis runs on the first factorisation of
// a workspace and each iteration only refactors numerically. Iteration stops at
// max|Φ_i| < tolerance. On failure (no convergence, non-finite values) q and t are restored to
// their values on entry — the last good pose when the entry was a solution — and d.stats.message
// says why, once for every client (the engine's stages, the command line, the GUI): "cannot assemble
// at t = T s: the residual stalls at R after N Newton iterations (joint "J" furthest from met, by E);
// the last good pose (t = T0 s) is kept", naming the joint or driver whose row has the largest
// |Φ_i| at Newton's last (least-squares) iterate; that iterate itself is not kept.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <sstream>

#include "core/kinematics/assembly.h"
#include "core/kinematics/kinematics.h"
#include "core/kinematics/workspace.h"
#include "core/max_abs.h"

namespace mechsim {

KinematicsWorkspace& kinematicsWorkspace(const Model& m, Data& d) {
  auto& ws = d.kinematics.ws;
  if (!ws || ws->model != &m || ws->nq != m.nq || ws->nEquations != m.nEquations ||
      ws->nnz != m.jacobianPattern.nonZeros() || ws->q0 != m.q0) {
    ws = std::make_shared<KinematicsWorkspace>();
    ws->model = &m;
    ws->nq = m.nq;
    ws->nEquations = m.nEquations;
    ws->nnz = m.jacobianPattern.nonZeros();
    ws->q0 = m.q0;
  }
  return *ws;
}

namespace kin {

void topRows(const SpMat& J, int rows, SpMat& out) {
  if (rows == J.rows()) {
    out = J;
    return;
  }
  out = J.topRows(rows);
  out.makeCompressed();
}

namespace {

/// Φ (rows per withDrivers) and Φ_q (model pattern; driver rows left zero when withDrivers = false).
void evaluate(const Model& m, const VecX& q, double t, bool withDrivers, VecX& phi, SpMat& J) {
  const int rows = withDrivers ? m.nEquations : m.nEquations - static_cast<int>(m.drivers.size());
  phi.resize(rows);
  if (J.nonZeros() != m.jacobianPattern.nonZeros() || J.rows() != m.nEquations) J = m.jacobianPattern;
  double* values = J.valuePtr();
  forEachRowAt<kGradient>(m, q, nullptr, t, withDrivers, [&](const RowInfo& info, const Jet1& r) {
    phi(info.row) = r.v;
    scatterRow(m, info, r, values);
  });
}

/// Φ only (no gradients): for the predictor and step-halving tests, where Φ_q is not needed.
void evaluateResidual(const Model& m, const VecX& q, double t, bool withDrivers, VecX& phi) {
  const int rows = withDrivers ? m.nEquations : m.nEquations - static_cast<int>(m.drivers.size());
  phi.resize(rows);
  forEachRowAt<kValue>(m, q, nullptr, t, withDrivers, [&](const RowInfo& info, const Jet1Lean& r) { phi(info.row) = r.v; });
}

}  // namespace

bool newton(const Model& m, KinematicsWorkspace& ws, VecX& q, double t, bool withDrivers, int maxIterations,
            double tolerance, int& iterations, double& residual) {
  constexpr int kMaxHalvings = 10;
  constexpr int kIterationFactor = 4;
  constexpr double kLinearRate = 0.75;
  const int rows = withDrivers ? m.nEquations : m.nEquations - static_cast<int>(m.drivers.size());
  KinematicSolver& solver = withDrivers ? ws.full : ws.joints;
  if (withDrivers) ws.factoredValid = false;
  VecX& phi = ws.phi;
  SpMat& J = ws.J;
  iterations = 0;
  residual = 0;
  // Residual (and Jacobian) at the current iterate.
  evaluate(m, q, t, withDrivers, phi, J);
  residual = rows > 0 ? maxAbs(phi) : 0.0;
  double previous = std::numeric_limits<double>::infinity();
  VecX& trial = ws.trialQ;
  VecX& phiTrial = ws.trialPhi;
  SpMat& JTrial = ws.trialJ;
  for (int it = 0;; ++it) {
    iterations = it;
    if (!std::isfinite(residual)) return false;
    if (residual < tolerance) return true;
    if (m.nq == 0) return false;
    // Out of iterations — unless still converging at least linearly (bifurcation points).
    if (it >= maxIterations && (it >= kIterationFactor * maxIterations || !(residual < kLinearRate * previous)))
      return false;
    previous = residual;
    // Least-squares (minimum-norm where rank-deficient) Newton step.
    if (withDrivers) {
      if (!solver.factorize(J)) return false;
    } else {
      topRows(J, rows, ws.jointRows);
      if (!solver.factorize(ws.jointRows)) return false;
    }
    ws.dq = solver.solve(-phi);
    if (!ws.dq.allFinite()) return false;
    // Step halving on ‖Φ‖₂; the full step when no fraction decreases it.
    const double norm0 = phi.norm();
    double alpha = 1.0;
    bool accepted = false;
    for (int h = 0; h <= kMaxHalvings; ++h, alpha *= 0.5) {
      trial = q + alpha * ws.dq;
      evaluateResidual(m, trial, t, withDrivers, phiTrial);
      const double n = phiTrial.norm();
      if (std::isfinite(n) && n < norm0) {
        accepted = true;
        break;
      }
    }
    if (!accepted) trial = q + ws.dq;
    // Φ and Φ_q at the accepted iterate.
    evaluate(m, trial, t, withDrivers, phiTrial, JTrial);
    q.swap(trial);
    phi.swap(phiTrial);
    J.swap(JTrial);
    residual = rows > 0 ? maxAbs(phi) : 0.0;
  }
}

bool predictPosition(const Model& m, const KinematicsWorkspace& ws, const Data& d, double t, VecX& q) {
  // Only when continuing from the position the last call returned.
  if (ws.lastSeq < 0 || d.t != ws.lastT || ws.lastQ.size() != d.q.size() || ws.lastQ != d.q || t == d.t) return false;
  const auto& a = ws.anchor;
  // Taylor step from the anchor: the last position or, past a few singular ones, an earlier one
  // on the same side of t.
  const bool sameSide = (t - d.t) * (d.t - a.t) >= 0;
  if (a.valid && a.seq >= ws.lastSeq - 3 && sameSide && a.q.size() == m.nq) {
    const double h = t - a.t;
    q = a.q + h * a.qd;
    if (a.hasAcc) q += (0.5 * h * h) * a.qdd;
  } else if (ws.prevSeq == ws.lastSeq - 1 && ws.prevQ.size() == m.nq && ws.prevT != ws.lastT &&
             (t - ws.lastT) * (ws.lastT - ws.prevT) > 0) {
    q = ws.lastQ + ((t - ws.lastT) / (ws.lastT - ws.prevT)) * (ws.lastQ - ws.prevQ);
  } else {
    return false;
  }
  if (!q.allFinite()) return false;
  for (const Body& b : m.bodies) {
    if (b.qIndex < 0) continue;
    auto p = q.segment<4>(b.qIndex + 3);
    const double n = p.norm();
    if (!(n > 0)) return false;
    p /= n;
  }
  return true;
}

/// The first driver (or coupling) whose angle equation ρ sin(θ − θ_d) (driver.cpp) holds at the opposite
/// angle, ρ cos(θ − θ_d) < 0, at (q, t); −1 when none. Both θ_d and θ_d + π are roots, and Newton
/// started more than 90° of driven angle away from θ_d can end at the second one.
int flippedAngleDriver(const Model& m, const VecX& q, double t) {
  for (int k = 0; k < static_cast<int>(m.drivers.size()); ++k) {
    const Driver& drv = m.drivers[k];
    CoordExpr c[3];
    jointCoordinates(m, q, nullptr, drv.joint, c);
    const CoordExpr& e = c[drv.coordinate];
    if (e.kind != CoordKind::Angle) continue;
    // Near a root ρ cos(θ − θ_d) = ±ρ; ρ → 0 where the angle is undefined (no test there).
    const double th = driverValue(drv, t), rho = std::hypot(e.s.v, e.c.v);
    if (rho > 1e-9 && std::cos(th) * e.c.v + std::sin(th) * e.s.v < -0.5 * rho) return k;
  }
  // Coupling rows on an angle are the same row with θ_d = f(θ_a) (coupling.cpp): a leader that
  // moves the follower's f by more than 90° in one solve can flip them too (returned as
  // drivers.size() + the coupling's index).
  for (int k = 0; k < static_cast<int>(m.couplings.size()); ++k) {
    const Coupling& cp = m.couplings[k];
    CoordExpr b[3], a[3];
    jointCoordinates(m, q, nullptr, cp.joint, b);
    const CoordExpr& e = b[cp.coordinate];
    if (e.kind != CoordKind::Angle) continue;
    double reference = 0;
    if (cp.leader >= 0) {
      jointCoordinates(m, q, nullptr, cp.leader, a);
      reference = CoordinateReference::at(m.joints[cp.leader].firstCoord + cp.leaderCoordinate, m.nCoords);
    }
    const double th = couplingEquation(e, cp.leader >= 0 ? &a[cp.leaderCoordinate] : nullptr, reference, cp.c).value;
    const double rho = std::hypot(e.s.v, e.c.v);
    if (rho > 1e-9 && std::cos(th) * e.c.v + std::sin(th) * e.s.v < -0.5 * rho) return static_cast<int>(m.drivers.size()) + k;
  }
  return -1;
}

/// Continuation in t from a position qEntry solved at tEntry to t, in n equal steps of Newton from
/// the previous step's solution, refining n (8, 32, 128, 512) until no step lands on a flipped angle
/// driver. True with q the solution at t.
bool continueInTime(const Model& m, KinematicsWorkspace& ws, const VecX& qEntry, double tEntry, double t,
                    const PositionOptions& opt, VecX& q, int& iterations, double& residual) {
  for (int n = 8; n <= 512; n *= 4) {
    VecX qc = qEntry;
    bool good = true;
    for (int k = 1; k <= n && good; ++k) {
      const double tk = k == n ? t : tEntry + (t - tEntry) * k / n;
      int it = 0;
      good = newton(m, ws, qc, tk, true, opt.maxIterations, opt.tolerance, it, residual) &&
             flippedAngleDriver(m, qc, tk) < 0;
      iterations += it;
    }
    if (good) {
      q = qc;
      return true;
    }
  }
  return false;
}

}  // namespace kin

namespace {

/// The first driver whose expression is not finite at t, or nullptr (asked only after a failure,
/// so the solve itself evaluates each driver once per residual).
const Driver* undefinedDriver(const Model& m, double t) {
  for (const Driver& drv : m.drivers)
    if (!std::isfinite(kin::driverValue(drv, t))) return &drv;
  return nullptr;
}

/// t for a message: 9 significant digits (0.17, 0.183333333), as the command line prints times.
std::string formatTime(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", t);
  return buf;
}

/// A residual for a message: 3 significant digits.
std::string formatValue(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

/// The joint or driver whose rows of phi have the largest |Φ_i|, with that value: `joint "C"
/// furthest from met, by 3.1e-05` (rows: the joints' in joint order, Joint::firstEquation and
/// nEquations, then the bodies' normalisations, then the drivers', Driver::equation). The
/// normalisations |p|² − 1 are left out: they say how far the iterate's quaternions are from unit
/// length, not which constraint the mechanism cannot meet. phi has the rows Newton solved (no
/// drivers' with PositionOptions::drivers = false).
std::string furthestFromMet(const Model& m, const VecX& phi) {
  auto isDriverRow = [&](int row) {
    for (const Driver& drv : m.drivers)
      if (drv.equation == row) return true;
    return false;
  };
  std::string name;
  double worst = -1;
  auto consider = [&](int row, const char* kind, const std::string& who) {
    if (row < 0 || row >= phi.size() || !std::isfinite(phi(row)) || !(std::abs(phi(row)) > worst)) return;
    worst = std::abs(phi(row));
    name = std::string(kind) + " \"" + who + "\"";
  };
  // A driven distance joint's own row is its driver's: the driver is named for it.
  for (const Joint& j : m.joints)
    for (int r = j.firstEquation; r < j.firstEquation + j.nEquations; ++r)
      if (!isDriverRow(r)) consider(r, "joint", j.name);
  for (const Driver& drv : m.drivers) consider(drv.equation, "driver", drv.name);
  if (worst < 0) return "the joints and drivers are met; the bodies' normalisations are not";
  return name + " furthest from met, by " + formatValue(worst);
}

}  // namespace

bool solvePositions(const Model& m, Data& d, double t, const PositionOptions& opt) {
  const auto start = std::chrono::steady_clock::now();
  if (d.q.size() != m.nq) throw std::invalid_argument("solvePositions: d.q has the wrong size (use makeData)");
  KinematicsWorkspace& ws = kinematicsWorkspace(m, d);
  // The generic ranks need their own Newton solve: do it before touching the solvers' state.
  kin::ensureGenericRanks(m, ws);
  // Coupled leaders' angles on the branch of the last solved position (coupling.cpp).
  const kin::CoordinateReference reference(d.coords);

  const VecX qEntry = d.q;
  const double tEntry = d.t;
  VecX q;
  bool predicted = kin::predictPosition(m, ws, d, t, q);
  if (predicted) {
    // Keep the prediction only when it is closer to Φ(·, t) = 0 than the entry position (a long
    // jump in t can make the Taylor step worse than no step).
    kin::evaluateResidual(m, q, t, opt.drivers, ws.phi);
    const double predictedNorm = ws.phi.norm();
    kin::evaluateResidual(m, d.q, t, opt.drivers, ws.phi);
    predicted = std::isfinite(predictedNorm) && predictedNorm < ws.phi.norm();
  }
  if (!predicted) q = d.q;
  int iterations = 0;
  double residual = 0;
  bool ok = kin::newton(m, ws, q, t, opt.drivers, opt.maxIterations, opt.tolerance, iterations, residual);
  if (!ok && predicted) {
    // The prediction failed: plain Newton from the entry position.
    const int firstIterations = iterations;
    q = d.q;
    ok = kin::newton(m, ws, q, t, opt.drivers, opt.maxIterations, opt.tolerance, iterations, residual);
    iterations += firstIterations;
  }

  // A driven angle at θ_d + π (see flippedAngleDriver): reach t by continuation from the entry
  // position instead, when that one is a solution at the entry time.
  int flipped = ok && opt.drivers ? kin::flippedAngleDriver(m, q, t) : -1;
  if (flipped >= 0 && std::isfinite(tEntry) && tEntry != t && kin::flippedAngleDriver(m, qEntry, tEntry) < 0) {
    kin::evaluateResidual(m, qEntry, tEntry, true, ws.phi);
    if (maxAbs(ws.phi) < opt.tolerance &&
        kin::continueInTime(m, ws, qEntry, tEntry, t, opt, q, iterations, residual))
      flipped = -1;
  }
  if (flipped >= 0) ok = false;

  KinematicsStats& st = d.stats;
  st.iterations = iterations;
  st.residual = residual;
  if (!ok) {
    // Failure: where Newton stopped (Φ of its last iterate, ws.phi) says what was not met; then the
    // entry state is restored and the message says that too.
    const std::string what = flipped >= 0 ? std::string() : furthestFromMet(m, ws.phi);
    d.q = qEntry;
    d.t = tEntry;
    constraintResidual(m, d);
    st.converged = false;
    const int checked = opt.drivers ? m.nEquations : m.nEquations - static_cast<int>(m.drivers.size());
    const double entryResidual = maxAbs(d.phi.head(checked));
    std::string kept;
    if (entryResidual < opt.tolerance)
      kept = "the last good pose (t = " + formatTime(tEntry) + " s) is kept";
    else
      kept = "the pose it started from (t = " + formatTime(tEntry) + " s, not assembled: max |Φ| = " +
             formatValue(entryResidual) + ") is kept";
    std::ostringstream msg;
    if (flipped >= 0)
      msg << "position analysis reached "
          << (flipped < static_cast<int>(m.drivers.size())
                  ? "driver '" + m.drivers[flipped].name + "'"
                  : "coupling '" + m.couplings[flipped - m.drivers.size()].name + "'")
          << " at its value + 180° at t = "
          << formatTime(t) << " s (too large a step from the last position; no continuation from t = "
          << formatTime(tEntry) << " s recovered it)";
    else if (const Driver* undefined = !std::isfinite(residual) && opt.drivers ? undefinedDriver(m, t) : nullptr)
      // A driver undefined at t (1/0, sqrt(-1), an overflow) makes Φ non-finite: say which.
      msg << "driver '" << undefined->name << "' is undefined at t = " << formatTime(t)
          << " s (its expression is not a finite number there)";
    else if (!std::isfinite(residual))
      msg << "cannot assemble at t = " << formatTime(t) << " s: Newton diverged (non-finite values after "
          << iterations << " iterations)";
    else
      // The least-squares iterate stopped short of Φ = 0: out of reach, or too far from the start.
      msg << "cannot assemble at t = " << formatTime(t) << " s: the residual stalls at " << formatValue(residual)
          << " after " << iterations << " Newton iterations (" << what << ")";
    msg << "; " << kept;
    st.message = msg.str();
    st.solveSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return false;
  }

  // Success: keep Φ, Φ_q and the factorisation at the solution (velocity analysis reuses it).
  d.q = q;
  d.t = t;
  // With couplings, this solution's unwrapped angles are the next solve's reference (coupling.cpp;
  // updateJointCoordinates does the same with the rates, and a caller may skip it).
  if (!m.couplings.empty()) kin::unwrapCoordinates(m, d);
  if (opt.drivers) {
    // Newton's last evaluation was at this q, with every row: reuse it rather than evaluate again.
    d.phi = ws.phi;
    d.Jq = ws.J;
  } else {
    constraintResidual(m, d);
    constraintJacobian(m, d);
  }
  ws.full.factorize(d.Jq);
  ws.factoredQ = d.q;
  ws.factoredT = d.t;
  ws.factoredValid = true;
  st.converged = true;
  st.message.clear();
  // Rank and singularity (definition in mobility.cpp).
  int rankJoints = 0, rankDriven = 0;
  kin::singularRanksAt(m, d.q, d.t, ws, rankJoints, rankDriven);
  const bool drivers = opt.drivers && !m.drivers.empty();
  st.rank = opt.drivers ? ws.full.rank() : 0;
  if (!opt.drivers) {
    kin::topRows(d.Jq, m.nEquations - static_cast<int>(m.drivers.size()), ws.jointRows);
    ws.joints.factorize(ws.jointRows);
    st.rank = ws.joints.rank();
  }
  st.singular = rankJoints < ws.genericRank || (drivers && rankDriven < ws.genericRankDriven);
  // Continuation state for the next call's predictor.
  ws.prevQ.swap(ws.lastQ);
  ws.prevT = ws.lastT;
  ws.prevSeq = ws.lastSeq;
  ws.lastQ = d.q;
  ws.lastT = d.t;
  ws.lastSeq = ++ws.solveSeq;
  ws.lastSingular = st.singular;
  st.solveSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return true;
}

}  // namespace mechsim
