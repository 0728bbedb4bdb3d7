// core/contact/broadphase.cpp — uniform-grid broad phase for spheres (broadphase.h).
//
// Cell of a centre p: c = floor(p / h) per axis, h = 2 r_max + margin. Keys pack the three cell
// indices (21 bits each, offset to stay non-negative); the (key, sphere) list is sorted once, and
// each sphere looks up the 3×3 (planar) or 3×3×3 neighbour cells by binary search, keeping j > i.
#include "core/contact/broadphase.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mechsim::contact {

namespace {
constexpr std::int64_t kOffset = 1 << 20;
std::uint64_t packKey(std::int64_t x, std::int64_t y, std::int64_t z) {
  return (static_cast<std::uint64_t>(x + kOffset) << 42) | (static_cast<std::uint64_t>(y + kOffset) << 21) |
         static_cast<std::uint64_t>(z + kOffset);
}
}  // namespace

void SphereGrid::pairs(const std::vector<Vec3>& centre, const std::vector<double>& radius, double margin, bool planar,
                       std::vector<std::pair<int, int>>& out) {
  out.clear();
  const int n = static_cast<int>(centre.size());
  if (static_cast<int>(radius.size()) != n) throw std::invalid_argument("SphereGrid: centre and radius sizes differ");
  if (n < 2) return;
  double rmax = 0;
  for (double r : radius) rmax = std::max(rmax, r);
  const double h = 2 * rmax + std::max(0.0, margin);
  if (!(h > 0) || !std::isfinite(h)) throw std::invalid_argument("SphereGrid: radii must be positive and finite");

  // cell of each centre
  std::vector<std::int64_t> cell(3 * static_cast<std::size_t>(n));
  keys_.resize(n);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      const double c = std::floor(centre[i][k] / h);
      if (!(std::abs(c) < kOffset - 2)) throw std::invalid_argument("SphereGrid: centre not finite or too far out");
      cell[3 * i + k] = planar && k == 2 ? 0 : static_cast<std::int64_t>(c);
    }
    keys_[i] = {packKey(cell[3 * i], cell[3 * i + 1], cell[3 * i + 2]), i};
  }
  std::sort(keys_.begin(), keys_.end());

  // neighbour cells, exact distance filter
  const int zr = planar ? 0 : 1;
  for (int i = 0; i < n; ++i)
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -zr; dz <= zr; ++dz) {
          const std::uint64_t key = packKey(cell[3 * i] + dx, cell[3 * i + 1] + dy, cell[3 * i + 2] + dz);
          auto it = std::lower_bound(keys_.begin(), keys_.end(), std::make_pair(key, 0));
          for (; it != keys_.end() && it->first == key; ++it) {
            const int j = it->second;
            if (j <= i) continue;
            const double reach = radius[i] + radius[j] + margin;
            Vec3 d = centre[j] - centre[i];
            if (planar) d.z() = 0;
            if (d.squaredNorm() < reach * reach) out.emplace_back(i, j);
          }
        }
  std::sort(out.begin(), out.end());
}

}  // namespace mechsim::contact
