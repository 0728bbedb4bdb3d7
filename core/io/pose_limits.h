#pragma once
// core/io/pose_limits.h — a mechanism whose starting pose has a joint coordinate outside that
// joint's limits is a load warning, located at the joint: `check` (and its --json), the GUI's
// status bar, the import of a URDF / MJCF / SDFormat file, `loadModel(path, &warnings)`. The
// dynamics moves such a coordinate onto its limit before the first step (DynamicsStepper::initialize).
#include <string>
#include <vector>

#include "core/model.h"
#include "core/spec.h"

namespace mechsim::io {

/// One "FILE:LINE:COL: warning: ..." per one-coordinate joint (revolute, prismatic, distance) whose
/// coordinate in the starting pose lies outside its [lower, upper], with the amount and the bound
/// in the file's units, located at the joint's limits (or the joint). The starting pose is the
/// file's configuration assembled at t = 0 with the drivers imposed (solvePositions), or the file's
/// configuration as it is where that assembly fails; every coordinate is 0 at the file's
/// configuration (the joint frames coincide there), so a range without 0 always warns. Empty,
/// and nothing computed, when no joint has limits.
std::vector<std::string> poseLimitWarnings(const MechanismSpec& spec, const Model& model);

/// Appends poseLimitWarnings to spec.warnings, each at most once (a second call adds nothing).
void addPoseLimitWarnings(MechanismSpec& spec, const Model& model);

}  // namespace mechsim::io
