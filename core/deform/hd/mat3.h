#pragma once
// core/deform/hd/mat3.h — 3×3 matrix arithmetic shared by the CPU solvers (core/deform) and the
// CUDA kernels (gpu/). Plain C++ on plain arrays so that one text compiles under g++ and nvcc:
// MECHSIM_HD is `__host__ __device__` under nvcc and empty otherwise, and nothing here includes
// Eigen, the standard library containers or CUDA headers.
//
// Layout: a 3×3 matrix is double[9], row-major (a[3*r + c]); vec(F) of a 3×3 F uses the same
// order, so a 9×9 matrix acting on vec(F) is double[81] row-major.
#include <math.h>

#if defined(__CUDACC__)
#define MECHSIM_HD __host__ __device__
#else
#define MECHSIM_HD
#endif

namespace mechsim::deform::hd {

MECHSIM_HD inline void matMul(const double* a, const double* b, double* c) {  // c = a b
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k)
      c[3 * r + k] = a[3 * r] * b[k] + a[3 * r + 1] * b[3 + k] + a[3 * r + 2] * b[6 + k];
}
MECHSIM_HD inline void matMulTN(const double* a, const double* b, double* c) {  // c = aᵀ b
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) c[3 * r + k] = a[r] * b[k] + a[3 + r] * b[3 + k] + a[6 + r] * b[6 + k];
}
MECHSIM_HD inline void matMulNT(const double* a, const double* b, double* c) {  // c = a bᵀ
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k)
      c[3 * r + k] = a[3 * r] * b[3 * k] + a[3 * r + 1] * b[3 * k + 1] + a[3 * r + 2] * b[3 * k + 2];
}
MECHSIM_HD inline void matVec(const double* a, const double* x, double* y) {  // y = a x
  for (int r = 0; r < 3; ++r) y[r] = a[3 * r] * x[0] + a[3 * r + 1] * x[1] + a[3 * r + 2] * x[2];
}
MECHSIM_HD inline void matTVec(const double* a, const double* x, double* y) {  // y = aᵀ x
  for (int r = 0; r < 3; ++r) y[r] = a[r] * x[0] + a[3 + r] * x[1] + a[6 + r] * x[2];
}
MECHSIM_HD inline double det3(const double* a) {
  return a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
         a[2] * (a[3] * a[7] - a[4] * a[6]);
}
/// Cofactor matrix cof(a) = ∂det(a)/∂a (= det(a) a⁻ᵀ when a is invertible).
MECHSIM_HD inline void cofactor3(const double* a, double* c) {
  c[0] = a[4] * a[8] - a[5] * a[7];
  c[1] = a[5] * a[6] - a[3] * a[8];
  c[2] = a[3] * a[7] - a[4] * a[6];
  c[3] = a[2] * a[7] - a[1] * a[8];
  c[4] = a[0] * a[8] - a[2] * a[6];
  c[5] = a[1] * a[6] - a[0] * a[7];
  c[6] = a[1] * a[5] - a[2] * a[4];
  c[7] = a[2] * a[3] - a[0] * a[5];
  c[8] = a[0] * a[4] - a[1] * a[3];
}
/// a⁻¹ through the cofactors; returns false when |det| is not above `tiny`.
MECHSIM_HD inline bool inverse3(const double* a, double* inv, double tiny = 1e-300) {
  double c[9];
  cofactor3(a, c);
  const double d = a[0] * c[0] + a[1] * c[1] + a[2] * c[2];
  if (!(fabs(d) > tiny)) return false;
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) inv[3 * r + k] = c[3 * k + r] / d;
  return true;
}

/// Symmetric 3×3 eigen-decomposition by cyclic Jacobi rotations: a = V diag(w) Vᵀ, the columns of
/// V (row-major, V[3*r + k] = component r of eigenvector k) orthonormal. Converges quadratically;
/// a fixed sweep cap keeps it bounded on the GPU.
MECHSIM_HD inline void symEig3(const double* a0, double* w, double* V) {
  double a[9];
  for (int k = 0; k < 9; ++k) a[k] = a0[k];
  for (int k = 0; k < 9; ++k) V[k] = (k % 4 == 0) ? 1.0 : 0.0;
  for (int sweep = 0; sweep < 30; ++sweep) {
    const double off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5];
    const double diag = a[0] * a[0] + a[4] * a[4] + a[8] * a[8];
    if (off <= 1e-30 * diag || off == 0.0) break;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        const double apq = a[3 * p + q];
        if (apq == 0.0) continue;
        // Rotation angle that zeroes a_pq (Golub & Van Loan, Alg. 8.4.1).
        const double tau = (a[3 * q + q] - a[3 * p + p]) / (2.0 * apq);
        const double t = (tau >= 0 ? 1.0 : -1.0) / (fabs(tau) + sqrt(1.0 + tau * tau));
        const double c = 1.0 / sqrt(1.0 + t * t), s = t * c;
        for (int k = 0; k < 3; ++k) {  // a ← a J (columns p, q)
          const double akp = a[3 * k + p], akq = a[3 * k + q];
          a[3 * k + p] = c * akp - s * akq;
          a[3 * k + q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; ++k) {  // a ← Jᵀ a (rows p, q)
          const double apk = a[3 * p + k], aqk = a[3 * q + k];
          a[3 * p + k] = c * apk - s * aqk;
          a[3 * q + k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; ++k) {  // V ← V J
          const double vkp = V[3 * k + p], vkq = V[3 * k + q];
          V[3 * k + p] = c * vkp - s * vkq;
          V[3 * k + q] = s * vkp + c * vkq;
        }
      }
  }
  w[0] = a[0];
  w[1] = a[4];
  w[2] = a[8];
}

MECHSIM_HD inline void cross3(const double* a, const double* b, double* c) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}
MECHSIM_HD inline double normalize3(double* v) {
  const double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (n > 0) {
    v[0] /= n;
    v[1] /= n;
    v[2] /= n;
  }
  return n;
}

/// Rotation-variant SVD F = U diag(s) Vᵀ with U, V proper rotations (det +1) and s0 ≥ s1 ≥ |s2|;
/// s2 < 0 exactly when det F < 0 (an inverted element). Built from the eigen-decomposition of
/// FᵀF; degenerate singular values get any orthonormal completion.
MECHSIM_HD inline void svd3(const double* F, double* U, double* s, double* V) {
  double C[9], w[3];
  matMulTN(F, F, C);
  symEig3(C, w, V);
  // Sort eigenpairs by decreasing eigenvalue.
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2 - i; ++j)
      if (w[j] < w[j + 1]) {
        double t = w[j];
        w[j] = w[j + 1];
        w[j + 1] = t;
        for (int r = 0; r < 3; ++r) {
          t = V[3 * r + j];
          V[3 * r + j] = V[3 * r + j + 1];
          V[3 * r + j + 1] = t;
        }
      }
  if (det3(V) < 0)
    for (int r = 0; r < 3; ++r) V[3 * r + 2] = -V[3 * r + 2];
  double v0[3] = {V[0], V[3], V[6]}, v1[3] = {V[1], V[4], V[7]}, v2[3] = {V[2], V[5], V[8]};
  double u0[3], u1[3], u2[3];
  matVec(F, v0, u0);
  matVec(F, v1, u1);
  const double scale = sqrt(fabs(w[0])) + 1e-300;
  if (normalize3(u0) <= 1e-14 * scale) {  // F ≈ 0: any frame
    u0[0] = 1;
    u0[1] = 0;
    u0[2] = 0;
  }
  // Orthogonalise u1 against u0 (exact already when s1 > 0; needed when s1 ≈ 0).
  const double d = u0[0] * u1[0] + u0[1] * u1[1] + u0[2] * u1[2];
  for (int k = 0; k < 3; ++k) u1[k] -= d * u0[k];
  if (normalize3(u1) <= 1e-14 * scale) {  // pick any unit vector ⟂ u0
    double e[3] = {0, 0, 0};
    e[fabs(u0[0]) < 0.6 ? 0 : (fabs(u0[1]) < 0.6 ? 1 : 2)] = 1;
    cross3(u0, e, u1);
    normalize3(u1);
  }
  cross3(u0, u1, u2);
  double f0[3], f1[3], f2[3];
  matVec(F, v0, f0);
  matVec(F, v1, f1);
  matVec(F, v2, f2);
  s[0] = u0[0] * f0[0] + u0[1] * f0[1] + u0[2] * f0[2];
  s[1] = u1[0] * f1[0] + u1[1] * f1[1] + u1[2] * f1[2];
  s[2] = u2[0] * f2[0] + u2[1] * f2[1] + u2[2] * f2[2];
  for (int r = 0; r < 3; ++r) {
    U[3 * r] = u0[r];
    U[3 * r + 1] = u1[r];
    U[3 * r + 2] = u2[r];
  }
}

/// Rotation of the polar decomposition F = R S (R = U Vᵀ of the rotation-variant SVD).
MECHSIM_HD inline void polarRotation(const double* F, double* R) {
  double U[9], s[3], V[9];
  svd3(F, U, s, V);
  matMulNT(U, V, R);
}

/// True when the symmetric 3×3 matrix a is positive definite (Sylvester's leading minors).
MECHSIM_HD inline bool positiveDefinite3(const double* a) {
  const double m2 = a[0] * a[4] - a[1] * a[3];
  return a[0] > 0 && m2 > 1e-12 * a[0] * a[4] && det3(a) > 1e-12 * a[0] * a[4] * a[8];
}

/// Solves the symmetric 3×3 system a x = b (a positive definite in use); returns false when a is
/// singular to working precision.
MECHSIM_HD inline bool solve3(const double* a, const double* b, double* x) {
  double inv[9];
  const double scale = fabs(a[0]) + fabs(a[4]) + fabs(a[8]);
  if (!inverse3(a, inv, 1e-14 * scale * scale * scale)) return false;
  matVec(inv, b, x);
  return true;
}

}  // namespace mechsim::deform::hd
