// core/kinematics/fixed.cpp — the fixed (weld) joint (0 DOF).
//
// Frames: compile.cpp puts the joint point at body2's origin and both frames equal to the world
// axes in the file configuration.
// Equations (6 rows):
//   C_point = r1 + R1 s1 − r2 − R2 s2 = 0              [x, y, z]
//   C_perp1 = (R1 x1)·(R2 z2) = 0                      [perp1]
//   C_perp2 = (R1 y1)·(R2 z2) = 0                      [perp2]
//   C_twist = (R1 x1)·(R2 y2) = 0                      [twist]
// (the three dots lock the relative rotation near the file configuration).
// Jacobian and γ: as the point rows of spherical.cpp and the dot rows of revolute.cpp.
#include "core/kinematics/equations.h"

namespace mechsim::kin {
namespace {

const char* const kNames[] = {"x", "y", "z", "perp1", "perp2", "twist"};

struct Fixed {
  template <unsigned W>
  static void equations(const JointContext<W>& c, RowJet<W>* out) {
    // Point coincidence.
    const Jet3<W> d = c.jointPoint(0) - c.jointPoint(1);
    components(d, out);
    // Orientation lock.
    const Jet3<W> x1 = c.axis(0, 0);
    const Jet3<W> z2 = c.axis(1, 2);
    out[3] = dot(x1, z2);
    out[4] = dot(c.axis(0, 1), z2);
    out[5] = dot(x1, c.axis(1, 1));
  }

  template <unsigned W>
  static void coordinates(const JointContext<W>&, CoordExprOf<RowJet<W>>*) {}
};

}  // namespace

const JointKind fixedKind = makeJointKind<Fixed>(6, kNames);

}  // namespace mechsim::kin
