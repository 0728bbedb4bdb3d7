#pragma once
// core/contact/lcp.h — the velocity-level contact problem of paper 000 §2.1 (eq. 1-3) and its
// boxed form (§3.1), stored the way the sparse solvers read it.
//
// N bodies with d velocity components each (d = 3 for bodies held in a plane: vx, vy, ω_z;
// d = 6 in space: v, ω — eq. 2), v ∈ ℝⁿ, n = d·N. Each of the m rows of the contact Jacobian J
// touches at most two bodies (a contact between body a and body b, or a body and a fixed wall),
// so a row is stored as two d-blocks J_ia, J_ib. M⁻¹ is block-diagonal (one d×d block per body).
// The impulses λ ∈ ℝᵐ solve
//     LCP(q, A):   w = A λ + q ≥ 0,  λ ≥ 0,  wᵀλ = 0,          A = J M⁻¹ Jᵀ,  q = J v + b   (eq. 3)
// or, with friction rows (pyramidal friction, one row per tangent direction),
//     BLCP(q, l, u, A): l ≤ λ ≤ u;  w_i ≥ 0 at λ_i = l_i, w_i ≤ 0 at λ_i = u_i, w_i = 0 inside,
// where a friction row t of contact row c has l_t = −μ λ_c, u_t = +μ λ_c: the bounds follow the
// current normal impulse (the solvers re-read them each time they visit row t, so the rows of a
// contact are stored normal first, its tangents next).
//
// Accuracy (eq. 24): RES(λ) = ‖ min{λ, Aλ + q} ‖₂; for boxed rows the same natural residual
// ‖ λ − mid(l, λ − w, u) ‖₂, which equals min{λ, w} where l = 0, u = ∞.
#include <algorithm>
#include <limits>
#include <vector>

#include "core/types.h"

namespace mechsim::contact {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// One LCP / boxed LCP in the paper's form: J (rows of two body blocks), block-diagonal M⁻¹, v, b, bounds.
struct LcpProblem {
  int dof = 3;                   // velocity components per body, d: 3 (planar) or 6 (spatial)
  int bodies = 0;                // N
  std::vector<double> invMass;   // (N·d·d) the blocks of M⁻¹, row-major, body k at k·d·d
  VecX v;                        // (n = N·d) velocities before the impulses (after applied forces)

  // rows (m)
  std::vector<int> bodyA, bodyB; // (m) bodies of the row; −1 for a fixed body (wall, ground)
  std::vector<double> jA, jB;    // (m·d) J_ia and J_ib
  VecX b;                        // (m) bias: restitution, penetration correction
  VecX lo, hi;                   // (m) bounds of rows without a friction parent (0 and ∞ for the LCP)
  std::vector<int> frictionOf;   // (m) for a friction row the index of its normal row, else −1
  std::vector<double> mu;        // (m) friction coefficient of a friction row
  VecX cfm;                      // (m or empty) diagonal regularisation ("constraint force mixing"):
                                 // A = J M⁻¹ Jᵀ + diag(cfm), i.e. w_i += cfm_i λ_i (rows of a soft
                                 // constraint; it makes the split of the load among redundant
                                 // contact points unique and even). Empty: none.

  int rows() const { return static_cast<int>(b.size()); }
  int size() const { return bodies * dof; }
  /// True when some row has bounds other than [0, ∞) (friction or explicit bounds): a boxed LCP.
  bool boxed() const;

  /// Append a row between bodies a and b (either may be −1) with Jacobian blocks ja, jb (d each).
  /// Returns its index. Bounds default to the LCP's [0, ∞).
  int addRow(int a, const double* ja, int b, const double* jb, double bias, double lower = 0.0, double upper = kInf);
  /// Append a friction row whose bounds are ±μ λ of the normal row `normalRow`.
  int addFrictionRow(int normalRow, double frictionCoefficient, int a, const double* ja, int b, const double* jb,
                     double bias = 0.0);

  /// Throws std::invalid_argument on inconsistent sizes, non-finite data, bad indices, a row of
  /// zero diagonal (J_i M⁻¹ J_iᵀ ≤ 0) or lo > hi.
  void validate() const;
};

/// Quantities every sweep needs, computed once per problem: M̂ = M⁻¹Jᵀ by rows (eq. 16: row i of J
/// gives column i of M̂, two d-blocks), the diagonal D = diag(A), A_ii = J_i M⁻¹ J_iᵀ.
struct LcpPrecomputed {
  std::vector<double> mA, mB;    // (m·d) M⁻¹_a J_iaᵀ and M⁻¹_b J_ibᵀ
  VecX diag;                     // (m) A_ii
};
void precompute(const LcpProblem& p, LcpPrecomputed& out);

/// The bounds of row i given the current impulses (friction rows: ±μ λ_normal).
inline void rowBounds(const LcpProblem& p, const VecX& lambda, int i, double& l, double& u) {
  const int c = p.frictionOf[i];
  if (c >= 0) {
    u = p.mu[i] * std::max(0.0, lambda[c]);
    l = -u;
  } else {
    l = p.lo[i];
    u = p.hi[i];
  }
}

/// v̂ = v + M̂ λ (eq. 16), the velocity after the impulses λ.
void appliedVelocity(const LcpProblem& p, const LcpPrecomputed& pre, const VecX& lambda, VecX& vhat);

/// w = A λ + q = J v̂ + b, computed through J and M⁻¹ without forming A.
void slack(const LcpProblem& p, const LcpPrecomputed& pre, const VecX& lambda, VecX& w);

/// RES(λ) of eq. 24 (natural residual for boxed rows, see the header comment).
double residual(const LcpProblem& p, const LcpPrecomputed& pre, const VecX& lambda);

/// The same residual from a given w (A λ + q) — used with a dense A.
double residualFromSlack(const LcpProblem& p, const VecX& lambda, const VecX& w);

/// J as a sparse m × n matrix and M⁻¹ as a sparse n × n matrix (for the dense reference method
/// and the tests).
SpMat jacobian(const LcpProblem& p);
SpMat inverseMass(const LcpProblem& p);

/// A = J M⁻¹ Jᵀ (dense, m × m) and q = J v + b.
void formDense(const LcpProblem& p, MatX& A, VecX& q);

}  // namespace mechsim::contact
