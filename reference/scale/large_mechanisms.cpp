// reference/scale/large_mechanisms.cpp — the generated chain and ladder (large_mechanisms.h).
#include "reference/scale/large_mechanisms.h"

#include <stdexcept>
#include <string>

namespace mechsim::reference {
namespace {

/// A thin rod of `length` along the body's x axis: mass 1 kg per metre, inertia about its centre.
BodySpec rod(const std::string& name, const Vec3& position, const Quat& orientation, double length, const char* color) {
  BodySpec b;
  b.name = name;
  b.position = position;
  b.orientation = orientation;
  const double m = length;
  b.mass = m;
  b.com = Vec3(length / 2, 0, 0);
  b.comGiven = true;
  Eigen::Matrix<double, 6, 1> inertia;
  inertia << 1e-4 * m, m * length * length / 12, m * length * length / 12, 0, 0, 0;
  b.inertia = inertia;
  ShapeSpec s;
  s.type = ShapeType::Capsule;
  s.radius = 0.03 * length;
  s.length = length;
  s.axis = Vec3::UnitX();
  s.position = Vec3(length / 2, 0, 0);
  b.shapes.push_back(s);
  b.color = color;
  return b;
}

JointSpec revolute(const std::string& name, const std::string& b1, const std::string& b2, const Vec3& point,
                   const Vec3& axis) {
  JointSpec j;
  j.name = name;
  j.type = JointType::Revolute;
  j.body1 = b1;
  j.body2 = b2;
  j.point = point;
  j.axis = axis;
  return j;
}

BodySpec ground() {
  BodySpec g;
  g.name = "ground";
  g.fixed = true;
  return g;
}

}  // namespace

MechanismSpec chainMechanism(int links, bool driven) {
  if (links < 1) throw std::invalid_argument("chainMechanism: at least one link");
  constexpr double L = 0.1;
  MechanismSpec s;
  s.name = "chain of " + std::to_string(links) + " links" + (driven ? ", every joint driven" : "");
  s.bodies.push_back(ground());
  for (int i = 0; i < links; ++i) {
    const std::string name = "link" + std::to_string(i);
    s.bodies.push_back(rod(name, Vec3(i * L, 0, 0), Quat::Identity(), L, i % 2 ? "#2060c0" : "#c04020"));
    s.joints.push_back(revolute("J" + std::to_string(i), i == 0 ? "ground" : "link" + std::to_string(i - 1), name,
                                Vec3(i * L, 0, 0), i % 2 ? Vec3::UnitY() : Vec3::UnitZ()));
    if (driven) {
      DriverSpec d;
      d.name = "d" + std::to_string(i);
      d.joint = s.joints.back().name;
      d.expression = "0.2 * sin(t)";
      s.drivers.push_back(d);
    }
  }
  HandleSpec h;
  h.name = "tip";
  h.body = "link" + std::to_string(links - 1);
  h.point = Vec3(links * L, 0, 0);
  s.handles.push_back(h);
  return s;
}

MechanismSpec ladderMechanism(int cells) {
  if (cells < 1) throw std::invalid_argument("ladderMechanism: at least one cell");
  MechanismSpec s;
  s.name = "ladder of " + std::to_string(cells) + " four-bar cells";
  s.gravity = Vec3(0, -9.81, 0);
  s.bodies.push_back(ground());
  const Quat up(Eigen::AngleAxisd(3.14159265358979323846 / 2, Vec3::UnitZ()));
  for (int i = 0; i <= cells; ++i)
    s.bodies.push_back(rod("rod" + std::to_string(i), Vec3(i, 0, 0), up, 1.0, i == 0 ? "#c04020" : "#2060c0"));
  for (int i = 0; i < cells; ++i) s.bodies.push_back(rod("bar" + std::to_string(i), Vec3(i, 1, 0), Quat::Identity(), 1.0, "#20a040"));
  for (int i = 0; i <= cells; ++i)
    s.joints.push_back(revolute("G" + std::to_string(i), "ground", "rod" + std::to_string(i), Vec3(i, 0, 0), Vec3::UnitZ()));
  for (int i = 0; i < cells; ++i) {
    const std::string bar = "bar" + std::to_string(i);
    s.joints.push_back(revolute("L" + std::to_string(i), "rod" + std::to_string(i), bar, Vec3(i, 1, 0), Vec3::UnitZ()));
    s.joints.push_back(revolute("R" + std::to_string(i), bar, "rod" + std::to_string(i + 1), Vec3(i + 1, 1, 0), Vec3::UnitZ()));
  }
  DriverSpec d;
  d.name = "rod0";
  d.joint = "G0";
  d.expression = "0.3 * sin(t)";
  s.drivers.push_back(d);
  HandleSpec h;
  h.name = "top";
  h.body = "rod0";
  h.point = Vec3(0, 1, 0);
  s.handles.push_back(h);
  return s;
}

}  // namespace mechsim::reference
