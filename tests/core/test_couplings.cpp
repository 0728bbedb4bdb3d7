// tests/core/test_couplings.cpp — couplings (core/kinematics/coupling.cpp and its counterparts in
// the dynamics stepper, the ANM series and drag, the mobility analysis), each against a reference
// computed independently of the coupling row:
//   * a gear pair (ratio −2.5, offset 0.1 rad) driven through three turns of the leader, past ±π:
//     the follower's unwrapped coordinate equals −2.5 a + 0.1 to 1e-9, and its body's rotation
//     about z, read from the quaternion, equals that angle modulo 2π;
//   * a parallel gripper on a turning wrist (prismatic mimic finger, b = −a + 10 mm, three bodies
//     in the row): b = −a + 0.01 to 1e-9 while the finger and the wrist are driven;
//   * mobility: two revolutes have 2 DOF, 1 with the coupling (Grübler 12 − 10 − 1 = 1); a second,
//     consistent coupling the other way is named redundant;
//   * dynamics: two different compound pendulums coupled 1:1 swing as one pendulum of the summed
//     inertia about the pivot axis, Σ I θ̈ = −Σ m l g sin θ: the period against the exact
//     T = 4 K(sin(θ0/2)) / ω0, ω0² = Σ m l g / Σ I (K by the arithmetic–geometric mean);
//   * ANM: the coupling rows' Taylor series along a random path against Φ evaluated on the path,
//     and an ANM drag of a point on the leader gear keeps the gear ratio;
//   * the native "couplings" section: units (mm, degrees) to SI, written back to the same text,
//     and its errors located at FILE:LINE:COL.
#include <QtTest>

#include <cmath>

#include "core/anm/anm_drag.h"
#include "core/anm/constraint_series.h"
#include "core/compile.h"
#include "core/io/load.h"
#include "core/io/write.h"
#include "core/dynamics/dynamics.h"
#include "core/kinematics/assembly.h"
#include "core/kinematics/kinematics.h"
#include "mechanisms.h"

using namespace mechsim;
using namespace mechsim::test;

namespace {

CouplingSpec coupling(const std::string& name, const std::string& follower, const std::string& leader,
                      double ratio, double offset) {
  CouplingSpec c;
  c.name = name;
  c.joint = follower;
  c.leader = leader;
  c.polynomial = {offset, ratio, 0, 0, 0};
  return c;
}

/// Ground and two gears on revolutes about z at x = 0 and x = 0.3; gear2 = ratio · gear1 + offset.
MechanismSpec gearPair(double ratio, double offset) {
  MechanismSpec s;
  s.bodies = {body("ground", Vec3::Zero(), true), body("gear1", Vec3::Zero()), body("gear2", Vec3(0.3, 0, 0))};
  s.joints = {joint("A", JointType::Revolute, "ground", "gear1", Vec3::Zero()),
              joint("B", JointType::Revolute, "ground", "gear2", Vec3(0.3, 0, 0))};
  s.couplings = {coupling("mesh", "B", "A", ratio, offset)};
  return s;
}

/// Rotation angle of body b about world z, read from its quaternion.
double angleAboutZ(const Model& m, const VecX& q, int b) {
  const Mat3 R = bodyPose(m, q, b).orientation.toRotationMatrix();
  return std::atan2(R(1, 0), R(0, 0));
}

double wrap(double x) { return std::remainder(x, 2 * M_PI); }

/// Complete elliptic integral of the first kind K(k) = π / (2 AGM(1, √(1 − k²))).
double ellipticK(double k) {
  double a = 1, b = std::sqrt(1 - k * k);
  for (int i = 0; i < 40 && std::abs(a - b) > 1e-16 * a; ++i) {
    const double an = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = an;
  }
  return M_PI / (2 * a);
}

}  // namespace

class TestCouplings : public QObject {
  Q_OBJECT
 private slots:
  void gearPairOverSeveralTurns() {
    MechanismSpec s = gearPair(-2.5, 0.1);
    s.drivers = {driver("turn", "A")};
    const Model m = compile(s, {[](double t) { return 2 * M_PI * t; }});
    Data d = makeData(m);
    const int A = m.joints[0].firstCoord, B = m.joints[1].firstCoord;
    double worst = 0, worstPose = 0, maxA = 0;
    for (int k = 0; k <= 60; ++k) {  // t = 0 … 3 s: three turns of A, 7.5 of B
      const double t = 0.05 * k;
      QVERIFY2(solvePositions(m, d, t), d.stats.message.c_str());
      updateJointCoordinates(m, d);
      worst = std::max(worst, std::abs(d.coords(B) - (-2.5 * d.coords(A) + 0.1)));
      QVERIFY(std::abs(d.coords(A) - 2 * M_PI * t) < 1e-9);
      worstPose = std::max(worstPose, std::abs(wrap(angleAboutZ(m, d.q, 2) - (-2.5 * 2 * M_PI * t + 0.1))));
      maxA = std::max(maxA, d.coords(A));
    }
    QVERIFY(maxA > 6 * M_PI - 1e-9);
    QVERIFY2(worst < 1e-9, qPrintable(QString("coupling error %1").arg(worst)));
    QVERIFY2(worstPose < 1e-9, qPrintable(QString("gear2 pose error %1").arg(worstPose)));
  }

  void mimicFingerOnAWrist() {
    MechanismSpec s;
    s.bodies = {body("ground", Vec3::Zero(), true), body("palm", Vec3(0, 0, 0.1)), body("f1", Vec3(0.02, 0, 0.15)),
                body("f2", Vec3(-0.02, 0, 0.15))};
    s.joints = {joint("wrist", JointType::Revolute, "ground", "palm", Vec3(0, 0, 0.1), Vec3(0, 0, 1)),
                joint("j1", JointType::Prismatic, "palm", "f1", Vec3(0.02, 0, 0.15), Vec3(1, 0, 0)),
                joint("j2", JointType::Prismatic, "palm", "f2", Vec3(-0.02, 0, 0.15), Vec3(1, 0, 0))};
    s.couplings = {coupling("mimic", "j2", "j1", -1.0, 0.01)};
    s.drivers = {driver("w", "wrist"), driver("open", "j1")};
    const Model m = compile(s, {[](double t) { return 3.0 * t; }, [](double t) { return 0.02 * std::sin(5 * t); }});
    Data d = makeData(m);
    const int a = m.joints[1].firstCoord, b = m.joints[2].firstCoord;
    double worst = 0;
    for (int k = 0; k <= 40; ++k) {
      QVERIFY2(solvePositions(m, d, 0.05 * k), d.stats.message.c_str());
      updateJointCoordinates(m, d);
      worst = std::max(worst, std::abs(d.coords(b) - (-d.coords(a) + 0.01)));
      // Independently: f2's origin along the palm's x axis, from the palm's origin, is −0.02 + b.
      const Pose palm = bodyPose(m, d.q, 1), f2 = bodyPose(m, d.q, 3);
      const double along = palm.orientation.toRotationMatrix().col(0).dot(f2.position - palm.position);
      worst = std::max(worst, std::abs(along - (-0.02 - 0.02 * std::sin(5 * 0.05 * k) + 0.01)));
    }
    QVERIFY2(worst < 1e-9, qPrintable(QString("mimic error %1").arg(worst)));
  }

  void mobilityCountsTheCoupling() {
    MechanismSpec free = gearPair(-2.5, 0.1);
    free.couplings.clear();
    const Model m0 = compile(free);
    Data d0 = makeData(m0);
    QCOMPARE(analyseMobility(m0, d0).dof, 2);
    const Model m = compile(gearPair(-2.5, 0.0));
    Data d = makeData(m);
    const MobilityReport r = analyseMobility(m, d);
    QCOMPARE(r.dof, 1);
    QCOMPARE(r.grubler, 1);
    QVERIFY(r.redundant.empty());
    QCOMPARE(r.equations, 2 * 5 + 2 + 1);
    // A = −0.4 B is the same constraint: redundant, and named.
    MechanismSpec twice = gearPair(-2.5, 0.0);
    twice.couplings.push_back(coupling("back", "A", "B", -0.4, 0.0));
    const Model m2 = compile(twice);
    Data d2 = makeData(m2);
    const MobilityReport r2 = analyseMobility(m2, d2);
    QCOMPARE(r2.dof, 1);
    QCOMPARE(r2.grubler, 0);
    QCOMPARE(int(r2.redundant.size()), 1);
    QVERIFY2(r2.redundant[0].find(":couple") != std::string::npos, r2.redundant[0].c_str());
  }

  void coupledPendulumsSwingAsOne() {
    // Rods hanging at θ0 from vertical, pivots on the y axis; body frames at the pivots.
    const double th0 = 0.5, g = 9.81;
    const double m1 = 1.0, l1 = 0.5, Ic1 = 1.0 / 12.0, m2 = 2.0, l2 = 0.3, Ic2 = 0.02;
    const Quat tilt(Eigen::AngleAxisd(th0, Vec3::UnitY()));
    MechanismSpec s;
    BodySpec ground = body("ground", Vec3::Zero(), true);
    BodySpec p1 = body("p1", Vec3::Zero(), false, tilt), p2 = body("p2", Vec3(1, 0, 0), false, tilt);
    for (auto [b, mass, l, Ic] : {std::tuple{&p1, m1, l1, Ic1}, std::tuple{&p2, m2, l2, Ic2}}) {
      b->mass = mass;
      b->com = Vec3(0, 0, -l);
      b->comGiven = true;
      Eigen::Matrix<double, 6, 1> I;
      I << Ic, Ic, Ic, 0, 0, 0;
      b->inertia = I;
    }
    s.bodies = {ground, p1, p2};
    s.joints = {joint("A", JointType::Revolute, "ground", "p1", Vec3::Zero(), Vec3::UnitY()),
                joint("B", JointType::Revolute, "ground", "p2", Vec3(1, 0, 0), Vec3::UnitY())};
    s.couplings = {coupling("together", "B", "A", 1.0, 0.0)};
    const Model m = compile(s);
    Data d = makeData(m);
    DynamicsStepper sim(m);
    QVERIFY2(sim.initialize(d), sim.stats().message.c_str());
    const double I = m1 * l1 * l1 + Ic1 + m2 * l2 * l2 + Ic2, mgl = (m1 * l1 + m2 * l2) * g;
    const double T = 4 * ellipticK(std::sin(th0 / 2)) / std::sqrt(mgl / I);
    // θ about y from the file pose; the pendulum crosses the vertical (θ = −θ0) going both ways:
    // the times between every second crossing are periods.
    const double h = 2e-4;
    const int A = m.joints[0].firstCoord, B = m.joints[1].firstCoord;
    std::vector<double> crossings;
    double prev = 0, worstCoupling = 0;
    for (int k = 1; k * h < 2.2 * T; ++k) {
      QVERIFY2(sim.step(d, h), sim.stats().message.c_str());
      const double x = d.coords(A) + th0;
      if (k > 1 && (prev < 0) != (x < 0)) crossings.push_back((k - 1) * h + h * prev / (prev - x));
      prev = x;
      worstCoupling = std::max(worstCoupling, std::abs(d.coords(B) - d.coords(A)));
    }
    QVERIFY(crossings.size() >= 4);
    const double measured = crossings[3] - crossings[1];
    const double rel = std::abs(measured - T) / T;
    qInfo("coupled pendulums: period %.6f s (exact %.6f s), relative error %.2e; max |B − A| %.2e", measured, T, rel,
          worstCoupling);
    QVERIFY2(rel < 1e-6, qPrintable(QString("period %1 vs %2").arg(measured).arg(T)));
    QVERIFY(worstCoupling < 1e-8);
  }

  void anmSeriesOfCouplingRows() {
    // A gear with ratio −2.5 and a cubic cam on a prismatic follower, along a random quadratic
    // path q(a) = c0 + a c1 + a² c2 from a configuration a few turns out (reference coordinates).
    MechanismSpec s = gearPair(-2.5, 0.1);
    s.bodies.push_back(body("slider", Vec3(0, 1, 0)));
    s.joints.push_back(joint("P", JointType::Prismatic, "ground", "slider", Vec3(0, 1, 0), Vec3(0, 1, 0)));
    CouplingSpec cam = coupling("cam", "P", "A", 0.0, 0.02);
    cam.polynomial = {0.02, 0.05, -0.01, 0.003, 0.0};
    s.couplings.push_back(cam);
    const Model m = compile(s);
    Data d = makeData(m);
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<VecX> c(3, VecX::Zero(m.nq));
    c[0] = m.q0;
    for (const Body& b : m.bodies) {
      if (b.qIndex < 0) continue;
      for (int k = 0; k < 7; ++k) {
        c[0](b.qIndex + k) += 0.2 * u(rng);
        c[1](b.qIndex + k) = 0.3 * u(rng);
        c[2](b.qIndex + k) = 0.3 * u(rng);
      }
    }
    d.q = c[0];
    d.coords.setZero();
    d.coords(0) = 2 * M_PI;  // A is read on the branch one turn out (−2.5 · 2π: f changes sign)
    unwrapCoordinatesForTest(m, d);
    const int N = 10;
    const kin::CoordinateReference ref(d.coords);
    anm::ConstraintSeries cs(m, 0.0, N);
    cs.start(c[0]);
    std::vector<VecX> coef(N + 1);
    cs.rows(0, coef[0]);
    for (int k = 1; k <= N; ++k) {
      cs.setOrder(k, k < 3 ? c[k] : VecX::Zero(m.nq));
      cs.rows(k, coef[k]);
    }
    for (double a : {0.01, 0.03}) {
      Data e = d;
      e.q = c[0] + a * c[1] + a * a * c[2];
      constraintResidual(m, e);
      VecX sum = VecX::Zero(m.nEquations);
      for (int k = N; k >= 0; --k) sum = sum * a + coef[k];
      for (const Coupling& cp : m.couplings) {
        const double err = std::abs(sum(cp.equation) - e.phi(cp.equation));
        QVERIFY2(err < 1e-10, qPrintable(QString("%1 at a = %2: series − Φ = %3").arg(cp.name.c_str()).arg(a).arg(err)));
      }
    }
  }

  /// The native "couplings" section: file units to SI by the coordinates' kinds (mm and degrees:
  /// a rack of 2 mm per degree is 0.1146 m/rad), written back to the same text, and its errors
  /// located at FILE:LINE:COL with the value's path.
  void nativeSection() {
    const std::string head = R"({ "mechsim": 1, "units": {"length": "mm", "angle": "deg"},
  "bodies": [ {"name": "g", "fixed": true}, {"name": "a", "mass": 1}, {"name": "s", "mass": 1, "position": [0, 100, 0]} ],
  "joints": [ {"name": "A", "type": "revolute", "body1": "g", "body2": "a", "point": [0, 0, 0], "axis": [0, 0, 1]},
              {"name": "S", "type": "prismatic", "body1": "g", "body2": "s", "point": [0, 100, 0], "axis": [1, 0, 0]} ],
  "couplings": [ )";
    const MechanismSpec s = io::parseMechanism(head + R"({"name": "rack", "joint": "S", "leader": "A", "ratio": 2, "offset": 5}
  ] })", "t.json", ".");
    QCOMPARE(int(s.couplings.size()), 1);
    QVERIFY(std::abs(s.couplings[0].polynomial[1] - 2e-3 / (M_PI / 180)) < 1e-15);
    QVERIFY(std::abs(s.couplings[0].polynomial[0] - 5e-3) < 1e-18);
    const std::string once = io::writeMechanism(s);
    QVERIFY2(once.find("\"ratio\": 2") != std::string::npos && once.find("\"offset\": 5") != std::string::npos, once.c_str());
    QCOMPARE(io::writeMechanism(io::parseMechanism(once, "t.json", ".")), once);
    // The analysis holds it: the rack at 5 mm + 2 mm per degree of A, in the CSV's SI units.
    const Model m = io::compileSpec(s);
    Data d = makeData(m);
    QVERIFY(solvePositions(m, d, 0.0));
    updateJointCoordinates(m, d);
    QVERIFY(std::abs(d.coords(1) - (5e-3 + 2e-3 * d.coords(0) * 180 / M_PI)) < 1e-12);
    const std::pair<const char*, const char*> bad[] = {
        {R"({"name": "x", "joint": "Q", "leader": "A"})", "t.json:5:41: error: couplings[0].joint: unknown joint"},
        {R"({"name": "x", "joint": "S", "leader": "S"})", "error: couplings[0].leader: a coordinate cannot be coupled to itself"},
        {R"({"name": "x", "joint": "S", "leader": "A", "ratio": 2, "polynomial": [0, 1]})", "couplings[0].ratio: give either \"polynomial\""},
        {R"({"name": "x", "joint": "S", "ratio": 2})", "couplings[0].ratio: a coupling without a \"leader\""},
        {R"({"name": "x", "joint": "S", "leader": "A", "leaderCoordinate": 1})", "couplings[0].leaderCoordinate: coordinate 1 is out of range"},
        {R"({"name": "x", "joint": "S", "leader": "A", "polynomial": [0, 1, 2, 3, 4, 5]})", "couplings[0].polynomial: expected an array of 1 to 5 numbers"},
        {R"({"name": "x", "joint": "S", "leader": "A", "multiplier": 2})", "couplings[0].multiplier: the coupling's factor goes in key \"ratio\""},
    };
    for (const auto& [item, message] : bad) {
      try {
        io::parseMechanism(head + item + " ] }", "t.json", ".");
        QFAIL(item);
      } catch (const io::LoadError& e) {
        QVERIFY2(std::string(e.what()).find(message) != std::string::npos, e.what());
      }
    }
    // Two couplings of one follower: refused at the second's joint.
    try {
      io::parseMechanism(head + R"({"name": "x", "joint": "S", "leader": "A"}, {"name": "y", "joint": "S", "offset": 1} ] })", "t.json", ".");
      QFAIL("coupled twice");
    } catch (const io::LoadError& e) {
      QVERIFY2(std::string(e.what()).find("is already coupled by coupling \"x\"") != std::string::npos, e.what());
    }
  }

  void anmDragKeepsTheRatio() {
    const Model m = compile(gearPair(-2.5, 0.1));
    Data d = makeData(m);
    QVERIFY(solvePositions(m, d, 0.0));
    updateJointCoordinates(m, d);
    auto anm = makeAnmDragSolver();
    const DragPoint pt{1, Vec3(0.1, 0, 0)};
    anm->begin(m, d, pt);
    double worst = 0;
    for (int k = 1; k <= 24; ++k) {  // the point around gear1 twice, 30° a step
      const double th = k * M_PI / 6;
      const DragResult r = anm->update(m, d, Vec3(0.1 * std::cos(th), 0.1 * std::sin(th), 0));
      QVERIFY2(r.converged && r.reached, r.message.c_str());
      updateJointCoordinates(m, d);
      worst = std::max(worst, std::abs(d.coords(1) - (-2.5 * d.coords(0) + 0.1)));
      QVERIFY(std::abs(d.coords(0) - th) < 1e-7);
    }
    anm->end();
    QVERIFY2(worst < 1e-9, qPrintable(QString("ratio error %1").arg(worst)));
  }

 private:
  static void unwrapCoordinatesForTest(const Model& m, Data& d) { kin::unwrapCoordinates(m, d); }
};

QTEST_APPLESS_MAIN(TestCouplings)
#include "test_couplings.moc"
