// tests/io/test_import_formats.cpp — tests the frame, joint and inertia mappings of
// core/io/import/urdf_import.cpp, mjcf_import.cpp and sdf_import.cpp on small texts whose world
// geometry is worked out by hand here, plus the package:// search path (resources.cpp) and the
// .xml dispatch by root element (import.cpp), and negative mesh scales (core/mesh_mirror.h) in the
// three formats and the native one.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

#include "core/compile.h"
#include "core/kinematics/kinematics.h"
#include <functional>
#include "core/io/import/import.h"
#include "core/io/load.h"
#include "core/io/write.h"
#include "test_import_formats_texts.h"

using namespace mechsim;
using namespace mechsim::io;

namespace {
constexpr double kPi = 3.14159265358979323846;
const QString kSource = QStringLiteral(MECHSIM_SOURCE_DIR);

const JointSpec& joint(const MechanismSpec& s, const std::string& n) {
  for (const JointSpec& j : s.joints)
    if (j.name == n) return j;
  throw std::runtime_error("no joint " + n);
}
const BodySpec& body(const MechanismSpec& s, const std::string& n) {
  for (const BodySpec& b : s.bodies)
    if (b.name == n) return b;
  throw std::runtime_error("no body " + n);
}
bool near(const Vec3& a, const Vec3& b, double tol = 1e-12) { return (a - b).norm() <= tol; }

/// Signed volume ⅙ Σ a · (b × c) of a closed triangle mesh: positive when every triangle's
/// winding turns counter-clockwise seen from outside (its normal outward).
double signedVolume(const MeshData& m) {
  double v = 0;
  for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
    const Vec3 a = m.vertices[m.indices[t]].cast<double>(), b = m.vertices[m.indices[t + 1]].cast<double>(),
               c = m.vertices[m.indices[t + 2]].cast<double>();
    v += a.dot(b.cross(c)) / 6;
  }
  return v;
}

/// An asymmetric tetrahedron (legs 1, 2, 3 along x, y, z from the origin; volume 1), outward
/// winding, as an OBJ file in `dir`; its path.
std::string writeTetra(const QTemporaryDir& dir) {
  const std::string p = (dir.path() + "/tetra.obj").toStdString();
  std::ofstream(p) << "v 0 0 0\nv 1 0 0\nv 0 2 0\nv 0 0 3\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
  return p;
}

/// Each triangle of `m`: its winding normal points away from the mesh's centroid, and its
/// corners' vertex normals agree with it (a flat-faced convex mesh).
bool normalsOutward(const MeshData& m) {
  Vec3 centre = Vec3::Zero();
  for (const auto& v : m.vertices) centre += v.cast<double>();
  centre /= double(m.vertices.size());
  for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
    const Vec3 a = m.vertices[m.indices[t]].cast<double>(), b = m.vertices[m.indices[t + 1]].cast<double>(),
               c = m.vertices[m.indices[t + 2]].cast<double>();
    const Vec3 n = (b - a).cross(c - a);
    if (!(n.dot((a + b + c) / 3 - centre) > 0)) return false;
    for (int k = 0; k < 3; ++k)
      if (!m.normals.empty() && !(m.normals[m.indices[t + k]].cast<double>().dot(n) > 0)) return false;
  }
  return true;
}
}  // namespace

class TestImportFormats : public QObject {
  Q_OBJECT
 private slots:
  /// URDF / SDFormat <mimic>, an SDFormat gearbox and MJCF <equality><joint> become couplings
  /// (tests/data/import/couplings/): the leader driven through a turn and a half, the follower's
  /// coordinate equals the file's relation to 1e-9, checked on the bodies' poses (independent of
  /// the coordinate reading), and the mobility drops by one per coupling.
  void importedCouplings() {
    struct Case {
      const char* file;
      int couplings, dof;
      const char* leader;
      std::function<double(double)> motion;  // the leader's coordinate at t
      std::function<void(const Model&, const Data&, double)> check;
    };
    auto angleZ = [](const Model& m, const Data& d, const char* body) {
      const Mat3 R = bodyPose(m, d.q, m.findBody(body)).orientation.toRotationMatrix();
      return std::atan2(R(1, 0), R(0, 0));
    };
    auto near = [](double a, double b) { return std::abs(std::remainder(a - b, 2 * M_PI)) < 1e-9; };
    const std::vector<Case> cases = {
        {"gripper.urdf", 2, 2, "wrist", [](double t) { return 3 * M_PI * t; },
         [&](const Model& m, const Data& d, double t) {
           QVERIFY(near(angleZ(m, d, "thumb"), 2 * 3 * M_PI * t));
           const Pose palm = bodyPose(m, d.q, m.findBody("palm"));
           const Vec3 x = palm.orientation.toRotationMatrix().col(0);
           const double a = x.dot(bodyPose(m, d.q, m.findBody("finger_a")).position - palm.position) - 0.02;
           const double b = x.dot(bodyPose(m, d.q, m.findBody("finger_b")).position - palm.position) + 0.02;
           QVERIFY2(std::abs(b - (-a + 0.01)) < 1e-9, qPrintable(QString("a %1 b %2").arg(a).arg(b)));
         }},
        {"gears.sdf", 2, 1, "a", [](double t) { return 3 * M_PI * t; },
         [&](const Model& m, const Data& d, double t) {
           QVERIFY(near(angleZ(m, d, "g2"), -2 * 3 * M_PI * t));  // θ_2 = −ratio θ_1 about +z
           QVERIFY(near(angleZ(m, d, "g3"), -0.5 * (3 * M_PI * t - 0.2) + 0.1));
         }},
        {"cam.xml", 2, 1, "a", [](double t) { return 3 * M_PI * t; },
         [&](const Model& m, const Data& d, double t) {
           const double a = 3 * M_PI * t;
           QVERIFY2(near(angleZ(m, d, "wb"), 0.1 - 2 * a + 0.5 * a * a), qPrintable(QString("t %1 wb %2 want %3 coords %4 %5").arg(t).arg(angleZ(m, d, "wb")).arg(std::remainder(0.1 - 2 * a + 0.5 * a * a, 2 * M_PI)).arg(d.coords(0)).arg(d.coords(1))));
           QVERIFY(std::abs(bodyPose(m, d.q, m.findBody("sl")).position.x() - 0.02) < 1e-9);
         }},
    };
    for (const Case& c : cases) try {
      MechanismSpec s = readMechanismFile((kSource + "/tests/data/import/couplings/" + c.file).toStdString());
      QVERIFY2(s.warnings.empty(), s.warnings.empty() ? c.file : s.warnings[0].c_str());
      QCOMPARE(int(s.couplings.size()), c.couplings);
      {
        const Model m = compileSpec(s);
        Data d = makeData(m);
        QVERIFY(solvePositions(m, d, 0.0));
        const MobilityReport r = analyseMobility(m, d);
        QVERIFY2(r.dof == c.dof, qPrintable(QString("%1: %2 DOF").arg(c.file).arg(r.dof)));
      }
      const MechanismSpec imported = s;
      DriverSpec drv;
      drv.name = "turn";
      drv.joint = c.leader;
      s.drivers.push_back(drv);
      const Model m = compile(s, {c.motion});
      Data d = makeData(m);
      for (int k = 0; k <= 30; ++k) {
        const double t = 0.05 * k;
        QVERIFY2(solvePositions(m, d, t), d.stats.message.c_str());
        updateJointCoordinates(m, d);
        c.check(m, d, t);
      }
      // Written in the native format and read back: the same couplings.
      QTemporaryDir dir;
      const std::string out = (dir.path() + "/c.json").toStdString();
      writeMechanismFile(imported, out);
      const MechanismSpec back = readMechanismFile(out);
      QCOMPARE(int(back.couplings.size()), c.couplings);
      for (std::size_t i = 0; i < back.couplings.size(); ++i) {
        QCOMPARE(back.couplings[i].joint, s.couplings[i].joint);
        QCOMPARE(back.couplings[i].leader, s.couplings[i].leader);
        for (int k = 0; k < 5; ++k) QVERIFY(std::abs(back.couplings[i].polynomial[k] - s.couplings[i].polynomial[k]) < 1e-15);
      }
    } catch (const std::exception& e) {
      QFAIL(qPrintable(QString("%1: %2").arg(c.file).arg(e.what())));
    }
  }

  /// T_child = T_parent · T_origin; axis in the child (joint) frame; inertia rotated into link axes.
  void urdfFramesAndInertia() {
    const std::string text = kUrdfFrames;
    const MechanismSpec s = parseUrdf(text, "t.urdf", ".");
    // j1: at (1,0,0), frame turned 90° about z, so local x → world y.
    QVERIFY(near(joint(s, "j1").point, Vec3(1, 0, 0)));
    QVERIFY(near(joint(s, "j1").axis, Vec3(0, 1, 0)));
    QVERIFY(joint(s, "j1").limits && joint(s, "j1").limits->first == -1 && joint(s, "j1").limits->second == 2);
    // j2: origin (0,2,0) in a's frame → world (1,0,0) + Rz(90°)(0,2,0) = (-1,0,0); frame Rz(90)·Rx(90):
    // local z → Rz(90°)·(0,-1,0) = (1,0,0).
    QVERIFY(near(joint(s, "j2").point, Vec3(-1, 0, 0)));
    QVERIFY(near(joint(s, "j2").axis, Vec3(1, 0, 0)));
    QCOMPARE(int(joint(s, "j2").type), int(JointType::Prismatic));
    // j3: planar, normal = R_c · (0,1,0) = Rz(90)·Rx(90)·(0,1,0) = Rz(90)·(0,0,1) = (0,0,1).
    QCOMPARE(int(joint(s, "j3").type), int(JointType::Planar));
    QVERIFY(near(joint(s, "j3").normal, Vec3(0, 0, 1)));
    // The floating joint leaves "free" without a joint; the root is fixed; massless links get 1 g.
    QCOMPARE(int(s.joints.size()), 3);
    QVERIFY(body(s, "base").fixed && !body(s, "free").fixed);
    QCOMPARE(*body(s, "b").mass, 1e-3);
    // Inertia: principal (1, 2, 2.5) turned 90° about z → Ixx = 2, Iyy = 1; com (0.1,0,0) in a.
    const BodySpec& a = body(s, "a");
    QCOMPARE(*a.mass, 2.0);
    QVERIFY(near(a.com, Vec3(0.1, 0, 0)));
    QVERIFY(std::abs((*a.inertia)[0] - 2) < 1e-12 && std::abs((*a.inertia)[1] - 1) < 1e-12 && std::abs((*a.inertia)[2] - 2.5) < 1e-12);
    // j2's <mimic joint="j1"/> is a coupling j2 = 1 · j1 + 0 (urdfdom's defaults), located at its
    // element (line 15, column 59); no warning.
    QVERIFY2(s.warnings.empty(), s.warnings.empty() ? "" : s.warnings[0].c_str());
    QCOMPARE(int(s.couplings.size()), 1);
    QCOMPARE(s.couplings[0].joint, std::string("j2"));
    QCOMPARE(s.couplings[0].leader, std::string("j1"));
    QVERIFY(s.couplings[0].polynomial == (std::array<double, 5>{0, 1, 0, 0, 0}));
    QCOMPARE(s.locate("couplings[0]").line, 15);
    QCOMPARE(s.locate("couplings[0]").col, 59);
    // Locations: joints[1].axis is the <axis> of j2 (line 14).
    QCOMPARE(s.locate("joints[1].axis").line, 14);
  }

  /// package://NAME found through MECHSIM_PACKAGE_PATH (NAME a folder of a listed root).
  void packageSearchPath() {
    QTemporaryDir tmp;
    const std::string text = kUrdfPackage;
    qputenv("MECHSIM_PACKAGE_PATH", QByteArray("/nonexistent:") + (kSource + "/models").toUtf8());
    const MechanismSpec s = parseUrdf(text, "t.urdf", tmp.path().toStdString());
    qunsetenv("MECHSIM_PACKAGE_PATH");
    QVERIFY(s.warnings.empty());
    const ShapeSpec& v = body(s, "a").visuals.at(0);
    QCOMPARE(int(v.type), int(ShapeType::Mesh));
    QVERIFY(v.mesh && !v.mesh->indices.empty());
    QCOMPARE(v.scale, 0.5);
    QCOMPARE(QString::fromStdString(v.resolvedFile), QDir::cleanPath(kSource + "/models/ur5/meshes/collision/base.obj"));
    // Without the path (the temporary folder has no models/ur5): a warning and a placeholder box.
    const MechanismSpec w = parseUrdf(text, "t.urdf", tmp.path().toStdString());
    QCOMPARE(int(w.warnings.size()), 1);
    QCOMPARE(int(body(w, "a").visuals.at(0).type), int(ShapeType::Box));
  }

  /// Negative mesh scales mirror the mesh (issue 46, item 1): URDF scale="-2 2 2" is the
  /// tetrahedron reflected in x and scaled by 2, its vertices (−x, y, z) of the file's, its
  /// triangles rewound so that the signed volume stays positive and the normals outward; MJCF
  /// and SDFormat the same, a point reflection (−1 −1 −1, det −1) too. The native format
  /// writes and reads it back as "scale": [−2, 2, 2].
  void negativeScaleMirrors() {
    QTemporaryDir tmp;
    const std::string obj = writeTetra(tmp);
    const std::string dir = tmp.path().toStdString();
    auto urdf = [&](const char* scale) {
      return parseUrdf(std::string("<robot name=\"r\"><link name=\"a\"><visual><geometry><mesh filename=\"tetra.obj\" scale=\"") +
                           scale + "\"/></geometry></visual></link></robot>",
                       "r.urdf", dir);
    };
    const MechanismSpec plain = urdf("2 2 2");
    const MechanismSpec mirrored = urdf("-2 2 2");
    QVERIFY2(mirrored.warnings.empty(), mirrored.warnings.empty() ? "" : mirrored.warnings[0].c_str());
    const ShapeSpec& p = plain.bodies.at(0).visuals.at(0);
    const ShapeSpec& m = mirrored.bodies.at(0).visuals.at(0);
    QCOMPARE(int(m.type), int(ShapeType::Mesh));
    QCOMPARE(m.scale, 2.0);
    QVERIFY(near(m.mirror, Vec3(-1, 1, 1)));
    QVERIFY(near(p.mirror, Vec3(1, 1, 1)));
    QCOMPARE(m.mesh->vertices.size(), p.mesh->vertices.size());
    for (std::size_t i = 0; i < p.mesh->vertices.size(); ++i)
      QVERIFY(m.mesh->vertices[i] == p.mesh->vertices[i].cwiseProduct(Eigen::Vector3f(-1, 1, 1)));
    QVERIFY(std::abs(signedVolume(*p.mesh) - 1) < 1e-6);
    QVERIFY(std::abs(signedVolume(*m.mesh) - 1) < 1e-6);
    QVERIFY(normalsOutward(*p.mesh));
    QVERIFY(normalsOutward(*m.mesh));

    // Two reflections (det +1, a half turn): no rewinding needed, and none done.
    const MechanismSpec two = urdf("-1 -1 1");
    QVERIFY(near(two.bodies.at(0).visuals.at(0).mirror, Vec3(-1, -1, 1)));
    QVERIFY(std::abs(signedVolume(*two.bodies.at(0).visuals.at(0).mesh) - 1) < 1e-6);
    QVERIFY(normalsOutward(*two.bodies.at(0).visuals.at(0).mesh));

    // MJCF <mesh scale> and SDFormat <scale>.
    const MechanismSpec mj = parseMjcf(R"(<mujoco><asset><mesh name="t" file="tetra.obj" scale="1 1 -1"/></asset>
      <worldbody><body name="a"><joint type="hinge"/><geom type="mesh" mesh="t"/></body></worldbody></mujoco>)",
                                       "m.xml", dir);
    const ShapeSpec& ms = body(mj, "a").shapes.at(0);
    QVERIFY(near(ms.mirror, Vec3(1, 1, -1)));
    QVERIFY(std::abs(signedVolume(*ms.mesh) - 1) < 1e-6 && normalsOutward(*ms.mesh));
    const MechanismSpec sd = parseSdf(R"(<sdf version="1.8"><model name="m"><link name="a"><visual name="v"><geometry>
      <mesh><uri>tetra.obj</uri><scale>-1 -1 -1</scale></mesh></geometry></visual></link></model></sdf>)",
                                      "m.sdf", dir);
    const ShapeSpec& ss = body(sd, "a").visuals.at(0);
    QVERIFY(near(ss.mirror, Vec3(-1, -1, -1)));
    QVERIFY(std::abs(signedVolume(*ss.mesh) - 1) < 1e-6 && normalsOutward(*ss.mesh));

    // The native format: written as three signed factors, read back mirrored.
    const std::string text = writeMechanism(mirrored);
    QVERIFY2(text.find("\"scale\": [") != std::string::npos, text.c_str());
    const MechanismSpec back = parseMechanism(text, "back.json", dir);
    const ShapeSpec& b = back.bodies.at(0).visuals.at(0);
    QCOMPARE(b.scale, 2.0);
    QVERIFY(near(b.mirror, Vec3(-1, 1, 1)));
    for (std::size_t i = 0; i < m.mesh->vertices.size(); ++i) QVERIFY(b.mesh->vertices[i] == m.mesh->vertices[i]);
    QCOMPARE(b.mesh->indices, m.mesh->indices);
    // Three factors must share one magnitude (one uniform scale): an error at the array.
    try {
      parseMechanism(R"({"mechsim": 1, "bodies": [{"name": "a", "mass": 1, "inertia": [1, 1, 1, 0, 0, 0],
        "shapes": [{"type": "mesh", "file": "tetra.obj", "scale": [-1, 2, 1]}]}]})",
                     "bad.json", dir);
      QFAIL("no error");
    } catch (const LoadError& e) {
      QVERIFY2(std::string(e.what()).rfind("bad.json:2:67: error: ", 0) == 0 &&
                   std::string(e.what()).find("the three scale factors must have one magnitude") != std::string::npos,
               e.what());
    }
  }

  /// An inline MJCF mesh without face= is its vertices' convex hull, computed for at most 2·10^4
  /// of them (the hull costs vertices × faces: a hostile 10^6 would take hours); beyond, an error
  /// at vertex= that says so, before any hull work.
  void mjcfInlineHullBounded() {
    std::string points;
    for (int i = 0; i < 20'001; ++i) points += std::to_string(i % 7) + " " + std::to_string(i % 11) + " " + std::to_string(i % 13) + " ";
    const std::string text = "<mujoco><asset><mesh name=\"m\" vertex=\"" + points +
                             "\"/></asset><worldbody><body><freejoint/><geom type=\"mesh\" mesh=\"m\"/></body></worldbody></mujoco>";
    try {
      parseMjcf(text, "hull.xml", ".");
      QFAIL("20 001 hull points were read");
    } catch (const LoadError& e) {
      QVERIFY2(std::string(e.what()).rfind("hull.xml:1:31: error: a mesh given by vertex= alone is read as the convex hull", 0) == 0 &&
                   std::string(e.what()).find("at most 20000 of them (this one has 20001)") != std::string::npos,
               e.what());
    }
  }

  /// MJCF colours as MuJoCo takes them: a geom's material colour (own or its class's) unless the
  /// geom's rgba differs from the default 0.5 0.5 0.5 1; an unknown material is a warning.
  void mjcfMaterialColours() {
    const std::string text =
        "<mujoco><default><default class=\"shiny\"><geom material=\"blue\"/></default></default>\n"
        "<asset><material name=\"red\" rgba=\"1 0 0 1\"/><material name=\"blue\" rgba=\"0 0 1 1\"/>"
        "<material name=\"plain\"/></asset>\n"
        "<worldbody><body name=\"b\"><freejoint/>\n"
        "<geom name=\"a\" type=\"sphere\" size=\"0.1\" material=\"red\"/>\n"
        "<geom name=\"b\" type=\"sphere\" size=\"0.1\" material=\"red\" rgba=\"0 1 0 1\"/>\n"
        "<geom name=\"c\" type=\"sphere\" size=\"0.1\" class=\"shiny\"/>\n"
        "<geom name=\"d\" type=\"sphere\" size=\"0.1\" material=\"plain\" rgba=\"0.5 0.5 0.5 1\"/>\n"
        "<geom name=\"e\" type=\"sphere\" size=\"0.1\" material=\"nosuch\"/>\n"
        "</body></worldbody></mujoco>";
    const MechanismSpec s = parseMjcf(text, "colours.xml", ".");
    std::vector<std::string> colours;
    for (const ShapeSpec& sh : body(s, "b").shapes) colours.push_back(sh.color);
    for (const ShapeSpec& sh : body(s, "b").visuals) colours.push_back(sh.color);
    QCOMPARE(int(colours.size()), 5);
    QCOMPARE(colours[0], std::string("#ff0000"));
    QCOMPARE(colours[1], std::string("#00ff00"));
    QCOMPARE(colours[2], std::string("#0000ff"));
    QCOMPARE(colours[3], std::string("#ffffff"));
    QCOMPARE(colours[4], std::string(""));
    bool warned = false;
    for (const std::string& w : s.warnings) warned = warned || w.find("colours.xml:8:1: warning: unknown material \"nosuch\"") == 0;
    QVERIFY(warned);
  }

  /// <loop_joint>: frame = <origin> in the parent link; axes in that frame.
  void urdfLoopJoint() {
    const std::string text = kUrdfLoop;
    const MechanismSpec s = parseUrdf(text, "t.urdf", ".");
    const JointSpec& u = joint(s, "u");
    QCOMPARE(int(u.type), int(JointType::Universal));
    QCOMPARE(u.body1, std::string("a"));
    QVERIFY(near(u.point, Vec3(1, 0, 1)));
    QVERIFY(near(u.axis1, Vec3(0, 1, 0)));
    QVERIFY(near(u.axis2, Vec3(0, 0, 1)));
  }

  /// MJCF: default classes (nested, inherited), euler sequences, two joints in one body
  /// (an intermediate body), connect → spherical at body1's anchor, sites → handles.
  void mjcfDefaultsFramesAndLoops() {
    const std::string text = kMjcfDefaults;
    const MechanismSpec s = parseMjcf(text, "m.xml", ".");
    // euler "zyx" (moving axes): 90° about z first: a's frame is Rz(90°).
    const BodySpec& a = body(s, "a");
    QVERIFY(near(a.position, Vec3(1, 0, 0)));
    QVERIFY(a.orientation.angularDistance(Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()))) < 1e-12);
    // Class "arm": axis (1,0,0) in a → world (0,1,0); range ±45° → limits ±π/4.
    const JointSpec& j1 = joint(s, "j1");
    QVERIFY(near(j1.axis, Vec3(0, 1, 0)));
    QVERIFY(j1.limits && std::abs(j1.limits->second - kPi / 4) < 1e-12);
    // Two joints: world —j1— a/j1 —j2— a.
    QCOMPARE(j1.body1, std::string("world"));
    QCOMPARE(j1.body2, std::string("a/j1"));
    QCOMPARE(joint(s, "j2").body2, std::string("a"));
    QVERIFY(near(joint(s, "j2").axis, Vec3(0, 0, 1)));
    // class="main" on j3: axis (0,1,0) in b (b's frame = a's) → world (-1,0,0); no range → no limits.
    QVERIFY(near(joint(s, "j3").axis, Vec3(-1, 0, 0)));
    QVERIFY(!joint(s, "j3").limits);
    // The nested class gives the box its size (half sizes doubled).
    QVERIFY(near(a.shapes.at(0).size, Vec3(0.2, 0.4, 0.6)));
    // ... and its sliding friction (the geom without one has none: the contact section's)
    QVERIFY(a.shapes.at(0).friction && *a.shapes.at(0).friction == 0.8);
    QVERIFY(!body(s, "b").shapes.at(0).friction);
    // b at a + Rz(90°)(0,1,0) = (0,0,0); the connect anchor (0,0,1) in b → world (0,0,1).
    QVERIFY(near(body(s, "b").position, Vec3(0, 0, 0)));
    QCOMPARE(int(joint(s, "c").type), int(JointType::Spherical));
    QVERIFY(near(joint(s, "c").point, Vec3(0, 0, 1)));
    // Site → handle at a + Rz(90°)(0,1,0).
    QCOMPARE(int(s.handles.size()), 1);
    QVERIFY(near(s.handles[0].point, Vec3(0, 0, 0)));
    QCOMPARE(s.units.angle, std::string("deg"));
    // The spec compiles (driverless) and the world is fixed.
    QVERIFY(body(s, "world").fixed);
    compileSpec(s);
  }

  /// SDF: poses resolved by libsdformat (relative_to), universal joints, static models, several
  /// models in a world (scoped names).
  void sdfJointsAndWorlds() {
    const std::string text = kSdfWorld;
    const MechanismSpec s = parseSdf(text, "w.sdf", ".");
    QCOMPARE(s.name, std::string("w"));
    // b = a ∘ (1,0,0): (1,0,0) + Rz(90°)(1,0,0) = (1,1,0).
    QVERIFY(near(body(s, "m::b").position, Vec3(1, 1, 0)));
    // ja: in the child a's frame, axis (1,0,0) → world (0,1,0); SDF's default ±1e16 = unlimited.
    const JointSpec& ja = joint(s, "m::ja");
    QCOMPARE(ja.body1, std::string("world"));
    QVERIFY(near(ja.point, Vec3(1, 0, 0)));
    QVERIFY(near(ja.axis, Vec3(0, 1, 0)));
    QVERIFY(!ja.limits);
    // u: pose in b's frame → (1,1,0.5); axes in the joint frame (= b's axes, Rz(90°)).
    const JointSpec& u = joint(s, "m::u");
    QCOMPARE(int(u.type), int(JointType::Universal));
    QVERIFY(near(u.point, Vec3(1, 1, 0.5)));
    QVERIFY(near(u.axis1, Vec3(0, 1, 0)));
    QVERIFY(near(u.axis2, Vec3(-1, 0, 0)));
    QVERIFY(body(s, "table::top").fixed);
    QVERIFY(!body(s, "m::a").fixed);
  }

  /// A .xml file is read by the importer its root element names.
  void xmlDispatchByRootElement() {
    QTemporaryDir tmp;
    const QString p = tmp.path() + "/robot.xml";
    {
      std::ofstream out(p.toStdString());
      out << "<?xml version=\"1.0\"?>\n<!-- a URDF saved as .xml -->\n<robot name=\"r\"><link name=\"l\"/></robot>\n";
    }
    QVERIFY(importFormatOf(p.toStdString()) == ImportFormat::Urdf);
    const MechanismSpec s = readMechanismFile(p.toStdString());
    QCOMPARE(s.name, std::string("r"));
    QCOMPARE(int(s.bodies.size()), 1);
  }
};

QTEST_APPLESS_MAIN(TestImportFormats)
#include "test_import_formats.moc"
