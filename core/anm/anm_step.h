#pragma once
// core/anm/anm_step.h — one step of the asymptotic numerical method (paper 004 §3-4, notes §1).
//
// H(x, λ) = 0, H: R^{n+1} → R^m, is followed from a solution (x0, λ0) as series in the
// pseudo-arclength a:  x(a) = Σ_{i=0..N} x_i a^i,  λ(a) = Σ λ_i a^i,  ‖H(x(a), λ(a))‖ = O(a^{N+1}).
// By Proposition 1 the a^k coefficient of H is affine in (x_k, λ_k) with the same matrix at every
// order, so with P = ∂H/∂x(x0, λ0) FACTORISED ONCE and v = ∂H/∂λ(x0, λ0) (eq. 33):
//   P x_k + v λ_k = −q_k,   q_k = C_a^(k)[H(Σ_{i<k} x_i a^i, Σ_{i<k} λ_i a^i)]   (q_1 = 0)
// closed by the pseudo-arclength condition (eq. 28-29)  x_kᵀ x_1 + λ_k λ_1 = δ_{k1},  λ_1 > 0.
// Bordered solve with one factorisation (notes §1.3):
//   y = P⁺ v;  λ_1 = 1/√(1 + |y|²), x_1 = −λ_1 y;           (N solves in all)
//   k ≥ 2:  z = P⁺ q_k,  λ_k = (z·x_1)/(λ_1 − y·x_1),  x_k = −λ_k y − z.
// P⁺ is the caller's solve: for the square toy an LU, for a mechanism the LU null-space solver's
// least-squares / minimum-norm solve (paper 003), so redundant rows and free directions are handled
// (x_k is then the minimum-norm coefficient, and the series the minimum-norm solution path).
// Range of validity (eq. 24, Cochelin): a_r = (ε ‖u_1‖ / ‖u_N‖)^{1/(N−1)}, u_i = [x_i; λ_i],
// ‖u_N‖ floored at 1e-15 and a_r capped at (1e15)^{1/N} (as the SANM code does).
// Padé approximants (eq. 30-31, pade.h), selected by AnmOptions::pade: the step then reaches
// a_m = max(a_r, a_p) and x(a), λ(a) are evaluated on whichever of the series and the Padé
// approximant reaches a_m (Algorithm 2); the series' a_r is kept in seriesRange.
#include <vector>

#include "core/anm/pade.h"
#include "core/types.h"

namespace mechsim::anm {

struct AnmOptions {
  int order = 20;          // N, truncation order (paper 004 experiments: 20)
  double epsilon = 1e-6;   // ε of the range criterion (eq. 23-24; SANM's default `maxr`)
  bool pade = false;       // also form the Padé approximants and step to max(a_r, a_p) (eq. 30-31)
};

/// The problem side of one expansion at (x0, λ0) (Algorithm 1). The solver calls, in order:
/// lambdaColumn(), then for k = 1..N: bias(k) (k ≥ 2), push(k, x_k, λ_k).
class AnmProblem {
 public:
  virtual ~AnmProblem() = default;
  /// v = ∂H/∂λ at the expansion point (m).
  virtual void lambdaColumn(VecX& v) = 0;
  /// x = P⁺ b with the one factorisation of P = ∂H/∂x at the expansion point (b: m, x: n).
  virtual void solve(const VecX& b, VecX& x) = 0;
  /// q_k = coefficient k of H(x(a), λ(a)) with x_k = 0, λ_k = 0 (orders < k pushed) (m).
  virtual void bias(int k, VecX& q) = 0;
  /// The solved order-k coefficients.
  virtual void push(int k, const VecX& xk, double lambdak) = 0;
};

/// The series of one ANM step and its range of validity.
struct AnmSeries {
  std::vector<VecX> x;          // x_0 … x_N
  std::vector<double> lambda;   // λ_0 … λ_N
  double range = 0;             // the step's range: a_r (eq. 24), or a_p when the Padé approximant is used
  double seriesRange = 0;       // a_r of the polynomial series
  int solves = 0;               // linear solves with the factorisation (N)
  PadeApproximant pade;         // formed when AnmOptions::pade (valid() tells whether it could be)
  bool usePade = false;         // x(a), λ(a) are the Padé approximant's (a_p > a_r)

  int order() const { return static_cast<int>(x.size()) - 1; }
  /// x(a), λ(a), dλ/da (Horner on the series; the Padé approximant when usePade, its dλ/da by a
  /// central difference).
  VecX xAt(double a) const;
  double lambdaAt(double a) const;
  double lambdaRate(double a) const;
  /// The step length: the smallest a in (0, range] with λ(a) = target when λ reaches it there,
  /// else the a in (0, range] where λ is largest (a fold of λ stops the step; the next expansion
  /// starts there). Bisection on the polynomial λ(a).
  double stepTo(double target) const;
};

/// Algorithm 1: the series of order opt.order at (x0, λ0). Throws std::runtime_error when the
/// coefficients are not finite or λ_1 would not be positive (a singular bordered system).
AnmSeries expandSeries(AnmProblem& problem, const VecX& x0, double lambda0, const AnmOptions& opt);

/// The per-order invariant of eq. 33: max-norm of P x_k + v λ_k + q_k is checked by tests through
/// the problem; this returns a_r of eq. 24 for given coefficients (exposed for tests).
double rangeOfValidity(const std::vector<VecX>& x, const std::vector<double>& lambda, double epsilon);

}  // namespace mechsim::anm
