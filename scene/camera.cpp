// scene/camera.cpp — orbit camera: angles → eye frame, view and projection matrices, gestures.
#include "scene/camera.h"

#include <algorithm>
#include <cmath>

namespace mechsim::ui {
namespace {
constexpr double kPi = 3.14159265358979323846;
constexpr double kMaxElevation = kPi / 2 - 0.01;  // keeps up() well defined at the poles
constexpr double kOrbitRadPerPx = 0.008;
constexpr double kZoomPerStep = 0.85;
/// Fit: the box's corners come no further out than this fraction of the half field of view, which
/// leaves a margin of (1 − kFitFill) / 2 of the view on each side.
constexpr double kFitFill = 0.8;
}  // namespace

Eigen::Vector3d Camera::backward() const {
  const double ce = std::cos(elevation);
  return {ce * std::cos(azimuth), ce * std::sin(azimuth), std::sin(elevation)};
}

Eigen::Vector3d Camera::right() const {
  // Horizontal, perpendicular to the viewing direction (z-up world).
  return Eigen::Vector3d(-std::sin(azimuth), std::cos(azimuth), 0.0);
}

Eigen::Vector3d Camera::up() const { return backward().cross(right()); }

Eigen::Matrix4f Camera::viewMatrix() const {
  // Rows of the rotation are the camera axes; translation brings the eye to the origin.
  const Eigen::Vector3d r = right(), u = up(), b = backward(), e = eye();
  Eigen::Matrix4d v = Eigen::Matrix4d::Identity();
  v.block<1, 3>(0, 0) = r.transpose();
  v.block<1, 3>(1, 0) = u.transpose();
  v.block<1, 3>(2, 0) = b.transpose();
  v(0, 3) = -r.dot(e);
  v(1, 3) = -u.dot(e);
  v(2, 3) = -b.dot(e);
  return v.cast<float>();
}

Eigen::Matrix4f Camera::projectionMatrix(double aspect, double sceneRadius) const {
  // Depth range around the target: far enough for a grid a few scene sizes wide, near as far
  // out as possible for depth precision.
  const double reach = std::max(sceneRadius, 1e-6) * 6.0;
  const double farPlane = distance + reach;
  const double nearPlane = std::max(distance - reach, farPlane * 1e-4);
  const double f = 1.0 / std::tan(fovY / 2);
  Eigen::Matrix4d p = Eigen::Matrix4d::Zero();
  p(0, 0) = f / std::max(aspect, 1e-6);
  p(1, 1) = f;
  p(2, 2) = (farPlane + nearPlane) / (nearPlane - farPlane);
  p(2, 3) = 2 * farPlane * nearPlane / (nearPlane - farPlane);
  p(3, 2) = -1;
  return p.cast<float>();
}

void Camera::orbit(double dxPx, double dyPx) {
  // Dragging right turns the scene right (the eye moves left), dragging down tilts it down.
  azimuth -= dxPx * kOrbitRadPerPx;
  elevation = std::clamp(elevation + dyPx * kOrbitRadPerPx, -kMaxElevation, kMaxElevation);
  azimuth = std::remainder(azimuth, 2 * kPi);
}

void Camera::pan(double dxPx, double dyPx, double heightPx) {
  // One pixel moves the target by the size of a pixel at the target's depth, so the point under
  // the cursor follows it.
  const double worldPerPx = 2 * distance * std::tan(fovY / 2) / std::max(heightPx, 1.0);
  target += (-dxPx * right() + dyPx * up()) * worldPerPx;
}

void Camera::zoom(double steps) { distance = std::clamp(distance * std::pow(kZoomPerStep, steps), 1e-6, 1e9); }

void Camera::fit(const Eigen::AlignedBox3d& box, double aspect) {
  if (box.isEmpty()) return;
  target = box.center();
  // Keep the viewing direction; back off until every corner of the box lies inside kFitFill of
  // both fields of view: a corner at offset o needs distance ≥ o_z + |o_x| / (kFitFill tan halfX)
  // (and likewise y), with o in camera axes (z towards the eye).
  const double tanY = kFitFill * std::tan(fovY / 2), tanX = tanY * std::max(aspect, 1e-6);
  const Eigen::Vector3d r = right(), u = up(), b = backward();
  const double radius = std::max(0.5 * box.diagonal().norm(), 1e-3);
  double need = 0;
  for (int k = 0; k < 8; ++k) {
    const Eigen::Vector3d o = box.corner(static_cast<Eigen::AlignedBox3d::CornerType>(k)) - target;
    need = std::max({need, o.dot(b) + std::abs(o.dot(r)) / tanX, o.dot(b) + std::abs(o.dot(u)) / tanY});
  }
  // Never so close that the near plane cuts into the mechanism.
  distance = std::max(need, 1.2 * radius);
}

}  // namespace mechsim::ui
