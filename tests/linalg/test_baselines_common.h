#pragma once
// tests/linalg/test_baselines_common.h — the sweep shared by the baseline tests.
#include "reference/linalg/random_sparse.h"

namespace mechsim::linalg::testutil {
inline std::vector<RandomSparseSpec> baselineCases(bool rankDeficient) {
  std::vector<RandomSparseSpec> out;
  std::uint64_t seed = rankDeficient ? 700 : 600;
  for (int n : {8, 50, 160})
    for (double ratio : {1.0, 1.1, 1.3}) {
      RandomSparseSpec s;
      s.cols = n;
      s.rows = static_cast<int>(std::lround(n * ratio));
      s.rank = rankDeficient ? n - 2 : n;
      s.seed = seed++;
      out.push_back(s);
    }
  return out;
}
}  // namespace mechsim::linalg::testutil
