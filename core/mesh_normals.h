#pragma once
// core/mesh_normals.h — vertex normals for triangle surfaces that are smooth across gentle edges
// and sharp at creases: the deformable parts' boundary surfaces (ui/deformable_parts) and mesh
// files that bring no normals of their own (core/io/mesh.cpp). Header-only (Eigen alone), so the
// mesh reader program links nothing more.
//
// A surface vertex shared by triangles on both sides of a crease cannot carry one normal for both:
// each corner (3 per triangle) is joined to the corners at the same point of the triangles next to
// it across every edge whose dihedral angle is below the crease angle (union–find over corners),
// and each group of joined corners becomes a vertex of its own. A box's edges (90°) and a
// cylinder's rims stay sharp; its side (a few tens of degrees between facets) stays smooth.
#include <cmath>
#include <cstdint>
#include <numeric>
#include <unordered_map>
#include <utility>
#include <vector>

#include <Eigen/Core>

namespace mechsim {

/// Dihedral angle above which a surface shows a sharp edge (degrees).
inline constexpr double kCreaseDegrees = 60;

/// Groups the corners of the triangle list `indices` (3 per triangle, into `points`, a closed or
/// open surface whose shared edges use shared point indices) into smooth vertices. Returns each
/// corner's group, numbered from 0 in first-seen order; groupPoint[g] is the point of group g.
template <class Point>
std::vector<unsigned> creaseGroups(const std::vector<Point>& points, const std::vector<unsigned>& indices,
                                   double creaseDegrees, std::vector<unsigned>& groupPoint) {
  const std::size_t nc = indices.size() - indices.size() % 3, nf = nc / 3;
  std::vector<Eigen::Vector3d> normal(nf);
  for (std::size_t f = 0; f < nf; ++f) {
    const Eigen::Vector3d a = points[indices[3 * f]].template cast<double>();
    normal[f] = (points[indices[3 * f + 1]].template cast<double>() - a)
                    .cross(points[indices[3 * f + 2]].template cast<double>() - a);
  }
  std::vector<std::size_t> parent(nc);
  std::iota(parent.begin(), parent.end(), std::size_t(0));
  auto root = [&](std::size_t c) {
    while (parent[c] != c) c = parent[c] = parent[parent[c]];
    return c;
  };
  // Half-edge (from, to) → the corner of `from` in its triangle; an edge's two triangles run it in
  // opposite directions when the surface is consistently oriented.
  std::unordered_map<std::uint64_t, std::size_t> halfEdge;
  halfEdge.reserve(nc);
  auto key = [](unsigned from, unsigned to) { return (std::uint64_t(from) << 32) | to; };
  for (std::size_t c = 0; c < nc; ++c) halfEdge.emplace(key(indices[c], indices[c - c % 3 + (c + 1) % 3]), c);
  const double cosCrease = std::cos(creaseDegrees * 3.14159265358979323846 / 180);
  for (std::size_t c = 0; c < nc; ++c) {
    const std::size_t f = c / 3, next = c - c % 3 + (c + 1) % 3;
    const auto twin = halfEdge.find(key(indices[next], indices[c]));
    if (twin == halfEdge.end()) continue;
    const std::size_t g = twin->second / 3;
    if (g <= f) continue;  // each edge once
    const double nn = normal[f].norm() * normal[g].norm();
    if (nn > 0 && normal[f].dot(normal[g]) < cosCrease * nn) continue;  // a crease
    // The twin runs next → c: its corner is next's point, the corner after it c's point.
    const std::size_t twinNext = twin->second - twin->second % 3 + (twin->second + 1) % 3;
    parent[root(c)] = root(twinNext);
    parent[root(next)] = root(twin->second);
  }
  std::vector<unsigned> group(nc);
  std::vector<long> number(nc, -1);  // corner root → group
  groupPoint.clear();
  for (std::size_t c = 0; c < nc; ++c) {
    long& k = number[root(c)];
    if (k < 0) {
      k = static_cast<long>(groupPoint.size());
      groupPoint.push_back(indices[c]);
    }
    group[c] = static_cast<unsigned>(k);
  }
  return group;
}

/// Unit vertex normals, each the area-weighted sum of its triangles' normals (+z where a vertex has
/// no area).
inline std::vector<Eigen::Vector3f> areaWeightedNormals(const std::vector<Eigen::Vector3f>& vertices,
                                                        const std::vector<unsigned>& indices) {
  std::vector<Eigen::Vector3f> n(vertices.size(), Eigen::Vector3f::Zero());
  for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
    const unsigned a = indices[t], b = indices[t + 1], c = indices[t + 2];
    const Eigen::Vector3f w = (vertices[b] - vertices[a]).cross(vertices[c] - vertices[a]);
    n[a] += w;
    n[b] += w;
    n[c] += w;
  }
  for (Eigen::Vector3f& v : n) {
    const float l = v.norm();
    v = l > 0 ? Eigen::Vector3f(v / l) : Eigen::Vector3f::UnitZ();
  }
  return n;
}

/// Crease-aware normals for a triangle mesh given as `vertices` and `indices` (replaced): each
/// vertex repeated once per group of its triangles that meet at less than kCreaseDegrees
/// (creaseGroups), the indices renumbered to those copies, and `normals` the area-weighted normals
/// of the copies — smooth across gentle edges, sharp at creases.
inline void creaseNormals(std::vector<Eigen::Vector3f>& vertices, std::vector<unsigned>& indices,
                          std::vector<Eigen::Vector3f>& normals) {
  std::vector<unsigned> groupPoint;
  std::vector<unsigned> corners = creaseGroups(vertices, indices, kCreaseDegrees, groupPoint);
  std::vector<Eigen::Vector3f> copies(groupPoint.size());
  for (std::size_t g = 0; g < groupPoint.size(); ++g) copies[g] = vertices[groupPoint[g]];
  vertices = std::move(copies);
  indices = std::move(corners);
  normals = areaWeightedNormals(vertices, indices);
}

}  // namespace mechsim
