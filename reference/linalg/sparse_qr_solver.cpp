// reference/linalg/sparse_qr_solver.cpp — baseline: least squares by sparse QR, A Π = Q R,
// x = Π R⁻¹ (Qᵀ b)₁:ᵣ. Backward stable (no squaring of κ), but Q's Householder vectors cost
// far more than an LU (paper 003 §2: orthogonalisation is "not of interest" for speed).
//
// Backend. SuiteSparse SPQR through Eigen::SPQR is the default: in bench/ it is several times
// faster than Eigen::SparseQR on the banded (mechanism-like) and the larger cases (e.g. 1.3 vs
// 13.7 ms at 385 × 361, 2.3 vs 42 ms at 574 × 526), and only slower on the smallest random ones
// (2.0 vs 1.2 ms at 117 × 105), although the wrapper copies A to 64-bit indices and redoes the
// symbolic analysis in every compute(). Eigen::SparseQR keeps its Householder vectors in a
// sparse matrix that fills up and applies them one at a time; SPQR works on dense frontal
// blocks. The benchmark times both ("sparse-qr" vs "sparse-qr-eigen") in every run.
//
// Rank loss: both return a basic solution (zeros in the columns dropped by the pivoting), which
// minimises ‖b − A x‖ but is not the minimum-norm A⁺ b.
#include "reference/linalg/sparse_qr_solver.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SPQRSupport>
#include <Eigen/SparseQR>
#include <cmath>
#include <stdexcept>

namespace mechsim::linalg {

struct SparseQrSolver::Impl {
  Backend backend;
  Eigen::SparseQR<SpMat, Eigen::COLAMDOrdering<int>> eqr;
  std::unique_ptr<Eigen::SPQR<SpMat>> spqr;
  bool analyzed = false, ok = false;
  Eigen::Index rows = 0, cols = 0;
};

SparseQrSolver::SparseQrSolver(Backend backend) : impl_(std::make_unique<Impl>()) { impl_->backend = backend; }
SparseQrSolver::~SparseQrSolver() = default;
SparseQrSolver::SparseQrSolver(SparseQrSolver&&) noexcept = default;
SparseQrSolver& SparseQrSolver::operator=(SparseQrSolver&&) noexcept = default;

void SparseQrSolver::analyzePattern(const SpMat& A) {
  impl_->rows = A.rows();
  impl_->cols = A.cols();
  if (impl_->backend == Backend::EigenSparseQr) impl_->eqr.analyzePattern(A);
  else if (!impl_->spqr) impl_->spqr = std::make_unique<Eigen::SPQR<SpMat>>();
  impl_->analyzed = true;
}

bool SparseQrSolver::factorize(const SpMat& A) {
  Impl& d = *impl_;
  d.ok = false;
  if (!d.analyzed || A.rows() != d.rows || A.cols() != d.cols)
    throw std::invalid_argument("SparseQrSolver::factorize: not analysed for this shape");
  for (int k = 0; k < A.outerSize(); ++k)
    for (SpMat::InnerIterator it(A, k); it; ++it)
      if (!std::isfinite(it.value())) return false;
  if (d.backend == Backend::EigenSparseQr) {
    d.eqr.factorize(A);
    d.ok = d.eqr.info() == Eigen::Success;
  } else {
    d.spqr->compute(A);
    d.ok = d.spqr->info() == Eigen::Success;
  }
  return d.ok;
}

bool SparseQrSolver::compute(const SpMat& A) {
  analyzePattern(A);
  return factorize(A);
}

void SparseQrSolver::solve(const VecX& b, VecX& x) const {
  const Impl& d = *impl_;
  if (!d.ok) throw std::logic_error("SparseQrSolver::solve: no valid factorisation");
  if (b.size() != d.rows) throw std::invalid_argument("SparseQrSolver::solve: wrong right-hand side size");
  if (d.backend == Backend::EigenSparseQr) x = d.eqr.solve(b);
  else x = d.spqr->solve(b);
}

VecX SparseQrSolver::solve(const VecX& b) const {
  VecX x;
  solve(b, x);
  return x;
}

int SparseQrSolver::rank() const {
  const Impl& d = *impl_;
  if (!d.ok) return 0;
  return static_cast<int>(d.backend == Backend::EigenSparseQr ? d.eqr.rank() : d.spqr->rank());
}

}  // namespace mechsim::linalg
