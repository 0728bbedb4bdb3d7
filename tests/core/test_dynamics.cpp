// tests/core/test_dynamics.cpp — tests core/dynamics/ (stepper.cpp, forces.cpp, twist.cpp): the
// energy behaviour on a conservative pendulum (no gain beyond the O(h²) oscillation, no drift) and
// its second-order convergence to an independent RK4 solution of the pendulum ODE; a joint spring
// against the closed-form period; the perturbation spring leaves no force after release; joint
// limits hold; symmetric reactions on symmetric redundant mechanisms — a door on two coaxial hinges
// (statics fix the horizontal reactions, the weighted minimum norm splits the weight equally) and a
// free-floating line-symmetric Bricard linkage (reactions at J_k and J_{k+3} are images under the
// half-turn); the impulses equal the dense weighted minimum-norm reference.
#include <QtTest>

#include <cmath>

#include "bench/dynamics_reference.h"
#include "core/data.h"
#include "core/dynamics/dynamics.h"
#include "core/io/load.h"
#include "core/io/write.h"
#include "core/kinematics/kinematics.h"

using namespace mechsim;

namespace {

std::string file(const char* name) { return std::string(MECHSIM_SOURCE_DIR) + "/mechanisms/dynamics/" + name; }

/// Pendulum state error against RK4 of (1 + 1e-6) φ̈ = −g cos φ at t = T, step h.
double pendulumError(double h, double T) {
  const Model m = io::loadModel(file("a01-pendulum.json"));
  Data d = makeData(m);
  DynamicsStepper sim(m);
  if (!sim.initialize(d)) return 1e9;
  const long n = std::lround(T / h);
  for (long k = 0; k < n; ++k)
    if (!sim.step(d, h)) return 1e9;
  double phi, w;
  bench::oneDofReference(1.0 + 1e-6, 9.81, 0.0, 0.0, T, 200000, phi, w);
  const Vec3 x = bodyPose(m, d.q, m.findBody("bob")).position;
  return (x - Vec3(std::cos(phi), std::sin(phi), 0)).norm();
}

MechanismSpec freeBricard() {
  // The A04 Bricard with its base link set free (mass properties of a 1 kg rod between J6 and J1,
  // as the generator gives the other links), no gravity, set moving by the initial rate of J1.
  MechanismSpec s = io::readMechanismFile(file("a04-bricard.json"));
  s.gravity.setZero();
  BodySpec& base = s.bodies[0];
  Vec3 p6 = Vec3::Zero(), p1 = Vec3::Zero();
  for (const JointSpec& j : s.joints) {
    if (j.name == "J6") p6 = j.point;
    if (j.name == "J1") p1 = j.point;
  }
  // Same construction as the l3 link it is the image of: frame at the midpoint, x along the link.
  const BodySpec& l3 = s.bodies[3];
  base.fixed = false;
  base.position = 0.5 * (p6 + p1);
  const Vec3 ex = (p1 - p6).normalized();
  // The half-turn about z maps l3 onto base: use the image of l3's orientation.
  const Quat H(Eigen::AngleAxisd(M_PI, Vec3::UnitZ()));
  base.orientation = H * l3.orientation;
  (void)ex;
  base.mass = *l3.mass;
  base.com = l3.com;
  base.comGiven = true;
  base.inertia = l3.inertia;
  s.dynamics.initialRates = {InitialRateSpec{"J1", 0, 1.0}};
  return s;
}

}  // namespace

class TestDynamics : public QObject {
  Q_OBJECT
 private slots:
  void pendulumDoesNotGainEnergy();
  void pendulumSecondOrder();
  void jointSpringPeriod();
  void perturbationLeavesNothingBehind();
  void jointLimitHolds();
  void doorHingesShareTheWeight();
  void bricardReactionsSymmetric();
  void impulsesAreWeightedMinNorm();
  void twistRoundTrip();
  void sectionRoundTrip();
};

void TestDynamics::sectionRoundTrip() {
  // The "dynamics" section survives write → read (core/io/load_dynamics.cpp both ways).
  for (const char* f : {"a03-andrews-squeezer.json", "a05-governor.json", "a02-nfourbar-40.json"}) {
    const MechanismSpec a = io::readMechanismFile(file(f));
    const MechanismSpec b = io::parseMechanism(io::writeMechanism(a), "roundtrip.json", std::string(MECHSIM_SOURCE_DIR) + "/mechanisms/dynamics");
    QCOMPARE(b.dynamics.springs.size(), a.dynamics.springs.size());
    QCOMPARE(b.dynamics.motors.size(), a.dynamics.motors.size());
    QCOMPARE(b.dynamics.initialRates.size(), a.dynamics.initialRates.size());
    for (size_t i = 0; i < a.dynamics.springs.size(); ++i) {
      QVERIFY((a.dynamics.springs[i].point2 - b.dynamics.springs[i].point2).norm() < 1e-12);
      QCOMPARE(b.dynamics.springs[i].stiffness, a.dynamics.springs[i].stiffness);
    }
    for (size_t i = 0; i < a.dynamics.motors.size(); ++i) QCOMPARE(b.dynamics.motors[i].effort, a.dynamics.motors[i].effort);
    for (size_t i = 0; i < a.dynamics.initialRates.size(); ++i) QCOMPARE(b.dynamics.initialRates[i].value, a.dynamics.initialRates[i].value);
    QCOMPARE(b.dynamics.solver.timestep.value_or(-1), a.dynamics.solver.timestep.value_or(-1));
  }
}

void TestDynamics::pendulumDoesNotGainEnergy() {
  const Model m = io::loadModel(file("a01-pendulum.json"));
  Data d = makeData(m);
  DynamicsStepper sim(m);
  QVERIFY(sim.initialize(d));
  const double h = 1e-3, E0 = sim.energy(d).total();
  QVERIFY(std::abs(E0) < 1e-12);  // horizontal at rest: E = 0 with the pivot as datum
  const double scale = 9.81;       // m g L
  double maxGain = -1e9, sumFirst = 0, sumLast = 0;
  const int n = 10000;              // 10 s, about 5 periods
  for (int k = 1; k <= n; ++k) {
    QVERIFY2(sim.step(d, h), sim.stats().message.c_str());
    const double e = sim.energy(d).total() - E0;
    maxGain = std::max(maxGain, e);
    if (k <= n / 2) sumFirst += e;
    else sumLast += e;
    // energy from Data alone (GUI path) agrees with the stepper's
    if (k % 1000 == 0) QVERIFY(std::abs(mechanicalEnergy(m, d).total() - sim.energy(d).total()) < 1e-9 * scale);
  }
  // No gain beyond the O(h²) oscillation of the scheme, and no secular drift between the halves.
  QVERIFY2(maxGain < 1e-5 * scale, qPrintable(QString("max gain %1 J").arg(maxGain)));
  const double drift = (sumLast - sumFirst) / (n / 2);
  QVERIFY2(std::abs(drift) < 1e-5 * scale, qPrintable(QString("drift %1 J").arg(drift)));
  QVERIFY(sim.stats().maxResidual < 1e-9);
}

void TestDynamics::pendulumSecondOrder() {
  const double e1 = pendulumError(4e-3, 1.0), e2 = pendulumError(2e-3, 1.0);
  QVERIFY2(e2 < 1e-3, qPrintable(QString::number(e2)));
  // Halving h divides the error by about 4 (second order).
  QVERIFY2(e1 / e2 > 3.0 && e1 / e2 < 5.5, qPrintable(QString("ratio %1 (%2, %3)").arg(e1 / e2).arg(e1).arg(e2)));
}

void TestDynamics::jointSpringPeriod() {
  // A block on a prismatic joint with a joint spring k = 100 N/m, m = 1 kg, pulled out 0.1 m:
  // x(t) = 0.1 cos(10 t) (no gravity).
  MechanismSpec s;
  s.gravity.setZero();
  BodySpec ground;
  ground.name = "ground";
  ground.fixed = true;
  s.bodies.push_back(ground);
  BodySpec b;
  b.name = "block";
  b.mass = 1.0;
  b.inertia = (Eigen::Matrix<double, 6, 1>() << 0.01, 0.01, 0.01, 0, 0, 0).finished();
  s.bodies.push_back(b);
  JointSpec j;
  j.name = "S";
  j.type = JointType::Prismatic;
  j.body1 = "ground";
  j.body2 = "block";
  j.axis = Vec3::UnitX();
  s.joints.push_back(j);
  s.dynamics.jointSprings.push_back(JointSpringSpec{"k", "S", 0, 100.0, 0.0, -0.1});  // rest at −0.1: x(0) − rest = 0.1
  const Model m = io::compileSpec(s);
  Data d = makeData(m);
  DynamicsStepper sim(m);
  QVERIFY(sim.initialize(d));
  const double h = 1e-3;
  double err = 0;
  for (int k = 1; k <= 1000; ++k) {
    QVERIFY(sim.step(d, h));
    err = std::max(err, std::abs(d.coords(0) - (-0.1 + 0.1 * std::cos(10 * d.t))));
  }
  QVERIFY2(err < 1e-4, qPrintable(QString::number(err)));
  // With damping the energy decays.
  MechanismSpec s2 = s;
  s2.dynamics.jointSprings[0].damping = 2.0;
  const Model m2 = io::compileSpec(s2);
  Data d2 = makeData(m2);
  DynamicsStepper sim2(m2);
  QVERIFY(sim2.initialize(d2));
  const double E0 = sim2.energy(d2).total();
  for (int k = 0; k < 1000; ++k) QVERIFY(sim2.step(d2, h));
  QVERIFY(sim2.energy(d2).total() < 0.2 * E0);  // e^{−ζω t}, ζω = c/2m = 1: e^{-2} of the energy
}

void TestDynamics::perturbationLeavesNothingBehind() {
  const Model m = io::loadModel(file("a01-pendulum.json"));
  Data d = makeData(m);
  DynamicsStepper sim(m);
  QVERIFY(sim.initialize(d));
  // Hold the bob with a spring to a target below the pivot for 0.5 s, then release.
  const int id = sim.addPerturbation(PerturbationSpring{m.findBody("bob"), Vec3::Zero(), Vec3(0.5, -0.5, 0), 200.0, 5.0});
  for (int k = 0; k < 500; ++k) QVERIFY(sim.step(d, 1e-3));
  VecX fWith;
  sim.appliedForces(d, sim.twist(), fWith);
  sim.removePerturbation(id);
  VecX fWithout;
  sim.appliedForces(d, sim.twist(), fWithout);
  QVERIFY((fWith - fWithout).norm() > 1.0);  // it was pulling
  // After release: only gravity acts, and the energy stays where the release left it.
  VecX fg = VecX::Zero(6);
  fg.head<3>() = m.bodies[m.findBody("bob")].mass * m.gravity;
  QVERIFY((fWithout - fg).norm() < 1e-9);
  const double E = sim.energy(d).total();
  for (int k = 0; k < 2000; ++k) QVERIFY(sim.step(d, 1e-3));
  QVERIFY2(std::abs(sim.energy(d).total() - E) < 1e-4 * 9.81, qPrintable(QString::number(sim.energy(d).total() - E)));
}

void TestDynamics::jointLimitHolds() {
  MechanismSpec s = io::readMechanismFile(file("a01-pendulum.json"));
  s.joints[0].limits = std::make_pair(-0.5, 3.0);  // the pendulum swings down (negative angle) and stops at −0.5
  const Model m = io::compileSpec(s);
  Data d = makeData(m);
  DynamicsStepper sim(m);
  QVERIFY(sim.initialize(d));
  double lowest = 0;
  for (int k = 0; k < 2000; ++k) {
    QVERIFY2(sim.step(d, 1e-3), sim.stats().message.c_str());
    lowest = std::min(lowest, d.coords(0));
  }
  QVERIFY2(lowest > -0.5 - 1e-6, qPrintable(QString::number(lowest)));
  QVERIFY(lowest < -0.5 + 1e-3);  // it did reach the stop
  // Resting on the stop, the limit pushes (never pulls): the energy did not grow.
  QVERIFY(sim.energy(d).total() < 1e-6);
}

void TestDynamics::doorHingesShareTheWeight() {
  const Model m = io::loadModel(file("door-two-hinges.json"));
  Data d = makeData(m);
  DynamicsStepper sim(m);
  QVERIFY(sim.initialize(d));
  for (int k = 0; k < 200; ++k) QVERIFY(sim.step(d, 1e-3));
  const auto r = sim.reactions();
  const JointReaction& lo = r[m.findJoint("lower")];
  const JointReaction& up = r[m.findJoint("upper")];
  const double W = 30.0 * 9.81;
  // The redundant (indeterminate) vertical split: equal halves.
  QVERIFY2(std::abs(lo.force.z() - up.force.z()) < 1e-6 * W, qPrintable(QString("%1 %2").arg(lo.force.z()).arg(up.force.z())));
  QVERIFY(std::abs(lo.force.z() + up.force.z() - W) < 1e-3 * W);  // together they carry the door
  // The horizontal reactions (statics, not redundant) are opposite and equal.
  QVERIFY((lo.force.head<2>() + up.force.head<2>()).norm() < 0.05 * W);  // + centripetal of the swinging door
}

void TestDynamics::bricardReactionsSymmetric() {
  const MechanismSpec s = freeBricard();
  const Model m = io::compileSpec(s);
  Data d = makeData(m);
  DynamicsStepper sim(m);
  QVERIFY2(sim.initialize(d), sim.stats().message.c_str());
  for (int k = 0; k < 100; ++k) QVERIFY2(sim.step(d, 1e-3), sim.stats().message.c_str());
  const auto r = sim.reactions();
  const Mat3 H = Eigen::AngleAxisd(M_PI, Vec3::UnitZ()).toRotationMatrix();
  double scale = 0, asym = 0;
  for (int k = 1; k <= 3; ++k) {
    const JointReaction& a = r[m.findJoint("J" + std::to_string(k))];
    const JointReaction& b = r[m.findJoint("J" + std::to_string(k + 3))];
    scale = std::max({scale, a.force.norm(), b.force.norm()});
    asym = std::max(asym, (H * a.force - b.force).norm());
  }
  QVERIFY(scale > 1e-3);  // the moving loop has reactions
  QVERIFY2(asym < 1e-5 * scale, qPrintable(QString("asymmetry %1 of %2").arg(asym).arg(scale)));
}

void TestDynamics::impulsesAreWeightedMinNorm() {
  // One step of the Bricard under gravity: the impulses of the closing half kick are the dense
  // weighted minimum-norm solution of the step's system (same right side).
  const Model m = io::loadModel(file("a04-bricard.json"));
  Data d = makeData(m);
  DynamicsStepper sim(m);
  QVERIFY(sim.initialize(d));
  QVERIFY(sim.step(d, 1e-3));
  VecX nu = sim.twist(), f, dv;
  sim.appliedForces(d, nu, f);
  std::vector<dyn::BodyInertia> bi;
  dyn::bodyInertias(m, d.q, bi);
  dyn::applyInverseMass(bi, f, dv);
  nu += 0.5e-3 * dv;
  const VecX r = -(sim.constraintJacobian() * nu);
  const MatX N(sim.constraintSystem());
  const VecX ref = dyn::weightedMinNormReference(N, r, sim.constraintWeights());
  VecX nu2 = nu;
  const VecX lambda = sim.constraintImpulses(d, d.t, nu2);
  QVERIFY2((lambda - ref).norm() <= 1e-6 * ref.norm() + 1e-12, qPrintable(QString::number((lambda - ref).norm() / ref.norm())));
  // The system is singular (one redundant row) and the answer differs from another solution.
  QCOMPARE(int(Eigen::FullPivLU<MatX>(N).rank()), int(N.rows()) - 1);
  // The new twist satisfies the velocity constraints.
  QVERIFY((sim.constraintJacobian() * nu2).norm() < 1e-8 * nu.norm());
}

void TestDynamics::twistRoundTrip() {
  const Model m = io::loadModel(file("a05-governor.json"));
  Data d = makeData(m);
  std::vector<dyn::BodyInertia> bi;
  dyn::bodyInertias(m, d.q, bi);
  VecX nu(6 * m.nMoving), qd, back;
  for (int i = 0; i < nu.size(); ++i) nu(i) = std::sin(1.0 + i);
  dyn::twistToQdot(m, d.q, bi, nu, qd);
  dyn::qdotToTwist(m, d.q, bi, qd, back);
  QVERIFY((back - nu).norm() < 1e-12 * nu.norm());
  // Twist rows against finite differences of Φ along q̇ = T ν: Φ(q + ε q̇) − Φ(q) ≈ ε J ν.
  DynamicsStepper sim(m);
  QVERIFY(sim.initialize(d));
  constraintJacobian(m, d);
  const VecX phiDot = d.Jq * qd;  // Φ_q T ν
  const SpMat& J = sim.constraintJacobian();
  // Rows of J are Φ's joint rows (same order): compare them.
  const VecX jn = J * nu;
  QVERIFY((jn - phiDot.head(jn.size())).norm() < 1e-10 * (1 + phiDot.norm()));
}

QTEST_APPLESS_MAIN(TestDynamics)
#include "test_dynamics.moc"
