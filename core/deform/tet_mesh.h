#pragma once
// core/deform/tet_mesh.h — tetrahedral meshes of deformable parts: storage, grid generators (box,
// cylinder), boundary surface, vertex adjacency and a greedy vertex colouring for Gauss–Seidel.
// Files (TetGen, Gmsh) are read in core/io/tetmesh_io.cpp; this header knows no files.
#include <array>
#include <string>
#include <vector>

#include "core/types.h"

namespace mechsim::deform {

struct TetMesh {
  std::vector<Vec3> vertices;              // rest positions (nv)
  std::vector<std::array<int, 4>> tets;    // vertex indices, positively oriented (nt)

  int vertexCount() const { return static_cast<int>(vertices.size()); }
  int tetCount() const { return static_cast<int>(tets.size()); }
};

/// Box [0,size.x]×[0,size.y]×[0,size.z] (then translated by `origin`) cut into nx×ny×nz cells of
/// six tetrahedra each (Kuhn / Freudenthal subdivision along the main diagonal, conforming across
/// cells). Vertex (i,j,k) has index i + (nx+1)(j + (ny+1)k).
TetMesh makeBoxMesh(const Vec3& size, int nx, int ny, int nz, const Vec3& origin = Vec3::Zero());

/// Cylinder of `radius` and `length` along +z from `origin`: a box grid with nr×nr cells over the
/// square [−1,1]² mapped onto the disk by the smooth elliptical map
/// (u, v) ↦ (u √(1 − v²/2), v √(1 − u²/2)), nz cells along the axis.
TetMesh makeCylinderMesh(double radius, double length, int nr, int nz, const Vec3& origin = Vec3::Zero());

/// Throws std::invalid_argument when an index is out of range, a tet is degenerate (|volume| below
/// `minVolume`) or a vertex is not finite. Negatively oriented tets are reoriented (two indices
/// swapped) and counted in the return value.
int validateAndOrient(TetMesh& mesh, double minVolume = 0.0);

/// Signed volume of tet t (positive when oriented).
double tetVolume(const TetMesh& mesh, int t);

/// Boundary triangles (faces used by exactly one tet), oriented outward.
std::vector<std::array<int, 3>> boundaryFaces(const TetMesh& mesh);

/// For each vertex, the tets that contain it, and the local index (0..3) of the vertex in each:
/// entries [offset[v], offset[v+1]) of `tet` and `local`.
struct VertexTets {
  std::vector<int> offset;  // (nv + 1)
  std::vector<int> tet;     // (4 nt)
  std::vector<int> local;   // (4 nt)
};
VertexTets vertexTets(const TetMesh& mesh);

/// Greedy colouring of the vertex graph (two vertices adjacent when they share a tet): no tet has
/// two vertices of the same colour. Returns the colour of each vertex (0..colours−1).
std::vector<int> colourVertices(const TetMesh& mesh, int* colourCount = nullptr);

/// Largest edge of the axis-aligned bounding box (the "unit cube" normalisation of convergence).
double boundingBoxExtent(const TetMesh& mesh);

}  // namespace mechsim::deform
