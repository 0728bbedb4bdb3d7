#pragma once
// core/sim/part_surface.h — the boundary surface of a deformable part, what the GUI draws of it and
// what a handle grabs: the outward triangles of its tet mesh, split at the creases of the rest
// shape (core/mesh_normals.h) so the surface's topology never changes while the part deforms, with
// smooth (area-weighted) normals on each side of a crease.
#include <memory>
#include <vector>

#include "core/deform/tet_mesh.h"
#include "core/spec.h"
#include "core/types.h"

namespace mechsim::sim {

/// The boundary of `mesh`: its surface vertices (mesh indices, in first-seen order; a mesh vertex on
/// a crease — a rest dihedral angle above kCreaseDegrees — appears once per smooth side) and its
/// triangles as indices into them, outward.
void boundarySurface(const deform::TetMesh& mesh, std::vector<int>& vertices, std::vector<unsigned>& indices);
/// That surface at positions x (3 per mesh vertex), with smooth normals, sharp across the creases.
std::shared_ptr<const MeshData> surfaceMesh(const std::vector<int>& vertices, const std::vector<unsigned>& indices,
                                            const VecX& x);
/// The boundary surfaces of spec's deformable parts at rest, in the order of spec.deformables and
/// with the vertex order of the engine's frames: what a window shows while the engine builds and
/// precomputes the parts. Empty when a part cannot be built (sim::compile then says why).
std::vector<std::shared_ptr<const MeshData>> restSurfaces(const MechanismSpec& spec);

}  // namespace mechsim::sim
