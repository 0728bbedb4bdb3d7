// core/kinematics/cylindrical.cpp — the cylindrical joint (2 DOF: rotation about and translation
// along a common axis).
//
// Notation as in revolute.cpp and prismatic.cpp; d = r2 + R2 s2 − r1 − R1 s1.
// Equations (4 rows):
//   C_perp1  = (R1 x1)·(R2 z2) = 0        [perp1]   axes parallel
//   C_perp2  = (R1 y1)·(R2 z2) = 0        [perp2]
//   C_slide1 = (R1 x1)·d = 0              [slide1]  body2's point stays on body1's axis
//   C_slide2 = (R1 y1)·d = 0              [slide2]
// Jacobian blocks and γ as in prismatic.cpp (the same four terms, without the twist lock).
// Coordinates: C.0 = angle about the axis, atan2((R1 y1)·(R2 x2), (R1 x1)·(R2 x2));
//              C.1 = slide along the axis, (R1 z1)·d.
#include "core/kinematics/equations.h"

namespace mechsim::kin {
namespace {

const char* const kNames[] = {"perp1", "perp2", "slide1", "slide2"};

struct Cylindrical {
  template <unsigned W>
  static void equations(const JointContext<W>& c, RowJet<W>* out) {
    const Jet3<W> x1 = c.axis(0, 0), y1 = c.axis(0, 1);
    // Axes parallel.
    const Jet3<W> z2 = c.axis(1, 2);
    out[0] = dot(x1, z2);
    out[1] = dot(y1, z2);
    // Body2's point on body1's axis.
    const Jet3<W> d = c.separation();
    out[2] = dot(x1, d);
    out[3] = dot(y1, d);
  }

  template <unsigned W>
  static void coordinates(const JointContext<W>& c, CoordExprOf<RowJet<W>>* out) {
    out[0] = axialAngle(c);
    out[1] = axialSlide(c, 2);
  }
};

}  // namespace

const JointKind cylindricalKind = makeJointKind<Cylindrical>(4, kNames);

}  // namespace mechsim::kin
