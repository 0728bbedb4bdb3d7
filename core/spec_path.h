#pragma once
// core/spec_path.h — one value of a MechanismSpec named by a path, read and changed: what a script
// (the Python package's Spec, docs/python.md) and a parameter study edit between compilations.
//
// Paths name things by their names, SI units, world frame at the file's configuration (as the spec
// holds them; the writer converts back to the file's units):
//   gravity                                   vector (m/s²)
//   bodies.NAME.name                          text: renames the body and every reference to it
//   bodies.NAME.fixed                         number 0 (moving) or 1 (fixed)
//   bodies.NAME.position | com                vector (m; com in the body frame)
//   bodies.NAME.orientation                   4 numbers: unit axis x y z, then the angle (rad)
//   bodies.NAME.mass | density                number (kg, kg/m³)
//   bodies.NAME.inertia                       6 numbers Ixx Iyy Izz Ixy Ixz Iyz (kg·m²)
//   bodies.NAME.color                         text "#rrggbb", or empty for the default
//   bodies.NAME.shapes.K.FIELD                the body's K-th shape (0-based), FIELD one of
//   bodies.NAME.visuals.K.FIELD               the same for the visual-only shapes:
//       type                 text box | cylinder | sphere | capsule | mesh | plane
//       size                 vector (box edge lengths, m)
//       radius | length      number (m)
//       axis                 vector (cylinder, capsule: the unit axis; plane: its normal)
//       position             vector (m, body frame)
//       orientation          4 numbers as bodies.NAME.orientation (body frame)
//       color                text as bodies.NAME.color
//       scale                number (mesh: file coordinates → m, as the spec holds it)
//       file                 text (mesh: the path as the file writes it; a new one drops the
//                            loaded mesh and its resolved path: the io layer loads it again)
//       friction             optional number (μ)
//   joints.NAME.name                          text: renames the joint and every reference to it
//   joints.NAME.type                          text revolute | prismatic | cylindrical | spherical |
//                                             universal | planar | fixed | distance (a type without
//                                             exactly one coordinate drops the joint's limits)
//   joints.NAME.body1 | body2                 text: an existing body
//   joints.NAME.point | axis | axis1 | axis2 | normal | point1 | point2   vector
//   joints.NAME.length                        number (distance joints, m)
//   joints.NAME.limits                        2 numbers lower, upper (SI)
//   drivers.NAME.name                         text: renames the driver and the servos following it
//   drivers.NAME.joint                        text: an existing joint that has the driver's coordinate
//   drivers.NAME.coordinate                   number: a whole number, a coordinate of the driver's joint
//   drivers.NAME.expression                   text (an expression of t in the file's units)
//   handles.NAME.name                         text
//   handles.NAME.body                         text: an existing body
//   handles.NAME.point                        vector
//   dynamics.springs.NAME.name (text) | stiffness | damping | length, .point1 | .point2
//   dynamics.jointSprings.NAME.name (text) | stiffness | damping | rest
//   dynamics.motors.NAME.name (text) | effort (text) | kp | kd | maxEffort
//   deformables.NAME.name                     text
//   deformables.NAME.material                 text stable-neo-hookean | arap
//   deformables.NAME.youngs | poisson | density
//   deformables.NAME.solver                   text newton | vbd | jacobi | jgs2-jacobi | jgs2-gs, or
//                                             empty (not given: the default)
//   deformables.NAME.stepControl              text none | line-search | subspace, or empty
//   contact.friction | restitution
// A vector's entry is PATH[i] ("joints.B.point[1]", "bodies.crank.orientation[3]": the angle).
// Unset optional numbers (a mass the shapes give, a spring's rest length) read as absent and can
// be set. Every field of a shape reads and sets whatever its type; specPaths lists those the type
// uses. A name must not be empty nor another item's of its kind ("a body named 'x' already
// exists"); renaming follows every reference (core/spec_edit.h, renameItem).
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
/// holds one. Throws std::invalid_argument ("spec path 'PATH': ...") for an unknown path, a wrong
/// count or kind, a value that is not finite, and a value the list above rules out (a flag not 0
/// or 1, a coordinate not a whole number, an unknown type or body, a zero rotation axis, a taken
/// name). The spec is unchanged on a throw; the compiler checks the rest (a zero joint axis, a
/// negative mass, two drivers on one coordinate) when it is compiled. No numbers at a path of an
/// optional value (mass, density, inertia, limits, a spring's or distance joint's length, …) unset
/// it: the file's default again.
void setSpecValue(MechanismSpec& spec, const std::string& path, const SpecValue& value);

/// Every path setSpecValue takes for this spec (whole vectors, not their entries), in the order above.
std::vector<std::string> specPaths(const MechanismSpec& spec);

}  // namespace mechsim
