// core/collision/sweep_prune.cpp — sweep and prune (sweep_prune.h).
#include "core/collision/sweep_prune.h"

#include <algorithm>
#include <numeric>

namespace mechsim::collision {
namespace {
bool overlapYZ(const Vec3& la, const Vec3& ha, const Vec3& lb, const Vec3& hb) {
  return la.y() <= hb.y() && lb.y() <= ha.y() && la.z() <= hb.z() && lb.z() <= ha.z();
}
}  // namespace

void sweepAndPrune(const std::vector<Vec3>& lo, const std::vector<Vec3>& hi, std::vector<std::pair<int, int>>& pairs) {
  pairs.clear();
  const int n = static_cast<int>(lo.size());
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return lo[a].x() < lo[b].x(); });
  std::vector<int> active;
  for (const int i : order) {
    // Close the intervals that end before this one starts.
    active.erase(std::remove_if(active.begin(), active.end(), [&](int k) { return hi[k].x() < lo[i].x(); }), active.end());
    for (const int k : active)
      if (overlapYZ(lo[i], hi[i], lo[k], hi[k])) pairs.emplace_back(std::min(i, k), std::max(i, k));
    active.push_back(i);
  }
  std::sort(pairs.begin(), pairs.end());
}

void allPairs(const std::vector<Vec3>& lo, const std::vector<Vec3>& hi, std::vector<std::pair<int, int>>& pairs) {
  pairs.clear();
  const int n = static_cast<int>(lo.size());
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (lo[i].x() <= hi[j].x() && lo[j].x() <= hi[i].x() && overlapYZ(lo[i], hi[i], lo[j], hi[j])) pairs.emplace_back(i, j);
}

}  // namespace mechsim::collision
