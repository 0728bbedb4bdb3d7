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

namespace {

template <int D, bool Boxed>
void sweep(const LcpProblem& p, const PackedRows& rows, double gamma, VecX& x, VecX& lambda, VecX& vhat) {
  const int m = rows.rows, S = rows.stride;
  const double* row = rows.data.data();
  const int* body = rows.body.data();
  double* v = vhat.data();
  double* lam = lambda.data();
  double* xs = x.data();
  for (int i = 0; i < m; ++i, row += S) {
    double* va = v + body[2 * i] * D;
    double* vb = v + body[2 * i + 1] * D;
    // r = Σ_j J_ij v_j^{k+1,i} + b_i
    double r = row[4 * D];
    for (int k = 0; k < D; ++k) r += row[k] * va[k] + row[D + k] * vb[k];
    double l = 0, u = kInf;
    if constexpr (Boxed) rowBounds(p, lambda, i, l, u);
    const double next = amgsRowUpdate(r, l, u, row[4 * D + 1], row[4 * D + 2], gamma, xs[i]);
    const double dl = next - lam[i];
    lam[i] = next;
    // v^{k+1,i+1} = v^{k+1,i} + M̂_{*i} (λ_i^{k+1} − λ_i^k)
    for (int k = 0; k < D; ++k) {
      va[k] += row[2 * D + k] * dl;
      vb[k] += row[3 * D + k] * dl;
    }
  }
}

}  // namespace

void amgsSparseSweep(const LcpProblem& p, const PackedRows& rows, double gamma, VecX& x, VecX& lambda, VecX& vhat) {
  if (rows.dof == 3)
    rows.boxed ? sweep<3, true>(p, rows, gamma, x, lambda, vhat) : sweep<3, false>(p, rows, gamma, x, lambda, vhat);
  else
    rows.boxed ? sweep<6, true>(p, rows, gamma, x, lambda, vhat) : sweep<6, false>(p, rows, gamma, x, lambda, vhat);
}

}  // namespace mechsim::contact::detail
