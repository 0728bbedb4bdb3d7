// core/deform/nnls.cpp — Lawson–Hanson NNLS.
//
// Active set P (free variables), zero set Z. Repeat: dual w_d = Aᵀ(b − A w); if Z is empty or
// max_{j∈Z} w_d[j] ≤ tol, stop (KKT: w ≥ 0, w_d ≤ 0 on Z, w_d = 0 on P). Move the most positive dual
// index to P, solve the unconstrained least squares on P; while that solution has a non-positive
// component, step back to the boundary along the segment and drop the variables that hit zero.
#include "core/deform/nnls.h"

#include <Eigen/QR>
#include <cmath>
#include <vector>

namespace mechsim::deform {

namespace {
VecX lsOnSet(const MatX& A, const VecX& b, const std::vector<bool>& inP) {
  std::vector<int> idx;
  for (int j = 0; j < static_cast<int>(inP.size()); ++j)
    if (inP[j]) idx.push_back(j);
  MatX Ap(A.rows(), static_cast<Eigen::Index>(idx.size()));
  for (std::size_t k = 0; k < idx.size(); ++k) Ap.col(static_cast<Eigen::Index>(k)) = A.col(idx[k]);
  const VecX sp = Ap.colPivHouseholderQr().solve(b);
  VecX s = VecX::Zero(A.cols());
  for (std::size_t k = 0; k < idx.size(); ++k) s[idx[k]] = sp[static_cast<Eigen::Index>(k)];
  return s;
}
}  // namespace

VecX nnls(const MatX& A, const VecX& b, int maxIterations) {
  const int n = static_cast<int>(A.cols());
  if (maxIterations < 0) maxIterations = 3 * n + 10;
  VecX w = VecX::Zero(n);
  std::vector<bool> inP(n, false);
  const double tol = 1e-12 * (A.norm() * b.norm() + 1e-300);
  for (int outer = 0; outer < maxIterations; ++outer) {
    const VecX dual = A.transpose() * (b - A * w);
    int jmax = -1;
    double dmax = tol;
    for (int j = 0; j < n; ++j)
      if (!inP[j] && dual[j] > dmax) {
        dmax = dual[j];
        jmax = j;
      }
    if (jmax < 0) break;
    inP[jmax] = true;
    for (int inner = 0; inner < 3 * n + 10; ++inner) {
      const VecX s = lsOnSet(A, b, inP);
      bool feasible = true;
      for (int j = 0; j < n; ++j)
        if (inP[j] && s[j] <= 0) feasible = false;
      if (feasible) {
        w = s;
        break;
      }
      // Step from w towards s as far as feasibility allows, then drop the zeroed variables.
      double alpha = 1;
      for (int j = 0; j < n; ++j)
        if (inP[j] && s[j] <= 0) alpha = std::min(alpha, w[j] / (w[j] - s[j]));
      w += alpha * (s - w);
      for (int j = 0; j < n; ++j)
        if (inP[j] && w[j] <= 1e-15 * (std::abs(s[j]) + 1)) {
          inP[j] = false;
          w[j] = 0;
        }
    }
  }
  return w;
}

}  // namespace mechsim::deform
