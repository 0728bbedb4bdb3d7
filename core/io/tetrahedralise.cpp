// core/io/tetrahedralise.cpp — closed surface → tetrahedra with Gmsh (see the header).
#include "core/io/tetrahedralise.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>

#ifdef MECHSIM_HAVE_GMSH
#include <gmsh.h>
#endif

namespace mechsim::io {

namespace {
/// Every edge of a closed 2-manifold surface is shared by exactly two triangles, once in each
/// direction when the orientation is consistent.
void checkClosed(int nv, const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles) {
  if (triangles.size() < 4) throw std::invalid_argument("surface: a closed surface needs at least 4 triangles");
  for (const Vec3& p : vertices)
    if (!p.allFinite()) throw std::invalid_argument("surface: non-finite vertex");
  std::map<std::pair<int, int>, int> directed;
  for (const auto& t : triangles)
    for (int k = 0; k < 3; ++k) {
      const int a = t[k], b = t[(k + 1) % 3];
      if (a < 0 || a >= nv || b < 0 || b >= nv) throw std::invalid_argument("surface: vertex index out of range");
      if (a == b) throw std::invalid_argument("surface: degenerate triangle");
      if (++directed[{a, b}] > 1)
        throw std::invalid_argument("surface: an edge is used twice in the same direction (inconsistent orientation "
                                    "or non-manifold)");
    }
  for (const auto& [e, n] : directed)
    if (!directed.count({e.second, e.first}))
      throw std::invalid_argument("surface: not closed (edge " + std::to_string(e.first) + "-" +
                                  std::to_string(e.second) + " has one triangle)");
}
}  // namespace

std::vector<std::array<int, 3>> weldVertices(std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles) {
  std::map<std::array<double, 3>, int> index;
  std::vector<int> map(vertices.size());
  std::vector<Vec3> out;
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const std::array<double, 3> key{vertices[i].x(), vertices[i].y(), vertices[i].z()};
    auto [it, added] = index.emplace(key, static_cast<int>(out.size()));
    if (added) out.push_back(vertices[i]);
    map[i] = it->second;
  }
  std::vector<std::array<int, 3>> tri;
  for (const auto& t : triangles) {
    for (int v : t)
      if (v < 0 || v >= static_cast<int>(vertices.size())) throw std::invalid_argument("surface: vertex index out of range");
    const std::array<int, 3> w{map[t[0]], map[t[1]], map[t[2]]};
    if (w[0] != w[1] && w[1] != w[2] && w[0] != w[2]) tri.push_back(w);
  }
  vertices = std::move(out);
  return tri;
}

#ifdef MECHSIM_HAVE_GMSH

bool haveTetrahedraliser() { return true; }

TetMeshFile tetrahedraliseSurface(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                                  double maxSize) {
  const int nv = static_cast<int>(vertices.size());
  checkClosed(nv, vertices, triangles);
  if (!(maxSize >= 0) || !std::isfinite(maxSize)) throw std::invalid_argument("surface: size must be ≥ 0");
  // Gmsh keeps one global model: one call at a time.
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  gmsh::initialize(0, nullptr, false);
  TetMeshFile out;
  try {
    gmsh::option::setNumber("General.Terminal", std::getenv("MECHSIM_GMSH_VERBOSE") ? 1 : 0);
    gmsh::option::setNumber("General.Verbosity", std::getenv("MECHSIM_GMSH_VERBOSE") ? 5 : 0);
    if (maxSize > 0) {  // a uniform size field instead of sizes interpolated from the surface triangles
      gmsh::option::setNumber("Mesh.MeshSizeMax", maxSize);
      gmsh::option::setNumber("Mesh.Algorithm3D", 10);  // HXT: follows the size field inside
      gmsh::option::setNumber("Mesh.MeshSizeExtendFromBoundary", 0);
      gmsh::option::setNumber("Mesh.MeshSizeFromPoints", 0);
      const int field = gmsh::model::mesh::field::add("MathEval");
      gmsh::model::mesh::field::setString(field, "F", std::to_string(maxSize));
      gmsh::model::mesh::field::setAsBackgroundMesh(field);
    }
    gmsh::model::add("mechsim-surface");
    // The surface: a discrete entity holding the given triangles (node tags 1..nv).
    const int s = gmsh::model::addDiscreteEntity(2);
    std::vector<std::size_t> nodeTags(nv);
    std::vector<double> coord(3 * std::size_t(nv));
    for (int i = 0; i < nv; ++i) {
      nodeTags[i] = std::size_t(i) + 1;
      for (int r = 0; r < 3; ++r) coord[3 * std::size_t(i) + r] = vertices[i][r];
    }
    gmsh::model::mesh::addNodes(2, s, nodeTags, coord);
    std::vector<std::size_t> triNodes;
    triNodes.reserve(3 * triangles.size());
    for (const auto& t : triangles)
      for (int v : t) triNodes.push_back(std::size_t(v) + 1);
    gmsh::model::mesh::addElementsByType(s, 2, {}, triNodes);  // type 2: 3-node triangle
    // The volume it bounds (a built-in-kernel volume whose boundary is the discrete surface),
    // meshed by the 3D Delaunay mesher; the surface mesh is kept as it is.
    const int loop = gmsh::model::geo::addSurfaceLoop({s});
    gmsh::model::geo::addVolume({loop});
    gmsh::model::geo::synchronize();
    gmsh::model::mesh::generate(3);
    std::vector<std::size_t> tags;
    std::vector<double> xyz, param;
    gmsh::model::mesh::getNodes(tags, xyz, param, -1, -1, true, false);
    std::map<std::size_t, int> index;
    for (std::size_t k = 0; k < tags.size(); ++k) {
      if (index.count(tags[k])) continue;
      index[tags[k]] = static_cast<int>(out.vertices.size());
      out.vertices.emplace_back(xyz[3 * k], xyz[3 * k + 1], xyz[3 * k + 2]);
    }
    std::vector<std::size_t> elemTags, elemNodes;
    gmsh::model::mesh::getElementsByType(4, elemTags, elemNodes);  // type 4: 4-node tetrahedron
    out.tets.reserve(elemTags.size());
    for (std::size_t e = 0; e < elemTags.size(); ++e) {
      std::array<int, 4> t{};
      for (int a = 0; a < 4; ++a) {
        const auto it = index.find(elemNodes[4 * e + a]);
        if (it == index.end()) throw std::runtime_error("Gmsh returned a tetrahedron with an unknown node");
        t[a] = it->second;
      }
      out.tets.push_back(t);
    }
  } catch (const std::invalid_argument&) {
    gmsh::finalize();
    throw;
  } catch (const std::exception& e) {
    gmsh::finalize();
    throw std::runtime_error(std::string("Gmsh tetrahedralisation failed: ") + e.what());
  } catch (...) {
    std::string why;
    try {
      gmsh::logger::getLastError(why);
    } catch (...) {
    }
    gmsh::finalize();
    throw std::runtime_error("Gmsh tetrahedralisation failed" + (why.empty() ? std::string() : ": " + why));
  }
  gmsh::finalize();
  if (out.tets.empty()) throw std::runtime_error("Gmsh produced no tetrahedra (is the surface closed?)");
  return out;
}

#else

bool haveTetrahedraliser() { return false; }

TetMeshFile tetrahedraliseSurface(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                                  double) {
  checkClosed(static_cast<int>(vertices.size()), vertices, triangles);
  throw std::runtime_error("this build has no Gmsh library (libgmsh-dev): cannot tetrahedralise a surface");
}

#endif

TetMeshFile tetrahedraliseMesh(const MeshData& surface, double scale, double maxSize) {
  std::vector<Vec3> pts;
  pts.reserve(surface.vertices.size());
  for (const auto& q : surface.vertices) pts.push_back(q.cast<double>() * scale);
  std::vector<std::array<int, 3>> tri;
  for (std::size_t k = 0; k + 2 < surface.indices.size(); k += 3)
    tri.push_back({int(surface.indices[k]), int(surface.indices[k + 1]), int(surface.indices[k + 2])});
  tri = weldVertices(pts, tri);
  return tetrahedraliseSurface(pts, tri, maxSize);
}

}  // namespace mechsim::io
