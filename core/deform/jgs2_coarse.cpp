// core/deform/jgs2_coarse.cpp — Galerkin coarse space of JGS2's modal split (jgs2_coarse.h).
#include "core/deform/jgs2_coarse.h"

#include "core/deform/hd/mat3.h"

namespace mechsim::deform::detail {

bool ModalGalerkin::build(const DeformableModel& m, const Jgs2Data& d, const std::vector<double>& R,
                          const ElementCache& c) {
  const int nv = m.vertexCount(), T = static_cast<int>(d.modes.cols());
  valid_ = false;
  if (T == 0) return false;
  // Co-rotated modes: block j of column t is R_j φ_t,j (Eq. 14 applied to the modes).
  phi_.setZero(3 * nv, T);
  for (int j = 0; j < nv; ++j) {
    if (m.prescribed[j]) continue;
    const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> Rj(&R[9 * std::size_t(j)]);
    phi_.middleRows<3>(3 * j) = Rj * d.modes.middleRows<3>(3 * j);
  }
  // W = H Φ_R with H = M/h² + Σ_e H_e (projected element Hessians of the cache).
  const double invH2 = 1.0 / (m.h * m.h);
  w_.setZero(3 * nv, T);
  for (int j = 0; j < nv; ++j) w_.middleRows<3>(3 * j) = (invH2 * m.mass[j]) * phi_.middleRows<3>(3 * j);
  Eigen::Matrix<double, 12, Eigen::Dynamic> pe(12, T), we(12, T);
  for (int t = 0; t < m.tetCount(); ++t) {
    const auto& e = m.mesh.tets[t];
    for (int a = 0; a < 4; ++a) pe.middleRows<3>(3 * a) = phi_.middleRows<3>(3 * e[a]);
    const Eigen::Map<const Eigen::Matrix<double, 12, 12, Eigen::RowMajor>> He(&c.H[144 * std::size_t(t)]);
    we.noalias() = He * pe;
    for (int a = 0; a < 4; ++a) w_.middleRows<3>(3 * e[a]) += we.middleRows<3>(3 * a);
  }
  for (int j = 0; j < nv; ++j)
    if (m.prescribed[j]) w_.middleRows<3>(3 * j).setZero();  // prescribed DOFs are not unknowns
  MatX K = phi_.transpose() * w_;
  K = 0.5 * (K + K.transpose());
  k_.compute(K);
  valid_ = k_.info() == Eigen::Success;
  return valid_;
}

void ModalGalerkin::coefficients(const double* g, VecX& coef) const {
  const Eigen::Map<const VecX> gv(g, phi_.rows());
  coef = k_.solve(phi_.transpose() * gv);
}

void ModalGalerkin::vertexStep(int i, const VecX& coef, double* step, double* residual) const {
  const Vec3 s = phi_.middleRows<3>(3 * i) * coef, r = w_.middleRows<3>(3 * i) * coef;
  for (int k = 0; k < 3; ++k) {
    step[k] = s[k];
    residual[k] = r[k];
  }
}

}  // namespace mechsim::deform::detail
