#pragma once
// core/anm/series.h — truncated power series arithmetic for the asymptotic numerical method
// (paper 004 §5, notes §2.3): a function of the path parameter a is carried as its Taylor
// coefficients f(a) = Σ_{i=0..N} f_i a^i, and every operation gives the coefficients of its result
// up to the same order N. The propagation rules (orders < k known, "slope" = the term in the
// order-k input, "bias" = the rest, Proposition 1 of paper 004):
//   sum          (x ± y)_k = x_k ± y_k
//   product      (x y)_k   = x_0 y_k + x_k y_0 + Σ_{i=1}^{k−1} x_i y_{k−i}          (Cauchy product)
//   quotient     f = x/y:  f_k = (x_k − Σ_{i=1}^{k} f_{k−i} y_i) / y_0
//   square root  f = √x:   f_k = (x_k − Σ_{i=1}^{k−1} f_i f_{k−i}) / (2 f_0)        (from f² = x)
// The mechanism's constraint equations are polynomials of degree ≤ 4 in the coordinates (R(p) is
// quadratic in the quaternion, joint equations are dot products of rotated vectors), so their
// series are exact; only a driven distance joint's |d| needs the square-root rule.
// The coefficient-level functions (productCoeff, sqrtCoeff) serve the order-by-order evaluation of
// constraint_graph.cpp; the Series class serves small problems (circle_ellipse.cpp) and tests.
#include <cassert>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace mechsim::anm {

/// Coefficient k of the Cauchy product of two coefficient sequences (x y)_k = Σ_{i=0}^k x_i y_{k−i}.
/// T, U may be double or vectors (then `dot` gives the product of two entries).
template <class T, class U, class Mul>
inline auto productCoeff(const T* x, const U* y, int k, Mul mul) {
  auto s = mul(x[0], y[k]);
  for (int i = 1; i <= k; ++i) s += mul(x[i], y[k - i]);
  return s;
}
inline double productCoeff(const double* x, const double* y, int k) {
  double s = 0;
  for (int i = 0; i <= k; ++i) s += x[i] * y[k - i];
  return s;
}

/// Coefficient k ≥ 1 of f = √x from x_0..x_k and f_0..f_{k−1} (f_0 = √x_0 > 0).
inline double sqrtCoeff(const double* x, const double* f, int k) {
  double s = x[k];
  for (int i = 1; i < k; ++i) s -= f[i] * f[k - i];
  return s / (2.0 * f[0]);
}

/// A truncated power series Σ_{i=0..N} c_i a^i (all operands of one expression share N).
class Series {
 public:
  Series() = default;
  /// Zero series of order n (n + 1 coefficients).
  explicit Series(int n) : c_(static_cast<size_t>(n) + 1, 0.0) {}
  /// The constant v (order n).
  static Series constant(int n, double v) {
    Series s(n);
    s.c_[0] = v;
    return s;
  }
  /// From coefficients (order = size − 1).
  static Series fromCoefficients(std::vector<double> c) {
    Series s;
    s.c_ = std::move(c);
    return s;
  }
  int order() const { return static_cast<int>(c_.size()) - 1; }
  double& operator[](int i) { return c_[static_cast<size_t>(i)]; }
  double operator[](int i) const { return c_[static_cast<size_t>(i)]; }
  const std::vector<double>& coefficients() const { return c_; }

  /// Value at a (Horner).
  double operator()(double a) const {
    double v = 0;
    for (int i = order(); i >= 0; --i) v = v * a + c_[static_cast<size_t>(i)];
    return v;
  }
  /// Derivative d/da at a.
  double derivative(double a) const {
    double v = 0;
    for (int i = order(); i >= 1; --i) v = v * a + i * c_[static_cast<size_t>(i)];
    return v;
  }

  Series& operator+=(const Series& o) {
    check(o);
    for (size_t i = 0; i < c_.size(); ++i) c_[i] += o.c_[i];
    return *this;
  }
  Series& operator-=(const Series& o) {
    check(o);
    for (size_t i = 0; i < c_.size(); ++i) c_[i] -= o.c_[i];
    return *this;
  }
  Series& operator*=(double s) {
    for (double& v : c_) v *= s;
    return *this;
  }
  friend Series operator+(Series x, const Series& y) { return x += y; }
  friend Series operator-(Series x, const Series& y) { return x -= y; }
  friend Series operator*(Series x, double s) { return x *= s; }
  friend Series operator*(double s, Series x) { return x *= s; }
  friend Series operator+(Series x, double s) {
    x.c_[0] += s;
    return x;
  }
  friend Series operator-(Series x, double s) {
    x.c_[0] -= s;
    return x;
  }
  /// Cauchy product, truncated at the common order.
  friend Series operator*(const Series& x, const Series& y) {
    x.check(y);
    Series f(x.order());
    for (int k = 0; k <= f.order(); ++k) f.c_[k] = productCoeff(x.c_.data(), y.c_.data(), k);
    return f;
  }
  /// Quotient x / y (y_0 ≠ 0).
  friend Series operator/(const Series& x, const Series& y) {
    x.check(y);
    if (y.c_[0] == 0.0) throw std::domain_error("Series: division by a series with zero constant term");
    Series f(x.order());
    for (int k = 0; k <= f.order(); ++k) {
      double s = x.c_[k];
      for (int i = 1; i <= k; ++i) s -= f.c_[k - i] * y.c_[i];
      f.c_[k] = s / y.c_[0];
    }
    return f;
  }
  /// √x (x_0 > 0).
  friend Series sqrt(const Series& x) {
    if (!(x.c_[0] > 0.0)) throw std::domain_error("Series: square root of a series with non-positive constant term");
    Series f(x.order());
    f.c_[0] = std::sqrt(x.c_[0]);
    for (int k = 1; k <= f.order(); ++k) f.c_[k] = sqrtCoeff(x.c_.data(), f.c_.data(), k);
    return f;
  }

 private:
  void check(const Series& o) const {
    if (o.c_.size() != c_.size()) throw std::invalid_argument("Series: operands of different orders");
  }
  std::vector<double> c_;
};

}  // namespace mechsim::anm
