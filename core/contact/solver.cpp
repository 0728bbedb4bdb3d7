// core/contact/solver.cpp — set-up and outer loop shared by the contact solvers (solver.h):
// projection of the warm start, x⁰ = (γ/2) λ⁰, v¹·¹ = v + M̂ λ⁰ (Method 3.1 / 3.2), Ω, the
// sweep order (sweep_order.h), the per-sweep RES check (eq. 24).
#include "core/contact/solver.h"

#include "core/contact/sweep_order.h"

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace mechsim::contact {

SolverSettings parseMethod(const std::string& name) {
  SolverSettings s;
  if (name == "pgs") {
    s.method = Method::Pgs;
  } else if (name == "amgs-2.2") {
    s.method = Method::AmgsDense;  // [D/γ], as in the paper's Table 1
    s.alpha = 0.5;
  } else if (name == "amgs-3.1-wE") {
    s.method = Method::AmgsSparse;
    s.omega = OmegaKind::MeanIdentity;
  } else if (name == "amgs-3.1-D") {
    s.method = Method::AmgsSparse;
    s.alpha = 1.0 / s.gamma;
  } else if (name.rfind("amgs-3.1-a", 0) == 0) {
    s.method = Method::AmgsSparse;
    const std::string a = name.substr(10);
    std::size_t used = 0;
    double alpha = -1;
    try {
      alpha = std::stod(a, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != a.size() || !(alpha > 0) || !std::isfinite(alpha))
      throw std::invalid_argument("contact solver: bad α in '" + name + "' (want amgs-3.1-aX with X > 0)");
    s.alpha = alpha;
  } else {
    throw std::invalid_argument("contact solver: unknown method '" + name +
                                "' (pgs, amgs-2.2, amgs-3.1-wE, amgs-3.1-D, amgs-3.1-aX)");
  }
  return s;
}

SolverResult LcpSolver::solve(const LcpProblem& p, const SolverSettings& s, VecX& lambda) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  if (!(s.gamma > 0) || !(s.alpha > 0) || s.maxIterations < 0)
    throw std::invalid_argument("contact solver: γ and α must be positive, iterations ≥ 0");
  const int m = p.rows();
  SolverResult res;
  if (lambda.size() != m) lambda.setZero(m);
  if (m == 0) {
    res.residual = 0;
    res.converged = true;
    setupSeconds_ = 0;
    return res;
  }

  // λ⁰ ← p_BLCP(λ⁰) (Method 3.2, first line; rows in order so friction bounds see the projected λ_n)
  for (int i = 0; i < m; ++i) {
    double l, u;
    rowBounds(p, lambda, i, l, u);
    lambda[i] = std::min(std::max(lambda[i], l), u);
  }

  precompute(p, pre_);
  sweepOrder(p, order_);
  const bool dense = s.method == Method::AmgsDense;
  if (dense) formDense(p, A_, q_);
  if (s.method != Method::Pgs) {
    // Ω = αD or ω̄E (ω̄ = mean(D)/γ); coef_i = γ/(A_ii + γΩ_ii)
    const double omegaBar = pre_.diag.mean() / s.gamma;
    coef_.resize(m);
    twoOmega_.resize(m);
    for (int i = 0; i < m; ++i) {
      const double om = s.omega == OmegaKind::ScaledDiagonal ? s.alpha * pre_.diag[i] : omegaBar;
      coef_[i] = s.gamma / (pre_.diag[i] + s.gamma * om);
      twoOmega_[i] = 2.0 * om;
    }
    x_ = (0.5 * s.gamma) * lambda;  // x⁰ = (γ/2) λ⁰
  } else {
    coef_ = pre_.diag.cwiseInverse();  // PGS: 1/A_ii
    twoOmega_.resize(0);
  }
  if (!dense) {
    detail::pack(p, pre_, coef_, twoOmega_, order_, packed_);
    appliedVelocity(p, pre_, lambda, vhat_);  // v¹·¹ = v + M̂ λ⁰
    vhat_.conservativeResize(p.size() + p.dof);
    vhat_.tail(p.dof).setZero();  // the block of fixed sides (sweeps.h)
  }
  setupSeconds_ = std::chrono::duration<double>(Clock::now() - t0).count();

  // RES(λ) from the state the method keeps (v̂, or A and q)
  auto currentResidual = [&]() {
    if (dense) {
      w_.noalias() = A_ * lambda;
      w_ += q_;
    } else {
      w_.resize(m);
      for (int i = 0; i < m; ++i) w_[i] = detail::rowSlack(p, i, vhat_) + (p.cfm.size() ? p.cfm[i] * lambda[i] : 0.0);
    }
    return residualFromSlack(p, lambda, w_);
  };

  const bool check = s.tolerance > 0 || s.recordResidual;
  for (int k = 0; k < s.maxIterations; ++k) {
    switch (s.method) {
      case Method::Pgs: detail::pgsSweep(p, packed_, lambda, vhat_); break;
      case Method::AmgsSparse: detail::amgsSparseSweep(p, packed_, s.gamma, x_, lambda, vhat_); break;
      case Method::AmgsDense: detail::amgsDenseSweep(p, A_, q_, coef_, twoOmega_, s.gamma, order_, x_, lambda); break;
    }
    res.iterations = k + 1;
    if (check) {
      res.residual = currentResidual();
      if (s.recordResidual) res.history.push_back(res.residual);
      if (s.tolerance > 0 && res.residual < s.tolerance) {
        res.converged = true;
        break;
      }
    }
  }
  if (!check) res.residual = -1.0;
  if (!lambda.allFinite()) throw std::runtime_error("contact solver: impulses became non-finite");
  return res;
}

}  // namespace mechsim::contact
