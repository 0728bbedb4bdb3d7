// reference/anm/deform_static.cpp — ANM continuation of the static equilibrium of a tet mesh under
// handle motion and gravity (the homotopy and the series rules are in deform_static.h).
#include "reference/anm/deform_static.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "core/anm/polar_series.h"
#include "core/deform/hd/element.h"
#include "core/max_abs.h"

namespace mechsim::anm {
namespace {

using deform::DeformableModel;

/// C(A, B)_rc = A_{r+1,c+1} B_{r+2,c+2} − A_{r+1,c+2} B_{r+2,c+1} (indices mod 3): the bilinear form
/// with C(F, F) = cof F.
Mat3 cofBilinear(const Mat3& A, const Mat3& B) {
  Mat3 C;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      const int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
      C(r, c) = A(r1, c1) * B(r2, c2) - A(r1, c2) * B(r2, c1);
    }
  return C;
}

/// Shape-function gradients b_a (rows of a 4×3 matrix) of tet t.
Eigen::Matrix<double, 4, 3> shapeGradients(const DeformableModel& m, int t) {
  double b[12];
  deform::hd::shapeGradients(&m.Bm[9 * std::size_t(t)], b);
  Eigen::Matrix<double, 4, 3> B;
  for (int a = 0; a < 4; ++a)
    for (int c = 0; c < 3; ++c) B(a, c) = b[3 * a + c];
  return B;
}

/// F = Σ_a X_a b_aᵀ for the tet's vertices in X (3 nv).
Mat3 deformationGradient(const DeformableModel& m, const VecX& X, int t, const Eigen::Matrix<double, 4, 3>& B) {
  Mat3 F = Mat3::Zero();
  const auto& e = m.mesh.tets[std::size_t(t)];
  for (int a = 0; a < 4; ++a) F += X.segment<3>(3 * e[a]) * B.row(a);
  return F;
}

double forceScale(const DeformableModel& m) { return m.mu() * m.extent * m.extent; }

}  // namespace

VecX staticResidual(const DeformableModel& m, const VecX& x, double gravityScale) {
  // Element gradients of the production element code (hd::elementEval), assembled on free vertices.
  deform::ElementCache c;
  deform::evalElements(m, x, c, false);
  VecX r = VecX::Zero(3 * m.freeCount());
  for (int t = 0; t < m.tetCount(); ++t) {
    const auto& e = m.mesh.tets[std::size_t(t)];
    for (int a = 0; a < 4; ++a) {
      const int f = m.freeIndex[std::size_t(e[a])];
      if (f < 0) continue;
      for (int k = 0; k < 3; ++k) r(3 * f + k) += c.g[12 * std::size_t(t) + 3 * a + k];
    }
  }
  for (int i = 0; i < m.freeCount(); ++i)
    r.segment<3>(3 * i) -= gravityScale * m.mass[std::size_t(m.freeVertices[std::size_t(i)])] * m.gravity;
  return r;
}

StaticDeformHomotopy::StaticDeformHomotopy(const DeformableModel& m, const VecX& xk, const VecX& dp, double s0,
                                           double ds, int order, bool correct)
    : m_(m), x0_(xk), dp_(dp), mu_(m.mu()), la_(m.lambda()), arap_(m.material.kind == deform::hd::kArap),
      order_(order) {
  const int nt = m.tetCount();
  X_.assign(std::size_t(order) + 1, VecX::Zero(xk.size()));
  X_[0] = xk;
  F_.assign(std::size_t(order) + 1, std::vector<Mat3>(std::size_t(nt), Mat3::Zero()));
  C_ = F_;  // neo-Hookean: cof F_i; ARAP: R_i
  s_.assign(std::size_t(order) + 1, std::vector<double>(std::size_t(nt), 0.0));
  if (arap_) polar_.resize(std::size_t(nt));
  bool differentiable = true;
  for (int t = 0; t < nt; ++t) {
    const Mat3 F = deformationGradient(m, xk, t, shapeGradients(m, t));
    F_[0][std::size_t(t)] = F;
    if (arap_) {
      polar_[std::size_t(t)] = polarSeriesBase(F);
      C_[0][std::size_t(t)] = polar_[std::size_t(t)].R0;
      differentiable = differentiable && polar_[std::size_t(t)].ok;
      continue;
    }
    C_[0][std::size_t(t)] = cofBilinear(F, F);
    const double J = F.row(0).dot(C_[0][std::size_t(t)].row(0));
    s_[0][std::size_t(t)] = la_ * (J - 1) - mu_;
  }
  // P = ∂R/∂x: the exact (unprojected) elastic Hessian on the free vertices (assembleHessian adds
  // the inertia M/h², removed again: the static problem has none).
  deform::ElementCache c;
  deform::evalElements(m, xk, c, true, /*project=*/false);
  SpMat K = deform::assembleHessian(m, c);
  const double invH2 = 1.0 / (m.h * m.h);
  for (int i = 0; i < m.freeCount(); ++i)
    for (int r = 0; r < 3; ++r) K.coeffRef(3 * i + r, 3 * i + r) -= invH2 * m.mass[std::size_t(m.freeVertices[std::size_t(i)])];
  lu_.compute(K);
  ok_ = differentiable && lu_.info() == Eigen::Success;
  // v = ∂H/∂μ = K_xp Δp − Δs M g + R(x_k): K_xp Δp from the element Hessians.
  v_ = VecX::Zero(3 * m.freeCount());
  for (int t = 0; t < nt; ++t) {
    const auto& e = m.mesh.tets[std::size_t(t)];
    Eigen::Matrix<double, 12, 1> d = Eigen::Matrix<double, 12, 1>::Zero();
    bool any = false;
    for (int b = 0; b < 4; ++b)
      if (m.prescribed[std::size_t(e[b])]) {
        d.segment<3>(3 * b) = dp.segment<3>(3 * e[b]);
        any = true;
      }
    if (!any) continue;
    const Eigen::Map<const Eigen::Matrix<double, 12, 12, Eigen::RowMajor>> He(&c.H[144 * std::size_t(t)]);
    const Eigen::Matrix<double, 12, 1> f = He * d;
    for (int a = 0; a < 4; ++a) {
      const int fi = m.freeIndex[std::size_t(e[a])];
      if (fi >= 0) v_.segment<3>(3 * fi) += f.segment<3>(3 * a);
    }
  }
  for (int i = 0; i < m.freeCount(); ++i)
    v_.segment<3>(3 * i) -= ds * m.mass[std::size_t(m.freeVertices[std::size_t(i)])] * m.gravity;
  if (correct) v_ += staticResidual(m, xk, s0);
}

void StaticDeformHomotopy::solve(const VecX& b, VecX& x) { x = lu_.solve(b); }

VecX StaticDeformHomotopy::fullPositions(const VecX& xFree, double mu) const {
  VecX x = x0_;
  for (int v = 0; v < m_.vertexCount(); ++v) {
    const int f = m_.freeIndex[std::size_t(v)];
    if (f >= 0)
      x.segment<3>(3 * v) = xFree.segment<3>(3 * f);
    else
      x.segment<3>(3 * v) += mu * dp_.segment<3>(3 * v);
  }
  return x;
}

VecX StaticDeformHomotopy::freeCoordinates(const VecX& x) const {
  VecX f(3 * m_.freeCount());
  for (int i = 0; i < m_.freeCount(); ++i) f.segment<3>(3 * i) = x.segment<3>(3 * m_.freeVertices[std::size_t(i)]);
  return f;
}

void StaticDeformHomotopy::tetForce(int k, bool biasOnly, VecX& q) {
  // Coefficient k of the elastic forces; biasOnly: with F_k = 0 (orders < k pushed), else the stored
  // exact coefficients of order k are computed (and kept) first.
  q = VecX::Zero(3 * m_.freeCount());
  const std::size_t K = std::size_t(k);
  for (int t = 0; t < m_.tetCount(); ++t) {
    const std::size_t T = std::size_t(t);
    const Eigen::Matrix<double, 4, 3> B = shapeGradients(m_, t);
    const Mat3 Fk = biasOnly ? Mat3::Zero() : deformationGradient(m_, X_[K], t, B);
    Mat3 P;
    if (arap_) {
      // ARAP: P_k = 2μ (F_k − R_k), R_k from the polar series (polar_series.h).
      const Mat3 Rk = polarRotationCoeff(
          polar_[T], Fk, [&](int i) -> const Mat3& { return F_[std::size_t(i)][T]; },
          [&](int i) -> const Mat3& { return C_[std::size_t(i)][T]; }, k);
      P = 2 * mu_ * (Fk - Rk);
      if (!biasOnly) {
        F_[K][T] = Fk;
        C_[K][T] = Rk;
      }
    } else {
      // cof_k = Σ_{i=0}^{k} C(F_i, F_{k−i}) (F_k enters at i = 0 and i = k).
      Mat3 cof = cofBilinear(F_[0][T], Fk) + cofBilinear(Fk, F_[0][T]);
      for (int i = 1; i < k; ++i) cof += cofBilinear(F_[std::size_t(i)][T], F_[K - std::size_t(i)][T]);
      // J_k = Σ_{i=0}^{k} F_i(0,:) · cof_{k−i}(0,:).
      double J = F_[0][T].row(0).dot(cof.row(0)) + Fk.row(0).dot(C_[0][T].row(0));
      for (int i = 1; i < k; ++i) J += F_[std::size_t(i)][T].row(0).dot(C_[K - std::size_t(i)][T].row(0));
      const double sk = la_ * J;
      // P_k = μ F_k + Σ_i s_i cof_{k−i}.
      P = mu_ * Fk + s_[0][T] * cof + sk * C_[0][T];
      for (int i = 1; i < k; ++i) P += s_[std::size_t(i)][T] * C_[K - std::size_t(i)][T];
      if (!biasOnly) {
        F_[K][T] = Fk;
        C_[K][T] = cof;
        s_[K][T] = sk;
      }
    }
    // Nodal forces V Σ_c P_rc b_a[c] at the free vertices.
    const auto& e = m_.mesh.tets[T];
    const double V = m_.volume[T];
    for (int a = 0; a < 4; ++a) {
      const int f = m_.freeIndex[std::size_t(e[a])];
      if (f >= 0) q.segment<3>(3 * f) += V * (P * B.row(a).transpose());
    }
  }
}

void StaticDeformHomotopy::bias(int k, VecX& q) {
  X_[std::size_t(k)].setZero();
  tetForce(k, true, q);
}

void StaticDeformHomotopy::push(int k, const VecX& xk, double muk) {
  VecX& X = X_[std::size_t(k)];
  for (int v = 0; v < m_.vertexCount(); ++v) {
    const int f = m_.freeIndex[std::size_t(v)];
    X.segment<3>(3 * v) = f >= 0 ? VecX(xk.segment<3>(3 * f)) : VecX(muk * dp_.segment<3>(3 * v));
  }
  VecX unused;
  tetForce(k, false, unused);  // stores F_k, cof_k, s_k
}

StaticDeformResult solveStaticAnm(const DeformableModel& m, const VecX& x0, double s0, const VecX& p1, double s1,
                                  const StaticDeformOptions& opt) {
  const int n = 3 * m.vertexCount();
  if (x0.size() != n || p1.size() != n)
    throw std::invalid_argument("ANM static deformation: positions must have 3 entries per vertex");
  if (!x0.allFinite() || !p1.allFinite() || !std::isfinite(s0) || !std::isfinite(s1))
    throw std::invalid_argument("ANM static deformation: non-finite input");
  StaticDeformResult res;
  const double scale = forceScale(m);
  VecX x = x0, p0 = x0;
  double lambda = 0;
  auto prescribedAt = [&](double l) {  // p(λ) on prescribed entries
    VecX p = x;
    for (int v = 0; v < m.vertexCount(); ++v)
      if (m.prescribed[std::size_t(v)]) p.segment<3>(3 * v) = p0.segment<3>(3 * v) + l * (p1 - p0).segment<3>(3 * v);
    return p;
  };
  for (;;) {
    const double s = s0 + lambda * (s1 - s0);
    res.residual = maxAbs(staticResidual(m, x, s)) / scale;
    const bool atEnd = lambda >= 1.0 - 1e-14;
    if (atEnd && res.residual < opt.tolerance) {
      res.converged = true;
      break;
    }
    if (res.steps >= opt.maxSteps) {
      std::ostringstream os;
      os << "ANM static deformation: " << opt.maxSteps << " steps, lambda = " << lambda << ", residual "
         << res.residual;
      res.message = os.str();
      break;
    }
    const VecX dp = atEnd ? VecX(VecX::Zero(n)) : VecX(prescribedAt(1.0) - x);
    const double ds = atEnd ? 0.0 : s1 - s;
    StaticDeformHomotopy h(m, x, dp, s, ds, opt.anm.order, true);
    if (!h.factorised()) {
      res.message = "ANM static deformation: the tangent stiffness is singular (or an ARAP element is flattened, "
                    "where its rotation has no series)";
      break;
    }
    AnmSeries series;
    try {
      series = expandSeries(h, h.freeCoordinates(x), 0.0, opt.anm);
    } catch (const std::exception& e) {
      res.message = std::string("ANM static deformation: ") + e.what();
      break;
    }
    ++res.steps;
    res.solves += series.solves;
    const double a = series.stepTo(1.0);
    const double mu = std::min(series.lambdaAt(a), 1.0);
    x = h.fullPositions(series.xAt(a), mu);
    if (!x.allFinite()) {
      res.message = "ANM static deformation: non-finite positions";
      break;
    }
    if (!atEnd) lambda = mu >= 1.0 - 1e-12 ? 1.0 : lambda + mu * (1.0 - lambda);
  }
  res.x = x;
  res.lambda = lambda;
  return res;
}

}  // namespace mechsim::anm
