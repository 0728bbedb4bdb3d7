// core/kinematics/spherical.cpp — the spherical (ball) joint (3 DOF: rotations about a point).
//
// Equations (3 rows):
//   C_point = r1 + R1 s1 − r2 − R2 s2 = 0              [x, y, z]
// Jacobian: ∂/∂r1 = I, ∂/∂p1 = D1(s1), ∂/∂r2 = −I, ∂/∂p2 = −D2(s2);  γ = −2 R(ṗ1) s1 + 2 R(ṗ2) s2.
// Coordinates: intrinsic Z-Y-X (yaw, pitch, roll) angles of frame2 relative to frame1,
//   F1ᵀ R1ᵀ R2 F2 = Rz(a) Ry(b) Rx(c), so with X_i = R_i x_i etc.
//   B.0 = a = atan2(Y1·X2, X1·X2)     (about frame1's z)
//   B.1 = b = asin(−Z1·X2)            (|b| < π/2; a driver prescribes sin b)
//   B.2 = c = atan2(Z1·Y2, Z1·Z2)     (about frame2's x)
// all zero in the file configuration. They are singular at b = ±π/2 (gimbal lock).
#include "core/kinematics/equations.h"

namespace mechsim::kin {
namespace {

const char* const kNames[] = {"x", "y", "z"};

struct Spherical {
  template <unsigned W>
  static void equations(const JointContext<W>& c, RowJet<W>* out) {
    // Point coincidence only.
    const Jet3<W> d = c.jointPoint(0) - c.jointPoint(1);
    components(d, out);
  }

  template <unsigned W>
  static void coordinates(const JointContext<W>& c, CoordExprOf<RowJet<W>>* out) {
    const Jet3<W> X1 = c.axis(0, 0), Y1 = c.axis(0, 1), Z1 = c.axis(0, 2);
    const Jet3<W> X2 = c.axis(1, 0), Y2 = c.axis(1, 1), Z2 = c.axis(1, 2);
    // Yaw about z1.
    out[0].kind = CoordKind::Angle;
    out[0].s = dot(Y1, X2);
    out[0].c = dot(X1, X2);
    // Pitch: sin b = −Z1·X2.
    out[1].kind = CoordKind::Sine;
    out[1].s = negate(dot(Z1, X2));
    // Roll about x2.
    out[2].kind = CoordKind::Angle;
    out[2].s = dot(Z1, Y2);
    out[2].c = dot(Z1, Z2);
  }
};

}  // namespace

const JointKind sphericalKind = makeJointKind<Spherical>(3, kNames);

}  // namespace mechsim::kin
