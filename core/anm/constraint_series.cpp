// core/anm/constraint_series.cpp — Φ(q(a), t) of a whole model as graph rows (see the header).
#include "core/anm/constraint_series.h"

#include "core/kinematics/assembly.h"

#include <cmath>
#include <stdexcept>

namespace mechsim::anm {

ConstraintSeries::ConstraintSeries(const Model& m, double t, int order, const DragPoint* handle, bool withDrivers)
    : g_(m, order) {
  rows_.assign(static_cast<size_t>(m.nEquations), -1);
  // Joint rows, at each joint's firstEquation.
  std::vector<int> rows;
  for (const Joint& j : m.joints) {
    rows.clear();
    appendJointEquations(g_, j, rows);
    if (static_cast<int>(rows.size()) != j.nEquations)
      throw std::logic_error("ConstraintSeries: joint '" + j.name + "' row count differs from the model's");
    for (int k = 0; k < j.nEquations; ++k) rows_[static_cast<size_t>(j.firstEquation + k)] = rows[k];
  }
  // Normalisation rows, one per moving body in body order.
  int row = m.nJointEquations;
  for (int b = 0; b < static_cast<int>(m.bodies.size()); ++b)
    if (m.bodies[b].qIndex >= 0) rows_[static_cast<size_t>(row++)] = g_.quaternionNorm(b);
  // Coupling rows (coupling.cpp): the driver row of the follower with θ_d = f(θ_a), f the
  // coupling's polynomial of the leader coordinate θ_a (a slide, or an atan2 kept on the branch of
  // the last solved position: kin::CoordinateReference, then continuous from start to start).
  CoordinateNodes coords[3];
  for (const Coupling& c : m.couplings) {
    const Joint& follower = m.joints.at(static_cast<size_t>(c.joint));
    appendJointCoordinates(g_, follower, coords);
    const CoordinateNodes b = coords[c.coordinate];
    int f = -1;  // the node of f(θ_a); −1: the constant c0
    if (c.leader >= 0) {
      const Joint& leader = m.joints.at(static_cast<size_t>(c.leader));
      appendJointCoordinates(g_, leader, coords);
      const CoordinateNodes& a = coords[c.leaderCoordinate];
      int theta = -1;
      switch (a.kind) {
        case CoordinateKind::Linear: theta = a.s; break;
        case CoordinateKind::Angle:
          theta = g_.atan2(a.s, a.c, kin::CoordinateReference::at(leader.firstCoord + c.leaderCoordinate, m.nCoords));
          break;
        case CoordinateKind::Sine:
          throw std::invalid_argument("ConstraintSeries: coupling '" + c.name +
                                      "' is led by a spherical joint's pitch, which has no series here");
      }
      // f = c0 + θ (c1 + θ (c2 + θ (c3 + θ c4))) by Horner, products only where needed.
      int deg = 4;
      while (deg > 0 && c.c[deg] == 0) --deg;
      if (deg == 0) {
        f = -1;
      } else {
        int h = g_.combine(c.c[deg], theta, 0.0, -1, -c.c[deg - 1]);  // c_deg θ + c_{deg−1}
        for (int k = deg - 2; k >= 0; --k) h = g_.combine(1.0, g_.product(h, theta), 0.0, -1, -c.c[k]);
        f = h;
      }
    }
    int node = -1;
    if (f < 0) {
      const double val = c.c[0];
      switch (b.kind) {
        case CoordinateKind::Linear: node = g_.combine(1.0, b.s, 0.0, -1, val); break;
        case CoordinateKind::Sine: node = g_.combine(1.0, b.s, 0.0, -1, std::sin(val)); break;
        case CoordinateKind::Angle: node = g_.combine(-std::sin(val), b.c, std::cos(val), b.s, 0.0); break;
      }
    } else {
      switch (b.kind) {
        case CoordinateKind::Linear: node = g_.combine(1.0, b.s, -1.0, f, 0.0); break;
        case CoordinateKind::Sine: node = g_.combine(1.0, b.s, -1.0, g_.sinCos(f).first, 0.0); break;
        case CoordinateKind::Angle: {
          const auto [sf, cf] = g_.sinCos(f);
          node = g_.combine(-1.0, g_.product(sf, b.c), 1.0, g_.product(cf, b.s), 0.0);
          break;
        }
      }
    }
    rows_.at(static_cast<size_t>(c.equation)) = node;
  }
  // Driver rows at the drivers' values θ_d = value(t) (driver.cpp).
  for (const Driver& drv : m.drivers) {
    if (!withDrivers) break;
    const Joint& joint = m.joints.at(static_cast<size_t>(drv.joint));
    appendJointCoordinates(g_, joint, coords);
    const CoordinateNodes& e = coords[drv.coordinate];
    const double val = drv.value ? drv.value(t) : 0.0;
    if (!std::isfinite(val)) throw std::invalid_argument("ConstraintSeries: driver '" + drv.name + "' is not finite at t");
    int node = -1;
    switch (e.kind) {
      case CoordinateKind::Linear: node = g_.combine(1.0, e.s, 0.0, -1, val); break;
      case CoordinateKind::Sine: node = g_.combine(1.0, e.s, 0.0, -1, std::sin(val)); break;
      case CoordinateKind::Angle: node = g_.combine(-std::sin(val), e.c, std::cos(val), e.s, 0.0); break;
    }
    rows_.at(static_cast<size_t>(drv.equation)) = node;
  }
  if (!withDrivers) rows_.resize(static_cast<size_t>(m.nEquations) - m.drivers.size());
  for (int r : rows_)
    if (r < 0) throw std::logic_error("ConstraintSeries: a row of Φ has no series");
  if (handle) {
    if (handle->body < 0 || handle->body >= static_cast<int>(m.bodies.size()) || m.bodies[handle->body].qIndex < 0)
      throw std::invalid_argument("ConstraintSeries: the dragged point must be on a moving body");
    handle_ = g_.point(handle->body, handle->local);
  }
}

void ConstraintSeries::rows(int k, VecX& out) const {
  out.resize(static_cast<Eigen::Index>(rows_.size()));
  for (size_t i = 0; i < rows_.size(); ++i) out(static_cast<Eigen::Index>(i)) = g_.scalar(rows_[i], k);
}

}  // namespace mechsim::anm
