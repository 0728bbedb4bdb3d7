// core/compile.cpp — MechanismSpec → Model.
//
// Steps, each failing with a SpecError that names the offending value's path:
//   1. bodies: names (non-empty, unique), pose, mass properties (mass_properties.h; when mass is
//      omitted from the shapes and the density — tol::kDefaultDensity when neither is given —,
//      when only the mass is given the shapes' inertia is scaled to it, or a sphere of default
//      density when there are no shapes), shapes; the layout of q (7 per moving body, r then the
//      quaternion w x y z) and q0.
//   2. joints: body names resolved (not the same body, not both fixed), joint frames built from the
//      world geometry. Frames are orthonormal with z = the axis (revolute, prismatic, cylindrical),
//      the normal (planar) or axis1 (universal, whose frame y is axis2, which must be perpendicular
//      to axis1); the x axis is the world axis least aligned with z, made perpendicular. Fixed
//      joints use the world axes and body2's origin as the joint point. Both bodies get the SAME
//      world frame and point, expressed in their own frames, so every joint coordinate is 0 in
//      the file configuration. Distance joints keep their two attachment points.
//   3. drivers: joint and coordinate resolved (one driver per coordinate); a driven distance joint
//      loses its own equation (the driver's |d| − L − e(t) replaces it, distance.cpp).
//   4. equation layout and names: joint rows ("A:x", "A:perp1", …), "<body>:norm" per moving
//      body, "<driver>:drive"; joint coordinate names ("A", or "C.0", "C.1" for multi-DOF joints);
//      the fixed sparsity pattern of Φ_q (constraints.cpp).
#include "core/compile.h"

#include <cmath>
#include <set>
#include <unordered_map>

#include "core/kinematics/assembly.h"
#include "core/mass_properties.h"
#include "core/tolerances.h"

namespace mechsim {
namespace {

constexpr double kPi = 3.14159265358979323846;
/// |axis1·axis2| above this rejects a universal joint (the axes must be perpendicular).
constexpr double kPerpendicularTol = 1e-6;

std::string at(const char* list, size_t i, const char* key = nullptr) {
  std::string p = std::string(list) + "[" + std::to_string(i) + "]";
  if (key) p += std::string(".") + key;
  return p;
}

bool finite(const Vec3& v) { return v.allFinite(); }

Eigen::Vector3f parseColor(const std::string& c, const Eigen::Vector3f& fallback) {
  if (c.size() != 7 || c[0] != '#') return fallback;
  Eigen::Vector3f out;
  for (int k = 0; k < 3; ++k) {
    const std::string hex = c.substr(1 + 2 * k, 2);
    char* end = nullptr;
    const long v = std::strtol(hex.c_str(), &end, 16);
    if (end != hex.c_str() + 2) return fallback;
    out(k) = static_cast<float>(v) / 255.0f;
  }
  return out;
}

/// A unit vector from a spec direction, or SpecError.
Vec3 unitAxis(const Vec3& a, const std::string& path) {
  if (!finite(a) || a.norm() < tol::kAxisNormMin) throw SpecError(path, "expected a non-zero direction");
  return a.normalized();
}

/// Orthonormal world frame with the given z: x is the world axis least aligned with z, made
/// perpendicular to it.
Mat3 frameWithZ(const Vec3& z) {
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (std::abs(z(i)) < std::abs(z(k)) - 1e-12) k = i;
  const Vec3 e = Vec3::Unit(k);
  const Vec3 x = (e - e.dot(z) * z).normalized();
  Mat3 W;
  W.col(0) = x;
  W.col(1) = z.cross(x);
  W.col(2) = z;
  return W;
}

void checkShape(const ShapeSpec& s, const std::string& path) {
  auto positive = [&](double v, const char* key) {
    if (!(v > 0) || !std::isfinite(v)) throw SpecError(path + "." + key, "expected a positive number");
  };
  switch (s.type) {
    case ShapeType::Box:
      if (!(s.size.minCoeff() > 0) || !finite(s.size)) throw SpecError(path + ".size", "expected three positive edge lengths");
      break;
    case ShapeType::Cylinder:
    case ShapeType::Capsule:
      positive(s.radius, "radius");
      if (!(s.length >= 0) || !std::isfinite(s.length)) throw SpecError(path + ".length", "expected a length ≥ 0");
      if (s.type == ShapeType::Cylinder) positive(s.length, "length");
      unitAxis(s.axis, path + ".axis");
      break;
    case ShapeType::Sphere: positive(s.radius, "radius"); break;
    case ShapeType::Mesh:
      if (!s.mesh || s.mesh->indices.size() < 3) throw SpecError(path + ".file", "mesh not loaded or without triangles");
      positive(s.scale, "scale");
      break;
    case ShapeType::Plane: unitAxis(s.axis, path + ".normal"); break;
  }
}

Shape makeShape(const ShapeSpec& s, const Eigen::Vector3f& bodyColor) {
  Shape out;
  out.type = s.type;
  out.size = s.size;
  out.radius = s.radius;
  out.length = s.length;
  out.local = shapeLocalPose(s);
  out.scale = s.scale;
  out.color = parseColor(s.color, bodyColor);
  out.friction = s.friction.value_or(-1.0);
  out.mesh = s.mesh;
  return out;
}

/// Mass, com and inertia of a body (rules in the file comment).
void massProperties(const BodySpec& bs, size_t i, Body& b) {
  const std::string path = at("bodies", i);
  if (bs.mass && (!(*bs.mass > 0) || !std::isfinite(*bs.mass))) throw SpecError(path + ".mass", "expected a positive mass");
  if (bs.density && (!(*bs.density > 0) || !std::isfinite(*bs.density)))
    throw SpecError(path + ".density", "expected a positive density");
  if (bs.inertia && !bs.inertia->allFinite()) throw SpecError(path + ".inertia", "expected finite numbers");
  const double rho = bs.density.value_or(tol::kDefaultDensity);
  std::vector<MassProperties> parts;
  for (size_t k = 0; k < bs.shapes.size(); ++k) parts.push_back(shapeMassProperties(bs.shapes[k], rho));
  const MassProperties shapes = combine(parts);
  const bool haveShapes = shapes.mass > 0;

  if (bs.mass) {
    b.mass = *bs.mass;
    b.com = bs.comGiven || !haveShapes ? bs.com : shapes.com;
    if (bs.inertia) {
      b.inertia = inertiaFromVector(*bs.inertia);
    } else if (haveShapes) {
      // The shapes' inertia about the com, scaled to the given mass.
      b.inertia = inertiaAbout(shapes, b.com) * (b.mass / shapes.mass);
    } else {
      // No shapes: a solid sphere of the default density.
      const double r = std::cbrt(3.0 * b.mass / (4.0 * kPi * tol::kDefaultDensity));
      b.inertia = 0.4 * b.mass * r * r * Mat3::Identity();
    }
    return;
  }
  if (!haveShapes) {
    if (b.fixed) return;  // a fixed body needs no mass
    throw SpecError(path + ".mass", bs.density ? "density given but the body has no shapes to derive the mass from"
                                               : "mass omitted and the body has no shapes to derive it from");
  }
  b.mass = shapes.mass;
  b.com = bs.comGiven ? bs.com : shapes.com;
  b.inertia = bs.inertia ? inertiaFromVector(*bs.inertia) : inertiaAbout(shapes, b.com);
}

}  // namespace

Model compile(const MechanismSpec& spec, const std::vector<std::function<double(double)>>& driverFunctions) {
  Model m;
  m.name = spec.name;
  m.sourceFile = spec.sourceFile;
  m.gravity = spec.gravity;
  if (!driverFunctions.empty() && driverFunctions.size() != spec.drivers.size())
    throw SpecError("drivers", "internal: " + std::to_string(driverFunctions.size()) + " driver functions for " +
                                   std::to_string(spec.drivers.size()) + " drivers");

  // ---- 1. Bodies ----
  std::set<std::string> names;
  for (size_t i = 0; i < spec.bodies.size(); ++i) {
    const BodySpec& bs = spec.bodies[i];
    if (bs.name.empty()) throw SpecError(at("bodies", i, "name"), "expected a non-empty body name");
    if (!names.insert(bs.name).second) throw SpecError(at("bodies", i, "name"), "duplicate body name '" + bs.name + "'");
    Body b;
    b.name = bs.name;
    b.fixed = bs.fixed;
    if (!finite(bs.position)) throw SpecError(at("bodies", i, "position"), "expected finite numbers");
    if (!bs.orientation.coeffs().allFinite() || bs.orientation.norm() < tol::kAxisNormMin)
      throw SpecError(at("bodies", i, "orientation"), "expected a non-zero quaternion");
    b.pose0.position = bs.position;
    b.pose0.orientation = bs.orientation.normalized();
    for (size_t k = 0; k < bs.shapes.size(); ++k) checkShape(bs.shapes[k], at("bodies", i, "shapes") + "[" + std::to_string(k) + "]");
    for (size_t k = 0; k < bs.visuals.size(); ++k) checkShape(bs.visuals[k], at("bodies", i, "visuals") + "[" + std::to_string(k) + "]");
    massProperties(bs, i, b);
    const Eigen::Vector3f bodyColor = parseColor(bs.color, Shape{}.color);
    for (const auto& s : bs.shapes) b.shapes.push_back(makeShape(s, bodyColor));
    for (const auto& s : bs.visuals) b.visuals.push_back(makeShape(s, bodyColor));
    if (!b.fixed) {
      b.qIndex = 7 * m.nMoving;
      ++m.nMoving;
    }
    m.bodies.push_back(std::move(b));
  }
  m.nq = 7 * m.nMoving;
  m.q0.resize(m.nq);
  for (const Body& b : m.bodies) {
    if (b.qIndex < 0) continue;
    const Quat& o = b.pose0.orientation;
    m.q0.segment<3>(b.qIndex) = b.pose0.position;
    m.q0.segment<4>(b.qIndex + 3) << o.w(), o.x(), o.y(), o.z();
  }

  // Names to indices (Model::findBody is a linear search: per joint it made compile quadratic in
  // the number of bodies).
  std::unordered_map<std::string, int> bodyIndex;
  for (int i = 0; i < static_cast<int>(m.bodies.size()); ++i) bodyIndex.emplace(m.bodies[i].name, i);
  auto findBody = [&](const std::string& name) {
    const auto it = bodyIndex.find(name);
    return it == bodyIndex.end() ? -1 : it->second;
  };

  // ---- 2. Joints ----
  names.clear();
  double lengthScale = 0;
  for (size_t i = 0; i < spec.joints.size(); ++i) {
    const JointSpec& js = spec.joints[i];
    if (js.name.empty()) throw SpecError(at("joints", i, "name"), "expected a non-empty joint name");
    if (!names.insert(js.name).second) throw SpecError(at("joints", i, "name"), "duplicate joint name '" + js.name + "'");
    Joint j;
    j.name = js.name;
    j.type = js.type;
    j.body1 = findBody(js.body1);
    if (j.body1 < 0) throw SpecError(at("joints", i, "body1"), "unknown body '" + js.body1 + "'");
    j.body2 = findBody(js.body2);
    if (j.body2 < 0) throw SpecError(at("joints", i, "body2"), "unknown body '" + js.body2 + "'");
    if (j.body1 == j.body2) throw SpecError(at("joints", i, "body2"), "a joint needs two different bodies ('" + js.body2 + "' twice)");
    if (m.bodies[j.body1].fixed && m.bodies[j.body2].fixed)
      throw SpecError(at("joints", i, "body2"), "both bodies ('" + js.body1 + "', '" + js.body2 + "') are fixed");
    if (js.limits && !(js.limits->first <= js.limits->second))
      throw SpecError(at("joints", i, "limits"), "expected lower ≤ upper");
    j.limits = js.limits;

    // World frame W and point of the joint in the file configuration.
    Mat3 W = Mat3::Identity();
    Vec3 point = js.point;
    if (!finite(point)) throw SpecError(at("joints", i, "point"), "expected finite numbers");
    switch (js.type) {
      case JointType::Revolute:
      case JointType::Prismatic:
      case JointType::Cylindrical: W = frameWithZ(unitAxis(js.axis, at("joints", i, "axis"))); break;
      case JointType::Planar: W = frameWithZ(unitAxis(js.normal, at("joints", i, "normal"))); break;
      case JointType::Spherical: break;
      case JointType::Universal: {
        const Vec3 z = unitAxis(js.axis1, at("joints", i, "axis1"));
        Vec3 y = unitAxis(js.axis2, at("joints", i, "axis2"));
        if (std::abs(y.dot(z)) > kPerpendicularTol)
          throw SpecError(at("joints", i, "axis2"), "the axes of a universal joint must be perpendicular");
        y = (y - y.dot(z) * z).normalized();
        W.col(0) = y.cross(z);
        W.col(1) = y;
        W.col(2) = z;
        break;
      }
      case JointType::Fixed: point = m.bodies[j.body2].pose0.position; break;
      case JointType::Distance: break;
    }
    const Pose& P1 = m.bodies[j.body1].pose0;
    const Pose& P2 = m.bodies[j.body2].pose0;
    const Mat3 R1 = P1.orientation.toRotationMatrix(), R2 = P2.orientation.toRotationMatrix();
    j.frame1 = R1.transpose() * W;
    j.frame2 = R2.transpose() * W;
    if (js.type == JointType::Distance) {
      if (!finite(js.point1)) throw SpecError(at("joints", i, "point1"), "expected finite numbers");
      if (!finite(js.point2)) throw SpecError(at("joints", i, "point2"), "expected finite numbers");
      j.point1 = R1.transpose() * (js.point1 - P1.position);
      j.point2 = R2.transpose() * (js.point2 - P2.position);
      j.length = js.length ? *js.length : (js.point2 - js.point1).norm();
      if (!(j.length > tol::kLengthEps) || !std::isfinite(j.length))
        throw SpecError(js.length ? at("joints", i, "length") : at("joints", i, "point2"),
                        "a distance joint needs a positive length");
      lengthScale = std::max(lengthScale, j.length);
    } else {
      j.point1 = R1.transpose() * (point - P1.position);
      j.point2 = R2.transpose() * (point - P2.position);
    }
    lengthScale = std::max({lengthScale, j.point1.norm(), j.point2.norm()});
    j.nCoords = jointCoordinateCount(js.type);
    j.nEquations = kin::jointKind(js.type).nEquations;
    m.joints.push_back(std::move(j));
  }
  m.lengthScale = lengthScale > tol::kLengthEps ? lengthScale : 1.0;

  // ---- 3. Drivers ----
  std::unordered_map<std::string, int> jointIndex;
  for (int i = 0; i < static_cast<int>(m.joints.size()); ++i) jointIndex.emplace(m.joints[i].name, i);
  names.clear();
  std::set<std::pair<int, int>> driven;
  for (size_t i = 0; i < spec.drivers.size(); ++i) {
    const DriverSpec& ds = spec.drivers[i];
    Driver d;
    d.name = ds.name.empty() ? ds.joint : ds.name;
    if (!names.insert(d.name).second) throw SpecError(at("drivers", i, "name"), "duplicate driver name '" + d.name + "'");
    const auto ji = jointIndex.find(ds.joint);
    d.joint = ji == jointIndex.end() ? -1 : ji->second;
    if (d.joint < 0) throw SpecError(at("drivers", i, "joint"), "unknown joint '" + ds.joint + "'");
    const Joint& joint = m.joints[d.joint];
    if (joint.nCoords == 0) throw SpecError(at("drivers", i, "joint"), "joint '" + ds.joint + "' (" + toString(joint.type) + ") has no coordinate to drive");
    if (ds.coordinate < 0 || ds.coordinate >= joint.nCoords)
      throw SpecError(at("drivers", i, "coordinate"), "expected a coordinate index from 0 to " + std::to_string(joint.nCoords - 1));
    if (!driven.insert({d.joint, ds.coordinate}).second)
      throw SpecError(at("drivers", i, "coordinate"), "coordinate " + std::to_string(ds.coordinate) + " of joint '" + ds.joint + "' is already driven");
    d.coordinate = ds.coordinate;
    d.expression = ds.expression;
    if (!driverFunctions.empty() && driverFunctions[i]) d.value = driverFunctions[i];
    else d.value = [](double) { return 0.0; };
    // A driven distance joint: the driver row replaces the joint's own equation.
    if (joint.type == JointType::Distance) m.joints[d.joint].nEquations = 0;
    m.drivers.push_back(std::move(d));
  }

  // ---- 3b. Couplings (coupling.cpp): follower and leader coordinates ----
  names.clear();
  std::set<std::pair<int, int>> coupled;
  auto couplingCoordinate = [&](size_t i, const std::string& jointName, int coordinate, const char* jointKey,
                                const char* coordKey) {
    const auto ji = jointIndex.find(jointName);
    if (ji == jointIndex.end()) throw SpecError(at("couplings", i, jointKey), "unknown joint '" + jointName + "'");
    const Joint& joint = m.joints[ji->second];
    if (joint.nCoords == 0 || joint.type == JointType::Distance)
      throw SpecError(at("couplings", i, jointKey), "joint '" + jointName + "' (" + toString(joint.type) + ") has no coordinate to couple");
    if (coordinate < 0 || coordinate >= joint.nCoords)
      throw SpecError(at("couplings", i, coordKey), "expected a coordinate index from 0 to " + std::to_string(joint.nCoords - 1));
    return ji->second;
  };
  for (size_t i = 0; i < spec.couplings.size(); ++i) {
    const CouplingSpec& cs = spec.couplings[i];
    Coupling c;
    c.name = cs.name.empty() ? cs.joint : cs.name;
    if (!names.insert(c.name).second) throw SpecError(at("couplings", i, "name"), "duplicate coupling name '" + c.name + "'");
    c.joint = couplingCoordinate(i, cs.joint, cs.coordinate, "joint", "coordinate");
    c.coordinate = cs.coordinate;
    if (!cs.leader.empty()) {
      c.leader = couplingCoordinate(i, cs.leader, cs.leaderCoordinate, "leader", "leaderCoordinate");
      c.leaderCoordinate = cs.leaderCoordinate;
      if (c.leader == c.joint && c.leaderCoordinate == c.coordinate)
        throw SpecError(at("couplings", i, "leader"), "a coordinate cannot be coupled to itself");
    }
    for (double v : cs.polynomial)
      if (!std::isfinite(v)) throw SpecError(at("couplings", i, "polynomial"), "expected finite coefficients");
    if (!coupled.insert({c.joint, c.coordinate}).second)
      throw SpecError(at("couplings", i, "joint"), "coordinate " + std::to_string(c.coordinate) + " of joint '" + cs.joint + "' is already coupled");
    c.c = cs.polynomial;
    m.couplings.push_back(std::move(c));
  }

  // ---- 4. Layout of Φ and of the joint coordinates, names ----
  int row = 0, coord = 0;
  for (Joint& j : m.joints) {
    j.firstEquation = row;
    const kin::JointKind& kind = kin::jointKind(j.type);
    for (int k = 0; k < j.nEquations; ++k) m.equationNames.push_back(j.name + ":" + kind.equationNames[k]);
    row += j.nEquations;
    j.firstCoord = coord;
    if (j.nCoords == 1) m.coordNames.push_back(j.name);
    else
      for (int k = 0; k < j.nCoords; ++k) m.coordNames.push_back(j.name + "." + std::to_string(k));
    coord += j.nCoords;
  }
  m.nJointEquations = row;
  m.nCoords = coord;
  for (const Body& b : m.bodies)
    if (b.qIndex >= 0) {
      m.equationNames.push_back(b.name + ":norm");
      ++row;
    }
  for (Coupling& c : m.couplings) {
    c.equation = row++;
    m.equationNames.push_back(c.name + ":couple");
  }
  for (Driver& d : m.drivers) {
    d.equation = row++;
    m.equationNames.push_back(d.name + ":drive");
  }
  m.nEquations = row;

  // ---- 5. Handles ----
  for (size_t i = 0; i < spec.handles.size(); ++i) {
    const HandleSpec& hs = spec.handles[i];
    Handle h;
    h.name = hs.name;
    h.body = findBody(hs.body);
    if (h.body < 0) throw SpecError(at("handles", i, "body"), "unknown body '" + hs.body + "'");
    const Pose& P = m.bodies[h.body].pose0;
    h.local = P.orientation.conjugate() * (hs.point - P.position);
    m.handles.push_back(std::move(h));
  }

  // ---- 5b. Dynamics section: springs, joint springs, motors, initial rates, solver settings
  //          (core/dynamics/compile_dynamics.cpp) ----
  compileDynamics(spec, m);
  compileContact(spec, m);  // "contact" section (core/collision/compile_contact.cpp)

  // ---- 6. Sparsity pattern of Φ_q ----
  kin::buildJacobianPattern(m);
  return m;
}

}  // namespace mechsim
