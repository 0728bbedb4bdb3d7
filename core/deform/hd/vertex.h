#pragma once
// core/deform/hd/vertex.h — per-vertex pieces of the vertex-block solvers, shared by the CPU twin
// and the CUDA kernels (MECHSIM_HD, see mat3.h).
//
// Notation (JGS2, Lan et al. 2025): E = I + Ψ is the implicit-Euler incremental potential,
// g its gradient and H its (projected) Hessian. Vertex i's sub-problem has the 3×3 diagonal block
// H_ii and gradient g_i (VBD-style per-vertex Newton, §3 of the paper: δx_i = −H_ii⁻¹ g_i).
// JGS2 adds the complement terms of Eq. (15)–(17) along the co-rotated subspace
// U_i = R Ū_i R_iᵀ (Eq. 14):
//   (H_ii + H̃_ii) δx_i = −(g_i + g̃_i),
//   H̃_ii ≈ Σ_{e∈𝒮_i} w_e [U_i]_eᵀ (H_e + m_e/(4h²) I) [U_i]_e,
//   g̃_i  ≈ Σ_{e∈𝒮_i} w_e Σ_{a∈e, a≠i} U_{i,a}ᵀ g_a / val_a,
// where g_a is the ASSEMBLED residual of vertex a (so g̃_i vanishes at equilibrium and the fixed
// point is the true minimiser — ambiguity (a) of the notes) shared out over a's val_a incident
// tets (so that with all w_e = 1 the sum is exactly Σ_{a≠i} U_{i,a}ᵀ g_a).
#include "core/deform/hd/mat3.h"

namespace mechsim::deform::hd {

/// Vertex block of E: g_i = m_i/h² (x_i − z_i) + Σ_e g_e[a], H_ii = m_i/h² I + Σ_e H_e[a,a] over the
/// incident tets (tets[k], local index local[k], k in [begin, end)). gE: 12 per tet, HE: 144 per
/// tet (may be null: then only g is formed).
MECHSIM_HD inline void vertexBlock(int i, double massOverH2, const double* x, const double* z, const int* tets,
                                   const int* local, int begin, int end, const double* gE, const double* HE,
                                   double* g, double* H) {
  for (int r = 0; r < 3; ++r) g[r] = massOverH2 * (x[3 * i + r] - z[3 * i + r]);
  if (H)
    for (int k = 0; k < 9; ++k) H[k] = (k % 4 == 0) ? massOverH2 : 0.0;
  for (int k = begin; k < end; ++k) {
    const int t = tets[k], a = local[k];
    for (int r = 0; r < 3; ++r) g[r] += gE[12 * t + 3 * a + r];
    if (H) {
      const double* He = HE + 144 * t;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) H[3 * r + c] += He[12 * (3 * a + r) + 3 * a + c];
    }
  }
}

/// Adds one cubature element's terms to A (3×3) and b (3). Ubar: the rest-frame 12×3 block
/// [Ū_i]_e (row-major, rows of vertex i zero); Rv[a]: the rotation of the tet's vertex a; Ri: the
/// rotation of vertex i; He: the element Hessian (12×12) and inertiaShare = m_e/(4h²);
/// G[a]: the assembled residual of the tet's vertex a, invVal[a] = 1/val_a, skip[a] true when the
/// vertex is i itself or a prescribed vertex.
MECHSIM_HD inline void cubatureAccumulate(double w, const double* Ubar, const double* const* Rv, const double* Ri,
                                          const double* He, double inertiaShare, const double* const* G,
                                          const double* invVal, const bool* skip, double* A, double* b,
                                          double* UeOut = nullptr) {
  // [U]_e = blockdiag(R_a) Ū_e R_iᵀ (12×3).
  double local[36];
  double* Ue = UeOut ? UeOut : local;
  for (int a = 0; a < 4; ++a) {
    double t[9], u[9];
    for (int k = 0; k < 9; ++k) t[k] = Ubar[9 * a + k];  // rows 3a..3a+2 of the 12×3 block
    double tr[9];
    matMulNT(t, Ri, tr);  // Ū_{i,a} R_iᵀ
    matMul(Rv[a], tr, u);  // R_a Ū_{i,a} R_iᵀ
    for (int k = 0; k < 9; ++k) Ue[9 * a + k] = skip[a] ? 0.0 : u[k];
  }
  // A += w Uᵀ (H_e + share I) U.
  double HU[36];
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 3; ++c) {
      double s = inertiaShare * Ue[3 * r + c];
      for (int k = 0; k < 12; ++k) s += He[12 * r + k] * Ue[3 * k + c];
      HU[3 * r + c] = s;
    }
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      double s = 0;
      for (int k = 0; k < 12; ++k) s += Ue[3 * k + r] * HU[3 * k + c];
      A[3 * r + c] += w * s;
    }
  // b += w Σ_a U_aᵀ g_a / val_a (residual form; G null: the caller forms the element form).
  if (!G) return;
  for (int a = 0; a < 4; ++a) {
    if (skip[a]) continue;
    double y[3];
    matTVec(Ue + 9 * a, G[a], y);
    for (int r = 0; r < 3; ++r) b[r] += w * invVal[a] * y[r];
  }
}

/// Element ("stress") form of the cubature right-hand side: b += w [U_C]_eᵀ ([∇Ψ]_e + share (x − z)_e),
/// the element's own gradient with its inertia share instead of the assembled residual. The sum
/// over ALL elements equals the residual form; a few samples of it see the smooth stress field
/// instead of its divergence. Ue as computed by cubatureAccumulate (12×3, skipped rows zero).
MECHSIM_HD inline void cubatureRhsElement(double w, const double* Ue, const double* ge, double inertiaShare,
                                          const double* xe, const double* ze, double* b) {
  for (int k = 0; k < 12; ++k) {
    const double gk = ge[k] + inertiaShare * (xe[k] - ze[k]);
    for (int r = 0; r < 3; ++r) b[r] += w * Ue[3 * k + r] * gk;
  }
}

}  // namespace mechsim::deform::hd
