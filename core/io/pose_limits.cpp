// core/io/pose_limits.cpp — load warnings for a starting pose outside the joint limits
// (core/io/pose_limits.h).
#include "core/io/pose_limits.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/data.h"
#include "core/io/import/import_common.h"
#include "core/kinematics/kinematics.h"

namespace mechsim::io {
namespace {

/// A coordinate within this of its bound (SI: rad or m) is in range — the dynamics' own margin.
constexpr double kOutsideMargin = 1e-9;

/// %.6g, with the assembly's round-off (|v| < 1e-9 in the file's unit) shown as 0.
std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", std::abs(v) < 1e-9 ? 0.0 : v);
  return buf;
}

}  // namespace

std::vector<std::string> poseLimitWarnings(const MechanismSpec& spec, const Model& model) {
  std::vector<std::string> out;
  const bool anyLimits = std::any_of(model.joints.begin(), model.joints.end(),
                                     [](const Joint& j) { return j.limits && j.nCoords == 1; });
  if (!anyLimits) return out;
  // The starting pose: the file's configuration assembled at t = 0 (drivers imposed); where the
  // assembly fails, the configuration as the file gives it (check reports its residual).
  Data d = makeData(model);
  if (model.nq > 0) {
    Data solved = d;
    if (solvePositions(model, solved, 0.0)) {
      updateJointCoordinates(model, solved);
      d = std::move(solved);
    }
  }
  for (int jj = 0; jj < static_cast<int>(model.joints.size()); ++jj) {
    const Joint& j = model.joints[jj];
    if (!j.limits || j.nCoords != 1) continue;
    const double th = d.coords(j.firstCoord), lo = j.limits->first, hi = j.limits->second;
    if (!(th < lo - kOutsideMargin || th > hi + kOutsideMargin)) continue;
    // In the file's units: angles of a revolute joint, lengths of prismatic and distance joints.
    const bool angle = j.type == JointType::Revolute;
    const double scale = angle ? spec.units.angleScale() : spec.units.lengthScale();
    const std::string unit = angle ? spec.units.angle : spec.units.length;
    const bool below = th < lo;
    const double bound = below ? lo : hi;
    const std::string path = "joints[" + std::to_string(jj) + "]";
    const std::string msg = "joint \"" + j.name + "\": the starting pose has its " + (angle ? "angle" : "coordinate") +
                            " at " + number(th / scale) + " " + unit + ", " + number(std::abs(th - bound) / scale) + " " +
                            unit + (below ? " below its lower" : " above its upper") + " limit " + number(bound / scale) +
                            " " + unit + " (limits [" + number(lo / scale) + ", " + number(hi / scale) + "] " + unit +
                            "); dynamics moves it onto the limit before the first step";
    out.push_back(imp::formatWarning(spec.fileOf(path + ".limits"), spec.locate(path + ".limits"), msg));
  }
  return out;
}

void addPoseLimitWarnings(MechanismSpec& spec, const Model& model) {
  for (std::string& w : poseLimitWarnings(spec, model))
    if (std::find(spec.warnings.begin(), spec.warnings.end(), w) == spec.warnings.end()) spec.warnings.push_back(std::move(w));
}

}  // namespace mechsim::io
