#pragma once
// tests/ui/test_models.h — small Models built in code for the ui tests (no loader needed), and
// an image check shared by the rendering tests.
#include <memory>
#include <algorithm>
#include <set>
#include <vector>

#include <QImage>

#include "core/model.h"

namespace mechsim::test {

/// A body with one shape at a pose.
inline Body makeBody(const std::string& name, bool fixed, const Pose& pose, std::vector<Shape> shapes) {
  Body b;
  b.name = name;
  b.fixed = fixed;
  b.pose0 = pose;
  b.mass = fixed ? 0 : 1;
  b.shapes = std::move(shapes);
  return b;
}

inline Shape box(const Vec3& size, const Vec3& at = Vec3::Zero()) {
  Shape s;
  s.type = ShapeType::Box;
  s.size = size;
  s.local.position = at;
  return s;
}

inline Shape cylinder(double r, double len, const Vec3& at = Vec3::Zero()) {
  Shape s;
  s.type = ShapeType::Cylinder;
  s.radius = r;
  s.length = len;
  s.local.position = at;
  return s;
}

inline Shape sphere(double r, const Vec3& at = Vec3::Zero()) {
  Shape s;
  s.type = ShapeType::Sphere;
  s.radius = r;
  s.local.position = at;
  return s;
}

inline Shape capsule(double r, double len, const Vec3& at, const Quat& orient) {
  Shape s;
  s.type = ShapeType::Capsule;
  s.radius = r;
  s.length = len;
  s.local.position = at;
  s.local.orientation = orient;
  return s;
}

inline Joint makeJoint(const std::string& name, JointType t, int b1, int b2, const Vec3& p1, const Vec3& p2) {
  Joint j;
  j.name = name;
  j.type = t;
  j.body1 = b1;
  j.body2 = b2;
  j.point1 = p1;
  j.point2 = p2;
  j.nCoords = jointCoordinateCount(t);
  return j;
}

/// A planar four-bar in the xy plane (revolute axes along z) plus a slider on a prismatic joint,
/// a ball on a spherical joint and one handle: 6 bodies, 6 joints.
///   ground (fixed, box)  crank (capsule)  coupler (box)  rocker (capsule)  slider (box)  ball (sphere)
inline Model fourbarModel() {
  Model m;
  m.name = "test four-bar";
  const Quat rotZ60(Eigen::AngleAxisd(M_PI / 3, Vec3::UnitZ()));
  const Quat alongX = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitX());
  Pose ground, crank, coupler, rocker, slider, ball;
  crank.orientation = rotZ60;
  coupler.position = Vec3(0.05, 0.0866, 0);
  rocker.position = Vec3(0.4, 0, 0);
  rocker.orientation = Quat(Eigen::AngleAxisd(1.8, Vec3::UnitZ()));
  slider.position = Vec3(0.6, 0, 0);
  ball.position = Vec3(0.2, 0.3, 0.1);
  m.bodies.push_back(makeBody("ground", true, ground, {box(Vec3(0.46, 0.03, 0.02), Vec3(0.2, 0, -0.03))}));
  m.bodies.push_back(makeBody("crank", false, crank, {capsule(0.012, 0.1, Vec3(0.05, 0, 0), alongX)}));
  m.bodies.push_back(makeBody("coupler", false, coupler, {box(Vec3(0.35, 0.02, 0.01), Vec3(0.175, 0, 0.02))}));
  m.bodies.push_back(makeBody("rocker", false, rocker, {capsule(0.012, 0.3, Vec3(0.15, 0, 0), alongX)}));
  m.bodies.push_back(makeBody("slider", false, slider, {box(Vec3(0.06, 0.04, 0.04))}));
  m.bodies.push_back(makeBody("ball", false, ball, {sphere(0.03)}));
  m.bodies[2].shapes[0].color = Eigen::Vector3f(0.1f, 0.2f, 0.9f);  // an explicit colour
  int q = 0;
  for (Body& b : m.bodies)
    if (!b.fixed) b.qIndex = q, q += 7;
  m.nq = q;
  m.nMoving = q / 7;
  m.joints.push_back(makeJoint("A", JointType::Revolute, 0, 1, Vec3::Zero(), Vec3::Zero()));
  m.joints.push_back(makeJoint("B", JointType::Revolute, 1, 2, Vec3(0.1, 0, 0), Vec3::Zero()));
  m.joints.push_back(makeJoint("C", JointType::Revolute, 2, 3, Vec3(0.35, 0, 0), Vec3(0.3, 0, 0)));
  m.joints.push_back(makeJoint("D", JointType::Revolute, 0, 3, Vec3(0.4, 0, 0), Vec3::Zero()));
  Joint s = makeJoint("S", JointType::Prismatic, 0, 4, Vec3(0.6, 0, 0), Vec3::Zero());
  s.frame1 = s.frame2 = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitX()).toRotationMatrix();
  m.joints.push_back(s);
  m.joints.push_back(makeJoint("E", JointType::Spherical, 0, 5, Vec3(0.2, 0.3, 0.1), Vec3::Zero()));
  Driver d;
  d.name = "crank";
  d.joint = 0;
  d.expression = "360 * t";
  m.drivers.push_back(d);
  Handle h;
  h.name = "P";
  h.body = 2;
  h.local = Vec3(0.1, 0.05, 0.02);
  m.handles.push_back(h);
  m.q0 = VecX::Zero(m.nq);
  for (const Body& b : m.bodies) {
    if (b.fixed) continue;
    m.q0.segment<3>(b.qIndex) = b.pose0.position;
    m.q0.segment<4>(b.qIndex + 3) << b.pose0.orientation.w(), b.pose0.orientation.x(), b.pose0.orientation.y(),
        b.pose0.orientation.z();
  }
  return m;
}

/// What a rendered image shows beyond the background: the number of distinct colours and the
/// fraction of foreground pixels. The background is a vertical gradient, so a pixel counts as
/// foreground when it differs by more than 50 (of 255) in some channel from its row's median
/// colour (the background wherever the mechanism covers less than half of the row; faint grid
/// lines stay below that difference).
struct ImageStats {
  int distinctColors = 0;
  double foregroundFraction = 0;
};

inline ImageStats imageStats(const QImage& src) {
  const QImage img = src.convertToFormat(QImage::Format_RGB32);
  std::set<QRgb> colours;
  long foreground = 0;
  std::vector<int> channel(img.width());
  for (int y = 0; y < img.height(); ++y) {
    const QRgb* row = reinterpret_cast<const QRgb*>(img.constScanLine(y));
    int median[3];
    for (int c = 0; c < 3; ++c) {
      for (int x = 0; x < img.width(); ++x) channel[x] = (row[x] >> (16 - 8 * c)) & 0xff;
      std::nth_element(channel.begin(), channel.begin() + channel.size() / 2, channel.end());
      median[c] = channel[channel.size() / 2];
    }
    for (int x = 0; x < img.width(); ++x) {
      const QRgb p = row[x];
      colours.insert(p);
      const int d = std::max({std::abs(qRed(p) - median[0]), std::abs(qGreen(p) - median[1]), std::abs(qBlue(p) - median[2])});
      if (d > 50) ++foreground;
    }
  }
  ImageStats s;
  s.distinctColors = static_cast<int>(colours.size());
  s.foregroundFraction = img.isNull() ? 0 : double(foreground) / (double(img.width()) * img.height());
  return s;
}

}  // namespace mechsim::test
