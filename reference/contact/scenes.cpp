// reference/contact/scenes.cpp — Pool 1, Pool 2 and Stacking of paper 000 §5 (scenes.h).
#include "reference/contact/scenes.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mechsim::contact {

namespace {

SphereWorld baseWorld(bool planar, double friction) {
  SphereWorld w;
  w.settings.planar = planar;
  w.settings.friction = friction;
  w.settings.restitution = 0.2;
  w.settings.gravity = Vec3(0, -9.80665, 0);
  w.planes.push_back({Vec3::UnitY(), 0.0});  // ground y ≥ 0
  return w;
}

}  // namespace

SphereWorld poolScene(bool heavyOnTop, bool planar, double friction) {
  constexpr int kCount = 221, kRows = 16;  // circles; index of the top row (masses of Pool 2)
  constexpr double kR = 0.21, kWidth = 6.0;
  SphereWorld w = baseWorld(planar, friction);
  w.planes.push_back({Vec3::UnitX(), 0.0});       // left wall x ≥ 0
  w.planes.push_back({-Vec3::UnitX(), -kWidth});  // right wall x ≤ 6
  const double depth = 6 * kR;
  if (!planar) {
    w.planes.push_back({Vec3::UnitZ(), 0.0});
    w.planes.push_back({-Vec3::UnitZ(), -depth});
  }
  // "stuffed into a small space" (§5): a hexagonal packing from the ground up, rows of 14 and 13
  // alternating (pitch 6/14 m, so 14 circles leave 12 cm of play), 1 cm between rows, the last row
  // partial (8 × (14 + 13) + 5 = 221); a deterministic jitter (LCG) of ±4 mm breaks the symmetry.
  std::uint32_t seed = 12345;
  auto jitter = [&]() {
    seed = seed * 1664525u + 1013904223u;
    return (static_cast<double>(seed >> 8) / static_cast<double>(1u << 24) - 0.5) * 0.008;
  };
  const double pitch = kWidth / 14, rowPitch = pitch * std::sqrt(3.0) / 2 + 0.01;
  int placed = 0;
  for (int r = 0; placed < kCount; ++r) {
    const int inRow = std::min(r % 2 ? 13 : 14, kCount - placed);
    const double x0 = r % 2 ? pitch : 0.5 * pitch;
    const double shift = (r % 2 ? 13 : 14) - inRow;  // centre a partial row
    for (int c = 0; c < inRow; ++c, ++placed) {
      const double x = x0 + (c + 0.5 * shift) * pitch + jitter();
      const double y = kR + 0.01 + r * rowPitch;
      const double z = planar ? 0.0 : (r % 2 ? 2 * kR : 4 * kR) + jitter();
      const double mass = heavyOnTop ? 1.0 + 2.0 * r / kRows : 2.0;
      w.addSphere(Vec3(x, y, z), kR, mass);
    }
  }
  return w;
}

SphereWorld stackingScene(int count, bool planar, double friction) {
  if (count < 1) throw std::invalid_argument("stackingScene: at least one circle");
  constexpr double kR = 0.18;
  SphereWorld w = baseWorld(planar, friction);
  for (int i = 0; i < count; ++i) w.addSphere(Vec3(0, kR + i * (2 * kR + 1e-3), 0), kR, 1.0);
  return w;
}

}  // namespace mechsim::contact
