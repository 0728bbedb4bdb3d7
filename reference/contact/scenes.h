#pragma once
// reference/contact/scenes.h — the test scenes of paper 000 §5, built in code: Pool 1, Pool 2 and
// Stacking, as circles in the xy-plane (the paper's 2-D setting) or as spheres (3-D versions).
// Friction 0.1, restitution 0.2 and g = 9.80665 m/s² unless `friction` overrides μ (Table 1 of the
// paper is computed frictionless).
#include "reference/contact/spheres.h"

namespace mechsim::contact {

/// Pool 1: 221 circles, radius 0.21 m, mass 2 kg, in a box 6 m wide (two walls and the ground),
/// packed hexagonally from the ground up (rows of 14 and 13, 1 cm apart, small deterministic
/// jitter). Pool 2: the same with the mass rising linearly from 1 kg (lowest row) to 3 kg (highest). In 3-D the box is 3 diameters deep
/// and the rows alternate in depth.
SphereWorld poolScene(bool heavyOnTop, bool planar = true, double friction = 0.1);

/// Stacking: `count` circles (the paper: 30, and 150 for its Table 1 timings), radius 0.18 m,
/// 1 kg, stacked vertically on the ground 1 mm apart.
SphereWorld stackingScene(int count, bool planar = true, double friction = 0.1);

}  // namespace mechsim::contact
