// bench/gen_matrix.cpp — standalone generator of the random quasi-square test matrices
// (reference/linalg/random_sparse.h) as Matrix Market files, for quick checks with other tools.
//   gen_matrix M N [--rank R] [--dep D] [--nnz-per-col K] [--band W] [--seed S] [-o file.mtx]
#include <cstdlib>
#include <iostream>
#include <string>
#include <unsupported/Eigen/SparseExtra>

#include "reference/linalg/random_sparse.h"

int main(int argc, char** argv) {
  using namespace mechsim;
  if (argc < 3) {
    std::cerr << "usage: gen_matrix M N [--rank R] [--dep D] [--nnz-per-col K] [--band W] [--seed S] [-o file.mtx]\n";
    return 2;
  }
  linalg::RandomSparseSpec s;
  s.rows = std::atoi(argv[1]);
  s.cols = std::atoi(argv[2]);
  std::string outFile = "matrix.mtx";
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    const char* v = argv[i + 1];
    if (a == "--rank") s.rank = std::atoi(v);
    else if (a == "--dep") s.dependentRows = std::atoi(v);
    else if (a == "--nnz-per-col") s.nnzPerCol = std::atof(v);
    else if (a == "--band") s.bandwidth = std::atoi(v);
    else if (a == "--seed") s.seed = std::strtoull(v, nullptr, 10);
    else if (a == "-o") outFile = v;
    else {
      std::cerr << "unknown option " << a << "\n";
      return 2;
    }
  }
  const SpMat A = linalg::randomQuasiSquare(s);
  if (!Eigen::saveMarket(A, outFile)) {
    std::cerr << "cannot write " << outFile << "\n";
    return 1;
  }
  std::cout << outFile << ": " << A.rows() << " x " << A.cols() << ", " << A.nonZeros() << " entries\n";
  return 0;
}
