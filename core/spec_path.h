#pragma once
// core/spec_path.h — one value of a MechanismSpec named by a path, read and changed: what a script
// (the Python package's Spec, docs/python.md) and a parameter study edit between compilations.
//
// Paths name things by their names, SI units, world frame at the file's configuration (as the spec
// holds them; the writer converts back to the file's units):
//   gravity                                   vector (m/s²)
//   bodies.NAME.mass | density                number (kg, kg/m³)
//   bodies.NAME.position | com                vector (m; com in the body frame)
//   bodies.NAME.inertia                       6 numbers Ixx Iyy Izz Ixy Ixz Iyz (kg·m²)
//   joints.NAME.point | axis | axis1 | axis2 | normal | point1 | point2   vector
//   joints.NAME.length                        number (distance joints, m)
//   joints.NAME.limits                        2 numbers lower, upper (SI)
//   drivers.NAME.expression                   text (an expression of t in the file's units)
//   handles.NAME.point                        vector
//   dynamics.springs.NAME.stiffness | damping | length, .point1 | .point2
//   dynamics.jointSprings.NAME.stiffness | damping | rest
//   dynamics.motors.NAME.effort (text) | kp | kd | maxEffort
//   deformables.NAME.youngs | poisson | density
//   contact.friction | restitution
// A vector's entry is PATH[i] ("joints.B.point[1]"). Unset optional numbers (a mass the shapes
// give, a spring's rest length) read as absent and can be set.
#include <optional>
#include <string>
#include <vector>

#include "core/spec.h"

namespace mechsim {

/// What a path holds: numbers (one, or a vector's entries) or a text.
struct SpecValue {
  std::vector<double> numbers;  // empty with a text, or for an unset optional number
  std::optional<std::string> text;
  int count = 0;                // how many numbers the path holds (1 for PATH[i]; 0 for a text)
};

/// The value at `path`. Throws std::invalid_argument naming the path's first unknown part and what
/// is there instead.
SpecValue getSpecValue(const MechanismSpec& spec, const std::string& path);

/// Sets the value at `path`: as many numbers as it holds (one for PATH[i]), or a text where it
/// holds one. Throws std::invalid_argument for an unknown path, a wrong count or kind, or a value
/// that is not finite. The spec is unchanged on a throw; the compiler checks the rest (a zero axis,
/// a negative mass) when it is compiled.
void setSpecValue(MechanismSpec& spec, const std::string& path, const SpecValue& value);

/// Every path setSpecValue takes for this spec (whole vectors, not their entries), in the order above.
std::vector<std::string> specPaths(const MechanismSpec& spec);

}  // namespace mechsim
