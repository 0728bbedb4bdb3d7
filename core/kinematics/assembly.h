#pragma once
// core/kinematics/assembly.h — iterate over the rows of Φ (internal header).
//
// forEachRowAt<W> evaluates every row of Φ at (q, q̇, t) as a jet (terms.h) carrying what W asks
// for (kValue, kGradient, kRates, kTime) and hands it, with the two bodies it touches and its time
// terms, to a callback; constraints.cpp turns that into Φ, Φ_q, Φ_t and γ, compile.cpp into the
// sparsity pattern, mobility.cpp into coordinate gradients. Each evaluation first computes the
// frame of every body once (BodyFrames: R(p), and R(ṗ) for rates), then the joint rows, the
// normalisation rows, the coupling rows and the driver rows; driver expressions are evaluated once per driver (five
// times, for the stencils of their time derivatives, only with kTime).
#include <vector>

#include "core/data.h"
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

/// One evaluated row of Φ. A coupling row with a leader (coupling.cpp) touches up to four bodies:
/// with gradients it is handed over twice in a row, part 0 on the follower joint's bodies (value,
/// rates and that part of the gradient) and part 1 on the leader joint's bodies (the rest of the
/// gradient, the same value and rates); a row's Φ_q is the sum of its parts. Evaluations without
/// gradients hand over part 0 only.
struct RowInfo {
  int row = 0;
  int body[2] = {-1, -1};   // bodies of jet sides 0 and 1 (−1: none)
  double phiT = 0;          // ∂Φ_i/∂t                (with kTime)
  double gammaTime = 0;     // −2 Φ_qt q̇ − Φ_tt        (with kTime)
  int part = 0;             // 1: the leader part of a coupling row
  int coupling = -1;        // coupling rows: index into Model::couplings
};

/// The unwrapped joint coordinates (Data::coords of the last solved position) that coupling rows
/// read a leader's angle against, for the evaluations on this thread while the scope lives
/// (scopes nest; without one, or with coordinates of the wrong size, the reference is 0: the
/// principal branch). The kinematics and dynamics entry points open one on their Data.
class CoordinateReference {
 public:
  explicit CoordinateReference(const VecX& coords) : previous_(current()) { current() = &coords; }
  ~CoordinateReference() { current() = previous_; }
  CoordinateReference(const CoordinateReference&) = delete;
  CoordinateReference& operator=(const CoordinateReference&) = delete;
  /// The reference of coordinate `index` of a model with nCoords coordinates.
  static double at(int index, int nCoords) {
    const VecX* c = current();
    return c && c->size() == nCoords ? (*c)(index) : 0.0;
  }

 private:
  static const VecX*& current() {
    thread_local const VecX* c = nullptr;
    return c;
  }
  const VecX* previous_;
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

/// The coupling rows, after the normalisations (two parts each with a leader and gradients).
template <unsigned W, class F>
void forEachCouplingRow(const Model& m, const BodyFrames& frames, F&& f) {
  CoordExprOf<RowJet<W>> cb[3], ca[3];
  for (int i = 0; i < static_cast<int>(m.couplings.size()); ++i) {
    const Coupling& c = m.couplings[i];
    const Joint& jb = m.joints[c.joint];
    jointKind(jb.type).coordinates<W>(jointContext<W>(jb, frames), cb);
    const CoordExprOf<RowJet<W>>* a = nullptr;
    double reference = 0;
    if (c.leader >= 0) {
      const Joint& ja = m.joints[c.leader];
      jointKind(ja.type).coordinates<W>(jointContext<W>(ja, frames), ca);
      a = &ca[c.leaderCoordinate];
      reference = CoordinateReference::at(ja.firstCoord + c.leaderCoordinate, m.nCoords);
    }
    const CouplingRowOf<RowJet<W>> r = couplingEquation(cb[c.coordinate], a, reference, c.c);
    RowInfo info;
    info.row = c.equation;
    info.coupling = i;
    info.body[0] = jb.body1;
    info.body[1] = jb.body2;
    f(info, r.row);
    if constexpr ((W & kGradient) != 0) {
      if (c.leader >= 0) {
        info.part = 1;
        info.body[0] = m.joints[c.leader].body1;
        info.body[1] = m.joints[c.leader].body2;
        f(info, r.leader);
      }
    }
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
  forEachCouplingRow<J>(m, frames, f);
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

/// d.coords from d.q, angles on the 2π-branch nearest their previous values (no rates; coordinates.cpp).
void unwrapCoordinates(const Model& m, Data& d);

/// Builds m.jacobianPattern and m.jacobianSlots from the rows' structure (called by compile()).
void buildJacobianPattern(Model& m);

/// Scatters row jet `r` of `info` into the values of J (pattern m.jacobianPattern).
inline void scatterRow(const Model& m, const RowInfo& info, const Jet1& r, double* values) {
  if (info.part == 1) {  // a coupling's leader part, after its part 0
    const size_t base = static_cast<size_t>(info.coupling) * 14;
    for (int s = 0; s < 2; ++s)
      for (int k = 0; k < 7; ++k) {
        const int slot = m.couplingSlots[base + 7 * s + k];
        if (slot < 0) continue;
        if (m.couplingSlotAdds[base + 7 * s + k]) values[slot] += r.g[s](k);
        else values[slot] = r.g[s](k);
      }
    return;
  }
  const int* slot = &m.jacobianSlots[static_cast<size_t>(info.row) * 14];
  for (int s = 0; s < 2; ++s)
    for (int k = 0; k < 7; ++k)
      if (slot[7 * s + k] >= 0) values[slot[7 * s + k]] = r.g[s](k);
}

}  // namespace mechsim::kin
