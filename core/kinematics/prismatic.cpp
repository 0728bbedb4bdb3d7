// core/kinematics/prismatic.cpp — the prismatic joint (1 DOF: translation along a common axis).
//
// Notation as in revolute.cpp; d = r2 + R2 s2 − r1 − R1 s1 (zero in the file configuration).
// Equations (5 rows):
//   C_perp1  = (R1 x1)·(R2 z2) = 0        [perp1]   axes parallel
//   C_perp2  = (R1 y1)·(R2 z2) = 0        [perp2]
//   C_twist  = (R1 x1)·(R2 y2) = 0        [twist]   no rotation about the axis
//   C_slide1 = (R1 x1)·d = 0              [slide1]  body2's point stays on body1's axis
//   C_slide2 = (R1 y1)·d = 0              [slide2]
// Jacobian blocks: for u = R1 a (a = x1 or y1)
//   ∂(u·d)/∂r1 = −uᵀ,  ∂/∂p1 = dᵀ D1(a) − uᵀ D1(s1),  ∂/∂r2 = uᵀ,  ∂/∂p2 = uᵀ D2(s2)
// and the dots of two directions as in revolute.cpp.
// γ of u·d:  −[2 R(ṗ1) a · d + 2 (D1(a) ṗ1)·ḋ + u · (2 R(ṗ2) s2 − 2 R(ṗ1) s1)].
// Coordinate: the slide s = (R1 z1)·d, positive when body2 moves along +axis.
#include "core/kinematics/equations.h"

namespace mechsim::kin {
namespace {

const char* const kNames[] = {"perp1", "perp2", "twist", "slide1", "slide2"};

struct Prismatic {
  template <unsigned W>
  static void equations(const JointContext<W>& c, RowJet<W>* out) {
    const Jet3<W> x1 = c.axis(0, 0), y1 = c.axis(0, 1);
    // Orientation: axes parallel and no twist (all three relative rotations locked).
    const Jet3<W> z2 = c.axis(1, 2);
    out[0] = dot(x1, z2);
    out[1] = dot(y1, z2);
    out[2] = dot(x1, c.axis(1, 1));
    // Translation only along body1's axis: d has no x1 / y1 component.
    const Jet3<W> d = c.separation();
    out[3] = dot(x1, d);
    out[4] = dot(y1, d);
  }

  template <unsigned W>
  static void coordinates(const JointContext<W>& c, CoordExprOf<RowJet<W>>* out) { out[0] = axialSlide(c, 2); }
};

}  // namespace

const JointKind prismaticKind = makeJointKind<Prismatic>(5, kNames);

}  // namespace mechsim::kin
