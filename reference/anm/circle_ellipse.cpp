// reference/anm/circle_ellipse.cpp — paper 004 §5.1 toy problem (see the header). The series of f_e and
// f_c along x(a) come from the Series arithmetic (series.h); P is the 2×2 Jacobian of f, factorised
// once per step (dense LU).
#include "reference/anm/circle_ellipse.h"

#include <Eigen/LU>
#include <cmath>

#include "core/anm/series.h"

namespace mechsim::anm {

Eigen::Vector2d circleEllipseF(const Eigen::Vector2d& p) {
  const double x = p.x(), y = p.y();
  return {2 * x * x - 5 * x + y * y - 4 * y - 2 * x * y - 5, (x + 1) * (x + 1) + y * y - 8};
}

namespace {

Eigen::Matrix2d jacobianF(const Eigen::Vector2d& p) {
  const double x = p.x(), y = p.y();
  Eigen::Matrix2d J;
  J << 4 * x - 5 - 2 * y, 2 * y - 4 - 2 * x, 2 * (x + 1), 2 * y;
  return J;
}

double residualOf(const Eigen::Vector2d& p) { return std::sqrt(circleEllipseF(p).squaredNorm() / 2); }

/// H(x, λ) = f(x) + λ v + c with f = (f_e, f_c): linear in λ, so the bias is f's order-k
/// coefficient with x_k = 0 (the constant c only enters order 0).
class Toy : public AnmProblem {
 public:
  Toy(const Eigen::Vector2d& x0, const Eigen::Vector2d& v, int order) : v_(v), lu_(jacobianF(x0)), n_(order) {
    xs_.assign(static_cast<size_t>(order) + 1, 0.0);
    ys_.assign(static_cast<size_t>(order) + 1, 0.0);
    xs_[0] = x0.x();
    ys_[0] = x0.y();
  }
  void lambdaColumn(VecX& v) override { v = v_; }
  void solve(const VecX& b, VecX& x) override { x = lu_.solve(Eigen::Vector2d(b)); }
  void bias(int k, VecX& q) override {
    // Series of x(a), y(a) truncated at order k with the order-k coefficients zero.
    std::vector<double> cx(xs_.begin(), xs_.begin() + k + 1), cy(ys_.begin(), ys_.begin() + k + 1);
    cx[static_cast<size_t>(k)] = cy[static_cast<size_t>(k)] = 0;
    const Series X = Series::fromCoefficients(cx), Y = Series::fromCoefficients(cy);
    const Series fe = 2.0 * (X * X) - 5.0 * X + Y * Y - 4.0 * Y - 2.0 * (X * Y) - 5.0;
    const Series Xp = X + 1.0;
    const Series fc = Xp * Xp + Y * Y - 8.0;
    q.resize(2);
    q << fe[k], fc[k];
  }
  void push(int k, const VecX& xk, double) override {
    xs_[static_cast<size_t>(k)] = xk(0);
    ys_[static_cast<size_t>(k)] = xk(1);
  }

 private:
  Eigen::Vector2d v_;
  Eigen::PartialPivLU<Eigen::Matrix2d> lu_;
  int n_;
  std::vector<double> xs_, ys_;
};

}  // namespace

CircleEllipseRun circleEllipseAnm(bool errorCorrecting, const AnmOptions& opt, double tolerance, int maxSteps) {
  CircleEllipseRun run;
  Eigen::Vector2d x(0, -1);
  double lambda = 0;          // the plain homotopy's λ
  bool reached = false;
  for (int step = 0; step < maxSteps; ++step) {
    // Plain: H = (f_e, f_c + 6) + λ (0, −6) at (x, λ). Corrected: H_k = G(x) − (1 − μ) G(x_k) =
    // G(x) − G(x_k) + μ G(x_k) with G = f, μ from 0.
    const Eigen::Vector2d v = errorCorrecting ? circleEllipseF(x) : Eigen::Vector2d(0, -6);
    const double l0 = errorCorrecting ? 0.0 : lambda;
    Toy toy(x, v, opt.order);
    const AnmSeries s = expandSeries(toy, x, l0, opt);
    ++run.factorizations;
    run.solves += s.solves;
    const double a = s.stepTo(1.0);
    x = s.xAt(a);
    const double l = s.lambdaAt(a);
    if (!errorCorrecting) lambda = l;
    ++run.steps;
    run.lambdaAfterStep.push_back(l);
    run.residualAfterStep.push_back(residualOf(x));
    if (l >= 1.0 - 1e-12) reached = true;
    if (reached && (tolerance <= 0 || !errorCorrecting || residualOf(x) < tolerance)) break;
  }
  run.x = x;
  run.residual = residualOf(x);
  return run;
}

CircleEllipseRun circleEllipseNewton(int iterations) {
  CircleEllipseRun run;
  Eigen::Vector2d x(0, -1);
  for (int it = 0; it < iterations; ++it) {
    x -= jacobianF(x).partialPivLu().solve(circleEllipseF(x));
    ++run.steps;
    ++run.factorizations;
    ++run.solves;
    run.residualAfterStep.push_back(residualOf(x));
  }
  run.x = x;
  run.residual = residualOf(x);
  return run;
}

}  // namespace mechsim::anm
