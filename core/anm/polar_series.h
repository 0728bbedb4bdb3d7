#pragma once
// core/anm/polar_series.h — Taylor coefficients of the rotation of a polar decomposition along an
// ANM path (the polar-decomposition operator of paper 004 §4, notes §2.3), for the ARAP stress
// P = 2μ (F − R) of core/deform (hd/element.h).
//
// F(a) = Σ F_k a^k is known order by order; R(a) = Σ R_k a^k is the rotation of F(a) = R(a) S(a),
// R orthogonal (det +1: the rotation-variant decomposition of hd::polarRotation) and S symmetric.
// The notes expand the left form X = P W; the right form used here leads to the same Sylvester
// equation with denominators σ_i + σ_j. At order k ≥ 1, write R_k = R_0 W_k:
//   orthogonality  Σ_{i=0}^{k} R_iᵀ R_{k−i} = 0   ⇒  W_k + W_kᵀ = −Q_k,   Q_k = Σ_{i=1}^{k−1} R_iᵀ R_{k−i},
//   so W_k = −Q_k/2 + [ω]× with [ω]× skew;
//   symmetry of    S_k = Σ_{i=0}^{k} R_iᵀ F_{k−i} = W_kᵀ S_0 + B_k,   B_k = Σ_{i=0}^{k−1} R_iᵀ F_{k−i}
//   (S_0 = R_0ᵀ F_0), i.e. skew(S_k) = 0 with C_k = B_k − Q_k S_0 / 2:
//     [ω]× S_0 + S_0 [ω]× = C_k − C_kᵀ,
//   and, for symmetric S_0, [ω]× S_0 + S_0 [ω]× = [(tr S_0 I − S_0) ω]×, so
//     ω = (tr S_0 I − S_0)⁻¹ axial(C_k − C_kᵀ),   axial(K) = (K_21, K_02, K_10).
// tr S_0 I − S_0 has the eigenvalues σ_i + σ_j of the singular-value pairs (the notes' Sylvester
// denominators); it is singular exactly where R is not differentiable (σ_1 + σ_2 = 0, an element
// flattened to a line or inverted onto itself), which polarSeriesBase reports.
// R_k is affine in F_k (through B_k's R_0ᵀ F_k): the ANM slope is the exact derivative of R, the
// bias its value with F_k = 0.
#include "core/types.h"

namespace mechsim::anm {

/// Order-0 data of the rotation series at F_0.
struct PolarSeriesBase {
  Mat3 R0 = Mat3::Identity();  // rotation of F_0 (hd::polarRotation)
  Mat3 S0 = Mat3::Identity();  // R_0ᵀ F_0, symmetrised
  Mat3 invT = Mat3::Identity();  // (tr S_0 I − S_0)⁻¹
  bool ok = false;             // false where σ_1 + σ_2 ≤ 1e-8 σ_0: R not differentiable at F_0
};

PolarSeriesBase polarSeriesBase(const Mat3& F0);

/// R_k (k ≥ 1) from F_k and the lower orders: F(i) gives F_i and R(i) gives R_i for 1 ≤ i < k.
template <class FAt, class RAt>
Mat3 polarRotationCoeff(const PolarSeriesBase& b, const Mat3& Fk, FAt F, RAt R, int k) {
  Mat3 Q = Mat3::Zero(), B = b.R0.transpose() * Fk;
  for (int i = 1; i < k; ++i) {
    Q.noalias() += R(i).transpose() * R(k - i);
    B.noalias() += R(i).transpose() * F(k - i);
  }
  const Mat3 C = B - 0.5 * Q * b.S0;
  const Mat3 K = C - C.transpose();
  const Vec3 omega = b.invT * Vec3(K(2, 1), K(0, 2), K(1, 0));
  Mat3 W = -0.5 * Q;
  W(0, 1) -= omega.z();
  W(1, 0) += omega.z();
  W(0, 2) += omega.y();
  W(2, 0) -= omega.y();
  W(1, 2) -= omega.x();
  W(2, 1) += omega.x();
  return b.R0 * W;
}

}  // namespace mechsim::anm
