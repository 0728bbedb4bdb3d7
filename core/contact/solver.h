#pragma once
// core/contact/solver.h — the iterative solvers of the contact LCP behind one interface
// (paper 000): projected Gauss-Seidel (eq. 4, the baseline), the accelerated modulus-based
// Gauss-Seidel method on an explicit A (Method 2.2, eq. 14; the reference) and on J, M⁻¹ only
// (Method 3.1, eq. 15-16; Method 3.2 when the problem has bounds / friction).
//
// All methods warm-start from the λ passed in (the previous step's impulses, §5) and sweep the
// rows in one order, contacts grouped by a colouring of the contact graph (sweep_order.h). The AMGS splitting parameter Ω is diagonal: Ω = α D (D = diag A,
// α = 1/γ minimises the bound of Theorem 4.2, Remark 4.4) or Ω = ω̄ E with ω̄ = mean(D)/γ.
#include <string>
#include <vector>

#include "core/contact/lcp.h"
#include "core/contact/sweeps.h"

namespace mechsim::contact {

enum class Method {
  Pgs,          // projected Gauss-Seidel through v̂ = v + M̂λ (eq. 4), boxed rows clamped to [l, u]
  AmgsDense,    // Method 2.2: AMGS on the explicit A = J M⁻¹ Jᵀ (m × m dense), O(m²) per sweep
  AmgsSparse,   // Method 3.1 / 3.2: AMGS through v̂, O(nnz J) per sweep
};

enum class OmegaKind {
  ScaledDiagonal,  // Ω = α D
  MeanIdentity,    // Ω = ω̄ E,  ω̄ = mean(D) / γ
};

struct SolverSettings {
  Method method = Method::AmgsSparse;
  OmegaKind omega = OmegaKind::ScaledDiagonal;
  double alpha = 0.5;      // Ω = α D; the paper's [D/γ] is α = 1/γ = 0.5
  double gamma = 2.0;      // γ of Γ = E/γ (the paper fixes γ = 2)
  int maxIterations = 10;  // sweeps
  double tolerance = 0.0;  // stop once RES(λ) < tolerance (checked after each sweep when > 0)
  bool recordResidual = false;  // fill SolverResult::history with RES after each sweep
};

struct SolverResult {
  int iterations = 0;             // sweeps done
  double residual = -1.0;         // RES(λ) at the end (computed when tolerance > 0 or recordResidual)
  bool converged = false;         // RES < tolerance reached
  std::vector<double> history;    // RES after sweep k (k = 1..iterations) when recordResidual
};

/// Parses a method name of `bench contact`: pgs, amgs-2.2, amgs-3.1-wE, amgs-3.1-D, amgs-3.1-aX
/// (X = α). Throws std::invalid_argument for an unknown name.
SolverSettings parseMethod(const std::string& name);

/// Solves the (boxed) LCP p from the warm start `lambda` (size m; resized to zeros when it is not),
/// which holds the impulses on return. Work buffers live in the solver, so one instance serves a
/// whole simulation without allocating per step. p must satisfy p.validate().
class LcpSolver {
 public:
  SolverResult solve(const LcpProblem& p, const SolverSettings& s, VecX& lambda);

  /// Time of the last call spent before the first sweep (M̂ and D, or forming A for Method 2.2), seconds.
  double setupSeconds() const { return setupSeconds_; }

 private:
  LcpPrecomputed pre_;
  detail::PackedRows packed_;
  std::vector<int> order_;  // sweep order (sweep_order.h)
  VecX vhat_, x_, coef_, twoOmega_, w_, q_;
  MatX A_;
  double setupSeconds_ = 0;
};

}  // namespace mechsim::contact
