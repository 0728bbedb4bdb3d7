#pragma once
// core/kinematics/assembly.h — iterate over the rows of Φ (internal header).
//
// forEachRowAt<W> evaluates every row of Φ at (q, q̇, t) as a jet (terms.h) carrying what W asks
// for (kValue, kGradient, kRates, kTime) and hands it, with the two bodies it touches and its time
// terms, to a callback; constraints.cpp turns that into Φ, Φ_q, Φ_t and γ, compile.cpp into the
// sparsity pattern, mobility.cpp into coordinate gradients. Each evaluation first computes the
// frame of every body once (BodyFrames: R(p), and R(ṗ) for rates), then the joint rows, the
// normalisation rows and the driver rows; driver expressions are evaluated once per driver (five
// times, for the stencils of their time derivatives, only with kTime).
#include <vector>

#include "core/kinematics/equations.h"

namespace mechsim::kin {

/// The frame of body b at (q, q̇) into f (qd may be null: zero rates).
inline void bodyFrame(const Model& m, const VecX& q, const VecX* qd, int b, BodyFrame& f) {
  const Body& body = m.bodies[b];
  f.rd.setZero();
  f.wd = 0;
  f.vdot.setZero();
  f.Rpd.setZero();
  if (body.qIndex < 0) {
    const Quat o = body.pose0.orientation.normalized();
    f.moving = false;
    f.r = body.pose0.position;
    f.w = o.w();
    f.v = Vec3(o.x(), o.y(), o.z());
    f.R = rotationOf(f.w, f.v);
    return;
  }
  f.moving = true;
  f.r = q.segment<3>(body.qIndex);
  f.w = q(body.qIndex + 3);
  f.v = q.segment<3>(body.qIndex + 4);
  f.R = rotationOf(f.w, f.v);
  if (qd) {
    f.rd = qd->segment<3>(body.qIndex);
    f.wd = (*qd)(body.qIndex + 3);
    f.vdot = qd->segment<3>(body.qIndex + 4);
    f.Rpd = rotationOf(f.wd, f.vdot);
  }
}

/// The frames of all bodies for one evaluation. They live in a per-thread buffer that keeps its
/// capacity, so an evaluation allocates nothing once the buffer has the model's size (an
/// evaluation nested in another one's callback gets a buffer of its own).
class BodyFrames {
 public:
  BodyFrames(const Model& m, const VecX& q, const VecX* qd) {
    Pool& p = pool();
    if (!p.busy) {
      p.busy = true;
      borrowed_ = true;
      frames_ = &p.frames;
    } else {
      frames_ = &own_;
    }
    frames_->resize(m.bodies.size());
    for (int b = 0; b < static_cast<int>(m.bodies.size()); ++b) bodyFrame(m, q, qd, b, (*frames_)[b]);
  }
  ~BodyFrames() {
    if (borrowed_) pool().busy = false;
  }
  BodyFrames(const BodyFrames&) = delete;
  BodyFrames& operator=(const BodyFrames&) = delete;
  const BodyFrame& operator[](int b) const { return (*frames_)[b]; }

 private:
  struct Pool {
    std::vector<BodyFrame> frames;
    bool busy = false;
  };
  static Pool& pool() {
    thread_local Pool p;
    return p;
  }
  std::vector<BodyFrame>* frames_ = nullptr;
  std::vector<BodyFrame> own_;
  bool borrowed_ = false;
};

/// Joint `joint` between its two bodies' frames.
template <unsigned W>
inline JointContext<W> jointContext(const Joint& joint, const BodyFrames& frames) {
  JointContext<W> c;
  c.joint = &joint;
  c.b[0] = &frames[joint.body1];
  c.b[1] = &frames[joint.body2];
  return c;
}

/// The coordinate expressions of joint j (out: at least jointCoordinateCount entries, ≤ 3), with
/// rates when qd is given.
inline void jointCoordinates(const Model& m, const VecX& q, const VecX* qd, int j, CoordExpr* out) {
  const Joint& joint = m.joints[j];
  BodyFrame f[2];
  bodyFrame(m, q, qd, joint.body1, f[0]);
  bodyFrame(m, q, qd, joint.body2, f[1]);
  if (qd) {
    JointContext<kAll> c;
    c.joint = &joint;
    c.b[0] = &f[0];
    c.b[1] = &f[1];
    jointKind(joint.type).coordinates<kAll>(c, out);
  } else {
    JointContext<kGradient> c;
    c.joint = &joint;
    c.b[0] = &f[0];
    c.b[1] = &f[1];
    jointKind(joint.type).coordinates<kGradient>(c, out);
  }
}

/// One evaluated row of Φ.
struct RowInfo {
  int row = 0;
  int body[2] = {-1, -1};   // bodies of jet sides 0 and 1 (−1: none)
  double phiT = 0;          // ∂Φ_i/∂t                (with kTime)
  double gammaTime = 0;     // −2 Φ_qt q̇ − Φ_tt        (with kTime)
};

/// The joint rows: f(info, row) in row order.
template <unsigned W, class F>
void forEachJointRow(const Model& m, const BodyFrames& frames, F&& f) {
  RowJet<W> rows[6];
  for (const Joint& joint : m.joints) {
    if (joint.nEquations == 0) continue;
    jointKind(joint.type).equations<W>(jointContext<W>(joint, frames), rows);
    RowInfo info;
    info.body[0] = joint.body1;
    info.body[1] = joint.body2;
    for (int k = 0; k < joint.nEquations; ++k) {
      info.row = joint.firstEquation + k;
      f(info, rows[k]);
    }
  }
}

/// The normalisation rows, one per moving body, after the joint rows.
template <unsigned W, class F>
void forEachNormalizationRow(const Model& m, const BodyFrames& frames, F&& f) {
  int row = m.nJointEquations;
  for (int b = 0; b < static_cast<int>(m.bodies.size()); ++b) {
    if (m.bodies[b].qIndex < 0) continue;
    RowInfo info;
    info.row = row++;
    info.body[0] = b;
    f(info, normalizationEquation<W>(frames[b]));
  }
}

/// The driver rows (W may include kTime: then with Φ_t and the time part of γ).
template <unsigned W, class F>
void forEachDriverRow(const Model& m, const BodyFrames& frames, double t, F&& f) {
  constexpr unsigned J = W & kAll;
  CoordExprOf<RowJet<J>> coords[3];
  for (const Driver& drv : m.drivers) {
    const Joint& joint = m.joints[drv.joint];
    jointKind(joint.type).coordinates<J>(jointContext<J>(joint, frames), coords);
    double val = 0, dval = 0, ddval = 0;
    if constexpr ((W & kTime) != 0)
      driverValue(drv, t, val, dval, ddval);
    else
      val = driverValue(drv, t);
    const DriverRowOf<RowJet<J>> d = driverEquation(coords[drv.coordinate], val, dval, ddval);
    RowInfo info;
    info.row = drv.equation;
    info.body[0] = joint.body1;
    info.body[1] = joint.body2;
    info.phiT = d.phiT;
    info.gammaTime = d.gammaTime;
    f(info, d.row);
  }
}

/// Calls f(const RowInfo&, const RowJet<W & kAll>&) for every row of Φ at (q, q̇, t), in row order,
/// computing only what W asks for (qd is read only with kRates; may be null: zero rates).
/// withDrivers = false stops before the driver rows. For a Newton step (Φ and Φ_q) use kGradient.
template <unsigned W, class F>
void forEachRowAt(const Model& m, const VecX& q, const VecX* qd, double t, bool withDrivers, F&& f) {
  constexpr unsigned J = W & kAll;
  const BodyFrames frames(m, q, (W & kRates) != 0 ? qd : nullptr);
  forEachJointRow<J>(m, frames, f);
  forEachNormalizationRow<J>(m, frames, f);
  if (withDrivers) forEachDriverRow<W>(m, frames, t, f);
}

/// Calls f(const RowInfo&, const Jet1&) for every row of Φ at (q, q̇, t), in row order, with
/// gradients, time terms, and rates when qd is given (zero when it is null).
/// withDrivers = false stops before the driver rows.
template <class F>
void forEachRow(const Model& m, const VecX& q, const VecX* qd, double t, bool withDrivers, F&& f) {
  if (qd)
    forEachRowAt<kAll | kTime>(m, q, qd, t, withDrivers, f);
  else
    forEachRowAt<kGradient | kTime>(m, q, nullptr, t, withDrivers, f);
}

/// Builds m.jacobianPattern and m.jacobianSlots from the rows' structure (called by compile()).
void buildJacobianPattern(Model& m);

/// Scatters row jet `r` of `info` into the values of J (pattern m.jacobianPattern).
inline void scatterRow(const Model& m, const RowInfo& info, const Jet1& r, double* values) {
  const int* slot = &m.jacobianSlots[static_cast<size_t>(info.row) * 14];
  for (int s = 0; s < 2; ++s)
    for (int k = 0; k < 7; ++k)
      if (slot[7 * s + k] >= 0) values[slot[7 * s + k]] = r.g[s](k);
}

}  // namespace mechsim::kin
