#pragma once
// reference/scale/large_mechanisms.h — mechanisms of any size, built in code, on which the cost of
// loading, checking, kinematics and dynamics is measured against the number of bodies
// (`mechsim-cli bench scale`, docs/results/scale-measurements.md) and the linear growth is tested.
//
//   chain   n links of 0.1 m in a row along x, each a revolute joint on the one before (the first on
//           the ground), axes alternately z and y: a spatial serial chain of n DOF. `driven`: every
//           joint has a driver 0.2 sin t rad (0 DOF left; the "every joint driven"),
//           else it falls under gravity (−z) as an n-link pendulum.
//   ladder  a row of c four-bar cells (IFToMM A02's N-four-bar, c = N): c + 1 rods of 1 m pinned
//           to the ground at x = 0 … c, their tops joined by c couplers; 2c + 1 bodies, 3c + 1
//           revolutes about z, one driver on the first rod (0.3 sin t rad). Planar loops modelled in
//           3-D: 3 redundant equations per cell (5(3c + 1) − (6(2c + 1) − 1) = 3c of them),
//           true mobility 1 — the redundant-constraint case at scale.
// Both carry a handle at the free end (chain) or on the first rod's top (ladder) for drags.
#include "core/spec.h"

namespace mechsim::reference {

/// The serial chain of `links` moving bodies (≥ 1).
MechanismSpec chainMechanism(int links, bool driven);

/// The ladder of `cells` four-bar cells (≥ 1): 2 cells + 1 moving bodies.
MechanismSpec ladderMechanism(int cells);

}  // namespace mechsim::reference
