// core/io/import/convex_hull.cpp — incremental 3-D convex hull (see convex_hull.h).
#include "core/io/import/convex_hull.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <utility>

namespace mechsim::io::imp {

namespace {

struct Face {
  int a, b, c;
  Vec3 n;        // outward unit normal
  double d = 0;  // plane offset: n·x = d on the face
  bool alive = true;
};

Face makeFace(const std::vector<Vec3>& p, int a, int b, int c) {
  Face f{a, b, c, (p[std::size_t(b)] - p[std::size_t(a)]).cross(p[std::size_t(c)] - p[std::size_t(a)]), 0, true};
  const double len = f.n.norm();
  if (len > 0) f.n /= len;
  f.d = f.n.dot(p[std::size_t(a)]);
  return f;
}

}  // namespace

HullMesh convexHull(const std::vector<Vec3>& points) {
  const int n = int(points.size());
  if (n < 4) throw std::invalid_argument("a convex hull needs at least 4 points, got " + std::to_string(n));

  // Tolerance from the extent of the points.
  Vec3 lo = points[0], hi = points[0];
  for (const Vec3& q : points) {
    lo = lo.cwiseMin(q);
    hi = hi.cwiseMax(q);
  }
  const double eps = 1e-10 * std::max((hi - lo).norm(), 1e-300);

  // Initial tetrahedron: the lowest x, the point farthest from it, the farthest from their line,
  // the farthest from their plane.
  int i0 = 0;
  for (int i = 1; i < n; ++i)
    if (points[std::size_t(i)].x() < points[std::size_t(i0)].x()) i0 = i;
  auto farthest = [&](auto&& dist) {
    int best = -1;
    double bestD = eps;
    for (int i = 0; i < n; ++i)
      if (const double d = dist(points[std::size_t(i)]); d > bestD) bestD = d, best = i;
    return best;
  };
  const Vec3& p0 = points[std::size_t(i0)];
  const int i1 = farthest([&](const Vec3& q) { return (q - p0).norm(); });
  if (i1 < 0) throw std::invalid_argument("the points all coincide");
  const Vec3 u = (points[std::size_t(i1)] - p0).normalized();
  const int i2 = farthest([&](const Vec3& q) { return (q - p0).cross(u).norm(); });
  if (i2 < 0) throw std::invalid_argument("the points all lie on one line");
  const Vec3 w = u.cross(points[std::size_t(i2)] - p0).normalized();
  const int i3 = farthest([&](const Vec3& q) { return std::abs((q - p0).dot(w)); });
  if (i3 < 0) throw std::invalid_argument("the points all lie on one plane");
  const Vec3 inside = 0.25 * (p0 + points[std::size_t(i1)] + points[std::size_t(i2)] + points[std::size_t(i3)]);

  std::vector<Face> faces;
  auto addFace = [&](int a, int b, int c) {
    Face f = makeFace(points, a, b, c);
    if (f.n.dot(inside) - f.d > 0) f = makeFace(points, a, c, b);  // the interior lies behind every face
    faces.push_back(f);
  };
  addFace(i0, i1, i2);
  addFace(i0, i1, i3);
  addFace(i0, i2, i3);
  addFace(i1, i2, i3);

  // Add the other points one by one.
  for (int p = 0; p < n; ++p) {
    if (p == i0 || p == i1 || p == i2 || p == i3) continue;
    const Vec3& q = points[std::size_t(p)];
    std::vector<int> seen;
    for (int f = 0; f < int(faces.size()); ++f)
      if (faces[std::size_t(f)].alive && faces[std::size_t(f)].n.dot(q) - faces[std::size_t(f)].d > eps) seen.push_back(f);
    if (seen.empty()) continue;  // inside or on the hull
    // Horizon: directed edges of seen faces whose reverse is not an edge of a seen face.
    std::set<std::pair<int, int>> seenEdges;
    for (int f : seen) {
      const Face& F = faces[std::size_t(f)];
      seenEdges.insert({F.a, F.b});
      seenEdges.insert({F.b, F.c});
      seenEdges.insert({F.c, F.a});
    }
    for (int f : seen) faces[std::size_t(f)].alive = false;
    for (const auto& [a, b] : seenEdges)
      if (!seenEdges.count({b, a})) faces.push_back(makeFace(points, a, b, p));  // keeps the winding outward
  }

  // The surviving faces, on the hull's own vertices.
  HullMesh out;
  std::vector<bool> used(std::size_t(n), false);
  for (const Face& f : faces)
    if (f.alive) used[std::size_t(f.a)] = used[std::size_t(f.b)] = used[std::size_t(f.c)] = true;
  std::vector<int> index(std::size_t(n), -1);
  for (int v = 0; v < n; ++v)
    if (used[std::size_t(v)]) {
      index[std::size_t(v)] = int(out.vertices.size());
      out.vertices.push_back(points[std::size_t(v)]);
    }
  for (const Face& f : faces)
    if (f.alive)
      for (int v : {f.a, f.b, f.c}) out.indices.push_back(unsigned(index[std::size_t(v)]));
  return out;
}

}  // namespace mechsim::io::imp
