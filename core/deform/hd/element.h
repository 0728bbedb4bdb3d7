#pragma once
// core/deform/hd/element.h — per-tetrahedron elasticity: deformation gradient, energy density Ψ,
// first Piola–Kirchhoff stress P = ∂Ψ/∂F, its derivative ∂P/∂F (optionally projected to be positive
// semi-definite), and the element's 12-vector gradient and 12×12 Hessian. Shared by the CPU twin
// and the CUDA kernels (MECHSIM_HD, see mat3.h).
//
// Materials (μ, λ are the Lamé parameters):
//   stable neo-Hookean (Smith, de Goes & Kim 2018, the energy of JGS2's volumetric experiments):
//     Ψ = μ/2 (‖F‖² − 3) − μ (J − 1) + λ/2 (J − 1)²,  J = det F;  P = μ F + s cof F,  s = λ(J−1) − μ.
//     Rest-stress-free, finite for inverted elements (J < 0).
//   ARAP (JGS2 Fig. 2 overshoot study):  Ψ = μ ‖F − R‖²,  R the rotation of F's polar decomposition;
//     P = 2μ (F − R).
//
// ∂P/∂F is diagonalised analytically in the frame of the rotation-variant SVD F = U Σ Vᵀ
// (Smith et al. 2018 §4; Kim & Eberle, "Dynamic Deformables" ch. 7). With the nine basis matrices
// D = U E Vᵀ:
//   * for each pair (i, j), k the third index: the twist T = (e_i e_jᵀ − e_j e_iᵀ)/√2 and the flip
//     L = (e_i e_jᵀ + e_j e_iᵀ)/√2 are eigenvectors;
//       neo-Hookean: λ_T = μ + s σ_k, λ_L = μ − s σ_k   (from d²J: ∂²J/∂F̂_ij∂F̂_ji = −σ_k)
//       ARAP:        λ_T = 2μ (1 − 2/(σ_i + σ_j)), λ_L = 2μ
//   * the three diagonal directions e_i e_iᵀ span a 3×3 block A:
//       neo-Hookean: A_ii = μ + λ ĝ_i², A_ij = λ ĝ_i ĝ_j + s σ_k, ĝ = (σ1σ2, σ0σ2, σ0σ1)
//       ARAP:        A = 2μ I
// Projection clamps the eigenvalues at zero; the unprojected reconstruction is the exact Hessian
// (checked against finite differences in tests/core/test_deform_material.cpp).
#include "core/deform/hd/mat3.h"

namespace mechsim::deform::hd {

enum MaterialKind : int { kStableNeoHookean = 0, kArap = 1 };

/// Ψ(F), P(F) and (when dPdF is non-null) ∂P/∂F as a 9×9 row-major matrix on vec(F) (row-major
/// vec). Returns Ψ. mu and lambda are the energy's own parameters: Material::mu() and
/// Material::lambda() (for the stable neo-Hookean energy Lamé's λ plus μ, see there).
MECHSIM_HD inline double materialEval(int kind, double mu, double lambda, const double* F, double* P,
                                      double* dPdF, bool project) {
  double U[9], s[3], V[9];
  svd3(F, U, s, V);
  double psi = 0;
  double A[9];          // diagonal (scaling) block in the SVD frame
  double lamT[3], lamL[3];  // twist / flip eigenvalues of pair k = (k+1, k+2)
  if (kind == kArap) {
    double R[9];
    matMulNT(U, V, R);
    psi = mu * ((s[0] - 1) * (s[0] - 1) + (s[1] - 1) * (s[1] - 1) + (s[2] - 1) * (s[2] - 1));
    for (int k = 0; k < 9; ++k) P[k] = 2 * mu * (F[k] - R[k]);
    for (int k = 0; k < 9; ++k) A[k] = (k % 4 == 0) ? 2 * mu : 0.0;
    for (int k = 0; k < 3; ++k) {
      const int i = (k + 1) % 3, j = (k + 2) % 3;
      double den = s[i] + s[j];
      if (den < 1e-12) den = 1e-12;  // fully degenerate pair: R is not differentiable there
      lamT[k] = 2 * mu * (1 - 2 / den);
      lamL[k] = 2 * mu;
    }
  } else {
    const double J = s[0] * s[1] * s[2];
    const double Ic = s[0] * s[0] + s[1] * s[1] + s[2] * s[2];
    psi = 0.5 * mu * (Ic - 3) - mu * (J - 1) + 0.5 * lambda * (J - 1) * (J - 1);
    const double sc = lambda * (J - 1) - mu;
    double cof[9];
    cofactor3(F, cof);
    for (int k = 0; k < 9; ++k) P[k] = mu * F[k] + sc * cof[k];
    const double g[3] = {s[1] * s[2], s[0] * s[2], s[0] * s[1]};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const int k = 3 - i - j;  // the third index when i ≠ j
        A[3 * i + j] = lambda * g[i] * g[j] + (i == j ? mu : sc * s[k]);
      }
    for (int k = 0; k < 3; ++k) {
      lamT[k] = mu + sc * s[k];
      lamL[k] = mu - sc * s[k];
    }
  }
  if (!dPdF) return psi;

  // Eigen-decompose the scaling block, clamp, and rebuild ∂P/∂F = Σ λ_m vec(D_m) vec(D_m)ᵀ.
  double w[3], Q[9];
  symEig3(A, w, Q);
  for (int k = 0; k < 81; ++k) dPdF[k] = 0;
  auto addMode = [&](double lam, const double* Dhat) {
    if (project && lam < 0) lam = 0;
    if (lam == 0) return;
    double t[9], D[9];
    matMul(U, Dhat, t);
    matMulNT(t, V, D);
    for (int a = 0; a < 9; ++a) {
      const double da = lam * D[a];
      for (int b = 0; b < 9; ++b) dPdF[9 * a + b] += da * D[b];
    }
  };
  const double r2 = 0.70710678118654752440;
  for (int m = 0; m < 3; ++m) {
    double Dhat[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 3; ++i) Dhat[4 * i] = Q[3 * i + m];
    addMode(w[m], Dhat);
  }
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    double Dt[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, Dl[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    Dt[3 * i + j] = r2;
    Dt[3 * j + i] = -r2;
    Dl[3 * i + j] = r2;
    Dl[3 * j + i] = r2;
    addMode(lamT[k], Dt);
    addMode(lamL[k], Dl);
  }
  return psi;
}

/// Per-vertex shape-function gradients b_a (a = 0..3) of a tet with inverse rest edge matrix
/// Bm = Dm⁻¹: F = Σ_a x_a b_aᵀ, b_a = row a−1 of Bm for a ≥ 1 and b_0 = −Σ rows.
MECHSIM_HD inline void shapeGradients(const double* Bm, double* b /* 4×3 */) {
  for (int c = 0; c < 3; ++c) {
    b[3 + c] = Bm[c];
    b[6 + c] = Bm[3 + c];
    b[9 + c] = Bm[6 + c];
    b[c] = -(Bm[c] + Bm[3 + c] + Bm[6 + c]);
  }
}

/// Deformation gradient F = Σ_a x_a b_aᵀ from the four vertex positions (x: 4×3 row-major).
MECHSIM_HD inline void deformationGradient(const double* x, const double* b, double* F) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      F[3 * r + c] = x[r] * b[c] + x[3 + r] * b[3 + c] + x[6 + r] * b[6 + c] + x[9 + r] * b[9 + c];
}

/// Element energy V Ψ, gradient g (12, vertex-major: g[3a + r]) and, when H is non-null, the
/// 12×12 Hessian V Bᵀ (∂P/∂F) B (row-major), projected PSD when `project`.
MECHSIM_HD inline double elementEval(int kind, double mu, double lambda, double volume, const double* Bm,
                                     const double* x, double* g, double* H, bool project) {
  double b[12], F[9], P[9], dP[81];
  shapeGradients(Bm, b);
  deformationGradient(x, b, F);
  const double psi = materialEval(kind, mu, lambda, F, P, H ? dP : nullptr, project);
  // ∂F_rc/∂x_{a,r} = b_a[c]  ⇒  g_{a,r} = V Σ_c P_rc b_a[c].
  for (int a = 0; a < 4; ++a)
    for (int r = 0; r < 3; ++r)
      g[3 * a + r] = volume * (P[3 * r] * b[3 * a] + P[3 * r + 1] * b[3 * a + 1] + P[3 * r + 2] * b[3 * a + 2]);
  if (H) {
    // H_{(a,r),(b,s)} = V Σ_{c,d} dP[(r,c),(s,d)] b_a[c] b_b[d]; first contract d with b_b.
    double T[9 * 12];  // T[(r,c), (b,s)] = Σ_d dP[(r,c),(s,d)] b_b[d]
    for (int rc = 0; rc < 9; ++rc)
      for (int bb = 0; bb < 4; ++bb)
        for (int s = 0; s < 3; ++s) {
          const double* row = dP + 9 * rc + 3 * s;
          T[12 * rc + 3 * bb + s] = row[0] * b[3 * bb] + row[1] * b[3 * bb + 1] + row[2] * b[3 * bb + 2];
        }
    for (int a = 0; a < 4; ++a)
      for (int r = 0; r < 3; ++r)
        for (int col = 0; col < 12; ++col)
          H[12 * (3 * a + r) + col] =
              volume * (T[12 * (3 * r) + col] * b[3 * a] + T[12 * (3 * r + 1) + col] * b[3 * a + 1] +
                        T[12 * (3 * r + 2) + col] * b[3 * a + 2]);
  }
  return volume * psi;
}

}  // namespace mechsim::deform::hd
