#pragma once
// core/anm/constraint_series.h — the Taylor series of Φ(q(a), t) for a whole model (every joint
// type, the quaternion normalisations, the driver rows with the drivers held at their values at t)
// and of a dragged point x(q(a)) = r_b + R(p_b) ℓ, on the expression graph of constraint_graph.h.
//
// Row order is Φ's (model.h): joint rows (joint_series.cpp, one block per joint type, mirroring
// core/kinematics/<type>.cpp), then pᵀp − 1 per moving body, then one row per driver:
//   Linear coordinate L(q):  L − θ_d;   Sine S(q): S − sin θ_d;   Angle (S, C): −sin θ_d C + cos θ_d S
// (driver.cpp). The drivers' values θ_d are constants of the series (held during a drag). The
// coupling rows (between the normalisations and the drivers) are the follower's driver row with
// θ_d = f(θ_a), a polynomial of the leader coordinate: a series through atan2, sin and cos
// (constraint_graph.h).
#include <vector>

#include "core/anm/constraint_graph.h"
#include "core/kinematics/drag.h"
#include "core/model.h"

namespace mechsim::anm {

/// How a joint coordinate is read (as kinematics' CoordKind): atan2(S, C), asin(S) or S.
enum class CoordinateKind { Angle, Sine, Linear };
struct CoordinateNodes {
  CoordinateKind kind = CoordinateKind::Linear;
  int s = -1, c = -1;  // scalar nodes (c only for Angle)
};

/// Appends the equation rows of `joint` to g, in the order of its equation names (joint_series.cpp).
void appendJointEquations(ConstraintGraph& g, const Joint& joint, std::vector<int>& rows);
/// The coordinate expressions of `joint` (jointCoordinateCount(type) entries into out).
void appendJointCoordinates(ConstraintGraph& g, const Joint& joint, CoordinateNodes* out);

class ConstraintSeries {
 public:
  /// Series of Φ(q(a), t) of m up to `order`, drivers at their values at t (withDrivers = false:
  /// the driver rows, which come last in Φ, are left out), and of `handle`'s world position when
  /// one is given (its body must be moving).
  ConstraintSeries(const Model& m, double t, int order, const DragPoint* handle = nullptr, bool withDrivers = true);

  /// Order 0 at q (Φ(q), x(q)).
  void start(const VecX& q) { g_.start(q); }
  /// Order k with the coordinates' coefficient qk (see ConstraintGraph::setOrder).
  void setOrder(int k, const VecX& qk) { g_.setOrder(k, qk); }
  /// Coefficient k of all rows of Φ (equations()).
  void rows(int k, VecX& out) const;
  /// Coefficient k of row i.
  double row(int i, int k) const { return g_.scalar(rows_[static_cast<size_t>(i)], k); }
  /// Coefficient k of the handle point.
  const Vec3& handle(int k) const { return g_.vector(handle_, k); }
  bool hasHandle() const { return handle_ >= 0; }
  int equations() const { return static_cast<int>(rows_.size()); }
  int order() const { return g_.order(); }

 private:
  ConstraintGraph g_;
  std::vector<int> rows_;
  int handle_ = -1;
};

}  // namespace mechsim::anm
