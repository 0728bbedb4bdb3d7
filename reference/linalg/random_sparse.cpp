// reference/linalg/random_sparse.cpp — see random_sparse.h. Construction, for rank r:
//   core  G (r × r): G_ii = ±U[1,2], about nnzPerCol − 1 further entries per column at random rows,
//         values ±offDiagScale·U[0,1]; a hidden diagonal keeps it nonsingular for moderate scales.
//   B     (m × r) = [G; E], E: m − r extra rows with 1-3 random entries each (independent equations,
//         so a random right-hand side is inconsistent), except `dependentRows` of them which are
//         a·row_i + b·row_j of earlier rows (redundant equations, as sin and cos of one angle).
//   A     = [B, B C] with C's columns e_i (duplicate) or a e_i + b e_j (combination): rank r.
//   Rows and columns are then shuffled. std::mt19937_64 makes it reproducible across platforms.
#include "reference/linalg/random_sparse.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace mechsim::linalg {

SpMat randomQuasiSquare(const RandomSparseSpec& spec) {
  const int m = spec.rows, n = spec.cols;
  if (m <= 0 || n <= 0) throw std::invalid_argument("randomQuasiSquare: empty shape");
  const int r = spec.rank < 0 ? std::min(m, n) : spec.rank;
  if (r > std::min(m, n)) throw std::invalid_argument("randomQuasiSquare: rank > min(m, n)");
  if (spec.dependentRows > m - r) throw std::invalid_argument("randomQuasiSquare: too many dependent rows");
  std::mt19937_64 rng(spec.seed);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  auto sign = [&] { return U(rng) < 0.5 ? -1.0 : 1.0; };
  auto randInt = [&](int k) { return static_cast<int>(U(rng) * k) % k; };
  // A random index in [0, k), near `centre` when a bandwidth is set.
  auto nearIndex = [&](int centre, int k) {
    if (spec.bandwidth <= 0) return randInt(k);
    const int lo = std::max(0, centre - spec.bandwidth), hi = std::min(k - 1, centre + spec.bandwidth);
    return lo + randInt(hi - lo + 1);
  };

  // Dense-free construction by rows of B as sparse maps (small: a few entries per row).
  std::vector<std::vector<std::pair<int, double>>> brow(m);  // B by rows: (column, value)
  auto add = [](std::vector<std::pair<int, double>>& row, int c, double v) {
    for (auto& e : row)
      if (e.first == c) { e.second += v; return; }
    row.emplace_back(c, v);
  };
  // Core G.
  const int extraPerCol = std::max(0, static_cast<int>(spec.nnzPerCol + 0.5) - 1);
  for (int j = 0; j < r; ++j) {
    add(brow[j], j, sign() * (1.0 + U(rng)));
    for (int k = 0; k < extraPerCol && r > 1; ++k) {
      int i = nearIndex(j, r);
      if (i == j) continue;
      add(brow[i], j, sign() * spec.offDiagScale * U(rng));
    }
  }
  // Extra rows: independent sparse rows, the last `dependentRows` of them combinations.
  const int firstDependent = m - spec.dependentRows;
  for (int i = r; i < m; ++i) {
    if (r == 0) break;
    if (i < firstDependent) {
      const int cnt = 1 + randInt(3);
      const int centre = randInt(r);
      for (int k = 0; k < cnt; ++k) add(brow[i], nearIndex(centre, r), sign() * (0.5 + U(rng)));
    } else {
      const int a = randInt(i), b = randInt(i);
      const double ca = sign() * (0.5 + U(rng)), cb = (a == b) ? 0.0 : sign() * 0.5 * U(rng);
      for (auto [c, v] : brow[a]) add(brow[i], c, ca * v);
      if (cb != 0.0)
        for (auto [c, v] : brow[b]) add(brow[i], c, cb * v);
    }
  }
  // Columns beyond r: duplicates or combinations of columns of B. Column j of A (before shuffling):
  // j < r → B(:,j); j ≥ r → Σ coef · B(:, src).
  std::vector<std::vector<std::pair<int, double>>> combo(n);
  for (int j = 0; j < n; ++j) {
    if (j < r) {
      combo[j].emplace_back(j, 1.0);
    } else if (r > 0) {
      const int src = randInt(r);
      combo[j].emplace_back(src, sign() * (0.5 + U(rng)));
      if (U(rng) < 0.5) combo[j].emplace_back(nearIndex(src, r), sign() * (0.5 + U(rng)));
    }
  }
  // Shuffle rows and columns.
  std::vector<int> rp(m), cp(n);
  std::iota(rp.begin(), rp.end(), 0);
  std::iota(cp.begin(), cp.end(), 0);
  std::shuffle(rp.begin(), rp.end(), rng);
  std::shuffle(cp.begin(), cp.end(), rng);

  // B by columns, then A's triplets.
  std::vector<std::vector<std::pair<int, double>>> bcol(r);
  for (int i = 0; i < m; ++i)
    for (auto [c, v] : brow[i])
      if (v != 0.0) bcol[c].emplace_back(i, v);
  std::vector<Triplet> trip;
  for (int j = 0; j < n; ++j)
    for (auto [src, coef] : combo[j])
      for (auto [i, v] : bcol[src]) trip.emplace_back(rp[i], cp[j], coef * v);
  SpMat A(m, n);
  A.setFromTriplets(trip.begin(), trip.end());  // sums duplicates of a two-term combination
  A.makeCompressed();
  return A;
}

}  // namespace mechsim::linalg
