// core/kinematics/revolute.cpp — the revolute joint (1 DOF: rotation about a common axis).
//
// Notation (terms.h): body i has r_i, quaternion p_i and R_i = R(p_i); the joint frame in body i has
// columns x_i, y_i, z_i (z = axis) and the joint point s_i; world vectors X_i = R_i x_i etc.
// Equations (5 rows, names in brackets):
//   C_point = r1 + R1 s1 − r2 − R2 s2 = 0                       [x, y, z]
//   C_perp1 = (R1 x1)·(R2 z2) = 0                               [perp1]
//   C_perp2 = (R1 y1)·(R2 z2) = 0                               [perp2]
// Jacobian blocks (D_i(a) = ∂(R(p_i) a)/∂p_i, 3×4, terms.h):
//   C_point:  ∂/∂r1 = I,  ∂/∂p1 = D1(s1),  ∂/∂r2 = −I,  ∂/∂p2 = −D2(s2)
//   C_perp1:  ∂/∂p1 = (R2 z2)ᵀ D1(x1),  ∂/∂p2 = (R1 x1)ᵀ D2(z2)   (no r terms); perp2 alike with y1
// γ = −(Φ_q q̇)_q q̇:
//   C_point:  γ = −2 R(ṗ1) s1 + 2 R(ṗ2) s2
//   C_perp1:  γ = −[2 R(ṗ1)x1 · R2 z2 + 2 (D1(x1) ṗ1)·(D2(z2) ṗ2) + R1 x1 · 2 R(ṗ2) z2]
// Coordinate: the angle θ from x1 to x2 about z1, θ = atan2((R1 y1)·(R2 x2), (R1 x1)·(R2 x2)),
// zero in the file configuration (frames coincide there) and positive by the right-hand rule.
#include "core/kinematics/equations.h"

namespace mechsim::kin {
namespace {

const char* const kNames[] = {"x", "y", "z", "perp1", "perp2"};

struct Revolute {
  template <unsigned W>
  static void equations(const JointContext<W>& c, RowJet<W>* out) {
    // Point coincidence: the joint point of body1 minus that of body2.
    const Jet3<W> d = c.jointPoint(0) - c.jointPoint(1);
    components(d, out);
    // Axis parallel: body2's axis is perpendicular to body1's x and y.
    const Jet3<W> z2 = c.axis(1, 2);
    out[3] = dot(c.axis(0, 0), z2);
    out[4] = dot(c.axis(0, 1), z2);
  }

  template <unsigned W>
  static void coordinates(const JointContext<W>& c, CoordExprOf<RowJet<W>>* out) { out[0] = axialAngle(c); }
};

}  // namespace

const JointKind revoluteKind = makeJointKind<Revolute>(5, kNames);

}  // namespace mechsim::kin
