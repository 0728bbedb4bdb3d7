// core/contact/pgs.cpp — projected Gauss-Seidel, the baseline of paper 000 (eq. 4).
//
// With A = D − L − U, PGS sets λ^{k+1} = max{0, D⁻¹(L λ^{k+1} + U λ^k − q)} row by row. As in the
// sequential-impulse form the paper cites ([6]), (A λ^{k+1,i} + q)_i is read as J_i v̂ + b_i with
// v̂ = v + M⁻¹Jᵀ λ^{k+1,i} kept up to date (eq. 16), so a sweep costs O(nnz J), like Method 3.1:
//   λ_i ← mid(l_i, λ_i − (J_i v̂ + b_i)/A_ii, u_i),    v̂ ← v̂ + M̂_{*i}(λ_i^{new} − λ_i).
// For the LCP l_i = 0, u_i = ∞; friction rows use l = −μλ_n, u = μλ_n (boxed PGS).
// The loop reads the packed rows (sweeps.h) with c0_i = 1/A_ii.
#include "core/contact/sweeps.h"

namespace mechsim::contact::detail {

namespace {

template <int D, bool Boxed>
void sweep(const LcpProblem& p, const PackedRows& rows, VecX& lambda, VecX& vhat) {
  const int m = rows.rows, S = rows.stride;
  const double* row = rows.data.data();
  const int* body = rows.body.data();
  double* v = vhat.data();
  double* lam = lambda.data();
  for (int i = 0; i < m; ++i, row += S) {
    double* va = v + body[2 * i] * D;
    double* vb = v + body[2 * i + 1] * D;
    // r = (A λ + q)_i = J_i v̂ + b_i
    double r = row[4 * D];
    for (int k = 0; k < D; ++k) r += row[k] * va[k] + row[D + k] * vb[k];
    double l = 0, u = kInf;
    if constexpr (Boxed) rowBounds(p, lambda, i, l, u);
    const double next = std::min(std::max(lam[i] - r * row[4 * D + 1], l), u);
    const double dl = next - lam[i];
    lam[i] = next;
    // v̂ += M̂_{*i} Δλ_i
    for (int k = 0; k < D; ++k) {
      va[k] += row[2 * D + k] * dl;
      vb[k] += row[3 * D + k] * dl;
    }
  }
}

}  // namespace

void pgsSweep(const LcpProblem& p, const PackedRows& rows, VecX& lambda, VecX& vhat) {
  if (rows.dof == 3)
    rows.boxed ? sweep<3, true>(p, rows, lambda, vhat) : sweep<3, false>(p, rows, lambda, vhat);
  else
    rows.boxed ? sweep<6, true>(p, rows, lambda, vhat) : sweep<6, false>(p, rows, lambda, vhat);
}

}  // namespace mechsim::contact::detail
