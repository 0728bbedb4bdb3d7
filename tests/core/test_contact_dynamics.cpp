// tests/core/test_contact_dynamics.cpp — contact in the dynamic step (core/dynamics/contact_stage.cpp)
// on the example files of mechanisms/contact/, against physical facts:
//   a box resting on a plane stays put (drift < 1e-3 m over 1 s) and the normal impulses add up to
//   m g h per step; a dropped ball bounces to e² h₀ (then e⁴ h₀); a block on a slope sticks when
//   μ > tan θ and slides with a = g (sin θ − μ cos θ) when μ < tan θ; the gripper lifts the box by
//   friction; the cam follower's face follows R + e sin θ; the walker walks; the 3-D sphere scenes
//   stay in their box; nothing penetrates deeper than slop + tolerance; torsional friction stops a
//   spinning ball at μ_t m g / I and rolling friction slows a rolling one at μ_r g / (1.4 r). Also: PGS and AMGS 3.2 give
//   the same resting impulses, the "contact" section is read (errors at FILE:LINE:COL) and written back.
#include <QtTest>

#include <cmath>

#include "core/data.h"
#include "core/dynamics/dynamics.h"
#include "core/io/load.h"
#include "core/io/write.h"
#include "core/kinematics/kinematics.h"

using namespace mechsim;

namespace {

std::string file(const char* name) { return std::string(MECHSIM_SOURCE_DIR) + "/mechanisms/contact/" + name; }

/// Runs `sim` on d for T seconds at step h; calls f(d, sim) after every step. False on a failed step.
template <class F>
bool run(DynamicsStepper& sim, Data& d, double h, double T, F&& f) {
  const long n = std::lround(T / h);
  for (long k = 0; k < n; ++k) {
    if (!sim.step(d, h)) {
      qWarning("step failed at t = %g: %s", d.t, sim.stats().message.c_str());
      return false;
    }
    f(d, sim);
  }
  return true;
}

Vec3 position(const Model& m, const Data& d, const char* body) { return bodyPose(m, d.q, m.findBody(body)).position; }

double penetrationBound(const Model& m) { return m.contact.slop + 5e-4; }

/// sphere-bounce.json's ball (m = 0.5 kg, r = 0.05 m) resting on the ground, no restitution, with
/// the torsional and rolling friction lengths given.
Model restingBall(double torsional, double rolling) {
  MechanismSpec spec = io::readMechanismFile(file("sphere-bounce.json"));
  spec.bodies[1].position = Vec3(0, 0, 0.05);
  spec.contact.restitution = 0.0;
  spec.contact.torsionalFriction = torsional;
  spec.contact.rollingFriction = rolling;
  return io::compileSpec(spec);
}

/// World angular velocity of the free body whose coordinates start at qi: ω = 2 q̇ q̄.
Vec3 angularVelocity(const Data& d, int qi) {
  const Quat q(d.q(qi + 3), d.q(qi + 4), d.q(qi + 5), d.q(qi + 6));
  const Quat qd(d.qd(qi + 3), d.qd(qi + 4), d.qd(qi + 5), d.qd(qi + 6));
  return 2.0 * (qd * q.conjugate()).vec();
}

}  // namespace

class TestContactDynamics : public QObject {
  Q_OBJECT
 private slots:
  void boxRestsWithWeightAsNormalForce() {
    for (const bool pgs : {false, true}) {
      MechanismSpec spec = io::readMechanismFile(file("box-on-plane.json"));
      if (pgs) spec.contact.solver = "pgs";
      const Model m = io::compileSpec(spec);
      QVERIFY(m.contact.enabled);
      QCOMPARE(m.contact.pgs, pgs);
      Data d = makeData(m);
      DynamicsStepper sim(m);
      QVERIFY(sim.initialize(d));
      const double h = 1e-3;
      double deepest = 0;
      QVERIFY(run(sim, d, h, 0.2, [&](const Data&, const DynamicsStepper&) {}));  // lands (5 mm drop) and settles
      const Vec3 x0 = position(m, d, "box");
      const Quat q0(d.q(3), d.q(4), d.q(5), d.q(6));
      double minForce = 1e9, maxForce = 0;
      QVERIFY(run(sim, d, h, 1.0, [&](const Data&, const DynamicsStepper& s) {
        double total = 0;
        for (const ContactReport& c : s.contacts()) total += c.normalImpulse;
        minForce = std::min(minForce, total / h);
        maxForce = std::max(maxForce, total / h);
        deepest = std::max(deepest, s.stats().maxPenetration);
      }));
      const Vec3 x1 = position(m, d, "box");
      const Quat q1(d.q(3), d.q(4), d.q(5), d.q(6));
      const double mg = 2.0 * 9.81;
      qInfo("%s: drift %.3g m, rotation %.3g rad, normal force %.6g..%.6g N (m g = %.6g), %d contacts, %d sweeps, deepest %.3g m",
            pgs ? "pgs" : "amgs-3.2", (x1 - x0).norm(), q0.angularDistance(q1), minForce, maxForce, mg,
            sim.stats().contactCount, sim.stats().contactIterations, deepest);
      QVERIFY((x1 - x0).norm() < 1e-3);
      QVERIFY(q0.angularDistance(q1) < 1e-3);
      QCOMPARE(sim.stats().contactCount, 4);
      QVERIFY(std::abs(minForce - mg) < 1e-3 * mg && std::abs(maxForce - mg) < 1e-3 * mg);
      QVERIFY(deepest < penetrationBound(m));
      // the four corners share the weight equally (symmetric box)
      for (const ContactReport& c : sim.contacts()) QVERIFY(std::abs(c.normalImpulse / h - mg / 4) < 0.02 * mg);
    }
  }

  void ballBouncesToESquaredH() {
    const Model m = io::loadModel(file("sphere-bounce.json"));
    Data d = makeData(m);
    DynamicsStepper sim(m);
    QVERIFY(sim.initialize(d));
    const double e = m.contact.restitution, h0 = 1.0, r = 0.05;
    std::vector<double> apex;
    double prevZ = position(m, d, "ball").z(), prevV = 0;
    QVERIFY(run(sim, d, 1e-3, 1.5, [&](const Data& dd, const DynamicsStepper&) {
      const double z = position(m, dd, "ball").z(), v = z - prevZ;
      if (prevV > 0 && v <= 0) apex.push_back(prevZ - r);
      prevZ = z;
      prevV = v;
    }));
    QVERIFY(apex.size() >= 2);
    qInfo("apex heights %.5g, %.5g m; e² h0 = %.5g, e⁴ h0 = %.5g", apex[0], apex[1], e * e * h0, std::pow(e, 4) * h0);
    QVERIFY(std::abs(apex[0] - e * e * h0) < 0.03 * e * e * h0);
    QVERIFY(std::abs(apex[1] - std::pow(e, 4) * h0) < 0.05 * std::pow(e, 4) * h0);
  }

  void blockOnSlopeSticksOrSlides() {
    const double theta = 20 * M_PI / 180, g = 9.81;
    const Vec3 down(std::cos(theta), 0, -std::sin(theta));  // down the slope (normal (sin θ, 0, cos θ))
    // μ of the section alone, or of the block's shape: √(μ_block μ_section) with the section's 0.5
    // (0.2 → 0.316 < tan θ: it slides)
    for (const double mu : {0.5, 0.2, 0.0, std::sqrt(0.2 * 0.5)}) {
      MechanismSpec spec = io::readMechanismFile(file("block-on-slope.json"));
      if (mu == std::sqrt(0.2 * 0.5)) spec.bodies[1].shapes[0].friction = 0.2;
      else spec.contact.friction = mu;
      const Model m = io::compileSpec(spec);
      Data d = makeData(m);
      DynamicsStepper sim(m);
      QVERIFY(sim.initialize(d));
      const double h = 1e-3;
      QVERIFY(run(sim, d, h, 0.1, [](const Data&, const DynamicsStepper&) {}));
      const Vec3 x0 = position(m, d, "block");
      std::vector<double> s;
      QVERIFY(run(sim, d, h, 0.6, [&](const Data& dd, const DynamicsStepper&) { s.push_back((position(m, dd, "block") - x0).dot(down)); }));
      if (mu > std::tan(theta)) {
        qInfo("mu = %.2f: slid %.3g m in 0.6 s", mu, s.back());
        QVERIFY(std::abs(s.back()) < 1e-3);
        continue;
      }
      // s(t) = v0 t + ½ a t²: a from three equally spaced samples
      const int n = static_cast<int>(s.size());
      const double T = (n / 2) * h;
      const double a = (s[n - 1] - 2 * s[n / 2 - 1] + 0.0) / (T * T);  // s(0) = 0 at x0
      const double expect = g * (std::sin(theta) - mu * std::cos(theta));
      qInfo("mu = %.2f: a = %.5g m/s², g (sin θ − μ cos θ) = %.5g", mu, a, expect);
      QVERIFY(std::abs(a - expect) < 0.01 * expect);
    }
  }

  void gripperLiftsTheBox() {
    const Model m = io::loadModel(file("gripper.json"));
    Data d = makeData(m);
    DynamicsStepper sim(m);
    QVERIFY(sim.initialize(d));
    double deepest = 0;
    double tilt = 0;
    QVERIFY(run(sim, d, 1e-3, 1.2, [&](const Data& dd, const DynamicsStepper& s) {
      deepest = std::max(deepest, s.stats().maxPenetration);
      const Quat q = bodyPose(m, dd.q, m.findBody("box")).orientation;
      tilt = std::max(tilt, q.angularDistance(Quat::Identity()));
    }));
    const double rise = position(m, d, "palm").z() - 0.14;
    const double lifted = position(m, d, "box").z() - 0.04;
    qInfo("palm rose %.4g m, box %.4g m (slip %.3g m), largest tilt %.3g rad, deepest %.3g m, %d contacts", rise, lifted,
          rise - lifted, tilt, deepest, sim.stats().contactCount);
    QVERIFY(std::abs(rise - 0.08) < 1e-6);
    QVERIFY(std::abs(lifted - rise) < 2e-3);  // held by friction, off the ground
    QVERIFY(tilt < 0.01);                     // and not swinging about the grip axis
    QVERIFY(deepest < penetrationBound(m));
  }

  void camFollowerFollowsTheProfile() {
    const Model m = io::loadModel(file("cam-follower.json"));
    Data d = makeData(m);
    DynamicsStepper sim(m);
    QVERIFY(sim.initialize(d));
    const double R = 0.04, e = 0.01, half = 0.02;
    double worst = 0, deepest = 0;
    QVERIFY(run(sim, d, 1e-3, 1.0, [&](const Data& dd, const DynamicsStepper& s) {
      const double face = position(m, dd, "follower").y() - half;
      worst = std::max(worst, std::abs(face - (R + e * std::sin(2 * M_PI * dd.t))));
      deepest = std::max(deepest, s.stats().maxPenetration);
    }));
    qInfo("follower face vs R + e sin θ: max error %.3g m (lift 2e = %.3g m), deepest %.3g m", worst, 2 * e, deepest);
    QVERIFY(worst < m.contact.slop + 5e-4);
    QVERIFY(deepest < penetrationBound(m));
  }

  void walkerWalks() {
    const Model m = io::loadModel(file("walker.json"));
    Data d = makeData(m);
    DynamicsStepper sim(m);
    QVERIFY(sim.initialize(d));
    const double z0 = position(m, d, "chassis").z();
    double zmin = z0, zmax = z0, deepest = 0;
    QVERIFY(run(sim, d, 1e-3, 2.0, [&](const Data& dd, const DynamicsStepper& s) {
      const double z = position(m, dd, "chassis").z();
      zmin = std::min(zmin, z);
      zmax = std::max(zmax, z);
      deepest = std::max(deepest, s.stats().maxPenetration);
    }));
    const double x = position(m, d, "chassis").x();
    qInfo("walker: %.3g m in 2 s, chassis height %.4g..%.4g m, deepest %.3g m, residual %.3g", x, zmin, zmax, deepest,
          sim.stats().maxResidual);
    QVERIFY(x > 0.25);                         // two strides of ~0.17 m, forwards
    QVERIFY(zmin > z0 - 0.02 && zmax < z0 + 0.02);  // on its feet
    QVERIFY(deepest < penetrationBound(m));
    QVERIFY(sim.stats().maxResidual < 1e-8);   // the joints hold
  }

  void walkerWithPgsAndAmgs() {
    // The mixed contact + joint solve with either method: both keep the feet within slop + 0.5 mm;
    // reports the sweeps and the contact-stage time per step side by side.
    double sweeps[2] = {0, 0}, seconds[2] = {0, 0};
    for (const bool pgs : {false, true}) {
      MechanismSpec spec = io::readMechanismFile(file("walker.json"));
      if (pgs) spec.contact.solver = "pgs";
      const Model m = io::compileSpec(spec);
      Data d = makeData(m);
      DynamicsStepper sim(m);
      QVERIFY(sim.initialize(d));
      double deepest = 0;
      long steps = 0;
      QVERIFY(run(sim, d, 1e-3, 1.0, [&](const Data&, const DynamicsStepper& s) {
        deepest = std::max(deepest, s.stats().maxPenetration);
        sweeps[pgs] += s.stats().contactIterations;
        seconds[pgs] += s.stats().contactSeconds;
        ++steps;
      }));
      sweeps[pgs] /= double(steps);
      seconds[pgs] /= double(steps);
      QVERIFY(deepest < penetrationBound(m));
    }
    qInfo("walker, 1 s: amgs-3.2 (alpha 0.3) %.1f sweeps %.3g ms per step; pgs %.1f sweeps %.3g ms (ratio amgs/pgs %.2f, %.2f)",
          sweeps[0], 1e3 * seconds[0], sweeps[1], 1e3 * seconds[1], sweeps[0] / sweeps[1], seconds[0] / seconds[1]);
  }

  void sphereScenesStayInTheirBox() {
    for (const char* name : {"pool1-3d.json", "pool2-3d.json", "stacking-3d.json"}) {
      const Model m = io::loadModel(file(name));
      Data d = makeData(m);
      DynamicsStepper sim(m);
      QVERIFY(sim.initialize(d));
      const double h = m.dynamics.timestep;
      QVERIFY(std::abs(h - 1.0 / 60) < 1e-12);
      double deepest = 0;
      QVERIFY(run(sim, d, h, 1.0, [&](const Data&, const DynamicsStepper& s) { deepest = std::max(deepest, s.stats().maxPenetration); }));
      QVERIFY(d.q.allFinite());
      // every sphere above the ground and inside the walls (half width from the wall planes)
      double wall = 0;
      for (const Shape& s : m.bodies[0].shapes) wall = std::max(wall, s.local.position.x());
      for (size_t b = 1; b < m.bodies.size(); ++b) {
        const Vec3 x = bodyPose(m, d.q, static_cast<int>(b)).position;
        const double r = m.bodies[b].shapes[0].radius;
        QVERIFY(x.z() > r - 0.02);
        QVERIFY(std::abs(x.x()) < wall - r + 0.02 && std::abs(x.y()) < wall - r + 0.02);
      }
      qInfo("%s: %zu spheres, %d contacts, %d sweeps, RES %.3g, deepest %.3g m over 1 s", name, m.bodies.size() - 1,
            sim.stats().contactCount, sim.stats().contactIterations, sim.stats().contactResidual, deepest);
      QVERIFY(sim.stats().contactCount > static_cast<int>(m.bodies.size()) - 1);
      QVERIFY(deepest < 0.02);  // 10 sweeps per step (the paper's setting): loose, but bounded
    }
  }

  void planarScenesStayInTheirPlaneAndBox() {
    // Paper 000's own 2-D scenes: circles held in the xz-plane by planar joints to the ground, the
    // contact rows solved with those joint rows. After 1 s every circle is still in the plane,
    // above the ground and (Pool) between the walls x = 0 and x = 6 m; the stack stands upright.
    for (const char* name : {"pool1-2d.json", "pool2-2d.json", "stacking-2d.json"}) {
      const Model m = io::loadModel(file(name));
      Data d = makeData(m);
      DynamicsStepper sim(m);
      QVERIFY(sim.initialize(d));
      double deepest = 0;
      QVERIFY(run(sim, d, m.dynamics.timestep, 1.0,
                  [&](const Data&, const DynamicsStepper& s) { deepest = std::max(deepest, s.stats().maxPenetration); }));
      QVERIFY(d.q.allFinite());
      const bool pool = std::string(name).rfind("pool", 0) == 0;
      for (size_t b = 1; b < m.bodies.size(); ++b) {
        const Vec3 x = bodyPose(m, d.q, static_cast<int>(b)).position;
        const double r = m.bodies[b].shapes[0].radius;
        QVERIFY(std::abs(x.y()) < 1e-9);
        QVERIFY(x.z() > r - 0.02);
        if (pool) QVERIFY(x.x() > r - 0.02 && x.x() < 6.0 - r + 0.02);
        else QVERIFY2(std::abs(x.x()) < 1e-3, qPrintable(QString("%1 x %2").arg(b).arg(x.x())));
      }
      qInfo("%s: %zu circles, %d contacts, %d sweeps, RES %.3g, deepest %.3g m over 1 s", name, m.bodies.size() - 1,
            sim.stats().contactCount, sim.stats().contactIterations, sim.stats().contactResidual, deepest);
      QVERIFY(sim.stats().contactCount >= static_cast<int>(m.bodies.size()) - 1);
      // The 16-row piles settle with a transient penetration of about 6.4 cm at their bottom in the
      // first steps (10 sweeps per step, the paper's setting; 40 sweeps give the same), gone at
      // the end (the checks above); the stack stays within the 3-D scenes' bound.
      QVERIFY2(deepest < (pool ? 0.08 : 0.02), qPrintable(QString::number(deepest)));
    }
  }

  /// A ball (m = 0.5 kg, r = 0.05 m) resting on the ground, spinning about the vertical at 20 rad/s:
  /// the torsional friction couple μ_t λ_n/h = μ_t m g slows it at μ_t m g / I, I = 2/5 m r²; the
  /// pyramidal (sliding) friction of a single point cannot, so without μ_t it keeps spinning.
  void torsionalFrictionStopsASpinningBall() {
    for (const double mut : {0.005, 0.0}) {
      const Model m = restingBall(mut, 0.0);
      QCOMPARE(m.contact.torsionalFriction, mut);
      Data d = makeData(m);
      const int qi = m.bodies[m.findBody("ball")].qIndex;
      const double w0 = 20;
      d.qd.setZero(m.nq);
      d.qd(qi + 6) = 0.5 * w0;  // q̇ = ½ (0, ω) q at q = 1: ω = w0 about z
      DynamicsStepper sim(m);
      QVERIFY(sim.initialize(d));
      auto spin = [&](const Data& dd) { return angularVelocity(dd, qi).z(); };
      const double T = 0.2, h = 1e-3, r = 0.05, g = 9.81;
      QVERIFY(run(sim, d, h, T, [](const Data&, const DynamicsStepper&) {}));
      const double expect = mut > 0 ? w0 - mut * g / (0.4 * r * r) * T : w0;
      qInfo("mu_t = %g m: spin %.5g rad/s after %g s (closed form %.5g)", mut, spin(d), T, expect);
      QVERIFY2(std::abs(spin(d) - expect) < 0.01 * w0, qPrintable(QString::number(spin(d))));
      QVERIFY(std::abs(position(m, d, "ball").z() - 0.05) < penetrationBound(m));
    }
  }

  /// The same ball rolling at 1 m/s without slipping: the rolling friction couple μ_r m g slows it at
  /// a = μ_r g r / (I/m + r²) = μ_r g / (1.4 r) while it keeps rolling; without μ_r it rolls on.
  void rollingFrictionSlowsARollingBall() {
    for (const double mur : {0.002, 0.0}) {
      const Model m = restingBall(0.0, mur);
      Data d = makeData(m);
      const int qi = m.bodies[m.findBody("ball")].qIndex;
      const double v0 = 1.0, r = 0.05, g = 9.81, h = 1e-3, T = 1.0;
      d.qd.setZero(m.nq);
      d.qd(qi) = v0;
      d.qd(qi + 5) = 0.5 * v0 / r;  // ω_y = v0 / r: rolling along +x
      DynamicsStepper sim(m);
      QVERIFY(sim.initialize(d));
      QVERIFY(run(sim, d, h, T, [](const Data&, const DynamicsStepper&) {}));
      const double v = d.qd(qi), expect = v0 - (mur > 0 ? mur * g / (1.4 * r) * T : 0.0);
      const double wy = angularVelocity(d, qi).y();
      qInfo("mu_r = %g m: v = %.5g m/s after %g s (closed form %.5g), slip v − ω r = %.3g m/s", mur, v, T, expect, v - wy * r);
      QVERIFY2(std::abs(v - expect) < 0.01 * v0, qPrintable(QString::number(v)));
      QVERIFY(std::abs(v - wy * r) < 1e-3);  // still rolling
    }
  }

  void contactSectionReadAndWritten() {
    const std::string text = R"({ "mechsim": 1, "units": { "length": "mm" },
      "bodies": [ { "name": "ground", "fixed": true, "shapes": [ { "type": "plane", "normal": [0, 1, 0] } ] },
                  { "name": "b", "mass": 1, "shapes": [ { "type": "sphere", "radius": 10 } ] } ],
      "contact": { "solver": "pgs", "friction": 0.3, "slop": 2, "margin": 4, "exclude": [["b", "ground"]],
                   "torsionalFriction": 3, "rollingFriction": 1.5 } })";
    const std::string withShapeMu = std::string(text).replace(text.find(R"("radius": 10 })"), 14, R"("radius": 10, "friction": 0.7 })");
    const MechanismSpec spec = io::parseMechanism(text, "t.json", ".");
    const Model m = io::compileSpec(spec);
    QVERIFY(m.contact.enabled && m.contact.pgs);
    QCOMPARE(m.contact.friction, 0.3);
    QVERIFY(std::abs(m.contact.slop - 0.002) < 1e-15 && std::abs(m.contact.margin - 0.004) < 1e-15);
    QVERIFY(std::abs(m.contact.torsionalFriction - 0.003) < 1e-15 && std::abs(m.contact.rollingFriction - 0.0015) < 1e-15);
    QCOMPARE(int(m.contact.excluded.size()), 1);
    QVERIFY((m.bodies[0].shapes[0].local.orientation * Vec3::UnitZ() - Vec3::UnitY()).norm() < 1e-12);
    // written back and read again: the same settings and plane
    const MechanismSpec again = io::parseMechanism(io::writeMechanism(spec), "u.json", ".");
    QVERIFY(again.contact.present && again.contact.solver == spec.contact.solver);
    QVERIFY(std::abs(*again.contact.slop - 0.002) < 1e-15);
    QVERIFY(std::abs(*again.contact.torsionalFriction - 0.003) < 1e-15 && std::abs(*again.contact.rollingFriction - 0.0015) < 1e-15);
    QVERIFY(again.contact.exclude == spec.contact.exclude);
    // a shape's own friction: read, compiled, written back
    const MechanismSpec shaped = io::parseMechanism(withShapeMu, "s.json", ".");
    QCOMPARE(*shaped.bodies[1].shapes[0].friction, 0.7);
    QCOMPARE(io::compileSpec(shaped).bodies[1].shapes[0].friction, 0.7);
    QCOMPARE(m.bodies[1].shapes[0].friction, -1.0);  // unset: the section's
    QCOMPARE(*io::parseMechanism(io::writeMechanism(shaped), "v.json", ".").bodies[1].shapes[0].friction, 0.7);
    QCOMPARE(again.bodies[0].shapes[0].type, ShapeType::Plane);
    QVERIFY((again.bodies[0].shapes[0].axis - Vec3::UnitY()).norm() < 1e-15);
    // errors: FILE:LINE:COL with the path and a hint
    auto error = [](const std::string& t) -> std::string {
      try {
        io::parseMechanism(t, "bad.json", ".");
      } catch (const io::LoadError& e) {
        return e.what();
      }
      return "";
    };
    const std::string head = R"({ "mechsim": 1, "bodies": [ { "name": "g", "fixed": true } ],
  "contact": )";
    const std::string e1 = error(head + R"({ "frction": 0.3 } })");
    QVERIFY2(e1.find("bad.json:2:16: error: contact.frction: unknown key") == 0 && e1.find("friction") != std::string::npos, e1.c_str());
    const std::string e2 = error(head + R"({ "solver": "lemke" } })");
    QVERIFY2(e2.find("bad.json:2:26: error: contact.solver") == 0, e2.c_str());
    const std::string e3 = error(head + R"({ "restitution": 1.5 } })");
    QVERIFY2(e3.find("contact.restitution") != std::string::npos && e3.find("≤ 1") != std::string::npos, e3.c_str());
    const std::string e4 = error(head + R"({ "exclude": [["g", "gg"]] } })");
    QVERIFY2(e4.find("contact.exclude[0][1]: unknown body \"gg\"") != std::string::npos, e4.c_str());
    const std::string e6 = error(R"({ "mechsim": 1, "bodies": [ { "name": "g", "fixed": true,
  "shapes": [ { "type": "plane", "friction": -0.1 } ] } ] })");
    QVERIFY2(e6.find("bad.json:2:46: error: bodies[0].shapes[0].friction: friction coefficient must be ≥ 0") == 0, e6.c_str());
    const std::string e5 = error(head + R"({ "rollingFriction": -1 } })");
    QVERIFY2(e5.find("bad.json:2:35: error: contact.rollingFriction: rolling friction must be ≥ 0") == 0, e5.c_str());
  }
};

QTEST_APPLESS_MAIN(TestContactDynamics)
#include "test_contact_dynamics.moc"
