#pragma once
// scene/mesh_colours.h — the colours a mesh file gives its own triangles (MeshData::colors, its
// materials' diffuse or base colour, core/io/mesh.cpp) as per-vertex colours for drawing (the
// shaded shader's attribute 10, DrawItem::vertexColors). Triangles in no colour run take the
// shape's colour. A mesh drawn frame after frame must keep one colour array, or the viewport
// would upload the mesh again every frame (it keys uploads by mesh and colour array): the arrays
// are kept per mesh and fallback colour while the mesh lives.
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "core/spec.h"  // MeshData

namespace mechsim::ui {

/// One RGBA colour (alpha 1) per vertex of `mesh`: each corner of a triangle in a colour run gets
/// that run's colour, every other vertex `fallback`. Null when the mesh has no colour runs. The
/// same array (the same pointer) for the same mesh and fallback while the mesh is alive.
std::shared_ptr<const std::vector<Eigen::Vector4f>> meshVertexColours(const std::shared_ptr<const MeshData>& mesh,
                                                                      const Eigen::Vector3f& fallback);

}  // namespace mechsim::ui
