// core/kinematics/distance.cpp — the distance joint (a massless rod between two points).
//
// d = r2 + R2 s2 − r1 − R1 s1, s_i the attachment points in the body frames, L the nominal length.
// Equation (1 row), when the joint is not driven:
//   C_length = dᵀd − L² = 0                            [length]
// (the squared form stays smooth when d passes through zero). Jacobian: 2 dᵀ ∂d/∂q with
//   ∂d/∂r1 = −I, ∂d/∂p1 = −D1(s1), ∂d/∂r2 = I, ∂d/∂p2 = D2(s2);   γ = −2 (ḋ·ḋ + d·a2_d),
//   a2_d = 2 R(ṗ2) s2 − 2 R(ṗ1) s1.
// Coordinate: the extension e = |d| − L (zero when the file's distance is the length).
// A driven distance joint is an actuator: its own equation is REPLACED by the driver row
//   |d| − (L + e(t)) = 0                               [<driver>:drive]
// (compile.cpp gives the joint 0 equations then; the norm form measures the extension linearly;
// its Jacobian dᵀ/|d| ∂d/∂q needs d ≠ 0).
#include "core/kinematics/equations.h"

namespace mechsim::kin {
namespace {

const char* const kNames[] = {"length"};

struct Distance {
  template <unsigned W>
  static void equations(const JointContext<W>& c, RowJet<W>* out) {
    if (c.joint->nEquations == 0) return;  // driven: the driver row replaces it
    const Jet3<W> d = c.separation();
    out[0] = minus(dot(d, d), c.joint->length * c.joint->length);
  }

  template <unsigned W>
  static void coordinates(const JointContext<W>& c, CoordExprOf<RowJet<W>>* out) {
    out[0].kind = CoordKind::Linear;
    out[0].s = minus(norm(c.separation()), c.joint->length);
  }
};

}  // namespace

const JointKind distanceKind = makeJointKind<Distance>(1, kNames);

}  // namespace mechsim::kin
