// bench/bench_kinematics.cpp — `mechsim-cli bench kinematics [--csv]`.
//
// Two measurements per mechanism, every method in the same run (STYLE.md §14):
//  1. per Newton-step linear solve: numeric factorisation of Φ_q at the file's configuration plus
//     one solve (bench_linalg.cpp, symbolic analysis done once beforehand, as in paper 003 §4.2);
//  2. per full position analysis: Newton from the solution at t = 0 to the solution at t = h
//     (one driver step of h = 10 ms, the step an interactive slider or a 100 Hz playback makes),
//     Δq = −Φ_q⁺ Φ with each method's least-squares solve, to max|Φ| < 1e-10. The loop is the same
//     for every method — only the linear solver differs — and lu-nullspace is also timed through
//     the product's own solvePositions() ("solvePositions" rows).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

#include "bench/bench.h"
#include "bench/bench_linalg.h"
#include "core/data.h"
#include "core/io/load.h"
#include "core/kinematics/kinematics.h"
#include "reference/linalg/dense_cod.h"
#include "core/linalg/lu_nullspace.h"
#include "reference/linalg/normal_equations.h"
#include "reference/linalg/sparse_qr_solver.h"
#include "core/tolerances.h"

namespace mechsim::bench {
namespace {

using Clock = std::chrono::steady_clock;

struct AnalysisResult {
  int newtonIterations = 0;
  double seconds = 0;       // median time per full position analysis
  double residual = 0;      // max|Φ| reached
  bool converged = false;
};

/// Newton from q_start at time t with the linear solver `S` (analyzePattern/factorize/solve).
template <class Solver>
AnalysisResult newtonOnce(const Model& m, Data& d, const VecX& qStart, double t, Solver& solver) {
  AnalysisResult r;
  d.q = qStart;
  d.t = t;
  VecX dq(m.nq);
  for (int it = 0; it < 30; ++it) {
    constraintResidual(m, d);
    r.residual = d.phi.lpNorm<Eigen::Infinity>();
    if (r.residual < tol::kPositionResidual) {
      r.converged = true;
      break;
    }
    constraintJacobian(m, d);
    if (!solver.factorize(d.Jq)) break;
    solver.solve(d.phi, dq);
    d.q -= dq;
    ++r.newtonIterations;
  }
  return r;
}

/// Median time per call of f over batches of ≥ 5 ms, at least `minTime` seconds in all.
template <class F>
double medianTime(F&& f, double minTime = 0.15) {
  f();  // warm-up
  std::vector<double> batches;
  const auto t0 = Clock::now();
  while (std::chrono::duration<double>(Clock::now() - t0).count() < minTime || batches.size() < 5) {
    int reps = 0;
    const auto b0 = Clock::now();
    double el = 0;
    do {
      f();
      ++reps;
      el = std::chrono::duration<double>(Clock::now() - b0).count();
    } while (el < 0.005);
    batches.push_back(el / reps);
    if (batches.size() > 2000) break;
  }
  std::nth_element(batches.begin(), batches.begin() + batches.size() / 2, batches.end());
  return batches[batches.size() / 2];
}

template <class Solver>
AnalysisResult timeAnalysis(const Model& m, const VecX& q0, double t, Solver& solver, const SpMat& pattern) {
  Data d = makeData(m);
  solver.analyzePattern(pattern);  // symbolic analysis once per mechanism
  AnalysisResult r = newtonOnce(m, d, q0, t, solver);
  if (!r.converged) return r;
  r.seconds = medianTime([&] { newtonOnce(m, d, q0, t, solver); });
  return r;
}

struct Case {
  std::string name, file;
};

}  // namespace

int runKinematics(std::ostream& out, bool csv, const std::string& sourceDir) {
  const std::vector<Case> cases = {
      {"stewart", "stewart.json"},   {"car", "car-full.json"},
      {"humanoid", "humanoid.json"}, {"antenna", "antenna.json"},
      {"antenna-satellite", "antenna-satellite.json"},
  };
  const double h = 0.01;  // driver step of the full position analysis [s]

  std::vector<std::pair<std::string, SpMat>> jacobians;
  struct Loaded {
    std::string name;
    Model model;
    VecX q0;
  };
  std::vector<Loaded> loaded;
  for (const auto& c : cases) {
    const std::string path = (std::filesystem::path(sourceDir) / "mechanisms" / c.file).string();
    Loaded l{c.name, {}, {}};
    try {
      l.model = io::loadModel(path);
    } catch (const std::exception& e) {
      std::cerr << "bench kinematics: " << e.what() << "\n";
      return 1;
    }
    Data d = makeData(l.model);
    if (!solvePositions(l.model, d, 0.0)) {
      std::cerr << "bench kinematics: " << c.file << ": position analysis at t = 0 failed: " << d.stats.message << "\n";
      return 2;
    }
    l.q0 = d.q;
    constraintJacobian(l.model, d);
    jacobians.emplace_back(c.name, d.Jq);
    loaded.push_back(std::move(l));
  }

  // 1. Per linear solve (factorise + solve), all methods side by side.
  LinearBenchOptions lopt;
  lopt.withAlternatives = false;
  std::ostringstream linearText;
  const auto linear = benchLinearSolvers(jacobians, linearText, false, lopt);

  // 2. Per full position analysis, the same Newton loop with each solver.
  struct Row {
    std::string caseName, method;
    int rows, cols;
    double solveTime;
    AnalysisResult analysis;
  };
  std::vector<Row> rows;
  for (size_t i = 0; i < loaded.size(); ++i) {
    const Model& m = loaded[i].model;
    const SpMat& J = jacobians[i].second;
    auto solveTimeOf = [&](const std::string& method) {
      for (const auto& r : linear)
        if (r.caseName == loaded[i].name && r.method == method) return r.timePerSolve;
      return 0.0;
    };
    linalg::LuNullspace lu;
    linalg::NormalEquations ne;
    linalg::SparseQrSolver qr;
    linalg::DenseCod cod;
    rows.push_back({loaded[i].name, "lu-nullspace", int(J.rows()), int(J.cols()), solveTimeOf("lu-nullspace"),
                    timeAnalysis(m, loaded[i].q0, h, lu, J)});
    rows.push_back({loaded[i].name, "normal-equations", int(J.rows()), int(J.cols()), solveTimeOf("normal-equations"),
                    timeAnalysis(m, loaded[i].q0, h, ne, J)});
    rows.push_back({loaded[i].name, "sparse-qr", int(J.rows()), int(J.cols()), solveTimeOf("sparse-qr"),
                    timeAnalysis(m, loaded[i].q0, h, qr, J)});
    rows.push_back({loaded[i].name, "dense-cod", int(J.rows()), int(J.cols()), solveTimeOf("dense-cod"),
                    timeAnalysis(m, loaded[i].q0, h, cod, J)});
    // The product path: solvePositions (cached symbolic analysis inside Data).
    {
      Data d = makeData(m);
      AnalysisResult r;
      d.q = loaded[i].q0;
      solvePositions(m, d, h);
      r.newtonIterations = d.stats.iterations;
      r.residual = d.stats.residual;
      r.converged = d.stats.converged;
      r.seconds = medianTime([&] {
        d.q = loaded[i].q0;
        solvePositions(m, d, h);
      });
      rows.push_back({loaded[i].name, "solvePositions", int(J.rows()), int(J.cols()), 0.0, r});
    }
  }

  if (csv) {
    out << "case,method,iterations,time_s,rows,cols,newton_iterations,analysis_time_s,residual\n";
    out << std::setprecision(6);
    for (const auto& r : rows)
      out << r.caseName << "," << r.method << "," << r.analysis.newtonIterations << "," << r.solveTime << ","
          << r.rows << "," << r.cols << "," << r.analysis.newtonIterations << "," << r.analysis.seconds << ","
          << r.analysis.residual << "\n";
    return 0;
  }

  out << "mechsim bench kinematics — paper 003 Table 4.1 mechanisms, one run, one core\n"
      << "solve = numeric factorisation of Phi_q + one least-squares solve (symbolic analysis once);\n"
      << "analysis = Newton position analysis over one 10 ms driver step to max|Phi| < 1e-10.\n"
      << "Ratios are to lu-nullspace (paper 003) in the same run; >1 means lu-nullspace is faster.\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-18s %-17s %9s %11s %7s %6s %12s %7s %9s\n", "case", "method", "rows×cols",
                "solve_us", "ratio", "newton", "analysis_us", "ratio", "residual");
  out << line;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const Row& ref = rows[i - (i % 5)];  // lu-nullspace row of the same case
    char dims[32];
    std::snprintf(dims, sizeof dims, "%d×%d", r.rows, r.cols);
    std::string solve = r.solveTime > 0 ? std::to_string(r.solveTime * 1e6).substr(0, 8) : "-";
    std::string sratio = r.solveTime > 0 && ref.solveTime > 0 ? std::to_string(r.solveTime / ref.solveTime).substr(0, 5) : "-";
    std::string aratio = r.analysis.seconds > 0 && ref.analysis.seconds > 0
                             ? std::to_string(r.analysis.seconds / ref.analysis.seconds).substr(0, 5)
                             : "-";
    std::snprintf(line, sizeof line, "%-18s %-17s %9s %11s %7s %6d %12.2f %7s %9.1e%s\n", r.caseName.c_str(),
                  r.method.c_str(), dims, solve.c_str(), sratio.c_str(), r.analysis.newtonIterations,
                  r.analysis.seconds * 1e6, aratio.c_str(), r.analysis.residual, r.analysis.converged ? "" : "  FAILED");
    out << line;
    if (i % 5 == 4) out << "\n";
  }
  return 0;
}

}  // namespace mechsim::bench
