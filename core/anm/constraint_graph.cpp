// core/anm/constraint_graph.cpp — order-by-order evaluation of the constraint expression graph
// (the propagation rules are listed in constraint_graph.h).
#include "core/anm/constraint_graph.h"

#include <cmath>
#include <stdexcept>

#include "core/anm/series.h"

namespace mechsim::anm {

namespace {
/// B(p, p') = (w w' − v·v') I + 2 v v'ᵀ + 2 w [v']× (the rotation formula's bilinear form; summed
/// over ordered pairs (i, j) with i + j = k it gives R_k).
Mat3 rotationBilinear(const Eigen::Vector4d& p, const Eigen::Vector4d& q) {
  const double w = p(0), w2 = q(0);
  const Vec3 v = p.tail<3>(), v2 = q.tail<3>();
  Mat3 x;
  x << 0, -v2.z(), v2.y(), v2.z(), 0, -v2.x(), -v2.y(), v2.x(), 0;
  return (w * w2 - v.dot(v2)) * Mat3::Identity() + 2.0 * v * v2.transpose() + 2.0 * w * x;
}
}  // namespace

ConstraintGraph::ConstraintGraph(const Model& m, int order) : m_(&m), order_(order), stride_(order + 1) {
  if (order < 0) throw std::invalid_argument("ConstraintGraph: negative order");
  const size_t nb = m.bodies.size();
  r_.assign(nb * stride_, Vec3::Zero());
  p_.assign(nb * stride_, Eigen::Vector4d::Zero());
  R_.assign(nb * stride_, Mat3::Zero());
}

int ConstraintGraph::add(Node n) {
  if (n.isVector) {
    n.slot = nv_++;
    vcoef_.resize(static_cast<size_t>(nv_) * stride_, Vec3::Zero());
  } else {
    n.slot = ns_++;
    scoef_.resize(static_cast<size_t>(ns_) * stride_, 0.0);
  }
  nodes_.push_back(n);
  return static_cast<int>(nodes_.size()) - 1;
}

int ConstraintGraph::direction(int body, const Vec3& a) {
  Node n{Kind::Direction};
  n.a = body;
  n.local = a;
  n.isVector = true;
  return add(n);
}
int ConstraintGraph::point(int body, const Vec3& s) {
  Node n{Kind::Point};
  n.a = body;
  n.local = s;
  n.isVector = true;
  return add(n);
}
int ConstraintGraph::difference(int u, int v) {
  Node n{Kind::Difference};
  n.a = u;
  n.b = v;
  n.isVector = true;
  return add(n);
}
int ConstraintGraph::component(int v, int i) {
  Node n{Kind::Component};
  n.a = v;
  n.b = i;
  return add(n);
}
int ConstraintGraph::dot(int u, int v) {
  Node n{Kind::Dot};
  n.a = u;
  n.b = v;
  return add(n);
}
int ConstraintGraph::combine(double alpha, int s, double beta, int t, double c) {
  Node n{Kind::Combine};
  n.a = s;
  n.b = t;
  n.alpha = alpha;
  n.beta = beta;
  n.c = c;
  return add(n);
}
int ConstraintGraph::norm(int v) {
  Node n{Kind::Sqrt};
  n.a = dot(v, v);
  return add(n);
}
int ConstraintGraph::quaternionNorm(int body) {
  if (m_->bodies.at(body).qIndex < 0) throw std::invalid_argument("ConstraintGraph: normalisation of a fixed body");
  Node n{Kind::QuatNorm};
  n.a = body;
  return add(n);
}

int ConstraintGraph::product(int s, int t) {
  Node n{Kind::Product};
  n.a = s;
  n.b = t;
  return add(n);
}
std::pair<int, int> ConstraintGraph::sinCos(int x) {
  Node sn{Kind::Sin};
  sn.a = x;
  const int is = add(sn);
  Node cn{Kind::Cos};
  cn.a = x;
  cn.b = is;
  const int ic = add(cn);
  nodes_[is].b = ic;
  return {is, ic};
}
int ConstraintGraph::atan2(int s, int c, double reference) {
  Node n{Kind::Atan2};
  n.a = s;
  n.b = c;
  n.c = reference;
  return add(n);
}

void ConstraintGraph::bodyOrder(int k, const VecX* qk) {
  // r_k, p_k from q's coefficient (fixed bodies: their pose at order 0, zero after), then R_k.
  for (size_t b = 0; b < m_->bodies.size(); ++b) {
    const Body& body = m_->bodies[b];
    const size_t base = b * stride_;
    if (body.qIndex < 0) {
      if (k == 0) {
        const Quat o = body.pose0.orientation.normalized();
        r_[base] = body.pose0.position;
        p_[base] = Eigen::Vector4d(o.w(), o.x(), o.y(), o.z());
        R_[base] = rotationBilinear(p_[base], p_[base]);
      } else {
        r_[base + k].setZero();
        p_[base + k].setZero();
        R_[base + k].setZero();
      }
      continue;
    }
    r_[base + k] = qk->segment<3>(body.qIndex);
    p_[base + k] = qk->segment<4>(body.qIndex + 3);
    Mat3 R = Mat3::Zero();
    for (int i = 0; i <= k; ++i) R += rotationBilinear(p_[base + i], p_[base + k - i]);
    R_[base + k] = R;
  }
}

void ConstraintGraph::evalNode(Node& n, int k) {
  const size_t o = static_cast<size_t>(n.slot) * stride_ + k;
  switch (n.kind) {
    case Kind::Direction:
      vcoef_[o] = R_[static_cast<size_t>(n.a) * stride_ + k] * n.local;
      break;
    case Kind::Point:
      vcoef_[o] = r_[static_cast<size_t>(n.a) * stride_ + k] + R_[static_cast<size_t>(n.a) * stride_ + k] * n.local;
      break;
    case Kind::Difference:
      vcoef_[o] = vector(n.a, k) - vector(n.b, k);
      break;
    case Kind::Component:
      scoef_[o] = vector(n.a, k)(n.b);
      break;
    case Kind::Dot: {
      const Vec3* u = &vcoef_[static_cast<size_t>(nodes_[n.a].slot) * stride_];
      const Vec3* w = &vcoef_[static_cast<size_t>(nodes_[n.b].slot) * stride_];
      scoef_[o] = productCoeff(u, w, k, [](const Vec3& x, const Vec3& y) { return x.dot(y); });
      break;
    }
    case Kind::Combine:
      scoef_[o] = n.alpha * scalar(n.a, k) + (n.b >= 0 ? n.beta * scalar(n.b, k) : 0.0) - (k == 0 ? n.c : 0.0);
      break;
    case Kind::Sqrt: {
      const double* x = &scoef_[static_cast<size_t>(nodes_[n.a].slot) * stride_];
      double* f = &scoef_[static_cast<size_t>(n.slot) * stride_];
      // A vanishing |v| has no series: NaN, which the callers' finiteness checks report.
      f[k] = k == 0 ? (x[0] > 0 ? std::sqrt(x[0]) : std::nan("")) : sqrtCoeff(x, f, k);
      break;
    }
    case Kind::Product:
      scoef_[o] = productCoeff(&scoef_[static_cast<size_t>(nodes_[n.a].slot) * stride_],
                               &scoef_[static_cast<size_t>(nodes_[n.b].slot) * stride_], k);
      break;
    case Kind::Sin:
    case Kind::Cos: {
      const double* x = &scoef_[static_cast<size_t>(nodes_[n.a].slot) * stride_];
      const double* partner = &scoef_[static_cast<size_t>(nodes_[n.b].slot) * stride_];
      const bool sine = n.kind == Kind::Sin;
      if (k == 0) {
        scoef_[o] = sine ? std::sin(x[0]) : std::cos(x[0]);
        break;
      }
      double sum = 0;
      for (int j = 1; j <= k; ++j) sum += j * x[j] * partner[k - j];
      scoef_[o] = (sine ? sum : -sum) / k;
      break;
    }
    case Kind::Atan2: {
      const double* S = &scoef_[static_cast<size_t>(nodes_[n.a].slot) * stride_];
      const double* C = &scoef_[static_cast<size_t>(nodes_[n.b].slot) * stride_];
      double* th = &scoef_[static_cast<size_t>(n.slot) * stride_];
      if (k == 0) {
        th[0] = n.c + std::remainder(std::atan2(S[0], C[0]) - n.c, 2.0 * M_PI);
        n.c = th[0];
        break;
      }
      double rhs = 0;
      for (int i = 0; i < k; ++i) rhs += (k - i) * (C[i] * S[k - i] - S[i] * C[k - i]);
      for (int i = 1; i < k; ++i) {
        double Di = 0;
        for (int j = 0; j <= i; ++j) Di += S[j] * S[i - j] + C[j] * C[i - j];
        rhs -= (k - i) * Di * th[k - i];
      }
      const double D0 = S[0] * S[0] + C[0] * C[0];
      // A vanishing ρ (the angle undefined) has no series: NaN, as the square root's.
      th[k] = D0 > 0 ? rhs / (k * D0) : std::nan("");
      break;
    }
    case Kind::QuatNorm: {
      const Eigen::Vector4d* p = &p_[static_cast<size_t>(n.a) * stride_];
      scoef_[o] = productCoeff(p, p, k, [](const Eigen::Vector4d& x, const Eigen::Vector4d& y) { return x.dot(y); }) -
                  (k == 0 ? 1.0 : 0.0);
      break;
    }
  }
}

void ConstraintGraph::start(const VecX& q) {
  if (q.size() != m_->nq) throw std::invalid_argument("ConstraintGraph::start: q has the wrong size");
  bodyOrder(0, &q);
  for (Node& n : nodes_) evalNode(n, 0);
}

void ConstraintGraph::setOrder(int k, const VecX& qk) {
  if (k < 1 || k > order_) throw std::out_of_range("ConstraintGraph::setOrder: order out of range");
  if (qk.size() != m_->nq) throw std::invalid_argument("ConstraintGraph::setOrder: q_k has the wrong size");
  bodyOrder(k, &qk);
  for (Node& n : nodes_) evalNode(n, k);
}

}  // namespace mechsim::anm
