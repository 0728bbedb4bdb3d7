#pragma once
// core/sim/dofs.h — the degrees of freedom the user drives (the engine's sliders; run on the
// simulation worker or any thread that owns the Data).
//
// Every driver of the file is one DOF. When the drivers leave the mechanism mobile
// (MobilityReport::dofDriven > 0) the remaining DOF are offered as joint coordinates chosen by
// the mobility analysis: greedily, in joint order, a joint coordinate is taken when its gradient
// row raises the rank of [Φ_q; rows chosen so far] — i.e. when adding a driver for it lowers
// dofDriven (analyseMobility on a variant of the spec with that extra driver). Each chosen
// coordinate becomes a real driver equation of the working model, so a slider position is met
// exactly (Φ = 0) by the position analysis, like a file driver.
//
// The working model is a compile of the spec with those extra drivers whose value functions read
// DriverInputs: a driver either follows its expression of t (file drivers, "play") or holds the
// value a slider set. The file model itself (shared, const) is never changed.
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/data.h"
#include "core/kinematics/kinematics.h"
#include "core/model.h"
#include "core/spec.h"

namespace mechsim::sim {

/// What each driver of the working model prescribes; read by its value function on the worker.
struct DriverInputs {
  std::vector<double> value;                              // held value (SI)
  std::vector<char> follow;                               // 1: follow `expression` of t
  std::vector<std::function<double(double)>> expression;  // the file's expression (empty for added drivers)
  double at(int i, double t) const { return follow[i] && expression[i] ? expression[i](t) : value[i]; }
};

enum class DofKind { Driver, Coordinate };

/// One slider of the DOF panel.
struct DofInfo {
  DofKind kind = DofKind::Driver;
  std::string name;         // driver name, or the coordinate's name ("C", "C.1")
  int driver = -1;          // its driver in the working model (file drivers first, then added ones)
  int joint = -1;           // the driven joint
  int coordinate = 0;       // which coordinate of the joint
  int coordIndex = -1;      // index into Data::coords
  bool angular = false;     // angle [rad] (shown in degrees) or length [m]
  double lower = 0, upper = 0;  // slider range (SI): the file's limits, else the reachable range
  bool limitsFromFile = false;
  std::string expression;   // file drivers: the expression of t as written
};

/// True when coordinate k of joint j is an angle (revolute, cylindrical 0, universal, spherical,
/// planar 2), false when it is a length.
bool isAngularCoordinate(const Joint& j, int k);

/// The representative of angle a (mod 2π) nearest to `near` (sliders and paths do not jump by a turn).
inline double unwrapNear(double a, double near) {
  constexpr double kTwoPi = 6.283185307179586;
  return a + kTwoPi * std::round((near - a) / kTwoPi);
}

/// True when DOF d turns without end: an angle without limits in the file whose reachable range is
/// a whole turn (a crank). Its value is kept unwrapped (a crank turned seven times is at 7 · 2π, not
/// back at 0): setDof does not clamp it to [lower, upper], which then spans one turn of its dial.
inline bool isTurning(const DofInfo& d) {
  constexpr double kTwoPi = 6.283185307179586;
  return d.angular && !d.limitsFromFile && d.upper - d.lower >= kTwoPi * (1 - 1e-9);
}

/// Joint coordinates (joint, coordinate) that complete the file's drivers to a fully driven
/// mechanism at q (see the file comment); fewer when the spec cannot take a driver on some.
std::vector<std::pair<int, int>> independentCoordinates(const MechanismSpec& spec, const mechsim::Model& model, const VecX& q,
                                                        int dofDriven);

/// Sizes `inputs` for n drivers — the first fileModel.drivers.size() follow their expressions
/// (`expressions`, fresh evaluators, else the file model's own functions), the others hold 0 — and
/// returns each driver's value function, which reads its input.
std::vector<std::function<double(double)>> bindDriverInputs(const mechsim::Model& fileModel, std::size_t n,
                                                             const std::vector<std::function<double(double)>>& expressions,
                                                             const std::shared_ptr<DriverInputs>& inputs);

/// The working model: `spec` (when given) compiled with extra drivers on `extra` coordinates, or
/// a copy of `fileModel` (no spec: no extra drivers), every driver's value read from `inputs`
/// (sized here: file drivers follow their expressions, added ones hold 0). `expressions` are the
/// file drivers' expressions of t (one per driver of `fileModel`, fresh evaluators: a muparser
/// evaluator serves one thread); empty: the file model's own functions.
mechsim::Model buildWorkModel(const MechanismSpec* spec, const mechsim::Model& fileModel, const std::vector<std::pair<int, int>>& extra,
                     const std::vector<std::function<double(double)>>& expressions,
                     const std::shared_ptr<DriverInputs>& inputs);

/// The model a handle drag runs on: the spec compiled without drivers (the handle moves every
/// DOF), or nullptr without a spec.
std::unique_ptr<mechsim::Model> buildFreeModel(const MechanismSpec* spec);

/// The reachable range of DOF `dof` of the working model from the solved configuration in d:
/// the held value is stepped outwards (angles by 10° up to ±180°, lengths by 5 % of
/// Model::lengthScale up to ±2 lengthScale) with the position analysis following each step
/// (continuation from the last solution). Singular positions met on the way do not end the
/// search: where the mechanism passes one (a crank through a dead centre, a parallelogram through
/// its change point) the march goes on; only a value where the analysis fails — and fails also
/// half a step and a step further out, or lands on a solution that does not continue the path —
/// is a limit (a turning point of the DOF, e.g. a rocker's extreme position), narrowed by
/// bisection to 1/64 of a step. The search stops at budgetSeconds per DOF. d and inputs are left
/// as they were.
std::pair<double, double> reachableRange(const mechsim::Model& work, const mechsim::Data& d, DriverInputs& inputs, const DofInfo& dof,
                                         double budgetSeconds);

}  // namespace mechsim::sim
