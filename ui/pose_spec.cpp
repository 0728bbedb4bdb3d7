// ui/pose_spec.cpp — re-posing a spec at the current configuration (the rules are in pose_spec.h).
#include "ui/pose_spec.h"

#include <map>
#include <stdexcept>
#include <string>

namespace mechsim::ui {
namespace {

/// The rigid motion of one body from its file pose to its current pose.
struct Motion {
  Pose from, to;
  Vec3 point(const Vec3& x) const { return to.position + to.orientation * (from.orientation.conjugate() * (x - from.position)); }
  Vec3 direction(const Vec3& a) const { return to.orientation * (from.orientation.conjugate() * a); }
};

}  // namespace

MechanismSpec specAtPose(const MechanismSpec& spec, const Model& model, const std::vector<Pose>& poses,
                         const VecX& coords) {
  if (poses.size() != model.bodies.size())
    throw std::invalid_argument("specAtPose: " + std::to_string(poses.size()) + " poses for " +
                                std::to_string(model.bodies.size()) + " bodies");
  if (coords.size() != model.nCoords)
    throw std::invalid_argument("specAtPose: " + std::to_string(coords.size()) + " coordinates for " +
                                std::to_string(model.nCoords));
  // A file that imports a robot (core/io/load_import.h) is written with the import as a section,
  // which is read again at the robot file's own pose: its own bodies, joined to the robot's, must
  // stay at the file's configuration too, or the saved file would not assemble.
  if (spec.imported) return spec;
  MechanismSpec out = spec;
  // Each body's motion, by name ("ground" / unknown names: no motion).
  std::map<std::string, Motion> motion;
  for (size_t b = 0; b < model.bodies.size(); ++b) motion[model.bodies[b].name] = {model.bodies[b].pose0, poses[b]};
  auto of = [&](const std::string& body) {
    const auto it = motion.find(body);
    return it == motion.end() ? Motion{} : it->second;
  };
  for (BodySpec& b : out.bodies) {
    const auto it = motion.find(b.name);
    if (it == motion.end()) continue;
    b.position = it->second.to.position;
    b.orientation = it->second.to.orientation.normalized();
  }
  std::map<std::string, int> jointIndex;
  for (size_t j = 0; j < model.joints.size(); ++j) jointIndex[model.joints[j].name] = static_cast<int>(j);
  // The current value of coordinate k of the joint named `name` (0 when unknown).
  auto coordinate = [&](const std::string& name, int k) {
    const auto it = jointIndex.find(name);
    if (it == jointIndex.end()) return 0.0;
    const Joint& jt = model.joints[static_cast<size_t>(it->second)];
    return k < jt.nCoords ? coords[jt.firstCoord + k] : 0.0;
  };
  for (JointSpec& j : out.joints) {
    const Motion m1 = of(j.body1), m2 = of(j.body2);
    if (j.type == JointType::Distance) {
      if (!j.length) j.length = (j.point2 - j.point1).norm();
      j.point1 = m1.point(j.point1);
      j.point2 = m2.point(j.point2);
      continue;
    }
    j.point = m1.point(j.point);
    j.axis = m1.direction(j.axis).normalized();
    j.axis1 = m1.direction(j.axis1).normalized();
    j.axis2 = m2.direction(j.axis2).normalized();
    j.normal = m1.direction(j.normal).normalized();
    const bool singleAxis = j.type == JointType::Revolute || j.type == JointType::Prismatic ||
                            j.type == JointType::Cylindrical;
    if (singleAxis && j.limits) {
      const double c = coordinate(j.name, 0);
      j.limits = std::make_pair(j.limits->first - c, j.limits->second - c);
    }
  }
  for (HandleSpec& h : out.handles) h.point = of(h.body).point(h.point);
  for (SpringSpec& s : out.dynamics.springs) {
    if (!s.length) s.length = (s.point2 - s.point1).norm();
    s.point1 = of(s.body1).point(s.point1);
    s.point2 = of(s.body2).point(s.point2);
  }
  for (JointSpringSpec& s : out.dynamics.jointSprings) {
    const auto it = jointIndex.find(s.joint);
    if (it == jointIndex.end()) continue;
    const JointType t = model.joints[static_cast<size_t>(it->second)].type;
    const bool shift = (t == JointType::Revolute || t == JointType::Prismatic) ||
                       (t == JointType::Cylindrical && s.coordinate <= 1);
    if (shift) s.rest -= coordinate(s.joint, s.coordinate);
  }
  return out;
}

}  // namespace mechsim::ui
