#pragma once
// core/contact/broadphase.h — uniform-grid broad phase for spheres (circles in the plane).
//
// Spheres only in this step: for N spheres of similar radius, a grid of cell size
// h = 2 r_max + margin puts every pair that can touch into the same or adjacent cells, so the
// candidate pairs are found in O(N log N) (one sort of cell keys) plus O(N) neighbour look-ups —
// no tree to rebuild, no per-shape bounding volumes. Radii that differ a lot make the cells too
// coarse for the small spheres; a general broad phase for the other shapes is left to a library.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/types.h"

namespace mechsim::contact {

class SphereGrid {
 public:
  /// Candidate pairs (i < j) of spheres whose centres are closer than r_i + r_j + margin, among
  /// them every pair closer than that (exact filter applied). `planar` ignores z (one cell layer).
  void pairs(const std::vector<Vec3>& centre, const std::vector<double>& radius, double margin, bool planar,
             std::vector<std::pair<int, int>>& out);

 private:
  std::vector<std::pair<std::uint64_t, int>> keys_;  // (cell key, sphere) sorted by key
};

}  // namespace mechsim::contact
