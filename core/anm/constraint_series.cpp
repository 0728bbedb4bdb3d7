// core/anm/constraint_series.cpp — Φ(q(a), t) of a whole model as graph rows (see the header).
#include "core/anm/constraint_series.h"

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
  // Driver rows at the drivers' values θ_d = value(t) (driver.cpp).
  CoordinateNodes coords[3];
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
