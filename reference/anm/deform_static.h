#pragma once
// reference/anm/deform_static.h — handle-controlled static deformation of a tetrahedral mesh by the
// asymptotic numerical method (paper 004 §3.3-3.4 eq. 68, notes §3.3-3.4, §1.7).
//
// EQUILIBRIUM. With the free vertex positions x, the prescribed ones p (pinned vertices and
// handles) and the gravity scale s, the static force residual is
//   R(x, p, s) = f(x, p) − s M g,   f_a = Σ_{e∋a} V_e P(F_e) b_{e,a}   (the elastic nodal forces,
// paper eq. 58 with the rest normals written as the shape-function gradients b of hd/element.h),
// M the lumped masses and g the model's gravity. The material is the model's: the stable
// neo-Hookean of core/deform (P = μ F + (λ(J − 1) − μ) cof F, J = det F) or ARAP (P = 2μ (F − R),
// R the polar rotation of F, whose series is polar_series.h).
// The model's time step and inertia play no part: this is the static problem.
//
// HOMOTOPY (eq. 68, with the error-correcting form of eq. 34). The path goes from the state at
// λ = 0 (p_0, s_0) to λ = 1 (p_1, s_1) along p(λ) = p_0 + λ (p_1 − p_0), s(λ) = s_0 + λ (s_1 − s_0)
// (gravity continuation: p_1 = p_0, s from 0 to 1; handle pull: p moves, s fixed). Each ANM step
// starts at (x_k, λ_k) and follows, for μ from 0 to 1,
//   H_k(x, μ) = R(x, p(λ_k) + μ Δp, s(λ_k) + μ Δs) − (1 − μ) R(x_k, p(λ_k), s(λ_k)),
//   Δp = p_1 − p(λ_k),  Δs = s_1 − s(λ_k),
// so H_k(x_k, 0) = 0 exactly and the residual left by earlier steps is corrected on the way (§1.7);
// once λ = 1 is reached, further steps (Δp = 0, Δs = 0) are pure §1.7 corrections until the residual
// is below the tolerance.
//
// SERIES (Algorithm 1). P = ∂R/∂x (the exact, unprojected elastic Hessian on the free vertices,
// factorised once per step by sparse LU), v = ∂H_k/∂μ = K_xp Δp − Δs M g + R(x_k, ·). The prescribed
// vertices' coefficients are p_i = μ_i Δp (i ≥ 1). The stable neo-Hookean stress is a polynomial in
// F, so its order-k bias follows from the product rules of notes §2.3 (mul / matmul), per tet:
//   F_k = Σ_a X_{a,k} b_aᵀ                                   (linear)
//   cof_k = Σ_{i=0}^{k} C(F_i, F_{k−i}),  C(A, B)_rc = A_{r+1,c+1} B_{r+2,c+2} − A_{r+1,c+2} B_{r+2,c+1}
//   J_k = Σ_{i=0}^{k} F_i(0,:) · cof_{k−i}(0,:)               (det F = row 0 of F · row 0 of cof F)
//   s_0 = λ(J_0 − 1) − μ,  s_k = λ J_k (k ≥ 1)
//   P_k = μ F_k + Σ_{i=0}^{k} s_i cof_{k−i}
// with F_k = 0 (and the terms it enters) for the bias q_k, exact coefficients after x_k is solved.
// ARAP: P_k = 2μ (F_k − R_k), R_k = polarRotationCoeff (affine in F_k; its slope is the exact
// derivative of R, so the factorised Hessian below is the series' tangent for both materials).
// Gravity and the correction term are linear in μ and contribute to v only.
#include <string>
#include <vector>

#include <Eigen/SparseLU>

#include "core/anm/anm_step.h"
#include "core/anm/polar_series.h"
#include "core/deform/deformable.h"

namespace mechsim::anm {

/// The static force residual R(x, p, s) at the free vertices (3 nfree, free-vertex order); x holds
/// all vertex positions (3 nv) with the prescribed ones at p.
VecX staticResidual(const deform::DeformableModel& m, const VecX& x, double gravityScale);

/// One ANM step's problem H_k(x, μ) (see the header comment) at the full positions xk (3 nv).
class StaticDeformHomotopy : public AnmProblem {
 public:
  /// dp: Δp (3 nv; only prescribed entries are used); ds: Δs; s0: s(λ_k); correct: include the
  /// −(1 − μ) R(x_k) term (false: H = R(x, p_k + μΔp, s_k + μΔs), which needs R(x_k) = 0).
  StaticDeformHomotopy(const deform::DeformableModel& m, const VecX& xk, const VecX& dp, double s0, double ds,
                       int order, bool correct = true);
  void lambdaColumn(VecX& v) override { v = v_; }
  void solve(const VecX& b, VecX& x) override;
  void bias(int k, VecX& q) override;
  void push(int k, const VecX& xk, double muk) override;
  /// Full positions (3 nv) from free coordinates and μ: prescribed at p_k + μ Δp.
  VecX fullPositions(const VecX& xFree, double mu) const;
  /// Free coordinates (3 nfree) of full positions.
  VecX freeCoordinates(const VecX& x) const;
  bool factorised() const { return ok_; }

 private:
  void tetForce(int k, bool biasOnly, VecX& q);
  const deform::DeformableModel& m_;
  VecX x0_, dp_, v_;
  double mu_, la_;
  bool arap_;
  int order_;
  std::vector<VecX> X_;                 // full-position coefficients X_0..X_k (3 nv)
  std::vector<std::vector<Mat3>> F_, C_;  // per order: per tet F_i and cof F_i (ARAP: R_i)
  std::vector<PolarSeriesBase> polar_;   // ARAP: per tet, the rotation series' order-0 data
  std::vector<std::vector<double>> s_;  // per order: per tet s_i
  Eigen::SparseLU<SpMat> lu_;
  bool ok_ = false;
};

struct StaticDeformOptions {
  AnmOptions anm;             // N = 20, ε = 1e-6 (paper 004)
  int maxSteps = 50;          // ANM steps (continuation and correction)
  double tolerance = 1e-10;   // max |R_i| / (μ · extent²) at convergence
};

struct StaticDeformResult {
  VecX x;                     // all vertex positions (3 nv) at the end
  bool converged = false;     // λ = 1 reached and the residual below tolerance
  double lambda = 0;          // λ reached
  double residual = 0;        // max |R_i| / (μ · extent²) at the end
  int steps = 0;              // ANM steps (one factorisation each)
  int solves = 0;             // linear solves with those factorisations
  std::string message;
};

/// ANM continuation of the static equilibrium from x0 (3 nv, an equilibrium at p_0 = x0's
/// prescribed entries and gravity scale s0; small residuals are corrected on the way) to the
/// prescribed positions p1 (3 nv; only prescribed entries are used) and gravity scale s1.
/// Throws std::invalid_argument for sizes that do not match or non-finite input.
StaticDeformResult solveStaticAnm(const deform::DeformableModel& m, const VecX& x0, double s0, const VecX& p1,
                                  double s1, const StaticDeformOptions& opt = {});

}  // namespace mechsim::anm
