#pragma once
// reference/linalg/normal_equations.h — baseline: least squares by sparse Cholesky of the normal
// equations AᵀA x = Aᵀ b (paper 003, Table 4.2). See normal_equations.cpp.
#include <memory>

#include "core/types.h"

namespace mechsim::linalg {

class NormalEquations {
 public:
  enum class Backend {
    SimplicialLdlt,     // Eigen::SimplicialLDLT (default: fastest at mechanism sizes, see .cpp)
    CholmodSupernodal,  // CHOLMOD supernodal LLᵀ through Eigen::CholmodSupernodalLLT
  };
  explicit NormalEquations(Backend backend = Backend::SimplicialLdlt);
  ~NormalEquations();
  NormalEquations(NormalEquations&&) noexcept;
  NormalEquations& operator=(NormalEquations&&) noexcept;

  /// Pattern of AᵀA and its fill-reducing ordering (A: m × n). Once per pattern.
  void analyzePattern(const SpMat& A);
  /// AᵀA and its numeric factorisation. False on non-finite input or a failed factorisation.
  bool factorize(const SpMat& A);
  /// analyzePattern (if the pattern changed) + factorize.
  bool compute(const SpMat& A);
  /// x minimising ‖b − A x‖ (b: (m), returns (n)); with rank loss, the regularised solution
  /// (AᵀA + δI)⁻¹ Aᵀ b ≈ A⁺ b (see .cpp).
  VecX solve(const VecX& b) const;
  void solve(const VecX& b, VecX& x) const;
  /// δ used by the last factorize (0 unless AᵀA was numerically singular).
  double regularization() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mechsim::linalg
