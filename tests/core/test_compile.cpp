// tests/core/test_compile.cpp — tests core/compile.cpp, core/model.cpp and core/data.cpp: the
// layout of q and Φ, equation and coordinate names, joint frames, and every SpecError path.
#include <QtTest>

#include "core/kinematics/kinematics.h"
#include "mechanisms.h"

using namespace mechsim;
using namespace mechsim::test;

namespace {

/// The path of the SpecError compile(s) throws ("" when it does not throw).
std::string errorPath(const MechanismSpec& s) {
  try {
    compile(s);
  } catch (const SpecError& e) {
    return e.path();
  }
  return "";
}

}  // namespace

class TestCompile : public QObject {
  Q_OBJECT
 private slots:
  void layoutAndNames() {
    FourBar fb = fourBar(true);
    const Model m = compile(fb.spec);
    QCOMPARE(m.nMoving, 3);
    QCOMPARE(m.nq, 21);
    QCOMPARE(m.nJointEquations, 20);
    QCOMPARE(m.nEquations, 24);
    QCOMPARE(m.nCoords, 4);
    QCOMPARE(m.bodies[0].qIndex, -1);
    QCOMPARE(m.bodies[1].qIndex, 0);
    QCOMPARE(m.bodies[3].qIndex, 14);
    QCOMPARE(m.equationNames[0], std::string("A:x"));
    QCOMPARE(m.equationNames[4], std::string("A:perp2"));
    QCOMPARE(m.equationNames[20], std::string("crank:norm"));
    QCOMPARE(m.equationNames[23], std::string("crank:drive"));
    QCOMPARE(m.coordNames[3], std::string("D"));
    QCOMPARE(m.drivers[0].equation, 23);
    QCOMPARE(m.findJoint("C"), 2);
    QCOMPARE(m.findBody("nope"), -1);
    // q0: positions and unit quaternions.
    QVERIFY((m.q0.segment<3>(7) - m.bodies[2].pose0.position).norm() < 1e-15);
    QVERIFY(std::abs(m.q0(10) - 1.0) < 1e-15);
    // Data at the file configuration: consistent, coordinates zero, pattern in place.
    Data d = makeData(m);
    QVERIFY(d.phi.cwiseAbs().maxCoeff() < 1e-12);
    QCOMPARE(d.Jq.nonZeros(), m.jacobianPattern.nonZeros());
    QCOMPARE(d.coords.size(), 4);
    // bodyPose normalises the quaternion.
    VecX q = m.q0;
    q.segment<4>(3) *= 2.0;
    QVERIFY(std::abs(bodyPose(m, q, 1).orientation.norm() - 1.0) < 1e-15);
    QVERIFY(bodyPose(m, q, 0).position.isApprox(m.bodies[0].pose0.position));
  }

  void multiDofNamesAndDrivenDistance() {
    MechanismSpec s;
    s.bodies = {body("ground", Vec3::Zero(), true), body("a", Vec3(0, 0, 1)), body("b", Vec3(1, 0, 1))};
    JointSpec c = joint("C", JointType::Cylindrical, "ground", "a", Vec3::Zero());
    JointSpec r = joint("R", JointType::Distance, "a", "b", Vec3::Zero());
    r.point1 = Vec3(0, 0, 1);
    r.point2 = Vec3(1, 0, 1);
    s.joints = {c, r};
    s.drivers = {driver("slide", "C", 1), driver("ext", "R")};
    const Model m = compile(s);
    QCOMPARE(m.coordNames, (std::vector<std::string>{"C.0", "C.1", "R"}));
    QCOMPARE(m.joints[1].nEquations, 0);  // replaced by the driver row
    QCOMPARE(std::abs(m.joints[1].length - 1.0) < 1e-15, true);
    QCOMPARE(m.equationNames.back(), std::string("ext:drive"));
    QCOMPARE(m.nEquations, 4 + 2 + 2);
  }

  // Frames: orthonormal, z = the axis in the world; universal: frame2's y = axis2.
  void jointFrames() {
    MechanismSpec s;
    s.bodies = {body("ground", Vec3::Zero(), true), body("a", Vec3(0, 1, 0), false, Quat(Eigen::AngleAxisd(0.5, Vec3(1, 1, 1).normalized())))};
    JointSpec rv = joint("R", JointType::Revolute, "ground", "a", Vec3(0, 1, 0), Vec3(0, 3, 4));
    JointSpec u = joint("U", JointType::Universal, "ground", "a", Vec3(0, 1, 0));
    u.axis1 = Vec3(0, 0, 2);
    u.axis2 = Vec3(1, 1, 0);
    s.joints = {rv, u};
    const Model m = compile(s);
    const Mat3 Ra = m.bodies[1].pose0.orientation.toRotationMatrix();
    for (const Joint& j : m.joints) {
      QVERIFY((j.frame1.transpose() * j.frame1 - Mat3::Identity()).norm() < 1e-14);
      QVERIFY((j.frame2.transpose() * j.frame2 - Mat3::Identity()).norm() < 1e-14);
      QVERIFY(std::abs(j.frame1.determinant() - 1.0) < 1e-14);
      QVERIFY((j.frame1 - Ra * j.frame2).norm() < 1e-14);  // coincide in the world
    }
    QVERIFY((m.joints[0].frame1.col(2) - Vec3(0, 0.6, 0.8)).norm() < 1e-14);
    QVERIFY((Ra * m.joints[1].frame2.col(1) - Vec3(1, 1, 0).normalized()).norm() < 1e-14);
    QVERIFY((m.joints[1].frame1.col(2) - Vec3::UnitZ()).norm() < 1e-14);
  }

  void errors() {
    const FourBar base = fourBar(true);
    auto with = [&](auto mutate) {
      MechanismSpec s = base.spec;
      mutate(s);
      return errorPath(s);
    };
    QCOMPARE(errorPath(base.spec), std::string());
    QCOMPARE(with([](MechanismSpec& s) { s.joints[2].body2 = "rockr"; }), std::string("joints[2].body2"));
    QCOMPARE(with([](MechanismSpec& s) { s.joints[1].body1 = "x"; }), std::string("joints[1].body1"));
    QCOMPARE(with([](MechanismSpec& s) { s.joints[1].body2 = "crank"; }), std::string("joints[1].body2"));
    QCOMPARE(with([](MechanismSpec& s) {
               s.bodies.push_back(body("base2", Vec3::Zero(), true));
               s.joints[0].body2 = "base2";
             }),
             std::string("joints[0].body2"));
    QCOMPARE(with([](MechanismSpec& s) { s.bodies[2].name = "crank"; }), std::string("bodies[2].name"));
    QCOMPARE(with([](MechanismSpec& s) { s.joints[3].name = "A"; }), std::string("joints[3].name"));
    QCOMPARE(with([](MechanismSpec& s) { s.drivers[0].joint = "Z"; }), std::string("drivers[0].joint"));
    QCOMPARE(with([](MechanismSpec& s) { s.drivers[0].coordinate = 1; }), std::string("drivers[0].coordinate"));
    QCOMPARE(with([](MechanismSpec& s) { s.drivers.push_back(driver("again", "A")); }), std::string("drivers[1].coordinate"));
    QCOMPARE(with([](MechanismSpec& s) { s.drivers.push_back(driver("crank", "B")); }), std::string("drivers[1].name"));
    QCOMPARE(with([](MechanismSpec& s) { s.joints[0].axis = Vec3::Zero(); }), std::string("joints[0].axis"));
    QCOMPARE(with([](MechanismSpec& s) {
               s.joints[0].type = JointType::Universal;
               s.joints[0].axis1 = Vec3::UnitZ();
               s.joints[0].axis2 = Vec3(1, 0, 1);
             }),
             std::string("joints[0].axis2"));
    QCOMPARE(with([](MechanismSpec& s) { s.bodies[1].mass.reset(); }), std::string("bodies[1].mass"));
    QCOMPARE(with([](MechanismSpec& s) { s.bodies[1].mass = -1.0; }), std::string("bodies[1].mass"));
    QCOMPARE(with([](MechanismSpec& s) {
               s.bodies[1].mass.reset();
               s.bodies[1].density = 7800.0;
             }),
             std::string("bodies[1].mass"));
    QCOMPARE(with([](MechanismSpec& s) {
               ShapeSpec sh;
               sh.type = ShapeType::Sphere;
               sh.radius = 0;
               s.bodies[1].shapes.push_back(sh);
             }),
             std::string("bodies[1].shapes[0].radius"));
    QCOMPARE(with([](MechanismSpec& s) {
               s.joints[0].type = JointType::Distance;
               s.joints[0].point1 = s.joints[0].point2 = Vec3::Zero();
             }),
             std::string("joints[0].point2"));
    QCOMPARE(with([](MechanismSpec& s) { s.joints[0].limits = std::make_pair(1.0, -1.0); }), std::string("joints[0].limits"));
    QCOMPARE(with([](MechanismSpec& s) {
               HandleSpec h;
               h.name = "tip";
               h.body = "nobody";
               s.handles.push_back(h);
             }),
             std::string("handles[0].body"));
    // A fixed joint has no coordinate to drive.
    QCOMPARE(with([](MechanismSpec& s) { s.joints[0].type = JointType::Fixed; }), std::string("drivers[0].joint"));
  }

  void driversHoldZeroWithoutFunctions() {
    FourBar fb = fourBar(true);
    const Model m = compile(fb.spec);
    Data d = makeData(m);
    QVERIFY(solvePositions(m, d, 5.0));
    QVERIFY((d.q - m.q0).cwiseAbs().maxCoeff() < 1e-9);
  }
};

QTEST_APPLESS_MAIN(TestCompile)
#include "test_compile.moc"
