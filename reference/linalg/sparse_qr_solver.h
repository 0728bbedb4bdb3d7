#pragma once
// reference/linalg/sparse_qr_solver.h — baseline: least squares by sparse QR. See sparse_qr_solver.cpp.
#include <memory>

#include "core/types.h"

namespace mechsim::linalg {

class SparseQrSolver {
 public:
  enum class Backend {
    SuiteSparseQr,  // SuiteSparse SPQR (multifrontal) through Eigen::SPQR (default: faster, see .cpp)
    EigenSparseQr,  // Eigen::SparseQR with COLAMD
  };
  explicit SparseQrSolver(Backend backend = Backend::SuiteSparseQr);
  ~SparseQrSolver();
  SparseQrSolver(SparseQrSolver&&) noexcept;
  SparseQrSolver& operator=(SparseQrSolver&&) noexcept;

  /// Column ordering (Eigen::SparseQR only; SPQR analyses inside factorize).
  void analyzePattern(const SpMat& A);
  /// Numeric QR. False on non-finite input or failure.
  bool factorize(const SpMat& A);
  bool compute(const SpMat& A);
  /// x minimising ‖b − A x‖ (b: (m), returns (n)). With rank loss (or m < n) this is a *basic*
  /// least-squares solution (zeros in the columns QR's pivoting drops), not A⁺ b.
  VecX solve(const VecX& b) const;
  void solve(const VecX& b, VecX& x) const;
  int rank() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mechsim::linalg
