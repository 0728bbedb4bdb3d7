#pragma once
// core/kinematics/equations.h — the per-joint-type equation table (internal header).
//
// Each joint type lives in its own file (revolute.cpp, prismatic.cpp, ...), which opens with its
// equations, and provides a struct with two function templates over the evaluation W (terms.h):
//   equations<W>(ctx, out)    its constraint rows as jets (terms.h), in the order of its names
//   coordinates<W>(ctx, out)  its joint coordinates as CoordExprOf (angle / sine / linear)
// plus the names of its equations ("x", "perp1", ...). makeJointKind instantiates them for every
// W and jointKind(type) collects them. normalization.cpp and driver.cpp add the other two kinds
// of rows of Φ.
#include <array>
#include <string>
#include <tuple>
#include <vector>

#include "core/kinematics/terms.h"

namespace mechsim::kin {

template <unsigned W>
using EquationsFn = void (*)(const JointContext<W>&, RowJet<W>* out);
template <unsigned W>
using CoordinatesFn = void (*)(const JointContext<W>&, CoordExprOf<RowJet<W>>* out);

struct JointKind {
  int nEquations = 0;
  const char* const* equationNames = nullptr;
  std::tuple<EquationsFn<kValue>, EquationsFn<kGradient>, EquationsFn<kRates>, EquationsFn<kAll>> equationsOf;
  std::tuple<CoordinatesFn<kValue>, CoordinatesFn<kGradient>, CoordinatesFn<kRates>, CoordinatesFn<kAll>> coordinatesOf;

  /// Its rows at context c (out: nEquations entries).
  template <unsigned W>
  void equations(const JointContext<W>& c, RowJet<W>* out) const {
    std::get<W>(equationsOf)(c, out);
  }
  /// Its coordinates at context c (out: jointCoordinateCount entries, ≤ 3).
  template <unsigned W>
  void coordinates(const JointContext<W>& c, CoordExprOf<RowJet<W>>* out) const {
    std::get<W>(coordinatesOf)(c, out);
  }
};

/// The table entry of a joint struct J (static equations<W> / coordinates<W>).
template <class J>
constexpr JointKind makeJointKind(int nEquations, const char* const* names) {
  return {nEquations,
          names,
          {&J::template equations<kValue>, &J::template equations<kGradient>, &J::template equations<kRates>,
           &J::template equations<kAll>},
          {&J::template coordinates<kValue>, &J::template coordinates<kGradient>,
           &J::template coordinates<kRates>, &J::template coordinates<kAll>}};
}

/// The table entry of joint type t.
const JointKind& jointKind(JointType t);

extern const JointKind revoluteKind;
extern const JointKind prismaticKind;
extern const JointKind cylindricalKind;
extern const JointKind sphericalKind;
extern const JointKind universalKind;
extern const JointKind planarKind;
extern const JointKind fixedKind;
extern const JointKind distanceKind;

// ---- shared angle coordinate of the axial joints (revolute, cylindrical, planar) ----
/// θ about frame1's z from frame1's x to frame2's x:  C = x1·x2,  S = y1·x2  (= ((x1×x2)·z1)).
template <unsigned W>
inline CoordExprOf<RowJet<W>> axialAngle(const JointContext<W>& c) {
  CoordExprOf<RowJet<W>> e;
  e.kind = CoordKind::Angle;
  const Jet3<W> x2 = c.axis(1, 0);
  e.c = dot(c.axis(0, 0), x2);
  e.s = dot(c.axis(0, 1), x2);
  return e;
}

/// A linear coordinate: frame1's axis k dotted with the separation d.
template <unsigned W>
inline CoordExprOf<RowJet<W>> axialSlide(const JointContext<W>& c, int k) {
  CoordExprOf<RowJet<W>> e;
  e.kind = CoordKind::Linear;
  e.s = dot(c.axis(0, k), c.separation());
  return e;
}

// ---- normalisation rows (normalization.cpp) ----
/// pᵀp − 1 of a moving body (only side 0 used); instantiated for every W.
template <unsigned W>
RowJet<W> normalizationEquation(const BodyFrame& b);

// ---- driver rows (driver.cpp) ----
template <class T>
struct DriverRowOf {
  T row;                  // Φ_i and its q-derivatives (a2 = (Φ_q q̇)_q q̇)
  double phiT = 0;        // ∂Φ_i/∂t
  double gammaTime = 0;   // −2 Φ_qt q̇ − Φ_tt   (γ_i = −row.a2 + gammaTime)
};
using DriverRow = DriverRowOf<Jet1>;
/// The driver equation prescribing coordinate e to value(t) = val, with val' = dval, val'' = ddval
/// (T = Jet1 or Jet1Lean; with dval = ddval = 0 the time terms are zero).
template <class T>
DriverRowOf<T> driverEquation(const CoordExprOf<T>& e, double val, double dval, double ddval);
/// The gradient of the coordinate itself (equal to the driver row's gradient on the solution).
Jet1 coordinateGradient(const CoordExpr& e);
/// value, rate, second derivative of coordinate e (qddS = g·q̈ for S, qddC for C).
void coordinateValue(const CoordExpr& e, double qddS, double qddC, double& value, double& rate, double& acc);
/// value(t) of a driver (one evaluation of its expression).
double driverValue(const Driver& drv, double t);
/// value(t), value'(t), value''(t) of a driver (5-point stencils with tol::kDriverDiffStep).
void driverValue(const Driver& drv, double t, double& val, double& dval, double& ddval);

// ---- coupling rows (coupling.cpp) ----
template <class T>
struct CouplingRowOf {
  T row;          // Φ_c: its value and rates, and its gradient on the follower joint's two bodies
  Jet1 leader;    // with a leader and T = Jet1: the gradient on the leader joint's two bodies
                  // (v, vd, a2 repeat row's)
  double value = 0;  // f(θ_a), the value the follower is held at (SI)
};
/// The row holding follower coordinate b at f(θ_a) = Σ c_k θ_a^k of leader coordinate a (a null:
/// no leader, f = c0); an Angle leader is unwrapped against `reference` (its previous value).
template <class T>
CouplingRowOf<T> couplingEquation(const CoordExprOf<T>& b, const CoordExprOf<T>* a, double reference,
                                  const std::array<double, 5>& c);
/// f(a), f'(a), f''(a) of the polynomial Σ c_k a^k.
void couplingPolynomial(const std::array<double, 5>& c, double a, double& f, double& df, double& ddf);

}  // namespace mechsim::kin
