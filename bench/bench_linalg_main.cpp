// bench/bench_linalg_main.cpp — the linear-solver benchmark program.
//   bench_linalg [--csv] [--quick] [--no-alt] [--no-dense] [--random | --banded]
//                [--case MxN[:seed]]... [--mtx file.mtx]...
// Without cases: the paper's Table 4.1 shapes, random and banded (bench/bench_linalg.h).
#include <Eigen/Core>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <unsupported/Eigen/SparseExtra>

#include "bench/bench_linalg.h"
#include "reference/linalg/random_sparse.h"

int main(int argc, char** argv) {
  using namespace mechsim;
  bool csv = false, random = true, banded = true;
  bench::LinearBenchOptions opt;
  std::vector<std::pair<std::string, SpMat>> cases;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--csv") csv = true;
    else if (a == "--quick") opt.minTimePerMethod = 0.05;
    else if (a == "--no-alt") opt.withAlternatives = false;
    else if (a == "--no-dense") opt.withDense = false;
    else if (a == "--random") banded = false;
    else if (a == "--banded") random = false;
    else if (a == "--case" && i + 1 < argc) {
      int m = 0, n = 0;
      unsigned long long seed = 1;
      if (std::sscanf(argv[++i], "%dx%d:%llu", &m, &n, &seed) < 2) {
        std::cerr << "bad --case " << argv[i] << " (want MxN[:seed])\n";
        return 2;
      }
      linalg::RandomSparseSpec s;
      s.rows = m;
      s.cols = n;
      s.seed = seed;
      cases.emplace_back("random-" + std::to_string(m) + "x" + std::to_string(n), linalg::randomQuasiSquare(s));
    } else if (a == "--mtx" && i + 1 < argc) {
      SpMat A;
      if (!Eigen::loadMarket(A, argv[++i])) {
        std::cerr << "cannot read " << argv[i] << "\n";
        return 2;
      }
      cases.emplace_back(argv[i], A);
    } else {
      std::cerr << "usage: bench_linalg [--csv] [--quick] [--no-alt] [--no-dense] [--random|--banded] "
                   "[--case MxN[:seed]]... [--mtx file]...\n";
      return 2;
    }
  }
  if (cases.empty()) {
    if (random) for (auto& c : bench::paperShapedCases(false)) cases.push_back(c);
    if (banded) for (auto& c : bench::paperShapedCases(true)) cases.push_back(c);
  }
  bench::benchLinearSolvers(cases, std::cout, csv, opt);
  return 0;
}
