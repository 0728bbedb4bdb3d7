// tests/core/test_sim_dofs.cpp — core/sim/dofs.cpp reachableRange against closed-form ranges
// (slider-crank slider, crank-rocker rocker: turning points that end the range; a parallelogram
// four-bar's crank: change points that the search passes), and core/sim/anm_slider.cpp: a long slider move
// along the ANM path ends on the configuration that fine-stepped Newton continuation reaches.
#include <QtTest>

#include <cmath>

#include "core/io/load.h"
#include "core/kinematics/kinematics.h"
#include "core/sim/anm_slider.h"
#include "core/sim/dofs.h"

using namespace mechsim;
using namespace mechsim::sim;

namespace {
constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180;

MechanismSpec readSpec(const char* name) {
  return io::readMechanismFile(std::string(MECHSIM_SOURCE_DIR "/mechanisms/") + name);
}

/// A working model whose only driver holds coordinate `coord` of joint `joint` (the file's
/// drivers removed), assembled at the file configuration; the DOF of that driver.
struct Work {
  std::shared_ptr<DriverInputs> inputs = std::make_shared<DriverInputs>();
  Model file, work;
  Data data;
  DofInfo dof;
};

void assemble(Work& w, const MechanismSpec& spec, const std::vector<std::pair<int, int>>& extra) {
  w.file = io::compileSpec(spec);
  w.work = buildWorkModel(&spec, w.file, extra, io::driverFunctions(spec), w.inputs);
  w.data = makeData(w.work);
  w.data.q = w.file.q0;
  const int driver = static_cast<int>(w.work.drivers.size()) - 1;
  const Driver& drv = w.work.drivers[driver];
  const Joint& jt = w.work.joints[drv.joint];
  w.dof.driver = driver;
  w.dof.joint = drv.joint;
  w.dof.coordinate = drv.coordinate;
  w.dof.coordIndex = jt.firstCoord + drv.coordinate;
  w.dof.angular = isAngularCoordinate(jt, drv.coordinate);
  w.dof.kind = extra.empty() ? DofKind::Driver : DofKind::Coordinate;
  if (!extra.empty()) w.inputs->value[driver] = 0;  // the coordinate is 0 at the file configuration
  QVERIFY(solvePositions(w.work, w.data, 0.0));
  QVERIFY(w.data.stats.residual < 1e-9 || w.data.phi.cwiseAbs().maxCoeff() < 1e-9);
}
}  // namespace

class TestSimDofs : public QObject {
  Q_OBJECT
 private slots:
  void sliderCrankSliderRange();
  void crankRockerRockerRange();
  void parallelogramCrankPassesChangePoints();
  void anmSliderMoveFollowsThePath();
  void anmSliderDragReadsTheSeriesEachFrame();
};

void TestSimDofs::sliderCrankSliderRange() {
  // Slider of an offset-free slider-crank (crank r = 100 mm, rod l = 350 mm, slider at
  // x0 = r cos 30° + √(l² − r² sin² 30°)): x ∈ [l − r, l + r], the dead centres are turning points.
  MechanismSpec spec = readSpec("slider-crank.json");
  spec.drivers.clear();
  Work w;
  assemble(w, spec, {{3, 0}});  // joint S (prismatic) coordinate
  QVERIFY(!w.dof.angular);
  const double r = 0.1, l = 0.35;
  const double x0 = r * std::cos(30 * kDeg) + std::sqrt(l * l - std::pow(r * std::sin(30 * kDeg), 2));
  const auto [lo, hi] = reachableRange(w.work, w.data, *w.inputs, w.dof, 10.0);
  const double tolerance = 0.05 * w.work.lengthScale / 32;  // the bisection's resolution, twice over
  QVERIFY2(std::abs(lo - (l - r - x0)) < tolerance, qPrintable(QString("lower %1 vs %2").arg(lo).arg(l - r - x0)));
  QVERIFY2(std::abs(hi - (l + r - x0)) < tolerance, qPrintable(QString("upper %1 vs %2").arg(hi).arg(l + r - x0)));
}

void TestSimDofs::crankRockerRockerRange() {
  // Rocker of the Grashof crank-rocker (ground g = 0.4, crank a = 0.1, coupler b = 0.35, rocker
  // c = 0.3, rocker at 102.89° in the file): its extreme positions are where crank and coupler are
  // collinear, |C − A| = b ± a, i.e. cos θ4 = ((b ± a)² − g² − c²) / (2 g c).
  MechanismSpec spec = readSpec("fourbar.json");
  spec.drivers.clear();
  Work w;
  assemble(w, spec, {{3, 0}});  // joint D (ground–rocker)
  QVERIFY(w.dof.angular);
  const double g = 0.4, a = 0.1, b = 0.35, c = 0.3, theta0 = 102.89032693082 * kDeg;
  const double extended = std::acos(((b + a) * (b + a) - g * g - c * c) / (2 * g * c));
  const double folded = std::acos(((b - a) * (b - a) - g * g - c * c) / (2 * g * c));
  const auto [lo, hi] = reachableRange(w.work, w.data, *w.inputs, w.dof, 10.0);
  const double tolerance = 10 * kDeg / 32;
  QVERIFY2(std::abs(lo - (extended - theta0)) < tolerance, qPrintable(QString("lower %1° vs %2°").arg(lo / kDeg).arg((extended - theta0) / kDeg)));
  QVERIFY2(std::abs(hi - (folded - theta0)) < tolerance, qPrintable(QString("upper %1° vs %2°").arg(hi / kDeg).arg((folded - theta0) / kDeg)));
}

void TestSimDofs::parallelogramCrankPassesChangePoints() {
  // A parallelogram four-bar (ground 0.4, crank 0.1, coupler 0.4, rocker 0.1), crank at 60°:
  // the crank turns fully, passing the change points at 0° and 180° where all links are
  // collinear and the position analysis is singular. The range is the search's full ±180°.
  MechanismSpec spec = readSpec("fourbar.json");
  const Vec3 B(0.1 * std::cos(60 * kDeg), 0.1 * std::sin(60 * kDeg), 0);
  spec.bodies[2].position = B;
  spec.bodies[2].orientation = Quat::Identity();
  spec.bodies[3].position = Vec3(0.4, 0, 0);
  spec.bodies[3].orientation = Quat(Eigen::AngleAxisd(60 * kDeg, Vec3::UnitZ()));
  spec.joints[1].point = B;
  spec.joints[2].point = B + Vec3(0.4, 0, 0);
  Work w;
  assemble(w, spec, {});  // the file's crank driver
  // The change points are singular: the analysis says so there.
  {
    Data d = w.data;
    w.inputs->follow[w.dof.driver] = 0;
    w.inputs->value[w.dof.driver] = -60 * kDeg;  // crank at 0°
    Data probe = d;
    for (int k = 1; k <= 12; ++k) {
      w.inputs->value[w.dof.driver] = -5.0 * k * kDeg;
      solvePositions(w.work, probe, 0.0);
    }
    QVERIFY2(probe.stats.singular, "the crank at 0° should be a singular position");
    w.inputs->follow[w.dof.driver] = 1;
  }
  const auto [lo, hi] = reachableRange(w.work, w.data, *w.inputs, w.dof, 10.0);
  QVERIFY2(lo <= -kPi + 1e-9 && hi >= kPi - 1e-9, qPrintable(QString("range [%1°, %2°]").arg(lo / kDeg).arg(hi / kDeg)));
}

void TestSimDofs::anmSliderMoveFollowsThePath() {
  // The crank of the crank-rocker moved by 170° in one request: the ANM path (chunks of 45°, one
  // series each or a few) ends where Newton continuation in 1° steps ends (same branch, same
  // configuration), with Φ met.
  MechanismSpec spec = readSpec("fourbar.json");
  Work w;
  assemble(w, spec, {});
  const int i = w.dof.driver;
  w.inputs->follow[i] = 0;
  w.inputs->value[i] = 0;
  const double target = 170 * kDeg;
  Data ref = w.data;
  for (int k = 1; k <= 170; ++k) {
    w.inputs->value[i] = k * kDeg;
    QVERIFY(solvePositions(w.work, ref, 0.0));
  }
  w.inputs->value[i] = 0;
  Data d = w.data;
  const AnmMoveResult r = anmMoveDriver(w.work, d, *w.inputs, i, target, true);
  QVERIFY(r.converged);
  QVERIFY2(r.steps >= 4 && r.steps <= 40, qPrintable(QString::number(r.steps)));
  QCOMPARE(w.inputs->value[i], target);
  constraintResidual(w.work, d);
  QVERIFY(d.phi.cwiseAbs().maxCoeff() < 1e-9);
  QVERIFY2((d.q - ref.q).norm() < 1e-6, qPrintable(QString::number((d.q - ref.q).norm())));
  // Out of reach: a length driver of the slider beyond the dead centre fails and leaves the state.
  MechanismSpec sc = readSpec("slider-crank.json");
  sc.drivers.clear();
  Work s;
  assemble(s, sc, {{3, 0}});
  Data ds = s.data;
  const VecX before = ds.q;
  const AnmMoveResult out = anmMoveDriver(s.work, ds, *s.inputs, s.dof.driver, 0.1, false);
  QVERIFY(!out.converged);
  QCOMPARE(ds.q, before);
  QCOMPARE(s.inputs->value[s.dof.driver], 0.0);
}

void TestSimDofs::anmSliderDragReadsTheSeriesEachFrame() {
  // A slider drag: the crank sent 1° further every frame, 0° → 170° and back to 60°. Each frame is
  // read off the kept series at its own value where it can (then only a Newton correction), and
  // every frame equals fine-stepped Newton continuation at that value (same branch, same
  // configuration) with Φ met. With the Padé approximants (the default) most frames need no new
  // expansion; the plain series' range covers about one frame in two.
  MechanismSpec spec = readSpec("fourbar.json");
  Work w;
  assemble(w, spec, {});
  const int i = w.dof.driver;
  std::vector<int> path;
  for (int k = 1; k <= 170; ++k) path.push_back(k);
  for (int k = 169; k >= 60; --k) path.push_back(k);
  auto drag = [&](const anm::AnmOptions& opt, AnmSliderPath& anm, Data& d) {
    w.inputs->follow[i] = 0;
    w.inputs->value[i] = 0;
    Data ref = w.data;
    d = w.data;
    double worst = 0;
    for (int k : path) {
      // Reference: Newton from the previous frame (1° steps) with the same driver value.
      const double held = w.inputs->value[i];
      w.inputs->value[i] = k * kDeg;
      QVERIFY(solvePositions(w.work, ref, 0.0));
      w.inputs->value[i] = held;
      const AnmMoveResult r = anm.move(w.work, d, *w.inputs, i, w.dof.coordIndex, k * kDeg, true, opt);
      QVERIFY2(r.converged, qPrintable(QString("frame at %1 deg").arg(k)));
      QCOMPARE(w.inputs->value[i], k * kDeg);
      constraintResidual(w.work, d);
      QVERIFY(d.phi.cwiseAbs().maxCoeff() < 1e-9);
      worst = std::max(worst, (d.q - ref.q).norm());
    }
    QVERIFY2(worst < 1e-6, qPrintable(QString("|q - q_newton| = %1").arg(worst)));
  };
  AnmSliderPath plain, pade;
  Data dp, d;
  anm::AnmOptions series;
  series.pade = false;
  drag(series, plain, dp);
  if (QTest::currentTestFailed()) return;
  drag(sliderAnmOptions(), pade, d);
  if (QTest::currentTestFailed()) return;
  qInfo("slider drag of %zu frames read off the kept series / full ANM moves: Pade %d / %d, plain series %d / %d",
        path.size(), pade.seriesFrames(), pade.fullMoves(), plain.seriesFrames(), plain.fullMoves());
  QVERIFY2(pade.seriesFrames() > 10 * pade.fullMoves(), "the Pade range should cover most frames");
  QVERIFY2(plain.seriesFrames() >= plain.fullMoves() / 2, "the series' range should cover some frames");
  // Anything else moving d.q (a drag) makes the next frame a full move.
  const int full = pade.fullMoves();
  d.q[0] += 1e-12;
  QVERIFY(pade.move(w.work, d, *w.inputs, i, w.dof.coordIndex, 59 * kDeg, true).converged);
  QCOMPARE(pade.fullMoves(), full + 1);
}

QTEST_APPLESS_MAIN(TestSimDofs)
#include "test_sim_dofs.moc"
