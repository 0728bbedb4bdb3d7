// tests/core/test_kinematics.cpp — tests core/kinematics/{position,velocity}.cpp (and through
// them coordinates.cpp): position analysis of a four-bar against Freudenstein's equation and of a
// slider-crank against its closed form (1e-9), velocities and accelerations against the closed
// forms, the slider-crank of paper 003 Fig. 2.1 driven through its singular position, and the
// failure path (q restored, stats filled; a driver past the mechanism's reach said so, by time and
// joint). On the example FILES (mechanisms/, loaded and run
// exactly as `mechsim-cli kinematics` does, geometry read from the loaded Model): fourbar.json
// against Freudenstein and slider-crank.json against the closed form (positions 1e-9, rates from
// the analytic derivatives); the singular mechanisms driven through their singular positions for
// dt from 0.001 to 0.05 on the branch they start on (slider-crank-singular: x = 2 r cos θ;
// fourbar-changepoint: rocker = crank, the parallelogram; nfourbar-40: all rods parallel).
#include <QtTest>

#include <complex>

#include "core/kinematics/equations.h"
#include "core/kinematics/kinematics.h"
#include "core/kinematics/workspace.h"
#include "core/max_abs.h"
#include "core/tolerances.h"
#include "files.h"
#include "mechanisms.h"

using namespace mechsim;
using namespace mechsim::test;

class TestKinematics : public QObject {
  Q_OBJECT
 private slots:
  void fourBarFreudenstein() {
    FourBar fb = fourBar(true);
    // θ2 − θ2(file) = 1.5 t + 0.4 t²
    auto f = [](double t) { return 1.5 * t + 0.4 * t * t; };
    const Model m = compile(fb.spec, {f});
    Data d = makeData(m);
    const int jA = m.findJoint("A"), jD = m.findJoint("D");
    const double a = fb.a, b = fb.b, c = fb.c, dd = fb.d;
    const double K1 = dd / a, K2 = dd / c, K3 = (a * a - b * b + c * c + dd * dd) / (2 * a * c);
    double th4Prev = fb.th4;
    double seconds = 0;
    int solves = 0;
    for (double t = 0; t <= 3.0 + 1e-12; t += 0.05) {
      QVERIFY2(solvePositions(m, d, t), d.stats.message.c_str());
      seconds += d.stats.solveSeconds;
      ++solves;
      QVERIFY(d.stats.residual < 1e-10);
      solveVelocities(m, d);
      solveAccelerations(m, d);
      updateJointCoordinates(m, d);
      const double th2 = fb.th2 + d.coords(m.joints[jA].firstCoord);
      const double th4 = fb.th4 + d.coords(m.joints[jD].firstCoord);
      QVERIFY(std::abs(th2 - (fb.th2 + f(t))) < 1e-9);
      // Freudenstein's equation and the closed-form rocker angle.
      QVERIFY2(std::abs(K1 * std::cos(th4) - K2 * std::cos(th2) + K3 - std::cos(th2 - th4)) < 1e-9,
               qPrintable(QString("Freudenstein residual at t = %1").arg(t)));
      const double th4Exact = fourBarRocker(a, b, c, dd, th2, th4Prev);
      QVERIFY(std::abs(th4 - th4Exact) < 1e-9);
      th4Prev = th4Exact;
      // Velocities and accelerations: differentiate a e^{iθ2} + b e^{iθ3} = d + c e^{iθ4}.
      using C = std::complex<double>;
      const C I(0, 1);
      const C A = a * std::exp(I * th2), B = dd + c * std::exp(I * th4);
      const double th3 = std::arg(B - A);
      const double w2 = 1.5 + 0.8 * t, al2 = 0.8;
      Eigen::Matrix2d M;  // unknowns (ω3, ω4): b ω3 i e^{iθ3} − c ω4 i e^{iθ4} = rhs
      const C e3 = I * std::exp(I * th3), e4 = -I * std::exp(I * th4);
      M << b * e3.real(), c * e4.real(), b * e3.imag(), c * e4.imag();
      const C rv = -a * w2 * I * std::exp(I * th2);
      const Eigen::Vector2d w = M.lu().solve(Eigen::Vector2d(rv.real(), rv.imag()));
      const C ra = -a * al2 * I * std::exp(I * th2) + a * w2 * w2 * std::exp(I * th2) +
                   b * w(0) * w(0) * std::exp(I * th3) - c * w(1) * w(1) * std::exp(I * th4);
      const Eigen::Vector2d al = M.lu().solve(Eigen::Vector2d(ra.real(), ra.imag()));
      QVERIFY(std::abs(d.coordVel(m.joints[jA].firstCoord) - w2) < 1e-8);
      QVERIFY2(std::abs(d.coordVel(m.joints[jD].firstCoord) - w(1)) < 1e-8,
               qPrintable(QString("ω4 %1 vs %2").arg(d.coordVel(m.joints[jD].firstCoord)).arg(w(1))));
      QVERIFY2(std::abs(d.coordAcc(m.joints[jD].firstCoord) - al(1)) < 1e-6,
               qPrintable(QString("α4 %1 vs %2").arg(d.coordAcc(m.joints[jD].firstCoord)).arg(al(1))));
      QVERIFY(!d.stats.singular);
    }
    qInfo("four-bar: %.1f µs per position analysis (Newton + rank checks)", 1e6 * seconds / solves);
  }

  void sliderCrankClosedForm() {
    SliderCrank sc = sliderCrank(0.3, 1.0, 0.5, true);
    auto f = [](double t) { return 2.0 * t + 0.3 * std::sin(t); };
    const Model m = compile(sc.spec, {f});
    Data d = makeData(m);
    const int cs = m.joints[m.findJoint("S")].firstCoord;
    double x0, dx, ddx;
    mechsim::test::sliderCrankClosedForm(sc.r, sc.l, sc.th0, x0, dx, ddx);
    for (double t = 0; t <= 4.0 + 1e-12; t += 0.05) {
      QVERIFY2(solvePositions(m, d, t), d.stats.message.c_str());
      solveVelocities(m, d);
      solveAccelerations(m, d);
      updateJointCoordinates(m, d);
      const double th = sc.th0 + f(t), thd = 2.0 + 0.3 * std::cos(t), thdd = -0.3 * std::sin(t);
      double x;
      mechsim::test::sliderCrankClosedForm(sc.r, sc.l, th, x, dx, ddx);
      QVERIFY2(std::abs(d.coords(cs) - (x - x0)) < 1e-9, qPrintable(QString("slide at t = %1").arg(t)));
      QVERIFY(std::abs(d.coordVel(cs) - dx * thd) < 1e-8);
      QVERIFY2(std::abs(d.coordAcc(cs) - (ddx * thd * thd + dx * thdd)) < 1e-6,
               qPrintable(QString("acc %1 vs %2").arg(d.coordAcc(cs)).arg(ddx * thd * thd + dx * thdd)));
      // The slider body's x velocity from q̇ agrees.
      const int qi = m.bodies[m.findBody("slider")].qIndex;
      QVERIFY(std::abs(d.qd(qi) - dx * thd) < 1e-8);
    }
  }

  // Paper 003 Fig. 2.1: crank = rod = L, driven through x = 0, y = L (bifurcation).
  void sliderCrankThroughSingularity() {
    const double L = 1.0;
    SliderCrank sc = sliderCrank(L, L, M_PI / 4, true);
    const Model m = compile(sc.spec, {[](double t) { return t; }});
    Data d = makeData(m);
    const int steps = 20;
    const double dt = (M_PI / 2) / steps;  // θ from π/4 to 3π/4, exactly π/2 at k = 10
    int singularCount = 0;
    for (int k = 0; k <= steps; ++k) {
      const double t = k * dt;
      QVERIFY2(solvePositions(m, d, t), qPrintable(QString("step %1: %2").arg(k).arg(d.stats.message.c_str())));
      QVERIFY(d.stats.residual < 1e-10);
      solveVelocities(m, d);
      solveAccelerations(m, d);
      QVERIFY(d.qd.allFinite() && d.qdd.allFinite());
      updateJointCoordinates(m, d);
      // The crank follows its driver; the crank pin is at L (cos θ, sin θ).
      const Pose crank = bodyPose(m, d.q, m.findBody("crank"));
      const double th = M_PI / 4 + t;
      QVERIFY((crank.apply(Vec3::Zero()) - Vec3::Zero()).norm() < 1e-9);
      const Pose rod = bodyPose(m, d.q, m.findBody("rod"));
      QVERIFY((rod.position - L * Vec3(std::cos(th), std::sin(th), 0)).norm() < 1e-9);
      if (k == steps / 2) {
        QVERIFY2(d.stats.singular, "singular position x = 0, y = L not reported");
        const MobilityReport r = analyseMobility(m, d);
        QVERIFY(r.singular);
        // Newton stops ~√tolerance from the bifurcation point, so the strict rank (tol::kRankRelative)
        // may still be full there; the exact singular configuration is checked in test_mobility.
        QVERIFY(r.dofDriven <= 1);
        qInfo("singular step: %d Newton iterations, residual %.2e", d.stats.iterations, d.stats.residual);
      }
      if (std::abs(k - steps / 2) >= 4) QVERIFY2(!d.stats.singular, qPrintable(QString("step %1 reported singular").arg(k)));
      singularCount += d.stats.singular;
      if (d.stats.singular) qInfo("step %d (θ = %.4f) singular", k, th);
    }
    QVERIFY(singularCount >= 1);
  }

  void failureRestoresState() {
    FourBar fb = fourBar(true);
    const Model m = compile(fb.spec, {[](double t) { return t; }});
    Data d = makeData(m);
    const VecX q0 = d.q;
    PositionOptions opt;
    opt.maxIterations = 1;
    QVERIFY(!solvePositions(m, d, 1.0, opt));
    QVERIFY(!d.stats.converged);
    QVERIFY(!d.stats.message.empty());
    QCOMPARE(d.t, 0.0);
    QVERIFY(d.q == q0);  // restored exactly
    // And it succeeds with the default options.
    QVERIFY(solvePositions(m, d, 1.0));
    QVERIFY(d.stats.converged && d.stats.message.empty());
  }

  // A driver undefined at t is refused before Newton starts, by name, and the state stays.
  void undefinedDriverRefused() {
    FourBar fb = fourBar(true);
    const Model m = compile(fb.spec, {[](double t) { return t < 0.5 ? t : std::sqrt(-t); }});
    Data d = makeData(m);
    QVERIFY(solvePositions(m, d, 0.2));
    const VecX q = d.q;
    QVERIFY(!solvePositions(m, d, 1.0));
    QVERIFY2(d.stats.message.find("driver 'crank' is undefined at t = 1") != std::string::npos, d.stats.message.c_str());
    QVERIFY(d.q == q && d.t == 0.2);
  }

  // A driver asking for a pose the mechanism cannot reach (tests/data/good/slider_crank_unreachable.json,
  // written for this test: the slider of slider-crank.json driven out at 100 mm/s, past the crank and
  // rod in line), run as `mechsim-cli kinematics` runs it: the analysis fails at the first output
  // time past the closed-form reach and says so — that time, the residual, the joint whose rows of
  // Φ are furthest from met at Newton's last iterate, the pose kept — and keeps the last good pose.
  void unreachableDriverSaysSo() {
    const Model m = io::loadModel(std::string(MECHSIM_SOURCE_DIR) + "/tests/data/good/slider_crank_unreachable.json");
    // Closed form: x = r cos θ + sqrt(l² − r² sin² θ) ≤ l + r, from x0 (θ = 30°) at v = 100 mm/s.
    const double r = 0.1, l = 0.35, v = 0.1, th0 = M_PI / 6;
    const double x0 = r * std::cos(th0) + std::sqrt(l * l - r * r * std::sin(th0) * std::sin(th0));
    const double tReach = (l + r - x0) / v;  // 0.169873 s
    const double dt = 0.01;
    const long kFail = static_cast<long>(std::floor(tReach / dt)) + 1;  // 17: t = 0.17 s
    QCOMPARE(kFail, 17L);
    Data d = makeData(m);
    VecX good, goodCoords;
    double tGood = -1;
    long k = 0;
    for (; k <= 100; ++k) {
      if (!solvePositions(m, d, k * dt)) break;
      solveVelocities(m, d);
      solveAccelerations(m, d);
      updateJointCoordinates(m, d);
      good = d.q, goodCoords = d.coords, tGood = d.t;
    }
    QCOMPARE(k, kFail);
    QVERIFY(!d.stats.converged);
    // The message: the failing time, what stalls, and the last good pose, kept exactly.
    const QString msg = QString::fromStdString(d.stats.message);
    char head[128], kept[128];
    std::snprintf(head, sizeof head, "cannot assemble at t = %.9g s: the residual stalls at ", kFail * dt);
    std::snprintf(kept, sizeof kept, "; the last good pose (t = %.9g s) is kept", (kFail - 1) * dt);
    QVERIFY2(msg.startsWith(head), qPrintable(msg));
    QVERIFY2(msg.endsWith(kept), qPrintable(msg));
    QVERIFY2(msg.startsWith("cannot assemble at t = 0.17 s:") && msg.endsWith("(t = 0.16 s) is kept"), qPrintable(msg));
    QCOMPARE(d.t, tGood);
    QVERIFY(d.q == good);
    QVERIFY(d.coords == goodCoords);
    const Joint& slide = m.joints[m.findJoint("S")];
    QVERIFY(std::abs(d.coords[slide.firstCoord] - v * tGood) < 1e-9);  // the driver met at 0.16 s
    // The joint named: Newton's last iterate is the one started from the entry (the kept) pose —
    // after a prediction that failed, or without one — so the same iteration from there gives it.
    KinematicsWorkspace& ws = kinematicsWorkspace(m, d);
    VecX q = d.q;
    int iterations = 0;
    double residual = 0;
    const PositionOptions opt;
    QVERIFY(!kin::newton(m, ws, q, kFail * dt, true, opt.maxIterations, opt.tolerance, iterations, residual));
    Data e = d;
    e.q = q;
    e.t = kFail * dt;
    constraintResidual(m, e);
    int worstJoint = -1;
    double worst = 0;
    for (int j = 0; j < static_cast<int>(m.joints.size()); ++j)
      for (int i = m.joints[j].firstEquation; i < m.joints[j].firstEquation + m.joints[j].nEquations; ++i)
        if (std::abs(e.phi[i]) > worst) worst = std::abs(e.phi[i]), worstJoint = j;
    QVERIFY(worstJoint >= 0 && std::abs(e.phi[m.drivers[0].equation]) < worst);
    const QString joint = QString("(joint \"%1\" furthest from met, by ").arg(m.joints[worstJoint].name.c_str());
    QVERIFY2(msg.contains(joint), qPrintable(msg + " / expected " + joint));
    QVERIFY2(msg.contains(QString("stalls at %1 after").arg(residual, 0, 'g', 3)), qPrintable(msg));
    QVERIFY2(msg.contains("(joint \"B\" furthest from met"), qPrintable(msg));  // crank–rod, as found
  }

  // Φ's max-norm must not hide a NaN (Eigen's vectorised maxCoeff keeps the other operand).
  void maxAbsSeesEveryNaN() {
    for (int n = 1; n <= 17; ++n)
      for (int k = 0; k < n; ++k) {
        VecX v = VecX::LinSpaced(n, -1, 2);
        v(k) = std::numeric_limits<double>::quiet_NaN();
        QVERIFY2(std::isnan(maxAbs(v)), qPrintable(QString("NaN at %1 of %2").arg(k).arg(n)));
      }
    QCOMPARE(maxAbs(Vec3(1, -5, 2)), 5.0);
    QCOMPARE(maxAbs(VecX()), 0.0);
  }

  // A driver defined on one side of t only gets one-sided stencils there: f = e^t for t ≥ 0
  // (NaN before) at t = 0 and t = h has f' = f'' = e^t; mirrored for t ≤ 0.
  void driverDerivativesOneSided() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Driver fwd, bwd, none;
    fwd.value = [=](double t) { return t < 0 ? nan : std::exp(t); };
    bwd.value = [=](double t) { return t > 0 ? nan : std::exp(t); };
    none.value = [=](double t) { return t == 0 ? 1.0 : nan; };
    double v, dv, ddv;
    for (const double t : {0.0, tol::kDriverDiffStep, 1.0}) {
      kin::driverValue(fwd, t, v, dv, ddv);
      QVERIFY2(std::abs(dv - std::exp(t)) < 1e-9 && std::abs(ddv - std::exp(t)) < 1e-5,
               qPrintable(QString("t = %1: %2 %3").arg(t).arg(dv, 0, 'g', 17).arg(ddv, 0, 'g', 17)));
      kin::driverValue(bwd, -t, v, dv, ddv);
      QVERIFY2(std::abs(dv - std::exp(-t)) < 1e-9 && std::abs(ddv - std::exp(-t)) < 1e-5,
               qPrintable(QString("t = %1: %2 %3").arg(-t).arg(dv, 0, 'g', 17).arg(ddv, 0, 'g', 17)));
    }
    kin::driverValue(none, 0.0, v, dv, ddv);
    QVERIFY(v == 1.0 && std::isnan(dv) && std::isnan(ddv));
  }

  // A copied Data does not share the solver cache (one worker thread per Data).
  void copiedDataHasOwnWorkspace() {
    FourBar fb = fourBar(true);
    const Model m = compile(fb.spec, {[](double t) { return t; }});
    Data d = makeData(m);
    QVERIFY(solvePositions(m, d, 0.5));
    QVERIFY(d.kinematics.ws != nullptr);
    Data copy = d;
    QVERIFY(copy.kinematics.ws == nullptr);
    QVERIFY(solvePositions(m, copy, 0.6));
    QVERIFY(copy.kinematics.ws != d.kinematics.ws);
    QVERIFY(solvePositions(m, d, 0.6));
    QVERIFY((copy.q - d.q).cwiseAbs().maxCoeff() < 1e-12);
  }

  // ---- the example files through the CLI pipeline ----

  // fourbar.json: rocker angle by Freudenstein / the closed form, ω4 and α4 from the derivatives of
  // the loop equation a e^{iθ2} + b e^{iθ3} = d + c e^{iθ4}. Geometry from the loaded model.
  void fourBarFileClosedForm() {
    const Model m = loadExample("fourbar.json");
    const Vec3 O2 = jointPoint(m, "A"), A0 = jointPoint(m, "B"), B0 = jointPoint(m, "C"), O4 = jointPoint(m, "D");
    const double a = (A0 - O2).norm(), b = (B0 - A0).norm(), c = (B0 - O4).norm(), dd = (O4 - O2).norm();
    QVERIFY(std::abs(a - 0.1) < 1e-12 && std::abs(dd - 0.4) < 1e-12);  // the README's lengths
    const Vec3 e = (O4 - O2) / dd;
    const double th20 = planarAngle(e, A0 - O2), th40 = planarAngle(e, B0 - O4);
    const int cA = m.joints[m.findJoint("A")].firstCoord, cD = m.joints[m.findJoint("D")].firstCoord;
    const Driver& drv = m.drivers.at(0);
    QCOMPARE(drv.joint, m.findJoint("A"));
    const double K1 = dd / a, K2 = dd / c, K3 = (a * a - b * b + c * c + dd * dd) / (2 * a * c);
    double th4Prev = th40;
    const long n = runLikeCli(m, 2.0, 0.01, [&](long, double t, const Data& d) {
      double val, dval, ddval;
      kin::driverValue(drv, t, val, dval, ddval);
      QVERIFY(d.stats.residual < 1e-9);
      QVERIFY(std::abs(d.coords(cA) - val) < 1e-9);
      const double th2 = th20 + d.coords(cA), th4 = th40 + d.coords(cD);
      QVERIFY2(std::abs(K1 * std::cos(th4) - K2 * std::cos(th2) + K3 - std::cos(th2 - th4)) < 1e-9,
               qPrintable(QString("Freudenstein residual at t = %1").arg(t)));
      const double th4Exact = fourBarRocker(a, b, c, dd, th2, th4Prev);
      QVERIFY2(std::abs(std::remainder(th4 - th4Exact, 2 * M_PI)) < 1e-9,
               qPrintable(QString("θ4 %1 vs %2 at t = %3").arg(th4).arg(th4Exact).arg(t)));
      th4Prev = th4Exact;
      using C = std::complex<double>;
      const C I(0, 1);
      const C Ap = a * std::exp(I * th2), Bp = dd + c * std::exp(I * th4);
      const double th3 = std::arg(Bp - Ap);
      Eigen::Matrix2d M;  // (ω3, ω4): b ω3 i e^{iθ3} − c ω4 i e^{iθ4} = −a ω2 i e^{iθ2}
      const C e3 = I * std::exp(I * th3), e4 = -I * std::exp(I * th4);
      M << b * e3.real(), c * e4.real(), b * e3.imag(), c * e4.imag();
      const C rv = -a * dval * I * std::exp(I * th2);
      const Eigen::Vector2d w = M.lu().solve(Eigen::Vector2d(rv.real(), rv.imag()));
      const C ra = -a * ddval * I * std::exp(I * th2) + a * dval * dval * std::exp(I * th2) +
                   b * w(0) * w(0) * std::exp(I * th3) - c * w(1) * w(1) * std::exp(I * th4);
      const Eigen::Vector2d al = M.lu().solve(Eigen::Vector2d(ra.real(), ra.imag()));
      QVERIFY(std::abs(d.coordVel(cA) - dval) < 1e-8);
      QVERIFY2(std::abs(d.coordVel(cD) - w(1)) < 1e-8 * std::max(1.0, std::abs(w(1))),
               qPrintable(QString("ω4 %1 vs %2 at t = %3").arg(d.coordVel(cD)).arg(w(1)).arg(t)));
      QVERIFY2(std::abs(d.coordAcc(cD) - al(1)) < 1e-7 * std::max(1.0, std::abs(al(1))),
               qPrintable(QString("α4 %1 vs %2 at t = %3").arg(d.coordAcc(cD)).arg(al(1)).arg(t)));
      QVERIFY(!d.stats.singular);
    });
    QCOMPARE(n, 201L);
  }

  // slider-crank.json (millimetre file): slider position, velocity and acceleration by the closed
  // form x = r cos θ + √(l² − r² sin² θ) (slider axis through the crank pivot).
  void sliderCrankFileClosedForm() {
    const Model m = loadExample("slider-crank.json");
    const Vec3 O = jointPoint(m, "O"), B0 = jointPoint(m, "B"), C0 = jointPoint(m, "C");
    const double r = (B0 - O).norm(), l = (C0 - B0).norm();
    QVERIFY(std::abs(r - 0.1) < 1e-9 && std::abs(l - 0.35) < 1e-9);  // SI after the mm → m conversion
    QVERIFY(std::abs(C0.y() - O.y()) < 1e-12);                         // zero offset
    const double th0 = planarAngle(Vec3::UnitX(), B0 - O);
    const int cO = m.joints[m.findJoint("O")].firstCoord, cS = m.joints[m.findJoint("S")].firstCoord;
    const int slider = m.findBody("slider");
    const Driver& drv = m.drivers.at(0);
    double x0, dx0, ddx0;
    mechsim::test::sliderCrankClosedForm(r, l, th0, x0, dx0, ddx0);
    QVERIFY(std::abs(x0 - (C0.x() - O.x())) < 1e-12);
    const long n = runLikeCli(m, 2.0, 0.01, [&](long, double t, const Data& d) {
      double val, dval, ddval;
      kin::driverValue(drv, t, val, dval, ddval);
      QVERIFY(d.stats.residual < 1e-9);
      QVERIFY(std::abs(d.coords(cO) - val) < 1e-9);
      double x, dx, ddx;
      mechsim::test::sliderCrankClosedForm(r, l, th0 + d.coords(cO), x, dx, ddx);
      QVERIFY2(std::abs(x0 + d.coords(cS) - x) < 1e-9, qPrintable(QString("slider at t = %1").arg(t)));
      QVERIFY(std::abs(bodyPose(m, d.q, slider).position.x() - O.x() - x) < 1e-9);
      const double v = dx * dval, acc = ddx * dval * dval + dx * ddval;
      QVERIFY2(std::abs(d.coordVel(cS) - v) < 1e-9 * std::max(1.0, std::abs(v)),
               qPrintable(QString("ẋ %1 vs %2 at t = %3").arg(d.coordVel(cS)).arg(v).arg(t)));
      QVERIFY2(std::abs(d.coordAcc(cS) - acc) < 1e-7 * std::max(1.0, std::abs(acc)),
               qPrintable(QString("ẍ %1 vs %2 at t = %3").arg(d.coordAcc(cS)).arg(acc).arg(t)));
      QVERIFY(!d.stats.singular);
    });
    QCOMPARE(n, 201L);
  }

  // slider-crank-singular.json (paper 003 Fig. 2.1, crank = rod, bifurcation at t = 0.5 s): passes
  // for every dt and stays on the branch x = 2 r cos θ (not the folded branch x ≡ 0).
  void sliderCrankSingularFileThroughBifurcation_data() {
    QTest::addColumn<double>("dt");
    for (double dt : {0.001, 0.003, 0.01, 0.02, 0.03, 0.05}) QTest::newRow(qPrintable(QString::number(dt))) << dt;
  }
  void sliderCrankSingularFileThroughBifurcation() {
    QFETCH(double, dt);
    const Model m = loadExample("slider-crank-singular.json");
    const Vec3 O = jointPoint(m, "O"), B0 = jointPoint(m, "B"), C0 = jointPoint(m, "C");
    const double r = (B0 - O).norm();
    QVERIFY(std::abs((C0 - B0).norm() - r) < 1e-12);
    const double th0 = planarAngle(Vec3::UnitX(), B0 - O);
    const int cO = m.joints[m.findJoint("O")].firstCoord;
    const int slider = m.findBody("slider");
    int singular = 0;
    runLikeCli(m, 2.0, dt, [&](long, double t, const Data& d) {
      QVERIFY(d.stats.residual < 1e-9);
      const double x = bodyPose(m, d.q, slider).position.x() - O.x();
      const double xExact = 2 * r * std::cos(th0 + d.coords(cO));
      // At the bifurcation point itself Newton converges linearly and stops ~√tolerance away.
      const double tolX = d.stats.singular ? 1e-5 : 1e-8;
      QVERIFY2(std::abs(x - xExact) < tolX, qPrintable(QString("t = %1: x %2 vs %3").arg(t).arg(x).arg(xExact)));
      QVERIFY2(d.stats.singular == (std::abs(t - 0.5) < 1e-9),
               qPrintable(QString("t = %1 singular %2").arg(t).arg(d.stats.singular)));
      // Rates stay bounded through the bifurcation (minimum norm at the point itself).
      QVERIFY(std::abs(d.coordVel(cO) - M_PI / 2) < 1e-8);
      QVERIFY2(d.qd.norm() < 10 && d.qdd.norm() < 100, qPrintable(QString("t = %1: |q̇| %2 |q̈| %3").arg(t).arg(d.qd.norm()).arg(d.qdd.norm())));
      singular += d.stats.singular;
    });
    const double k = 0.5 / dt;
    QCOMPARE(singular, std::abs(k - std::round(k)) < 1e-9 ? 1 : 0);
  }

  // fourbar-changepoint.json (parallelogram; change points at t = 0.5 s and 1.5 s): the rocker
  // follows the crank (parallelogram branch) at all times, through both change points.
  void changePointKeepsParallelogram_data() {
    QTest::addColumn<double>("dt");
    for (double dt : {0.001, 0.01, 0.02, 0.025, 0.05}) QTest::newRow(qPrintable(QString::number(dt))) << dt;
  }
  void changePointKeepsParallelogram() {
    QFETCH(double, dt);
    const Model m = loadExample("fourbar-changepoint.json");
    const int cA = m.joints[m.findJoint("A")].firstCoord, cD = m.joints[m.findJoint("D")].firstCoord;
    const long n = runLikeCli(m, 2.0, dt, [&](long, double t, const Data& d) {
      QVERIFY(d.stats.residual < 1e-9);
      QVERIFY(std::abs(std::remainder(d.coords(cA) - M_PI * t, 2 * M_PI)) < 1e-9);
      const double tolAngle = d.stats.singular ? 1e-5 : 1e-8;
      QVERIFY2(std::abs(std::remainder(d.coords(cD) - d.coords(cA), 2 * M_PI)) < tolAngle,
               qPrintable(QString("t = %1: rocker %2, crank %3").arg(t).arg(d.coords(cD)).arg(d.coords(cA))));
      if (!d.stats.singular) {
        QVERIFY(std::abs(d.coordVel(cD) - M_PI) < 1e-8);
        QVERIFY(std::abs(d.coordAcc(cD)) < 1e-6);
      } else {
        // Minimum-norm rates at the change point: bounded, the driver's rate kept.
        QVERIFY(std::abs(d.coordVel(cA) - M_PI) < 1e-8);
        QVERIFY2(d.qd.norm() < 10 && d.qdd.norm() < 100, qPrintable(QString("|q̇| %1 |q̈| %2").arg(d.qd.norm()).arg(d.qdd.norm())));
      }
      const bool changePoint = std::abs(t - 0.5) < 1e-9 || std::abs(t - 1.5) < 1e-9;
      QVERIFY2(d.stats.singular == changePoint, qPrintable(QString("t = %1 singular %2").arg(t).arg(d.stats.singular)));
    });
    QCOMPARE(n, static_cast<long>(std::floor(2.0 / dt + 1e-9)) + 1);
  }

  // nfourbar-40.json with dt = 0.01 as the CLI runs it (the case: it failed at t = 1.01 s,
  // just after the horizontal position where the mobility jumps from 1 to 41).
  void nFourBarThroughHorizontal() {
    const Model m = loadExample("nfourbar-40.json");
    std::vector<int> rods;
    for (int k = 0;; ++k) {
      const int j = m.findJoint("G" + std::to_string(k));
      if (j < 0) break;
      rods.push_back(m.joints[j].firstCoord);
    }
    QCOMPARE(static_cast<int>(rods.size()), 41);
    int singular = 0;
    const long n = runLikeCli(m, 2.0, 0.01, [&](long, double t, const Data& d) {
      QVERIFY(d.stats.residual < 1e-9);
      // Every rod keeps parallel to the driven one (the parallelogram branch).
      const double tolAngle = d.stats.singular ? 1e-5 : 1e-7;
      for (int c : rods)
        QVERIFY2(std::abs(std::remainder(d.coords(c) - d.coords(rods[0]), 2 * M_PI)) < tolAngle,
                 qPrintable(QString("t = %1").arg(t)));
      QVERIFY2(d.stats.singular == (std::abs(t - 1.0) < 1e-9), qPrintable(QString("t = %1").arg(t)));
      QVERIFY2(d.qd.norm() < 100 && d.qdd.norm() < 1000, qPrintable(QString("t = %1: |q̇| %2 |q̈| %3").arg(t).arg(d.qd.norm()).arg(d.qdd.norm())));
      singular += d.stats.singular;
    });
    QCOMPARE(n, 201L);
    QCOMPARE(singular, 1);
  }

  // The predictor does not change where the analysis ends up on a regular motion, and a caller
  // that moves d.q itself (no continuation) gets plain Newton from its d.q.
  void predictorOnlyWhenContinuing() {
    FourBar fb = fourBar(true);
    const Model m = compile(fb.spec, {[](double t) { return t; }});
    Data d = makeData(m), e = makeData(m);
    for (double t = 0; t <= 1.0 + 1e-12; t += 0.1) {
      QVERIFY(solvePositions(m, d, t));
      solveVelocities(m, d);
      solveAccelerations(m, d);
      QVERIFY(solvePositions(m, e, t));  // no rates: extrapolation of positions only
    }
    QVERIFY((d.q - e.q).cwiseAbs().maxCoeff() < 1e-9);
    // Moving d.q by hand: the next call starts from it (converges back to the same branch).
    d.q.array() += 1e-4;
    QVERIFY(solvePositions(m, d, 1.1));
    QVERIFY(solvePositions(m, e, 1.1));
    QVERIFY((d.q - e.q).cwiseAbs().maxCoeff() < 1e-9);
  }

  // An angle driver's equation ρ sin(θ − θ_d) also vanishes at θ_d + π. A jump in t of more than
  // 90° of crank angle with no predictor (a fresh Data, or a scrub of the timeline) must still end
  // at θ_d, by continuation in t from the entry time, and on the same assembly branch.
  void largeDriverJumpKeepsTheDrivenAngle() {
    SliderCrank sc = sliderCrank(0.3, 1.0, 0.5, true);
    const Model m = compile(sc.spec, {[](double t) { return t; }});
    const int co = m.joints[m.findJoint("O")].firstCoord, cs = m.joints[m.findJoint("S")].firstCoord;
    for (double t : {2.0, 2.6, 3.0, -2.8, 5.5}) {
      Data d = makeData(m);
      QVERIFY2(solvePositions(m, d, t), d.stats.message.c_str());
      updateJointCoordinates(m, d);
      QVERIFY2(std::abs(std::remainder(d.coords(co) - t, 2 * M_PI)) < 1e-9,
               qPrintable(QString("crank %1 at t = %2").arg(d.coords(co)).arg(t)));
      double x, x0, dx, ddx;  // the slider stays on the file's branch (x > 0 side of the crank)
      mechsim::test::sliderCrankClosedForm(sc.r, sc.l, sc.th0, x0, dx, ddx);
      mechsim::test::sliderCrankClosedForm(sc.r, sc.l, sc.th0 + t, x, dx, ddx);
      QVERIFY2(std::abs(d.coords(cs) - (x - x0)) < 1e-9, qPrintable(QString("slide at t = %1").arg(t)));
    }
  }

  // Without drivers Newton still converges (minimum-norm steps) from a perturbed state.
  void freeProjection() {
    FourBar fb = fourBar(false);
    const Model m = compile(fb.spec);
    Data d = makeData(m);
    d.q.array() += 1e-3;
    PositionOptions opt;
    opt.drivers = false;
    QVERIFY(solvePositions(m, d, 0.0, opt));
    QVERIFY(d.stats.residual < 1e-10);
    QCOMPARE(d.stats.rank, 20);
  }
};

QTEST_APPLESS_MAIN(TestKinematics)
#include "test_kinematics.moc"
