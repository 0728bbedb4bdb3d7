#pragma once
// tests/core/mechanisms.h — reference mechanisms built in code (MechanismSpec + compile), shared by
// the core tests: planar four-bar and slider-crank modelled in 3-D with revolute/prismatic joints,
// the slider-crank of paper 003 Fig. 2.1, and two-body test rigs for each joint type.
#include <cmath>
#include <functional>
#include <vector>

#include "core/compile.h"
#include "core/data.h"
#include "core/spec.h"

namespace mechsim::test {

inline BodySpec body(const std::string& name, const Vec3& pos, bool fixed = false,
                     const Quat& orient = Quat::Identity()) {
  BodySpec b;
  b.name = name;
  b.fixed = fixed;
  b.position = pos;
  b.orientation = orient;
  if (!fixed) b.mass = 1.0;
  return b;
}

inline JointSpec joint(const std::string& name, JointType type, const std::string& b1, const std::string& b2,
                       const Vec3& point, const Vec3& axis = Vec3::UnitZ()) {
  JointSpec j;
  j.name = name;
  j.type = type;
  j.body1 = b1;
  j.body2 = b2;
  j.point = point;
  j.axis = axis;
  j.normal = axis;
  return j;
}

inline DriverSpec driver(const std::string& name, const std::string& joint, int coordinate = 0) {
  DriverSpec d;
  d.name = name;
  d.joint = joint;
  d.coordinate = coordinate;
  return d;
}

/// Four-bar: ground O2 = (0,0,0), O4 = (d,0,0); crank a, coupler b, rocker c; crank angle th2,
/// rocker angle th4 (open branch). Returns th4.
inline double fourBarRocker(double a, double b, double c, double d, double th2, double th4Guess) {
  // B on circle(O4, c) and circle(A, b): intersect.
  const Eigen::Vector2d A(a * std::cos(th2), a * std::sin(th2)), O4(d, 0);
  const Eigen::Vector2d D = O4 - A;
  const double L = D.norm();
  const double x = (b * b - c * c + L * L) / (2 * L);
  const double h = std::sqrt(std::max(b * b - x * x, 0.0));
  const Eigen::Vector2d e = D / L, n(-e.y(), e.x());
  double best = 0, bestErr = 1e300;
  for (double sgn : {1.0, -1.0}) {
    const Eigen::Vector2d B = A + x * e + sgn * h * n;
    const double th4 = std::atan2(B.y() - O4.y(), B.x() - O4.x());
    const double err = std::abs(std::remainder(th4 - th4Guess, 2 * M_PI));
    if (err < bestErr) bestErr = err, best = th4Guess + std::remainder(th4 - th4Guess, 2 * M_PI);
  }
  return best;
}

struct FourBar {
  double a = 0.4, b = 1.2, c = 0.9, d = 1.0, th2 = 1.0, th4 = 0;
  MechanismSpec spec;
};

/// Four-bar in the xy-plane, every joint revolute about z; crank joint "A" (ground→crank) driven
/// by `drive` (relative to the file's crank angle th2) when given.
inline FourBar fourBar(bool driven) {
  FourBar fb;
  fb.th4 = fourBarRocker(fb.a, fb.b, fb.c, fb.d, fb.th2, 1.7);
  const Vec3 O2(0, 0, 0), O4(fb.d, 0, 0);
  const Vec3 A(fb.a * std::cos(fb.th2), fb.a * std::sin(fb.th2), 0);
  const Vec3 B = O4 + fb.c * Vec3(std::cos(fb.th4), std::sin(fb.th4), 0);
  auto& s = fb.spec;
  s.name = "four-bar";
  s.bodies = {body("ground", Vec3::Zero(), true), body("crank", O2), body("coupler", A), body("rocker", O4)};
  s.joints = {joint("A", JointType::Revolute, "ground", "crank", O2), joint("B", JointType::Revolute, "crank", "coupler", A),
              joint("C", JointType::Revolute, "coupler", "rocker", B), joint("D", JointType::Revolute, "ground", "rocker", O4)};
  if (driven) s.drivers = {driver("crank", "A")};
  return fb;
}

struct SliderCrank {
  double r = 0.3, l = 1.0, th0 = 0.5;
  MechanismSpec spec;
};

/// Slider-crank in the xy-plane: crank r about O (joint "O", ground→crank), rod l, slider on the
/// x axis (prismatic "S", ground→slider, axis x). Crank angle th0 in the file.
inline SliderCrank sliderCrank(double r, double l, double th0, bool driven) {
  SliderCrank sc;
  sc.r = r;
  sc.l = l;
  sc.th0 = th0;
  const Vec3 O(0, 0, 0), A(r * std::cos(th0), r * std::sin(th0), 0);
  const Vec3 B(r * std::cos(th0) + std::sqrt(l * l - std::pow(r * std::sin(th0), 2)), 0, 0);
  auto& s = sc.spec;
  s.name = "slider-crank";
  s.bodies = {body("ground", Vec3::Zero(), true), body("crank", O), body("rod", A), body("slider", B)};
  s.joints = {joint("O", JointType::Revolute, "ground", "crank", O), joint("A", JointType::Revolute, "crank", "rod", A),
              joint("B", JointType::Revolute, "rod", "slider", B),
              joint("S", JointType::Prismatic, "ground", "slider", B, Vec3::UnitX())};
  if (driven) s.drivers = {driver("crank", "O")};
  return sc;
}

/// x_B(θ) of the slider-crank and its first two derivatives in θ.
inline void sliderCrankClosedForm(double r, double l, double th, double& x, double& dx, double& ddx) {
  const double s = std::sin(th), c = std::cos(th);
  const double R = std::sqrt(l * l - r * r * s * s);
  x = r * c + R;
  dx = -r * s - r * r * s * c / R;
  ddx = -r * c - r * r * std::cos(2 * th) / R - std::pow(r, 4) * s * s * c * c / (R * R * R);
}

}  // namespace mechsim::test
