// core/kinematics/driver.cpp — driver rows: a joint coordinate prescribed as a function of time.
//
// A driver on coordinate k of a joint adds one row Φ_d(q, t) = 0, by the kind of the coordinate
// (CoordExpr, terms.h), with θ_d = value(t):
//   Linear (slide, planar x/y, distance extension):   Φ_d = L(q) − θ_d
//   Angle  (θ = atan2(S, C), S = ρ sin θ, C = ρ cos θ):
//          Φ_d = −sin θ_d · C(q) + cos θ_d · S(q)  (= ρ sin(θ − θ_d))
//          free of the ±π wrap of atan2, and smooth; on the solution its gradient equals ∇θ (ρ = 1
//          when the joint's own equations hold). The other root θ = θ_d + π is far (Newton starts
//          from the previous position).
//   Sine   (spherical pitch b = asin S):              Φ_d = S(q) − sin θ_d
// For a driven distance joint the extension row |d| − L − e(t) replaces the joint's own row
// (distance.cpp).
// Time terms (θ̇_d, θ̈_d by 5-point stencils of step tol::kDriverDiffStep; the expression is
// evaluated at the four stencil points only when Φ_t or γ is asked for, assembly.h):
//   Linear:  Φ_t = −θ̇_d;  Φ_qt = 0;  Φ_tt = −θ̈_d
//   Angle:   Φ_t = −θ̇_d (cos θ_d C + sin θ_d S);   Φ_qt q̇ = −θ̇_d (cos θ_d Ċ + sin θ_d Ṡ)
//            Φ_tt = −θ̈_d (cos θ_d C + sin θ_d S) + θ̇_d² (sin θ_d C − cos θ_d S)
//   Sine:    Φ_t = −cos θ_d θ̇_d;  Φ_qt = 0;  Φ_tt = sin θ_d θ̇_d² − cos θ_d θ̈_d
// and γ_d = −(Φ_q q̇)_q q̇ − 2 Φ_qt q̇ − Φ_tt.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/kinematics/equations.h"
#include "core/tolerances.h"

namespace mechsim::kin {

template <class T>
DriverRowOf<T> driverEquation(const CoordExprOf<T>& e, double val, double dval, double ddval) {
  DriverRowOf<T> d;
  switch (e.kind) {
    case CoordKind::Linear:
      d.row = minus(e.s, val);
      d.phiT = -dval;
      d.gammaTime = ddval;
      break;
    case CoordKind::Sine: {
      const double sn = std::sin(val), cs = std::cos(val);
      d.row = minus(e.s, sn);
      d.phiT = -cs * dval;
      const double phiTT = sn * dval * dval - cs * ddval;
      d.gammaTime = -phiTT;
      break;
    }
    case CoordKind::Angle: {
      const double sn = std::sin(val), cs = std::cos(val);
      d.row = combine(-sn, e.c, cs, e.s);
      const double along = cs * e.c.v + sn * e.s.v;  // ρ cos(θ − θ_d)
      d.phiT = -dval * along;
      const double phiQtQd = -dval * (cs * e.c.vd + sn * e.s.vd);
      const double phiTT = -ddval * along + dval * dval * (sn * e.c.v - cs * e.s.v);
      d.gammaTime = -2.0 * phiQtQd - phiTT;
      break;
    }
  }
  return d;
}
template DriverRowOf<Jet1> driverEquation(const CoordExprOf<Jet1>&, double, double, double);
template DriverRowOf<Jet1Lean> driverEquation(const CoordExprOf<Jet1Lean>&, double, double, double);

Jet1 coordinateGradient(const CoordExpr& e) {
  switch (e.kind) {
    case CoordKind::Linear: return e.s;
    case CoordKind::Sine: {
      const double c = std::sqrt(std::max(1.0 - e.s.v * e.s.v, 1e-300));
      return combine(1.0 / c, e.s, 0.0, Jet1{});
    }
    case CoordKind::Angle: {
      // dθ = (C dS − S dC) / ρ²
      const double rho2 = std::max(e.s.v * e.s.v + e.c.v * e.c.v, 1e-300);
      return combine(e.c.v / rho2, e.s, -e.s.v / rho2, e.c);
    }
  }
  return e.s;
}

void coordinateValue(const CoordExpr& e, double qddS, double qddC, double& value, double& rate, double& acc) {
  const double S = e.s.v, Sd = e.s.vd, Sdd = qddS + e.s.a2;
  switch (e.kind) {
    case CoordKind::Linear:
      value = S;
      rate = Sd;
      acc = Sdd;
      return;
    case CoordKind::Sine: {
      const double s = std::clamp(S, -1.0, 1.0);
      const double c2 = std::max(1.0 - s * s, 1e-300), c = std::sqrt(c2);
      value = std::asin(s);
      rate = Sd / c;
      acc = Sdd / c + s * Sd * Sd / (c2 * c);
      return;
    }
    case CoordKind::Angle: {
      const double C = e.c.v, Cd = e.c.vd, Cdd = qddC + e.c.a2;
      const double rho2 = std::max(S * S + C * C, 1e-300);
      const double num = C * Sd - S * Cd;
      value = std::atan2(S, C);
      rate = num / rho2;
      acc = (C * Sdd - S * Cdd) / rho2 - 2.0 * num * (C * Cd + S * Sd) / (rho2 * rho2);
      return;
    }
  }
}

double driverValue(const Driver& drv, double t) { return drv.value ? drv.value(t) : 0.0; }

void driverValue(const Driver& drv, double t, double& val, double& dval, double& ddval) {
  if (!drv.value) {
    val = dval = ddval = 0;
    return;
  }
  // 5-point central stencils: f' = (f₋₂ − 8f₋₁ + 8f₁ − f₂)/(12h),
  // f'' = (−f₋₂ + 16f₋₁ − 30f₀ + 16f₁ − f₂)/(12h²).
  const double h = tol::kDriverDiffStep;
  const double f0 = drv.value(t);
  const double fm2 = drv.value(t - 2 * h), fm1 = drv.value(t - h);
  const double fp1 = drv.value(t + h), fp2 = drv.value(t + 2 * h);
  val = f0;
  if (std::isfinite(fm2) && std::isfinite(fm1) && std::isfinite(fp1) && std::isfinite(fp2)) {
    dval = (fm2 - 8 * fm1 + 8 * fp1 - fp2) / (12 * h);
    ddval = (-fm2 + 16 * fm1 - 30 * f0 + 16 * fp1 - fp2) / (12 * h * h);
    return;
  }
  // An expression undefined on one side of t (t·sqrt(t) at t = 0, log(t - 1) near 1): one-sided
  // 5-point stencils on the side where it is defined, s = +1 forward, −1 backward:
  // f' = s(−25f₀ + 48f₁ − 36f₂ + 16f₃ − 3f₄)/(12h), f'' = (35f₀ − 104f₁ + 114f₂ − 56f₃ + 11f₄)/(12h²),
  // f_k = f(t + s·k·h). Where neither side is defined, the derivatives are NaN and the caller's
  // finiteness checks report it.
  for (const double s : {1.0, -1.0}) {
    double f[5] = {f0, s > 0 ? fp1 : fm1, s > 0 ? fp2 : fm2, drv.value(t + 3 * s * h), drv.value(t + 4 * s * h)};
    bool finite = true;
    for (double v : f) finite = finite && std::isfinite(v);
    if (!finite) continue;
    dval = s * (-25 * f[0] + 48 * f[1] - 36 * f[2] + 16 * f[3] - 3 * f[4]) / (12 * h);
    ddval = (35 * f[0] - 104 * f[1] + 114 * f[2] - 56 * f[3] + 11 * f[4]) / (12 * h * h);
    return;
  }
  dval = ddval = std::numeric_limits<double>::quiet_NaN();
}

}  // namespace mechsim::kin
