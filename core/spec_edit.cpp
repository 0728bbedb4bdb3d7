// core/spec_edit.cpp — adding, renaming and removing items of a spec (core/spec_edit.h).
//
// Items refer to each other by name only. Who names whom (core/spec.h):
//   a body   ← joints body1/body2, handles body, springs body1/body2, deformable attachments body,
//              contact exclusion pairs;
//   a joint  ← drivers, joint springs, motors and initial rates (joint);
//   a driver ← servo motors (servo);
//   handles and deformable parts are named by nothing.
// renameItem follows every reference (forEachReference); removeItem removes what refers to a
// removed item, which may remove more (body → joints → drivers → servo motors). Both keep to the
// one list above. Additions fill the fields the native reader fills (core/io/load.cpp) and leave
// the rest at their defaults, as a file that omits them does.
#include "core/spec_edit.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>

#include "core/tolerances.h"

namespace mechsim {

namespace {

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument(why); }

/// The names of one kind in spec order.
std::vector<std::string> namesOf(const MechanismSpec& spec, SpecKind kind) {
  std::vector<std::string> n;
  auto add = [&](const auto& items) {
    for (const auto& x : items) n.push_back(x.name);
  };
  switch (kind) {
    case SpecKind::Body: add(spec.bodies); break;
    case SpecKind::Joint: add(spec.joints); break;
    case SpecKind::Driver: add(spec.drivers); break;
    case SpecKind::Handle: add(spec.handles); break;
    case SpecKind::Deformable: add(spec.deformables); break;
    case SpecKind::Spring: add(spec.dynamics.springs); break;
    case SpecKind::JointSpring: add(spec.dynamics.jointSprings); break;
    case SpecKind::Motor: add(spec.dynamics.motors); break;
  }
  return n;
}

/// "no body named 'x' (there are: a, b)" unless there is one.
void requireItem(const MechanismSpec& spec, SpecKind kind, const std::string& name) {
  if (hasItem(spec, kind, name)) return;
  const auto n = namesOf(spec, kind);
  std::string list;
  for (std::size_t i = 0; i < n.size() && i < 12; ++i) list += (i ? ", " : "") + n[i];
  if (n.size() > 12) list += ", ...";
  refuse(std::string("no ") + toString(kind) + " named '" + name + "' (there are: " + (list.empty() ? "none" : list) + ")");
}

const BodySpec& bodyOf(const MechanismSpec& spec, const std::string& name) {
  requireItem(spec, SpecKind::Body, name);
  return *std::find_if(spec.bodies.begin(), spec.bodies.end(), [&](const BodySpec& b) { return b.name == name; });
}

void requireFinite(const Vec3& v, const char* what) {
  if (!v.allFinite()) refuse(std::string("the ") + what + " is not finite");
}

/// Calls f on every name field that refers to an item of `kind` (the list in the file comment).
void forEachReference(MechanismSpec& spec, SpecKind kind, const std::function<void(std::string&)>& f) {
  switch (kind) {
    case SpecKind::Body:
      for (JointSpec& j : spec.joints) f(j.body1), f(j.body2);
      for (HandleSpec& h : spec.handles) f(h.body);
      for (SpringSpec& s : spec.dynamics.springs) f(s.body1), f(s.body2);
      for (DeformableSpec& d : spec.deformables)
        for (DeformableAttachmentSpec& a : d.attachments) f(a.body);
      for (auto& [a, b] : spec.contact.exclude) f(a), f(b);
      break;
    case SpecKind::Joint:
      for (DriverSpec& d : spec.drivers) f(d.joint);
      for (JointSpringSpec& s : spec.dynamics.jointSprings) f(s.joint);
      for (MotorSpec& m : spec.dynamics.motors) f(m.joint);
      for (InitialRateSpec& r : spec.dynamics.initialRates) f(r.joint);
      break;
    case SpecKind::Driver:
      for (MotorSpec& m : spec.dynamics.motors) f(m.servo);
      break;
    case SpecKind::Handle:
    case SpecKind::Deformable:
    case SpecKind::Spring:  // springs, joint springs and motors are named by nothing else
    case SpecKind::JointSpring:
    case SpecKind::Motor: break;
  }
}

/// The name field of item `name` of `kind` (it exists).
std::string& nameField(MechanismSpec& spec, SpecKind kind, const std::string& name) {
  auto find = [&](auto& items) -> std::string& {
    for (auto& x : items)
      if (x.name == name) return x.name;
    refuse("internal: no item '" + name + "'");
  };
  switch (kind) {
    case SpecKind::Body: return find(spec.bodies);
    case SpecKind::Joint: return find(spec.joints);
    case SpecKind::Driver: return find(spec.drivers);
    case SpecKind::Handle: return find(spec.handles);
    case SpecKind::Deformable: return find(spec.deformables);
    case SpecKind::Spring: return find(spec.dynamics.springs);
    case SpecKind::JointSpring: return find(spec.dynamics.jointSprings);
    case SpecKind::Motor: return find(spec.dynamics.motors);
  }
  refuse("internal: unknown kind");
}

// ---- removal ----

/// Erases the items for which `gone` holds and returns their indices (ascending).
template <class T, class Pred>
std::vector<int> eraseIf(std::vector<T>& items, Pred gone) {
  std::vector<int> removed;
  std::vector<T> kept;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (gone(items[i])) removed.push_back(static_cast<int>(i));
    else kept.push_back(std::move(items[i]));
  }
  items = std::move(kept);
  return removed;
}

/// Re-keys a map keyed by value path ("joints[3].axis") after the items at `removed` (ascending
/// indices) of the list `list` ("joints", "deformables[0].attachments") were erased: their own
/// keys go, the keys of later items move down.
template <class V>
void reindex(std::map<std::string, V>& byPath, const std::string& list, const std::vector<int>& removed) {
  if (removed.empty()) return;
  const std::string open = list + "[";
  std::map<std::string, V> out;
  for (auto& [path, value] : byPath) {
    // Only "LIST[i]" followed by the end, "." or "[" belongs to the list.
    std::size_t end = open.size();
    const bool prefixed = path.compare(0, open.size(), open) == 0;
    while (prefixed && end < path.size() && std::isdigit(static_cast<unsigned char>(path[end]))) ++end;
    const bool inList = prefixed && end > open.size() && end - open.size() <= 9 && end < path.size() && path[end] == ']' &&
                        (end + 1 == path.size() || path[end + 1] == '.' || path[end + 1] == '[');
    if (!inList) {
      out.emplace(path, std::move(value));
      continue;
    }
    const int i = std::stoi(path.substr(open.size(), end - open.size()));
    if (std::binary_search(removed.begin(), removed.end(), i)) continue;
    const int shift = static_cast<int>(std::lower_bound(removed.begin(), removed.end(), i) - removed.begin());
    out.emplace(open + std::to_string(i - shift) + path.substr(end), std::move(value));
  }
  byPath = std::move(out);
}

void reindexAll(MechanismSpec& spec, const std::string& list, const std::vector<int>& removed) {
  reindex(spec.locations, list, removed);
  reindex(spec.parameterFields, list, removed);
}

/// The world axis least aligned with the unit vector `a`, made perpendicular (the compiler's frame rule).
Vec3 perpendicularTo(const Vec3& a) {
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (std::abs(a(i)) < std::abs(a(k)) - 1e-12) k = i;
  const Vec3 e = Vec3::Unit(k);
  return (e - e.dot(a) * a).normalized();
}

/// A new moving body at `position` with density 1000 kg/m³ and one shape.
std::string pushBody(MechanismSpec& spec, const Vec3& position, ShapeSpec shape) {
  BodySpec b;
  b.name = uniqueName(spec, SpecKind::Body);
  b.position = position;
  b.density = tol::kDefaultDensity;
  b.shapes.push_back(std::move(shape));
  spec.bodies.push_back(std::move(b));
  return spec.bodies.back().name;
}

}  // namespace

bool hasItem(const MechanismSpec& spec, SpecKind kind, const std::string& name) {
  const auto n = namesOf(spec, kind);
  return std::find(n.begin(), n.end(), name) != n.end();
}

const char* toString(SpecKind kind) {
  switch (kind) {
    case SpecKind::Body: return "body";
    case SpecKind::Joint: return "joint";
    case SpecKind::Driver: return "driver";
    case SpecKind::Handle: return "handle";
    case SpecKind::Deformable: return "deformable part";
    case SpecKind::Spring: return "spring";
    case SpecKind::JointSpring: return "joint spring";
    case SpecKind::Motor: return "motor";
  }
  return "?";
}

std::string uniqueName(const MechanismSpec& spec, SpecKind kind, const std::string& base) {
  const std::string b = !base.empty()                      ? base
                        : kind == SpecKind::Deformable     ? std::string("part")
                        : kind == SpecKind::JointSpring    ? std::string("jointSpring")
                                                           : std::string(toString(kind));
  const auto taken = namesOf(spec, kind);
  const std::set<std::string> used(taken.begin(), taken.end());
  // At most taken.size() numbers are in use, so one of the first taken.size() + 1 is free.
  for (std::size_t k = 1;; ++k)
    if (!used.count(b + std::to_string(k))) return b + std::to_string(k);
}

MechanismSpec newMechanismSpec() {
  MechanismSpec spec;
  spec.version = 1;  // the format version the reader accepts and sets ("mechsim": 1)
  spec.name = "untitled";
  spec.units.length = "m";
  spec.units.angle = "deg";
  spec.gravity = Vec3(0, 0, -9.81);
  BodySpec ground;
  ground.name = "ground";
  ground.fixed = true;
  spec.bodies.push_back(std::move(ground));
  return spec;
}

std::string addBody(MechanismSpec& spec, ShapeType primitive, const Vec3& position, double size) {
  requireFinite(position, "position");
  if (!(size > 0) || !std::isfinite(size)) refuse("the size must be a positive length (m)");
  ShapeSpec s;
  s.type = primitive;
  switch (primitive) {
    case ShapeType::Box: s.size = Vec3(size, size / 4, size / 4); break;
    case ShapeType::Cylinder:
    case ShapeType::Capsule:
      s.radius = size / 8;
      s.length = size;
      s.axis = Vec3::UnitX();
      break;
    case ShapeType::Sphere: s.radius = size / 2; break;
    case ShapeType::Mesh: refuse("a mesh body needs its file: use addMeshBody");
    case ShapeType::Plane: {
      // A floor: fixed, no mass, its normal +z (ShapeSpec's default axis).
      const std::string name = pushBody(spec, position, s);
      spec.bodies.back().fixed = true;
      spec.bodies.back().density.reset();
      return name;
    }
  }
  return pushBody(spec, position, s);
}

std::string addMeshBody(MechanismSpec& spec, const std::string& file, const std::string& resolvedFile,
                        std::shared_ptr<const MeshData> mesh, const Vec3& position) {
  requireFinite(position, "position");
  if (file.empty()) refuse("the mesh file name is empty");
  if (!mesh || mesh->indices.size() < 3) refuse("the mesh '" + file + "' has no triangles");
  ShapeSpec s;
  s.type = ShapeType::Mesh;
  s.file = file;
  s.resolvedFile = resolvedFile;
  s.scale = 1.0;
  s.mesh = std::move(mesh);
  return pushBody(spec, position, std::move(s));
}

std::string addJoint(MechanismSpec& spec, JointType type, const std::string& body1, const std::string& body2,
                     const Vec3& point, const Vec3& axis) {
  // Checks first: the bodies, then the geometry.
  const BodySpec& b1 = bodyOf(spec, body1);
  const BodySpec& b2 = bodyOf(spec, body2);
  if (body1 == body2) refuse("a joint must connect two different bodies (body1 and body2 are both '" + body1 + "')");
  if (b1.fixed && b2.fixed) refuse("both bodies ('" + body1 + "', '" + body2 + "') are fixed");
  requireFinite(point, "joint point");
  const bool usesAxis = type != JointType::Spherical && type != JointType::Fixed && type != JointType::Distance;
  if (usesAxis && !(axis.allFinite() && axis.stableNorm() >= tol::kAxisNormMin))
    refuse("the joint axis is zero: give a direction");
  if (type == JointType::Distance && !((b2.position - point).norm() > tol::kLengthEps))
    refuse("a distance joint joins the point on body1 to body2's origin, and they coincide");

  JointSpec j;
  j.name = uniqueName(spec, SpecKind::Joint);
  j.type = type;
  j.body1 = body1;
  j.body2 = body2;
  j.point = point;
  // Every direction the types use, from the one axis (see the header).
  if (axis.allFinite() && axis.stableNorm() >= tol::kAxisNormMin) {
    const Vec3 a = axis.stableNormalized();
    j.axis = j.normal = j.axis1 = a;
    j.axis2 = perpendicularTo(a);
  }
  j.point1 = point;
  j.point2 = b2.position;
  spec.joints.push_back(std::move(j));
  return spec.joints.back().name;
}

void checkDriverTarget(const MechanismSpec& spec, const std::string& joint, int coordinate) {
  requireItem(spec, SpecKind::Joint, joint);
  const JointSpec& j = *std::find_if(spec.joints.begin(), spec.joints.end(), [&](const JointSpec& x) { return x.name == joint; });
  const int n = jointCoordinateCount(j.type);
  if (n == 0) refuse("joint '" + joint + "' is a fixed joint: it has no coordinate to drive");
  if (coordinate < 0 || coordinate >= n)
    refuse("coordinate " + std::to_string(coordinate) + " is out of range: " + toString(j.type) + " joint '" + joint +
           "' has " + std::to_string(n) + (n == 1 ? " coordinate (0)" : " coordinates (0.." + std::to_string(n - 1) + ")"));
}

std::string addDriver(MechanismSpec& spec, const std::string& joint, const std::string& expression, int coordinate) {
  checkDriverTarget(spec, joint, coordinate);
  for (const DriverSpec& d : spec.drivers)
    if (d.joint == joint && d.coordinate == coordinate)
      refuse("coordinate " + std::to_string(coordinate) + " of joint '" + joint + "' is already driven by driver '" + d.name + "'");
  if (expression.find_first_not_of(" \t\n") == std::string::npos) refuse("the driver's expression is empty (an expression of t, e.g. \"360 * t\")");
  DriverSpec d;
  d.name = uniqueName(spec, SpecKind::Driver);
  d.joint = joint;
  d.expression = expression;
  d.coordinate = coordinate;
  spec.drivers.push_back(std::move(d));
  return spec.drivers.back().name;
}

std::string addHandle(MechanismSpec& spec, const std::string& body, const Vec3& point) {
  requireItem(spec, SpecKind::Body, body);
  requireFinite(point, "handle point");
  HandleSpec h;
  h.name = uniqueName(spec, SpecKind::Handle);
  h.body = body;
  h.point = point;
  spec.handles.push_back(std::move(h));
  return spec.handles.back().name;
}

void renameItem(MechanismSpec& spec, SpecKind kind, const std::string& name, const std::string& newName) {
  requireItem(spec, kind, name);
  if (newName.empty()) refuse("a name must not be empty");
  if (newName == name) return;
  if (hasItem(spec, kind, newName)) refuse(std::string("a ") + toString(kind) + " named '" + newName + "' already exists");
  // The checks are done: from here on nothing throws but allocation.
  nameField(spec, kind, name) = newName;
  forEachReference(spec, kind, [&](std::string& ref) {
    if (ref == name) ref = newName;
  });
}

std::vector<RemovedItem> removeItem(MechanismSpec& spec, SpecKind kind, const std::string& name) {
  requireItem(spec, kind, name);
  // Work on a copy and swap it in at the end: the spec is untouched until everything is done.
  MechanismSpec s = spec;
  std::vector<RemovedItem> out;

  // What goes, by name: the item, then what refers to what goes (body → joints → drivers).
  std::set<std::string> bodies, joints, drivers, handles, parts, springs, jointSprings, motors;
  switch (kind) {
    case SpecKind::Body: bodies.insert(name); break;
    case SpecKind::Joint: joints.insert(name); break;
    case SpecKind::Driver: drivers.insert(name); break;
    case SpecKind::Handle: handles.insert(name); break;
    case SpecKind::Deformable: parts.insert(name); break;
    case SpecKind::Spring: springs.insert(name); break;
    case SpecKind::JointSpring: jointSprings.insert(name); break;
    case SpecKind::Motor: motors.insert(name); break;
  }
  for (const JointSpec& j : s.joints)
    if (bodies.count(j.body1) || bodies.count(j.body2)) joints.insert(j.name);
  for (const DriverSpec& d : s.drivers)
    if (joints.count(d.joint)) drivers.insert(d.name);
  for (const HandleSpec& h : s.handles)
    if (bodies.count(h.body)) handles.insert(h.name);

  // Each list in turn, recording names (in list order) and re-keying paths by index.
  auto take = [&](auto& items, const std::string& list, const char* what, auto gone, auto label) {
    std::vector<std::string> names;
    for (const auto& x : items)
      if (gone(x)) names.push_back(label(x));
    const std::vector<int> removed = eraseIf(items, gone);
    reindexAll(s, list, removed);
    for (const std::string& n : names) out.push_back({what, n});
  };
  auto byName = [](const auto& x) { return x.name; };
  auto in = [](const std::set<std::string>& set) { return [&set](const auto& x) { return set.count(x.name) > 0; }; };

  // The named item first, then the rest in spec order.
  auto takeKind = [&](SpecKind k) {
    switch (k) {
      case SpecKind::Body: take(s.bodies, "bodies", "body", in(bodies), byName); break;
      case SpecKind::Joint: take(s.joints, "joints", "joint", in(joints), byName); break;
      case SpecKind::Driver: take(s.drivers, "drivers", "driver", in(drivers), byName); break;
      case SpecKind::Handle: take(s.handles, "handles", "handle", in(handles), byName); break;
      case SpecKind::Deformable: take(s.deformables, "deformables", "deformable part", in(parts), byName); break;
      case SpecKind::Spring:  // the dynamics' items go with the dynamics below
      case SpecKind::JointSpring:
      case SpecKind::Motor: break;
    }
  };
  takeKind(kind);
  for (SpecKind k : {SpecKind::Body, SpecKind::Joint, SpecKind::Driver, SpecKind::Handle, SpecKind::Deformable})
    if (k != kind) takeKind(k);

  // Dynamics: springs on removed bodies; joint springs, motors, initial rates on removed joints;
  // servo motors following removed drivers.
  take(s.dynamics.springs, "dynamics.springs", "spring",
       [&](const SpringSpec& x) { return springs.count(x.name) || bodies.count(x.body1) || bodies.count(x.body2); }, byName);
  take(s.dynamics.jointSprings, "dynamics.jointSprings", "joint spring",
       [&](const JointSpringSpec& x) { return jointSprings.count(x.name) || joints.count(x.joint) > 0; }, byName);
  take(s.dynamics.motors, "dynamics.motors", "motor",
       [&](const MotorSpec& x) {
         return motors.count(x.name) || joints.count(x.joint) || (!x.servo.empty() && drivers.count(x.servo));
       },
       byName);
  take(s.dynamics.initialRates, "dynamics.initialVelocities", "initial rate",
       [&](const InitialRateSpec& x) { return joints.count(x.joint) > 0; }, [](const InitialRateSpec& x) { return x.joint; });

  // Attachments of the parts that stay to removed bodies; contact exclusions naming them.
  for (std::size_t i = 0; i < s.deformables.size(); ++i) {
    const std::string part = s.deformables[i].name;
    take(s.deformables[i].attachments, "deformables[" + std::to_string(i) + "].attachments", "attachment",
         [&](const DeformableAttachmentSpec& a) { return bodies.count(a.body) > 0; },
         [&](const DeformableAttachmentSpec&) { return part; });
  }
  take(s.contact.exclude, "contact.exclude", "contact exclusion",
       [&](const std::pair<std::string, std::string>& p) { return bodies.count(p.first) || bodies.count(p.second); },
       [](const std::pair<std::string, std::string>& p) { return p.first + "/" + p.second; });

  spec = std::move(s);
  return out;
}

std::string describeRemoved(const std::vector<RemovedItem>& removed) {
  // Group by kind in order of first appearance: "body 'b2', joints 'B', 'C'".
  std::vector<std::string> kinds;
  for (const RemovedItem& r : removed)
    if (std::find(kinds.begin(), kinds.end(), r.kind) == kinds.end()) kinds.push_back(r.kind);
  std::string text;
  for (const std::string& k : kinds) {
    std::string names;
    int n = 0;
    for (const RemovedItem& r : removed)
      if (r.kind == k) names += (n++ ? ", '" : "'") + r.name + "'";
    std::string word = k;
    if (n > 1) word = k == "body" ? "bodies" : k == "deformable part" ? "deformable parts" : k + "s";
    text += (text.empty() ? "" : ", ") + word + " " + names;
  }
  return text;
}

}  // namespace mechsim
