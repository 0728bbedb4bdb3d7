#pragma once
// core/kinematics/terms.h — the building blocks of every constraint equation (internal header).
//
// Every joint equation of mechsim is a scalar built from world vectors of two bodies:
//   a body-fixed direction   u = R(p) a                      (a constant in the body frame)
//   a body-fixed point       x = r + R(p) s                  (s constant in the body frame)
// combined by differences, dot products and the Euclidean norm. Each such quantity is carried as a
// second-order "jet" along the current velocity q̇:
//   v   the value,
//   J   its Jacobian w.r.t. the coordinates (r, p) of body1 and of body2 (two 3×7 / 1×7 blocks),
//   vd  its time derivative J q̇,
//   a2  the part of its second time derivative that does not contain q̈:  d²f/dt² = J q̈ + a2,
//       i.e. a2 = (J q̇)_q q̇. The acceleration right-hand side of an equation Φ_i is γ_i = −a2
//       (plus the driver's time terms, driver.cpp).
// Composition rules (product rule twice):
//   difference  a2(x − y) = a2(x) − a2(y)
//   dot         f = u·w:  J_f = wᵀ J_u + uᵀ J_w,  a2_f = a2_u·w + 2 u̇·ẇ + u·a2_w
//   norm        n = |x|:  J_n = xᵀ J_x / n,      a2_n = (ẋ·ẋ + x·a2_x)/n − (x·ẋ)²/n³
//
// Rotation matrix (coordinates p = (w, v) need not be normalised; the normalisation equation
// pᵀp − 1 = 0 is part of Φ, normalization.cpp):
//   R(p) = (w² − vᵀv) I + 2 v vᵀ + 2 w [v]×        (homogeneous quadratic: R(p) = |p|² · rotation)
// so for a constant vector a, f(p) = R(p) a = B(p, p) with B symmetric bilinear, and
//   ∂f/∂w = 2 w a + 2 v × a
//   ∂f/∂v = 2 (v·a) I + 2 v aᵀ − 2 a vᵀ − 2 w [a]×
//   f̈ = 2 B(p, p̈) + 2 B(ṗ, ṗ) = (∂f/∂p) p̈ + 2 R(ṗ) a        ⇒  a2 = 2 R(ṗ) a
// (R(ṗ) is the same quadratic formula evaluated at ṗ). Since v aᵀ − a vᵀ = −[v × a]×, with
//   c = w a + v × a,   α = v·a:
//   D(a) = ∂(R(p) a)/∂p = 2 [ c | α I − [c]× ]     (3 × 4, columns w, x y z)
//   yᵀ D(a) = 2 [ c·y | α yᵀ + (c × y)ᵀ ]          (its contraction with a world vector y)
//   D(a) ṗ = 2 (ẇ c + α v̇ − c × v̇)
// D is linear in a, so a sum of rotated vectors of one body is still described by one (c, α). A
// vector jet therefore stores, per body side s, the coefficient of r_s (J's r block is cr·I) and
// the (c, α) of its rotated part; a scalar's gradient is the contraction of these with the other
// factor — no 3×7 blocks are formed.
//
// What is evaluated is a template parameter W (bit flags): kValue (Φ only), kGradient (Φ_q),
// kRates (vd and a2, for γ and coordinate rates). Only the asked-for parts are computed; the
// rotation matrices R(p) (and R(ṗ) for rates) are computed once per body and evaluation
// (BodyFrame, assembly.h) and shared by every row that touches the body. Fixed bodies have no
// columns in Φ_q: their gradient terms are neither computed nor flagged.
#include <Eigen/Core>
#include <cmath>
#include <type_traits>

#include "core/model.h"
#include "core/types.h"

namespace mechsim::kin {

using Row7 = Eigen::Matrix<double, 1, 7>;
using Vec4 = Eigen::Vector4d;

/// What one evaluation computes (bit flags; template parameter W of the jets).
inline constexpr unsigned kValue = 0;                    // the value only
inline constexpr unsigned kGradient = 1;                 // + the gradient (rows of Φ_q)
inline constexpr unsigned kRates = 2;                    // + vd and a2 (rows of Φ_q q̇ and of γ)
inline constexpr unsigned kAll = kGradient | kRates;
inline constexpr unsigned kTime = 4;  // + the drivers' time terms Φ_t, −2 Φ_qt q̇ − Φ_tt (forEachRowAt only)

/// R(p) by the quadratic formula above (p = (w, v)).
inline Mat3 rotationOf(double w, const Vec3& v) {
  Mat3 vx;
  vx << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return (w * w - v.squaredNorm()) * Mat3::Identity() + 2.0 * v * v.transpose() + 2.0 * w * vx;
}

/// One body at the evaluation point, computed once per evaluation (assembly.h). Fixed bodies have
/// their pose0 and zero rates.
struct BodyFrame {
  Vec3 r = Vec3::Zero(), rd = Vec3::Zero();   // origin and its rate
  double w = 1, wd = 0;                       // p = (w, v) and ṗ = (ẇ, v̇)
  Vec3 v = Vec3::Zero(), vdot = Vec3::Zero();
  Mat3 R = Mat3::Identity();                  // R(p)
  Mat3 Rpd = Mat3::Zero();                    // R(ṗ) (only with kRates)
  bool moving = false;
};

/// A scalar and its derivatives; one row of Φ.
struct Jet1 {
  double v = 0, vd = 0, a2 = 0;
  Row7 g[2] = {Row7::Zero(), Row7::Zero()};
  bool usesR[2] = {false, false}, usesP[2] = {false, false};  // structural pattern
};

/// A scalar without gradient (evaluations without kGradient).
struct Jet1Lean {
  double v = 0, vd = 0, a2 = 0;
};

/// The scalar jet type of evaluation W.
template <unsigned W>
using RowJet = std::conditional_t<(W & kGradient) != 0, Jet1, Jet1Lean>;

/// The Jacobian of a world vector (see the header comment): per side s, ∂x/∂r_s = cr[s] I and
/// ∂x/∂p_s = D(a) of its rotated part, described by c[s] and alpha[s].
struct Jet3Gradient {
  double cr[2] = {0, 0};
  Vec3 c[2] = {Vec3::Zero(), Vec3::Zero()};
  double alpha[2] = {0, 0};
  bool usesR[2] = {false, false}, usesP[2] = {false, false};  // structural pattern
};
struct Jet3Rates {
  Vec3 vd = Vec3::Zero(), a2 = Vec3::Zero();
};
struct NoGradient {};
struct NoRates {};

/// A world vector and the derivatives evaluation W asks for.
template <unsigned W>
struct Jet3 {
  Vec3 v = Vec3::Zero();
  [[no_unique_address]] std::conditional_t<(W & kGradient) != 0, Jet3Gradient, NoGradient> d;
  [[no_unique_address]] std::conditional_t<(W & kRates) != 0, Jet3Rates, NoRates> rt;
};

/// u = R(p) a for body `side` (0 = body1, 1 = body2).
template <unsigned W>
inline Jet3<W> direction(const BodyFrame& b, int side, const Vec3& a) {
  Jet3<W> j;
  j.v = b.R * a;
  if constexpr ((W & kAll) != 0) {
    if (b.moving) {
      const Vec3 c = b.w * a + b.v.cross(a);
      const double alpha = b.v.dot(a);
      if constexpr ((W & kGradient) != 0) {
        j.d.c[side] = c;
        j.d.alpha[side] = alpha;
        j.d.usesP[side] = true;
      }
      if constexpr ((W & kRates) != 0) {
        j.rt.vd = 2.0 * (b.wd * c + alpha * b.vdot - c.cross(b.vdot));
        j.rt.a2 = 2.0 * (b.Rpd * a);
      }
    }
  }
  return j;
}

/// x = r + R(p) s for body `side`.
template <unsigned W>
inline Jet3<W> point(const BodyFrame& b, int side, const Vec3& s) {
  Jet3<W> j = direction<W>(b, side, s);
  j.v += b.r;
  if (b.moving) {
    if constexpr ((W & kGradient) != 0) {
      j.d.cr[side] = 1.0;
      j.d.usesR[side] = true;
    }
    if constexpr ((W & kRates) != 0) j.rt.vd += b.rd;
  }
  return j;
}

template <unsigned W>
inline Jet3<W> operator-(const Jet3<W>& x, const Jet3<W>& y) {
  Jet3<W> j;
  j.v = x.v - y.v;
  if constexpr ((W & kGradient) != 0)
    for (int s = 0; s < 2; ++s) {
      j.d.cr[s] = x.d.cr[s] - y.d.cr[s];
      j.d.c[s] = x.d.c[s] - y.d.c[s];
      j.d.alpha[s] = x.d.alpha[s] - y.d.alpha[s];
      j.d.usesR[s] = x.d.usesR[s] || y.d.usesR[s];
      j.d.usesP[s] = x.d.usesP[s] || y.d.usesP[s];
    }
  if constexpr ((W & kRates) != 0) {
    j.rt.vd = x.rt.vd - y.rt.vd;
    j.rt.a2 = x.rt.a2 - y.rt.a2;
  }
  return j;
}

/// f.g += yᵀ J_x (y a constant world vector), and x's pattern into f's.
inline void addContraction(const Jet3Gradient& x, const Vec3& y, Jet1& f) {
  for (int s = 0; s < 2; ++s) {
    if (x.usesR[s]) {
      f.g[s].head<3>() += x.cr[s] * y.transpose();
      f.usesR[s] = true;
    }
    if (x.usesP[s]) {
      f.g[s](3) += 2.0 * x.c[s].dot(y);
      f.g[s].tail<3>() += 2.0 * (x.alpha[s] * y + x.c[s].cross(y)).transpose();
      f.usesP[s] = true;
    }
  }
}

/// f = x·y.
template <unsigned W>
inline RowJet<W> dot(const Jet3<W>& x, const Jet3<W>& y) {
  RowJet<W> f;
  f.v = x.v.dot(y.v);
  if constexpr ((W & kRates) != 0) {
    f.vd = x.rt.vd.dot(y.v) + x.v.dot(y.rt.vd);
    f.a2 = x.rt.a2.dot(y.v) + 2.0 * x.rt.vd.dot(y.rt.vd) + x.v.dot(y.rt.a2);
  }
  if constexpr ((W & kGradient) != 0) {
    addContraction(x.d, y.v, f);
    addContraction(y.d, x.v, f);
  }
  return f;
}

/// n = |x| (x must not vanish).
template <unsigned W>
inline RowJet<W> norm(const Jet3<W>& x) {
  RowJet<W> f;
  const double n = x.v.norm();
  f.v = n;
  if constexpr ((W & kRates) != 0) {
    const double xxd = x.v.dot(x.rt.vd);
    f.vd = xxd / n;
    f.a2 = (x.rt.vd.squaredNorm() + x.v.dot(x.rt.a2)) / n - xxd * xxd / (n * n * n);
  }
  if constexpr ((W & kGradient) != 0) addContraction(x.d, x.v / n, f);
  return f;
}

/// The three components of x into out[0..2] (the rows of a point coincidence); with
/// D = 2 [c | α I − [c]×] the p-block of row k is row k of D.
template <unsigned W>
inline void components(const Jet3<W>& x, RowJet<W>* out) {
  for (int k = 0; k < 3; ++k) {
    out[k] = RowJet<W>{};
    out[k].v = x.v(k);
    if constexpr ((W & kRates) != 0) {
      out[k].vd = x.rt.vd(k);
      out[k].a2 = x.rt.a2(k);
    }
  }
  if constexpr ((W & kGradient) != 0)
    for (int s = 0; s < 2; ++s) {
      if (x.d.usesR[s])
        for (int k = 0; k < 3; ++k) {
          out[k].g[s](k) = x.d.cr[s];
          out[k].usesR[s] = true;
        }
      if (x.d.usesP[s]) {
        const Vec3 c = 2.0 * x.d.c[s];
        const double a = 2.0 * x.d.alpha[s];
        out[0].g[s].template tail<4>() << c.x(), a, c.z(), -c.y();
        out[1].g[s].template tail<4>() << c.y(), -c.z(), a, c.x();
        out[2].g[s].template tail<4>() << c.z(), c.y(), -c.x(), a;
        for (int k = 0; k < 3; ++k) out[k].usesP[s] = true;
      }
    }
}

/// α x + β y (constant coefficients).
template <class T>
inline T combine(double alpha, const T& x, double beta, const T& y) {
  T f;
  f.v = alpha * x.v + beta * y.v;
  f.vd = alpha * x.vd + beta * y.vd;
  f.a2 = alpha * x.a2 + beta * y.a2;
  if constexpr (std::is_same_v<T, Jet1>)
    for (int s = 0; s < 2; ++s) {
      f.g[s] = alpha * x.g[s] + beta * y.g[s];
      f.usesR[s] = x.usesR[s] || y.usesR[s];
      f.usesP[s] = x.usesP[s] || y.usesP[s];
    }
  return f;
}

/// −x.
template <class T>
inline T negate(const T& x) {
  T f = x;
  f.v = -x.v;
  f.vd = -x.vd;
  f.a2 = -x.a2;
  if constexpr (std::is_same_v<T, Jet1>)
    for (int s = 0; s < 2; ++s) f.g[s] = -x.g[s];
  return f;
}

/// x − c (constant c).
template <class T>
inline T minus(T x, double c) {
  x.v -= c;
  return x;
}

/// The two bodies of a joint at the evaluation point, with helpers for its frames.
template <unsigned W>
struct JointContext {
  const Joint* joint = nullptr;
  const BodyFrame* b[2] = {nullptr, nullptr};

  /// Column k (0 = x, 1 = y, 2 = z) of the joint frame in body `side`, as a world vector.
  Jet3<W> axis(int side, int k) const {
    const Mat3& F = side == 0 ? joint->frame1 : joint->frame2;
    return direction<W>(*b[side], side, F.col(k));
  }
  /// The joint point (point1 / point2) of body `side` in the world.
  Jet3<W> jointPoint(int side) const { return point<W>(*b[side], side, side == 0 ? joint->point1 : joint->point2); }
  /// d = (r2 + R2 s2) − (r1 + R1 s1): from body1's joint point to body2's.
  Jet3<W> separation() const { return jointPoint(1) - jointPoint(0); }
};

/// How a joint coordinate is read from the coordinates (and how a driver prescribes it).
///   Angle:  θ = atan2(S, C), with S = ρ sin θ, C = ρ cos θ dot products of frame axes
///   Sine:   θ = asin(S)      (the middle Euler angle of the spherical joint, |θ| < π/2)
///   Linear: s = S            (slides, planar x/y, distance extension)
enum class CoordKind { Angle, Sine, Linear };
template <class T>
struct CoordExprOf {
  using Kind = CoordKind;
  Kind kind = Kind::Linear;
  T s, c;
};
using CoordExpr = CoordExprOf<Jet1>;

}  // namespace mechsim::kin
