// core/anm/anm_step.cpp — Algorithm 1 of paper 004 (bordered order-by-order solve with one
// factorisation), the range of validity a_r (eq. 24) and the step length on λ(a) (see the header).
#include "core/anm/anm_step.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mechsim::anm {

VecX AnmSeries::xAt(double a) const {
  VecX v;
  if (usePade) {
    v = pade.x(a);
  } else {
    v = x.back();
    for (int i = order() - 1; i >= 0; --i) {
      v *= a;
      v += x[static_cast<size_t>(i)];
    }
  }
  return v;
}

double AnmSeries::lambdaAt(double a) const {
  if (usePade) return pade.lambda(a);
  double v = 0;
  for (int i = order(); i >= 0; --i) v = v * a + lambda[static_cast<size_t>(i)];
  return v;
}

double AnmSeries::lambdaRate(double a) const {
  if (usePade) {
    const double h = 1e-6 * std::max(range, 1e-12);
    return (lambdaAt(a + h) - lambdaAt(a - h)) / (2 * h);
  }
  double v = 0;
  for (int i = order(); i >= 1; --i) v = v * a + i * lambda[static_cast<size_t>(i)];
  return v;
}

double AnmSeries::stepTo(double target) const {
  // Scan (0, a_r] for the first crossing of λ = target (λ is increasing near a = 0, λ_1 > 0) and
  // remember the largest λ seen, in case a fold comes first.
  constexpr int kSamples = 64;
  double best = range, bestLambda = -1e300, prevA = 0, prevL = lambdaAt(0);
  for (int i = 1; i <= kSamples; ++i) {
    const double a = range * i / kSamples;
    const double l = lambdaAt(a);
    if (l >= target) {
      // Bisection on [prevA, a] (λ(prevA) < target ≤ λ(a)).
      double lo = prevA, hi = a;
      for (int it = 0; it < 100 && hi - lo > 1e-16 * std::max(1.0, hi); ++it) {
        const double mid = 0.5 * (lo + hi);
        (lambdaAt(mid) < target ? lo : hi) = mid;
      }
      return hi;
    }
    if (l > bestLambda) {
      bestLambda = l;
      best = a;
    }
    if (l < prevL) break;  // past a fold of λ: stop at the largest λ
    prevA = a;
    prevL = l;
  }
  return best;
}

double rangeOfValidity(const std::vector<VecX>& x, const std::vector<double>& lambda, double epsilon) {
  const int n = static_cast<int>(x.size()) - 1;
  if (n < 2) return 1.0;
  const double u1 = std::sqrt(x[1].squaredNorm() + lambda[1] * lambda[1]);
  const double uN = std::max(std::sqrt(x[static_cast<size_t>(n)].squaredNorm() + lambda[static_cast<size_t>(n)] *
                                                                                      lambda[static_cast<size_t>(n)]),
                             1e-15);
  const double ar = std::pow(epsilon * u1 / uN, 1.0 / (n - 1));
  return std::min(ar, std::pow(1e15, 1.0 / n));
}

AnmSeries expandSeries(AnmProblem& problem, const VecX& x0, double lambda0, const AnmOptions& opt) {
  if (opt.order < 2) throw std::invalid_argument("ANM: the truncation order must be at least 2");
  AnmSeries s;
  const int N = opt.order;
  s.x.assign(static_cast<size_t>(N) + 1, VecX());
  s.lambda.assign(static_cast<size_t>(N) + 1, 0.0);
  s.x[0] = x0;
  s.lambda[0] = lambda0;

  // Order 1: y = P⁺ v, λ_1 = 1/√(1 + |y|²) > 0, x_1 = −λ_1 y (|x_1|² + λ_1² = 1).
  VecX v, y, z, q;
  problem.lambdaColumn(v);
  problem.solve(v, y);
  ++s.solves;
  if (!y.allFinite()) throw std::runtime_error("ANM: the tangent is not finite (singular Jacobian)");
  s.lambda[1] = 1.0 / std::sqrt(1.0 + y.squaredNorm());
  s.x[1] = -s.lambda[1] * y;
  problem.push(1, s.x[1], s.lambda[1]);
  const double denom = s.lambda[1] - y.dot(s.x[1]);  // = λ_1 (1 + |y|²) > 0

  // Orders k ≥ 2: z = P⁺ q_k, λ_k = (z·x_1)/(λ_1 − y·x_1), x_k = −λ_k y − z.
  for (int k = 2; k <= N; ++k) {
    problem.bias(k, q);
    problem.solve(q, z);
    ++s.solves;
    const double lk = z.dot(s.x[1]) / denom;
    s.x[static_cast<size_t>(k)] = -lk * y - z;
    s.lambda[static_cast<size_t>(k)] = lk;
    if (!s.x[static_cast<size_t>(k)].allFinite() || !std::isfinite(lk))
      throw std::runtime_error("ANM: a series coefficient is not finite");
    problem.push(k, s.x[static_cast<size_t>(k)], lk);
  }
  s.range = s.seriesRange = rangeOfValidity(s.x, s.lambda, opt.epsilon);
  if (opt.pade) {
    // Algorithm 2: a_m = max(a_r, a_p), evaluated on the approximant that reaches it.
    s.pade = PadeApproximant(s.x, s.lambda);
    if (s.pade.valid()) {
      const double ap = s.pade.range(s.range, opt.epsilon);
      if (ap > s.range) {
        s.range = ap;
        s.usePade = true;
      }
    }
  }
  return s;
}

}  // namespace mechsim::anm
