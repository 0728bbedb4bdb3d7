// core/kinematics/planar.cpp — the planar joint (3 DOF: body2 slides and turns in body1's plane).
//
// Frames: z = the plane normal; d = r2 + R2 s2 − r1 − R1 s1.
// Equations (3 rows):
//   C_perp1  = (R1 x1)·(R2 z2) = 0        [perp1]   normals parallel
//   C_perp2  = (R1 y1)·(R2 z2) = 0        [perp2]
//   C_offset = (R1 z1)·d = 0              [offset]  body2's point stays in body1's plane
// Jacobian and γ: dot rows as in revolute.cpp, the offset row as the slide rows of prismatic.cpp.
// Coordinates: P.0 = x = (R1 x1)·d,  P.1 = y = (R1 y1)·d  (in-plane position along frame1's axes),
//              P.2 = angle about the normal, atan2((R1 y1)·(R2 x2), (R1 x1)·(R2 x2)).
#include "core/kinematics/equations.h"

namespace mechsim::kin {
namespace {

const char* const kNames[] = {"perp1", "perp2", "offset"};

struct Planar {
  template <unsigned W>
  static void equations(const JointContext<W>& c, RowJet<W>* out) {
    // Normals parallel.
    const Jet3<W> z2 = c.axis(1, 2);
    out[0] = dot(c.axis(0, 0), z2);
    out[1] = dot(c.axis(0, 1), z2);
    // In the plane.
    out[2] = dot(c.axis(0, 2), c.separation());
  }

  template <unsigned W>
  static void coordinates(const JointContext<W>& c, CoordExprOf<RowJet<W>>* out) {
    out[0] = axialSlide(c, 0);
    out[1] = axialSlide(c, 1);
    out[2] = axialAngle(c);
  }
};

}  // namespace

const JointKind planarKind = makeJointKind<Planar>(3, kNames);

}  // namespace mechsim::kin
