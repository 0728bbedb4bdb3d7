#pragma once
// reference/linalg/random_sparse.h — seeded random sparse "quasi-square" matrices with a prescribed
// rank and redundancy, shaped like mechanism Jacobians, for the linalg tests and benchmarks.
#include <cstdint>

#include "core/types.h"

namespace mechsim::linalg {

struct RandomSparseSpec {
  int rows = 0;               // m
  int cols = 0;               // n
  int rank = -1;              // r ≤ min(m, n); −1 → min(m, n)
  double nnzPerCol = 6.0;     // average entries per column of the independent part
  int dependentRows = 0;      // rows that are exact combinations of 1-2 other rows (≤ m − r)
  double offDiagScale = 0.5;  // magnitude of the off-diagonal entries against the O(1) "diagonal"
  int bandwidth = 0;          // > 0: entries within ±bandwidth of the hidden diagonal (local
                              // coupling, like bodies joined to neighbours); 0: anywhere
  std::uint64_t seed = 1;
};

/// A = Π_r [B, B C] Π_c (then dependent rows replaced by combinations), where B (m × r) holds a
/// nonsingular, moderately conditioned r × r core (entries ±[1, 2] on a hidden diagonal plus random
/// off-diagonal entries) and m − r further sparse rows, and C (r × (n − r)) makes each remaining
/// column a copy or a combination of one or two columns of B. rank(A) = r exactly (up to round-off
/// in the combinations); rows and columns are randomly permuted. Deterministic for a seed.
SpMat randomQuasiSquare(const RandomSparseSpec& spec);

}  // namespace mechsim::linalg
