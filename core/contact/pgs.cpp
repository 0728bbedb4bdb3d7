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

void pgsSweep(const LcpProblem& p, const PackedRows& rows, VecX& lambda, VecX& vhat) {
  packedSweep(p, rows, lambda, vhat, [](int, double r, double l, double u, double lam, const double* c) {
    return std::min(std::max(lam - r * c[0], l), u);  // c[0] = 1/A_ii
  });
}

}  // namespace mechsim::contact::detail
