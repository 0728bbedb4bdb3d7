#pragma once
// core/kinematics/drag.h — moving a point of the mechanism towards a target under the constraints
// ("handle at the cursor"), the solver behind handle dragging in the GUI and in benchmarks.
//
// The problem at each update: find q with Φ(q, t) = 0 (the joints, the normalisations and the
// drivers at d.t, exactly) such that the handle point x(q) = r_b + R(p_b) ℓ is as close as
// possible to the target c in the least-squares sense, ‖x(q) − c‖₂ → min. When c is reachable the
// point is at c; when it is not, the mechanism rests at the closest reachable configuration and
// does not jump. The solver behind a drag is swappable (DragSolver): Newton on the stacked
// system (core/kinematics/drag_newton.cpp) and the asymptotic numerical method of paper 004
// (core/anm/), which follows a continuation path from the drag's start to the target.
#include <memory>
#include <string>

#include "core/data.h"
#include "core/model.h"
#include "core/types.h"

namespace mechsim {

/// The point being dragged: a point fixed in a moving body.
struct DragPoint {
  int body = -1;               // index into Model::bodies (a moving body)
  Vec3 local = Vec3::Zero();   // the point in the body frame [m]
  bool drivers = true;         // impose the drivers' equations during the drag; false: the drag
                               // may move driven coordinates too (their driver rows are left out)
};

/// Outcome of one update of a drag.
struct DragResult {
  bool converged = false;      // Φ(q) = 0 to tolerance at the returned q (else d.q is unchanged)
  bool reached = false;        // the point is at the target (within tolerance)
  double distance = 0;         // ‖x(q) − c‖ after the update [m]
  double residual = 0;         // max |Φ_i| after the update
  int iterations = 0;          // Newton iterations / ANM steps used
  int factorizations = 0;      // numeric factorisations of a Jacobian
  int solves = 0;              // linear solves with those factors
  double seconds = 0;          // wall time of the update
  std::string message;         // why it did not converge, when it did not
};

/// A solver that moves a DragPoint towards successive targets. One drag is begin(), any number of
/// update() calls (one per displayed frame, the target following the cursor), then end().
/// Implementations keep per-drag state (the path followed so far); they are not thread-safe and
/// are used by one thread at a time (the simulation worker).
class DragSolver {
 public:
  virtual ~DragSolver() = default;
  /// Short name for benchmarks and the GUI ("newton", "anm").
  virtual std::string name() const = 0;
  /// Starts a drag of `point` from the configuration in d (d.q solved at d.t).
  virtual void begin(const Model& m, Data& d, const DragPoint& point) = 0;
  /// Moves the point towards `target` (world, m) at time d.t. On success d.q is the new
  /// configuration, consistent with Φ = 0; on failure d.q is left as it was and the result says why.
  /// d.stats is updated as by solvePositions (residual, iterations, rank, singular, time).
  virtual DragResult update(const Model& m, Data& d, const Vec3& target) = 0;
  /// Ends the drag (releases per-drag state).
  virtual void end() {}
};

/// Newton's method on Φ(q) = 0 stacked with the handle equations x(q) − c = 0 as least-squares
/// rows of lower priority, with the LU null-space solver (drag_newton.cpp).
std::unique_ptr<DragSolver> makeNewtonDragSolver();

/// World position of a drag point at coordinates q.
Vec3 dragPointPosition(const Model& m, const VecX& q, const DragPoint& p);

}  // namespace mechsim
