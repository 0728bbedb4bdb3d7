#pragma once
// tests/linalg/linalg_test_util.h — small helpers shared by the linalg tests.
#include <cmath>
#include <random>

#include "core/types.h"

namespace mechsim::linalg::testutil {

/// ‖x − ref‖ / ‖ref‖ (absolute when ref = 0).
inline double relErr(const VecX& x, const VecX& ref) {
  const double nr = ref.norm();
  return (x - ref).norm() / (nr > 0.0 ? nr : 1.0);
}

/// Seeded uniform [−1, 1] vector.
inline VecX randomVec(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  VecX v(n);
  for (int i = 0; i < n; ++i) v[i] = U(rng);
  return v;
}

/// Keep only the listed rows (in increasing order) / drop the listed columns.
inline MatX keepRowsExcept(const MatX& A, const std::vector<int>& drop) {
  std::vector<int> keep;
  for (int i = 0, d = 0; i < A.rows(); ++i) {
    if (d < static_cast<int>(drop.size()) && drop[d] == i) { ++d; continue; }
    keep.push_back(i);
  }
  MatX B(static_cast<int>(keep.size()), A.cols());
  for (int k = 0; k < static_cast<int>(keep.size()); ++k) B.row(k) = A.row(keep[k]);
  return B;
}

}  // namespace mechsim::linalg::testutil
