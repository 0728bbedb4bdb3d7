#pragma once
// core/collision/sweep_prune.h — broad phase: sweep and prune of axis-aligned boxes.
//
// The boxes are sorted by their lower x bound; one sweep keeps the boxes whose x interval is still
// open and tests y and z only against those. O(N log N + K) for N boxes and K x-overlaps, with no
// cell size to choose (unlike the sphere grid of core/contact/broadphase.h, which needs one size).
#include <utility>
#include <vector>

#include "core/types.h"

namespace mechsim::collision {

/// All pairs (i < j) of boxes [lo_i, hi_i] that overlap, sorted.
void sweepAndPrune(const std::vector<Vec3>& lo, const std::vector<Vec3>& hi, std::vector<std::pair<int, int>>& pairs);

/// The same by testing every pair (the reference of the tests).
void allPairs(const std::vector<Vec3>& lo, const std::vector<Vec3>& hi, std::vector<std::pair<int, int>>& pairs);

}  // namespace mechsim::collision
