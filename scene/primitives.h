#pragma once
// scene/primitives.h — triangle meshes of the unit primitives the scene is drawn with (no GL).
//
// Every shape of a scene is one of these unit meshes placed by a 4×4 world transform that also
// scales it (scene/scene.h), so each primitive is generated once and uploaded once:
//   Box       the cube [−½, ½]³
//   Cylinder  radius 1, axis z, z ∈ [−½, ½], with caps
//   Sphere    radius 1
//   Cone      base radius 1 at z = 0, apex at z = 1, with a base cap (arrow heads)
// Capsules are drawn as a cylinder and two spheres, so that non-uniform scaling never squashes
// their caps. Mesh shapes come from MeshData (core/spec.h); meshFromData adds flat normals when
// the file gave none.
#include <vector>

#include <Eigen/Core>

#include "core/spec.h"

namespace mechsim::ui {

enum class Primitive { Box, Cylinder, Sphere, Cone, Mesh };

/// Interleaved triangles, ready to upload: per vertex a position and a unit normal.
struct TriangleMesh {
  std::vector<Eigen::Vector3f> positions;  // (n)
  std::vector<Eigen::Vector3f> normals;    // (n) unit
  std::vector<unsigned> indices;           // (3 × triangles)
  int triangleCount() const { return static_cast<int>(indices.size() / 3); }
};

/// The unit mesh of a primitive (not Mesh). `segments` is the number of facets around an axis.
TriangleMesh unitPrimitive(Primitive p, int segments = 40);

/// A drawable mesh from file triangles (scale not applied): the file's normals when it has one
/// per vertex, otherwise flat per-triangle normals (vertices duplicated).
TriangleMesh meshFromData(const MeshData& data);

/// Axis-aligned bounds of a unit primitive in its own frame (Mesh: of `data`, unscaled).
Eigen::AlignedBox3f primitiveBounds(Primitive p, const MeshData* data = nullptr);

}  // namespace mechsim::ui
