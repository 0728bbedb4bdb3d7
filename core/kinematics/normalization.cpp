// core/kinematics/normalization.cpp — the quaternion normalisation row of each moving body.
//
//   C_norm = pᵀp − 1 = 0                                  [<body>:norm]
//   ∂C/∂r = 0,  ∂C/∂p = 2 pᵀ,   γ = −2 ṗᵀṗ
// The rotation R(p) of terms.h is the homogeneous quadratic form, R(p) = |p|² · rotation, so the
// joint equations are only those of a rigid motion together with these rows.
#include "core/kinematics/equations.h"

namespace mechsim::kin {

template <unsigned W>
RowJet<W> normalizationEquation(const BodyFrame& b) {
  RowJet<W> f;
  f.v = b.w * b.w + b.v.squaredNorm() - 1.0;
  if constexpr ((W & kRates) != 0) {
    f.vd = 2.0 * (b.w * b.wd + b.v.dot(b.vdot));
    f.a2 = 2.0 * (b.wd * b.wd + b.vdot.squaredNorm());
  }
  if constexpr ((W & kGradient) != 0) {
    f.g[0](3) = 2.0 * b.w;
    f.g[0].template tail<3>() = 2.0 * b.v.transpose();
    f.usesP[0] = true;
  }
  return f;
}

template RowJet<kValue> normalizationEquation<kValue>(const BodyFrame&);
template RowJet<kGradient> normalizationEquation<kGradient>(const BodyFrame&);
template RowJet<kRates> normalizationEquation<kRates>(const BodyFrame&);
template RowJet<kAll> normalizationEquation<kAll>(const BodyFrame&);

}  // namespace mechsim::kin
