// core/mass_properties.cpp — mass properties of the primitive shapes and of closed triangle meshes.
// Formulas in mass_properties.h.
#include "core/mass_properties.h"

#include <cmath>
#include <stdexcept>

namespace mechsim {
namespace {

constexpr double kPi = 3.14159265358979323846;

/// Properties of a shape in its own frame (com at its origin except for meshes).
MassProperties localProperties(const ShapeSpec& s, double rho) {
  MassProperties p;
  switch (s.type) {
    case ShapeType::Box: {
      const double a = s.size.x(), b = s.size.y(), c = s.size.z();
      p.mass = rho * a * b * c;
      p.inertia = (p.mass / 12.0 * Vec3(b * b + c * c, a * a + c * c, a * a + b * b)).asDiagonal();
      break;
    }
    case ShapeType::Cylinder: {
      const double r = s.radius, h = s.length;
      p.mass = rho * kPi * r * r * h;
      const double ixx = p.mass * (3 * r * r + h * h) / 12.0;
      p.inertia = Vec3(ixx, ixx, 0.5 * p.mass * r * r).asDiagonal();
      break;
    }
    case ShapeType::Sphere: {
      const double r = s.radius;
      p.mass = rho * 4.0 / 3.0 * kPi * r * r * r;
      p.inertia = (0.4 * p.mass * r * r * Vec3::Ones()).asDiagonal();
      break;
    }
    case ShapeType::Capsule: {
      const double r = s.radius, h = s.length;
      const double mc = rho * kPi * r * r * h;
      const double ms = rho * 4.0 / 3.0 * kPi * r * r * r;
      p.mass = mc + ms;
      const double izz = 0.5 * mc * r * r + 0.4 * ms * r * r;
      const double ixx = mc * (3 * r * r + h * h) / 12.0 + ms * (0.4 * r * r + h * h / 4.0 + 3.0 * h * r / 8.0);
      p.inertia = Vec3(ixx, ixx, izz).asDiagonal();
      break;
    }
    case ShapeType::Mesh: {
      if (!s.mesh || s.mesh->indices.size() < 3) throw std::invalid_argument("mesh has no triangles");
      const auto& V = s.mesh->vertices;
      const auto& F = s.mesh->indices;
      // Signed tetrahedra from the origin to each triangle.
      double vol = 0;
      Vec3 first = Vec3::Zero();
      Mat3 second = Mat3::Zero();
      for (size_t t = 0; t + 2 < F.size(); t += 3) {
        if (F[t] >= V.size() || F[t + 1] >= V.size() || F[t + 2] >= V.size())
          throw std::invalid_argument("mesh index out of range");
        const Vec3 a = V[F[t]].cast<double>() * s.scale;
        const Vec3 b = V[F[t + 1]].cast<double>() * s.scale;
        const Vec3 c = V[F[t + 2]].cast<double>() * s.scale;
        const double det = a.dot(b.cross(c));
        const Vec3 sum = a + b + c;
        vol += det / 6.0;
        first += det / 24.0 * sum;
        second += det / 120.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + sum * sum.transpose());
      }
      // Inward winding gives all integrals the opposite sign.
      if (vol < 0) {
        vol = -vol;
        first = -first;
        second = -second;
      }
      p.mass = rho * vol;
      if (vol <= 0) return p;
      p.com = first / vol;
      const Mat3 iOrigin = rho * (second.trace() * Mat3::Identity() - second);
      p.inertia = iOrigin - p.mass * (p.com.squaredNorm() * Mat3::Identity() - p.com * p.com.transpose());
      break;
    }
    case ShapeType::Plane: break;  // a half-space (fixed bodies only): no mass
  }
  return p;
}

}  // namespace

Pose shapeLocalPose(const ShapeSpec& s) {
  Pose pose;
  pose.position = s.position;
  Quat q = s.orientation.normalized();
  if ((s.type == ShapeType::Cylinder || s.type == ShapeType::Capsule) && s.axis.norm() > 0) {
    const Vec3 z = q * Vec3::UnitZ();
    q = (Quat::FromTwoVectors(z, s.axis.normalized()) * q).normalized();
  }
  // A plane's normal is `normal` turned by the shape's orientation (local z of the shape frame).
  if (s.type == ShapeType::Plane && s.axis.norm() > 0)
    q = (q * Quat::FromTwoVectors(Vec3::UnitZ(), s.axis.normalized())).normalized();
  pose.orientation = q;
  return pose;
}

MassProperties shapeMassProperties(const ShapeSpec& s, double rho) {
  const MassProperties local = localProperties(s, rho);
  const Pose pose = shapeLocalPose(s);
  const Mat3 R = pose.orientation.toRotationMatrix();
  MassProperties p;
  p.mass = local.mass;
  p.com = pose.apply(local.com);
  p.inertia = R * local.inertia * R.transpose();
  return p;
}

Mat3 inertiaAbout(const MassProperties& mp, const Vec3& c) {
  const Vec3 d = mp.com - c;
  return mp.inertia + mp.mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
}

MassProperties combine(const std::vector<MassProperties>& parts) {
  MassProperties total;
  for (const auto& p : parts) {
    total.mass += p.mass;
    total.com += p.mass * p.com;
  }
  if (total.mass <= 0) return MassProperties{};
  total.com /= total.mass;
  for (const auto& p : parts) total.inertia += inertiaAbout(p, total.com);
  return total;
}

Mat3 inertiaFromVector(const Eigen::Matrix<double, 6, 1>& v) {
  Mat3 I;
  I << v(0), v(3), v(4), v(3), v(1), v(5), v(4), v(5), v(2);
  return I;
}

}  // namespace mechsim
