// core/spec_path.cpp — a spec's values by path (core/spec_path.h).
//
// A path resolves to a Slot: where its numbers live in the spec (a fixed array of n doubles, an
// optional number, the optional pair of joint limits) or its text. Get and set go through the one
// resolution, so that the two can never disagree on what a path means.
#include "core/spec_path.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mechsim {

namespace {

struct Slot {
  double* numbers = nullptr;                             // n fixed numbers
  int n = 0;
  std::optional<double>* optional = nullptr;             // one optional number
  std::optional<std::pair<double, double>>* limits = nullptr;  // lower, upper
  std::optional<Eigen::Matrix<double, 6, 1>>* inertia = nullptr;  // Ixx Iyy Izz Ixy Ixz Iyz
  std::string* text = nullptr;
};

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw std::invalid_argument("spec path '" + path + "': " + why);
}

template <class T>
std::string namesOf(const std::vector<T>& items) {
  std::string s;
  for (std::size_t i = 0; i < items.size() && i < 12; ++i) s += (i ? ", " : "") + items[i].name;
  if (items.size() > 12) s += ", ...";
  return s.empty() ? "none" : s;
}

template <class T>
T& byName(std::vector<T>& items, const std::string& name, const char* what, const std::string& path) {
  for (T& x : items)
    if (x.name == name) return x;
  fail(path, std::string("no ") + what + " named '" + name + "' (there are: " + namesOf(items) + ")");
}

Slot vec(Vec3& v) { return {v.data(), 3}; }
Slot num(double& x) { return {&x, 1}; }
Slot opt(std::optional<double>& x) {
  Slot s;
  s.optional = &x;
  return s;
}
Slot txt(std::string& x) {
  Slot s;
  s.text = &x;
  return s;
}

[[noreturn]] void unknownField(const std::string& path, const std::string& field, const char* fields) {
  fail(path, "no field '" + field + "' here (fields: " + fields + ")");
}

/// Where `path` (without an index) lives in spec.
Slot resolve(MechanismSpec& spec, const std::string& path) {
  if (path == "gravity") return vec(spec.gravity);
  const std::size_t dot = path.find('.');
  if (dot == std::string::npos) fail(path, "expected KIND.NAME.FIELD (bodies, joints, drivers, handles, dynamics, deformables, contact) or gravity");
  std::string kind = path.substr(0, dot), rest = path.substr(dot + 1);
  if (kind == "contact") {
    if (rest == "friction") return opt(spec.contact.friction);
    if (rest == "restitution") return opt(spec.contact.restitution);
    unknownField(path, rest, "friction, restitution");
  }
  if (kind == "dynamics") {
    const std::size_t d2 = rest.find('.');
    if (d2 == std::string::npos) fail(path, "expected dynamics.springs|jointSprings|motors.NAME.FIELD");
    kind += "." + rest.substr(0, d2);
    rest = rest.substr(d2 + 1);
  }
  // NAME.FIELD: the field is after the last dot (names may hold dots).
  const std::size_t last = rest.rfind('.');
  if (last == std::string::npos || last == 0) fail(path, "expected " + kind + ".NAME.FIELD");
  const std::string name = rest.substr(0, last), field = rest.substr(last + 1);
  if (kind == "bodies") {
    BodySpec& b = byName(spec.bodies, name, "body", path);
    if (field == "mass") return opt(b.mass);
    if (field == "density") return opt(b.density);
    if (field == "position") return vec(b.position);
    if (field == "com") return vec(b.com);
    if (field == "inertia") {
      Slot s;
      s.inertia = &b.inertia;
      return s;
    }
    unknownField(path, field, "mass, density, position, com, inertia");
  }
  if (kind == "joints") {
    JointSpec& j = byName(spec.joints, name, "joint", path);
    if (field == "point") return vec(j.point);
    if (field == "axis") return vec(j.axis);
    if (field == "axis1") return vec(j.axis1);
    if (field == "axis2") return vec(j.axis2);
    if (field == "normal") return vec(j.normal);
    if (field == "point1") return vec(j.point1);
    if (field == "point2") return vec(j.point2);
    if (field == "length") return opt(j.length);
    if (field == "limits") {
      Slot s;
      s.limits = &j.limits;
      return s;
    }
    unknownField(path, field, "point, axis, axis1, axis2, normal, point1, point2, length, limits");
  }
  if (kind == "drivers") {
    DriverSpec& d = byName(spec.drivers, name, "driver", path);
    if (field == "expression") return txt(d.expression);
    unknownField(path, field, "expression");
  }
  if (kind == "handles") {
    HandleSpec& h = byName(spec.handles, name, "handle", path);
    if (field == "point") return vec(h.point);
    unknownField(path, field, "point");
  }
  if (kind == "dynamics.springs") {
    SpringSpec& s = byName(spec.dynamics.springs, name, "spring", path);
    if (field == "stiffness") return num(s.stiffness);
    if (field == "damping") return num(s.damping);
    if (field == "length") return opt(s.length);
    if (field == "point1") return vec(s.point1);
    if (field == "point2") return vec(s.point2);
    unknownField(path, field, "stiffness, damping, length, point1, point2");
  }
  if (kind == "dynamics.jointSprings") {
    JointSpringSpec& s = byName(spec.dynamics.jointSprings, name, "joint spring", path);
    if (field == "stiffness") return num(s.stiffness);
    if (field == "damping") return num(s.damping);
    if (field == "rest") return num(s.rest);
    unknownField(path, field, "stiffness, damping, rest");
  }
  if (kind == "dynamics.motors") {
    MotorSpec& mo = byName(spec.dynamics.motors, name, "motor", path);
    if (field == "effort") return txt(mo.effort);
    if (field == "kp") return num(mo.kp);
    if (field == "kd") return num(mo.kd);
    if (field == "maxEffort") return opt(mo.maxEffort);
    unknownField(path, field, "effort, kp, kd, maxEffort");
  }
  if (kind == "deformables") {
    DeformableSpec& d = byName(spec.deformables, name, "deformable part", path);
    if (field == "youngs") return num(d.youngs);
    if (field == "poisson") return num(d.poisson);
    if (field == "density") return num(d.density);
    unknownField(path, field, "youngs, poisson, density");
  }
  fail(path, "unknown kind '" + kind + "' (bodies, joints, drivers, handles, dynamics.springs, dynamics.jointSprings, "
             "dynamics.motors, deformables, contact, gravity)");
}

/// path → (path without the index, index or −1).
std::pair<std::string, int> splitIndex(const std::string& path) {
  if (path.empty() || path.back() != ']') return {path, -1};
  const std::size_t open = path.rfind('[');
  if (open == std::string::npos || open + 2 > path.size() - 1) fail(path, "expected PATH[INDEX]");
  int index = 0;
  for (std::size_t i = open + 1; i + 1 < path.size(); ++i) {
    if (path[i] < '0' || path[i] > '9' || index > 1000) fail(path, "expected a small non-negative index in [...]");
    index = index * 10 + (path[i] - '0');
  }
  return {path.substr(0, open), index};
}

std::vector<double> numbersOf(const Slot& s) {
  if (s.numbers) return {s.numbers, s.numbers + s.n};
  if (s.optional) return *s.optional ? std::vector<double>{**s.optional} : std::vector<double>{};
  if (s.limits) return *s.limits ? std::vector<double>{(*s.limits)->first, (*s.limits)->second} : std::vector<double>{};
  if (s.inertia && *s.inertia) return {(*s.inertia)->data(), (*s.inertia)->data() + 6};
  return {};
}

int countOf(const Slot& s) { return s.numbers ? s.n : s.optional ? 1 : s.limits ? 2 : s.inertia ? 6 : 0; }

}  // namespace

SpecValue getSpecValue(const MechanismSpec& spec, const std::string& path) {
  auto [base, index] = splitIndex(path);
  const Slot s = resolve(const_cast<MechanismSpec&>(spec), base);  // resolve() only finds, it changes nothing
  SpecValue v;
  if (s.text) {
    if (index >= 0) fail(path, "a text has no entries");
    v.text = *s.text;
    return v;
  }
  const std::vector<double> all = numbersOf(s);
  if (index < 0) {
    v.numbers = all;
    v.count = countOf(s);
    return v;
  }
  v.count = 1;
  if (index >= countOf(s)) fail(path, "index out of range (" + std::to_string(countOf(s)) + " entries)");
  if (!all.empty()) v.numbers = {all[index]};
  return v;
}

void setSpecValue(MechanismSpec& spec, const std::string& path, const SpecValue& value) {
  // Every check comes before the one write: a throw leaves the spec as it was.
  auto [base, index] = splitIndex(path);
  const Slot s = resolve(spec, base);
  if (s.text) {
    if (index >= 0) fail(path, "a text has no entries");
    if (!value.text) fail(path, "expected a text (an expression of t)");
    *s.text = *value.text;
    return;
  }
  if (value.text) fail(path, "expected " + std::string(countOf(s) == 1 ? "a number" : "numbers") + ", got a text");
  for (double x : value.numbers)
    if (!std::isfinite(x)) fail(path, "the value is not finite");
  const int n = countOf(s);
  if (index >= n) fail(path, "index out of range (" + std::to_string(n) + " entries)");
  const std::size_t want = index >= 0 ? 1 : static_cast<std::size_t>(n);
  if (value.numbers.size() != want)
    fail(path, "expected " + std::to_string(want) + " number" + (want == 1 ? "" : "s") + ", got " +
                   std::to_string(value.numbers.size()));
  if (s.numbers) {
    if (index >= 0) s.numbers[index] = value.numbers[0];
    else std::copy(value.numbers.begin(), value.numbers.end(), s.numbers);
  } else if (s.optional) {
    *s.optional = value.numbers[0];
  } else if (s.limits) {
    if (index >= 0 && !*s.limits) fail(path, "the joint has no limits yet: set both (" + base + " = [lower, upper])");
    if (index == 0) (*s.limits)->first = value.numbers[0];
    else if (index == 1) (*s.limits)->second = value.numbers[0];
    else *s.limits = std::make_pair(value.numbers[0], value.numbers[1]);
  } else if (s.inertia) {
    if (index >= 0 && !*s.inertia) fail(path, "the body has no inertia yet: set all six (" + base + " = [Ixx, Iyy, Izz, Ixy, Ixz, Iyz])");
    if (index >= 0) (**s.inertia)[index] = value.numbers[0];
    else *s.inertia = Eigen::Map<const Eigen::Matrix<double, 6, 1>>(value.numbers.data());
  }
}

std::vector<std::string> specPaths(const MechanismSpec& spec) {
  std::vector<std::string> p{"gravity"};
  for (const BodySpec& b : spec.bodies)
    for (const char* f : {"mass", "density", "position", "com", "inertia"}) p.push_back("bodies." + b.name + "." + f);
  for (const JointSpec& j : spec.joints) {
    std::vector<const char*> fields{"limits"};
    switch (j.type) {
      case JointType::Distance: fields = {"point1", "point2", "length", "limits"}; break;
      case JointType::Universal: fields = {"point", "axis1", "axis2", "limits"}; break;
      case JointType::Planar: fields = {"point", "normal", "limits"}; break;
      case JointType::Spherical: case JointType::Fixed: fields = {"point", "limits"}; break;
      default: fields = {"point", "axis", "limits"};
    }
    for (const char* f : fields) p.push_back("joints." + j.name + "." + f);
  }
  for (const DriverSpec& d : spec.drivers) p.push_back("drivers." + d.name + ".expression");
  for (const HandleSpec& h : spec.handles) p.push_back("handles." + h.name + ".point");
  for (const SpringSpec& s : spec.dynamics.springs)
    for (const char* f : {"stiffness", "damping", "length", "point1", "point2"})
      p.push_back("dynamics.springs." + s.name + "." + f);
  for (const JointSpringSpec& s : spec.dynamics.jointSprings)
    for (const char* f : {"stiffness", "damping", "rest"}) p.push_back("dynamics.jointSprings." + s.name + "." + f);
  for (const MotorSpec& m : spec.dynamics.motors)
    for (const char* f : {"effort", "kp", "kd", "maxEffort"}) p.push_back("dynamics.motors." + m.name + "." + f);
  for (const DeformableSpec& d : spec.deformables)
    for (const char* f : {"youngs", "poisson", "density"}) p.push_back("deformables." + d.name + "." + f);
  p.push_back("contact.friction");
  p.push_back("contact.restitution");
  return p;
}

}  // namespace mechsim
