#pragma once
// core/io/tetrahedralise.h — tetrahedral meshes of the solid enclosed by a closed triangle surface,
// through Gmsh's library (Debian's libgmsh-dev): the surface is handed to Gmsh as a discrete
// surface bounding a discrete volume, and its 3D Delaunay mesher fills the volume, keeping the
// surface triangles as the boundary (so the tet mesh's volume is the enclosed volume exactly).
// Built without Gmsh (MECHSIM_HAVE_GMSH undefined) the functions throw std::runtime_error.
// Gmsh's own log is silent unless the environment variable MECHSIM_GMSH_VERBOSE is set.
#include <array>
#include <string>
#include <vector>

#include "core/io/tetmesh_io.h"
#include "core/spec.h"  // MeshData
#include "core/types.h"

namespace mechsim::io {

/// True when this build can tetrahedralise (linked with Gmsh).
bool haveTetrahedraliser();

/// Tetrahedralises the solid bounded by the closed, consistently oriented surface (vertices,
/// 0-based triangles). `maxSize` > 0 caps the tet edge length (Gmsh's Mesh.MeshSizeMax); 0 lets
/// Gmsh grade sizes from the surface. Throws std::invalid_argument on bad input (index out of
/// range, non-finite point, an edge not shared by exactly two triangles) and std::runtime_error
/// when Gmsh fails.
TetMeshFile tetrahedraliseSurface(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                                  double maxSize = 0);

/// A triangle mesh read from a file (mesh.h) as such a surface: its coordinates scaled by `scale`,
/// repeated vertices welded, then tetrahedraliseSurface.
TetMeshFile tetrahedraliseMesh(const MeshData& surface, double scale, double maxSize);

/// Merges vertices at identical positions (mesh files often repeat them per face) and drops
/// triangles that become degenerate. Returns the welded triangles; `vertices` is replaced.
std::vector<std::array<int, 3>> weldVertices(std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles);

}  // namespace mechsim::io
