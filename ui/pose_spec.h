#pragma once
// ui/pose_spec.h — the mechanism spec re-posed at the configuration the user has reached (File →
// Save As writes it), so that the saved file opens where the mechanism was left (no Qt, no GL).
//
// The native format places everything in world coordinates at the file's configuration (spec.h):
// body frames, joint points and axes, handle points, spring points. Re-posing moves each body's
// frame to its current pose P_b = (r_b, R_b) and carries every world point X or direction a that
// is fixed in a body b along with it, from the file's pose P_b⁰:
//   X' = r_b + R_b R_b⁰ᵀ (X − r_b⁰),    a' = R_b R_b⁰ᵀ a.
// A joint's point and axis go with body1 (the joint holds, so body2 agrees), a universal joint's
// axis2, a distance joint's point2 and a spring's point2 with body2. Lengths that defaulted to the
// file's distance (distance joints, springs) are written out, so they keep their value.
//
// Joint coordinates are zero in the file configuration (core/kinematics), so the saved file's
// coordinates count from the new pose: a single-axis coordinate (revolute, prismatic, the angle of
// a cylindrical joint) at value c has its limits and its joint spring's rest shifted by −c, which
// keeps them at the same physical positions. Driver expressions are kept as written: they move the
// mechanism relative to its file configuration, now the saved pose (a driver that is 0 at t = 0,
// as most are, opens exactly there). Deformable parts are written as loaded.
#include <vector>

#include "core/model.h"
#include "core/spec.h"
#include "core/types.h"

namespace mechsim::ui {

/// `spec` with its bodies at `poses` (one per body of `model`, as Frame::poses) and joint
/// coordinates `coords` (Data::coords of `model`, SI). `model` must be compiled from `spec`.
/// Throws std::invalid_argument when the sizes do not match. A spec with an import
/// (MechanismSpec::imported) is returned as it is: the robot is read again at its own file's pose.
MechanismSpec specAtPose(const MechanismSpec& spec, const Model& model, const std::vector<Pose>& poses,
                         const VecX& coords);

}  // namespace mechsim::ui
