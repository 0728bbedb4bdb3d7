// core/collision/geometry.cpp — support functions and bounds of the collision shapes (geometry.h).
#include "core/collision/geometry.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace mechsim::collision {

Geometry makeGeometry(const Shape& s, int body, int shapeIndex) {
  Geometry g;
  g.body = body;
  g.shape = shapeIndex;
  g.local = s.local;
  switch (s.type) {
    case ShapeType::Sphere:
      g.kind = Kind::Sphere;
      g.radius = s.radius;
      g.boundRadius = s.radius;
      break;
    case ShapeType::Box:
      g.kind = Kind::Box;
      g.half = 0.5 * s.size;
      g.boundRadius = g.half.norm();
      break;
    case ShapeType::Capsule:
      g.kind = Kind::Capsule;
      g.radius = s.radius;
      g.halfLength = 0.5 * s.length;
      g.boundRadius = g.radius + g.halfLength;
      break;
    case ShapeType::Cylinder:
      g.kind = Kind::Cylinder;
      g.radius = s.radius;
      g.halfLength = 0.5 * s.length;
      g.boundRadius = std::hypot(g.radius, g.halfLength);
      break;
    case ShapeType::Mesh: {
      g.kind = Kind::Hull;
      if (!s.mesh || s.mesh->vertices.empty()) throw std::invalid_argument("mesh shape without vertices");
      // The hull's support is the max over the vertices; identical vertices are dropped.
      std::vector<Vec3> v;
      v.reserve(s.mesh->vertices.size());
      for (const auto& x : s.mesh->vertices) v.push_back(x.cast<double>() * s.scale);
      std::sort(v.begin(), v.end(), [](const Vec3& a, const Vec3& b) {
        return a.x() != b.x() ? a.x() < b.x() : a.y() != b.y() ? a.y() < b.y() : a.z() < b.z();
      });
      v.erase(std::unique(v.begin(), v.end()), v.end());
      g.points = std::move(v);
      for (const Vec3& x : g.points) g.boundRadius = std::max(g.boundRadius, x.norm());
      break;
    }
    case ShapeType::Plane:
      g.kind = Kind::Plane;
      g.boundRadius = std::numeric_limits<double>::infinity();
      break;
  }
  return g;
}

Vec3 support(const Placed& x, const Vec3& dw) {
  const Geometry& g = *x.g;
  const Vec3 d = x.R.transpose() * dw;  // in the shape frame
  Vec3 s = Vec3::Zero();
  switch (g.kind) {
    case Kind::Sphere: {
      const double n = d.norm();
      s = n > 0 ? Vec3(g.radius * d / n) : Vec3::Zero();
      break;
    }
    case Kind::Box:
      for (int i = 0; i < 3; ++i) s(i) = d(i) >= 0 ? g.half(i) : -g.half(i);
      break;
    case Kind::Capsule: {
      const double n = d.norm();
      s = Vec3(0, 0, d.z() >= 0 ? g.halfLength : -g.halfLength);
      if (n > 0) s += g.radius * d / n;
      break;
    }
    case Kind::Cylinder: {
      const double r = std::hypot(d.x(), d.y());
      s = Vec3(0, 0, d.z() >= 0 ? g.halfLength : -g.halfLength);
      if (r > 0) s += Vec3(g.radius * d.x() / r, g.radius * d.y() / r, 0);
      break;
    }
    case Kind::Hull: {
      double best = -std::numeric_limits<double>::infinity();
      for (const Vec3& p : g.points) {
        const double v = p.dot(d);
        if (v > best) {
          best = v;
          s = p;
        }
      }
      break;
    }
    case Kind::Plane:
      break;  // unbounded: never asked (planes have closed forms only)
  }
  return x.p + x.R * s;
}

void bounds(const Placed& x, double pad, Vec3& lo, Vec3& hi) {
  const Geometry& g = *x.g;
  switch (g.kind) {
    case Kind::Sphere:
      lo = x.p.array() - (g.radius + pad);
      hi = x.p.array() + (g.radius + pad);
      return;
    case Kind::Box: {
      const Vec3 e = x.R.cwiseAbs() * g.half;
      lo = x.p - e - Vec3::Constant(pad);
      hi = x.p + e + Vec3::Constant(pad);
      return;
    }
    default:
      for (int i = 0; i < 3; ++i) {
        hi(i) = support(x, Vec3::Unit(i))(i) + pad;
        lo(i) = support(x, -Vec3::Unit(i))(i) - pad;
      }
  }
}

void planeCandidates(const Placed& x, const Vec3& n, std::vector<Vec3>& pts, double& rounded) {
  const Geometry& g = *x.g;
  pts.clear();
  rounded = 0;
  switch (g.kind) {
    case Kind::Sphere:
      pts.push_back(x.p);
      rounded = g.radius;
      break;
    case Kind::Capsule:
      pts.push_back(x.p + x.R.col(2) * g.halfLength);
      pts.push_back(x.p - x.R.col(2) * g.halfLength);
      rounded = g.radius;
      break;
    case Kind::Box:
      for (int c = 0; c < 8; ++c)
        pts.push_back(x.p + x.R * Vec3((c & 1 ? 1 : -1) * g.half.x(), (c & 2 ? 1 : -1) * g.half.y(), (c & 4 ? 1 : -1) * g.half.z()));
      break;
    case Kind::Hull:
      for (const Vec3& p : g.points) pts.push_back(x.p + x.R * p);
      break;
    case Kind::Cylinder: {
      // The deepest point of each rim lies along −n projected onto the rim plane; a cylinder standing
      // on its cap rests on the rim, so three more points at 90° carry it.
      const Vec3 a = x.R.col(2);
      Vec3 u = -(n - n.dot(a) * a);
      if (u.norm() < 1e-9 * std::max(1.0, n.norm())) u = x.R.col(0);
      u.normalize();
      const Vec3 w = a.cross(u);
      for (int cap = -1; cap <= 1; cap += 2)
        for (int k = 0; k < 4; ++k) {
          const Vec3 dir = k == 0 ? u : k == 1 ? w : k == 2 ? Vec3(-u) : Vec3(-w);
          pts.push_back(x.p + cap * g.halfLength * a + g.radius * dir);
        }
      break;
    }
    case Kind::Plane:
      break;
  }
}

}  // namespace mechsim::collision
