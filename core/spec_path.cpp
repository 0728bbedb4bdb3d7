// core/spec_path.cpp — a spec's values by path (core/spec_path.h).
//
// A path resolves to a Slot: where its numbers live in the spec (a fixed array of n doubles, an
// optional number, the optional pair of joint limits) or its text — or, for a value the spec does
// not hold as the path reads it (a flag, a whole number, an orientation as axis and angle, a
// checked name or enumeration, a name that others refer to), a reader and a writer that checks
// everything before it writes. Get and set go through the one resolution, so that the two can
// never disagree on what a path means.
#include "core/spec_path.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>

#include "core/spec_edit.h"
#include "core/tolerances.h"

namespace mechsim {

namespace {

struct Slot {
  double* numbers = nullptr;                             // n fixed numbers
  int n = 0;
  std::optional<double>* optional = nullptr;             // one optional number
  std::optional<std::pair<double, double>>* limits = nullptr;  // lower, upper
  std::optional<Eigen::Matrix<double, 6, 1>>* inertia = nullptr;  // Ixx Iyy Izz Ixy Ixz Iyz
  std::string* text = nullptr;
  // A derived value: `derived` numbers read by readNumbers and written (all of them) by
  // writeNumbers, or a text (readText / writeText). The writers throw std::invalid_argument with
  // the reason alone (no path) before they change anything.
  int derived = 0;
  std::function<std::vector<double>()> readNumbers;
  std::function<void(const std::vector<double>&)> writeNumbers;
  std::function<std::string()> readText;
  std::function<void(const std::string&)> writeText;
};

/// The solver and step-control names of core/deform/solver.h ("|" between them).
constexpr const char* kDeformSolvers = "newton|vbd|jacobi|jgs2-jacobi|jgs2-gs";
constexpr const char* kDeformStepControls = "none|line-search|subspace";

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

Slot fixedNumbers(double* x, int n) {
  Slot s;
  s.numbers = x;
  s.n = n;
  return s;
}
Slot vec(Vec3& v) { return fixedNumbers(v.data(), 3); }
Slot num(double& x) { return fixedNumbers(&x, 1); }
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

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument(why); }

/// x as a person writes it ("0.5", "2", "1e+07").
std::string show(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

/// A text read as it is and written after `check` (which throws the reason) accepts it.
Slot checkedText(std::string& x, std::function<void(const std::string&)> check) {
  Slot s;
  s.readText = [&x] { return x; };
  s.writeText = [&x, check = std::move(check)](const std::string& v) {
    check(v);
    x = v;
  };
  return s;
}

/// One of `names` ("a|b|c"), or also empty when `emptyToo` (a value not given).
std::function<void(const std::string&)> oneOf(const std::string& names, bool emptyToo = false) {
  return [names, emptyToo](const std::string& v) {
    if (v.empty() && emptyToo) return;
    std::size_t start = 0;
    while (start <= names.size()) {
      const std::size_t bar = std::min(names.find('|', start), names.size());
      if (!v.empty() && names.compare(start, bar - start, v) == 0 && bar - start == v.size()) return;
      start = bar + 1;
    }
    std::string list = names;
    std::replace(list.begin(), list.end(), '|', ',');
    refuse("unknown value '" + v + "' (expected one of " + list + (emptyToo ? ", or empty for the default" : "") + ")");
  };
}

/// "#rrggbb" or empty (the default colour).
void checkColor(const std::string& c) {
  bool ok = c.size() == 7 && c[0] == '#';
  for (std::size_t i = 1; ok && i < c.size(); ++i) ok = std::isxdigit(static_cast<unsigned char>(c[i]));
  if (!c.empty() && !ok) refuse("expected a colour \"#rrggbb\" (6 hex digits) or empty, got \"" + c + "\"");
}

/// A name field: renaming goes through renameItem, which renames every reference too.
Slot nameSlot(MechanismSpec& spec, SpecKind kind, std::string& name) {
  Slot s;
  s.readText = [&name] { return name; };
  s.writeText = [&spec, kind, &name](const std::string& v) {
    const std::string old = name;  // renameItem changes `name` itself
    renameItem(spec, kind, old, v);
  };
  return s;
}

/// A name field that must name an existing body.
Slot bodyRefSlot(MechanismSpec& spec, std::string& ref) {
  return checkedText(ref, [&spec](const std::string& v) {
    for (const BodySpec& b : spec.bodies)
      if (b.name == v) return;
    refuse("no body named '" + v + "' (there are: " + namesOf(spec.bodies) + ")");
  });
}

/// A number that must be 0 or 1 (a flag).
Slot flagSlot(bool& x, const char* meaning) {
  Slot s;
  s.derived = 1;
  s.readNumbers = [&x] { return std::vector<double>{x ? 1.0 : 0.0}; };
  s.writeNumbers = [&x, meaning](const std::vector<double>& v) {
    if (v[0] != 0 && v[0] != 1) refuse(std::string("expected 0 or 1 (") + meaning + "), got " + show(v[0]));
    x = v[0] == 1;
  };
  return s;
}

/// `v` as a whole number ≥ 0, or the reason it is not one.
int wholeNumber(double v) {
  if (!(v >= 0) || v != std::floor(v) || v > 1e6)
    refuse("expected a non-negative whole number, got " + show(v));
  return static_cast<int>(v);
}

/// q as a unit axis and an angle in [0, π] (rad); no rotation reads as axis (0, 0, 1), angle 0.
std::vector<double> axisAngleOf(const Quat& q) {
  const double n = q.vec().norm();
  if (!(n > 0)) return {0, 0, 1, 0};
  const double sign = q.w() < 0 ? -1 : 1;  // −q is the same rotation: take the one with w ≥ 0
  const Vec3 axis = sign * q.vec() / n;
  return {axis.x(), axis.y(), axis.z(), 2 * std::atan2(n, std::abs(q.w()))};
}

/// An orientation as 4 numbers: axis x y z (normalised here, not zero), then the angle (rad).
Slot orientationSlot(Quat& q) {
  Slot s;
  s.derived = 4;
  s.readNumbers = [&q] { return axisAngleOf(q); };
  s.writeNumbers = [&q](const std::vector<double>& v) {
    const Vec3 axis(v[0], v[1], v[2]);
    if (!(axis.stableNorm() >= tol::kAxisNormMin)) refuse("the rotation axis is zero: give a unit axis x y z, then the angle (rad)");
    q = Quat(Eigen::AngleAxisd(v[3], axis.stableNormalized())).normalized();
  };
  return s;
}

/// Where a shape field lives (every field for every type: the writer writes those of the type).
Slot shapeField(ShapeSpec& sh, const std::string& field, const std::string& path) {
  if (field == "type") {
    Slot s;
    s.readText = [&sh] { return std::string(toString(sh.type)); };
    s.writeText = [&sh](const std::string& v) {
      oneOf("box|cylinder|sphere|capsule|mesh|plane")(v);
      sh.type = *shapeTypeFromString(v);
    };
    return s;
  }
  if (field == "size") return vec(sh.size);
  if (field == "radius") return num(sh.radius);
  if (field == "length") return num(sh.length);
  if (field == "axis") return vec(sh.axis);
  if (field == "position") return vec(sh.position);
  if (field == "orientation") return orientationSlot(sh.orientation);
  if (field == "color") return checkedText(sh.color, checkColor);
  if (field == "scale") return num(sh.scale);
  if (field == "friction") return opt(sh.friction);
  if (field == "file") {
    // A new file: the mesh loaded from the old one goes (the io layer loads the new one).
    Slot s;
    s.readText = [&sh] { return sh.file; };
    s.writeText = [&sh](const std::string& v) {
      if (v.empty() && sh.type == ShapeType::Mesh) refuse("the mesh file name is empty");
      if (v == sh.file) return;
      sh.file = v;
      sh.resolvedFile.clear();
      sh.mesh.reset();
    };
    return s;
  }
  unknownField(path, field, "type, size, radius, length, axis, position, orientation, color, scale, file, friction");
}

/// bodies.NAME.shapes.K.FIELD or bodies.NAME.visuals.K.FIELD (rest = everything after "bodies."):
/// the shape's slot, or an empty optional when rest is not such a path or a body has the whole
/// name before the field ("a.shapes.0" is a body's name before it is a shape).
std::optional<Slot> shapePath(MechanismSpec& spec, const std::string& rest, const std::string& path) {
  const std::size_t f = rest.rfind('.');
  if (f == std::string::npos || f == 0) return std::nullopt;
  const std::size_t k = rest.rfind('.', f - 1);
  if (k == std::string::npos || k == 0) return std::nullopt;
  const std::size_t l = rest.rfind('.', k - 1);
  if (l == std::string::npos || l == 0) return std::nullopt;
  const std::string name = rest.substr(0, l), list = rest.substr(l + 1, k - l - 1), index = rest.substr(k + 1, f - k - 1);
  if (list != "shapes" && list != "visuals") return std::nullopt;
  if (index.empty() || index.size() > 6 || !std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  for (const BodySpec& b : spec.bodies)
    if (b.name == rest.substr(0, f)) return std::nullopt;
  BodySpec& b = byName(spec.bodies, name, "body", path);
  std::vector<ShapeSpec>& shapes = list == "shapes" ? b.shapes : b.visuals;
  const std::size_t i = std::stoul(index);
  if (i >= shapes.size())
    fail(path, "no " + list + " entry " + index + ": body '" + name + "' has " +
                   (shapes.empty() ? std::string("none") : std::to_string(shapes.size()) + " (0.." + std::to_string(shapes.size() - 1) + ")"));
  return shapeField(shapes[i], rest.substr(f + 1), path);
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
    if (auto shape = shapePath(spec, rest, path)) return *shape;
    BodySpec& b = byName(spec.bodies, name, "body", path);
    if (field == "name") return nameSlot(spec, SpecKind::Body, b.name);
    if (field == "fixed") return flagSlot(b.fixed, "0: moving, 1: fixed");
    if (field == "orientation") return orientationSlot(b.orientation);
    if (field == "color") return checkedText(b.color, checkColor);
    if (field == "mass") return opt(b.mass);
    if (field == "density") return opt(b.density);
    if (field == "position") return vec(b.position);
    if (field == "com") return vec(b.com);
    if (field == "inertia") {
      Slot s;
      s.inertia = &b.inertia;
      return s;
    }
    unknownField(path, field, "name, fixed, position, orientation, mass, density, com, inertia, color, shapes.K.FIELD, visuals.K.FIELD");
  }
  if (kind == "joints") {
    JointSpec& j = byName(spec.joints, name, "joint", path);
    if (field == "name") return nameSlot(spec, SpecKind::Joint, j.name);
    if (field == "type") {
      // Limits belong to one-coordinate joints only (the reader refuses them elsewhere): a type
      // with more or fewer coordinates drops them.
      Slot s;
      s.readText = [&j] { return std::string(toString(j.type)); };
      s.writeText = [&j](const std::string& v) {
        oneOf("revolute|prismatic|cylindrical|spherical|universal|planar|fixed|distance")(v);
        j.type = *jointTypeFromString(v);
        if (jointCoordinateCount(j.type) != 1) j.limits.reset();
      };
      return s;
    }
    if (field == "body1") return bodyRefSlot(spec, j.body1);
    if (field == "body2") return bodyRefSlot(spec, j.body2);
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
    unknownField(path, field, "name, type, body1, body2, point, axis, axis1, axis2, normal, point1, point2, length, limits");
  }
  if (kind == "drivers") {
    DriverSpec& d = byName(spec.drivers, name, "driver", path);
    if (field == "name") return nameSlot(spec, SpecKind::Driver, d.name);
    if (field == "joint")
      return checkedText(d.joint, [&spec, &d](const std::string& v) { checkDriverTarget(spec, v, d.coordinate); });
    if (field == "coordinate") {
      // Whether another driver drives the same coordinate the compiler says (so two drivers can
      // swap coordinates one set at a time).
      Slot s;
      s.derived = 1;
      s.readNumbers = [&d] { return std::vector<double>{static_cast<double>(d.coordinate)}; };
      s.writeNumbers = [&spec, &d](const std::vector<double>& v) {
        const int c = wholeNumber(v[0]);
        if (std::any_of(spec.joints.begin(), spec.joints.end(), [&](const JointSpec& j) { return j.name == d.joint; }))
          checkDriverTarget(spec, d.joint, c);
        d.coordinate = c;
      };
      return s;
    }
    if (field == "expression") return txt(d.expression);
    unknownField(path, field, "name, joint, coordinate, expression");
  }
  if (kind == "handles") {
    HandleSpec& h = byName(spec.handles, name, "handle", path);
    if (field == "name") return nameSlot(spec, SpecKind::Handle, h.name);
    if (field == "body") return bodyRefSlot(spec, h.body);
    if (field == "point") return vec(h.point);
    unknownField(path, field, "name, body, point");
  }
  if (kind == "dynamics.springs") {
    SpringSpec& s = byName(spec.dynamics.springs, name, "spring", path);
    if (field == "name") return nameSlot(spec, SpecKind::Spring, s.name);
    if (field == "stiffness") return num(s.stiffness);
    if (field == "damping") return num(s.damping);
    if (field == "length") return opt(s.length);
    if (field == "point1") return vec(s.point1);
    if (field == "point2") return vec(s.point2);
    unknownField(path, field, "name, stiffness, damping, length, point1, point2");
  }
  if (kind == "dynamics.jointSprings") {
    JointSpringSpec& s = byName(spec.dynamics.jointSprings, name, "joint spring", path);
    if (field == "name") return nameSlot(spec, SpecKind::JointSpring, s.name);
    if (field == "stiffness") return num(s.stiffness);
    if (field == "damping") return num(s.damping);
    if (field == "rest") return num(s.rest);
    unknownField(path, field, "name, stiffness, damping, rest");
  }
  if (kind == "dynamics.motors") {
    MotorSpec& mo = byName(spec.dynamics.motors, name, "motor", path);
    if (field == "name") return nameSlot(spec, SpecKind::Motor, mo.name);
    if (field == "effort") return txt(mo.effort);
    if (field == "kp") return num(mo.kp);
    if (field == "kd") return num(mo.kd);
    if (field == "maxEffort") return opt(mo.maxEffort);
    unknownField(path, field, "name, effort, kp, kd, maxEffort");
  }
  if (kind == "deformables") {
    DeformableSpec& d = byName(spec.deformables, name, "deformable part", path);
    if (field == "name") return nameSlot(spec, SpecKind::Deformable, d.name);
    if (field == "material") return checkedText(d.material, oneOf("stable-neo-hookean|arap"));
    if (field == "youngs") return num(d.youngs);
    if (field == "poisson") return num(d.poisson);
    if (field == "density") return num(d.density);
    // The names of core/deform/solver.h (methodFromString, accelerationFromString; core/ does not
    // link core/deform, and tests/core/test_spec_edit.cpp checks that the lists agree).
    if (field == "solver") return checkedText(d.solver, oneOf(kDeformSolvers, true));
    if (field == "stepControl") return checkedText(d.stepControl, oneOf(kDeformStepControls, true));
    unknownField(path, field, "name, material, youngs, poisson, density, solver, stepControl");
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
  if (s.readNumbers) return s.readNumbers();
  return {};
}

int countOf(const Slot& s) { return s.numbers ? s.n : s.optional ? 1 : s.limits ? 2 : s.inertia ? 6 : s.derived; }

bool isText(const Slot& s) { return s.text || s.readText; }

/// Runs a derived writer, its reason prefixed with the path.
template <class F>
void write(const std::string& path, F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    fail(path, e.what());
  }
}

}  // namespace

SpecValue getSpecValue(const MechanismSpec& spec, const std::string& path) {
  auto [base, index] = splitIndex(path);
  const Slot s = resolve(const_cast<MechanismSpec&>(spec), base);  // resolve() only finds, it changes nothing
  SpecValue v;
  if (isText(s)) {
    if (index >= 0) fail(path, "a text has no entries");
    v.text = s.text ? *s.text : s.readText();
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
  if (isText(s)) {
    if (index >= 0) fail(path, "a text has no entries");
    if (!value.text) fail(path, s.text ? "expected a text (an expression of t)" : "expected a text");
    if (s.text) *s.text = *value.text;
    else write(path, [&] { s.writeText(*value.text); });
    return;
  }
  if (value.text) fail(path, "expected " + std::string(countOf(s) == 1 ? "a number" : "numbers") + ", got a text");
  for (double x : value.numbers)
    if (!std::isfinite(x)) fail(path, "the value is not finite");
  // No numbers for an optional value (a mass, a spring's length, limits, an inertia): unset, the
  // file's default again (from the shapes, the distance in the file, no limits).
  if (value.numbers.empty() && index < 0 && (s.optional || s.limits || s.inertia)) {
    if (s.optional) s.optional->reset();
    if (s.limits) s.limits->reset();
    if (s.inertia) s.inertia->reset();
    return;
  }
  const int n = countOf(s);
  if (index >= n) fail(path, "index out of range (" + std::to_string(n) + " entries)");
  const std::size_t want = index >= 0 ? 1 : static_cast<std::size_t>(n);
  if (value.numbers.size() != want)
    fail(path, "expected " + std::to_string(want) + " number" + (want == 1 ? "" : "s") + ", got " +
                   std::to_string(value.numbers.size()));
  if (s.writeNumbers) {
    // One entry: the others as they are.
    std::vector<double> all = value.numbers;
    if (index >= 0) {
      all = s.readNumbers();
      all[index] = value.numbers[0];
    }
    write(path, [&] { s.writeNumbers(all); });
  } else if (s.numbers) {
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
  // A shape's fields: those its type uses, as the writer writes them.
  auto shapeFields = [](ShapeType t) -> std::vector<const char*> {
    switch (t) {
      case ShapeType::Box: return {"type", "size", "position", "orientation", "color", "friction"};
      case ShapeType::Cylinder:
      case ShapeType::Capsule: return {"type", "radius", "length", "axis", "position", "orientation", "color", "friction"};
      case ShapeType::Sphere: return {"type", "radius", "position", "orientation", "color", "friction"};
      case ShapeType::Mesh: return {"type", "file", "scale", "position", "orientation", "color", "friction"};
      case ShapeType::Plane: return {"type", "axis", "position", "orientation", "color", "friction"};
    }
    return {};
  };
  for (const BodySpec& b : spec.bodies) {
    const std::string at = "bodies." + b.name + ".";
    for (const char* f : {"name", "fixed", "position", "orientation", "mass", "density", "com", "inertia", "color"}) p.push_back(at + f);
    for (std::size_t k = 0; k < b.shapes.size(); ++k)
      for (const char* f : shapeFields(b.shapes[k].type)) p.push_back(at + "shapes." + std::to_string(k) + "." + f);
    for (std::size_t k = 0; k < b.visuals.size(); ++k)
      for (const char* f : shapeFields(b.visuals[k].type)) p.push_back(at + "visuals." + std::to_string(k) + "." + f);
  }
  for (const JointSpec& j : spec.joints) {
    std::vector<const char*> fields{"limits"};
    switch (j.type) {
      case JointType::Distance: fields = {"point1", "point2", "length", "limits"}; break;
      case JointType::Universal: fields = {"point", "axis1", "axis2", "limits"}; break;
      case JointType::Planar: fields = {"point", "normal", "limits"}; break;
      case JointType::Spherical: case JointType::Fixed: fields = {"point", "limits"}; break;
      default: fields = {"point", "axis", "limits"};
    }
    for (const char* f : {"name", "type", "body1", "body2"}) p.push_back("joints." + j.name + "." + f);
    for (const char* f : fields) p.push_back("joints." + j.name + "." + f);
  }
  for (const DriverSpec& d : spec.drivers)
    for (const char* f : {"name", "joint", "coordinate", "expression"}) p.push_back("drivers." + d.name + "." + f);
  for (const HandleSpec& h : spec.handles)
    for (const char* f : {"name", "body", "point"}) p.push_back("handles." + h.name + "." + f);
  for (const SpringSpec& s : spec.dynamics.springs)
    for (const char* f : {"name", "stiffness", "damping", "length", "point1", "point2"})
      p.push_back("dynamics.springs." + s.name + "." + f);
  for (const JointSpringSpec& s : spec.dynamics.jointSprings)
    for (const char* f : {"name", "stiffness", "damping", "rest"}) p.push_back("dynamics.jointSprings." + s.name + "." + f);
  for (const MotorSpec& m : spec.dynamics.motors)
    for (const char* f : {"name", "effort", "kp", "kd", "maxEffort"}) p.push_back("dynamics.motors." + m.name + "." + f);
  for (const DeformableSpec& d : spec.deformables)
    for (const char* f : {"name", "material", "youngs", "poisson", "density", "solver", "stepControl"})
      p.push_back("deformables." + d.name + "." + f);
  p.push_back("contact.friction");
  p.push_back("contact.restitution");
  return p;
}

}  // namespace mechsim
