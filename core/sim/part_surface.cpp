// core/sim/part_surface.cpp — a deformable part's boundary surface (see the header).
#include "core/sim/part_surface.h"

#include <exception>

#include "core/deform/tet_mesh.h"
#include "core/mesh_normals.h"

namespace mechsim::sim {

std::vector<std::shared_ptr<const MeshData>> restSurfaces(const MechanismSpec& spec) {
  std::vector<std::shared_ptr<const MeshData>> out;
  try {
    for (const DeformableSpec& ds : spec.deformables) {
      // The spec's mesh is the part's rest shape, placed when the file was read; oriented as
      // makeDeformableModel orients it, so that its boundary faces outward the same way. Only the
      // mesh: the masses, incidence and colouring are sim::compile's to build.
      deform::TetMesh mesh;
      mesh.vertices = ds.vertices;
      mesh.tets = ds.tets;
      deform::validateAndOrient(mesh);
      VecX rest(3 * mesh.vertexCount());
      for (int v = 0; v < mesh.vertexCount(); ++v) rest.segment<3>(3 * v) = mesh.vertices[v];
      std::vector<int> vertices;
      std::vector<unsigned> indices;
      boundarySurface(mesh, vertices, indices);
      out.push_back(surfaceMesh(vertices, indices, rest));
    }
  } catch (const std::exception&) {
    return {};  // sim::compile says why
  }
  return out;
}

void boundarySurface(const deform::TetMesh& mesh, std::vector<int>& vertices, std::vector<unsigned>& indices) {
  // The boundary triangles over the mesh's vertices, split at the creases of the rest shape
  // (core/mesh_normals.h): decided at rest, so the surface's topology never changes while the part
  // deforms.
  std::vector<unsigned> corners;
  for (const auto& f : deform::boundaryFaces(mesh))
    for (int v : f) corners.push_back(static_cast<unsigned>(v));
  std::vector<unsigned> groupPoint;
  indices = creaseGroups(mesh.vertices, corners, kCreaseDegrees, groupPoint);
  vertices.assign(groupPoint.begin(), groupPoint.end());
}

std::shared_ptr<const MeshData> surfaceMesh(const std::vector<int>& vertices, const std::vector<unsigned>& indices,
                                            const VecX& x) {
  auto mesh = std::make_shared<MeshData>();
  mesh->vertices.reserve(vertices.size());
  for (int v : vertices) mesh->vertices.push_back(x.segment<3>(3 * v).cast<float>());
  mesh->indices = indices;
  mesh->normals = areaWeightedNormals(mesh->vertices, mesh->indices);
  return mesh;
}

}  // namespace mechsim::sim
