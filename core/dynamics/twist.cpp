// core/dynamics/twist.cpp — body twists, the block-diagonal mass matrix, q̇ ↔ ν (twist.h).
#include "core/dynamics/twist.h"

namespace mechsim::dyn {

std::vector<int> movingBodies(const Model& m) {
  std::vector<int> out(m.nMoving, -1);
  for (int b = 0; b < static_cast<int>(m.bodies.size()); ++b)
    if (m.bodies[b].qIndex >= 0) out[m.bodies[b].qIndex / 7] = b;
  return out;
}

void bodyInertias(const Model& m, const VecX& q, std::vector<BodyInertia>& out) {
  out.resize(m.nMoving);
  for (int b = 0; b < static_cast<int>(m.bodies.size()); ++b) {
    const Body& body = m.bodies[b];
    if (body.qIndex < 0) continue;
    BodyInertia& bi = out[body.qIndex / 7];
    bi.body = b;
    bi.qIndex = body.qIndex;
    const Quat p(q(body.qIndex + 3), q(body.qIndex + 4), q(body.qIndex + 5), q(body.qIndex + 6));
    bi.R = p.normalized().toRotationMatrix();
    bi.mass = body.mass;
    bi.invMass = body.mass > 0 ? 1.0 / body.mass : 0.0;
    bi.comOffset = bi.R * body.com;
    bi.inertia = bi.R * body.inertia * bi.R.transpose();
    // Ī is SPD for every compiled moving body (mass properties); invert it in body axes.
    bi.invInertia = bi.R * body.inertia.inverse() * bi.R.transpose();
  }
}

Vec6 twistRow(const Eigen::Matrix<double, 1, 7>& g, const Eigen::Matrix<double, 7, 1>& qb, const Vec3& c) {
  const Vec3 gr = g.segment<3>(0).transpose();
  const double gw = g(3);
  const Vec3 gx = g.segment<3>(4).transpose();
  const double w = qb(3);
  const Vec3 x = qb.segment<3>(4);
  // Gᵀ g_p = ½ (−x gw + w gx + [x]× gx)   ([x]×ᵀ = −[x]×, so (−[x]×)ᵀ gx = x × gx)
  const Vec3 Gtg = 0.5 * (-gw * x + w * gx + x.cross(gx));
  Vec6 out;
  out.head<3>() = gr;
  out.tail<3>() = gr.cross(c) + Gtg;
  return out;
}

void twistToQdot(const Model& m, const VecX& q, const std::vector<BodyInertia>& bi, const VecX& nu, VecX& qd) {
  qd.resize(m.nq);
  for (size_t k = 0; k < bi.size(); ++k) {
    const int i = bi[k].qIndex;
    const Vec3 v = nu.segment<3>(6 * k), w = nu.segment<3>(6 * k + 3);
    qd.segment<3>(i) = v + bi[k].comOffset.cross(w);
    const double pw = q(i + 3);
    const Vec3 px = q.segment<3>(i + 4);
    qd(i + 3) = -0.5 * w.dot(px);
    qd.segment<3>(i + 4) = 0.5 * (pw * w + w.cross(px));
  }
}

void qdotToTwist(const Model& m, const VecX& q, const std::vector<BodyInertia>& bi, const VecX& qd, VecX& nu) {
  nu.resize(6 * bi.size());
  for (size_t k = 0; k < bi.size(); ++k) {
    const int i = bi[k].qIndex;
    const Quat p(q(i + 3), q(i + 4), q(i + 5), q(i + 6));
    const Quat pd(qd(i + 3), qd(i + 4), qd(i + 5), qd(i + 6));
    // ṗ = ½ (0, ω) ⊗ p  ⇒  (0, ω) = 2 ṗ ⊗ p̄ / |p|².
    const Quat wq = pd * p.conjugate();
    const Vec3 w = 2.0 * wq.vec() / std::max(p.squaredNorm(), 1e-300);
    nu.segment<3>(6 * k + 3) = w;
    nu.segment<3>(6 * k) = qd.segment<3>(i) + w.cross(bi[k].comOffset);
  }
}

void displace(const Model& m, const std::vector<BodyInertia>& bi, const VecX& delta, VecX& q) {
  for (size_t k = 0; k < bi.size(); ++k) {
    const int i = bi[k].qIndex;
    const Quat p = Quat(q(i + 3), q(i + 4), q(i + 5), q(i + 6)).normalized();
    const Vec3 c0 = p.toRotationMatrix() * m.bodies[bi[k].body].com;
    const Vec3 com = q.segment<3>(i) + c0 + delta.segment<3>(6 * k);
    // Exact rotation by the rotation vector Δω (Rodrigues), applied in world axes.
    const Vec3 dw = delta.segment<3>(6 * k + 3);
    const double angle = dw.norm();
    Quat rot = Quat::Identity();
    if (angle > 0) rot = Quat(Eigen::AngleAxisd(angle, dw / angle));
    const Quat pn = (rot * p).normalized();
    q.segment<3>(i) = com - pn.toRotationMatrix() * m.bodies[bi[k].body].com;
    q(i + 3) = pn.w();
    q.segment<3>(i + 4) = pn.vec();
  }
}

void applyInverseMass(const std::vector<BodyInertia>& bi, const VecX& x, VecX& y) {
  y.resize(x.size());
  for (size_t k = 0; k < bi.size(); ++k) {
    y.segment<3>(6 * k) = bi[k].invMass * x.segment<3>(6 * k);
    y.segment<3>(6 * k + 3) = bi[k].invInertia * x.segment<3>(6 * k + 3);
  }
}

void applyMass(const std::vector<BodyInertia>& bi, const VecX& x, VecX& y) {
  y.resize(x.size());
  for (size_t k = 0; k < bi.size(); ++k) {
    y.segment<3>(6 * k) = bi[k].mass * x.segment<3>(6 * k);
    y.segment<3>(6 * k + 3) = bi[k].inertia * x.segment<3>(6 * k + 3);
  }
}

double kineticEnergy(const std::vector<BodyInertia>& bi, const VecX& nu) {
  double e = 0;
  for (size_t k = 0; k < bi.size(); ++k) {
    const Vec3 v = nu.segment<3>(6 * k), w = nu.segment<3>(6 * k + 3);
    e += 0.5 * bi[k].mass * v.squaredNorm() + 0.5 * w.dot(bi[k].inertia * w);
  }
  return e;
}

}  // namespace mechsim::dyn
