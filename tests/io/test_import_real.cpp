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
// ur5_meshes), and floating bases on the public URDFs. MuJoCo's own models (tests/data/import/
// real/mujoco) check the MJCF meta-elements and forms of issue 46 item 5: box fromto, inline
// meshes, site-based equalities, <frame>, <replicate>, <attach>, <flexcomp>, <composite>; their
// DOF are those the files' comments or MuJoCo's own counts give (humanoid100: "Degree of Freedom: 627").
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <map>

#include "core/data.h"
#include "core/io/import/convex_hull.h"
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
  /// DOF = the robot's published DOF (UR5: 6; Panda: 7 + the gripper's 1, URDF's finger <mimic>
  /// coupling the second finger to the first; the MJCF and SDFormat files leave the fingers apart: 9),
  /// masses and centres of mass as published, every collision mesh found and loaded.
  void armsMatchPublishedValues() {
    QFETCH(QString, file);
    QFETCH(bool, panda);
    const MechanismSpec spec = readMechanismFile(path(file));
    for (const std::string& w : spec.warnings) {
      // The only warning: Franka's published link4 inertia violates the triangle inequality
      // (principal moments 0.00368, 0.00796, 0.01274).
      const bool expected = panda && w.find("\"panda_link4\": the principal moments") != std::string::npos;
      QVERIFY2(expected, w.c_str());
      QVERIFY(w.find("not found") == std::string::npos);
    }
    const Model m = compileSpec(spec);
    Data d = makeData(m);
    const MobilityReport r = analyseMobility(m, d);
    QCOMPARE(r.dof, panda ? (file.endsWith(".urdf") ? 8 : 9) : 6);
    if (panda && file.endsWith(".urdf")) {
      QCOMPARE(int(m.couplings.size()), 1);
      QCOMPARE(m.joints[std::size_t(m.couplings[0].joint)].name, std::string("panda_finger_joint2"));
      QCOMPARE(m.joints[std::size_t(m.couplings[0].leader)].name, std::string("panda_finger_joint1"));
    }
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
                          "tests/data/import/real/panda_pybullet.urdf", "tests/data/import/real/mujoco/humanoid100.xml",
                          "tests/data/import/real/mujoco/newton_cradle.xml", "tests/data/import/real/mujoco/equality_site.xml",
                          "tests/data/import/real/mujoco/flex/jelly.xml",
                          "tests/data/import/real/mujoco/gmsh/cube_41_ascii_vol_gmshApp.xml",
                          "tests/data/import/real/mujoco/car.xml"})  // an inline mesh: written beside as OBJ
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
      for (std::size_t k = 0; k < x.shapes.size(); ++k) {
        QCOMPARE(y.shapes[k].mesh != nullptr, x.shapes[k].mesh != nullptr);
        if (!x.shapes[k].mesh) continue;
        QCOMPARE(y.shapes[k].mesh->indices.size(), x.shapes[k].mesh->indices.size());
        for (std::size_t v = 0; v < x.shapes[k].mesh->vertices.size(); ++v)
          QVERIFY((y.shapes[k].mesh->vertices[v] - x.shapes[k].mesh->vertices[v]).norm() <= 1e-6f * (1 + x.shapes[k].mesh->vertices[v].norm()));
      }
    }
    QCOMPARE(mb.joints.size(), ma.joints.size());
    QCOMPARE(mb.nq, ma.nq);
    QVERIFY(ma.nq == 0 || (mb.q0 - ma.q0).cwiseAbs().maxCoeff() <= 1e-12);  // (a flexcomp alone: no coordinates)
    QCOMPARE(b.deformables.size(), a.deformables.size());
    for (std::size_t i = 0; i < a.deformables.size(); ++i) {
      const DeformableSpec &x = a.deformables[i], &y = b.deformables[i];
      QCOMPARE(y.vertices.size(), x.vertices.size());
      QCOMPARE(y.tets, x.tets);
      for (std::size_t k = 0; k < x.vertices.size(); ++k) QVERIFY((y.vertices[k] - x.vertices[k]).norm() <= 1e-12);
      QVERIFY(std::abs(y.density - x.density) <= 1e-12 * x.density);
    }
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
    QTest::newRow("pybullet panda (mimic coupled, contact, fixed axis 0 0 0)")
        << "panda_pybullet.urdf" << 8 << 22 << "";
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
  /// MuJoCo's models (google-deepmind/mujoco, unmodified): each loads with its DOF, its bodies
  /// and deformable parts, and every warning is one of those expected (each of which appears).
  void mujocoModels_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("dof");
    QTest::addColumn<int>("bodies");       // the world included
    QTest::addColumn<int>("deformables");
    QTest::addColumn<QStringList>("warnings");
    const QString plane = "an infinite plane geom is left out";
    QTest::newRow("car (inline mesh as convex hull, free body, 2 wheels)") << "car.xml" << 8 << 4 << 0 << QStringList{};
    QTest::newRow("humanoid (fromto capsules, several joints per body)")
        << "humanoid.xml" << 27 << 26 << 0 << QStringList{plane};
    QTest::newRow("humanoid100 (<attach> humanoid, 100 free objects by nested <replicate> in <frame>s)")
        << "humanoid100.xml" << 627 << 126 << 0 << QStringList{plane, "ellipsoid geom approximated by a sphere"};
    QTest::newRow("newton_cradle (replicated bodies and world sites)") << "newton_cradle.xml" << 42 << 8 << 0 << QStringList{};
    QTest::newRow("bowl (replicated geoms in frames in bodies)") << "bowl.xml" << 18 << 4 << 0 << QStringList{};
    QTest::newRow("connect (box fromto, connect by sites)")
        << "connect.xml" << 9 << 7 << 0 << QStringList{"the sites of <connect> are 0.424264 m apart"};
    QTest::newRow("weld (relpose, weld by sites)")
        << "weld.xml" << 0 << 11 << 0 << QStringList{"weld relpose is not read", "the sites of <weld> are 1 m apart and turned"};
    QTest::newRow("equality_site (connect and weld by sites, world sites)")
        << "equality_site.xml" << 3 << 4 << 0
        << QStringList{"the sites of <connect> are 1 m apart", "the sites of <weld> are 1 m apart and turned 1.5708 rad"};
    QTest::newRow("flex/jelly (3-D grid flexcomp → deformable part)")
        << "flex/jelly.xml" << 0 << 2 << 1 << QStringList{plane};
    QTest::newRow("flex/softbox (3-D box flexcomp in a free body)")
        << "flex/softbox.xml" << 6 << 2 << 1
        << QStringList{plane, "is approximated by a solid box of tetrahedra", "gives no Young's modulus", "has dof=\"radial\"",
                       "pins no point to body \"body\""};
    QTest::newRow("flex/flag (2-D flexcomp left out, its equality too)")
        << "flex/flag.xml" << 0 << 2 << 0
        << QStringList{plane, "<flexcomp name=\"flag\" type=\"grid\" dim=\"2\"> is left out", "bodies flag_0 … flag_170",
                       "<connect> names body \"flag_0\", which MuJoCo makes of the <flexcomp> at line 33"};
    const QString noYoung = "gives no Young's modulus (<elasticity young=\"...\">): the part takes mechsim's default 1e+06 Pa";
    QTest::newRow("gmsh/cube_41 (gmsh 4.1 tetrahedra → deformable part)")
        << "gmsh/cube_41_ascii_vol_gmshApp.xml" << 0 << 1 << 1 << QStringList{noYoung};
    QTest::newRow("gmsh/cube_22 (gmsh 2.2, no dim=: the file's tetrahedra)")
        << "gmsh/cube_22_ascii_vol_gmshApp_missing_dim.xml" << 0 << 1 << 1 << QStringList{noYoung};
    QTest::newRow("gmsh/cube_41 surface (a 2-D flex: left out)")
        << "gmsh/cube_41_ascii_surf_gmshApp.xml" << 0 << 1 << 0
        << QStringList{"<flexcomp name=\"cube\" type=\"gmsh\"> is left out (its file has no tetrahedra"};
    QTest::newRow("elasticity/cable (<composite> cable left out)")
        << "elasticity/cable.xml" << 1 << 2 << 0
        << QStringList{plane, "<composite type=\"cable\"> is not read: left out is its chain of 40 bodies B_first … B_last",
                       "<connect> names body \"B_last\""};
  }
  void mujocoModels() {
    QFETCH(QString, file);
    QFETCH(int, dof);
    QFETCH(int, bodies);
    QFETCH(int, deformables);
    QFETCH(QStringList, warnings);
    const MechanismSpec spec = readMechanismFile(path("tests/data/import/real/mujoco/" + file));
    std::vector<bool> seen(std::size_t(warnings.size()), false);
    for (const std::string& w : spec.warnings) {
      bool known = false;
      for (int k = 0; k < warnings.size(); ++k)
        if (w.find(warnings[k].toStdString()) != std::string::npos) known = seen[std::size_t(k)] = true;
      QVERIFY2(known, w.c_str());
    }
    for (int k = 0; k < warnings.size(); ++k) QVERIFY2(seen[std::size_t(k)], qPrintable(warnings[k]));
    QCOMPARE(int(spec.bodies.size()), bodies);
    QCOMPARE(int(spec.deformables.size()), deformables);
    const Model m = compileSpec(spec);
    Data d = makeData(m);
    const MobilityReport r = analyseMobility(m, d);
    QCOMPARE(r.dof, dof);
    QVERIFY(r.residual < 1e-12);
  }

  /// What the constructs become, against values worked out by hand from the files.
  void mujocoConstructs() {
    const std::string dir = path("tests/data/import/real/mujoco/");
    auto body = [](const MechanismSpec& s, const std::string& name) -> const BodySpec& {
      for (const BodySpec& b : s.bodies)
        if (b.name == name) return b;
      throw std::runtime_error("no body " + name);
    };

    // car: the chassis mesh is the convex hull of its 9 vertices scaled by (.01, .006, .0015): a
    // closed surface holding every vertex, its bounding box the scaled extremes.
    const MechanismSpec car = readMechanismFile(dir + "car.xml");
    const ShapeSpec& chassis = body(car, "car").shapes.at(0);
    QCOMPARE(int(chassis.type), int(ShapeType::Mesh));
    QVERIFY(chassis.mesh && chassis.file.empty());
    Eigen::Vector3f lo = chassis.mesh->vertices[0], hi = lo;
    for (const Eigen::Vector3f& v : chassis.mesh->vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
    QVERIFY((lo.cast<double>() - Vec3(-0.1, -0.06, -0.015)).norm() < 1e-7);
    QVERIFY((hi.cast<double>() - Vec3(0.1, 0.06, 0.03)).norm() < 1e-7);
    const Model carModel = compileSpec(car);
    double carMass = 0;
    for (const Body& b : carModel.bodies)
      if (b.name == "car") carMass = b.mass;
    QVERIFY(carMass > 0);

    // humanoid100: the humanoid is attached with the prefix, at its place in humanoid.xml; the
    // 100 objects are free bodies, the first capsules at the frames' places.
    const MechanismSpec h = readMechanismFile(dir + "humanoid100.xml");
    QVERIFY((body(h, "humanoid_torso").position - Vec3(0, 0, 1.282)).norm() < 1e-12);
    int freeBodies = 0;
    for (const BodySpec& b : h.bodies) freeBodies += !b.fixed && b.name.rfind("humanoid_", 0) != 0;
    QCOMPARE(freeBodies, 100);
    bool knee = false;
    for (const JointSpec& j : h.joints) knee |= j.name == "humanoid_knee_right" && j.body2 == "humanoid_shin_right";
    QVERIFY(knee);
    // The first capsule: frame (-2,-2,2.5) · replicate copy 0 · frame (0,0,-1.5) · copy 0.
    QVERIFY((h.bodies.at(h.bodies.size() - 100).position - Vec3(-2, -2, 1)).norm() < 1e-12);

    // newton_cradle: bodies and sites take the copy's index; copy i sits i offsets along.
    const MechanismSpec nc = readMechanismFile(dir + "newton_cradle.xml");
    for (int i = 0; i < 5; ++i)
      QVERIFY((body(nc, "equilibrium" + std::to_string(i)).position - Vec3(-0.04 * i, 0, 0.04)).norm() < 1e-12);
    QVERIFY((body(nc, "perturbed1").position - Vec3(0.16, 0, 0.061)).norm() < 1e-12);
    bool handle = false;
    for (const HandleSpec& hs : nc.handles) handle |= hs.name == "f1" && hs.body == "perturbed1";
    QVERIFY(handle);

    // bowl: 1 + 20 × 6 geoms on each of the first two bodies.
    const MechanismSpec bowl = readMechanismFile(dir + "bowl.xml");
    QCOMPARE(int(bowl.bodies[1].shapes.size()), 121);

    // connect.xml: a box by fromto is size[0] across both ways and the segment long, centred on it.
    const MechanismSpec c = readMechanismFile(dir + "connect.xml");
    const ShapeSpec& beam = body(c, "beam1").shapes.at(0);
    QCOMPARE(int(beam.type), int(ShapeType::Box));
    QVERIFY((beam.size - Vec3(0.4, 0.4, 1.0)).norm() < 1e-12);
    QVERIFY((beam.position - Vec3(0, -0.5, 0)).norm() < 1e-12);
    QVERIFY((beam.orientation * Vec3::UnitZ() - Vec3(0, -1, 0)).norm() < 1e-12);
    const JointSpec& bySite = c.joints.back();
    QCOMPARE(bySite.body1, std::string("box3"));
    QCOMPARE(bySite.body2, std::string("beam3"));
    QVERIFY((bySite.point - Vec3(1.5, -0.1, 0.5)).norm() < 1e-12);  // site1 in the world

    // jelly: an 8 × 8 × 8 grid of points 0.07 apart centred at (0, 0, 1), E = 5e4 Pa, 5 kg.
    const MechanismSpec jelly = readMechanismFile(dir + "flex/jelly.xml");
    const DeformableSpec& part = jelly.deformables.at(0);
    QCOMPARE(part.name, std::string("softbody"));
    QCOMPARE(int(part.vertices.size()), 512);
    QCOMPARE(int(part.tets.size()), 7 * 7 * 7 * 6);
    QVERIFY((part.boxSize - Vec3::Constant(0.49)).norm() < 1e-12);
    QVERIFY((part.position - Vec3(-0.245, -0.245, 0.755)).norm() < 1e-12);
    QCOMPARE(part.youngs, 5e4);
    QVERIFY(std::abs(part.density - 5 / (0.49 * 0.49 * 0.49)) < 1e-9);
    QVERIFY(part.pinned.empty() && part.attachments.empty());

    // A gmsh flexcomp: the file's unit cube [-0.5, 0.5]² × [0, 1], moved by pos="0 0 4", 10 kg.
    const MechanismSpec cube = readMechanismFile(dir + "gmsh/cube_41_ascii_vol_gmshApp.xml");
    const DeformableSpec& g = cube.deformables.at(0);
    QCOMPARE(g.meshType, std::string("gmsh"));
    Vec3 glo = g.vertices[0], ghi = glo;
    for (const Vec3& v : g.vertices) glo = glo.cwiseMin(v), ghi = ghi.cwiseMax(v);
    QVERIFY((glo - Vec3(-0.5, -0.5, 4)).norm() < 1e-12 && (ghi - Vec3(0.5, 0.5, 5)).norm() < 1e-12);
    QVERIFY(std::abs(g.density - 10) < 1e-9);
  }

  /// <replicate> as MuJoCo's XML reference gives it (sites for its geoms: names with the innermost
  /// suffix first, copies placed by cumulative offsets and rotations), an equality replicated with
  /// the bodies it names, <attach> into a moving body (its fixed root welded there), and
  /// flexcomp pins (a grid pinned at x = 0 by gridrange; a moving parent holds them).
  void metaElements() {
    const std::string replicate = R"(<mujoco><worldbody><body name="b"><freejoint/><geom size=".1"/>
  <replicate count="2" offset="0 1 0" euler="90 0 0">
    <replicate count="2" sep="-" offset="1 0 0" euler="0 90 0"><site name="Alice"/></replicate>
  </replicate></body>
  <replicate count="3" offset="1 0 0"><body name="p" pos="0 0 1"><joint type="ball"/><geom size=".1"/></body></replicate>
  </worldbody><equality><connect body1="p" anchor="0 0 1"/></equality></mujoco>)";
    const MechanismSpec s = parseMjcf(replicate, "r.xml", ".");
    std::map<std::string, Vec3> at;
    for (const HandleSpec& h : s.handles) at[h.name] = h.point;
    QCOMPARE(int(at.size()), 4);
    QVERIFY((at.at("Alice-00") - Vec3(0, 0, 0)).norm() < 1e-12);
    QVERIFY((at.at("Alice-10") - Vec3(1, 0, 0)).norm() < 1e-12);
    QVERIFY((at.at("Alice-01") - Vec3(0, 1, 0)).norm() < 1e-12);
    QVERIFY((at.at("Alice-11") - Vec3(1, 1, 0)).norm() < 1e-12);
    int connects = 0;
    for (const JointSpec& j : s.joints)
      if (j.name.rfind("connect", 0) == 0) {
        ++connects;
        QCOMPARE(j.body1, "p" + j.name.substr(j.name.size() - 1));
        QCOMPARE(j.body2, std::string("world"));
      }
    QCOMPARE(connects, 3);

    // A joint in a <frame> in its body: placed by the frame, defaults from the frame's childclass.
    const MechanismSpec fj = parseMjcf(R"(<mujoco><default><default class="c"><joint axis="0 0 1"/></default></default>
  <worldbody><body name="b" pos="1 0 0"><frame pos="0 0 1" euler="0 90 0" childclass="c"><joint name="h"/></frame>
  <geom size=".1"/></body></worldbody></mujoco>)",
                                       "f.xml", ".");
    QCOMPARE(int(fj.joints.size()), 1);
    QVERIFY((fj.joints[0].point - Vec3(1, 0, 1)).norm() < 1e-12);
    QVERIFY((fj.joints[0].axis - Vec3(1, 0, 0)).norm() < 1e-12);

    QTemporaryDir tmp;
    std::ofstream(tmp.filePath("arm.xml").toStdString())
        << R"(<mujoco model="arm"><compiler angle="radian"/><worldbody><body name="base" pos="0 0 1"><geom size=".1"/>
  <body name="link" pos="1 0 0"><joint name="j" axis="0 0 1" range="-1 1"/><geom size=".1"/><site name="tip" pos="1 0 0"/></body>
  </body></worldbody></mujoco>)";
    std::ofstream(tmp.filePath("robot.xml").toStdString())
        << R"(<mujoco><asset><model file="arm.xml"/></asset><worldbody><body name="cart" pos="5 0 0"><joint type="slide" axis="1 0 0"/>
  <geom size=".1"/><frame euler="0 0 90"><attach model="arm" body="base" prefix="a_"/></frame>
  <flexcomp name="pad" dim="3" count="3 2 2" spacing=".1 .1 .1" mass="2"><pin gridrange="0 0 0 0 1 1"/><elasticity young="1e5" poisson=".3"/></flexcomp>
  </body></worldbody></mujoco>)";
    const MechanismSpec a = readMechanismFile(tmp.filePath("robot.xml").toStdString());
    std::map<std::string, const BodySpec*> bodies;
    for (const BodySpec& b : a.bodies) bodies[b.name] = &b;
    QVERIFY(bodies.count("a_base") && bodies.count("a_link"));
    QVERIFY(!bodies.at("a_base")->fixed);
    QVERIFY((bodies.at("a_base")->position - Vec3(5, 0, 1)).norm() < 1e-12);
    QVERIFY((bodies.at("a_link")->position - Vec3(5, 1, 1)).norm() < 1e-12);  // turned 90° about z
    const JointSpec* weld = nullptr;
    const JointSpec* hinge = nullptr;
    for (const JointSpec& j : a.joints) {
      if (j.name == "a_base.fixed") weld = &j;
      if (j.name == "a_j") hinge = &j;
    }
    QVERIFY(weld && weld->body1 == "cart" && weld->body2 == "a_base");
    QVERIFY(hinge && hinge->body1 == "a_base" && hinge->limits && std::abs(hinge->limits->second - 1) < 1e-15);
    bool tip = false;
    for (const HandleSpec& h : a.handles) tip |= h.name == "a_tip" && (h.point - Vec3(5, 2, 1)).norm() < 1e-12;
    QVERIFY(tip);
    const DeformableSpec& pad = a.deformables.at(0);
    QCOMPARE(int(pad.vertices.size()), 12);
    QVERIFY(pad.pinned.empty());
    QCOMPARE(int(pad.attachments.size()), 1);
    QCOMPARE(pad.attachments[0].body, std::string("cart"));
    QCOMPARE(int(pad.attachments[0].vertices.size()), 4);  // the x = 0 face: 2 × 2 points
    for (int v : pad.attachments[0].vertices) QVERIFY(std::abs(pad.vertices[std::size_t(v)].x() - 4.9) < 1e-12);
    QVERIFY(std::abs(pad.density - 2 / (0.2 * 0.1 * 0.1)) < 1e-9);
    const Model m = compileSpec(a);
    Data d = makeData(m);
    QCOMPARE(analyseMobility(m, d).dof, 2);  // the cart's slide and the arm's hinge

    // An unknown body of the attached model is an error at the <attach>.
    std::ofstream(tmp.filePath("bad.xml").toStdString())
        << R"(<mujoco><asset><model file="arm.xml"/></asset><worldbody><attach model="arm" body="bsae" prefix="a_"/></worldbody></mujoco>)";
    try {
      readMechanismFile(tmp.filePath("bad.xml").toStdString());
      QFAIL("no error");
    } catch (const LoadError& e) {
      QVERIFY2(std::string(e.what()).find("bad.xml:1:78: error: model \"arm\" has no body \"bsae\"") != std::string::npos, e.what());
      QVERIFY2(std::string(e.what()).find("did you mean \"base\"") != std::string::npos, e.what());
    }
  }

  /// The convex hull of a cube's corners and inner points: the 8 corners, 12 outward triangles,
  /// every edge shared by two of them, volume 1 (divergence theorem); coplanar points refused.
  void convexHull() {
    std::vector<Vec3> pts;
    for (int k = 0; k < 8; ++k) pts.emplace_back(k & 1, (k >> 1) & 1, (k >> 2) & 1);
    for (int k = 0; k < 20; ++k) pts.emplace_back(0.1 + 0.04 * k, 0.5, 0.3 + 0.01 * k);
    pts.emplace_back(0.5, 0.5, 1.0);  // on a face: not a hull vertex
    const imp::HullMesh h = imp::convexHull(pts);
    QCOMPARE(int(h.vertices.size()), 8);
    QCOMPARE(int(h.indices.size()), 36);
    std::map<std::pair<unsigned, unsigned>, int> edges;
    double volume = 0;
    for (std::size_t t = 0; t < h.indices.size(); t += 3) {
      const Vec3 &a = h.vertices[h.indices[t]], &b = h.vertices[h.indices[t + 1]], &c = h.vertices[h.indices[t + 2]];
      volume += a.dot(b.cross(c)) / 6;
      for (int e = 0; e < 3; ++e) ++edges[{h.indices[t + std::size_t(e)], h.indices[t + std::size_t((e + 1) % 3)]}];
    }
    QVERIFY(std::abs(volume - 1) < 1e-12);
    for (const auto& [e, n] : edges) {
      QCOMPARE(n, 1);
      QVERIFY(edges.count({e.second, e.first}));
    }
    try {
      imp::convexHull({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0), Vec3(0.5, 0.2, 0)});
      QFAIL("no error");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(std::string(e.what()).find("one plane") != std::string::npos, e.what());
    }
  }
};

QTEST_APPLESS_MAIN(TestImportReal)
#include "test_import_real.moc"
