// core/contact/amgs_sparse.cpp — the AMGS method for rigid-body contact without forming A:
// paper 000 Method 3.1 (LCP) and Method 3.2 (boxed LCP, friction).
//
// Method 2.2 needs (A λ^{k+1,i} + q)_i = Σ_{j<i} A_ij λ_j^{k+1} + Σ_{j≥i} A_ij λ_j^k + q_i (eq. 14),
// O(m) per row. With λ^{k+1,i} of eq. 15 and the applied-impulse velocity
//   v^{k+1,i} = v + M̂ λ^{k+1,i},   M̂ = M⁻¹Jᵀ                                           (eq. 16)
// it equals J_i v^{k+1,i} + b_i, so
//   x_i^{k+1} = x_i^k − γ/(A_ii + γΩ_ii) · ( J_i v^{k+1,i} + b_i − 2Ω_ii (x_−^k)_i ),
//   λ_i^{k+1} = (2/γ) max{0, x_i^{k+1}}      (Method 3.2: (2/γ) p_BLCP(x_i^{k+1})),
//   v ← v + M̂_{*i} (λ_i^{k+1} − λ_i^k).
// Column i of M̂ has two d-blocks (one per body of the contact), so a sweep costs O(nnz J) — the
// cost of a PGS sweep. Only the diagonal A_ii = J_i M⁻¹ J_iᵀ is precomputed. The row update itself
// (amgsRowUpdate, sweeps.h) is shared with Method 2.2, so both give the same iterates to rounding.
#include "core/contact/sweeps.h"

namespace mechsim::contact::detail {

void amgsSparseSweep(const LcpProblem& p, const PackedRows& rows, double gamma, VecX& x, VecX& lambda, VecX& vhat) {
  double* xs = x.data();
  packedSweep(p, rows, lambda, vhat, [gamma, xs](int i, double r, double l, double u, double, const double* c) {
    return amgsRowUpdate(r, l, u, c[0], c[1], gamma, xs[i]);  // c = γ/(A_ii + γΩ_ii), 2Ω_ii
  });
}

}  // namespace mechsim::contact::detail
