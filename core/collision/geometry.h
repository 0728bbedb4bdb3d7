#pragma once
// core/collision/geometry.h — the collision shapes of a model (FORMAT.md shapes: sphere, box, capsule,
// cylinder, the convex hull of a mesh's vertices, and the plane of a fixed body), each in its own
// frame (cylinder and capsule axis = local z, plane normal = local z), and placed in the world.
//
// Every convex shape is given by its support function s(d) = argmax_{x ∈ shape} dᵀx, which is all
// GJK / EPA (libccd) need; the closed-form pairs (narrowphase.h) read the parameters directly.
#include <vector>

#include "core/model.h"
#include "core/types.h"

namespace mechsim::collision {

enum class Kind { Sphere, Box, Capsule, Cylinder, Hull, Plane };

struct Geometry {
  Kind kind = Kind::Sphere;
  int body = -1;                 // Model::bodies index
  int shape = -1;                // index in the body's shapes
  Pose local;                    // shape frame in the body frame
  Vec3 half = Vec3::Zero();      // box half edges
  double radius = 0;             // sphere, capsule, cylinder
  double halfLength = 0;         // capsule (segment), cylinder: half of the length along local z
  std::vector<Vec3> points;      // hull: the mesh's vertices (scaled, duplicates removed), shape frame
  double boundRadius = 0;        // radius of a ball about the shape origin holding the shape (∞ for a plane)
};

/// A geometry at its world pose.
struct Placed {
  const Geometry* g = nullptr;
  Vec3 p = Vec3::Zero();         // world position of the shape origin
  Mat3 R = Mat3::Identity();     // world orientation of the shape frame
};

/// Geometry of a model shape (throws std::invalid_argument for an empty mesh).
Geometry makeGeometry(const Shape& s, int body, int shapeIndex);

/// The farthest point of the shape in world direction d (d need not be unit; d ≠ 0).
Vec3 support(const Placed& x, const Vec3& d);

/// Axis-aligned bounds of a placed (non-plane) shape, grown by `pad` on every side.
void bounds(const Placed& x, double pad, Vec3& lo, Vec3& hi);

/// Points that carry plane contacts: box corners, hull vertices, the two ends of a capsule's
/// segment, four points on each rim of a cylinder (around the deepest rim point for the normal n,
/// the direction pointing out of the plane), a sphere's centre. `rounded` is the radius to
/// subtract (sphere, capsule), 0 otherwise. World coordinates.
void planeCandidates(const Placed& x, const Vec3& n, std::vector<Vec3>& pts, double& rounded);

}  // namespace mechsim::collision
