#pragma once
// scene/picking.h — from the mouse to the world and back, without Qt or GL (STYLE.md §10):
// the camera ray through a pixel, the pixel of a world point, the nearest scene item a ray hits
// (the body or handle under the cursor), and the two ways a dragged handle follows the cursor —
// in the plane through the grabbed point facing the camera, or along one world axis.
//
// Pixels are widget pixels with the origin at the top-left corner, y down (Qt's convention).
#include <optional>

#include <Eigen/Core>

#include "scene/camera.h"
#include "scene/scene.h"

namespace mechsim::ui {

/// A ray origin + s · direction, s ≥ 0 (direction unit).
struct Ray {
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  Eigen::Vector3d direction = -Eigen::Vector3d::UnitZ();
  Eigen::Vector3d at(double s) const { return origin + s * direction; }
};

/// The ray from the eye through pixel (px, py) of a w × h view (the projection of
/// Camera::projectionMatrix inverted: NDC x = 2 px / w − 1, y = 1 − 2 py / h, and the image plane
/// at unit distance spans ± tan(fovY/2) · (aspect, 1)).
Ray cameraRay(const Camera& camera, double px, double py, double w, double h);

/// The pixel where world point p is seen in a w × h view; nullopt when p is behind the eye.
std::optional<Eigen::Vector2d> projectToPixel(const Camera& camera, const Eigen::Vector3d& p, double w, double h);

/// The nearest item a ray hits.
struct PickHit {
  int item = -1;      // index into Scene::items
  ItemRole role = ItemRole::BodyShape;
  int body = -1;      // owning body (BodyShape, HandleMarker)
  int handle = -1;    // HandleMarker
  int deformable = -1;  // DeformableSurface: the part …
  int vertex = -1;      // … and its surface vertex nearest the point hit (of the triangle hit)
  double distance = 0;           // along the ray [m]
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  // world point hit
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ(); // unit outward normal of the surface there (world)
};

/// The item under a ray: handle markers first (they are small and drawn through bodies), then
/// the nearest body shape or deformable surface. Each unit primitive is intersected exactly in its
/// own frame (the item's affine transform maps the ray there and keeps its parameter s): box by
/// slabs, sphere and cylinder by their quadrics; body meshes by their bounding box; deformable
/// surfaces triangle by triangle (Möller–Trumbore), the hit naming the triangle's corner nearest
/// the point. Joint glyphs and world axes are not picked. nullopt when nothing is hit. The hit's
/// normal is the primitive's exact surface normal (a mesh's: its bounding box face's), mapped to
/// the world by the inverse transpose of the item's transform. Items of body `ignoreBody` are not
/// hit (the second pick of a joint looks through the first body).
std::optional<PickHit> pick(const Scene& scene, const Ray& ray, int ignoreBody = -1);

/// Where the cursor ray meets the plane through `anchor` with normal `normal` (the plane facing
/// the camera when normal = Camera::backward()). nullopt when the ray is parallel to it or the
/// plane lies behind the eye.
std::optional<Eigen::Vector3d> dragOnPlane(const Ray& ray, const Eigen::Vector3d& anchor, const Eigen::Vector3d& normal);

/// The point of the line anchor + u · axis closest to the cursor ray (axis unit); nullopt when
/// the ray is parallel to the axis.
std::optional<Eigen::Vector3d> dragOnAxis(const Ray& ray, const Eigen::Vector3d& anchor, const Eigen::Vector3d& axis);

/// The world axis (0 = x, 1 = y, 2 = z) whose image on the screen at `anchor` is best aligned
/// with the screen motion `screenDelta` (pixels) — the axis an axis-constrained drag follows.
int dominantAxis(const Camera& camera, const Eigen::Vector3d& anchor, const Eigen::Vector2d& screenDelta, double w,
                 double h);

}  // namespace mechsim::ui
