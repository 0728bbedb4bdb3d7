// core/anm/polar_series.cpp — order-0 data of the polar rotation series (see polar_series.h).
#include "core/anm/polar_series.h"

#include <Eigen/Core>

#include "core/deform/hd/mat3.h"

namespace mechsim::anm {

PolarSeriesBase polarSeriesBase(const Mat3& F0) {
  using RowMat3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
  const RowMat3 F = F0;
  RowMat3 U, V, R;
  double s[3];
  deform::hd::svd3(F.data(), U.data(), s, V.data());
  deform::hd::matMulNT(U.data(), V.data(), R.data());  // hd::polarRotation, with σ kept
  PolarSeriesBase b;
  b.R0 = R;
  const Mat3 S = b.R0.transpose() * F0;
  b.S0 = 0.5 * (S + S.transpose());
  // s_0 ≥ s_1 ≥ |s_2|: the smallest pair sum is s_1 + s_2.
  b.ok = s[0] > 0 && s[1] + s[2] > 1e-8 * s[0];
  if (b.ok) b.invT = (b.S0.trace() * Mat3::Identity() - b.S0).inverse();
  return b;
}

}  // namespace mechsim::anm
