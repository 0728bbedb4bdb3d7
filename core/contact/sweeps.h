#pragma once
// core/contact/sweeps.h — one Gauss-Seidel sweep of each solver (internal to core/contact; the
// public interface is solver.h). Rows are visited in the sweep order (sweep_order.h); bounds of
// friction rows are read from the current normal impulse when the row is visited (rowBounds, lcp.h).
#include <vector>

#include "core/contact/lcp.h"

namespace mechsim::contact::detail {

/// J_i · v̂ + b_i = (A λ + q)_i for the λ that v̂ carries (eq. 16 and the identity below it).
inline double rowSlack(const LcpProblem& p, int i, const VecX& vhat) {
  const int d = p.dof;
  double s = p.b[i];
  const int a = p.bodyA[i], b = p.bodyB[i];
  if (a >= 0)
    for (int k = 0; k < d; ++k) s += p.jA[i * d + k] * vhat[a * d + k];
  if (b >= 0)
    for (int k = 0; k < d; ++k) s += p.jB[i * d + k] * vhat[b * d + k];
  return s;
}

/// The rows as the sparse sweeps read them, in sweep order (sweep_order.h), one contiguous record
/// per row (one cache stream instead of a dozen arrays): stride = 4d + 4 doubles
///   J_ia (d), J_ib (d), M̂ column blocks M⁻¹_a J_iaᵀ (d), M⁻¹_b J_ibᵀ (d), b_i, c0_i, c1_i, cfm_i
/// with c0, c1 the method's per-row constants (PGS: 1/A_ii; AMGS: γ/(A_ii + γΩ_ii), 2Ω_ii), and
/// the two body indices, a fixed side pointing at the extra all-zero block N of v̂ (its J and M̂
/// blocks are zero, so the block stays zero) — no branch per side.
struct PackedRows {
  int dof = 3, stride = 16, rows = 0;
  bool boxed = false;           // some row has bounds other than [0, ∞)
  std::vector<int> row;         // (m) the row of p at each position of the sweep
  std::vector<int> body;        // (2m)
  std::vector<double> data;     // (m · stride)
};
/// Packs the rows of p in the given sweep order (a permutation of 0..m−1).
void pack(const LcpProblem& p, const LcpPrecomputed& pre, const VecX& c0, const VecX& c1, const std::vector<int>& order,
          PackedRows& out);

/// The loop both sparse sweeps share (PGS and Methods 3.1/3.2): for each row i in sweep order,
///   r = J_i v̂ + b_i = (A λ^{k+1,i} + q)_i,  [l, u] its bounds,
///   λ_i ← update(i, r, l, u, λ_i, c) with c the row's two constants (c0, c1 of PackedRows),
///   v̂ ← v̂ + M̂_{*i} (λ_i^{new} − λ_i)                                             (eq. 16)
/// D and Boxed are template constants so the inner loops unroll.
template <int D, bool Boxed, class Update>
void packedSweepFixed(const LcpProblem& p, const PackedRows& rows, VecX& lambda, VecX& vhat, Update& update) {
  const int m = rows.rows, S = rows.stride;
  const double* row = rows.data.data();
  const int* body = rows.body.data();
  const int* index = rows.row.data();
  double* v = vhat.data();
  double* lam = lambda.data();
  for (int k = 0; k < m; ++k, row += S) {
    const int i = index[k];
    double* va = v + body[2 * k] * D;
    double* vb = v + body[2 * k + 1] * D;
    double r = row[4 * D] + row[4 * D + 3] * lam[i];  // b_i + cfm_i λ_i
    for (int k = 0; k < D; ++k) r += row[k] * va[k] + row[D + k] * vb[k];
    double l = 0, u = kInf;
    if constexpr (Boxed) rowBounds(p, lambda, i, l, u);
    const double next = update(i, r, l, u, lam[i], row + 4 * D + 1);
    const double dl = next - lam[i];
    lam[i] = next;
    for (int k = 0; k < D; ++k) {
      va[k] += row[2 * D + k] * dl;
      vb[k] += row[3 * D + k] * dl;
    }
  }
}

template <class Update>
void packedSweep(const LcpProblem& p, const PackedRows& rows, VecX& lambda, VecX& vhat, Update update) {
  if (rows.dof == 3)
    rows.boxed ? packedSweepFixed<3, true>(p, rows, lambda, vhat, update)
               : packedSweepFixed<3, false>(p, rows, lambda, vhat, update);
  else
    rows.boxed ? packedSweepFixed<6, true>(p, rows, lambda, vhat, update)
               : packedSweepFixed<6, false>(p, rows, lambda, vhat, update);
}

/// PGS (eq. 4): λ_i ← mid(l_i, λ_i − (J_i v̂ + b_i)/A_ii, u_i), then v̂ += M̂_{*i} Δλ_i.
/// v̂ has N + 1 blocks (the last one zero, for fixed sides).
void pgsSweep(const LcpProblem& p, const PackedRows& rows, VecX& lambda, VecX& vhat);

/// Method 3.1 / 3.2: one sweep of the AMGS update through v̂.
void amgsSparseSweep(const LcpProblem& p, const PackedRows& rows, double gamma, VecX& x, VecX& lambda, VecX& vhat);

/// Method 2.2: one sweep of eq. 14 on the explicit A (symmetric, column i read as row i) and q,
/// rows in the given sweep order (the order of PackedRows::row).
void amgsDenseSweep(const LcpProblem& p, const MatX& A, const VecX& q, const VecX& coef, const VecX& twoOmega,
                    double gamma, const std::vector<int>& order, VecX& x, VecX& lambda);

/// The AMGS row update shared by Methods 2.2, 3.1 and 3.2. With r = (A λ^{k+1,i} + q)_i and the
/// bounds [l, u] of the row (γ/2 scaling of Γ = E/γ):
///   e   = mid(γl/2, x_i, γu/2) − x_i           (the part of x outside the box; = (x_−)_i for l = 0, u = ∞)
///   x_i ← x_i − γ/(A_ii + γΩ_ii) · (r − 2Ω_ii e)                          (eq. 14 / Method 3.1)
///   λ_i ← (2/γ) p_BLCP(x_i) = mid(l, 2x_i/γ, u)                           (Method 3.2)
/// A fixed point has w_i = r = 2Ω_ii e: w ≥ 0 at λ = l, w ≤ 0 at λ = u, w = 0 inside — the BLCP.
/// Read this way the update needs no shift for the negative lower bounds of friction rows, and for
/// the LCP it is exactly the paper's Method 2.2 / 3.1. Returns the new λ_i.
inline double amgsRowUpdate(double r, double l, double u, double coef, double twoOmega, double gamma, double& xi) {
  const double h = 0.5 * gamma, invH = 2.0 / gamma;
  const double e = std::min(std::max(xi, h * l), h * u) - xi;
  xi -= coef * (r - twoOmega * e);
  return std::min(std::max(xi * invH, l), u);
}

}  // namespace mechsim::contact::detail
