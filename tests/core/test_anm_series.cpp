// tests/core/test_anm_series.cpp — tests core/anm/series.h, constraint_graph.cpp, joint_series.cpp
// and constraint_series.cpp (paper 004 §5 propagation rules):
//   * Series arithmetic against closed-form expansions (√(1+a), 1/(1−a), products of polynomials);
//   * for EVERY joint type (a joint to ground and one between two moving bodies, undriven and with
//     every coordinate of the second joint driven) the coefficients of Φ(q(a)) along a random
//     quadratic path q(a), against an independent expansion: Φ(q(a)) evaluated by the production
//     constraintResidual at 9 Chebyshev nodes and interpolated by a degree-8 polynomial (exact:
//     every row is a polynomial of degree ≤ 4 in q, hence ≤ 8 in a), coefficients 9..N zero;
//   * the slope test ‖Φ(q(a)) − Σ_{k≤N} Φ_k a^k‖ = O(a^{N+1}) on every row, including the
//     square-root row of a driven distance joint;
//   * the series of a body point against bodyPose.
#include <QtTest>

#include <Eigen/QR>
#include <cmath>
#include <random>

#include "core/anm/constraint_series.h"
#include "core/anm/series.h"
#include "core/kinematics/kinematics.h"
#include "mechanisms.h"

using namespace mechsim;
using namespace mechsim::test;
using anm::Series;

namespace {

const JointType kTypes[] = {JointType::Revolute, JointType::Prismatic, JointType::Cylindrical, JointType::Spherical,
                            JointType::Universal, JointType::Planar,    JointType::Fixed,       JointType::Distance};

Quat rotation(const Vec3& axis, double angle) { return Quat(Eigen::AngleAxisd(angle, axis.normalized())); }

/// ground, a, b; joint "K" ground→a and "J" a→b of the same type, at skewed poses; optionally every
/// coordinate of J driven (constant values).
Model rig(JointType type, bool driven) {
  MechanismSpec s;
  s.bodies = {body("ground", Vec3(0.1, 0, 0), true, rotation(Vec3(1, 1, 0), 0.3)),
              body("a", Vec3(0.3, -0.2, 0.5), false, rotation(Vec3(0, 1, 1), 0.7)),
              body("b", Vec3(-0.4, 0.6, 0.2), false, rotation(Vec3(1, 0, 1), -1.1))};
  JointSpec k = joint("K", type, "ground", "a", Vec3(0.2, 0.1, -0.3), Vec3(0.3, -0.5, 0.8).normalized());
  JointSpec j = joint("J", type, "a", "b", Vec3(-0.1, 0.4, 0.3), Vec3(-0.6, 0.2, 0.4).normalized());
  for (JointSpec* js : {&k, &j}) {
    js->axis1 = js->axis;
    js->axis2 = js->axis.unitOrthogonal();
    js->point1 = js->point;
    js->point2 = js->point + Vec3(0.5, -0.3, 0.2);
  }
  s.joints = {k, j};
  std::vector<std::function<double(double)>> f;
  if (driven)
    for (int c = 0; c < jointCoordinateCount(type); ++c) {
      s.drivers.push_back(driver("d" + std::to_string(c), "J", c));
      f.push_back([c](double) { return 0.15 + 0.1 * c; });
    }
  return compile(s, f);
}

/// A random path q(a) = q0 + q1 a + q2 a² (quaternions near unit length, not consistent).
std::vector<VecX> randomPath(const Model& m, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<VecX> c(3, VecX::Zero(m.nq));
  for (const Body& b : m.bodies) {
    if (b.qIndex < 0) continue;
    for (int k = 0; k < 3; ++k) c[0](b.qIndex + k) = u(rng);
    Eigen::Vector4d p(u(rng), u(rng), u(rng), u(rng));
    c[0].segment<4>(b.qIndex + 3) = p.normalized();
    for (int o = 1; o < 3; ++o)
      for (int k = 0; k < 7; ++k) c[o](b.qIndex + k) = 0.3 * u(rng);
  }
  return c;
}

VecX pathAt(const std::vector<VecX>& c, double a) { return c[0] + a * c[1] + a * a * c[2]; }

/// The series of Φ along the path, orders 0..N (rows × (N+1)).
MatX seriesOf(const Model& m, const std::vector<VecX>& c, int N) {
  anm::ConstraintSeries cs(m, 0.0, N);
  cs.start(c[0]);
  MatX out(m.nEquations, N + 1);
  VecX col;
  cs.rows(0, col);
  out.col(0) = col;
  for (int k = 1; k <= N; ++k) {
    cs.setOrder(k, k < 3 ? c[static_cast<size_t>(k)] : VecX::Zero(m.nq));
    cs.rows(k, col);
    out.col(k) = col;
  }
  return out;
}

/// Rows of Φ that are square roots (driver rows of driven distance joints): not polynomial.
std::vector<bool> sqrtRows(const Model& m) {
  std::vector<bool> r(static_cast<size_t>(m.nEquations), false);
  for (const Driver& d : m.drivers)
    if (m.joints[static_cast<size_t>(d.joint)].type == JointType::Distance) r[static_cast<size_t>(d.equation)] = true;
  return r;
}

}  // namespace

class TestAnmSeries : public QObject {
  Q_OBJECT
 private slots:
  void arithmeticAgainstClosedForms() {
    const int N = 12;
    // √(1 + a) = Σ binom(1/2, k) a^k.
    Series x = Series::constant(N, 1.0);
    x[1] = 1.0;
    const Series s = sqrt(x);
    double b = 1.0;
    for (int k = 0; k <= N; ++k) {
      QVERIFY2(std::abs(s[k] - b) < 1e-15, qPrintable(QString("sqrt coefficient %1").arg(k)));
      b *= (0.5 - k) / (k + 1);
    }
    // 1 / (1 − a) = Σ a^k, and (1 − a) · Σ a^k = 1.
    Series one = Series::constant(N, 1.0), y = Series::constant(N, 1.0);
    y[1] = -1.0;
    const Series g = one / y;
    for (int k = 0; k <= N; ++k) QCOMPARE(g[k], 1.0);
    const Series p = y * g;
    QCOMPARE(p[0], 1.0);
    for (int k = 1; k <= N; ++k) QVERIFY(std::abs(p[k]) < 1e-15);
    // (1 + 2a)(3 − a + a²) = 3 + 5a − a² + 2a³, and evaluation.
    Series u(N), v(N);
    u[0] = 1, u[1] = 2;
    v[0] = 3, v[1] = -1, v[2] = 1;
    const Series w = u * v;
    const double expect[] = {3, 5, -1, 2};
    for (int k = 0; k <= N; ++k) QCOMPARE(w[k], k < 4 ? expect[k] : 0.0);
    QVERIFY(std::abs(w(0.3) - (1 + 0.6) * (3 - 0.3 + 0.09)) < 1e-14);
    QVERIFY(std::abs(w.derivative(0.3) - (5 - 2 * 0.3 + 6 * 0.09)) < 1e-14);
    // Bad input gives an error, not NaN.
    QVERIFY_THROWS_EXCEPTION(std::domain_error, sqrt(Series(N)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, u + Series(3));
  }

  void jointSeriesAgainstInterpolation_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<bool>("driven");
    for (JointType t : kTypes)
      for (bool driven : {false, true}) {
        if (t == JointType::Fixed && driven) continue;  // no coordinates
        QTest::newRow(qPrintable(QString("%1%2").arg(toString(t)).arg(driven ? "-driven" : ""))) << int(t) << driven;
      }
  }
  void jointSeriesAgainstInterpolation() {
    QFETCH(int, type);
    QFETCH(bool, driven);
    const Model m = rig(JointType(type), driven);
    Data d = makeData(m);
    const auto isSqrt = sqrtRows(m);
    std::mt19937 rng(1234 + type);
    const int N = 12, deg = 8;
    for (int trial = 0; trial < 3; ++trial) {
      const auto path = randomPath(m, rng);
      const MatX S = seriesOf(m, path, N);
      QVERIFY(S.allFinite());
      // Independent expansion: Φ(q(a_j)) at Chebyshev nodes on [−1, 1], degree-8 interpolation.
      MatX V(deg + 1, deg + 1), F(deg + 1, m.nEquations);
      for (int j = 0; j <= deg; ++j) {
        const double a = std::cos(M_PI * (j + 0.5) / (deg + 1));
        for (int k = 0; k <= deg; ++k) V(j, k) = std::pow(a, k);
        d.q = pathAt(path, a);
        constraintResidual(m, d);
        F.row(j) = d.phi.transpose();
      }
      const MatX C = V.colPivHouseholderQr().solve(F);  // (deg+1) × rows
      for (int i = 0; i < m.nEquations; ++i) {
        if (isSqrt[static_cast<size_t>(i)]) continue;
        for (int k = 0; k <= N; ++k) {
          const double ref = k <= deg ? C(k, i) : 0.0;
          QVERIFY2(std::abs(S(i, k) - ref) < 1e-10 * std::max(1.0, std::abs(ref)),
                   qPrintable(QString("row %1 (%2) order %3: series %4, interpolation %5")
                                  .arg(i).arg(m.equationNames[i].c_str()).arg(k).arg(S(i, k)).arg(ref)));
        }
      }
      // Order 0 is Φ itself (the production evaluation), for every row.
      d.q = path[0];
      constraintResidual(m, d);
      QVERIFY((S.col(0) - d.phi).lpNorm<Eigen::Infinity>() < 1e-14);
    }
  }

  void slopeTest_data() { jointSeriesAgainstInterpolation_data(); }
  void slopeTest() {
    // ‖Φ(q(a)) − Σ_{k≤N} Φ_k a^k‖ = O(a^{N+1}): the error ratio between a and a/2 is ≈ 2^{N+1}.
    QFETCH(int, type);
    QFETCH(bool, driven);
    const Model m = rig(JointType(type), driven);
    Data d = makeData(m);
    std::mt19937 rng(99 + type);
    const int N = 5;
    const auto path = randomPath(m, rng);
    const MatX S = seriesOf(m, path, N);
    auto err = [&](double a) -> VecX {
      d.q = pathAt(path, a);
      constraintResidual(m, d);
      VecX sum = VecX::Zero(m.nEquations);
      for (int k = N; k >= 0; --k) sum = sum * a + S.col(k);
      return (d.phi - sum).cwiseAbs();
    };
    const VecX e1 = err(0.04), e2 = err(0.02);
    for (int i = 0; i < m.nEquations; ++i) {
      if (e2(i) < 1e-12) continue;  // degree ≤ N along this path (no truncation error), or round-off
      const double slope = std::log2(e1(i) / e2(i));
      QVERIFY2(slope > N + 0.5 && slope < N + 1.5,
               qPrintable(QString("row %1 (%2): slope %3 (errors %4, %5)").arg(i).arg(m.equationNames[i].c_str()).arg(slope).arg(e1(i)).arg(e2(i))));
    }
    if (driven && JointType(type) == JointType::Distance) {
      // The square-root row is never exact: its slope must have been tested.
      // Its series converges in a smaller radius (the nearest complex zero of |d(a)|), so it is
      // checked with order 2 at smaller a: slope 3.
      const int row = m.drivers[0].equation;
      const MatX S2 = seriesOf(m, path, 2);
      auto err2 = [&](double a) {
        d.q = pathAt(path, a);
        constraintResidual(m, d);
        return std::abs(d.phi(row) - (S2(row, 0) + a * (S2(row, 1) + a * S2(row, 2))));
      };
      const double r1 = err2(0.004), r2 = err2(0.002);
      QVERIFY(r2 > 1e-13);
      const double slope = std::log2(r1 / r2);
      QVERIFY2(slope > 2.5 && slope < 3.5, qPrintable(QString("square-root row: slope %1").arg(slope)));
    }
  }

  void bodyPointSeries() {
    const Model m = rig(JointType::Spherical, false);
    std::mt19937 rng(7);
    const auto path = randomPath(m, rng);
    DragPoint pt{2, Vec3(0.3, -0.1, 0.25)};
    const int N = 6;
    anm::ConstraintSeries cs(m, 0.0, N, &pt);
    cs.start(path[0]);
    std::vector<Vec3> c{cs.handle(0)};
    for (int k = 1; k <= N; ++k) {
      cs.setOrder(k, k < 3 ? path[static_cast<size_t>(k)] : VecX::Zero(m.nq));
      c.push_back(cs.handle(k));
    }
    // x = r + R(p) ℓ with R(p) = |p|² · rotation (the unnormalised quadratic formula): compare
    // with bodyPose (normalised) scaled by |p(a)|², at several a.
    for (double a : {-0.7, 0.2, 0.9}) {
      const VecX q = pathAt(path, a);
      const Pose P = bodyPose(m, q, 2);
      const double p2 = q.segment<4>(m.bodies[2].qIndex + 3).squaredNorm();
      const Vec3 ref = P.position + p2 * P.rotate(pt.local);
      Vec3 sum = Vec3::Zero();
      for (int k = N; k >= 0; --k) sum = sum * a + c[static_cast<size_t>(k)];
      QVERIFY((sum - ref).norm() < 1e-12);
    }
    // A point on a fixed body is refused.
    DragPoint bad{0, Vec3::Zero()};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, anm::ConstraintSeries(m, 0.0, N, &bad));
  }
};

QTEST_APPLESS_MAIN(TestAnmSeries)
#include "test_anm_series.moc"
