// core/spec.cpp — names of the spec's enumerations, joint freedom counts and value locations.
#include "core/spec.h"

namespace mechsim {

SourceLoc MechanismSpec::locate(const std::string& path) const {
  // Walk up the path ("a.b[2].c" → "a.b[2]" → "a.b" → "a") until a recorded location is found.
  std::string p = path;
  while (!p.empty()) {
    auto it = locations.find(p);
    if (it != locations.end()) return it->second;
    const auto cut = p.find_last_of(".[");
    if (cut == std::string::npos) break;
    p.resize(cut);
  }
  auto root = locations.find("");
  return root != locations.end() ? root->second : SourceLoc{};
}

std::string MechanismSpec::fileOf(const std::string& path) const {
  // The same walk as locate's: the file of the location it would return.
  std::string p = path;
  while (!p.empty() && !locations.count(p)) {
    const auto cut = p.find_last_of(".[");
    if (cut == std::string::npos) {
      p.clear();
      break;
    }
    p.resize(cut);
  }
  const auto it = locationFiles.find(p);
  return it != locationFiles.end() ? it->second : sourceFile;
}

const char* toString(JointType t) {
  switch (t) {
    case JointType::Revolute: return "revolute";
    case JointType::Prismatic: return "prismatic";
    case JointType::Cylindrical: return "cylindrical";
    case JointType::Spherical: return "spherical";
    case JointType::Universal: return "universal";
    case JointType::Planar: return "planar";
    case JointType::Fixed: return "fixed";
    case JointType::Distance: return "distance";
  }
  return "?";
}

const char* toString(ShapeType t) {
  switch (t) {
    case ShapeType::Box: return "box";
    case ShapeType::Cylinder: return "cylinder";
    case ShapeType::Sphere: return "sphere";
    case ShapeType::Capsule: return "capsule";
    case ShapeType::Mesh: return "mesh";
    case ShapeType::Plane: return "plane";
  }
  return "?";
}

std::optional<JointType> jointTypeFromString(const std::string& s) {
  for (JointType t : {JointType::Revolute, JointType::Prismatic, JointType::Cylindrical, JointType::Spherical,
                      JointType::Universal, JointType::Planar, JointType::Fixed, JointType::Distance})
    if (s == toString(t)) return t;
  return std::nullopt;
}

std::optional<ShapeType> shapeTypeFromString(const std::string& s) {
  for (ShapeType t : {ShapeType::Box, ShapeType::Cylinder, ShapeType::Sphere, ShapeType::Capsule, ShapeType::Mesh, ShapeType::Plane})
    if (s == toString(t)) return t;
  return std::nullopt;
}

int jointCoordinateCount(JointType t) {
  switch (t) {
    case JointType::Revolute: return 1;
    case JointType::Prismatic: return 1;
    case JointType::Cylindrical: return 2;
    case JointType::Spherical: return 3;
    case JointType::Universal: return 2;
    case JointType::Planar: return 3;
    case JointType::Fixed: return 0;
    case JointType::Distance: return 1;
  }
  return 0;
}

int jointConstraintCount(JointType t) {
  return t == JointType::Distance ? 1 : 6 - jointCoordinateCount(t);
}

}  // namespace mechsim
