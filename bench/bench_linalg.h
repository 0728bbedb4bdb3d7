#pragma once
// bench/bench_linalg.h — side-by-side timing of the least-squares solvers of core/linalg on the
// same matrices in the same run (STYLE.md §14): per linear solve = numeric factorisation + one
// solve of a consistent right-hand side, the symbolic analysis done once beforehand (as in the
// paper's Table 4.8: "the symbolic factorization has been obtained previously").
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "core/types.h"

namespace mechsim::bench {

struct LinearBenchOptions {
  double minTimePerMethod = 0.2;  // seconds of timed batches per method and case
  double batchTime = 0.01;        // seconds per batch (the median is taken over batches)
  bool withAlternatives = true;   // also time lu-nullspace-fresh-pivots (no pivot reuse) and the
                                  // non-default backends (normal-equations-cholmod, sparse-qr-eigen)
  bool withDense = true;          // time dense-cod (O(m n²): slow for big cases)
};

/// One row of results: the median time per linear solve of one method on one case.
struct LinearBenchResult {
  std::string caseName, method;
  long iterations = 0;            // timed calls
  double timePerSolve = 0.0;      // seconds (median over batches)
  int rows = 0, cols = 0;
  double relErrorVsCod = 0.0;     // ‖x − x_COD‖ / ‖x_COD‖ of that method's solution
};

/// Times lu-nullspace, normal-equations, sparse-qr, dense-cod (and the alternatives) on each case.
/// The same A is refactored on every call, so lu-nullspace keeps its pivot order (the Newton-step
/// situation); lu-nullspace-fresh-pivots shows the cost when it cannot. prints a table with ratios to lu-nullspace, or CSV with the columns
/// case,method,iterations,time_s,rows,cols,newton_iterations (newton_iterations = 0 here).
void benchLinearSolvers(const std::vector<std::pair<std::string, SpMat>>& cases, std::ostream& out, bool csv);
std::vector<LinearBenchResult> benchLinearSolvers(const std::vector<std::pair<std::string, SpMat>>& cases,
                                                  std::ostream& out, bool csv, const LinearBenchOptions& opt);

/// The paper's Table 4.1 shapes (117×105 … 574×526, same entries per column) as seeded random
/// matrices; banded = local coupling (mechanism-like), otherwise entries anywhere in the column.
std::vector<std::pair<std::string, SpMat>> paperShapedCases(bool banded, std::uint64_t seed = 1);

}  // namespace mechsim::bench
