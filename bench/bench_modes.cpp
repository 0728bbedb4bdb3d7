// bench/bench_modes.cpp — `bench deform --modes[=12k|98k|1m]`: the rest-mode stage of JGS2's
// precomputation (the lowest eigenpairs of the rest Hessian H̄, training poses and coarse space;
// core/deform/low_modes.h) by block Krylov–Schur at several block sizes beside the method it
// replaced, Spectra's single-vector shift-invert Lanczos (SymEigsShiftSolver: ncv = 2k + 1,
// tolerance 1e-8), each through a CHOLMOD supernodal factor of H̄ (the same factorisation, made
// for each and not timed), on the benchmark's cantilevers at 20× stiffness (the 12k-tet beam of
// `bench deform`, the 98k one and the 1M one of `--large`). Per row: solves with the factor
// (columns), restarts, wall seconds of the stage and of its solves, the ratio to Spectra's, the
// largest relative difference of the eigenvalues from Spectra's and the largest residual
// max_t ‖H̄ φ_t − λ_t φ_t‖ / λ_t.
#include <Eigen/CholmodSupport>
#include <Spectra/SymEigsShiftSolver.h>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "bench/bench.h"
#include "bench/deform_scenes.h"
#include "core/deform/parallel.h"
#include "core/deform/solver.h"

namespace mechsim::bench {

namespace {
using namespace mechsim::deform;
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// Spectra's operation y = H̄⁻¹ x with the factor, one vector per Lanczos step.
struct SpectraInverse {
  using Scalar = double;
  const Eigen::CholmodSupernodalLLT<SpMat>* llt;
  Eigen::Index n;
  mutable int solves = 0;
  mutable double seconds = 0;
  Eigen::Index rows() const { return n; }
  Eigen::Index cols() const { return n; }
  void set_shift(const double&) {}
  void perform_op(const double* in, double* out) const {
    ++solves;
    const auto t = Clock::now();
    Eigen::Map<VecX>(out, n) = llt->solve(Eigen::Map<const VecX>(in, n));
    seconds += since(t);
  }
};

double largestResidual(const SpMat& H, const VecX& values, const MatX& vectors) {
  double worst = 0;
  for (int t = 0; t < values.size(); ++t)
    worst = std::max(worst, (H * vectors.col(t) - values[t] * vectors.col(t)).norm() / values[t]);
  return worst;
}

struct ModesRow {
  std::string caseName, method;
  int tets = 0, unknowns = 0, modes = 0, block = 0, solves = 0, restarts = 0;
  double seconds = 0, solveSeconds = 0, ratio = 1, valueDiff = 0, residual = 0;
};

void print(std::ostream& out, bool csv, const ModesRow& r, bool header) {
  if (csv) {
    if (header) out << "case,tets,unknowns,modes,method,block,solves,restarts,time_s,solve_s,ratio_to_spectra,value_diff,residual\n";
    out << r.caseName << ',' << r.tets << ',' << r.unknowns << ',' << r.modes << ',' << r.method << ',' << r.block
        << ',' << r.solves << ',' << r.restarts << ',' << r.seconds << ',' << r.solveSeconds << ',' << r.ratio << ',' << r.valueDiff << ','
        << r.residual << '\n';
  } else {
    char line[256];
    if (header) {
      std::snprintf(line, sizeof line, "%-16s %8s %6s %-14s %5s %7s %8s %9s %9s %8s %10s %10s\n", "case",
                    "unknowns", "modes", "method", "block", "solves", "restarts", "time_s", "solve_s", "ratio",
                    "d_lambda", "residual");
      out << line;
    }
    std::snprintf(line, sizeof line, "%-16s %8d %6d %-14s %5d %7d %8d %9.2f %9.2f %8.2f %10.1e %10.1e\n",
                  r.caseName.c_str(), r.unknowns, r.modes, r.method.c_str(), r.block, r.solves, r.restarts, r.seconds,
                  r.solveSeconds, r.ratio, r.valueDiff, r.residual);
    out << line;
  }
  out.flush();
}

void runCase(std::ostream& out, bool csv, bool& header, const std::string& name, const DeformableModel& m, int k,
             const std::vector<int>& blocks) {
  ElementCache c;
  evalElements(m, restPositions(m), c, true);
  const SpMat H = assembleHessian(m, c);
  ModesRow base;
  base.caseName = name;
  base.tets = m.tetCount();
  base.unknowns = static_cast<int>(H.rows());
  base.modes = k;
  VecX spectraValues;
  {
    std::cerr << "bench deform --modes: " << name << ": " << k << " modes, spectra ...\n";
    const Eigen::CholmodSupernodalLLT<SpMat> llt(H);
    if (llt.info() != Eigen::Success) throw std::runtime_error("rest Hessian not positive definite");
    SpectraInverse op{&llt, H.rows()};
    const auto t = Clock::now();
    Spectra::SymEigsShiftSolver<SpectraInverse> eigs(op, k, std::min<int>(int(H.rows()), std::max(2 * k + 1, 20)),
                                                     0.0);
    eigs.init();
    eigs.compute(Spectra::SortRule::LargestMagn, 1000, 1e-8);
    ModesRow r = base;
    r.seconds = since(t);
    if (eigs.info() != Spectra::CompInfo::Successful) throw std::runtime_error("Spectra did not converge");
    r.method = "spectra";
    r.block = 1;
    r.solves = op.solves;
    r.solveSeconds = op.seconds;
    spectraValues = eigs.eigenvalues().reverse();  // largest θ of H̄⁻¹ first: ascending λ
    const MatX vectors = eigs.eigenvectors().rowwise().reverse();
    r.residual = largestResidual(H, spectraValues, vectors);
    base.seconds = r.seconds;
    print(out, csv, r, header);
    header = false;
  }
  for (int b : blocks) {
    std::cerr << "bench deform --modes: " << name << ": " << k << " modes, block " << b << " ...\n";
    LowModesOptions o;
    o.blockSize = b;
    const auto t = Clock::now();
    double factor = 0;
    const LowModes got = restModes(m, k, o, &factor);
    ModesRow r = base;
    r.seconds = since(t) - factor;
    r.ratio = r.seconds / base.seconds;
    r.method = "block-krylov";
    r.block = b;
    r.solves = got.applications;
    r.solveSeconds = got.applySeconds;
    r.restarts = got.restarts;
    for (int i = 0; i < k; ++i)
      r.valueDiff = std::max(r.valueDiff, std::abs(got.values[i] - spectraValues[i]) / spectraValues[i]);
    r.residual = largestResidual(H, got.values, got.vectors);
    print(out, csv, r, false);
  }
}
}  // namespace

int runDeformModes(std::ostream& out, bool csv, const std::string& which) {
  if (!isModesCase(which)) {
    std::cerr << "bench deform --modes=" << which << ": no such case (12k, 98k, 1m)\n";
    return 2;
  }
  std::cerr << "bench deform --modes: " << threadCount() << " CPU threads\n";
  bool header = true;
  const std::vector<int> blocks{1, 8, 16, 32};
  if (which.empty() || which == "12k") {
    const DeformableModel m = cantileverModel(2e6, 32, 8, 8);
    runCase(out, csv, header, "cantilever-12k", m, 64, blocks);
    runCase(out, csv, header, "cantilever-12k", m, 256, blocks);
  }
  if (which.empty() || which == "98k") {
    const DeformableModel m = cantileverModel(2e6, 64, 16, 16);
    runCase(out, csv, header, "cantilever-98k", m, 64, {16});
    runCase(out, csv, header, "cantilever-98k", m, 256, {8, 16, 32});
  }
  if (which == "1m") runCase(out, csv, header, "cantilever-1M", cantileverModel(2e6, 168, 40, 25), 64, {16});
  if (!csv)
    out << "ratio: the stage's wall time over Spectra's on the same case and mode count (the factorisation "
           "apart); d_lambda: max |λ − λ_spectra| / λ; residual: max ||H φ − λ φ|| / λ.\n";
  return 0;
}

}  // namespace mechsim::bench
