#pragma once
// core/anm/pade.h — vector Padé approximants of an ANM series with a common denominator
// (Cochelin, Damil & Potier-Ferry 1994; paper 004 eq. 30-31, notes §1.5).
//
// With u_i = [x_i; λ_i] (i = 0..N) and the Gram–Schmidt decomposition u_i = Σ_{j≤i} α_ij û_j
// (û_j orthonormal; u_i ⟂ u_1 for i ≥ 2 by the pseudo-arclength condition, so α_i1 = 0), the
// approximant of order n (built from u_0..u_n) is
//   P_n(a) = u_0 + Σ_{i=1}^{n−1} [D_{n−1−i}(a) / D_{n−1}(a)] u_i a^i,   D_k(a) = Σ_{j=0}^{k} d_j a^j,
// with d_0 = 1 and d_i = −(Σ_{j=0}^{i−1} α_{n−j, n−i} d_j) / α_{n−i, n−i}  (i = 1..n−1):
// the denominator that cancels the components of u_n along û_1..û_{n−1}, so P_n agrees with the
// series to order n − 1 and carries the part of the order-n term that the lower orders span.
// Range (eq. 31): the largest a with ‖P_N(a) − P_{N−1}(a)‖ / ‖P_N(a) − u_0‖ < ε, searched by
// bisection (8 halvings, as the SANM code) between the series range a_r and 0.99 of the smallest
// positive real root r of D_{N−1} (the pole). P_{N−1} is built from u_0..u_{N−1} (its own
// denominator, the same Gram–Schmidt basis).
// Low dimension: the û_j exist only while the u_j are linearly independent; the order n is the
// largest such that u_1..u_{n−1} are independent (α_jj > 1e-10 ‖u_j‖), at most N; below n = 4 no
// Padé approximant is formed (the SANM code skips it for N ≤ 3 or dim < 2(N + 1)).
#include <vector>

#include "core/types.h"

namespace mechsim::anm {

class PadeApproximant {
 public:
  PadeApproximant() = default;
  /// From the series coefficients x_0..x_N, λ_0..λ_N (u_i = [x_i; λ_i]).
  PadeApproximant(const std::vector<VecX>& x, const std::vector<double>& lambda);
  /// Whether an approximant of order ≥ 4 could be formed.
  bool valid() const { return n_ >= 4; }
  int order() const { return n_; }
  /// P_n(a) (orderDrop = 0) or P_{n−1}(a) (orderDrop = 1): x part and λ part.
  void evaluate(double a, VecX& x, double& lambda, int orderDrop = 0) const;
  /// The x part / the λ part of P_n(a) alone.
  VecX x(double a) const;
  double lambda(double a) const;
  /// Denominator D_{n−1−orderDrop}(a) of P_{n−orderDrop}.
  double denominator(double a, int orderDrop = 0) const;
  /// The smallest positive real root of D_{n−1} in (0, aMax], or aMax when there is none there.
  double firstPole(double aMax) const;
  /// a_p of eq. 31 in (aLow, 0.99 × pole]; aLow when the criterion fails already just above aLow.
  double range(double aLow, double epsilon) const;

 private:
  const std::vector<double>& den(int orderDrop) const { return orderDrop ? dPrev_ : d_; }
  static std::vector<double> denominatorCoefficients(const Eigen::MatrixXd& alpha, int n);
  /// The weights w_i = D_{m−1−i}(a) / D_{m−1}(a) a^i (i = 1..m−1) of P_m, m = n − orderDrop.
  std::vector<double> weights(double a, int orderDrop) const;
  std::vector<VecX> x_;           // x_0..x_n (copies: the approximant outlives nothing)
  std::vector<double> lambda_;
  int n_ = 0;
  std::vector<double> d_, dPrev_;   // d_0..d_{n−1} of P_n and d_0..d_{n−2} of P_{n−1}
};

}  // namespace mechsim::anm
