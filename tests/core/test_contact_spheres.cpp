// tests/core/test_contact_spheres.cpp — tests core/contact/{broadphase,spheres,scenes}.cpp: the
// uniform-grid broad phase against all pairs, the sphere narrow phase against closed-form gaps,
// a dropped ball against the restitution law (rebound height e² h₀), a sliding disc / sphere
// against the closed-form slide-to-roll transition, warm starting, the paper's scenes (bodies stay
// in the box, no NaN), and two identities on a real contact problem of Pool 1: Method 3.1 and
// Method 2.2 give the same iterates, and AMGS with Ω = D/γ, γ = 2 is PGS (eq. 14 with
// Ω_ii = A_ii/2 reduces to λ_i ← max{0, λ_i − r_i/A_ii}).
#include <QtTest>

#include <random>

#include "core/contact/broadphase.h"
#include "reference/contact/scenes.h"
#include "reference/contact/spheres.h"

using namespace mechsim;
using namespace mechsim::contact;

namespace {

SphereWorld singleBody(bool planar, double friction, double h) {
  SphereWorld w;
  w.settings.planar = planar;
  w.settings.friction = friction;
  w.settings.timeStep = h;
  w.planes.push_back({Vec3::UnitY(), 0.0});
  return w;
}

SolverSettings accurate() {
  SolverSettings s = parseMethod("amgs-3.1-a0.2");
  s.maxIterations = 200;
  return s;
}

}  // namespace

class TestContactSpheres : public QObject {
  Q_OBJECT
 private slots:
  void gridMatchesAllPairs();
  void narrowPhaseGaps();
  void droppedBallRebound();
  void slideToRoll();
  void warmStartHelps();
  void poolScenesStayInTheBox();
  void methodsOnPoolProblem();
};

void TestContactSpheres::gridMatchesAllPairs() {
  std::mt19937 g(21);
  std::uniform_real_distribution<double> X(-3, 3), R(0.05, 0.2);
  for (bool planar : {true, false}) {
    std::vector<Vec3> c;
    std::vector<double> r;
    for (int i = 0; i < 600; ++i) {
      c.emplace_back(X(g), X(g), planar ? 0.0 : X(g));
      r.push_back(R(g));
    }
    const double margin = 0.02;
    std::vector<std::pair<int, int>> brute, grid;
    for (int i = 0; i < 600; ++i)
      for (int j = i + 1; j < 600; ++j)
        if ((c[j] - c[i]).norm() < r[i] + r[j] + margin) brute.emplace_back(i, j);
    SphereGrid sg;
    sg.pairs(c, r, margin, planar, grid);
    QVERIFY(brute.size() > 50);
    QVERIFY(grid == brute);
  }
  SphereGrid sg;
  std::vector<std::pair<int, int>> out;
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                           sg.pairs({Vec3(0, 0, 0), Vec3(std::nan(""), 0, 0)}, {0.1, 0.1}, 0.0, true, out));
}

void TestContactSpheres::narrowPhaseGaps() {
  for (bool planar : {true, false}) {
    SphereWorld w = singleBody(planar, 0.1, 1e-3);
    w.settings.gravity.setZero();
    w.addSphere(Vec3(1.0, 0.3, 0), 0.3, 1.0);           // touches the ground (gap 0)
    w.addSphere(Vec3(1.6, 0.3 + 0.005, 0), 0.3, 1.0);   // 0.005 from sphere 0 minus …
    w.addSphere(Vec3(3.0, 2.0, 0), 0.25, 1.0);           // far from everything
    w.beginStep();
    const auto& cs = w.contacts();
    QCOMPARE(static_cast<int>(cs.size()), 3);  // 0–ground, 1–ground (gap 0.005), 0–1
    for (const auto& c : cs) {
      if (c.a < 0) {
        QVERIFY((c.normal - Vec3::UnitY()).norm() < 1e-15);
        QVERIFY(std::abs(c.gap - (c.b == 0 ? 0.0 : 0.005)) < 1e-12);
      } else {
        const double dist = std::sqrt(0.6 * 0.6 + 0.005 * 0.005);
        QVERIFY(std::abs(c.gap - (dist - 0.6)) < 1e-12);
        QVERIFY((c.normal - Vec3(0.6, 0.005, 0) / dist).norm() < 1e-12);
      }
    }
    QCOMPARE(w.problem().rows(), 3 * (planar ? 2 : 3));  // normal + 1 (plane) or 2 tangents
    w.problem().validate();
  }
}

void TestContactSpheres::droppedBallRebound() {
  // h₀ = 1 m onto the ground, e = 0.2: rebound apex ≈ e² h₀ = 4 cm (h = 1 ms steps)
  for (bool planar : {true, false}) {
    SphereWorld w = singleBody(planar, 0.1, 1e-3);
    w.addSphere(Vec3(0, 1.0 + 0.1, 0), 0.1, 1.0);
    LcpSolver solver;
    double apex = 0;
    bool bounced = false;
    for (int k = 0; k < 1000; ++k) {
      w.step(solver, accurate());
      if (w.velocity[0].y() > 0) bounced = true;
      if (bounced) apex = std::max(apex, w.position[0].y() - 0.1);
      if (bounced && w.velocity[0].y() < 0 && w.position[0].y() > 0.15) break;
    }
    QVERIFY(bounced);
    QVERIFY2(std::abs(apex - 0.04) < 0.004, qPrintable(QString("apex %1").arg(apex)));
    // it comes to rest on the ground, penetration within the slop
    for (int k = 0; k < 3000; ++k) w.step(solver, accurate());
    QVERIFY(w.velocity[0].norm() < 1e-3);
    QVERIFY(std::abs(w.position[0].y() - 0.1) < 2e-3);
  }
}

void TestContactSpheres::slideToRoll() {
  // a disc (I = ½mr²) or sphere (I = ⅖mr²) sliding at v₀ without spin: friction μmg slows it
  // (v = v₀ − μgt) and spins it up until v = ωr: v* = v₀/(1 + mr²/I) ⋅ (mr²/I) … i.e. 2v₀/3 (disc),
  // 5v₀/7 (sphere), reached at t* = (v₀ − v*)/(μg)
  const double mu = 0.3, v0 = 3.0, g = 9.80665, r = 0.2;
  for (bool planar : {true, false}) {
    SphereWorld w = singleBody(planar, mu, 1e-3);
    w.addSphere(Vec3(0, r, 0), r, 2.0);
    w.velocity[0] = Vec3(v0, 0, 0);
    const double vstar = planar ? 2 * v0 / 3 : 5 * v0 / 7, tstar = (v0 - vstar) / (mu * g);
    LcpSolver solver;
    const int half = static_cast<int>(0.5 * tstar / 1e-3);
    for (int k = 0; k < half; ++k) w.step(solver, accurate());
    QVERIFY2(std::abs(w.velocity[0].x() - (v0 - mu * g * w.time())) < 0.01,
             qPrintable(QString("v %1 expected %2").arg(w.velocity[0].x()).arg(v0 - mu * g * w.time())));
    for (int k = 0; k < 3 * half; ++k) w.step(solver, accurate());
    QVERIFY2(std::abs(w.velocity[0].x() - vstar) < 0.01 * v0, qPrintable(QString("v %1").arg(w.velocity[0].x())));
    QVERIFY(std::abs(w.velocity[0].x() + w.angular[0].z() * r) < 0.01 * v0);  // rolling: v = −ω_z r
  }
}

void TestContactSpheres::warmStartHelps() {
  SphereWorld w = stackingScene(5);
  LcpSolver solver;
  SolverSettings s = parseMethod("pgs");
  s.maxIterations = 10;
  for (int k = 0; k < 200; ++k) w.step(solver, s);
  w.beginStep();
  QVERIFY(w.impulses().norm() > 0);  // impulses carried over from step 200
  LcpPrecomputed pre;
  precompute(w.problem(), pre);
  VecX warm = w.impulses(), cold = VecX::Zero(w.problem().rows());
  solver.solve(w.problem(), s, warm);
  solver.solve(w.problem(), s, cold);
  const double rw = residual(w.problem(), pre, warm), rc = residual(w.problem(), pre, cold);
  QVERIFY2(rw < 0.5 * rc, qPrintable(QString("warm %1 cold %2").arg(rw).arg(rc)));
  w.endStep();
}

void TestContactSpheres::poolScenesStayInTheBox() {
  for (bool heavy : {false, true}) {
    SphereWorld w = poolScene(heavy);
    QCOMPARE(w.bodies(), 221);
    const double mmin = *std::min_element(w.mass.begin(), w.mass.end());
    const double mmax = *std::max_element(w.mass.begin(), w.mass.end());
    QVERIFY(heavy ? (std::abs(mmin - 1) < 1e-12 && std::abs(mmax - 3) < 1e-12) : mmin == mmax);
    LcpSolver solver;
    SolverSettings s = parseMethod("amgs-3.1-a0.2");
    s.maxIterations = 10;
    for (int k = 0; k < 100; ++k) w.step(solver, s);
    for (int i = 0; i < w.bodies(); ++i) {
      QVERIFY(w.position[i].allFinite());
      QVERIFY(w.position[i].x() > 0.21 - 0.05 && w.position[i].x() < 6 - 0.21 + 0.05 && w.position[i].y() > 0.21 - 0.05);
    }
  }
}

void TestContactSpheres::methodsOnPoolProblem() {
  SphereWorld w = poolScene(false, true, 0.0);
  LcpSolver solver;
  SolverSettings s = parseMethod("pgs");
  s.maxIterations = 10;
  for (int k = 0; k < 30; ++k) w.step(solver, s);
  w.beginStep();
  const LcpProblem& p = w.problem();
  QVERIFY(p.rows() > 300);
  const VecX warm = w.impulses();
  auto run = [&](SolverSettings st, int k) {
    st.maxIterations = k;
    VecX l = warm;
    LcpSolver sv;
    sv.solve(p, st, l);
    return l;
  };
  SolverSettings dense = parseMethod("amgs-3.1-a0.2");
  dense.method = Method::AmgsDense;
  for (int k : {1, 5, 20}) {
    const VecX a = run(parseMethod("amgs-3.1-a0.2"), k), b = run(dense, k);
    QVERIFY((a - b).norm() <= 1e-11 * (1 + b.norm()));
    const VecX c = run(parseMethod("amgs-3.1-D"), k), d = run(parseMethod("pgs"), k);
    QVERIFY((c - d).norm() <= 1e-11 * (1 + d.norm()));
    // … while another α is a different method
    QVERIFY((a - d).norm() > 1e-6 * (1 + d.norm()));
  }
}

QTEST_APPLESS_MAIN(TestContactSpheres)
#include "test_contact_spheres.moc"
