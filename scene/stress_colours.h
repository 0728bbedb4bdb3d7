#pragma once
// scene/stress_colours.h — per-vertex colours of the deformable surfaces from their von Mises stress
// (ui/deformable_parts.h, core/deform/stress.h), without Qt or GL: a blue → green → yellow → red
// ramp over the range [min, max] of all parts (linear in the stress), and the range's text in
// pascals for the legend. The range is one frame's, or one that grows over the frames (a held
// range, so that a colour keeps its stress while the part moves).
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace mechsim::ui {

/// The ramp at s ∈ [0, 1] (clamped; not finite: 0): blue (0) → green (⅓) → yellow (⅔) → red (1),
/// linear in RGB between the stops; alpha 1.
Eigen::Vector4f stressRampColour(double s);

struct StressColours {
  std::vector<std::shared_ptr<const std::vector<Eigen::Vector4f>>> colours;  // per part, per surface vertex
  double min = 0, max = 0;  // Pa, over all parts
  bool valid = false;       // at least one finite value
};

/// A range of stresses held over frames: it only grows (reset it to start again).
struct StressRange {
  double min = 0, max = 0;  // Pa
  bool valid = false;       // some finite value seen
  void reset() { *this = StressRange{}; }
};

/// Colours of every part's surface vertices from their stresses (Pa); values that are not finite
/// are drawn at the bottom of the ramp and left out of the range. The range is this frame's, or,
/// with `hold`, the held range widened by this frame's values (and hold updated to it).
StressColours colourByStress(const std::vector<std::shared_ptr<const std::vector<float>>>& stress,
                             StressRange* hold = nullptr);

/// A stress in pascals with an SI prefix and three significant digits: "0 Pa", "312 Pa",
/// "45.1 kPa", "2.05 MPa", "1.20 GPa".
std::string formatPascal(double value);

}  // namespace mechsim::ui
