// reference/linalg/normal_equations.cpp — baseline of paper 003 (Table 4.2): form N = AᵀA and Aᵀ b,
// factor N = L D Lᵀ (sparse, fill-reducing AMD ordering computed once per pattern), solve.
// Cost ≈ m n² + n³/3 dense; conditioning squared (κ(N) = κ(A)²).
//
// Backend. Eigen::SimplicialLDLT is the default: at mechanism sizes (n ≈ 100-600, a few nonzeros
// per column) CHOLMOD's supernodal LLᵀ spends its time in supernode bookkeeping, in its common
// object and the copy into CHOLMOD's structures, and its BLAS-3 kernels never get supernodes big
// enough to pay off. Measured in bench/ (one loaded 2-core run): 0.10 vs 0.17 ms at 117 × 105,
// 0.98 vs 1.7 ms at 574 × 526 banded, 21 vs 29 ms at 574 × 526 random; the benchmark times both
// ("normal-equations" vs "normal-equations-cholmod") in every run.
//
// Rank loss. If AᵀA is numerically singular (min |D_ii| ≤ 1e-13 max |D_ii|, or CHOLMOD's rcond ≤ 1e-13 or failure),
// factorize() refactors N + δ I with δ = 1e-10 × max diag(N): the regularised solution
// (AᵀA + δI)⁻¹ Aᵀ b has no component in null(A) and differs from A⁺ b by O(δ/σ_min²) in the
// range — an approximation, and this baseline is only timed, not trusted, in that case.
#include "reference/linalg/normal_equations.h"

#include <Eigen/CholmodSupport>
#include <Eigen/SparseCholesky>
#include <cmath>
#include <stdexcept>

namespace mechsim::linalg {

namespace {
// CHOLMOD's supernodal LLᵀ with access to its factor, for the rank check cholmod_rcond
// ((min L_jj / max L_jj)², the same quantity as min |D_ii| / max |D_ii| of an LDLᵀ).
struct CholmodLlt : Eigen::CholmodSupernodalLLT<SpMat> {
  double rcond() { return m_cholmodFactor ? cholmod_rcond(m_cholmodFactor, &cholmod()) : 0.0; }
};
}  // namespace

struct NormalEquations::Impl {
  Backend backend;
  SpMat At, N;            // (n × m), (n × n)
  Eigen::SimplicialLDLT<SpMat> ldlt;
  CholmodLlt cholmod;
  bool analyzed = false, ok = false;
  double delta = 0.0;
  Eigen::Index rows = 0, cols = 0;
  mutable VecX rhs;

  SpMat eye;              // (n × n) identity pattern, so that N always has its diagonal
  void formNormal(const SpMat& A) {
    At = A.transpose();
    if (eye.rows() != A.cols()) {
      eye.resize(A.cols(), A.cols());
      eye.setIdentity();
    }
    N = At * A + 0.0 * eye;  // structural diagonal: δ can be added in place
  }
  void analyze() {
    if (backend == Backend::SimplicialLdlt) ldlt.analyzePattern(N);
    else cholmod.analyzePattern(N);
  }
  bool factor(const SpMat& M) {
    if (backend == Backend::SimplicialLdlt) {
      ldlt.factorize(M);
      if (ldlt.info() != Eigen::Success) return false;
      const VecX d = ldlt.vectorD();
      const double dmax = d.cwiseAbs().maxCoeff();
      return d.size() == 0 || d.cwiseAbs().minCoeff() > 1e-13 * dmax;
    }
    cholmod.factorize(M);
    return cholmod.info() == Eigen::Success && cholmod.rcond() > 1e-13;
  }
};

NormalEquations::NormalEquations(Backend backend) : impl_(std::make_unique<Impl>()) { impl_->backend = backend; }
NormalEquations::~NormalEquations() = default;
NormalEquations::NormalEquations(NormalEquations&&) noexcept = default;
NormalEquations& NormalEquations::operator=(NormalEquations&&) noexcept = default;

void NormalEquations::analyzePattern(const SpMat& A) {
  impl_->rows = A.rows();
  impl_->cols = A.cols();
  impl_->formNormal(A);
  impl_->analyze();
  impl_->analyzed = true;
}

bool NormalEquations::factorize(const SpMat& A) {
  Impl& d = *impl_;
  d.ok = false;
  if (!d.analyzed || A.rows() != d.rows || A.cols() != d.cols)
    throw std::invalid_argument("NormalEquations::factorize: not analysed for this shape");
  for (int k = 0; k < A.outerSize(); ++k)
    for (SpMat::InnerIterator it(A, k); it; ++it)
      if (!std::isfinite(it.value())) return false;
  // N = AᵀA (same pattern as analysed: sparse products keep structural zeros).
  d.formNormal(A);
  d.delta = 0.0;
  if (!d.factor(d.N)) {
    // Numerically singular: Tikhonov regularisation (see the file comment), same pattern.
    double dmax = 0.0;
    for (int j = 0; j < d.N.cols(); ++j) dmax = std::max(dmax, std::abs(d.N.coeff(j, j)));
    d.delta = 1e-10 * (dmax > 0.0 ? dmax : 1.0);
    for (int j = 0; j < d.N.cols(); ++j) d.N.coeffRef(j, j) += d.delta;
    d.factor(d.N);
    const bool okReg = d.backend == Backend::SimplicialLdlt ? d.ldlt.info() == Eigen::Success
                                                            : d.cholmod.info() == Eigen::Success;
    if (!okReg) return false;
  }
  d.ok = true;
  return true;
}

bool NormalEquations::compute(const SpMat& A) {
  analyzePattern(A);
  return factorize(A);
}

void NormalEquations::solve(const VecX& b, VecX& x) const {
  const Impl& d = *impl_;
  if (!d.ok) throw std::logic_error("NormalEquations::solve: no valid factorisation");
  if (b.size() != d.rows) throw std::invalid_argument("NormalEquations::solve: wrong right-hand side size");
  d.rhs.noalias() = d.At * b;
  if (d.backend == Backend::SimplicialLdlt) x = d.ldlt.solve(d.rhs);
  else x = d.cholmod.solve(d.rhs);
}

VecX NormalEquations::solve(const VecX& b) const {
  VecX x;
  solve(b, x);
  return x;
}

double NormalEquations::regularization() const { return impl_->delta; }

}  // namespace mechsim::linalg
