// core/contact/amgs_dense.cpp — the AMGS method of Zheng and Yin on an explicit A (paper 000
// Method 2.2), the reference for Method 3.1.
//
// From (D + γΩ − L) x^{k+1} = U x^k + (γΩ − D + U)|x^k| + L|x^{k+1}| − γq (eq. 12) and
// x = (γ/2)λ − x_−, row i of a sweep is (eq. 14)
//   x_i^{k+1} = x_i^k − γ/(A_ii + γΩ_ii) · ( Σ_{j<i} A_ij λ_j^{k+1} + Σ_{j≥i} A_ij λ_j^k + q_i − 2Ω_ii (x_−^k)_i ),
//   λ_i^{k+1} = (2/γ) max{0, x_i^{k+1}}.
// The sum reads the whole row of the dense A: O(m²) per sweep. A is symmetric, so row i is read
// as the contiguous column i. "j < i" is "before i in the sweep order" (sweep_order.h), the order
// Method 3.1 uses.
#include "core/contact/sweeps.h"

namespace mechsim::contact::detail {

void amgsDenseSweep(const LcpProblem& p, const MatX& A, const VecX& q, const VecX& coef, const VecX& twoOmega,
                    double gamma, const std::vector<int>& order, VecX& x, VecX& lambda) {
  for (const int i : order) {
    // (A λ^{k+1,i} + q)_i: λ holds the new values of the rows before i in the sweep, the old ones after
    const double r = A.col(i).dot(lambda) + q[i];
    double l, u;
    rowBounds(p, lambda, i, l, u);
    lambda[i] = amgsRowUpdate(r, l, u, coef[i], twoOmega[i], gamma, x[i]);
  }
}

}  // namespace mechsim::contact::detail
