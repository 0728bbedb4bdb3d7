#pragma once
// scene/camera.h — the viewport's orbit camera, z-up world (no Qt, no GL; tested directly).
//
// The eye sits at `distance` from `target`, in the direction given by azimuth (about world z,
// from +x) and elevation (above the xy plane). Orbit changes the two angles, pan moves the
// target in the view plane, zoom scales the distance, fit frames a bounding box.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace mechsim::ui {

class Camera {
 public:
  Eigen::Vector3d target = Eigen::Vector3d::Zero();
  double distance = 2.0;     // eye to target (m)
  double azimuth = -1.05;    // rad, about +z from +x (default: looking from +x, −y towards +y)
  double elevation = 0.55;   // rad, above the xy plane, clamped to ±(π/2 − 0.01)
  double fovY = 0.6;         // vertical field of view (rad)

  /// Unit vector from the target to the eye.
  Eigen::Vector3d backward() const;
  Eigen::Vector3d eye() const { return target + distance * backward(); }
  /// Camera right and up vectors in the world (orthonormal with backward()).
  Eigen::Vector3d right() const;
  Eigen::Vector3d up() const;

  /// World → eye transform (OpenGL convention: the camera looks down its −z).
  Eigen::Matrix4f viewMatrix() const;
  /// Perspective projection for a width/height `aspect`; near and far planes follow the distance
  /// and `sceneRadius` so that the whole scene and the ground grid fit in the depth range.
  Eigen::Matrix4f projectionMatrix(double aspect, double sceneRadius) const;

  /// Mouse gestures, in pixels of a viewport `heightPx` tall.
  void orbit(double dxPx, double dyPx);
  void pan(double dxPx, double dyPx, double heightPx);
  /// Wheel steps (120 units of QWheelEvent::angleDelta = 1 step); positive zooms in.
  void zoom(double steps);

  /// Places the target at the box centre and backs off until its bounding sphere fits the
  /// narrower of the two fields of view (with a small margin). Keeps the viewing direction.
  void fit(const Eigen::AlignedBox3d& box, double aspect);
};

}  // namespace mechsim::ui
