// core/contact/lcp.cpp — the contact LCP of paper 000 eq. 1-3: rows, M̂ = M⁻¹Jᵀ, A λ + q through J,
// the residual RES of eq. 24, the dense A of Method 2.2, the packed rows of the sparse sweeps.
#include "core/contact/lcp.h"

#include "core/contact/sweeps.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace mechsim::contact {

bool LcpProblem::boxed() const {
  for (int i = 0; i < rows(); ++i)
    if (frictionOf[i] >= 0 || lo[i] != 0.0 || hi[i] != kInf) return true;
  return false;
}

int LcpProblem::addRow(int a, const double* ja, int bb, const double* jb, double bias, double lower, double upper) {
  const int i = rows();
  bodyA.push_back(a);
  bodyB.push_back(bb);
  for (int k = 0; k < dof; ++k) {
    jA.push_back(a >= 0 ? ja[k] : 0.0);
    jB.push_back(bb >= 0 ? jb[k] : 0.0);
  }
  b.conservativeResize(i + 1);
  lo.conservativeResize(i + 1);
  hi.conservativeResize(i + 1);
  b[i] = bias;
  lo[i] = lower;
  hi[i] = upper;
  frictionOf.push_back(-1);
  mu.push_back(0.0);
  return i;
}

int LcpProblem::addFrictionRow(int normalRow, double frictionCoefficient, int a, const double* ja, int bb,
                               const double* jb, double bias) {
  const int i = addRow(a, ja, bb, jb, bias, -kInf, kInf);
  frictionOf[i] = normalRow;
  mu[i] = frictionCoefficient;
  return i;
}

void LcpProblem::validate() const {
  auto fail = [](const std::string& what) { throw std::invalid_argument("contact LCP: " + what); };
  if (dof != 3 && dof != 6) fail("dof per body must be 3 (planar) or 6 (spatial)");
  if (bodies < 0) fail("negative body count");
  if (static_cast<int>(invMass.size()) != bodies * dof * dof) fail("M⁻¹ blocks: wrong size");
  if (v.size() != size()) fail("v: wrong size");
  const int m = rows();
  if (static_cast<int>(bodyA.size()) != m || static_cast<int>(bodyB.size()) != m ||
      static_cast<int>(jA.size()) != m * dof || static_cast<int>(jB.size()) != m * dof || lo.size() != m ||
      hi.size() != m || static_cast<int>(frictionOf.size()) != m || static_cast<int>(mu.size()) != m)
    fail("row arrays of different lengths");
  if (cfm.size() != 0 && (cfm.size() != m || !cfm.allFinite() || cfm.minCoeff() < 0))
    fail("cfm: want m finite values ≥ 0 (or none)");
  for (double x : invMass)
    if (!std::isfinite(x)) fail("M⁻¹ not finite");
  if (!v.allFinite() || !b.allFinite()) fail("v or b not finite");
  auto rowName = [](int i) { return "row " + std::to_string(i) + ": "; };
  for (int i = 0; i < m; ++i) {
    if (bodyA[i] < -1 || bodyA[i] >= bodies || bodyB[i] < -1 || bodyB[i] >= bodies)
      fail(rowName(i) + "body index out of range");
    if (std::isnan(lo[i]) || std::isnan(hi[i]) || lo[i] > hi[i]) fail(rowName(i) + "lower bound above upper bound");
    if (frictionOf[i] >= i || frictionOf[i] < -1) fail(rowName(i) + "friction row must follow its normal row");
    if (frictionOf[i] >= 0 && !(mu[i] >= 0.0 && std::isfinite(mu[i])))
      fail(rowName(i) + "friction coefficient not ≥ 0");
  }
  // Only with every body index in range may the M⁻¹ blocks be read.
  LcpPrecomputed pre;
  precompute(*this, pre);
  for (int i = 0; i < m; ++i)
    if (!(pre.diag[i] > 0.0) || !std::isfinite(pre.diag[i]))
      fail(rowName(i) + "A_ii = J_i M⁻¹ J_iᵀ is not positive (empty row or infinite mass on both sides)");
}

void precompute(const LcpProblem& p, LcpPrecomputed& out) {
  const int m = p.rows(), d = p.dof;
  out.mA.assign(static_cast<std::size_t>(m) * d, 0.0);
  out.mB.assign(static_cast<std::size_t>(m) * d, 0.0);
  out.diag.setZero(m);
  for (int i = 0; i < m; ++i) {
    // Column i of M̂ = M⁻¹Jᵀ: the two blocks M⁻¹_k J_ikᵀ (nnz(M̂) ≤ 3 nnz(J), §3)
    double aii = 0;
    for (int s = 0; s < 2; ++s) {
      const int body = s == 0 ? p.bodyA[i] : p.bodyB[i];
      if (body < 0) continue;
      const double* j = (s == 0 ? p.jA.data() : p.jB.data()) + static_cast<std::size_t>(i) * d;
      double* mj = (s == 0 ? out.mA.data() : out.mB.data()) + static_cast<std::size_t>(i) * d;
      const double* w = p.invMass.data() + static_cast<std::size_t>(body) * d * d;
      for (int r = 0; r < d; ++r) {
        double sum = 0;
        for (int c = 0; c < d; ++c) sum += w[r * d + c] * j[c];
        mj[r] = sum;
        aii += j[r] * sum;
      }
    }
    out.diag[i] = aii + (p.cfm.size() ? p.cfm[i] : 0.0);
  }
}

void appliedVelocity(const LcpProblem& p, const LcpPrecomputed& pre, const VecX& lambda, VecX& vhat) {
  const int d = p.dof;
  vhat = p.v;
  for (int i = 0; i < p.rows(); ++i) {
    const double l = lambda[i];
    if (l == 0.0) continue;
    if (p.bodyA[i] >= 0)
      for (int k = 0; k < d; ++k) vhat[p.bodyA[i] * d + k] += pre.mA[i * d + k] * l;
    if (p.bodyB[i] >= 0)
      for (int k = 0; k < d; ++k) vhat[p.bodyB[i] * d + k] += pre.mB[i * d + k] * l;
  }
}

void slack(const LcpProblem& p, const LcpPrecomputed& pre, const VecX& lambda, VecX& w) {
  VecX vhat;
  appliedVelocity(p, pre, lambda, vhat);
  const int d = p.dof;
  w.resize(p.rows());
  for (int i = 0; i < p.rows(); ++i) {
    double s = p.b[i];
    if (p.bodyA[i] >= 0)
      for (int k = 0; k < d; ++k) s += p.jA[i * d + k] * vhat[p.bodyA[i] * d + k];
    if (p.bodyB[i] >= 0)
      for (int k = 0; k < d; ++k) s += p.jB[i * d + k] * vhat[p.bodyB[i] * d + k];
    if (p.cfm.size()) s += p.cfm[i] * lambda[i];
    w[i] = s;
  }
}

double residualFromSlack(const LcpProblem& p, const VecX& lambda, const VecX& w) {
  // eq. 24: ‖min{λ, w}‖ for [0, ∞) rows; ‖λ − mid(l, λ − w, u)‖ for boxed rows
  double sum = 0;
  for (int i = 0; i < p.rows(); ++i) {
    double l, u;
    rowBounds(p, lambda, i, l, u);
    const double r = lambda[i] - std::min(std::max(lambda[i] - w[i], l), u);
    sum += r * r;
  }
  return std::sqrt(sum);
}

double residual(const LcpProblem& p, const LcpPrecomputed& pre, const VecX& lambda) {
  VecX w;
  slack(p, pre, lambda, w);
  return residualFromSlack(p, lambda, w);
}

SpMat jacobian(const LcpProblem& p) {
  const int d = p.dof;
  std::vector<Triplet> t;
  t.reserve(static_cast<std::size_t>(p.rows()) * 2 * d);
  for (int i = 0; i < p.rows(); ++i)
    for (int k = 0; k < d; ++k) {
      if (p.bodyA[i] >= 0) t.emplace_back(i, p.bodyA[i] * d + k, p.jA[i * d + k]);
      if (p.bodyB[i] >= 0) t.emplace_back(i, p.bodyB[i] * d + k, p.jB[i * d + k]);
    }
  SpMat J(p.rows(), p.size());
  J.setFromTriplets(t.begin(), t.end());
  return J;
}

SpMat inverseMass(const LcpProblem& p) {
  const int d = p.dof;
  std::vector<Triplet> t;
  for (int k = 0; k < p.bodies; ++k)
    for (int r = 0; r < d; ++r)
      for (int c = 0; c < d; ++c) {
        const double x = p.invMass[static_cast<std::size_t>(k) * d * d + r * d + c];
        if (x != 0.0) t.emplace_back(k * d + r, k * d + c, x);
      }
  SpMat W(p.size(), p.size());
  W.setFromTriplets(t.begin(), t.end());
  return W;
}

void formDense(const LcpProblem& p, MatX& A, VecX& q) {
  // A = J M⁻¹ Jᵀ by a sparse product (J has ≤ 2d entries per row), then stored dense as Method 2.2 reads it.
  const SpMat J = jacobian(p);
  const SpMat Mhat = inverseMass(p) * SpMat(J.transpose());
  const SpMat As = J * Mhat;
  A = MatX(As);
  if (p.cfm.size()) A.diagonal() += p.cfm;
  q = J * p.v + p.b;
}

namespace detail {

void pack(const LcpProblem& p, const LcpPrecomputed& pre, const VecX& c0, const VecX& c1, const std::vector<int>& order,
          PackedRows& out) {
  const int m = p.rows(), d = p.dof;
  out.dof = d;
  out.stride = 4 * d + 4;
  out.rows = m;
  out.boxed = p.boxed();
  out.row = order;
  out.body.resize(2 * static_cast<std::size_t>(m));
  out.data.resize(static_cast<std::size_t>(m) * out.stride);
  for (int k = 0; k < m; ++k) {
    const int i = order[k];
    out.body[2 * k] = p.bodyA[i] >= 0 ? p.bodyA[i] : p.bodies;  // fixed side → the zero block N
    out.body[2 * k + 1] = p.bodyB[i] >= 0 ? p.bodyB[i] : p.bodies;
    double* r = out.data.data() + static_cast<std::size_t>(k) * out.stride;
    for (int k = 0; k < d; ++k) {
      r[k] = p.bodyA[i] >= 0 ? p.jA[i * d + k] : 0.0;
      r[d + k] = p.bodyB[i] >= 0 ? p.jB[i * d + k] : 0.0;
      r[2 * d + k] = pre.mA[i * d + k];
      r[3 * d + k] = pre.mB[i * d + k];
    }
    r[4 * d] = p.b[i];
    r[4 * d + 1] = c0[i];
    r[4 * d + 2] = c1.size() ? c1[i] : 0.0;
    r[4 * d + 3] = p.cfm.size() ? p.cfm[i] : 0.0;
  }
}

}  // namespace detail

}  // namespace mechsim::contact
