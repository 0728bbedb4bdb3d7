// tests/io/test_import_real.cpp — tests core/io/import on public robot descriptions: the real
// UR5 and Panda of mechanisms/{urdf,mjcf,sdf} with their real collision meshes (models/ur5,
// models/panda), and the unmodified public files of tests/data/import/real (README there).
//
// Independent references: the robots' published values, typed here from their sources — the UR5
// masses, centres of mass and link lengths of Universal Robots' description (a2 = 0.425 m,
// a3 = 0.39225 m), the Panda masses and centres of mass of Franka's robots/fer/inertials.yaml.
// The mesh check ties each UR5 arm mesh to the published link length: the mesh reaches from one
// joint housing to the next, so its ends lie a housing radius beyond the two joint axes. The
// UR5's published Collada visuals are checked against its STL collisions (tests/data/import/real/
// ur5_meshes), and floating bases on the public URDFs.
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

#include "core/data.h"
#include "core/io/import/import.h"
#include "core/io/load.h"
#include "core/io/mesh.h"
#include "core/io/write.h"
#include "core/kinematics/kinematics.h"

using namespace mechsim;
using namespace mechsim::io;

namespace {
const QString kSource = QStringLiteral(MECHSIM_SOURCE_DIR);
std::string path(const QString& rel) { return (kSource + "/" + rel).toStdString(); }

struct Published {
  const char* link;
  double mass;
  Vec3 com;  // in the link frame
};
// Universal Robots UR5 (ur_description; the upper arm and forearm centres of mass are given with
// an inertial frame turned by π/2 about y, which does not move the point).
const Published kUr5[] = {
    {"base_link_inertia", 4.0, {0, 0, 0}},           {"shoulder_link", 3.7, {0.0, -0.00193, -0.02561}},
    {"upper_arm_link", 8.393, {-0.2125, 0.0, 0.11336}}, {"forearm_link", 2.33, {-0.24225, 0.0, 0.0265}},
    {"wrist_1_link", 1.219, {0.0, -0.01634, -0.0018}}, {"wrist_2_link", 1.219, {0.0, 0.01634, -0.0018}},
    {"wrist_3_link", 0.1879, {0.0, 0.0, -0.001159}},
};
// Franka Robotics, franka_description robots/fer/inertials.yaml.
const Published kPanda[] = {
    {"panda_link1", 2.7907, {0.00033, -0.02204, -0.04762}}, {"panda_link2", 2.5420, {0.00038, -0.09211, 0.01908}},
    {"panda_link3", 2.2513, {0.05152, 0.01696, -0.02971}},  {"panda_link4", 2.2037, {-0.05113, 0.05825, 0.01698}},
    {"panda_link5", 2.2855, {-0.00005, 0.03730, -0.09280}}, {"panda_link6", 1.353, {0.06572, -0.00371, 0.00153}},
    {"panda_link7", 0.35973, {0.00089, -0.00044, 0.05491}}, {"panda_hand", 0.73, {-0.01, 0, 0.03}},
    {"panda_leftfinger", 0.015, {0, 0, 0}},                 {"panda_rightfinger", 0.015, {0, 0, 0}},
};

/// Extent of a body's mesh shapes in the body frame (min, max).
std::pair<Vec3, Vec3> meshExtent(const Body& b) {
  Vec3 lo = Vec3::Constant(1e9), hi = Vec3::Constant(-1e9);
  for (const Shape& s : b.shapes) {
    if (s.type != ShapeType::Mesh || !s.mesh) continue;
    for (const Eigen::Vector3f& v : s.mesh->vertices) {
      const Vec3 p = s.local.apply(s.scale * v.cast<double>());
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
  }
  return {lo, hi};
}
}  // namespace

class TestImportReal : public QObject {
  Q_OBJECT
 private slots:
  void armsMatchPublishedValues_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("panda");
    for (const char* f : {"urdf/ur5.urdf", "mjcf/ur5.xml", "sdf/ur5.sdf"})
      QTest::newRow(f) << QString("mechanisms/") + f << false;
    for (const char* f : {"urdf/panda.urdf", "mjcf/panda.xml", "sdf/panda.sdf"})
      QTest::newRow(f) << QString("mechanisms/") + f << true;
  }
  /// DOF = the robot's joint count (UR5: 6; Panda: 7 + 2 fingers, the finger mimic not coupled),
  /// masses and centres of mass as published, every collision mesh found and loaded.
  void armsMatchPublishedValues() {
    QFETCH(QString, file);
    QFETCH(bool, panda);
    const MechanismSpec spec = readMechanismFile(path(file));
    for (const std::string& w : spec.warnings) {
      // The only warnings: Franka's published link4 inertia violates the triangle inequality
      // (principal moments 0.00368, 0.00796, 0.01274), and URDF's finger <mimic>.
      const bool expected = panda && (w.find("\"panda_link4\": the principal moments") != std::string::npos ||
                                       w.find("<mimic> is not supported") != std::string::npos);
      QVERIFY2(expected, w.c_str());
      QVERIFY(w.find("not found") == std::string::npos);
    }
    const Model m = compileSpec(spec);
    Data d = makeData(m);
    const MobilityReport r = analyseMobility(m, d);
    QCOMPARE(r.dof, panda ? 9 : 6);
    QVERIFY(r.residual < 1e-12);
    int meshes = 0;
    for (const Published& p : panda ? std::vector<Published>(std::begin(kPanda), std::end(kPanda))
                                    : std::vector<Published>(std::begin(kUr5), std::end(kUr5))) {
      const int bi = m.findBody(p.link);
      QVERIFY2(bi >= 0, p.link);
      const Body& b = m.bodies[std::size_t(bi)];
      QVERIFY2(std::abs(b.mass - p.mass) < 1e-12, qPrintable(QString("%1 mass %2").arg(p.link).arg(b.mass)));
      QVERIFY2((b.com - p.com).norm() < 1e-9, p.link);
      for (const Shape& s : b.shapes) meshes += s.type == ShapeType::Mesh && s.mesh && s.mesh->indices.size() >= 90;
    }
    QCOMPARE(meshes, panda ? 10 : 7);
  }

  /// The UR5 meshes against the published link lengths: along the link (the body x axis of the
  /// upper arm and forearm) the mesh reaches from this link's joint housing to the next one's,
  /// the next joint axis lying at x = −a.
  void ur5MeshesFitPublishedLinkLengths_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("urdf") << "mechanisms/urdf/ur5.urdf";
    QTest::newRow("mjcf") << "mechanisms/mjcf/ur5.xml";
    QTest::newRow("sdf") << "mechanisms/sdf/ur5.sdf";
  }
  void ur5MeshesFitPublishedLinkLengths() {
    QFETCH(QString, file);
    const Model m = loadModel(path(file));
    for (const auto& [link, a] : {std::pair<const char*, double>{"upper_arm_link", 0.425}, {"forearm_link", 0.39225}}) {
      const auto [lo, hi] = meshExtent(m.bodies[std::size_t(m.findBody(link))]);
      // The far end lies a joint-housing radius (30..70 mm) beyond the next joint axis at x = −a,
      // the near end a housing radius beyond this link's joint axis at x = 0.
      const QString msg = QString("%1: x from %2 to %3").arg(link).arg(lo.x()).arg(hi.x());
      QVERIFY2(lo.x() < -a - 0.03 && lo.x() > -a - 0.07, qPrintable(msg));
      QVERIFY2(hi.x() > 0.03 && hi.x() < 0.07, qPrintable(msg));
    }
    // The base across: the UR5's published footprint diameter, 149 mm.
    const auto [blo, bhi] = meshExtent(m.bodies[std::size_t(m.findBody("base_link_inertia"))]);
    QVERIFY2(std::abs((bhi.x() - blo.x()) - 0.149) < 0.003, qPrintable(QString::number(bhi.x() - blo.x())));
  }

  /// Save as native JSON, read back: the same compiled model (every mesh found again).
  void nativeRoundTrip_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"mechanisms/urdf/ur5.urdf", "mechanisms/mjcf/panda.xml", "mechanisms/sdf/panda.sdf",
                          "tests/data/import/real/ant.xml", "tests/data/import/real/kuka_iiwa.urdf",
                          "tests/data/import/real/kuka_iiwa.sdf", "tests/data/import/real/ur5e.xml",
                          "tests/data/import/real/panda_pybullet.urdf"})
      QTest::newRow(f) << QString(f);
  }
  void nativeRoundTrip() {
    QFETCH(QString, file);
    const MechanismSpec a = readMechanismFile(path(file));
    QTemporaryDir tmp;
    QDir().mkpath(tmp.path() + "/deeper/folder");
    const std::string out = (tmp.path() + "/deeper/folder/saved.json").toStdString();
    writeMechanismFile(a, out);
    const MechanismSpec b = readMechanismFile(out);
    QVERIFY(b.warnings.empty());  // placeholders are saved as boxes, meshes rebased on the new folder
    const Model ma = compileSpec(a), mb = compileSpec(b);
    QCOMPARE(mb.bodies.size(), ma.bodies.size());
    for (std::size_t i = 0; i < ma.bodies.size(); ++i) {
      const Body &x = ma.bodies[i], &y = mb.bodies[i];
      QCOMPARE(y.name, x.name);
      QVERIFY(std::abs(y.mass - x.mass) <= 1e-12 * std::max(1.0, x.mass));
      QVERIFY((y.com - x.com).norm() <= 1e-12);
      QVERIFY((y.inertia - x.inertia).norm() <= 1e-12 * std::max(1.0, x.inertia.norm()));
      QVERIFY((y.pose0.position - x.pose0.position).norm() <= 1e-12);
      QCOMPARE(y.shapes.size(), x.shapes.size());
      for (std::size_t k = 0; k < x.shapes.size(); ++k) QCOMPARE(y.shapes[k].mesh != nullptr, x.shapes[k].mesh != nullptr);
    }
    QCOMPARE(mb.joints.size(), ma.joints.size());
    QCOMPARE(mb.nq, ma.nq);
    QVERIFY((mb.q0 - ma.q0).cwiseAbs().maxCoeff() <= 1e-12);
  }

  /// The unmodified public files: each loads with the robot's DOF, and its absent meshes give
  /// one warning per reference and a 5 cm placeholder box — or it fails for a documented reason.
  void publicFiles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("dof");              // −1: refused
    QTest::addColumn<int>("missingMeshes");    // warnings "mesh ... not found"
    QTest::addColumn<QString>("otherWarning");  // a further expected warning (or error) text
    QTest::newRow("menagerie ur5e (nested defaults, meshdir, actuators)")
        << "ur5e.xml" << 6 << 20 << "";
    QTest::newRow("menagerie ur5e scene (<include>)")
        << "ur5e_scene.xml" << 6 << 20 << "an infinite plane geom is left out";
    QTest::newRow("gym ant (free joint, fromto capsules, degrees)") << "ant.xml" << 14 << 0 << "";
    QTest::newRow("pybullet panda (mimic, contact, fixed axis 0 0 0)")
        << "panda_pybullet.urdf" << 9 << 22 << "<mimic> is not supported";
    QTest::newRow("kuka iiwa urdf (BSD-2 header, materials)") << "kuka_iiwa.urdf" << 7 << 16 << "";
    QTest::newRow("kuka iiwa sdf 1.6 (world, pose frame='', free base)") << "kuka_iiwa.sdf" << 13 << 16 << "";
  }
  void publicFiles() {
    QFETCH(QString, file);
    QFETCH(int, dof);
    QFETCH(int, missingMeshes);
    QFETCH(QString, otherWarning);
    const std::string p = path("tests/data/import/real/" + file);
    if (dof < 0) {
      try {
        readMechanismFile(p);
        QFAIL("the file loaded");
      } catch (const LoadError& e) {
        const std::string msg = e.what();
        QVERIFY2(msg.find(otherWarning.toStdString()) != std::string::npos, msg.c_str());
        QVERIFY2(msg.find(file.toStdString() + ":3:") != std::string::npos, msg.c_str());  // at the element
      }
      return;
    }
    const MechanismSpec spec = readMechanismFile(p);
    int missing = 0;
    bool other = otherWarning.isEmpty();
    for (const std::string& w : spec.warnings) {
      if (w.find("not found") != std::string::npos) ++missing;
      else if (!otherWarning.isEmpty() && w.find(otherWarning.toStdString()) != std::string::npos) other = true;
      else QFAIL(w.c_str());
    }
    QCOMPARE(missing, missingMeshes);
    QVERIFY(other);
    const Model m = compileSpec(spec);
    int placeholders = 0;
    for (const Body& b : m.bodies)
      for (const std::vector<Shape>* list : {&b.shapes, &b.visuals})
        for (const Shape& s : *list) placeholders += s.type == ShapeType::Box && std::abs(s.size.x() - 0.05) < 1e-15;
    QVERIFY(placeholders >= (missingMeshes > 0 ? missingMeshes / 2 : 0));
    Data d = makeData(m);
    const MobilityReport r = analyseMobility(m, d);
    QCOMPARE(r.dof, dof);
    QVERIFY(r.residual < 1e-12);
  }

  /// The UR5's Collada visuals (Z_UP, metres, as ros-industrial/universal_robot publishes them)
  /// coincide with its STL collision meshes, which the URDF places at the same origins: each
  /// bounding box within 1 mm of the other's (issue 46, item 1). Assimp would turn a Z_UP file
  /// 90° about x; read so, the boxes of these four links are 5 to 130 mm apart.
  void ur5ColladaVisualsMatchCollisions() {
    const QDir visual(kSource + "/tests/data/import/real/ur5_meshes/visual");
    const QStringList daes = visual.entryList({"*.dae"}, QDir::Files, QDir::Name);
    QVERIFY(daes.size() >= 4);
    auto box = [](const MeshData& m) {
      Vec3 lo = Vec3::Constant(1e9), hi = Vec3::Constant(-1e9);
      for (const Eigen::Vector3f& v : m.vertices) {
        lo = lo.cwiseMin(v.cast<double>());
        hi = hi.cwiseMax(v.cast<double>());
      }
      return std::make_pair(lo, hi);
    };
    for (const QString& f : daes) {
      const auto dae = loadMeshFile(visual.filePath(f).toStdString());
      const auto stl = loadMeshFile((kSource + "/tests/data/import/real/ur5_meshes/collision/" + QFileInfo(f).completeBaseName() + ".stl").toStdString());
      const auto [dl, dh] = box(*dae);
      const auto [sl, sh] = box(*stl);
      const double off = std::max((dl - sl).cwiseAbs().maxCoeff(), (dh - sh).cwiseAbs().maxCoeff());
      QVERIFY2(off < 1e-3, qPrintable(QString("%1: the visual's box is %2 mm from the collision's").arg(f).arg(off * 1e3)));
      QVERIFY((dh - dl).minCoeff() > 0.02);  // a real extent, not a point
    }
  }

  /// Collada <unit meter="..."> scales the file's coordinates to metres, and <up_axis> is not
  /// applied (RViz and Gazebo read it so): a Z_UP triangle in millimetres keeps its axes.
  void colladaUnitAndUpAxis() {
    QTemporaryDir tmp;
    const std::string p = (tmp.path() + "/mm.dae").toStdString();
    // Single-quoted attributes in plain literals: moc misreads raw strings that hold "//".
    std::ofstream(p) << "<?xml version='1.0' encoding='utf-8'?>\n"
                        "<COLLADA xmlns='http://www.collada.org/2005/11/COLLADASchema' version='1.4.1'>\n"
                        "  <asset><unit name='millimeter' meter='0.001'/><up_axis>Z_UP</up_axis></asset>\n"
                        "  <library_geometries><geometry id='g'><mesh>\n"
                        "    <source id='p'><float_array id='pa' count='9'>0 0 0 100 0 0 0 20 300</float_array>\n"
                        "      <technique_common><accessor source='#pa' count='3' stride='3'><param name='X' type='float'/>"
                        "<param name='Y' type='float'/><param name='Z' type='float'/></accessor></technique_common></source>\n"
                        "    <vertices id='v'><input semantic='POSITION' source='#p'/></vertices>\n"
                        "    <triangles count='1'><input semantic='VERTEX' source='#v' offset='0'/><p>0 1 2</p></triangles>\n"
                        "  </mesh></geometry></library_geometries>\n"
                        "  <library_visual_scenes><visual_scene id='s'><node id='n'><instance_geometry url='#g'/></node>"
                        "</visual_scene></library_visual_scenes>\n"
                        "  <scene><instance_visual_scene url='#s'/></scene>\n"
                        "</COLLADA>\n";
    const auto m = loadMeshFile(p);
    Vec3 hi = Vec3::Constant(-1e9);
    for (const Eigen::Vector3f& v : m->vertices) hi = hi.cwiseMax(v.cast<double>());
    QVERIFY2((hi - Vec3(0.1, 0.02, 0.3)).norm() < 1e-7, qPrintable(QString("%1 %2 %3").arg(hi.x()).arg(hi.y()).arg(hi.z())));
  }

  /// A loop closed by a <joint> in a <gazebo> block (Gazebo's URDF extension) is read: the
  /// four-bar's tree (3 DOF) closed at C has mobility 1, C where the rocker tip is drawn. The two
  /// that cannot be read (a gearbox, a missing link) are warnings that say the loop stays open.
  void gazeboLoopJoint() {
    const MechanismSpec s = readMechanismFile(path("tests/data/import/urdf_fourbar_gazebo_loop.urdf"));
    const JointSpec* c = nullptr;
    for (const JointSpec& j : s.joints)
      if (j.name == "C") c = &j;
    QVERIFY(c);
    QCOMPARE(int(c->type), int(JointType::Revolute));
    QCOMPARE(c->body1, std::string("rocker"));
    QCOMPARE(c->body2, std::string("coupler"));
    // The rocker tip: 0.3 m from D = (0.4, 0, 0) at the rocker's angle 1.7958 rad.
    const Vec3 tip = Vec3(0.4, 0, 0) + 0.3 * Vec3(std::cos(1.7957749733962085), std::sin(1.7957749733962085), 0);
    QVERIFY2((c->point - tip).norm() < 1e-9, qPrintable(QString("%1 %2").arg(c->point.x()).arg(c->point.y())));
    QVERIFY((c->axis - Vec3::UnitZ()).norm() < 1e-12);
    const Model m = compileSpec(s);
    Data d = makeData(m);
    const MobilityReport r = analyseMobility(m, d);
    QVERIFY2(r.residual < 1e-9, std::to_string(r.residual).c_str());
    QCOMPARE(r.dof, 1);
    int skipped = 0;
    for (const std::string& w : s.warnings)
      if (w.find("the loop it closes stays open") != std::string::npos) {
        ++skipped;
        QVERIFY2(w.find("urdf_fourbar_gazebo_loop.urdf:") != std::string::npos && w.find(": warning: Gazebo joint") != std::string::npos,
                 w.c_str());
        QVERIFY2(w.find("\"gear\"") != std::string::npos ? w.find("type \"gearbox\"") != std::string::npos
                                                           : w.find("no link \"wheel\"") != std::string::npos,
                 w.c_str());
      }
    QCOMPARE(skipped, 2);
  }

  /// A floating base (issue 46, item 2): the URDF's root link free, six DOF more and no body
  /// fixed — the KUKA iiwa (7 + 6) and a quadruped (4 legs × 2 + 6); MJCF free joints and SDFormat
  /// models not joined to the world float already (ant.xml: 6 + 8, kuka_iiwa.sdf: 6 + 7), and the
  /// option says that it changes nothing there.
  void floatingBase() {
    auto dofOf = [](const MechanismSpec& s) {
      const Model m = compileSpec(s);
      Data d = makeData(m);
      const MobilityReport r = analyseMobility(m, d);
      if (!(r.residual < 1e-12)) return -1;
      return r.dof;
    };
    ImportOptions floating;
    floating.floatingBase = true;
    const std::string kuka = path("tests/data/import/real/kuka_iiwa.urdf");
    const MechanismSpec bolted = readMechanismFile(kuka);
    const MechanismSpec free = readMechanismFile(kuka, floating);
    QCOMPARE(dofOf(bolted), 7);
    QCOMPARE(dofOf(free), 13);
    for (const BodySpec& b : free.bodies) QVERIFY2(!b.fixed, b.name.c_str());
    // The missing meshes, and the massless root (mass 0 in the file) named.
    QCOMPARE(free.warnings.size(), bolted.warnings.size() + 1);
    QVERIFY2(free.warnings[0].find("floating base: the root link \"lbr_iiwa_link_0\" has no mass; it gets the nominal 1 g") !=
                 std::string::npos,
             free.warnings[0].c_str());

    // A quadruped: a trunk and four legs of a hip and a knee each.
    const std::string inertia = "<inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' iyz='0'/>";
    std::string quadruped = "<robot name='dog'><link name='trunk'><inertial><mass value='10'/>" + inertia + "</inertial></link>\n";
    for (const std::string leg : {"fl", "fr", "hl", "hr"})
      quadruped += "<link name='" + leg + "_thigh'><inertial><mass value='1'/>" + inertia + "</inertial></link>\n" +
                   "<link name='" + leg + "_shank'><inertial><mass value='0.5'/>" + inertia + "</inertial></link>\n" +
                   "<joint name='" + leg + "_hip' type='revolute'><parent link='trunk'/><child link='" + leg +
                   "_thigh'/><origin xyz='0.2 0.1 0'/><axis xyz='0 1 0'/><limit lower='-1' upper='1' effort='30' velocity='10'/></joint>\n" +
                   "<joint name='" + leg + "_knee' type='revolute'><parent link='" + leg + "_thigh'/><child link='" + leg +
                   "_shank'/><origin xyz='0 0 -0.2'/><axis xyz='0 1 0'/><limit lower='-2' upper='0' effort='30' velocity='10'/></joint>\n";
    quadruped += "</robot>";
    QCOMPARE(dofOf(parseUrdf(quadruped, "dog.urdf", ".")), 8);
    const MechanismSpec dog = parseUrdf(quadruped, "dog.urdf", ".", floating);
    QVERIFY(dog.warnings.empty());
    QCOMPARE(dofOf(dog), 14);

    // A root link named "world" floats too, with a warning.
    const MechanismSpec w = parseUrdf("<robot name='w'><link name='world'/><link name='base'><inertial><mass value='1'/>" + inertia +
                                          "</inertial></link><joint name='fix' type='fixed'><parent link='world'/>"
                                          "<child link='base'/></joint></robot>",
                                      "w.urdf", ".", floating);
    QCOMPARE(int(w.warnings.size()), 2);  // and its having no mass
    QVERIFY2(w.warnings[0].rfind("w.urdf:1:17: warning: floating base: the root link is \"world\"", 0) == 0, w.warnings[0].c_str());
    QCOMPARE(dofOf(w), 6);

    // MJCF and SDFormat: already free where the file says so; the option only adds a note.
    const MechanismSpec ant = readMechanismFile(path("tests/data/import/real/ant.xml"), floating);
    QCOMPARE(dofOf(ant), 14);
    QVERIFY(!ant.warnings.empty() && ant.warnings.back().find("the floating-base option is for URDF files") != std::string::npos);
    const MechanismSpec sdf = readMechanismFile(path("tests/data/import/real/kuka_iiwa.sdf"), floating);
    QCOMPARE(dofOf(sdf), 13);
  }

  /// Menagerie's scene.xml includes ur5e.xml and adds a second <asset> and <worldbody> (lights,
  /// an infinite floor): the same bodies, masses, joints and DOF as ur5e.xml read on its own.
  void menagerieSceneIncludesArm() {
    const Model arm = loadModel(path("tests/data/import/real/ur5e.xml"));
    const Model scene = loadModel(path("tests/data/import/real/ur5e_scene.xml"));
    QCOMPARE(scene.bodies.size(), arm.bodies.size());
    QVERIFY(arm.bodies.size() > 6);
    for (std::size_t i = 0; i < arm.bodies.size(); ++i) {
      QCOMPARE(scene.bodies[i].name, arm.bodies[i].name);
      QCOMPARE(scene.bodies[i].mass, arm.bodies[i].mass);
      QVERIFY((scene.bodies[i].pose0.position - arm.bodies[i].pose0.position).norm() == 0);
    }
    QCOMPARE(scene.joints.size(), arm.joints.size());
    Data da = makeData(arm), ds = makeData(scene);
    QCOMPARE(analyseMobility(scene, ds).dof, analyseMobility(arm, da).dof);
  }

  /// <include> semantics: anywhere in the tree, nested, relative to the top-level file's folder
  /// (not the including file's), repeated sections merged in order; an error inside an included
  /// file names that file and its line:col, and where it was included.
  void includeSemantics() {
    QTemporaryDir tmp;
    QDir().mkpath(tmp.path() + "/parts");
    auto write = [&](const QString& rel, const std::string& text) {
      std::ofstream((tmp.path() + "/" + rel).toStdString()) << text;
    };
    write("main.xml", R"(<mujoco model="m">
  <include file="parts/defaults.xml"/>
  <default><default class="thin"><geom size="0.01"/></default></default>
  <worldbody>
    <body name="a"><joint name="ja"/><geom class="big" type="sphere"/>
      <include file="parts/child.xml"/>
    </body>
  </worldbody>
  <worldbody><body name="c" pos="1 0 0"><joint name="jc" type="slide"/><geom class="thin" type="sphere"/></body></worldbody>
</mujoco>)");
    write("parts/defaults.xml", R"(<mujoco><compiler angle="radian"/><default><default class="big"><geom size="0.2"/></default></default></mujoco>)");
    // parts/child.xml includes parts/leaf.xml: the path is relative to main.xml's folder.
    write("parts/child.xml", "<mujoco>\n  <body name=\"b\" pos=\"0 0 1\"><joint name=\"jb\"/><geom type=\"sphere\" size=\"0.1\"/>\n"
                             "    <include file=\"parts/leaf.xml\"/></body>\n</mujoco>\n");
    write("parts/leaf.xml", "<mujoco>\n\n  <site name=\"tip\" pos=\"0 0 0.5\"/>\n</mujoco>\n");
    const std::string main = (tmp.path() + "/main.xml").toStdString();
    const MechanismSpec s = readMechanismFile(main);
    QCOMPARE(int(s.bodies.size()), 4);  // world, a, b, c
    QCOMPARE(int(s.joints.size()), 3);
    QCOMPARE(s.bodies[1].shapes.at(0).radius, 0.2);  // class from the included <default>
    QCOMPARE(s.bodies[3].shapes.at(0).radius, 0.01);  // class from the second <default>
    QCOMPARE(s.bodies[3].name, std::string("c"));     // second <worldbody>
    QCOMPARE(int(s.handles.size()), 1);
    QCOMPARE(s.handles[0].body, std::string("b"));
    QVERIFY((s.handles[0].point - Vec3(0, 0, 1.5)).norm() < 1e-15);
    // An error in the nested include: its file, line and column, and the chain of includes.
    write("parts/leaf.xml", "<mujoco>\n\n  <site name=\"tip\" pos=\"0 0 0.5 1\"/>\n</mujoco>\n");
    try {
      readMechanismFile(main);
      QFAIL("no error");
    } catch (const LoadError& e) {
      const std::string leaf = (tmp.path() + "/parts/leaf.xml").toStdString();
      QCOMPARE(QString::fromStdString(e.diagnostic().file), QString::fromStdString(leaf));
      QCOMPARE(e.diagnostic().line, 3);
      QCOMPARE(e.diagnostic().col, 20);
      const std::string note = "(included from " + (tmp.path() + "/parts/child.xml").toStdString() + ":3:5, included from " + main + ":6:7)";
      QVERIFY2(std::string(e.what()).find(note) != std::string::npos, e.what());
    }
    // Deeper than 32 levels: an error, not a stack overflow.
    for (int i = 0; i < 40; ++i)
      write(QString("parts/d%1.xml").arg(i), "<mujoco><include file=\"parts/d" + std::to_string(i + 1) + ".xml\"/></mujoco>");
    write("deep.xml", "<mujoco><include file=\"parts/d0.xml\"/><worldbody/></mujoco>");
    try {
      readMechanismFile((tmp.path() + "/deep.xml").toStdString());
      QFAIL("no error");
    } catch (const LoadError& e) {
      QVERIFY2(std::string(e.what()).find("nested more than 32 deep") != std::string::npos, e.what());
    }
  }

  /// ROS description extensions are outside the kinematic model and skipped without a warning:
  /// <gazebo> (reference and plugin forms) and <transmission>.
  void rosExtensionsSkipped() {
    const std::string text = R"(<robot name="r"><link name="base"/>
  <link name="a"><inertial><mass value="2"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j" type="continuous"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/></joint>
  <gazebo reference="a"><material>Gazebo/Orange</material><mu1>0.2</mu1></gazebo>
  <gazebo><plugin name="c" filename="libgazebo_ros_control.so"><robotNamespace>/r</robotNamespace></plugin></gazebo>
  <transmission name="t"><type>transmission_interface/SimpleTransmission</type>
    <joint name="j"><hardwareInterface>EffortJointInterface</hardwareInterface></joint></transmission></robot>)";
    const MechanismSpec s = parseUrdf(text, "g.urdf", ".");
    QVERIFY(s.warnings.empty());
    QCOMPARE(int(s.bodies.size()), 2);
    QCOMPARE(int(s.joints.size()), 1);
  }
};

QTEST_APPLESS_MAIN(TestImportReal)
#include "test_import_real.moc"
