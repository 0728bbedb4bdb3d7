// core/contact/exact.cpp — exact LCP references: Lemke's algorithm and enumeration.
//
// Lemke: write w − A z − e z₀ = q with the artificial variable z₀ and the covering vector e = 1.
// Start from the basis {w}; z₀ enters at the most negative q_r (so every basic value becomes
// ≥ 0), and w_r leaves. From then on the complement of the variable that left enters, and the
// minimum-ratio test picks the leaving row (keeping every basic value ≥ 0). The path ends when z₀
// leaves: the basis is complementary and z solves the LCP. For a P-matrix (A positive definite)
// no secondary ray occurs.
#include "core/contact/exact.h"

#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace mechsim::contact {

bool lemke(const MatX& A, const VecX& q, VecX& z, int maxPivots) {
  const int m = static_cast<int>(q.size());
  if (A.rows() != m || A.cols() != m) throw std::invalid_argument("lemke: A must be m × m with m = size of q");
  z.setZero(m);
  if (m == 0 || q.minCoeff() >= 0.0) return true;  // z = 0, w = q
  if (maxPivots <= 0) maxPivots = 50 * m + 50;

  // Tableau [I | −A | −e | q]; columns 0..m−1: w, m..2m−1: z, 2m: z₀; rhs at 2m+1.
  const int z0 = 2 * m, rhs = 2 * m + 1;
  MatX T = MatX::Zero(m, 2 * m + 2);
  T.leftCols(m).setIdentity();
  T.middleCols(m, m) = -A;
  T.col(z0).setConstant(-1.0);
  T.col(rhs) = q;
  std::vector<int> basis(m);
  for (int r = 0; r < m; ++r) basis[r] = r;

  auto pivot = [&](int row, int col) {
    T.row(row) /= T(row, col);
    for (int r = 0; r < m; ++r)
      if (r != row && T(r, col) != 0.0) T.row(r) -= T(r, col) * T.row(row);
    basis[row] = col;
  };

  // first pivot: z₀ enters at the most negative q_r
  int row = 0;
  q.minCoeff(&row);
  int leaving = basis[row];
  pivot(row, z0);
  int entering = leaving < m ? leaving + m : leaving - m;  // complement of w_r is z_r

  for (int it = 0; it < maxPivots; ++it) {
    // minimum-ratio test over rows whose basic value decreases as `entering` grows
    const double scale = T.col(entering).cwiseAbs().maxCoeff();
    const double eps = 1e-12 * std::max(1.0, scale);
    int best = -1;
    double bestRatio = std::numeric_limits<double>::infinity();
    for (int r = 0; r < m; ++r) {
      if (T(r, entering) <= eps) continue;
      const double ratio = T(r, rhs) / T(r, entering);
      const bool tie = best >= 0 && std::abs(ratio - bestRatio) <= 1e-12 * std::max(1.0, std::abs(bestRatio));
      if (ratio < bestRatio && !tie) {
        best = r;
        bestRatio = ratio;
      } else if (tie && basis[r] == z0) {
        best = r;  // let z₀ leave whenever it can
      }
    }
    if (best < 0) return false;  // secondary ray
    leaving = basis[best];
    pivot(best, entering);
    if (leaving == z0) {
      for (int r = 0; r < m; ++r)
        if (basis[r] >= m && basis[r] < 2 * m) z[basis[r] - m] = std::max(0.0, T(r, rhs));
      return true;
    }
    entering = leaving < m ? leaving + m : leaving - m;
  }
  return false;
}

bool enumerateBoxed(const MatX& A, const VecX& q, const VecX& lo, const VecX& hi, VecX& z, double tol) {
  const int m = static_cast<int>(q.size());
  if (m > 12) throw std::invalid_argument("enumerateBoxed: at most 12 rows (3^m systems)");
  if (A.rows() != m || A.cols() != m || lo.size() != m || hi.size() != m)
    throw std::invalid_argument("enumerateBoxed: sizes of A, q, l, u differ");
  // states per row: 0 free, 1 at l, 2 at u (only the finite bounds)
  std::vector<std::vector<int>> states(m);
  for (int i = 0; i < m; ++i) {
    states[i].push_back(0);
    if (std::isfinite(lo[i])) states[i].push_back(1);
    if (std::isfinite(hi[i]) && hi[i] > lo[i]) states[i].push_back(2);
  }
  std::vector<int> pick(m, 0);
  const double scale = std::max(1.0, A.cwiseAbs().maxCoeff() + q.cwiseAbs().maxCoeff());
  for (;;) {
    // z_B at its bounds, z_F from A_FF z_F = −q_F − A_FB z_B
    std::vector<int> freeRows;
    z.setZero(m);
    for (int i = 0; i < m; ++i) {
      const int st = states[i][pick[i]];
      if (st == 0) freeRows.push_back(i);
      else z[i] = st == 1 ? lo[i] : hi[i];
    }
    bool ok = true;
    if (!freeRows.empty()) {
      const int f = static_cast<int>(freeRows.size());
      MatX Aff(f, f);
      VecX rhs(f);
      for (int r = 0; r < f; ++r) {
        rhs[r] = -q[freeRows[r]];
        for (int i = 0; i < m; ++i)
          if (states[i][pick[i]] != 0) rhs[r] -= A(freeRows[r], i) * z[i];
        for (int c = 0; c < f; ++c) Aff(r, c) = A(freeRows[r], freeRows[c]);
      }
      Eigen::FullPivLU<MatX> lu(Aff);
      if (!lu.isInvertible()) ok = false;
      else {
        const VecX zf = lu.solve(rhs);
        for (int r = 0; r < f; ++r) z[freeRows[r]] = zf[r];
      }
    }
    if (ok) {
      const VecX w = A * z + q;
      for (int i = 0; i < m && ok; ++i) {
        const int st = states[i][pick[i]];
        const double t = tol * scale;
        if (st == 0) ok = z[i] >= lo[i] - t && z[i] <= hi[i] + t && std::abs(w[i]) <= t;
        else if (st == 1) ok = w[i] >= -t || hi[i] <= lo[i];  // l = u: any sign
        else ok = w[i] <= t;
      }
      if (ok) return true;
    }
    // next assignment (odometer)
    int i = 0;
    while (i < m && ++pick[i] == static_cast<int>(states[i].size())) pick[i++] = 0;
    if (i == m) return false;
  }
}

}  // namespace mechsim::contact
