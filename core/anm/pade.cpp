// core/anm/pade.cpp — vector Padé approximants of an ANM series (the formulas are in pade.h).
#include "core/anm/pade.h"

#include <algorithm>
#include <cmath>

namespace mechsim::anm {

std::vector<double> PadeApproximant::denominatorCoefficients(const Eigen::MatrixXd& alpha, int n) {
  // d_0 = 1, d_i = −(Σ_{j<i} α_{n−j, n−i} d_j) / α_{n−i, n−i}, i = 1..n−1 (alpha is 1-based here:
  // alpha(i, j) = α_ij).
  std::vector<double> d(static_cast<size_t>(n), 0.0);
  d[0] = 1.0;
  for (int i = 1; i <= n - 1; ++i) {
    double s = 0;
    for (int j = 0; j < i; ++j) s += alpha(n - j, n - i) * d[static_cast<size_t>(j)];
    d[static_cast<size_t>(i)] = -s / alpha(n - i, n - i);
  }
  return d;
}

PadeApproximant::PadeApproximant(const std::vector<VecX>& x, const std::vector<double>& lambda) {
  const int N = static_cast<int>(x.size()) - 1;
  if (N < 4) return;
  const int dim = static_cast<int>(x[0].size()) + 1;
  // Modified Gram–Schmidt on u_1..u_N; stop at the first u_k dependent on the previous ones.
  Eigen::MatrixXd Q(dim, N + 1), alpha = Eigen::MatrixXd::Zero(N + 1, N + 1);
  int n = N;
  for (int i = 1; i <= N; ++i) {
    VecX u(dim);
    u << x[static_cast<size_t>(i)], lambda[static_cast<size_t>(i)];
    const double un = u.norm();
    for (int j = 1; j < i; ++j) {
      alpha(i, j) = Q.col(j).dot(u);
      u -= alpha(i, j) * Q.col(j);
    }
    alpha(i, i) = u.norm();
    if (!(alpha(i, i) > 1e-10 * un)) {  // u_i ∈ span(u_1..u_{i−1}): order i is the highest
      n = i;
      break;
    }
    Q.col(i) = u / alpha(i, i);
  }
  if (n < 4) return;
  n_ = n;
  d_ = denominatorCoefficients(alpha, n);
  dPrev_ = denominatorCoefficients(alpha, n - 1);
  x_.assign(x.begin(), x.begin() + n);
  lambda_.assign(lambda.begin(), lambda.begin() + n);
  for (double v : d_)
    if (!std::isfinite(v)) n_ = 0;
  for (double v : dPrev_)
    if (!std::isfinite(v)) n_ = 0;
}

double PadeApproximant::denominator(double a, int orderDrop) const {
  const std::vector<double>& d = den(orderDrop);
  double v = 0;
  for (int i = static_cast<int>(d.size()) - 1; i >= 0; --i) v = v * a + d[static_cast<size_t>(i)];
  return v;
}

std::vector<double> PadeApproximant::weights(double a, int orderDrop) const {
  // P_m(a) = u_0 + Σ_{i=1}^{m−1} [D_{m−1−i}(a) / D_{m−1}(a)] u_i a^i, m = n − orderDrop; the partial
  // sums D_k(a), k = 0..m−1, are accumulated once.
  const std::vector<double>& d = den(orderDrop);
  const int m = n_ - orderDrop;
  std::vector<double> D(static_cast<size_t>(m), 0.0);
  double pw = 1, acc = 0;
  for (int k = 0; k < m; ++k) {
    acc += d[static_cast<size_t>(k)] * pw;
    D[static_cast<size_t>(k)] = acc;
    pw *= a;
  }
  std::vector<double> w(static_cast<size_t>(m), 0.0);
  double ai = 1;
  for (int i = 1; i <= m - 1; ++i) {
    ai *= a;
    w[static_cast<size_t>(i)] = D[static_cast<size_t>(m - 1 - i)] / D[static_cast<size_t>(m - 1)] * ai;
  }
  return w;
}

void PadeApproximant::evaluate(double a, VecX& x, double& lambda, int orderDrop) const {
  const std::vector<double> w = weights(a, orderDrop);
  x = x_[0];
  lambda = lambda_[0];
  for (size_t i = 1; i < w.size(); ++i) {
    x.noalias() += w[i] * x_[i];
    lambda += w[i] * lambda_[i];
  }
}

VecX PadeApproximant::x(double a) const {
  VecX v;
  double l;
  evaluate(a, v, l);
  return v;
}

double PadeApproximant::lambda(double a) const {
  const std::vector<double> w = weights(a, 0);
  double l = lambda_[0];
  for (size_t i = 1; i < w.size(); ++i) l += w[i] * lambda_[i];
  return l;
}

double PadeApproximant::firstPole(double aMax) const {
  // Sign change of D_{n−1} (D(0) = 1) on a fine grid, then bisection.
  constexpr int kSamples = 400;
  double prev = 0;
  for (int k = 1; k <= kSamples; ++k) {
    const double a = aMax * k / kSamples;
    if (denominator(a) <= 0) {
      double lo = prev, hi = a;
      for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (lo + hi);
        (denominator(mid) > 0 ? lo : hi) = mid;
      }
      return lo;
    }
    prev = a;
  }
  return aMax;
}

double PadeApproximant::range(double aLow, double epsilon) const {
  if (!valid() || !(aLow > 0)) return aLow;
  VecX xN, xM;
  double lN = 0, lM = 0;
  auto ok = [&](double a) {
    evaluate(a, xN, lN, 0);
    evaluate(a, xM, lM, 1);
    if (!xN.allFinite() || !xM.allFinite() || !std::isfinite(lN) || !std::isfinite(lM)) return false;
    const double diff = std::sqrt((xN - xM).squaredNorm() + (lN - lM) * (lN - lM));
    const double step = std::sqrt((xN - x_[0]).squaredNorm() + (lN - lambda_[0]) * (lN - lambda_[0]));
    return step > 0 && diff < epsilon * step;
  };
  // Search up to 0.99 of the pole of D_{n−1}, looked for within 10 a_r (beyond that the series
  // coefficients say nothing).
  const double hiMax = 0.99 * firstPole(10.0 * aLow);
  if (hiMax <= aLow) return aLow;
  if (ok(hiMax)) return hiMax;
  double lo = aLow, hi = hiMax;
  if (!ok(lo)) return aLow;
  for (int it = 0; it < 8; ++it) {
    const double mid = 0.5 * (lo + hi);
    (ok(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace mechsim::anm
