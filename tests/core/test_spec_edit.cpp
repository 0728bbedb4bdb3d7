// tests/core/test_spec_edit.cpp — tests core/spec_edit.cpp and the paths core/spec_path.cpp gained
// for a GUI inspector. Paths: every new path read, set and read back (names, fixed, orientations as
// axis-angle, colours, shapes and visuals by index, joint types and bodies, driver joints and
// coordinates, handle bodies, deformable material and solver names — the latter against
// core/deform/solver.h's own list), and every refusal with the spec's written text unchanged.
// Renames follow every reference (joints, handles, springs, joint springs, motors and their servo,
// initial rates, attachments, contact exclusions); the renamed spec written, read back by the
// native reader and compiled. Building: the crank-rocker of mechanisms/fourbar.json built from
// newMechanismSpec() with addBody / addJoint / addDriver / addHandle (the coupler–rocker pin from
// the circle intersection) compiles, has mobility 1 with the file's Grübler and redundant counts,
// survives write → read → write, and its kinematic analysis turns the crank a full turn with the
// rocker on the closed-form position solution (1e-9 rad). The add functions' refusals; removeItem's
// cascades (body → joints → drivers → servo motors, springs, attachments, exclusions), its list of
// what went, and the source locations and "=EXPR" fields of the items that stay re-keyed.
#include <QtTest>

#include <cmath>

#include "core/deform/solver.h"
#include "core/io/load.h"
#include "core/io/write.h"
#include "core/kinematics/kinematics.h"
#include "core/spec_edit.h"
#include "core/spec_path.h"
#include "files.h"
#include "mechanisms.h"

using namespace mechsim;

namespace {

const std::string kMechanisms = std::string(MECHSIM_SOURCE_DIR) + "/mechanisms/";

/// Angles and unit vectors computed two ways agree to round-off.
constexpr double kRoundOff = 1e-12;
/// The closed-form four-bar position against the Newton solution (tests/core/test_kinematics.cpp).
constexpr double kPositionTol = 1e-9;

/// Every kind of reference the spec holds: a body in joints, a handle, a spring, an attachment
/// and a contact exclusion; a joint in a driver, a joint spring, a servo motor and an initial
/// rate; a driver followed by that servo.
const char* kEverything = R"({
  "mechsim": 1,
  "name": "every reference",
  "units": {"length": "m", "angle": "deg"},
  "bodies": [
    {"name": "ground", "fixed": true, "shapes": [{"type": "box", "size": [0.4, 0.1, 0.01], "position": [0, 0, -0.1]}]},
    {"name": "crank", "density": 1000, "shapes": [{"type": "capsule", "radius": 0.01, "length": 0.1, "axis": [1, 0, 0], "position": [0.05, 0, 0]}]},
    {"name": "link", "density": 1000, "shapes": [{"type": "box", "size": [0.2, 0.02, 0.02], "position": [0.2, 0, 0]}]}
  ],
  "joints": [
    {"name": "A", "type": "revolute", "body1": "ground", "body2": "crank", "point": [0, 0, 0], "axis": [0, 0, 1]},
    {"name": "B", "type": "revolute", "body1": "crank", "body2": "link", "point": [0.1, 0, 0], "axis": [0, 0, 1]}
  ],
  "drivers": [{"name": "crank", "joint": "A", "value": "90 * t"}],
  "handles": [{"name": "P", "body": "crank", "point": [0.05, 0, 0]}],
  "dynamics": {
    "springs": [{"name": "s1", "body1": "crank", "point1": [0.1, 0, 0], "body2": "link", "point2": [0.3, 0, 0], "stiffness": 10}],
    "jointSprings": [{"name": "js", "joint": "B", "stiffness": 2}],
    "motors": [{"name": "m1", "joint": "A", "servo": "crank", "kp": 100, "kd": 1}],
    "initialVelocities": [{"joint": "B", "value": 10}]
  },
  "deformables": [
    {"name": "strap", "mesh": {"type": "box", "size": [0.2, 0.02, 0.02], "cells": [4, 1, 1]}, "position": [0.1, -0.01, -0.01],
     "material": {"model": "stable-neo-hookean", "youngs": 1e6, "poisson": 0.4, "density": 1000},
     "attachments": [{"body": "crank", "vertices": {"min": [0.099, -0.011, -0.011], "max": [0.101, 0.011, 0.011]}},
                     {"body": "ground", "vertices": {"min": [0.299, -0.011, -0.011], "max": [0.301, 0.011, 0.011]}}]}
  ],
  "contact": {"exclude": [["crank", "link"], ["ground", "link"]]}
})";

MechanismSpec everything() { return io::parseMechanism(kEverything, "everything.json", "."); }
MechanismSpec fourbarFile() { return io::readMechanismFile(kMechanisms + "fourbar.json"); }

SpecValue numbers(std::vector<double> v) { return SpecValue{std::move(v), std::nullopt, 0}; }
SpecValue text(const std::string& s) { return SpecValue{{}, s, 0}; }

std::vector<double> get(const MechanismSpec& s, const std::string& path) { return getSpecValue(s, path).numbers; }
std::string getText(const MechanismSpec& s, const std::string& path) { return getSpecValue(s, path).text.value_or("(numbers)"); }

bool near(const std::vector<double>& a, const std::vector<double>& b, double tol = kRoundOff) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(std::abs(a[i] - b[i]) <= tol)) return false;
  return true;
}

/// `f` throws std::invalid_argument whose message starts with `prefix` and contains `part`,
/// and the spec's written text is what it was before.
template <class F>
void expectRefused(MechanismSpec& spec, F&& f, const std::string& prefix, const std::string& part) {
  const std::string before = io::writeMechanism(spec);
  std::string message;
  try {
    f();
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  QVERIFY2(!message.empty(), qPrintable(QString::fromStdString("no refusal (" + prefix + part + ")")));
  QVERIFY2(message.rfind(prefix, 0) == 0, message.c_str());
  QVERIFY2(message.find(part) != std::string::npos, message.c_str());
  QVERIFY2(io::writeMechanism(spec) == before, message.c_str());
}

/// setSpecValue(path, v) is refused with "spec path 'PATH': ...part...", the spec unchanged.
void expectSetRefused(MechanismSpec& spec, const std::string& path, const SpecValue& v, const std::string& part) {
  expectRefused(spec, [&] { setSpecValue(spec, path, v); }, "spec path '" + path + "': ", part);
}

template <class T>
const T& named(const std::vector<T>& items, const std::string& name) {
  for (const T& x : items)
    if (x.name == name) return x;
  throw std::runtime_error("test: no item " + name);
}

/// The planar crank angle of a body from its orientation about +z.
double angleAboutZ(const Quat& q) { return 2 * std::atan2(q.z(), q.w()); }

/// A closed tetrahedron (outward winding), edges `e` along the axes.
std::shared_ptr<const MeshData> tetrahedron(float e) {
  auto m = std::make_shared<MeshData>();
  m->vertices = {{0, 0, 0}, {e, 0, 0}, {0, e, 0}, {0, 0, e}};
  m->indices = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
  return m;
}

}  // namespace

class TestSpecEdit : public QObject {
  Q_OBJECT
 private slots:
  // ---- paths (core/spec_path.cpp) ----

  void bodyPaths() {
    MechanismSpec s = fourbarFile();
    // fixed: 0 / 1 both ways.
    QCOMPARE(get(s, "bodies.crank.fixed"), std::vector<double>{0.0});
    QCOMPARE(get(s, "bodies.ground.fixed"), std::vector<double>{1.0});
    setSpecValue(s, "bodies.crank.fixed", numbers({1}));
    QVERIFY(named(s.bodies, "crank").fixed);
    setSpecValue(s, "bodies.crank.fixed[0]", numbers({0}));
    QVERIFY(!named(s.bodies, "crank").fixed);
    // orientation: the file's 60° about z as axis-angle; identity as axis z, angle 0.
    QCOMPARE(getSpecValue(s, "bodies.crank.orientation").count, 4);
    QVERIFY(near(get(s, "bodies.crank.orientation"), {0, 0, 1, M_PI / 3}));
    QVERIFY(near(get(s, "bodies.ground.orientation"), {0, 0, 1, 0}));
    // Set: the axis normalised; read back the same rotation; an angle in (π, 2π) or negative
    // reads as the same rotation about the opposite axis, in [0, π].
    setSpecValue(s, "bodies.crank.orientation", numbers({0, 0, 2, 0.5}));
    QVERIFY(near(get(s, "bodies.crank.orientation"), {0, 0, 1, 0.5}));
    QVERIFY(std::abs(angleAboutZ(named(s.bodies, "crank").orientation) - 0.5) < kRoundOff);
    setSpecValue(s, "bodies.crank.orientation", numbers({1, 1, 0, -0.3}));
    QVERIFY(near(get(s, "bodies.crank.orientation"), {-M_SQRT1_2, -M_SQRT1_2, 0, 0.3}));
    setSpecValue(s, "bodies.crank.orientation", numbers({0, 1, 0, 1.5 * M_PI}));
    QVERIFY(near(get(s, "bodies.crank.orientation"), {0, -1, 0, 0.5 * M_PI}));
    // One entry: the angle alone, the axis kept.
    setSpecValue(s, "bodies.crank.orientation", numbers({0, 0, 1, 0.2}));
    setSpecValue(s, "bodies.crank.orientation[3]", numbers({1.25}));
    QVERIFY(near(get(s, "bodies.crank.orientation"), {0, 0, 1, 1.25}));
    QVERIFY(near(get(s, "bodies.crank.orientation[3]"), {1.25}));
    // color: "#rrggbb" or empty.
    QCOMPARE(getText(s, "bodies.crank.color"), std::string("#c04020"));
    setSpecValue(s, "bodies.crank.color", text("#00FF7a"));
    QCOMPARE(named(s.bodies, "crank").color, std::string("#00FF7a"));
    setSpecValue(s, "bodies.crank.color", text(""));
    QVERIFY(named(s.bodies, "crank").color.empty());
    // Written and read back: the values stay.
    setSpecValue(s, "bodies.coupler.fixed", numbers({1}));
    const MechanismSpec again = io::parseMechanism(io::writeMechanism(s), "again.json", kMechanisms);
    QVERIFY(named(again.bodies, "coupler").fixed);
    QVERIFY(near(get(again, "bodies.crank.orientation"), {0, 0, 1, 1.25}));
  }

  void dynamicsItems() {
    // The dynamics section's springs, joint springs and motors are named items too: unique names,
    // renamed by path, removed alone (nothing refers to them).
    MechanismSpec s = io::readMechanismFile(kMechanisms + "dynamics/a03-andrews-squeezer.json");
    QCOMPARE(uniqueName(s, SpecKind::Spring), std::string("spring1"));
    QCOMPARE(uniqueName(s, SpecKind::JointSpring), std::string("jointSpring1"));
    QCOMPARE(uniqueName(s, SpecKind::Motor), std::string("motor1"));
    QCOMPARE(getText(s, "dynamics.springs.c0.name"), std::string("c0"));
    setSpecValue(s, "dynamics.springs.c0.name", text("c1"));
    QCOMPARE(s.dynamics.springs[0].name, std::string("c1"));
    expectSetRefused(s, "dynamics.motors.mom.name", text(""), "");
    const auto removed = removeItem(s, SpecKind::Motor, "mom");
    QCOMPARE(describeRemoved(removed), std::string("motor 'mom'"));
    QVERIFY(s.dynamics.motors.empty());
    QCOMPARE(s.dynamics.springs.size(), std::size_t(1));
    QCOMPARE(s.joints.size(), std::size_t(10));
    QCOMPARE(describeRemoved(removeItem(s, SpecKind::Spring, "c1")), std::string("spring 'c1'"));
    QVERIFY(s.dynamics.springs.empty());
  }

  void optionalValuesUnset() {
    // No numbers at an optional value: unset, the file's default again (mass from the shapes, no
    // limits, inertia from the shapes); a fixed-size value refuses no numbers.
    MechanismSpec s = fourbarFile();
    setSpecValue(s, "bodies.crank.mass", numbers({2.5}));
    QVERIFY(named(s.bodies, "crank").mass && *named(s.bodies, "crank").mass == 2.5);
    setSpecValue(s, "bodies.crank.mass", SpecValue{});
    QVERIFY(!named(s.bodies, "crank").mass);
    QVERIFY(get(s, "bodies.crank.mass").empty());
    setSpecValue(s, "joints.A.limits", numbers({-1, 1}));
    QVERIFY(named(s.joints, "A").limits);
    setSpecValue(s, "joints.A.limits", SpecValue{});
    QVERIFY(!named(s.joints, "A").limits);
    setSpecValue(s, "bodies.crank.inertia", numbers({1, 1, 1, 0, 0, 0}));
    setSpecValue(s, "bodies.crank.inertia", SpecValue{});
    QVERIFY(!named(s.bodies, "crank").inertia);
    expectSetRefused(s, "joints.A.point", SpecValue{}, "expected 3 numbers");
  }

  void shapePaths() {
    MechanismSpec s = fourbarFile();
    // The ground's third shape is a box; the crank's only one a capsule.
    QCOMPARE(getText(s, "bodies.ground.shapes.2.type"), std::string("box"));
    QVERIFY(near(get(s, "bodies.ground.shapes.2.size"), {0.46, 0.03, 0.02}));
    QVERIFY(near(get(s, "bodies.ground.shapes.2.position"), {0.2, 0, -0.03}));
    QCOMPARE(getText(s, "bodies.ground.shapes.2.color"), std::string("#808080"));
    QVERIFY(near(get(s, "bodies.crank.shapes.0.radius"), {0.012}));
    QVERIFY(near(get(s, "bodies.crank.shapes.0.length"), {0.1}));
    QVERIFY(near(get(s, "bodies.crank.shapes.0.axis"), {1, 0, 0}));
    QVERIFY(near(get(s, "bodies.crank.shapes.0.orientation"), {0, 0, 1, 0}));
    QVERIFY(near(get(s, "bodies.crank.shapes.0.scale"), {1}));
    QCOMPARE(getText(s, "bodies.crank.shapes.0.file"), std::string(""));
    QVERIFY(get(s, "bodies.crank.shapes.0.friction").empty());  // not given
    QCOMPARE(getSpecValue(s, "bodies.crank.shapes.0.friction").count, 1);
    // Set each field and read it back.
    setSpecValue(s, "bodies.ground.shapes.2.size", numbers({0.5, 0.04, 0.03}));
    setSpecValue(s, "bodies.ground.shapes.2.size[1]", numbers({0.05}));
    QVERIFY(near(get(s, "bodies.ground.shapes.2.size"), {0.5, 0.05, 0.03}));
    setSpecValue(s, "bodies.crank.shapes.0.radius", numbers({0.02}));
    setSpecValue(s, "bodies.crank.shapes.0.length", numbers({0.12}));
    setSpecValue(s, "bodies.crank.shapes.0.axis", numbers({0, 1, 0}));
    setSpecValue(s, "bodies.crank.shapes.0.position", numbers({0.06, 0, 0.01}));
    setSpecValue(s, "bodies.crank.shapes.0.orientation", numbers({1, 0, 0, 0.25}));
    setSpecValue(s, "bodies.crank.shapes.0.color", text("#123456"));
    setSpecValue(s, "bodies.crank.shapes.0.friction", numbers({0.4}));
    setSpecValue(s, "bodies.crank.shapes.0.scale", numbers({2}));
    const ShapeSpec& c = named(s.bodies, "crank").shapes[0];
    QCOMPARE(c.radius, 0.02);
    QCOMPARE(c.length, 0.12);
    QVERIFY(near({c.axis.x(), c.axis.y(), c.axis.z()}, {0, 1, 0}));
    QVERIFY(near(get(s, "bodies.crank.shapes.0.position"), {0.06, 0, 0.01}));
    QVERIFY(near(get(s, "bodies.crank.shapes.0.orientation"), {1, 0, 0, 0.25}));
    QCOMPARE(c.color, std::string("#123456"));
    QVERIFY(near(get(s, "bodies.crank.shapes.0.friction"), {0.4}));
    QCOMPARE(c.scale, 2.0);
    // type: the enumeration by its file name.
    setSpecValue(s, "bodies.crank.shapes.0.type", text("sphere"));
    QVERIFY(c.type == ShapeType::Sphere);
    QCOMPARE(getText(s, "bodies.crank.shapes.0.type"), std::string("sphere"));
    for (const char* t : {"box", "cylinder", "sphere", "capsule", "mesh", "plane"}) {
      setSpecValue(s, "bodies.crank.shapes.0.type", text(t));
      QCOMPARE(getText(s, "bodies.crank.shapes.0.type"), std::string(t));
    }
    setSpecValue(s, "bodies.crank.shapes.0.type", text("capsule"));
    // Visuals by the same fields.
    for (BodySpec& b : s.bodies)
      if (b.name == "coupler") b.visuals.push_back(b.shapes[3]);  // the sphere
    QCOMPARE(getText(s, "bodies.coupler.visuals.0.type"), std::string("sphere"));
    setSpecValue(s, "bodies.coupler.visuals.0.radius", numbers({0.03}));
    QCOMPARE(named(s.bodies, "coupler").visuals[0].radius, 0.03);
    QCOMPARE(named(s.bodies, "coupler").shapes[3].radius, 0.015);
    // Every path specPaths lists reads; the shapes' fields are those of their type.
    const auto paths = specPaths(s);
    for (const std::string& p : paths) getSpecValue(s, p);
    auto listed = [&](const std::string& p) { return std::find(paths.begin(), paths.end(), p) != paths.end(); };
    QVERIFY(listed("bodies.ground.shapes.2.size") && !listed("bodies.ground.shapes.2.radius"));
    QVERIFY(listed("bodies.crank.shapes.0.axis") && listed("bodies.coupler.visuals.0.radius"));
    QVERIFY(listed("bodies.crank.name") && listed("bodies.crank.orientation") && listed("joints.B.type"));
    QVERIFY(listed("drivers.crank.coordinate") && listed("handles.P.body"));
    // Written and read back.
    const MechanismSpec again = io::parseMechanism(io::writeMechanism(s), "again.json", kMechanisms);
    QVERIFY(near(get(again, "bodies.crank.shapes.0.orientation"), {1, 0, 0, 0.25}));
    QVERIFY(near(get(again, "bodies.coupler.visuals.0.radius"), {0.03}));
    QVERIFY(near(get(again, "bodies.crank.shapes.0.friction"), {0.4}));
  }

  void meshFilePath() {
    // A new file drops the loaded mesh and its resolved path; the same file keeps them.
    MechanismSpec s = newMechanismSpec();
    const std::string b = addMeshBody(s, "tet.obj", "/abs/tet.obj", tetrahedron(0.1f), Vec3(1, 0, 0));
    const std::string path = "bodies." + b + ".shapes.0.file";
    QCOMPARE(getText(s, path), std::string("tet.obj"));
    setSpecValue(s, path, text("tet.obj"));
    QVERIFY(s.bodies[1].shapes[0].mesh && s.bodies[1].shapes[0].resolvedFile == "/abs/tet.obj");
    setSpecValue(s, path, text("other.stl"));
    QCOMPARE(s.bodies[1].shapes[0].file, std::string("other.stl"));
    QVERIFY(!s.bodies[1].shapes[0].mesh && s.bodies[1].shapes[0].resolvedFile.empty());
    expectSetRefused(s, path, text(""), "the mesh file name is empty");
  }

  void jointDriverHandlePaths() {
    MechanismSpec s = fourbarFile();
    QCOMPARE(getText(s, "joints.B.type"), std::string("revolute"));
    QCOMPARE(getText(s, "joints.B.body1"), std::string("crank"));
    QCOMPARE(getText(s, "joints.B.body2"), std::string("coupler"));
    // Every type by the native reader's name (jointTypeFromString, core/io/load.cpp).
    for (const char* t : {"revolute", "prismatic", "cylindrical", "spherical", "universal", "planar", "fixed", "distance"}) {
      setSpecValue(s, "joints.B.type", text(t));
      QCOMPARE(getText(s, "joints.B.type"), std::string(t));
      QVERIFY(named(s.joints, "B").type == *jointTypeFromString(t));
    }
    // Limits go with a type that has no single coordinate.
    setSpecValue(s, "joints.B.type", text("revolute"));
    setSpecValue(s, "joints.B.limits", numbers({-1, 1}));
    setSpecValue(s, "joints.B.type", text("prismatic"));
    QVERIFY(named(s.joints, "B").limits.has_value());
    setSpecValue(s, "joints.B.type", text("spherical"));
    QVERIFY(!named(s.joints, "B").limits.has_value());
    setSpecValue(s, "joints.B.type", text("revolute"));
    setSpecValue(s, "joints.B.body1", text("ground"));
    QCOMPARE(named(s.joints, "B").body1, std::string("ground"));
    setSpecValue(s, "joints.B.body2", text("rocker"));
    QCOMPARE(getText(s, "joints.B.body2"), std::string("rocker"));
    // Drivers: joint and coordinate.
    QCOMPARE(getText(s, "drivers.crank.joint"), std::string("A"));
    QCOMPARE(get(s, "drivers.crank.coordinate"), std::vector<double>{0.0});
    QCOMPARE(getSpecValue(s, "drivers.crank.coordinate").count, 1);
    setSpecValue(s, "drivers.crank.joint", text("D"));
    QCOMPARE(named(s.drivers, "crank").joint, std::string("D"));
    setSpecValue(s, "joints.D.type", text("spherical"));
    setSpecValue(s, "drivers.crank.coordinate", numbers({2}));
    QCOMPARE(named(s.drivers, "crank").coordinate, 2);
    QCOMPARE(get(s, "drivers.crank.coordinate[0]"), std::vector<double>{2.0});
    // Handles: the body.
    QCOMPARE(getText(s, "handles.P.body"), std::string("coupler"));
    setSpecValue(s, "handles.P.body", text("rocker"));
    QCOMPARE(named(s.handles, "P").body, std::string("rocker"));
  }

  void deformablePaths() {
    MechanismSpec s = everything();
    QCOMPARE(getText(s, "deformables.strap.material"), std::string("stable-neo-hookean"));
    setSpecValue(s, "deformables.strap.material", text("arap"));
    QCOMPARE(s.deformables[0].material, std::string("arap"));
    // Solver and step control: core/deform/solver.h's names, or empty (not given).
    QCOMPARE(getText(s, "deformables.strap.solver"), std::string(""));
    for (deform::Method m : {deform::Method::Newton, deform::Method::Jacobi, deform::Method::Vbd, deform::Method::Jgs2Jacobi,
                             deform::Method::Jgs2GaussSeidel}) {
      setSpecValue(s, "deformables.strap.solver", text(deform::toString(m)));
      QCOMPARE(getText(s, "deformables.strap.solver"), std::string(deform::toString(m)));
    }
    for (deform::Acceleration a : {deform::Acceleration::None, deform::Acceleration::LineSearch, deform::Acceleration::Subspace}) {
      setSpecValue(s, "deformables.strap.stepControl", text(deform::toString(a)));
      QCOMPARE(s.deformables[0].stepControl, std::string(deform::toString(a)));
    }
    setSpecValue(s, "deformables.strap.solver", text(""));
    QVERIFY(s.deformables[0].solver.empty());
    expectSetRefused(s, "deformables.strap.material", text("rubber"), "unknown value 'rubber'");
    expectSetRefused(s, "deformables.strap.solver", text("cg"), "unknown value 'cg'");
    expectSetRefused(s, "deformables.strap.stepControl", text("fast"), "unknown value 'fast'");
    // The names the path takes are exactly those the deformable solver knows.
    for (const char* n : {"cg", "newton ", "Newton", "jgs2"}) QVERIFY(!deform::methodFromString(n));
  }

  void pathRefusals() {
    MechanismSpec s = fourbarFile();
    addHandle(s, "crank", Vec3(0.02, 0, 0));  // "handle1", so that a handle can be renamed onto it
    addDriver(s, "D", "0");                   // "driver1"
    // Names: empty, taken.
    expectSetRefused(s, "bodies.crank.name", text(""), "a name must not be empty");
    expectSetRefused(s, "bodies.crank.name", text("coupler"), "a body named 'coupler' already exists");
    expectSetRefused(s, "joints.A.name", text("B"), "a joint named 'B' already exists");
    expectSetRefused(s, "drivers.crank.name", text("driver1"), "a driver named 'driver1' already exists");
    expectSetRefused(s, "handles.P.name", text("handle1"), "a handle named 'handle1' already exists");
    expectSetRefused(s, "handles.P.name", text(""), "a name must not be empty");
    expectSetRefused(s, "bodies.crank.name", numbers({1}), "expected a text");
    expectSetRefused(s, "bodies.crank.name[0]", text("x"), "a text has no entries");
    // Flags and whole numbers.
    expectSetRefused(s, "bodies.crank.fixed", numbers({0.5}), "expected 0 or 1");
    expectSetRefused(s, "bodies.crank.fixed", numbers({2}), "expected 0 or 1");
    expectSetRefused(s, "bodies.crank.fixed", text("yes"), "expected a number, got a text");
    expectSetRefused(s, "drivers.crank.coordinate", numbers({1.5}), "expected a non-negative whole number");
    expectSetRefused(s, "drivers.crank.coordinate", numbers({-1}), "expected a non-negative whole number");
    expectSetRefused(s, "drivers.crank.coordinate", numbers({1}), "coordinate 1 is out of range: revolute joint 'A' has 1 coordinate (0)");
    // Orientations: a zero axis, a wrong count, a non-finite angle.
    expectSetRefused(s, "bodies.crank.orientation", numbers({0, 0, 0, 1}), "the rotation axis is zero");
    expectSetRefused(s, "bodies.crank.orientation", numbers({0, 0, 1}), "expected 4 numbers, got 3");
    expectSetRefused(s, "bodies.crank.orientation[4]", numbers({1}), "index out of range (4 entries)");
    expectSetRefused(s, "bodies.crank.orientation", numbers({0, 0, 1, NAN}), "not finite");
    expectSetRefused(s, "bodies.crank.shapes.0.orientation", numbers({0, 0, 0, 1}), "the rotation axis is zero");
    // Colours.
    expectSetRefused(s, "bodies.crank.color", text("red"), "expected a colour \"#rrggbb\"");
    expectSetRefused(s, "bodies.crank.color", text("#12345g"), "expected a colour");
    expectSetRefused(s, "bodies.crank.shapes.0.color", text("#1234567"), "expected a colour");
    // Shapes: an index out of range says how many there are; an unknown field or type.
    expectSetRefused(s, "bodies.crank.shapes.1.radius", numbers({1}), "no shapes entry 1: body 'crank' has 1 (0..0)");
    expectSetRefused(s, "bodies.ground.shapes.7.size", numbers({1, 1, 1}), "body 'ground' has 3 (0..2)");
    expectSetRefused(s, "bodies.crank.visuals.0.radius", numbers({1}), "no visuals entry 0: body 'crank' has none");
    expectSetRefused(s, "bodies.crank.shapes.0.colour", text("#000000"), "no field 'colour'");
    expectSetRefused(s, "bodies.crank.shapes.0.type", text("cube"), "unknown value 'cube'");
    expectSetRefused(s, "bodies.crnk.shapes.0.radius", numbers({1}), "no body named 'crnk'");
    // Joints: an unknown type or body (the error lists the bodies).
    expectSetRefused(s, "joints.A.type", text("hinge"), "unknown value 'hinge'");
    expectSetRefused(s, "joints.A.body1", text("nobody"), "no body named 'nobody' (there are: ground, crank, coupler, rocker)");
    expectSetRefused(s, "joints.A.body2", text(""), "no body named ''");
    // Drivers: an unknown joint, a fixed joint.
    expectSetRefused(s, "drivers.crank.joint", text("Z"), "no joint named 'Z' (there are: A, B, C, D)");
    const std::string weld = addJoint(s, JointType::Fixed, "rocker", addBody(s, ShapeType::Sphere, Vec3(1, 1, 0), 0.1),
                                      Vec3(1, 1, 0), Vec3::UnitZ());
    expectSetRefused(s, "drivers.crank.joint", text(weld), "is a fixed joint: it has no coordinate to drive");
    // Handles: an unknown body.
    expectSetRefused(s, "handles.P.body", text("nobody"), "no body named 'nobody'");
    // Texts where numbers go and the reverse.
    expectSetRefused(s, "bodies.crank.shapes.0.radius", text("big"), "expected a number, got a text");
    expectSetRefused(s, "bodies.crank.color", numbers({1}), "expected a text");
  }

  void renameFollowsReferences() {
    MechanismSpec s = everything();
    setSpecValue(s, "bodies.crank.name", text("arm"));
    setSpecValue(s, "joints.A.name", text("hinge"));
    setSpecValue(s, "drivers.crank.name", text("spin"));
    setSpecValue(s, "handles.P.name", text("tip"));
    setSpecValue(s, "deformables.strap.name", text("band"));
    setSpecValue(s, "bodies.link.name", text("link"));  // its own name: no change
    QCOMPARE(getText(s, "bodies.arm.name"), std::string("arm"));
    // Every reference to the body.
    QCOMPARE(s.joints[0].body2, std::string("arm"));
    QCOMPARE(s.joints[1].body1, std::string("arm"));
    QCOMPARE(s.handles[0].body, std::string("arm"));
    QCOMPARE(s.handles[0].name, std::string("tip"));
    QCOMPARE(s.dynamics.springs[0].body1, std::string("arm"));
    QCOMPARE(s.deformables[0].attachments[0].body, std::string("arm"));
    QCOMPARE(s.deformables[0].attachments[1].body, std::string("ground"));
    QCOMPARE(s.contact.exclude[0].first, std::string("arm"));
    QCOMPARE(s.contact.exclude[1].first, std::string("ground"));
    // ... to the joint, to the driver.
    QCOMPARE(s.drivers[0].joint, std::string("hinge"));
    QCOMPARE(s.dynamics.motors[0].joint, std::string("hinge"));
    QCOMPARE(s.dynamics.motors[0].servo, std::string("spin"));
    QCOMPARE(s.dynamics.jointSprings[0].joint, std::string("B"));
    QCOMPARE(s.dynamics.initialRates[0].joint, std::string("B"));
    setSpecValue(s, "joints.B.name", text("knee"));
    QCOMPARE(s.dynamics.jointSprings[0].joint, std::string("knee"));
    QCOMPARE(s.dynamics.initialRates[0].joint, std::string("knee"));
    // The old names are nowhere in the written file; it reads back (every reference resolves,
    // the reader checks them), writes the same text again and compiles.
    const std::string written = io::writeMechanism(s);
    for (const char* old : {"\"crank\"", "\"A\"", "\"B\"", "\"P\"", "\"strap\""})
      QVERIFY2(written.find(old) == std::string::npos, old);
    const MechanismSpec again = io::parseMechanism(written, "renamed.json", ".");
    QCOMPARE(io::writeMechanism(again), written);
    const Model m = io::compileSpec(again);
    QVERIFY(m.findBody("arm") >= 0 && m.findJoint("hinge") >= 0 && m.findJoint("knee") >= 0);
    QCOMPARE(static_cast<int>(m.motors.size()), 1);
    // renameItem directly: the same rules.
    expectRefused(s, [&] { renameItem(s, SpecKind::Body, "arm", "link"); }, "a body named 'link' already exists", "");
    expectRefused(s, [&] { renameItem(s, SpecKind::Joint, "nothing", "x"); }, "no joint named 'nothing'", "(there are: hinge, knee)");
  }

  // ---- building (core/spec_edit.cpp) ----

  void newSpecAndNames() {
    MechanismSpec s = newMechanismSpec();
    QCOMPARE(s.version, 1);
    QCOMPARE(s.name, std::string("untitled"));
    QCOMPARE(s.units.length, std::string("m"));
    QCOMPARE(s.units.angle, std::string("deg"));
    QVERIFY(near({s.gravity.x(), s.gravity.y(), s.gravity.z()}, {0, 0, -9.81}));
    QCOMPARE(static_cast<int>(s.bodies.size()), 1);
    QVERIFY(s.bodies[0].name == "ground" && s.bodies[0].fixed && s.bodies[0].shapes.empty());
    // It is a valid file: written, read back to the same text, compiled.
    const std::string written = io::writeMechanism(s);
    QCOMPARE(io::writeMechanism(io::parseMechanism(written, "new.json", ".")), written);
    QCOMPARE(io::compileSpec(s).nq, 0);
    // Names: the smallest free number after the base.
    QCOMPARE(uniqueName(s, SpecKind::Body), std::string("body1"));
    QCOMPARE(uniqueName(s, SpecKind::Joint), std::string("joint1"));
    QCOMPARE(uniqueName(s, SpecKind::Driver), std::string("driver1"));
    QCOMPARE(uniqueName(s, SpecKind::Handle), std::string("handle1"));
    QCOMPARE(uniqueName(s, SpecKind::Deformable), std::string("part1"));
    QCOMPARE(uniqueName(s, SpecKind::Body, "link"), std::string("link1"));
    QCOMPARE(addBody(s, ShapeType::Box, Vec3::Zero(), 0.1), std::string("body1"));
    QCOMPARE(addBody(s, ShapeType::Box, Vec3::Zero(), 0.1), std::string("body2"));
    QCOMPARE(uniqueName(s, SpecKind::Body), std::string("body3"));
    renameItem(s, SpecKind::Body, "body1", "crank");
    QCOMPARE(uniqueName(s, SpecKind::Body), std::string("body1"));
  }

  void addedItems() {
    MechanismSpec s = newMechanismSpec();
    // Each primitive sized from the characteristic length, density 1000, mass from the shape.
    const std::string box = addBody(s, ShapeType::Box, Vec3(1, 2, 3), 0.4);
    const std::string cyl = addBody(s, ShapeType::Cylinder, Vec3::Zero(), 0.4);
    const std::string cap = addBody(s, ShapeType::Capsule, Vec3::Zero(), 0.4);
    const std::string sph = addBody(s, ShapeType::Sphere, Vec3::Zero(), 0.4);
    const std::string floor = addBody(s, ShapeType::Plane, Vec3(0, 0, -1), 1);
    const std::string mesh = addMeshBody(s, "tet.obj", "/abs/tet.obj", tetrahedron(0.1f), Vec3::Zero());
    const BodySpec& b = named(s.bodies, box);
    QVERIFY(!b.fixed && b.density && *b.density == 1000 && !b.mass && !b.comGiven);
    QVERIFY(near({b.position.x(), b.position.y(), b.position.z()}, {1, 2, 3}));
    QVERIFY(b.shapes.size() == 1 && b.shapes[0].type == ShapeType::Box);
    QVERIFY(near({b.shapes[0].size.x(), b.shapes[0].size.y(), b.shapes[0].size.z()}, {0.4, 0.1, 0.1}));
    for (const std::string& n : {cyl, cap}) {
      const ShapeSpec& c = named(s.bodies, n).shapes[0];
      QVERIFY(c.radius == 0.05 && c.length == 0.4 && c.axis == Vec3::UnitX());
    }
    QCOMPARE(named(s.bodies, sph).shapes[0].radius, 0.2);
    QVERIFY(named(s.bodies, floor).fixed && named(s.bodies, floor).shapes[0].type == ShapeType::Plane);
    // Compiled: the masses the shapes give at 1000 kg/m³.
    const Model m = compile(s);
    QVERIFY(std::abs(m.bodies[m.findBody(box)].mass - 1000 * 0.4 * 0.1 * 0.1) < 1e-9);
    QVERIFY(std::abs(m.bodies[m.findBody(sph)].mass - 1000 * 4.0 / 3 * M_PI * 0.008) < 1e-9);
    QVERIFY(std::abs(m.bodies[m.findBody(cyl)].mass - 1000 * M_PI * 0.05 * 0.05 * 0.4) < 1e-9);
    QVERIFY(std::abs(m.bodies[m.findBody(mesh)].mass / (1000 * 1e-3 / 6) - 1) < 1e-6);
    // Joints: the axis normalised into every direction the types use; a distance joint to
    // body2's origin.
    const std::string u = addJoint(s, JointType::Universal, "ground", box, Vec3(1, 2, 3), Vec3(0, 0, 3));
    const JointSpec& ju = named(s.joints, u);
    QVERIFY(ju.axis1 == Vec3::UnitZ() && ju.axis == Vec3::UnitZ() && ju.normal == Vec3::UnitZ());
    QVERIFY(std::abs(ju.axis1.dot(ju.axis2)) < kRoundOff && std::abs(ju.axis2.norm() - 1) < kRoundOff);
    const std::string dist = addJoint(s, JointType::Distance, "ground", cyl, Vec3(0, 0, 1), Vec3::Zero());
    QVERIFY(named(s.joints, dist).point1 == Vec3(0, 0, 1) && named(s.joints, dist).point2 == Vec3::Zero());
    addJoint(s, JointType::Spherical, "ground", cap, Vec3::Zero(), Vec3::Zero());  // no axis needed
    // A distance joint's coordinate can be driven (its extension; the compiler allows it).
    QCOMPARE(addDriver(s, dist, "0.1 * t"), std::string("driver1"));
    QCOMPARE(named(s.drivers, "driver1").joint, dist);
    const std::string h = addHandle(s, box, Vec3(1, 2, 3.1));
    QCOMPARE(named(s.handles, h).body, box);
    io::compileSpec(s);
  }

  void addRefusals() {
    MechanismSpec s = newMechanismSpec();
    const std::string a = addBody(s, ShapeType::Box, Vec3::Zero(), 0.1);
    const std::string b = addBody(s, ShapeType::Box, Vec3(1, 0, 0), 0.1);
    const std::string j = addJoint(s, JointType::Revolute, "ground", a, Vec3::Zero(), Vec3::UnitZ());
    addDriver(s, j, "10 * t");
    expectRefused(s, [&] { addBody(s, ShapeType::Box, Vec3::Zero(), 0); }, "the size must be a positive length", "");
    expectRefused(s, [&] { addBody(s, ShapeType::Sphere, Vec3::Zero(), NAN); }, "the size must be a positive length", "");
    expectRefused(s, [&] { addBody(s, ShapeType::Box, Vec3(INFINITY, 0, 0), 1); }, "the position is not finite", "");
    expectRefused(s, [&] { addBody(s, ShapeType::Mesh, Vec3::Zero(), 1); }, "a mesh body needs its file", "");
    expectRefused(s, [&] { addMeshBody(s, "x.obj", "/x.obj", nullptr, Vec3::Zero()); }, "the mesh 'x.obj' has no triangles", "");
    expectRefused(s, [&] { addMeshBody(s, "", "", tetrahedron(1), Vec3::Zero()); }, "the mesh file name is empty", "");
    expectRefused(s, [&] { addJoint(s, JointType::Revolute, "ground", "nobody", Vec3::Zero(), Vec3::UnitZ()); },
                  "no body named 'nobody' (there are: ground, body1, body2)", "");
    expectRefused(s, [&] { addJoint(s, JointType::Revolute, a, a, Vec3::Zero(), Vec3::UnitZ()); },
                  "a joint must connect two different bodies", "");
    const std::string wall = addBody(s, ShapeType::Plane, Vec3::Zero(), 1);
    expectRefused(s, [&] { addJoint(s, JointType::Fixed, "ground", wall, Vec3::Zero(), Vec3::UnitZ()); }, "both bodies", "are fixed");
    expectRefused(s, [&] { addJoint(s, JointType::Prismatic, a, b, Vec3::Zero(), Vec3::Zero()); }, "the joint axis is zero", "");
    expectRefused(s, [&] { addJoint(s, JointType::Revolute, a, b, Vec3(NAN, 0, 0), Vec3::UnitZ()); }, "the joint point is not finite", "");
    expectRefused(s, [&] { addJoint(s, JointType::Distance, a, b, Vec3(1, 0, 0), Vec3::Zero()); }, "a distance joint", "coincide");
    expectRefused(s, [&] { addDriver(s, "nothing", "t"); }, "no joint named 'nothing'", "");
    expectRefused(s, [&] { addDriver(s, j, "t"); }, "coordinate 0 of joint 'joint1' is already driven by driver 'driver1'", "");
    expectRefused(s, [&] { addDriver(s, j, "t", 1); }, "coordinate 1 is out of range: revolute joint 'joint1' has 1 coordinate", "");
    const std::string weld = addJoint(s, JointType::Fixed, a, b, Vec3::Zero(), Vec3::Zero());
    expectRefused(s, [&] { addDriver(s, weld, "t"); }, "joint 'joint2' is a fixed joint", "");
    const std::string ball = addJoint(s, JointType::Spherical, "ground", b, Vec3(1, 0, 0), Vec3::Zero());
    expectRefused(s, [&] { addDriver(s, ball, " "); }, "the driver's expression is empty", "");
    QCOMPARE(addDriver(s, ball, "t", 2), std::string("driver2"));
    expectRefused(s, [&] { addHandle(s, "nobody", Vec3::Zero()); }, "no body named 'nobody'", "");
    expectRefused(s, [&] { addHandle(s, a, Vec3(0, NAN, 0)); }, "the handle point is not finite", "");
  }

  // The crank-rocker of mechanisms/fourbar.json from nothing: ground link 0.4 m, crank 0.1 m at
  // 60°, coupler 0.35 m, rocker 0.3 m, all pins along z, the crank driven at 360°/s.
  void buildFourBarFromNothing() {
    const double a = 0.1, b = 0.35, c = 0.3, d = 0.4, th2 = M_PI / 3;
    const Vec3 O2 = Vec3::Zero(), O4(d, 0, 0), A(a * std::cos(th2), a * std::sin(th2), 0);
    // C: on the circle of radius b about A and of radius c about O4 — the open assembly, above
    // the line A–O4 (counter-clockwise from it).
    const Vec3 e = (O4 - A).normalized(), n(-e.y(), e.x(), 0);
    const double L = (O4 - A).norm(), x = (b * b - c * c + L * L) / (2 * L), h = std::sqrt(b * b - x * x);
    const Vec3 C = A + x * e + h * n;
    QVERIFY((C - Vec3(0.333074335925897, 0.292439661277742, 0)).norm() < 1e-12);  // fourbar.json's joint C
    const double th3 = std::atan2(C.y() - A.y(), C.x() - A.x()), th4 = std::atan2(C.y(), C.x() - d);

    // Each link a capsule along its own x, centred between its pins, turned to its angle.
    MechanismSpec s = newMechanismSpec();
    s.name = "four-bar linkage (crank-rocker)";
    auto link = [&](const Vec3& from, const Vec3& to, double angle, const std::string& name) {
      const std::string body = addBody(s, ShapeType::Capsule, (from + to) / 2, (to - from).norm());
      setSpecValue(s, "bodies." + body + ".orientation", SpecValue{{0, 0, 1, angle}, std::nullopt, 4});
      setSpecValue(s, "bodies." + body + ".name", SpecValue{{}, name, 0});
    };
    link(O2, A, th2, "crank");
    link(A, C, th3, "coupler");
    link(O4, C, th4, "rocker");
    const char* pins[4] = {"A", "B", "C", "D"};
    const std::string joints[4] = {addJoint(s, JointType::Revolute, "ground", "crank", O2, Vec3::UnitZ()),
                                   addJoint(s, JointType::Revolute, "crank", "coupler", A, Vec3::UnitZ()),
                                   addJoint(s, JointType::Revolute, "coupler", "rocker", C, Vec3::UnitZ()),
                                   addJoint(s, JointType::Revolute, "ground", "rocker", O4, Vec3::UnitZ())};
    for (int k = 0; k < 4; ++k) renameItem(s, SpecKind::Joint, joints[k], pins[k]);
    renameItem(s, SpecKind::Driver, addDriver(s, "A", "360 * t"), "crank");
    renameItem(s, SpecKind::Handle, addHandle(s, "coupler", Vec3(0.120964440797475, 0.286575158859829, 0.025)), "P");

    // Written and read back by the native reader: the same text again.
    const std::string written = io::writeMechanism(s);
    const MechanismSpec again = io::parseMechanism(written, "built.json", ".");
    QCOMPARE(io::writeMechanism(again), written);

    // Mobility as of the file: Grübler −2, DOF 1 (3 redundant out-of-plane equations), driven 0.
    for (const MechanismSpec* spec : {static_cast<const MechanismSpec*>(&s), &again}) {
      const Model m = io::compileSpec(*spec);
      Data dd = makeData(m);
      const MobilityReport r = analyseMobility(m, dd);
      QCOMPARE(r.grubler, -2);
      QCOMPARE(r.dof, 1);
      QCOMPARE(r.dofDriven, 0);
      QCOMPARE(static_cast<int>(r.redundant.size()), 3);
      QVERIFY(r.residual < 1e-12);
      QVERIFY(!r.singular);
    }
    const Model file = io::loadModel(kMechanisms + "fourbar.json");
    Data fd = makeData(file);
    const MobilityReport rf = analyseMobility(file, fd);
    QCOMPARE(rf.grubler, -2);
    QCOMPARE(rf.dof, 1);

    // A full turn of the crank (1 s at 360°/s) as mechsim-cli runs it: the rocker on the
    // closed-form position solution at every step.
    const Model m = io::compileSpec(s);
    const int cA = m.joints[m.findJoint("A")].firstCoord, cD = m.joints[m.findJoint("D")].firstCoord;
    double th4Prev = th4;
    int checked = 0;
    const long steps = test::runLikeCli(m, 1.0, 0.01, [&](long, double t, const Data& dt) {
      const double crank = th2 + dt.coords(cA);
      QVERIFY2(std::abs(crank - (th2 + 2 * M_PI * t)) < kPositionTol, qPrintable(QString("crank at t = %1").arg(t)));
      const double rocker = th4 + dt.coords(cD);
      const double exact = test::fourBarRocker(a, b, c, d, crank, th4Prev);
      QVERIFY2(std::abs(rocker - exact) < kPositionTol,
               qPrintable(QString("rocker %1 vs %2 at t = %3").arg(rocker, 0, 'g', 17).arg(exact, 0, 'g', 17).arg(t)));
      th4Prev = exact;
      ++checked;
    });
    QCOMPARE(steps, 101L);
    QCOMPARE(checked, 101);
    QVERIFY(std::abs(th4Prev - th4) < kPositionTol);  // back where it started after the turn
  }

  // ---- removal ----

  void removeCascades() {
    MechanismSpec s = everything();
    // (The reader records no attachment's location: one by hand, as a reader might.)
    s.locations["deformables[0].attachments[1].body"] = SourceLoc{77, 5};
    const auto locLink = s.locations.at("bodies[2]"), locStrap = s.locations.at("deformables[0].attachments[1].body");
    const auto locExclude = s.locations.at("contact.exclude[1]");
    const std::vector<RemovedItem> gone = removeItem(s, SpecKind::Body, "crank");
    QCOMPARE(describeRemoved(gone), std::string("body 'crank', joints 'A', 'B', driver 'crank', handle 'P', spring 's1', "
                                                "joint spring 'js', motor 'm1', initial rate 'B', attachment 'strap', "
                                                "contact exclusion 'crank/link'"));
    QCOMPARE(gone.front().kind, std::string("body"));
    QCOMPARE(static_cast<int>(s.bodies.size()), 2);
    QVERIFY(s.joints.empty() && s.drivers.empty() && s.handles.empty());
    QVERIFY(s.dynamics.springs.empty() && s.dynamics.jointSprings.empty() && s.dynamics.motors.empty() &&
            s.dynamics.initialRates.empty());
    QCOMPARE(static_cast<int>(s.deformables.size()), 1);  // the part stays, its other attachment too
    QCOMPARE(static_cast<int>(s.deformables[0].attachments.size()), 1);
    QCOMPARE(s.deformables[0].attachments[0].body, std::string("ground"));
    QCOMPARE(static_cast<int>(s.contact.exclude.size()), 1);
    // The locations of what stays moved with it; those of what went are gone.
    QVERIFY(s.locations.at("bodies[1]").line == locLink.line);
    QVERIFY(!s.locations.count("bodies[2]") && !s.locations.count("joints[0]"));
    QVERIFY(s.locations.at("deformables[0].attachments[0].body").line == locStrap.line);
    QVERIFY(!s.locations.count("deformables[0].attachments[1].body"));
    QVERIFY(s.locations.at("contact.exclude[0]").line == locExclude.line);
    // It still reads back and compiles.
    const std::string written = io::writeMechanism(s);
    QCOMPARE(io::writeMechanism(io::parseMechanism(written, "removed.json", ".")), written);
    io::compileSpec(s);

    // A joint: its driver, the servo following that driver, its initial rate; not the other joint's.
    MechanismSpec t = everything();
    QCOMPARE(describeRemoved(removeItem(t, SpecKind::Joint, "A")), std::string("joint 'A', driver 'crank', motor 'm1'"));
    QCOMPARE(t.joints[0].name, std::string("B"));
    QVERIFY(t.dynamics.jointSprings.size() == 1 && t.dynamics.initialRates.size() == 1);
    QCOMPARE(describeRemoved(removeItem(t, SpecKind::Joint, "B")), std::string("joint 'B', joint spring 'js', initial rate 'B'"));
    // A driver: the servo following it.
    MechanismSpec u = everything();
    QCOMPARE(describeRemoved(removeItem(u, SpecKind::Driver, "crank")), std::string("driver 'crank', motor 'm1'"));
    QCOMPARE(static_cast<int>(u.joints.size()), 2);
    QCOMPARE(describeRemoved(removeItem(u, SpecKind::Handle, "P")), std::string("handle 'P'"));
    QCOMPARE(describeRemoved(removeItem(u, SpecKind::Deformable, "strap")), std::string("deformable part 'strap'"));
    QVERIFY(u.deformables.empty() && u.handles.empty());
    // The last fixed body may go; a name that is not there is refused, the spec unchanged.
    QCOMPARE(describeRemoved(removeItem(u, SpecKind::Body, "ground")), std::string("body 'ground', joint 'A', contact exclusion 'ground/link'"));
    QVERIFY(std::none_of(u.bodies.begin(), u.bodies.end(), [](const BodySpec& x) { return x.fixed; }));
    io::compileSpec(u);
    expectRefused(u, [&] { removeItem(u, SpecKind::Body, "ground"); }, "no body named 'ground' (there are: crank, link)", "");
    expectRefused(u, [&] { removeItem(u, SpecKind::Handle, "P"); }, "no handle named 'P' (there are: none)", "");
  }

  // "=EXPR" fields follow their items: mechanisms/fourbar-parametric.json without the crank keeps
  // C's and D's points as expressions of the parameters.
  void removeKeepsParameterFields() {
    MechanismSpec s = io::readMechanismFile(kMechanisms + "fourbar-parametric.json");
    QCOMPARE(s.parameterFields.at("joints[2].point[0]"), std::string("Cx"));
    QCOMPARE(describeRemoved(removeItem(s, SpecKind::Body, "crank")), std::string("body 'crank', joints 'A', 'B', driver 'crank'"));
    QCOMPARE(s.parameterFields.at("joints[0].point[0]"), std::string("Cx"));
    QCOMPARE(s.parameterFields.at("joints[1].point[0]"), std::string("L1"));
    QCOMPARE(s.parameterFields.at("bodies[1].position[0]"), std::string("Bx"));  // the coupler, was bodies[2]
    QVERIFY(!s.parameterFields.count("joints[2].point[0]") && !s.parameterFields.count("bodies[3].position[0]"));
    const std::string written = io::writeMechanism(s);
    QVERIFY2(written.find("\"point\": [\"=Cx\", \"=Cy\", 0]") != std::string::npos, written.c_str());
    const MechanismSpec again = io::parseMechanism(written, "parametric.json", kMechanisms);
    QCOMPARE(io::writeMechanism(again), written);
  }
};

QTEST_APPLESS_MAIN(TestSpecEdit)
#include "test_spec_edit.moc"
