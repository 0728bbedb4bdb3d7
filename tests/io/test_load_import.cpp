// tests/io/test_load_import.cpp — core/io/load_import.cpp: a native file's "import" section.
// The reference for what the import brings is the importer on its own (readMechanismFile of the
// URDF, with and without the floating-base option): the merged spec's first bodies and joints
// must equal it field for field, with the native file's own entries after them. Errors are
// located in the file they are in (the native file's "file" value, the URDF's line); writing the
// file back keeps the section (not the robot inlined) and reads back to the same spec, and again
// to the same text; "=EXPR" fields of the native file's own bodies survive the renumbering.
#include <QtTest>
#include <QTemporaryDir>

#include <fstream>
#include <string>

#include "core/io/load.h"
#include "core/io/write.h"
#include "core/kinematics/kinematics.h"
#include "core/spec.h"

namespace {

using mechsim::MechanismSpec;
namespace io = mechsim::io;

// A two-link arm: "base" (fixed by the importer) and "upper" on the revolute "shoulder" (line 9).
const char* kArm = R"(<?xml version="1.0"?>
<robot name="arm">
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="upper">
    <inertial><origin xyz="0.25 0 0"/><mass value="0.5"/><inertia ixx="0.001" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0.25 0 0"/><geometry><box size="0.5 0.05 0.05"/></geometry></visual>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/><origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>
    <limit lower="LOWER" upper="2" effort="10" velocity="1"/>
  </joint>
</robot>
)";

// The native file: a tool fixed to the imported "upper", a driver on the imported "shoulder", a
// handle on the tool; lengths in mm, the tool's x from a parameter.
const char* kNative = R"J({
  "mechsim": 1,
  "name": "arm with tool",
  "units": {"length": "mm", "angle": "rad"},
  "parameters": {"reach": {"value": 600, "unit": "length"}},
  "import": {"file": "arm.urdf"FLOATING},
  "bodies": [
    {"name": "tool", "mass": 0.1, "position": ["=reach", 0, 100], "shapes": [{"type": "sphere", "radius": 20}]}
  ],
  "joints": [
    {"name": "mount", "type": "fixed", "body1": "upper", "body2": "tool", "point": [500, 0, 100]}
  ],
  "drivers": [{"name": "swing", "joint": "shoulder", "value": "0.5 * sin(t)"}],
  "handles": [{"name": "tip", "body": "tool", "point": [600, 0, 100]}]
}
)J";

std::string replaced(std::string s, const std::string& what, const std::string& with) {
  const auto at = s.find(what);
  if (at != std::string::npos) s.replace(at, what.size(), with);
  return s;
}

void put(const QTemporaryDir& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir.filePath(QString::fromStdString(name)).toStdString()) << text;
}

std::string path(const QTemporaryDir& dir, const std::string& name) { return dir.filePath(QString::fromStdString(name)).toStdString(); }

/// The message of the LoadError reading `file` throws ("" if none).
std::string errorOf(const std::string& file) {
  try {
    io::loadModel(file, nullptr);
  } catch (const io::LoadError& e) {
    return e.what();
  }
  return "";
}

bool sameBody(const mechsim::BodySpec& a, const mechsim::BodySpec& b) {
  return a.name == b.name && a.fixed == b.fixed && a.position.isApprox(b.position, 0) && a.mass == b.mass &&
         a.com == b.com && a.shapes.size() == b.shapes.size() && a.visuals.size() == b.visuals.size() &&
         a.orientation.coeffs() == b.orientation.coeffs();
}
bool sameJoint(const mechsim::JointSpec& a, const mechsim::JointSpec& b) {
  return a.name == b.name && a.type == b.type && a.body1 == b.body1 && a.body2 == b.body2 && a.point == b.point &&
         a.axis == b.axis;
}

}  // namespace

class TestLoadImport : public QObject {
  Q_OBJECT
 private slots:
  // The merged spec: the importer's bodies and joints first, equal to the URDF read on its own;
  // the native file's after, in SI; it compiles, the driver on the imported joint drives it.
  void importJoinsTheNativeFile_data() {
    QTest::addColumn<bool>("floating");
    QTest::newRow("fixed base") << false;
    QTest::newRow("floating base") << true;
  }
  void importJoinsTheNativeFile() {
    QFETCH(bool, floating);
    QTemporaryDir dir;
    put(dir, "arm.urdf", replaced(kArm, "LOWER", "-2"));
    put(dir, "tool.json", replaced(kNative, "FLOATING", floating ? ", \"floatingBase\": true" : ""));
    io::ImportOptions options;
    options.floatingBase = floating;
    const MechanismSpec robot = io::readMechanismFile(path(dir, "arm.urdf"), options);
    const MechanismSpec spec = io::readMechanismFile(path(dir, "tool.json"));
    QCOMPARE(spec.name, std::string("arm with tool"));
    QVERIFY(spec.imported && spec.imported->file == "arm.urdf" && spec.imported->floatingBase == floating);
    QCOMPARE(spec.bodies.size(), robot.bodies.size() + 1);
    QCOMPARE(spec.joints.size(), robot.joints.size() + 1);
    for (std::size_t k = 0; k < robot.bodies.size(); ++k) QVERIFY(sameBody(spec.bodies[k], robot.bodies[k]));
    for (std::size_t k = 0; k < robot.joints.size(); ++k) QVERIFY(sameJoint(spec.joints[k], robot.joints[k]));
    QCOMPARE(spec.bodies[0].fixed, !floating);
    const mechsim::BodySpec& tool = spec.bodies.back();
    QCOMPARE(tool.name, std::string("tool"));
    QVERIFY((tool.position - mechsim::Vec3(0.6, 0, 0.1)).norm() < 1e-12);  // mm → m, "=reach"
    QCOMPARE(spec.joints.back().body1, std::string("upper"));
    const mechsim::Model m = io::compileSpec(spec);
    QCOMPARE(int(m.bodies.size()), int(spec.bodies.size()));
    QCOMPARE(int(m.drivers.size()), 1);
    // Degrees of freedom: the shoulder (1) and, floating, the base's 6; the driver takes one.
    QCOMPARE(mechsim::grublerDof(m), floating ? 7 : 1);
  }

  // Where errors are: the import's own problems at the native file's values, the importer's in
  // the URDF, a name clash or a bad reference at the native file's entry.
  void errorsAreLocatedInTheirFile() {
    QTemporaryDir dir;
    put(dir, "arm.urdf", replaced(kArm, "LOWER", "-2"));
    put(dir, "broken.urdf", replaced(kArm, "</robot>", ""));
    const std::string native = path(dir, "tool.json");
    auto withImport = [&](const std::string& section) {
      put(dir, "tool.json", replaced(replaced(kNative, "FLOATING", ""), R"("import": {"file": "arm.urdf"},)", section));
      return errorOf(native);
    };
    // Line 6 of the native file holds the section.
    std::string e = withImport(R"("import": {"file": "no-such.urdf"},)");
    QVERIFY2(e.rfind(native + ":6:", 0) == 0 && e.find("import.file: no such file") != std::string::npos, e.c_str());
    put(dir, "other.json", "{\"mechsim\": 1, \"bodies\": [{\"name\": \"a\"}]}");
    e = withImport(R"("import": {"file": "other.json"},)");
    QVERIFY2(e.rfind(native + ":6:", 0) == 0 && e.find("not a URDF, MJCF or SDFormat file") != std::string::npos, e.c_str());
    e = withImport(R"("import": {"file": "arm.urdf", "floatingbase": true},)");
    QVERIFY2(e.rfind(native + ":6:", 0) == 0 && e.find("floatingbase") != std::string::npos, e.c_str());
    e = withImport(R"("import": {"file": "arm.urdf", "floatingBase": 1},)");
    QVERIFY2(e.rfind(native + ":6:", 0) == 0 && e.find("import.floatingBase") != std::string::npos, e.c_str());
    e = withImport(R"("import": "arm.urdf",)");
    QVERIFY2(e.rfind(native + ":6:", 0) == 0, e.c_str());
    // The URDF's own error: in the URDF.
    e = withImport(R"("import": {"file": "broken.urdf"},)");
    QVERIFY2(e.rfind(path(dir, "broken.urdf") + ":", 0) == 0, e.c_str());
    // A native body named as an imported one; a native joint on a body neither file has.
    put(dir, "tool.json", replaced(replaced(kNative, "FLOATING", ""), R"("name": "tool", "mass")", R"("name": "upper", "mass")"));
    e = errorOf(native);
    QVERIFY2(e.rfind(native + ":8:", 0) == 0 && e.find("duplicate body name \"upper\"") != std::string::npos, e.c_str());
    put(dir, "tool.json", replaced(replaced(kNative, "FLOATING", ""), R"("body1": "upper")", R"("body1": "uper")"));
    e = errorOf(native);
    QVERIFY2(e.rfind(native + ":11:", 0) == 0 && e.find("\"upper\"") != std::string::npos, e.c_str());  // did you mean
  }

  // What later stages report about an imported value is located in the URDF (fileOf): the
  // shoulder's starting angle 0 outside its limits [0.5, 2] warns at the URDF's <limit> line.
  void laterStagesPointIntoTheImport() {
    QTemporaryDir dir;
    put(dir, "arm.urdf", replaced(kArm, "LOWER", "0.5"));
    put(dir, "tool.json", replaced(kNative, "FLOATING", ""));
    const MechanismSpec spec = io::readMechanismFile(path(dir, "tool.json"));
    QCOMPARE(spec.fileOf("joints[0].axis"), path(dir, "arm.urdf"));
    QCOMPARE(spec.fileOf("bodies[2].position"), path(dir, "tool.json"));
    QCOMPARE(spec.fileOf("drivers[0]"), path(dir, "tool.json"));
    std::vector<std::string> warnings;
    io::loadModel(path(dir, "tool.json"), &warnings);
    bool found = false;
    for (const std::string& w : warnings) found |= w.rfind(path(dir, "arm.urdf") + ":12:", 0) == 0 && w.find("shoulder") != std::string::npos;
    QVERIFY2(found, warnings.empty() ? "no warnings" : warnings.front().c_str());
  }

  // Written back: the section, the native file's own entries only (the "=reach" kept though the
  // tool is bodies[2] in the spec and bodies[0] in the file); read again: the same spec; written
  // again: the same text. Written into another folder, the import's path is rebased.
  void writtenBackAsTheSection() {
    QTemporaryDir dir;
    put(dir, "arm.urdf", replaced(kArm, "LOWER", "-2"));
    put(dir, "tool.json", replaced(kNative, "FLOATING", ", \"floatingBase\": true"));
    const MechanismSpec spec = io::readMechanismFile(path(dir, "tool.json"));
    const std::string text = io::writeMechanism(spec);
    QVERIFY2(text.find("\"import\": { \"file\": \"arm.urdf\", \"floatingBase\": true }") != std::string::npos, text.c_str());
    QVERIFY2(text.find("\"upper\"") != std::string::npos && text.find("\"name\": \"upper\"") == std::string::npos, text.c_str());
    QVERIFY2(text.find("\"shoulder\"") != std::string::npos && text.find("\"name\": \"shoulder\"") == std::string::npos, text.c_str());
    QVERIFY2(text.find("\"=reach\"") != std::string::npos, text.c_str());
    io::writeMechanismFile(spec, path(dir, "again.json"));
    const MechanismSpec back = io::readMechanismFile(path(dir, "again.json"));
    QCOMPARE(back.bodies.size(), spec.bodies.size());
    for (std::size_t k = 0; k < spec.bodies.size(); ++k) QVERIFY(sameBody(back.bodies[k], spec.bodies[k]));
    for (std::size_t k = 0; k < spec.joints.size(); ++k) QVERIFY(sameJoint(back.joints[k], spec.joints[k]));
    QCOMPARE(io::writeMechanism(back), text);
    QVERIFY(QDir(dir.path()).mkdir("sub"));
    io::writeMechanismFile(spec, path(dir, "sub/moved.json"));
    const MechanismSpec moved = io::readMechanismFile(path(dir, "sub/moved.json"));
    QCOMPARE(moved.imported->file, std::string("../arm.urdf"));
    QCOMPARE(moved.bodies.size(), spec.bodies.size());
  }

  // An MJCF import: its bodies and its driver join; what does not carry over is a warning.
  void mjcfImportAndItsFloatingBaseWarning() {
    QTemporaryDir dir;
    put(dir, "pendulum.xml", R"(<mujoco model="p"><compiler angle="degree"/><worldbody><body name="bob" pos="0 0 1">
      <joint name="swing" type="hinge" axis="0 1 0"/><geom type="sphere" size="0.05" mass="1"/></body></worldbody>
      <mechsim:driver name="d" joint="swing" value="10 * t"/></mujoco>)");
    put(dir, "p.json", R"({"mechsim": 1, "import": {"file": "pendulum.xml", "floatingBase": true},
      "handles": [{"name": "h", "body": "bob", "point": [0, 0, 1]}]})");
    const MechanismSpec spec = io::readMechanismFile(path(dir, "p.json"));
    bool bob = false;
    for (const auto& b : spec.bodies) bob |= b.name == "bob";
    QVERIFY(bob);
    QCOMPARE(spec.handles.size(), std::size_t(1));
    QCOMPARE(spec.drivers.size(), std::size_t(1));
    // The floating-base option MJCF does not take, and the robot's driver written in degrees (<compiler
    // angle="degree">) in a file in radians: warnings at the section.
    bool floatingWarned = false, unitsWarned = false;
    for (const std::string& w : spec.warnings) {
      const bool here = w.rfind(path(dir, "p.json") + ":1:", 0) == 0;
      floatingWarned |= here && w.find("floatingBase is for URDF files") != std::string::npos;
      unitsWarned |= here && w.find("1 driver(s) of \"pendulum.xml\" are written in m and deg") != std::string::npos;
    }
    QVERIFY(floatingWarned && unitsWarned);
  }
};

QTEST_APPLESS_MAIN(TestLoadImport)
#include "test_load_import.moc"
