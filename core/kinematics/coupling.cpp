// core/kinematics/coupling.cpp — coupling rows: a joint coordinate b held at a polynomial of
// another coordinate a (gears, mimic joints, MJCF joint equalities).
//
// With f(a) = c0 + c1 a + c2 a² + c3 a³ + c4 a⁴, the row is the driver row of b (driver.cpp) with
// the prescribed value θ_d = f(a(q)) instead of a function of t, by the kind of b (terms.h):
//   Linear b:  Φ_c = L_b(q) − f
//   Angle  b:  Φ_c = −sin f · C_b(q) + cos f · S_b(q)   (= ρ_b sin(θ_b − f): free of the ±π wrap of b)
//   Sine   b:  Φ_c = S_b(q) − sin f
// and a read by its own kind: s (Linear), asin S (Sine), or an Angle θ_a = atan2(S_a, C_a) taken on
// the 2π-branch nearest a reference θ_ref, the leader's unwrapped value at the last solved position
// (Data::coords, CoordinateReference in assembly.h):
//   θ_a = θ_ref + remainder(atan2(S_a, C_a) − θ_ref, 2π),
// so that f = r θ_a + c with r ≠ ±1 follows a gear through any number of turns without jumping
// (the branch only changes where the leader moves by more than π within one solve).
// The row is a function Φ_c(B, f) of b's quantities B = (S_b, C_b) or L_b and of the scalar f:
//   ∂Φ_c/∂q = Φ_B ∂B/∂q + Φ_f f'(θ_a) ∇θ_a,
//   Φ_f = −1 (Linear), −(cos f C_b + sin f S_b) = −ρ_b cos(θ_b − f) (Angle), −cos f (Sine),
//   ∇θ_a: Linear ∇L_a, Sine ∇S_a / cos θ_a, Angle (C_a ∇S_a − S_a ∇C_a)/ρ_a² (coordinateGradient).
// The first term lives on b's two bodies, the second on a's two bodies: the row comes as two jets
// (assembly.h, RowInfo::part), added where the bodies coincide.
// Rates: with ḟ = f' θ̇_a and f̈ = f'' θ̇_a² + f' θ̈_a,  θ̈_a = ∇θ_a q̈ + a2_θ,
//   d²Φ_c/dt² = Φ_q q̈ + Φ_B a2_B + 2 (Φ_Bf·Ḃ) ḟ + Φ_ff ḟ² + Φ_f (f'' θ̇_a² + f' a2_θ),
// which is the driver row's a2 − gammaTime with (θ_d, θ̇_d, θ̈_d) = (f, ḟ, f'' θ̇_a² + f' a2_θ):
// the driver's "time" terms are exactly the terms through f (Φ_BB = 0: Φ_c is linear in B). So
//   a2_c = a2_driver − gammaTime_driver,   Φ̇_c = vd_driver + Φ_t,driver,
// and the coupling row itself has no explicit time terms (Φ_t = 0). The leader's θ̇_a and a2_θ are
// the rate rules of coordinates.cpp with q̈ = 0:
//   Angle  θ̇ = (C Ṡ − S Ċ)/ρ²,  a2_θ = (C a2_S − S a2_C)/ρ² − 2 (C Ṡ − S Ċ)(C Ċ + S Ṡ)/ρ⁴
//   Sine   θ̇ = Ṡ/c,             a2_θ = a2_S/c + S Ṡ²/c³,   c = √(1 − S²)
//   Linear θ̇ = L̇,               a2_θ = a2_L
#include <algorithm>
#include <cmath>

#include "core/kinematics/equations.h"

namespace mechsim::kin {

namespace {

/// θ_a, θ̇_a and a2_θ of the leader expression (see the header comment).
template <class T>
void leaderValue(const CoordExprOf<T>& e, double reference, double& value, double& rate, double& a2) {
  const double S = e.s.v, Sd = e.s.vd, Sa = e.s.a2;
  switch (e.kind) {
    case CoordKind::Linear:
      value = S;
      rate = Sd;
      a2 = Sa;
      return;
    case CoordKind::Sine: {
      const double s = std::clamp(S, -1.0, 1.0);
      const double c2 = std::max(1.0 - s * s, 1e-300), c = std::sqrt(c2);
      value = std::asin(s);
      rate = Sd / c;
      a2 = Sa / c + s * Sd * Sd / (c2 * c);
      return;
    }
    case CoordKind::Angle: {
      const double C = e.c.v, Cd = e.c.vd, Ca = e.c.a2;
      const double rho2 = std::max(S * S + C * C, 1e-300);
      const double num = C * Sd - S * Cd;
      value = reference + std::remainder(std::atan2(S, C) - reference, 2.0 * M_PI);
      rate = num / rho2;
      a2 = (C * Sa - S * Ca) / rho2 - 2.0 * num * (C * Cd + S * Sd) / (rho2 * rho2);
      return;
    }
  }
}

}  // namespace

void couplingPolynomial(const std::array<double, 5>& c, double a, double& f, double& df, double& ddf) {
  // Horner for f, f', f''.
  f = df = ddf = 0;
  for (int k = 4; k >= 0; --k) {
    ddf = ddf * a + 2.0 * df;
    df = df * a + f;
    f = f * a + c[k];
  }
}

template <class T>
CouplingRowOf<T> couplingEquation(const CoordExprOf<T>& b, const CoordExprOf<T>* a, double reference,
                                  const std::array<double, 5>& c) {
  double theta = 0, rate = 0, a2 = 0;
  if (a) leaderValue(*a, reference, theta, rate, a2);
  double f = c[0], df = 0, ddf = 0;
  if (a) couplingPolynomial(c, theta, f, df, ddf);
  const double fd = df * rate;
  const double fddFree = ddf * rate * rate + df * a2;
  const DriverRowOf<T> d = driverEquation(b, f, fd, fddFree);
  CouplingRowOf<T> r;
  r.row = d.row;
  r.row.vd += d.phiT;
  r.row.a2 -= d.gammaTime;
  r.value = f;
  if constexpr (std::is_same_v<T, Jet1>) {
    if (a) {
      double phiF = -1.0;
      switch (b.kind) {
        case CoordKind::Linear: phiF = -1.0; break;
        case CoordKind::Sine: phiF = -std::cos(f); break;
        case CoordKind::Angle: phiF = -(std::cos(f) * b.c.v + std::sin(f) * b.s.v); break;
      }
      r.leader = combine(phiF * df, coordinateGradient(*a), 0.0, Jet1{});
      r.leader.v = r.row.v;
      r.leader.vd = r.row.vd;
      r.leader.a2 = r.row.a2;
    }
  }
  return r;
}
template CouplingRowOf<Jet1> couplingEquation(const CoordExprOf<Jet1>&, const CoordExprOf<Jet1>*, double,
                                              const std::array<double, 5>&);
template CouplingRowOf<Jet1Lean> couplingEquation(const CoordExprOf<Jet1Lean>&, const CoordExprOf<Jet1Lean>*,
                                                  double, const std::array<double, 5>&);

}  // namespace mechsim::kin
