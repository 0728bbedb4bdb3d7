// scene/picking.cpp — camera rays, ray–primitive intersection, drag plane and drag axis.
#include "scene/picking.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mechsim::ui {
namespace {
using Eigen::Vector3d;
constexpr double kInf = std::numeric_limits<double>::infinity();

/// Smallest s ≥ 0 with o + s d inside the cube [−½, ½]³ boundary (slab method), or ∞.
double hitUnitBox(const Vector3d& o, const Vector3d& d) {
  double lo = 0, hi = kInf;
  for (int k = 0; k < 3; ++k) {
    if (std::abs(d[k]) < 1e-300) {
      if (o[k] < -0.5 || o[k] > 0.5) return kInf;
      continue;
    }
    double a = (-0.5 - o[k]) / d[k], b = (0.5 - o[k]) / d[k];
    if (a > b) std::swap(a, b);
    lo = std::max(lo, a);
    hi = std::min(hi, b);
    if (lo > hi) return kInf;
  }
  return lo;
}

/// Roots of a s² + b s + c = 0, smallest non-negative one, or ∞.
double smallestRoot(double a, double b, double c) {
  if (std::abs(a) < 1e-300) return kInf;
  const double disc = b * b - 4 * a * c;
  if (disc < 0) return kInf;
  const double r = std::sqrt(disc);
  const double s0 = (-b - r) / (2 * a), s1 = (-b + r) / (2 * a);
  if (s0 >= 0) return s0;
  if (s1 >= 0) return 0;  // the origin is inside
  return kInf;
}

/// |o + s d| = 1.
double hitUnitSphere(const Vector3d& o, const Vector3d& d) { return smallestRoot(d.squaredNorm(), 2 * o.dot(d), o.squaredNorm() - 1); }

/// x² + y² = 1 with |z| ≤ ½, and the two caps z = ±½ with x² + y² ≤ 1.
double hitUnitCylinder(const Vector3d& o, const Vector3d& d) {
  double best = kInf;
  const double a = d.x() * d.x() + d.y() * d.y();
  if (a > 1e-300) {
    const double b = 2 * (o.x() * d.x() + o.y() * d.y()), c = o.x() * o.x() + o.y() * o.y() - 1;
    const double disc = b * b - 4 * a * c;
    if (disc >= 0) {
      for (double s : {(-b - std::sqrt(disc)) / (2 * a), (-b + std::sqrt(disc)) / (2 * a)}) {
        if (s >= 0 && std::abs(o.z() + s * d.z()) <= 0.5) best = std::min(best, s);
      }
    }
  }
  if (std::abs(d.z()) > 1e-300) {
    for (double zc : {-0.5, 0.5}) {
      const double s = (zc - o.z()) / d.z();
      if (s < 0) continue;
      const Vector3d p = o + s * d;
      if (p.x() * p.x() + p.y() * p.y() <= 1) best = std::min(best, s);
    }
  }
  return best;
}

/// Nearest s ≥ 0 where o + s d crosses a triangle of `mesh` (Möller–Trumbore, both faces), or ∞;
/// `corner` gets the vertex of that triangle nearest the crossing.
double hitTriangles(const MeshData& mesh, const Vector3d& o, const Vector3d& d, int& corner) {
  double best = kInf;
  const size_t nv = mesh.vertices.size();
  for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const unsigned i[3] = {mesh.indices[t], mesh.indices[t + 1], mesh.indices[t + 2]};
    if (i[0] >= nv || i[1] >= nv || i[2] >= nv) continue;
    const Vector3d a = mesh.vertices[i[0]].cast<double>(), e1 = mesh.vertices[i[1]].cast<double>() - a,
                   e2 = mesh.vertices[i[2]].cast<double>() - a;
    const Vector3d p = d.cross(e2);
    const double det = e1.dot(p);
    if (std::abs(det) < 1e-300) continue;
    const Vector3d r = o - a;
    const double u = r.dot(p) / det;
    if (u < 0 || u > 1) continue;
    const Vector3d q = r.cross(e1);
    const double v = d.dot(q) / det;
    if (v < 0 || u + v > 1) continue;
    const double s = e2.dot(q) / det;
    if (s < 0 || s >= best) continue;
    best = s;
    // Barycentric weights (1 − u − v, u, v): the largest names the nearest corner.
    const double w[3] = {1 - u - v, u, v};
    corner = static_cast<int>(i[std::max_element(w, w + 3) - w]);
  }
  return best;
}
}  // namespace

Ray cameraRay(const Camera& camera, double px, double py, double w, double h) {
  const double aspect = h > 0 ? w / h : 1.0;
  const double t = std::tan(camera.fovY / 2);
  const double x = (2 * px / std::max(w, 1.0) - 1) * t * aspect;
  const double y = (1 - 2 * py / std::max(h, 1.0)) * t;
  Ray r;
  r.origin = camera.eye();
  r.direction = (-camera.backward() + x * camera.right() + y * camera.up()).normalized();
  return r;
}

std::optional<Eigen::Vector2d> projectToPixel(const Camera& camera, const Vector3d& p, double w, double h) {
  const Vector3d v = p - camera.eye();
  const double depth = -v.dot(camera.backward());
  if (depth <= 1e-12) return std::nullopt;
  const double aspect = h > 0 ? w / h : 1.0;
  const double t = std::tan(camera.fovY / 2);
  const double x = v.dot(camera.right()) / depth / (t * aspect), y = v.dot(camera.up()) / depth / t;
  return Eigen::Vector2d((x + 1) * w / 2, (1 - y) * h / 2);
}

namespace {
/// The outward normal of a unit primitive at its surface point p (its own frame).
Vector3d unitNormal(Primitive primitive, const Vector3d& p) {
  switch (primitive) {
    case Primitive::Sphere: return p.normalized();
    case Primitive::Cylinder:
      // The cap when the point is on it (|z| = ½ to rounding), else the side.
      if (std::abs(std::abs(p.z()) - 0.5) < 1e-9 || p.x() * p.x() + p.y() * p.y() < 1 - 1e-9)
        return Vector3d(0, 0, p.z() > 0 ? 1 : -1);
      return Vector3d(p.x(), p.y(), 0).normalized();
    default: {  // box (and a mesh's box): the face whose coordinate is furthest out
      int k = 0;
      p.cwiseAbs().maxCoeff(&k);
      return Vector3d::Unit(k) * (p[k] > 0 ? 1 : -1);
    }
  }
}
}  // namespace

std::optional<PickHit> pick(const Scene& scene, const Ray& ray, int ignoreBody) {
  std::optional<PickHit> bestHandle, bestBody;
  for (int i = 0; i < static_cast<int>(scene.items.size()); ++i) {
    const DrawItem& it = scene.items[i];
    if (it.role != ItemRole::BodyShape && it.role != ItemRole::HandleMarker && it.role != ItemRole::DeformableSurface)
      continue;
    if (ignoreBody >= 0 && it.body == ignoreBody && it.role != ItemRole::DeformableSurface) continue;
    // The ray in the primitive's own frame: x_local = A⁻¹ (x − t). Affine maps keep the ray's
    // parameter, so s found there is the world distance along the (unit) world direction.
    const Eigen::Matrix4d T = it.transform.cast<double>();
    const Eigen::Matrix3d A = T.topLeftCorner<3, 3>();
    if (std::abs(A.determinant()) < 1e-300) continue;
    const Eigen::Matrix3d Ai = A.inverse();
    const Vector3d o = Ai * (ray.origin - T.block<3, 1>(0, 3)), d = Ai * ray.direction;
    double s = kInf;
    int corner = -1;
    Vector3d localNormal = Vector3d::UnitZ();
    if (it.role == ItemRole::DeformableSurface) {
      if (it.mesh) s = hitTriangles(*it.mesh, o, d, corner);
    } else {
      switch (it.primitive) {
        case Primitive::Box: s = hitUnitBox(o, d); break;
        case Primitive::Sphere: s = hitUnitSphere(o, d); break;
        case Primitive::Cylinder: s = hitUnitCylinder(o, d); break;
        case Primitive::Mesh: {
          const Eigen::AlignedBox3f b = primitiveBounds(Primitive::Mesh, it.mesh.get());
          if (b.isEmpty()) break;
          // The mesh's box mapped onto the unit cube.
          const Vector3d c = b.center().cast<double>(), e = b.sizes().cast<double>().cwiseMax(1e-12);
          s = hitUnitBox((o - c).cwiseQuotient(e), d.cwiseQuotient(e));
          if (std::isfinite(s)) localNormal = unitNormal(Primitive::Box, (o + s * d - c).cwiseQuotient(e)).cwiseQuotient(e);
          break;
        }
        case Primitive::Cone: break;
      }
    }
    if (!std::isfinite(s)) continue;
    if (it.role != ItemRole::DeformableSurface && it.primitive != Primitive::Mesh)
      localNormal = unitNormal(it.primitive, o + s * d);
    PickHit hit;
    hit.item = i;
    hit.role = it.role;
    hit.body = it.body;
    hit.handle = it.handle;
    if (it.role == ItemRole::DeformableSurface) hit.deformable = it.deformable, hit.vertex = corner;
    hit.distance = s;
    hit.point = ray.at(s);
    // Normals map by the inverse transpose (the item's scales are not uniform); a deformable
    // surface's normal is the view direction's opposite (its triangle is not kept).
    const Vector3d n = it.role == ItemRole::DeformableSurface ? Vector3d(-ray.direction) : Vector3d(Ai.transpose() * localNormal);
    if (n.norm() > 1e-300) hit.normal = n.normalized();
    auto& best = it.role == ItemRole::HandleMarker ? bestHandle : bestBody;
    if (!best || s < best->distance) best = hit;
  }
  return bestHandle ? bestHandle : bestBody;
}

std::optional<Vector3d> dragOnPlane(const Ray& ray, const Vector3d& anchor, const Vector3d& normal) {
  const double den = ray.direction.dot(normal);
  if (std::abs(den) < 1e-12) return std::nullopt;
  const double s = (anchor - ray.origin).dot(normal) / den;
  if (s < 0) return std::nullopt;
  return ray.at(s);
}

std::optional<Vector3d> dragOnAxis(const Ray& ray, const Vector3d& anchor, const Vector3d& axis) {
  // Closest points of two lines: minimise |anchor + u a − (o + s d)|² over u and s.
  const Vector3d w0 = anchor - ray.origin;
  const double a = axis.dot(axis), b = axis.dot(ray.direction), c = ray.direction.dot(ray.direction);
  const double d = axis.dot(w0), e = ray.direction.dot(w0);
  const double den = a * c - b * b;
  if (std::abs(den) < 1e-12 * a * c) return std::nullopt;
  const double u = (b * e - c * d) / den;
  return Vector3d(anchor + u * axis);
}

int dominantAxis(const Camera& camera, const Vector3d& anchor, const Eigen::Vector2d& screenDelta, double w, double h) {
  const auto p0 = projectToPixel(camera, anchor, w, h);
  if (!p0 || screenDelta.norm() < 1e-9) return 0;
  // Each axis's image: the pixel offset of a short step along it from the anchor.
  const double step = 0.05 * camera.distance;
  int best = 0;
  double bestScore = -1;
  for (int k = 0; k < 3; ++k) {
    const auto p1 = projectToPixel(camera, anchor + step * Vector3d::Unit(k), w, h);
    if (!p1) continue;
    const Eigen::Vector2d img = *p1 - *p0;
    if (img.norm() < 1e-9) continue;
    const double score = std::abs(img.normalized().dot(screenDelta.normalized()));
    if (score > bestScore) bestScore = score, best = k;
  }
  return best;
}

}  // namespace mechsim::ui
