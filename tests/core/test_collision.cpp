// tests/core/test_collision.cpp — tests core/collision/: closed-form pairs against their formulas
// and against libccd's GJK + EPA (an independent algorithm on the same support functions), the
// capsule–capsule distance against brute-force sampling of the two segments, box / hull / cylinder
// on a plane against their corners, sweep and prune against testing all pairs, the persistent
// manifold of a box resting on a box (four corner points at zero gap), and the pair filter of a
// model (jointed bodies, one body, two fixed bodies).
#include <QtTest>

#include <random>

#include "core/collision/narrowphase.h"
#include "core/collision/sweep_prune.h"
#include "core/collision/world.h"
#include "core/compile.h"

using namespace mechsim;
using namespace mechsim::collision;

namespace {

Geometry sphere(double r) {
  Geometry g;
  g.kind = Kind::Sphere;
  g.radius = r;
  g.boundRadius = r;
  return g;
}
Geometry box(const Vec3& half) {
  Geometry g;
  g.kind = Kind::Box;
  g.half = half;
  g.boundRadius = half.norm();
  return g;
}
Geometry capsule(double r, double halfLength) {
  Geometry g;
  g.kind = Kind::Capsule;
  g.radius = r;
  g.halfLength = halfLength;
  g.boundRadius = r + halfLength;
  return g;
}
Geometry cylinder(double r, double halfLength) {
  Geometry g = capsule(r, halfLength);
  g.kind = Kind::Cylinder;
  g.boundRadius = std::hypot(r, halfLength);
  return g;
}
Geometry plane() {
  Geometry g;
  g.kind = Kind::Plane;
  g.boundRadius = 1e300;
  return g;
}
Placed at(const Geometry& g, const Vec3& p, const Mat3& R = Mat3::Identity()) { return Placed{&g, p, R}; }

Mat3 randomRotation(std::mt19937& rng) {
  std::normal_distribution<double> n;
  return Quat(n(rng), n(rng), n(rng), n(rng)).normalized().toRotationMatrix();
}

}  // namespace

class TestCollision : public QObject {
  Q_OBJECT
 private slots:
  void sphereSphereClosedFormAndGjk() {
    const Geometry a = sphere(0.3), b = sphere(0.2);
    for (const double d : {0.6, 0.49, 0.45}) {  // separated within margin, touching-ish, penetrating
      const Vec3 dir = Vec3(1, 2, -0.5).normalized();
      const Placed pa = at(a, Vec3(0.1, 0, 0)), pb = at(b, Vec3(0.1, 0, 0) + d * dir);
      std::vector<ContactPoint> c;
      collideClosedForm(pa, pb, 0.2, c);
      QCOMPARE(int(c.size()), 1);
      QVERIFY(std::abs(c[0].gap - (d - 0.5)) < 1e-14);
      QVERIFY((c[0].normal - dir).norm() < 1e-14);
      Vec3 n, wa, wb;
      double gap;
      QVERIFY(penetrationGjkEpa(pa, pb, 0.2, n, gap, wa, wb));
      QVERIFY2(std::abs(gap - (d - 0.5)) < 1e-4, qPrintable(QString::number(gap - (d - 0.5))));
      QVERIFY((n - dir).norm() < 1e-2);
    }
    std::vector<ContactPoint> c;
    collideClosedForm(at(a, Vec3::Zero()), at(b, Vec3(0.8, 0, 0)), 0.2, c);
    QVERIFY(c.empty());  // gap 0.3 ≥ margin
  }

  void boxOnPlane() {
    // A rotated box over the plane z = 0: contacts at exactly the corners below the margin, gap
    // = corner height; the deepest agrees with GJK/EPA against a large box as the ground.
    std::mt19937 rng(7);
    const Geometry g = box(Vec3(0.2, 0.15, 0.1)), p = plane(), big = box(Vec3(50, 50, 50));
    for (int trial = 0; trial < 20; ++trial) {
      const Mat3 R = randomRotation(rng);
      const Vec3 c(0.3, -0.2, 0.1);
      std::vector<ContactPoint> pts;
      collideClosedForm(at(p, Vec3::Zero()), at(g, c, R), 0.05, pts);
      int below = 0;
      double lowest = 1e9;
      for (int k = 0; k < 8; ++k) {
        const Vec3 corner = c + R * Vec3((k & 1 ? 1 : -1) * 0.2, (k & 2 ? 1 : -1) * 0.15, (k & 4 ? 1 : -1) * 0.1);
        below += corner.z() < 0.05;
        lowest = std::min(lowest, corner.z());
      }
      QCOMPARE(int(pts.size()), below);
      double deepest = 1e9;
      for (const ContactPoint& x : pts) {
        QVERIFY((x.normal - Vec3::UnitZ()).norm() < 1e-15);
        QVERIFY(std::abs(x.point.z() - 0.5 * x.gap) < 1e-14);  // midway between plane and corner
        deepest = std::min(deepest, x.gap);
      }
      if (below == 0) continue;
      QVERIFY(std::abs(deepest - lowest) < 1e-14);
      Vec3 n, wa, wb;
      double gap;
      QVERIFY(penetrationGjkEpa(at(big, Vec3(0, 0, -50)), at(g, c, R), 0.05, n, gap, wa, wb));
      QVERIFY2(std::abs(gap - lowest) < 1e-5, qPrintable(QString("%1 vs %2").arg(gap).arg(lowest)));
    }
    // A box resting flat: four contacts, each carrying the same depth.
    std::vector<ContactPoint> pts;
    collideClosedForm(at(p, Vec3::Zero()), at(g, Vec3(0, 0, 0.099)), 0.005, pts);
    QCOMPARE(int(pts.size()), 4);
    for (const ContactPoint& x : pts) QVERIFY(std::abs(x.gap + 0.001) < 1e-15);
  }

  void capsuleCapsuleDistance() {
    // Against brute force: the minimum over 400 × 400 samples of the two core segments.
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1, 1);
    const Geometry a = capsule(0.05, 0.3), b = capsule(0.08, 0.2);
    for (int trial = 0; trial < 10; ++trial) {
      const Mat3 Ra = randomRotation(rng), Rb = randomRotation(rng);
      const Vec3 pa(u(rng) * 0.2, u(rng) * 0.2, u(rng) * 0.2), pb(u(rng) * 0.4, u(rng) * 0.4, u(rng) * 0.4);
      double best = 1e9;
      const int N = 400;
      for (int i = 0; i <= N; ++i) {
        const Vec3 x = pa + Ra.col(2) * 0.3 * (2.0 * i / N - 1);
        for (int j = 0; j <= N; ++j) best = std::min(best, (x - (pb + Rb.col(2) * 0.2 * (2.0 * j / N - 1))).norm());
      }
      const double expect = best - 0.13;
      std::vector<ContactPoint> c;
      collideClosedForm(at(a, pa, Ra), at(b, pb, Rb), 10.0, c);
      QCOMPARE(int(c.size()), 1);
      // the samples are 1.5 mm / 1 mm apart: the sampled minimum exceeds the true one by < 1e-3
      QVERIFY2(c[0].gap <= expect + 1e-12 && c[0].gap > expect - 1e-3, qPrintable(QString("%1 vs %2").arg(c[0].gap).arg(expect)));
      if (c[0].gap < 0.02) {
        Vec3 n, wa, wb;
        double gap;
        QVERIFY(penetrationGjkEpa(at(a, pa, Ra), at(b, pb, Rb), 0.05, n, gap, wa, wb));
        QVERIFY(std::abs(gap - c[0].gap) < 1e-4);
      }
    }
  }

  void sphereBoxAgainstGjk() {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-0.4, 0.4);
    const Geometry s = sphere(0.1), b = box(Vec3(0.3, 0.2, 0.15));
    int compared = 0;
    double worst = 0;
    for (int trial = 0; trial < 200; ++trial) {
      const Mat3 R = randomRotation(rng);
      const Vec3 c(u(rng), u(rng), u(rng));
      std::vector<ContactPoint> pts;
      collideClosedForm(at(s, c), at(b, Vec3::Zero(), R), 0.02, pts);
      Vec3 n, wa, wb;
      double gap;
      const bool hit = penetrationGjkEpa(at(s, c), at(b, Vec3::Zero(), R), 0.02, n, gap, wa, wb);
      if (pts.empty()) {
        QVERIFY(!hit || gap > 0.02 - 1e-6);
        continue;
      }
      QVERIFY(hit);
      // Overlapping: EPA's depth. Apart: s(n) along an approximate normal is a lower bound of the
      // distance, within a few per cent of it.
      if (pts[0].gap <= 0) {  // EPA's polytope of a curved shape: within 5e-4 of the radius
        worst = std::max(worst, std::abs(pts[0].gap - gap));
        QVERIFY2(std::abs(pts[0].gap - gap) < 5e-5, qPrintable(QString("%1 vs %2").arg(pts[0].gap).arg(gap)));
      }
      else
        QVERIFY2(gap <= pts[0].gap + 1e-12 && gap > 0.95 * pts[0].gap - 1e-5, qPrintable(QString("%1 vs %2").arg(pts[0].gap).arg(gap)));
      // s(n) is flat (second order) about its maximum: the normal within ~1°, the gap within 5e-5
      if (pts[0].gap > -0.05 && pts[0].gap < 0)
        QVERIFY2((pts[0].normal - n).norm() < 2e-2, qPrintable(QString("gap %1 vs %2, normal error %3").arg(pts[0].gap).arg(gap).arg((pts[0].normal - n).norm())));
      ++compared;
    }
    qInfo("sphere-box: %d overlapping / near pairs, largest |closed form - EPA| when overlapping %.3g m", compared, worst);
    QVERIFY(compared > 30);
  }

  void cylinderAndHullOnPlane() {
    const Geometry p = plane(), cyl = cylinder(0.1, 0.25);
    // Lying on its side (axis along x): the two lowest rim points, at the bottom line.
    const Mat3 side = Eigen::AngleAxisd(M_PI / 2, Vec3::UnitY()).toRotationMatrix();
    std::vector<ContactPoint> pts;
    collideClosedForm(at(p, Vec3::Zero()), at(cyl, Vec3(0, 0, 0.099), side), 0.005, pts);
    QCOMPARE(int(pts.size()), 2);
    for (const ContactPoint& x : pts) {
      QVERIFY(std::abs(x.gap + 0.001) < 1e-12);
      QVERIFY(std::abs(std::abs(x.point.x()) - 0.25) < 1e-12);
    }
    // Standing on its cap: four rim points.
    pts.clear();
    collideClosedForm(at(p, Vec3::Zero()), at(cyl, Vec3(0, 0, 0.249)), 0.005, pts);
    QCOMPARE(int(pts.size()), 4);
    // A mesh cube as a hull: the same contacts as the box of the same size.
    Shape mesh;
    mesh.type = ShapeType::Mesh;
    auto md = std::make_shared<MeshData>();
    for (int k = 0; k < 8; ++k) md->vertices.emplace_back((k & 1 ? 1.f : -1.f), (k & 2 ? 1.f : -1.f), (k & 4 ? 1.f : -1.f));
    mesh.mesh = md;
    mesh.scale = 0.1;
    const Geometry hull = makeGeometry(mesh, 0, 0), cube = box(Vec3::Constant(0.1));
    std::mt19937 rng(5);
    for (int trial = 0; trial < 10; ++trial) {
      const Mat3 R = randomRotation(rng);
      std::vector<ContactPoint> a, b;
      collideClosedForm(at(p, Vec3::Zero()), at(hull, Vec3(0, 0, 0.12), R), 0.01, a);
      collideClosedForm(at(p, Vec3::Zero()), at(cube, Vec3(0, 0, 0.12), R), 0.01, b);
      double da = 1e9, db = 1e9;
      for (const auto& x : a) da = std::min(da, x.gap);
      for (const auto& x : b) db = std::min(db, x.gap);
      QCOMPARE(a.empty(), b.empty());
      if (!a.empty()) QVERIFY(std::abs(da - db) < 1e-6);  // float vertices
      // hull against a sphere by GJK/EPA equals sphere–box in closed form
      const Geometry s = sphere(0.05);
      const Vec3 c = R * Vec3(0.12, 0.03, -0.02);
      std::vector<ContactPoint> sb;
      collideClosedForm(at(s, c), at(cube, Vec3::Zero(), R), 0.02, sb);
      Vec3 n, wa, wb;
      double gap;
      QVERIFY(penetrationGjkEpa(at(s, c), at(hull, Vec3::Zero(), R), 0.02, n, gap, wa, wb));
      QCOMPARE(int(sb.size()), 1);
      QVERIFY(std::abs(sb[0].gap - gap) < 1e-5);
    }
  }

  void sweepAndPruneMatchesAllPairs() {
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(0, 10), s(0.05, 0.8);
    std::vector<Vec3> lo, hi;
    for (int i = 0; i < 800; ++i) {
      const Vec3 c(u(rng), u(rng), u(rng) * 0.3);
      const Vec3 e(s(rng), s(rng), s(rng));
      lo.push_back(c - e);
      hi.push_back(c + e);
    }
    std::vector<std::pair<int, int>> a, b;
    sweepAndPrune(lo, hi, a);
    allPairs(lo, hi, b);
    QVERIFY(b.size() > 500);
    QVERIFY(a == b);
  }

  void manifoldOfBoxOnBox() {
    // A 0.2 m cube resting (1e-4 m deep) on a large fixed box, rocking by 0.3°: the manifold
    // gathers the four bottom corners at (nearly) zero gap, which one EPA point never gives.
    MechanismSpec spec;
    BodySpec base;
    base.name = "base";
    base.fixed = true;
    ShapeSpec bs;
    bs.type = ShapeType::Box;
    bs.size = Vec3(2, 2, 0.2);
    base.shapes.push_back(bs);
    BodySpec top;
    top.name = "top";
    top.mass = 1.0;
    top.position = Vec3(0.3, 0.1, 0.2 - 1e-4);
    ShapeSpec ts;
    ts.type = ShapeType::Box;
    ts.size = Vec3(0.2, 0.2, 0.2);
    top.shapes.push_back(ts);
    spec.bodies = {base, top};
    spec.contact.present = true;
    const Model m = compile(spec);
    CollisionWorld w(m);
    QVERIFY(w.anyPair());
    std::vector<Contact> out;
    VecX q = m.q0;
    for (int k = 0; k < 12; ++k) {
      // about the four diagonals in turn: each lowers another corner
      const double ang = 0.3 * M_PI / 180;
      const Vec3 axis = Vec3(k % 2 ? 1 : -1, k % 4 < 2 ? 1 : -1, 0).normalized();
      const Quat r(Eigen::AngleAxisd(ang, axis));
      q(3) = r.w(), q(4) = r.x(), q(5) = r.y(), q(6) = r.z();
      w.detect(m, q, 0.005, out);
    }
    q(3) = 1, q(4) = q(5) = q(6) = 0;
    w.detect(m, q, 0.005, out);
    QCOMPARE(int(out.size()), 4);
    for (const Contact& c : out) {
      QVERIFY2(std::abs(c.gap + 1e-4) < 2e-5, qPrintable(QString::number(c.gap)));
      QVERIFY(std::abs(c.normal.z() - 1) < 1e-6);
      QVERIFY(std::abs(std::abs(c.point.x() - 0.3) - 0.1) < 2e-3);
      QVERIFY(std::abs(std::abs(c.point.y() - 0.1) - 0.1) < 2e-3);
    }
  }

  void pairFilter() {
    MechanismSpec spec;
    auto body = [](const char* name, bool fixed, ShapeType t) {
      BodySpec b;
      b.name = name;
      b.fixed = fixed;
      if (!fixed) b.mass = 1.0;
      ShapeSpec s;
      s.type = t;
      s.radius = 0.1;
      b.shapes = {s, s};
      if (t == ShapeType::Plane) b.shapes.resize(1);
      return b;
    };
    spec.bodies = {body("ground", true, ShapeType::Plane), body("a", false, ShapeType::Sphere),
                   body("b", false, ShapeType::Sphere), body("c", false, ShapeType::Sphere)};
    JointSpec j;
    j.name = "ab";
    j.type = JointType::Spherical;
    j.body1 = "a";
    j.body2 = "b";
    spec.joints = {j};
    spec.contact.present = true;
    spec.contact.exclude = {{"c", "ground"}};
    const Model m = compile(spec);
    QVERIFY(m.contact.enabled);
    CollisionWorld w(m);
    // geometries: ground plane 0, a 1-2, b 3-4, c 5-6
    QVERIFY(!w.pairAllowed(1, 2));  // one body
    QVERIFY(!w.pairAllowed(1, 3));  // jointed
    QVERIFY(w.pairAllowed(0, 1));
    QVERIFY(w.pairAllowed(3, 5));
    QVERIFY(!w.pairAllowed(0, 5));  // excluded by the file
    spec.contact.jointedCollide = true;
    CollisionWorld w2(compile(spec));
    QVERIFY(w2.pairAllowed(1, 3));
    // a plane on a moving body is an error
    spec.bodies[1].shapes[0].type = ShapeType::Plane;
    QVERIFY_THROWS_EXCEPTION(SpecError, compile(spec));
  }
};

QTEST_APPLESS_MAIN(TestCollision)
#include "test_collision.moc"
