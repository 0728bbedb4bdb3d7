// bench/bench_linalg.cpp — see bench_linalg.h. Method: for each case, every method is set up
// (analyzePattern once) and warmed up; then rounds of batches are interleaved across the methods
// (so that a noisy neighbour on a shared machine slows them alike) until each method has
// ≥ minTimePerMethod of batches; the reported time is the median over batches of the time per
// call (factorize + solve). Ratios are to lu-nullspace in the same run.
#include "bench/bench_linalg.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>

#include "reference/linalg/dense_cod.h"
#include "core/linalg/lu_nullspace.h"
#include "reference/linalg/normal_equations.h"
#include "reference/linalg/random_sparse.h"
#include "reference/linalg/sparse_qr_solver.h"

namespace mechsim::bench {

namespace {
using Clock = std::chrono::steady_clock;

// One method under test: a closure doing factorize(A) + solve(b) into x.
struct Method {
  std::string name;
  std::function<void()> run;
  VecX* x = nullptr;
  long perBatch = 1;
  std::vector<double> batchTimes;  // seconds per call
  long calls = 0;
  double timed = 0.0;
};

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// A solver behind the common compute/factorize/solve interface.
template <class Solver>
Method makeMethod(const std::string& name, std::shared_ptr<Solver> s, const SpMat& A, const VecX& b,
                  std::shared_ptr<VecX> x) {
  s->analyzePattern(A);
  Method m;
  m.name = name;
  m.x = x.get();
  m.run = [s, &A, &b, x] {
    s->factorize(A);
    s->solve(b, *x);
  };
  return m;
}
}  // namespace

std::vector<LinearBenchResult> benchLinearSolvers(const std::vector<std::pair<std::string, SpMat>>& cases,
                                                  std::ostream& out, bool csv, const LinearBenchOptions& opt) {
  std::vector<LinearBenchResult> results;
  if (csv) out << "case,method,iterations,time_s,rows,cols,newton_iterations\n";
  for (const auto& [caseName, Ain] : cases) {
    SpMat A = Ain;
    A.makeCompressed();
    const int m = static_cast<int>(A.rows()), n = static_cast<int>(A.cols());
    // Consistent right-hand side b = A x0 (a converged Newton step's system is consistent).
    VecX x0(n);
    for (int j = 0; j < n; ++j) x0[j] = std::sin(1.0 + j);
    const VecX b = A * x0;

    // The methods (reference first, so each can be checked against it).
    std::vector<Method> methods;
    std::vector<std::shared_ptr<VecX>> xs;
    auto add = [&](const std::string& name, auto solver) {
      xs.push_back(std::make_shared<VecX>());
      methods.push_back(makeMethod(name, solver, A, b, xs.back()));
    };
    add("lu-nullspace", std::make_shared<linalg::LuNullspace>());
    add("normal-equations", std::make_shared<linalg::NormalEquations>());
    add("sparse-qr", std::make_shared<linalg::SparseQrSolver>());
    if (opt.withDense) add("dense-cod", std::make_shared<linalg::DenseCod>());
    if (opt.withAlternatives) {
      linalg::LuNullspaceOptions fresh;
      fresh.reusePivots = false;  // every factorize() pivots afresh (graph search + pivot choice)
      add("lu-nullspace-fresh-pivots", std::make_shared<linalg::LuNullspace>(fresh));
      add("normal-equations-cholmod",
          std::make_shared<linalg::NormalEquations>(linalg::NormalEquations::Backend::CholmodSupernodal));
      add("sparse-qr-eigen", std::make_shared<linalg::SparseQrSolver>(linalg::SparseQrSolver::Backend::EigenSparseQr));
    }

    // Warm up and calibrate the batch length of each method.
    for (Method& me : methods) {
      const auto t0 = Clock::now();
      long k = 0;
      do {
        me.run();
        ++k;
      } while (seconds(Clock::now() - t0) < 0.02 && k < 100000);
      const double per = seconds(Clock::now() - t0) / k;
      me.perBatch = std::max<long>(1, static_cast<long>(opt.batchTime / per));
    }
    // Interleaved timed rounds.
    bool more = true;
    while (more) {
      more = false;
      for (Method& me : methods) {
        if (me.timed >= opt.minTimePerMethod && me.batchTimes.size() >= 5) continue;
        const auto t0 = Clock::now();
        for (long k = 0; k < me.perBatch; ++k) me.run();
        const double dt = seconds(Clock::now() - t0);
        me.batchTimes.push_back(dt / me.perBatch);
        me.calls += me.perBatch;
        me.timed += dt;
        more = true;
      }
    }
    // Accuracy against the dense reference (or x0 when dense-cod is not run).
    linalg::DenseCod cod;
    VecX ref = x0;
    if (opt.withDense && cod.compute(A)) ref = cod.solve(b);

    std::vector<LinearBenchResult> caseResults;
    for (Method& me : methods) {
      std::vector<double> t = me.batchTimes;
      std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
      LinearBenchResult r;
      r.caseName = caseName;
      r.method = me.name;
      r.iterations = me.calls;
      r.timePerSolve = t[t.size() / 2];
      r.rows = m;
      r.cols = n;
      r.relErrorVsCod = (*me.x - ref).norm() / std::max(ref.norm(), 1e-300);
      caseResults.push_back(r);
    }

    // Report.
    if (csv) {
      for (const auto& r : caseResults)
        out << r.caseName << ',' << r.method << ',' << r.iterations << ',' << std::setprecision(6) << r.timePerSolve
            << ',' << r.rows << ',' << r.cols << ",0\n";
    } else {
      const double base = caseResults.front().timePerSolve;
      out << "case " << caseName << "  (" << m << " x " << n << ", nnz " << A.nonZeros() << ", m/n "
          << std::fixed << std::setprecision(3) << double(m) / n << ")\n";
      out << "  " << std::left << std::setw(26) << "method" << std::right << std::setw(12) << "us/solve"
          << std::setw(10) << "ratio" << std::setw(12) << "calls" << std::setw(12) << "rel.err" << "\n";
      for (const auto& r : caseResults) {
        std::ostringstream err;
        err << std::scientific << std::setprecision(1) << r.relErrorVsCod;
        out << "  " << std::left << std::setw(26) << r.method << std::right << std::fixed << std::setprecision(2)
            << std::setw(12) << r.timePerSolve * 1e6 << std::setw(10) << r.timePerSolve / base << std::setw(12)
            << r.iterations << std::setw(12) << err.str() << "\n";
      }
      out << std::defaultfloat;
    }
    out.flush();
    results.insert(results.end(), caseResults.begin(), caseResults.end());
  }
  return results;
}

void benchLinearSolvers(const std::vector<std::pair<std::string, SpMat>>& cases, std::ostream& out, bool csv) {
  benchLinearSolvers(cases, out, csv, LinearBenchOptions{});
}

std::vector<std::pair<std::string, SpMat>> paperShapedCases(bool banded, std::uint64_t seed) {
  // Table 4.1 of paper 003: rows, cols, entries.
  struct Shape {
    const char* name;
    int m, n, nnz;
  };
  const Shape shapes[] = {{"stewart", 117, 105, 615}, {"car", 170, 161, 1069}, {"human", 181, 180, 1200},
                          {"antenna", 385, 361, 1661}, {"satellite", 574, 526, 3365}};
  std::vector<std::pair<std::string, SpMat>> out;
  for (const Shape& s : shapes) {
    linalg::RandomSparseSpec spec;
    spec.rows = s.m;
    spec.cols = s.n;
    // The core carries n·nnzPerCol entries and the m − n extra rows ~2 each.
    spec.nnzPerCol = std::max(2.0, (s.nnz - 2.0 * (s.m - s.n)) / s.n);
    spec.bandwidth = banded ? 8 : 0;
    spec.seed = seed;
    out.emplace_back(std::string(banded ? "banded-" : "random-") + s.name + "-" + std::to_string(s.m) + "x" +
                         std::to_string(s.n),
                     linalg::randomQuasiSquare(spec));
  }
  return out;
}

}  // namespace mechsim::bench
