#pragma once
// tests/closed_surface.h — whether a triangle surface is closed (test_sim_parts, test_deformable_gui).
#include <array>
#include <map>
#include <utility>
#include <vector>

#include "core/spec.h"  // MeshData

namespace mechsim::test {

/// Every undirected edge of the triangle list used by exactly two triangles (a closed surface). A
/// vertex is known by its position: the surface repeats a mesh vertex on each side of a crease.
inline bool closedSurface(const MeshData& m) {
  std::map<std::array<float, 3>, unsigned> first;
  std::vector<unsigned> id(m.vertices.size());
  for (size_t k = 0; k < m.vertices.size(); ++k)
    id[k] = first.try_emplace({m.vertices[k].x(), m.vertices[k].y(), m.vertices[k].z()}, unsigned(k)).first->second;
  std::map<std::pair<unsigned, unsigned>, int> edges;
  for (size_t t = 0; t + 2 < m.indices.size(); t += 3)
    for (int e = 0; e < 3; ++e) {
      unsigned a = id[m.indices[t + e]], b = id[m.indices[t + (e + 1) % 3]];
      if (a > b) std::swap(a, b);
      ++edges[{a, b}];
    }
  for (const auto& [edge, n] : edges)
    if (n != 2) return false;
  return !edges.empty();
}

}  // namespace mechsim::test
