#pragma once
// core/deform/jgs2_coarse.h — the Galerkin coarse space of JGS2's modal split (Jgs2Coarse::Galerkin,
// solver.h). Internal to core/deform.
//
// The modal split (Jgs2RhsForm::Modal) solves the residual's component on the T training modes φ_t
// of the rest Hessian H̄ with the rest eigenvalues: a = Λ⁻¹ Φᵀ Rᵀ g. That is the Galerkin (Ritz)
// solve of the coarse problem only while Rᵀ H R ≈ H̄ on span Φ. Under rotation, stiffening
// (neo-Hookean at large strain) or a changed inertia/elastic balance it is not, and the coarse
// part of every sweep over- or undershoots.
//
// Here the coarse space is the co-rotated modes Φ_R (vertex block j of column t: R_j φ_t,j, the
// per-vertex rotations of Eq. 14 at the start of the solve) and the coarse operator is the CURRENT
// projected Hessian restricted to it:
//   W = H Φ_R (3 nv × T, T Hessian–vector products with the cached element Hessians),
//   K = Φ_Rᵀ H Φ_R = Φ_Rᵀ W (T × T, Cholesky),
// formed once per solve. Each sweep then costs three O(nT) passes:
//   c = K⁻¹ Φ_Rᵀ g          (coarse coefficients),
//   coarse step  −Φ_R c,    residual after it (linear model)  g − W c,
// which the per-vertex local solves of Eq. (15) smooth — a two-level multiplicative
// (coarse-then-smooth) Schwarz / multigrid iteration whose fine level is JGS2's local solve.
// With H = H̄ and R = I, K = Λ and W c = H̄ Φ c: the rest modal split exactly.
#include <Eigen/Cholesky>
#include <vector>

#include "core/deform/solver.h"

namespace mechsim::deform::detail {

class ModalGalerkin {
 public:
  /// Builds Φ_R, W and K from the training modes of `d`, the per-vertex rotations R (9 nv,
  /// row-major) and the element cache c (current projected element Hessians). Returns false when
  /// K is not positive definite (then the caller keeps the rest split).
  bool build(const DeformableModel& m, const Jgs2Data& d, const std::vector<double>& R, const ElementCache& c);
  bool valid() const { return valid_; }
  int modes() const { return static_cast<int>(phi_.cols()); }
  /// c = K⁻¹ Φ_Rᵀ g (g: 3 nv, zero at prescribed vertices).
  void coefficients(const double* g, VecX& coef) const;
  /// Vertex block i of Φ_R c (the coarse step, with a minus sign) and of W c (the residual it removes).
  void vertexStep(int i, const VecX& coef, double* step, double* residual) const;

 private:
  using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  RowMat phi_, w_;  // 3 nv × T (prescribed rows zero); row-major so a vertex's 3 rows are contiguous
  Eigen::LLT<MatX> k_;
  bool valid_ = false;
};

}  // namespace mechsim::deform::detail
