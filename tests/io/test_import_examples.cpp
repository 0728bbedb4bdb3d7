// tests/io/test_import_examples.cpp — tests core/io/import on the example robots of
// mechanisms/urdf, mechanisms/mjcf and mechanisms/sdf: each imports and compiles with a zero
// residual and its expected mobility; written in the native format and read back it compiles to
// the same model (bodies, joints, q0 to 1e-12, mobility); the UR5's forward kinematics agree with
// the closed-form Denavit–Hartenberg product of its published parameters, in all three formats;
// the closed loops are followed by the kinematic solver.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "core/data.h"
#include "core/io/import/import.h"
#include "core/io/load.h"
#include "core/io/write.h"
#include "core/kinematics/kinematics.h"

using namespace mechsim;
using namespace mechsim::io;

namespace {
const QString kSource = QStringLiteral(MECHSIM_SOURCE_DIR);
constexpr double kPi = 3.14159265358979323846;

struct Example {
  const char* file;
  int dof;       // true mobility, drivers left out
  int drivers;
};
const Example kExamples[] = {
    {"mechanisms/urdf/ur5.urdf", 6, 0},          {"mechanisms/urdf/panda.urdf", 8, 0},
    {"mechanisms/urdf/fourbar-loop.urdf", 1, 1}, {"mechanisms/mjcf/ur5.xml", 6, 0},
    {"mechanisms/mjcf/panda.xml", 9, 0},         {"mechanisms/mjcf/slider-crank.xml", 1, 1},
    {"mechanisms/sdf/ur5.sdf", 6, 0},            {"mechanisms/sdf/panda.sdf", 9, 0},
    {"mechanisms/sdf/fourbar.sdf", 1, 1},
};

std::string path(const char* rel) { return (kSource + "/" + rel).toStdString(); }

/// Standard DH transform Rz(θ) Tz(d) Tx(a) Rx(α).
Eigen::Isometry3d dh(double theta, double d, double a, double alpha) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.rotate(Eigen::AngleAxisd(theta, Vec3::UnitZ()));
  T.translate(Vec3(0, 0, d));
  T.translate(Vec3(a, 0, 0));
  T.rotate(Eigen::AngleAxisd(alpha, Vec3::UnitX()));
  return T;
}

/// UR5 flange position from its published DH parameters (Universal Robots), base frame of DH.
Vec3 ur5Flange(const std::array<double, 6>& q) {
  const double d[6] = {0.089159, 0, 0, 0.10915, 0.09465, 0.0823};
  const double a[6] = {0, -0.425, -0.39225, 0, 0, 0};
  const double al[6] = {kPi / 2, 0, 0, kPi / 2, -kPi / 2, 0};
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  for (int i = 0; i < 6; ++i) T = T * dh(q[std::size_t(i)], d[i], a[i], al[i]);
  return T.translation();
}
}  // namespace

class TestImportExamples : public QObject {
  Q_OBJECT
 private slots:
  void importsAndCompiles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("dof");
    QTest::addColumn<int>("drivers");
    for (const Example& e : kExamples) QTest::newRow(e.file) << QString(e.file) << e.dof << e.drivers;
  }
  void importsAndCompiles() {
    QFETCH(QString, file);
    QFETCH(int, dof);
    QFETCH(int, drivers);
    const std::string p = (kSource + "/" + file).toStdString();
    QVERIFY(importFormatOf(p).has_value());
    const MechanismSpec spec = readMechanismFile(p);
    // Every mesh is found; the only warnings are the Panda's documented ones (Franka's published
    // link4 inertia violates the triangle inequality). URDF's finger <mimic> is a coupling: 8 DOF there.
    for (const std::string& w : spec.warnings) {
      const bool documented = w.find("\"panda_link4\": the principal moments") != std::string::npos;
      QVERIFY2(documented, w.c_str());
    }
    const Model m = compileSpec(spec);
    QCOMPARE(int(m.drivers.size()), drivers);
    Data d = makeData(m);
    const MobilityReport r = analyseMobility(m, d);
    QVERIFY2(r.residual < 1e-12, qPrintable(QString("residual %1").arg(r.residual)));
    QCOMPARE(r.dof, dof);
    QVERIFY(!r.singular);
    // Every mesh named by the file was loaded (a visual with triangles on every massive link).
    int meshes = 0;
    for (const Body& b : m.bodies)
      for (const Shape& s : b.visuals) meshes += s.type == ShapeType::Mesh && s.mesh && !s.mesh->indices.empty();
    QVERIFY(meshes >= 2);
  }

  /// Native round trip: import → writeMechanismFile (elsewhere) → read back → same compiled model.
  void roundTrip_data() { importsAndCompiles_data(); }
  void roundTrip() {
    QFETCH(QString, file);
    const std::string p = (kSource + "/" + file).toStdString();
    const MechanismSpec a = readMechanismFile(p);
    QTemporaryDir tmp;
    const std::string out = (tmp.path() + "/sub/saved.json").toStdString();
    QDir().mkpath(tmp.path() + "/sub");
    writeMechanismFile(a, out);
    const MechanismSpec b = readMechanismFile(out);
    const Model ma = compileSpec(a), mb = compileSpec(b);
    QCOMPARE(mb.bodies.size(), ma.bodies.size());
    for (std::size_t i = 0; i < ma.bodies.size(); ++i) {
      const Body &x = ma.bodies[i], &y = mb.bodies[i];
      QCOMPARE(y.name, x.name);
      QCOMPARE(y.fixed, x.fixed);
      QVERIFY(std::abs(y.mass - x.mass) <= 1e-12 * std::max(1.0, x.mass));
      QVERIFY((y.com - x.com).norm() <= 1e-12);
      QVERIFY((y.inertia - x.inertia).norm() <= 1e-12 * std::max(1.0, x.inertia.norm()));
      QCOMPARE(y.shapes.size(), x.shapes.size());
      QCOMPARE(y.visuals.size(), x.visuals.size());
      for (std::size_t k = 0; k < x.visuals.size(); ++k)
        QCOMPARE(y.visuals[k].mesh != nullptr, x.visuals[k].mesh != nullptr);  // meshes found from the new folder
    }
    QCOMPARE(mb.joints.size(), ma.joints.size());
    for (std::size_t i = 0; i < ma.joints.size(); ++i) {
      const Joint &x = ma.joints[i], &y = mb.joints[i];
      QCOMPARE(y.name, x.name);
      QCOMPARE(int(y.type), int(x.type));
      QCOMPARE(y.body1, x.body1);
      QCOMPARE(y.body2, x.body2);
      QVERIFY((y.point1 - x.point1).norm() <= 1e-12 && (y.point2 - x.point2).norm() <= 1e-12);
      QVERIFY((y.frame1 - x.frame1).norm() <= 1e-12 && (y.frame2 - x.frame2).norm() <= 1e-12);
      QCOMPARE(y.limits.has_value(), x.limits.has_value());
    }
    QCOMPARE(mb.nq, ma.nq);
    QVERIFY((mb.q0 - ma.q0).cwiseAbs().maxCoeff() <= 1e-12);
    Data da = makeData(ma), db = makeData(mb);
    const MobilityReport ra = analyseMobility(ma, da), rb = analyseMobility(mb, db);
    QCOMPARE(rb.dof, ra.dof);
    QCOMPARE(rb.rank, ra.rank);
    QCOMPARE(int(mb.drivers.size()), int(ma.drivers.size()));
  }

  /// The UR5 in each format against the closed-form DH product: drive the six joints to a generic
  /// configuration, solve positions, compare the flange (the wrist_3_link origin) with DH. The URDF
  /// base frame is the DH base turned by π about z (ur_description's convention).
  void ur5MatchesDenavitHartenberg_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("flangeBody");
    QTest::addColumn<QString>("jointPrefix");
    QTest::newRow("urdf") << "mechanisms/urdf/ur5.urdf" << "wrist_3_link" << "";
    QTest::newRow("mjcf") << "mechanisms/mjcf/ur5.xml" << "wrist_3_link" << "";
    QTest::newRow("sdf") << "mechanisms/sdf/ur5.sdf" << "wrist_3_link" << "";
  }
  void ur5MatchesDenavitHartenberg() {
    QFETCH(QString, file);
    QFETCH(QString, flangeBody);
    const std::array<double, 6> q{0.3, -0.7, 1.1, -0.4, 0.9, 0.25};
    const char* names[6] = {"shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint",
                            "wrist_1_joint",      "wrist_2_joint",       "wrist_3_joint"};
    for (const auto& qq : {std::array<double, 6>{0, 0, 0, 0, 0, 0}, q}) {
      MechanismSpec spec = readMechanismFile((kSource + "/" + file).toStdString());
      const double angleUnit = spec.units.angleScale();
      for (int i = 0; i < 6; ++i)
        spec.drivers.push_back(DriverSpec{std::string("d") + names[i], names[i], std::to_string(qq[std::size_t(i)] / angleUnit), 0});
      const Model m = compileSpec(spec);
      Data d = makeData(m);
      QVERIFY(solvePositions(m, d, 0.0));
      const Pose flange = bodyPose(m, d.q, m.findBody(flangeBody.toStdString()));
      const Vec3 ref = Eigen::AngleAxisd(kPi, Vec3::UnitZ()) * ur5Flange(qq);
      QVERIFY2((flange.position - ref).norm() < 1e-9,
               qPrintable(QString("flange %1 %2 %3, DH %4 %5 %6").arg(flange.position.x()).arg(flange.position.y())
                              .arg(flange.position.z()).arg(ref.x()).arg(ref.y()).arg(ref.z())));
    }
  }

  /// The three formats describe the same Panda: same joint axes and points in the world.
  void pandaSameInEveryFormat() {
    const Model u = loadModel(path("mechanisms/urdf/panda.urdf"));
    for (const char* f : {"mechanisms/mjcf/panda.xml", "mechanisms/sdf/panda.sdf"}) {
      const Model o = loadModel(path(f));
      for (int k = 1; k <= 7; ++k) {
        const std::string jn = "panda_joint" + std::to_string(k);
        const Joint& a = u.joints[std::size_t(u.findJoint(jn))];
        const Joint& b = o.joints[std::size_t(o.findJoint(jn))];
        const Pose pa = u.bodies[std::size_t(a.body1)].pose0, pb = o.bodies[std::size_t(b.body1)].pose0;
        QVERIFY((pa.apply(a.point1) - pb.apply(b.point1)).norm() < 1e-12);
        QVERIFY((pa.rotate(a.frame1.col(2)) - pb.rotate(b.frame1.col(2))).norm() < 1e-12);
      }
    }
  }

  /// The closed loops move: the driven crank turns and the loop stays closed.
  void loopsFollowTheirDrivers_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("urdf") << "mechanisms/urdf/fourbar-loop.urdf";
    QTest::newRow("mjcf") << "mechanisms/mjcf/slider-crank.xml";
    QTest::newRow("sdf") << "mechanisms/sdf/fourbar.sdf";
  }
  void loopsFollowTheirDrivers() {
    QFETCH(QString, file);
    const Model m = loadModel((kSource + "/" + file).toStdString());
    Data d = makeData(m);
    const int crank = m.findBody("crank");
    double maxTurn = 0;
    for (double t = 0; t <= 1.0 + 1e-9; t += 0.01) {
      QVERIFY(solvePositions(m, d, t));
      constraintResidual(m, d);
      QVERIFY(d.phi.cwiseAbs().maxCoeff() < 1e-9);
      const Pose p = bodyPose(m, d.q, crank);
      maxTurn = std::max(maxTurn, std::abs(Eigen::AngleAxisd(p.orientation * m.bodies[std::size_t(crank)].pose0.orientation.inverse()).angle()));
    }
    QVERIFY(maxTurn > 3.0);  // the crank went (nearly) all the way round
  }
};

QTEST_APPLESS_MAIN(TestImportExamples)
#include "test_import_examples.moc"
