// core/dynamics/contact_stage.cpp — stage 3b of the step (dynamics.h): contact impulses solved
// together with the bilateral constraint impulses as one mixed boxed LCP (paper 000 §2-3).
//
// Rows, all in twist space (ν = (v_com, ω) per moving body, M = diag(m E₃, I)):
//   bilateral: every row of J (joints, imposed drivers) with bounds (−∞, ∞) and the target
//     J ν = −Φ_t, i.e. w = J ν + Φ_t = 0; an active joint limit with [0, ∞) or (−∞, 0];
//   contact k between bodies A and B at point p with normal n (A → B): the normal row
//     J_n ν = n·(v_B + ω_B × r_B) − n·(v_A + ω_A × r_A),  r = p − com,
//     i.e. the blocks [n, r_B × n] on B and [−n, −r_A × n] on A, bounds [0, ∞); two friction rows
//     with the tangents t₁, t₂ in place of n, bounds ±μ λ_n (pyramidal friction; μ = √(μ_A μ_B) from
//     the two shapes' coefficients, each the shape's own or the section's); optionally a
//     torsional row n·(ω_B − ω_A) (blocks [0, n] on B, [0, −n] on A), bounds ±μ_t λ_n, and two
//     rolling rows t_j·(ω_B − ω_A), bounds ±μ_r λ_n — friction couples limited by the normal
//     impulse times a length (μ_t, μ_r), as in MuJoCo's condim 4 and 6;
// so the impulses solve the BLCP  w = A λ + q,  A = J M⁻¹ Jᵀ,  q = J ν + b  (eq. 3 with bounds),
// by AMGS Method 3.2 (Ω = α D) or PGS through v̂ = ν + M⁻¹ Jᵀ λ (eq. 15-16): O(nnz J) per sweep,
// A never formed. The bilateral rows start at 0 — stage 3 (Riley) has already satisfied them, so
// their impulses here are the corrections the contacts need — and the contact rows from the last
// step's impulses of the same contact (shape pair + feature). A redundant set of bilateral rows
// makes A singular but the system stays consistent and positive semi-definite, on which the
// Gauss-Seidel sweeps converge (the impulses are not unique; ν is).
//
// Bias b of a normal row (gap g < 0 when penetrating, approach speed v_n = J_n ν before the solve):
//   g > 0 and g + h v_n > 0 (stays open at this speed):   b = g / h   (may close the gap, no more)
//   otherwise (touching, or closing within the step):
//     b = min( −β/h · max(0, −g − slop),  e v_n )   if v_n < −v_e   (impact: Newton's restitution)
//     b = −β/h · max(0, −g − slop), or g / h when g > 0            (resting / slow closing)
// — Baumgarte-like removal of the penetration beyond the slop, and Newton's restitution on impact
// above the approach speed v_e (below it, resting contacts would jitter). An impact found while the
// gap is still open (by at most h |v_n|) rebounds from there: the rebound height is off by at most
// e h |v_n| (a few mm at h = 1 ms).
#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/dynamics/dynamics.h"

namespace mechsim {
namespace {

/// Blocks (sweeps + exact bilateral projection) of the contact solve when there are joint rows.
constexpr int kContactBlockIterations = 8;
/// Relative regularisation κ of the contact rows (cfm_i = κ A_ii).
constexpr double kContactCompliance = 1e-3;

/// Two unit tangents of n, chosen continuously from n (same n → same tangents, for the warm start).
void tangents(const Vec3& n, Vec3& t1, Vec3& t2) {
  const Vec3 e = std::abs(n.x()) < 0.57 ? Vec3::UnitX() : std::abs(n.y()) < 0.57 ? Vec3::UnitY() : Vec3::UnitZ();
  t1 = n.cross(e).normalized();
  t2 = n.cross(t1);
}

}  // namespace

VecX DynamicsStepper::contactImpulses(const Data& d, double tPhi, double h) {
  const auto t0 = std::chrono::steady_clock::now();
  const ContactOptions& co = m_.contact;
  stats_.contactCount = stats_.contactRows = stats_.contactIterations = 0;
  stats_.contactResidual = stats_.maxPenetration = 0;
  contactReport_.clear();
  world_->detect(m_, d.q, co.margin, contactPoints_);
  const int nc = static_cast<int>(contactPoints_.size());
  stats_.contactCount = nc;
  if (nc == 0) {
    warm_.clear();
    stats_.contactSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return VecX();
  }
  const int nb = static_cast<int>(bi_.size());
  contact::LcpProblem& p = lcp_;
  p = contact::LcpProblem{};
  p.dof = 6;
  p.bodies = nb;
  p.invMass.assign(static_cast<size_t>(nb) * 36, 0.0);
  for (int k = 0; k < nb; ++k) {
    double* B = p.invMass.data() + 36 * k;
    for (int i = 0; i < 3; ++i) B[7 * i] = bi_[k].invMass;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) B[6 * (3 + i) + 3 + j] = bi_[k].invInertia(i, j);
  }
  p.v = nu_;
  std::vector<double> ja(6), jb(6);

  // ---- bilateral rows (rows of J; unbounded, limits one-sided) ----
  const int nj = static_cast<int>(J_.rows());
  std::vector<int> bilateralRow(nj, -1);  // LCP row of each row of J (−1: left out)
  VecX phiT;
  if (nj > 0) {
    phiT = rowVelocityBias(d, tPhi);
    const Eigen::SparseMatrix<double, Eigen::RowMajor> Jr(J_);
    for (int r = 0; r < nj; ++r) {
      int bodies[2] = {-1, -1};
      double blk[2][6] = {{0}};
      bool ok = true;
      for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(Jr, r); it; ++it) {
        const int k = static_cast<int>(it.col()) / 6, c = static_cast<int>(it.col()) % 6;
        int s = bodies[0] == k ? 0 : bodies[1] == k ? 1 : bodies[0] < 0 ? 0 : bodies[1] < 0 ? 1 : -1;
        if (s < 0) {
          ok = false;  // a row over more than two bodies cannot be stored (none of the joint rows is)
          break;
        }
        bodies[s] = k;
        blk[s][c] += it.value();
      }
      if (!ok || (bodies[0] < 0 && bodies[1] < 0)) continue;
      double lo = -contact::kInf, hi = contact::kInf;
      if (rowKind_[r] == 2) (rowLimitSign_[r] > 0 ? lo : hi) = 0.0;
      bilateralRow[r] = p.addRow(bodies[0], blk[0], bodies[1], blk[1], phiT(r), lo, hi);
    }
  }
  const int firstContactRow = p.rows();

  // ---- contact rows: normal, then its two tangents, its spin row and its two rolling rows ----
  // Coulomb μ of each contact: √(μ_A μ_B), a shape's μ its own or the section's (so the section's
  // when no shape sets one).
  std::vector<double> mus(nc);
  bool anyFriction = false;
  auto shapeMu = [&](int g) {
    const collision::Geometry& geom = world_->geometries()[g];
    const double own = m_.bodies[geom.body].shapes[geom.shape].friction;
    return own >= 0 ? own : co.friction;
  };
  for (int c = 0; c < nc; ++c) {
    mus[c] = std::sqrt(shapeMu(contactPoints_[c].geomA) * shapeMu(contactPoints_[c].geomB));
    anyFriction = anyFriction || mus[c] > 0;
  }
  // slots of a contact's rows in the 6-vector (normal, t₁, t₂, spin, roll₁, roll₂) of the warm start
  std::vector<int> slots{0};
  if (anyFriction) slots.insert(slots.end(), {1, 2});
  if (co.torsionalFriction > 0) slots.push_back(3);
  if (co.rollingFriction > 0) slots.insert(slots.end(), {4, 5});
  const int perContact = static_cast<int>(slots.size());
  std::vector<Vec3> t1s(nc), t2s(nc);
  auto movingIndex = [&](int body) { return m_.bodies[body].qIndex >= 0 ? m_.bodies[body].qIndex / 7 : -1; };
  auto blocks = [&](int k, const Vec3& pt, const Vec3& dir, double sign, std::vector<double>& out) {
    if (k < 0) return;
    const Vec3 com = d.q.segment<3>(bi_[k].qIndex) + bi_[k].comOffset;
    const Vec3 ang = (pt - com).cross(dir);
    for (int i = 0; i < 3; ++i) {
      out[i] = sign * dir(i);
      out[3 + i] = sign * ang(i);
    }
  };
  auto rowVelocity = [&](int ka, const std::vector<double>& a, int kb, const std::vector<double>& b) {
    double v = 0;
    for (int i = 0; i < 6; ++i) {
      if (ka >= 0) v += a[i] * nu_(6 * ka + i);
      if (kb >= 0) v += b[i] * nu_(6 * kb + i);
    }
    return v;
  };
  VecX warm;
  std::vector<double> warmRows;
  for (int c = 0; c < nc; ++c) {
    const collision::Contact& k = contactPoints_[c];
    const int ka = movingIndex(k.bodyA), kb = movingIndex(k.bodyB);
    const Vec3& n = k.normal;
    std::fill(ja.begin(), ja.end(), 0.0);
    std::fill(jb.begin(), jb.end(), 0.0);
    blocks(ka, k.point, n, -1.0, ja);
    blocks(kb, k.point, n, 1.0, jb);
    const double vn = rowVelocity(ka, ja, kb, jb);
    double bias;
    if (k.gap > 0 && k.gap + vn * h > 0) {
      bias = k.gap / h;  // stays open through the step at the current speed: may close, no more
    } else {
      bias = -co.erp / h * std::max(0.0, -k.gap - co.slop);
      if (vn < -co.restitutionVelocity) bias = std::min(bias, co.restitution * vn);
      else if (k.gap > 0) bias = k.gap / h;  // slow closing: land on the surface
    }
    stats_.maxPenetration = std::max(stats_.maxPenetration, -k.gap);
    const int rn = p.addRow(ka, ja.data(), kb, jb.data(), bias);
    tangents(n, t1s[c], t2s[c]);
    if (anyFriction)
      for (const Vec3& t : {t1s[c], t2s[c]}) {
        std::fill(ja.begin(), ja.end(), 0.0);
        std::fill(jb.begin(), jb.end(), 0.0);
        blocks(ka, k.point, t, -1.0, ja);
        blocks(kb, k.point, t, 1.0, jb);
        p.addFrictionRow(rn, mus[c], ka, ja.data(), kb, jb.data());
      }
    // friction couples: relative angular velocity about n (spin) and about t₁, t₂ (rolling)
    auto coupleRow = [&](const Vec3& axis, double coefficient) {
      std::fill(ja.begin(), ja.end(), 0.0);
      std::fill(jb.begin(), jb.end(), 0.0);
      for (int i = 0; i < 3; ++i) {
        if (ka >= 0) ja[3 + i] = -axis(i);
        if (kb >= 0) jb[3 + i] = axis(i);
      }
      p.addFrictionRow(rn, coefficient, ka, ja.data(), kb, jb.data());
    };
    if (co.torsionalFriction > 0) coupleRow(n, co.torsionalFriction);
    if (co.rollingFriction > 0)
      for (const Vec3& t : {t1s[c], t2s[c]}) coupleRow(t, co.rollingFriction);
  }
  const int m = p.rows();
  stats_.contactRows = m;
  // Contact rows are made slightly soft (cfm = κ A_ii, κ = kContactCompliance): several coplanar
  // points (a box face on a face) carry a load whose split is otherwise arbitrary — Gauss-Seidel
  // would put it on one point per face, about which a gripped box then swings freely. With the
  // regularisation the split is the least-squares one, even for a symmetric contact; the price is
  // a contact velocity error of κ A_ii λ (1e-5 m/s for a box resting at h = 1 ms).
  {
    contact::LcpPrecomputed pre0;
    contact::precompute(p, pre0);
    p.cfm = VecX::Zero(m);
    for (int i = firstContactRow; i < m; ++i) p.cfm[i] = kContactCompliance * pre0.diag[i];
  }

  // ---- warm start: contacts from the last step's impulses, bilateral rows 0 ----
  lcpLambda_.setZero(m);
  for (int c = 0; c < nc; ++c) {
    const collision::Contact& k = contactPoints_[c];
    const auto it = warm_.find({k.geomA, k.geomB, k.feature});
    if (it == warm_.end()) continue;
    const int r = firstContactRow + perContact * c;
    for (int j = 0; j < perContact; ++j) lcpLambda_(r + j) = it->second(slots[j]);
  }

  contact::SolverSettings s;
  s.method = co.pgs ? contact::Method::Pgs : contact::Method::AmgsSparse;
  s.omega = contact::OmegaKind::ScaledDiagonal;
  s.alpha = co.alpha;
  s.maxIterations = co.iterations;
  s.tolerance = co.tolerance;
  // ---- the solve: AMGS / PGS sweeps over all rows, then the bilateral rows exactly ----
  // The sweeps leave the bilateral rows satisfied only to the solver's accuracy, and Gauss-Seidel
  // converges slowly across chains of light links (the walker: ~1 m/s of joint-velocity error left
  // after 60 sweeps). So the sweeps alternate with an exact weighted minimum-norm projection onto
  // the bilateral rows (Riley, as stage 3: λ_J += μ with N μ = −Φ_t − J ν̂): block Gauss-Seidel
  // with the bilateral block solved exactly. It ends with the projection, so the joints hold
  // exactly and the contacts to the accuracy reported (RES of the whole BLCP after the last block).
  contact::SolverResult res;
  contact::LcpPrecomputed pre;
  VecX jl(6 * nb), dv;
  auto twistOf = [&](VecX& out) {  // ν̂ = ν + M⁻¹ Jᵀ λ
    jl.setZero();
    for (int i = 0; i < m; ++i) {
      const double l = lcpLambda_(i);
      if (l == 0) continue;
      if (p.bodyA[i] >= 0)
        for (int c = 0; c < 6; ++c) jl(6 * p.bodyA[i] + c) += p.jA[6 * i + c] * l;
      if (p.bodyB[i] >= 0)
        for (int c = 0; c < 6; ++c) jl(6 * p.bodyB[i] + c) += p.jB[6 * i + c] * l;
    }
    dyn::applyInverseMass(bi_, jl, dv);
    out = nu_ + dv;
  };
  const bool withJoints = firstContactRow > 0;
  const int outer = withJoints ? kContactBlockIterations : 1;
  VecX nuHat, mu;
  int sweeps = 0;
  try {
    if (withJoints) contact::precompute(p, pre);
    for (int it = 0; it < outer; ++it) {
      res = lcpSolver_.solve(p, s, lcpLambda_);
      sweeps += res.iterations;
      if (!withJoints) break;
      twistOf(nuHat);
      const VecX r = -phiT - J_ * nuHat;
      const dyn::RileyResult rr = riley_.solve(r, mu);
      stats_.rileyIterations += rr.iterations;
      for (int j = 0; j < nj; ++j)
        if (bilateralRow[j] >= 0) lcpLambda_(bilateralRow[j]) += mu(j);
      // Rows left out of the LCP (none for joints) keep Riley's impulse in the report only.
      res.residual = contact::residual(p, pre, lcpLambda_);
      if (res.residual < co.tolerance) break;
    }
  } catch (const std::exception& e) {
    stats_.message = std::string("contact solve: ") + e.what();
    lcpLambda_.setZero(m);
  }
  stats_.contactIterations = sweeps;
  stats_.contactResidual = res.residual;
  twistOf(nu_);

  // ---- results: warm start of the next step, report, bilateral corrections ----
  warm_.clear();
  contactReport_.resize(nc);
  for (int c = 0; c < nc; ++c) {
    const collision::Contact& k = contactPoints_[c];
    const int r = firstContactRow + perContact * c;
    Eigen::Matrix<double, 6, 1> l = Eigen::Matrix<double, 6, 1>::Zero();
    for (int j = 0; j < perContact; ++j) l(slots[j]) = lcpLambda_(r + j);
    warm_[{k.geomA, k.geomB, k.feature}] = l;
    ContactReport& rep = contactReport_[c];
    rep.bodyA = k.bodyA;
    rep.bodyB = k.bodyB;
    rep.point = k.point;
    rep.normal = k.normal;
    rep.gap = k.gap;
    rep.normalImpulse = l(0);
    rep.frictionImpulse = l(1) * t1s[c] + l(2) * t2s[c];
    rep.frictionCouple = l(3) * k.normal + l(4) * t1s[c] + l(5) * t2s[c];
  }
  VecX bil = VecX::Zero(nj);
  for (int r = 0; r < nj; ++r)
    if (bilateralRow[r] >= 0) bil(r) = lcpLambda_(bilateralRow[r]);
  if (nj > 0) addReactionImpulse(bil);
  stats_.contactSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return bil;
}

}  // namespace mechsim
