#pragma once
// core/dynamics/riley.h — weighted minimum-norm solutions by Riley's iterated regularisation
// (paper 002, Popa & Preclik, "Iterative solution of weighted least squares problems with
// applications to rigid multibody dynamics").
//
// Problem (paper eq. 57, 84): among the least-squares solutions of  N x = c  with N = AᵀA
// (symmetric positive SEMI-definite, rank-deficient when constraints are redundant) find
//     x_D* = argmin xᵀ D x ,   D SPD diagonal.
// Iteration (eq. 66), x⁰ = 0:
//     (N + s D) x^{k+1} = s D x^k + c .
// N + sD is SPD: it is factored once (sparse LDLᵀ) and each iteration is one forward/back solve.
// In y = D^{½} x the error e^k = x^k − x_D* obeys y-error^{k+1} = s (N̂ + s I)⁻¹ y-error^k with
// N̂ = D^{-½} N D^{-½}, so (eq. 80-83)
//     ‖e^{k+1}‖_D ≤ s/(s + μ) ‖e^k‖_D ,   μ = the smallest non-zero eigenvalue of N̂
// (= (α_r/β_r)², the smallest non-zero generalised singular value ratio of (A, D^{½}) squared),
// and x⁰ = 0 keeps every iterate in the range where the limit is x_D* (eq. 76-77). The paper picks
//     s = f/(1 − f) · μ         (§6)
// for a target reduction f per iteration; μ is estimated here from the eigenvalues of N̂ (dense,
// once per constraint set; estimateMu). The iteration stops when ‖x^{k+1} − x^k‖_D ≤ tol ‖x^{k+1}‖_D
// (the error is then ≤ f/(1−f) of that step) or after maxIterations.
#include <vector>

#include <Eigen/SparseCholesky>

#include "core/types.h"

namespace mechsim::dyn {

struct RileyOptions {
  double reduction = 0.1;      // target error reduction f per iteration (s = f/(1−f) μ)
  double tolerance = 1e-9;     // relative change in the D-norm that ends the iteration
  int maxIterations = 40;
};

struct RileyResult {
  int iterations = 0;
  bool converged = false;      // the relative change fell below the tolerance
  double lastChange = 0;       // ‖x^{k+1} − x^k‖_D / ‖x^{k+1}‖_D at the end
};

/// The smallest non-zero eigenvalue μ of D^{-½} N D^{-½} (eigenvalues below relativeZero × the
/// largest count as zero). Returns 0 when N = 0. Up to kDenseMuRows rows: all eigenvalues of the
/// dense matrix (O(n³); exact). Above: estimateMuByInertia (sparse factorisations; within 10 %).
double estimateMu(const SpMat& N, const VecX& D, double relativeZero = 1e-10);

/// Rows up to which estimateMu takes the dense eigenvalues (a second or less), beyond which it
/// counts them (a 1 000-link chain's 5 000 rows: the dense solver took 90 % of a dynamics step).
constexpr Eigen::Index kDenseMuRows = 1500;

/// μ bracketed by counting eigenvalues: by Sylvester's law of inertia, the number of eigenvalues
/// of N̂ = D^{-½} N D^{-½} below σ is the number of negative pivots of the LDLᵀ factorisation of
/// N̂ − σI. With k₀ = the count at σ₀ = relativeZero × λ_max (the null space: N̂'s redundant
/// directions), μ is the σ where the count first exceeds k₀; bisection in log σ between σ₀ and
/// the Gershgorin bound brackets it to a ratio of 1.2 in about eight sparse factorisations (AMD
/// order, one symbolic analysis), O(fill) each instead of O(n³). Returns the geometric middle of
/// the bracket (within 10 % of μ), or −1 when a factorisation breaks down (a zero pivot twice).
double estimateMuByInertia(const SpMat& N, const VecX& D, double relativeZero = 1e-10);

class RileySolver {
 public:
  /// Factors N + s D (N: n × n symmetric, both triangles stored; D: (n) positive) with
  /// s = f/(1 − f) μ. The ordering and symbolic analysis are redone only when N's pattern changes.
  /// Returns false when the factorisation fails (non-finite input, μ ≤ 0).
  bool factorize(const SpMat& N, const VecX& D, double mu, const RileyOptions& opt);
  /// Runs the iteration (66) from x⁰ = 0 for the right-hand side c (= Aᵀ b). When `iterates` is
  /// given, every x^k (k ≥ 1) is appended (tests measure the contraction).
  /// `tolerance` < 0 uses the factorize() options' tolerance, `maxIterations` < 0 its iteration cap.
  RileyResult solve(const VecX& c, VecX& x, std::vector<VecX>* iterates = nullptr, double tolerance = -1,
                    int maxIterations = -1) const;
  /// One regularised solve (N + sD)⁻¹ r with the current factors.
  VecX regularizedSolve(const VecX& r) const;

  double s() const { return s_; }
  double mu() const { return mu_; }
  /// The proven bound s/(s + μ) on the contraction per iteration in the D-norm (eq. 83).
  double contractionBound() const { return s_ / (s_ + mu_); }
  const VecX& weights() const { return D_; }

 private:
  void analyse(const SpMat& N);

  // The factors are of K̃ = P (N + sD) Pᵀ with P the AMD fill-reducing permutation of N's pattern,
  // computed once per pattern (analyse). K̃'s upper triangle is stored with a fixed pattern; each
  // factorize() only rewrites its values (slot maps below) and refactors numerically, and the
  // iteration runs in the permuted numbering (c, D and x are permuted once per solve, not per
  // iteration). Same arithmetic as factoring N + sD directly; no allocation after the first call.
  Eigen::SimplicialLDLT<SpMat, Eigen::Upper, Eigen::NaturalOrdering<int>> ldlt_;
  SpMat Kp_;                   // P (N + sD) Pᵀ, upper triangle
  Eigen::VectorXi perm_;       // row i of N is row perm_(i) of K̃
  std::vector<int> nSlot_;     // value index in Kp_ of each stored entry of N (−1: lower triangle)
  std::vector<int> dSlot_;     // value index in Kp_ of K̃(perm_(i), perm_(i))
  VecX D_, Dp_;                // weights, and permuted
  double s_ = 0, mu_ = 0;
  RileyOptions opt_;
  Eigen::Index patternNnz_ = -1, patternRows_ = -1;
  std::vector<int> patternOuter_, patternInner_;
  mutable VecX cp_, xp_, rhs_, next_;  // solve() workspace (permuted numbering)
};

/// Reference x_D* (paper eq. 85-86): x = D^{-½} (N D^{-½})⁺ c by a dense complete orthogonal
/// decomposition (rank threshold relative to the largest pivot). O(n³): tests and benchmarks only.
VecX weightedMinNormReference(const MatX& N, const VecX& c, const VecX& D, double rankThreshold = 1e-10);

}  // namespace mechsim::dyn
