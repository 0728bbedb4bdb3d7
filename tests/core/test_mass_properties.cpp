// tests/core/test_mass_properties.cpp — tests core/mass_properties.cpp and the mass rules of
// compile.cpp: closed forms of box, cylinder, sphere and capsule; a triangle mesh of a box
// (exact) and a fine tessellated capsule (hemispherical caps, to discretisation accuracy)
// through the divergence-theorem integrals; placement (rotation, offset, parallel axis).
#include <QtTest>

#include "core/mass_properties.h"
#include "mechanisms.h"

using namespace mechsim;
using namespace mechsim::test;

namespace {

ShapeSpec shape(ShapeType t) {
  ShapeSpec s;
  s.type = t;
  return s;
}

/// A closed box mesh (12 outward triangles) of edges e centred at c.
std::shared_ptr<MeshData> boxMesh(const Vec3& e, const Vec3& c, bool inward = false) {
  auto m = std::make_shared<MeshData>();
  for (int k = 0; k < 8; ++k) {
    const Vec3 v = c + 0.5 * Vec3((k & 1) ? e.x() : -e.x(), (k & 2) ? e.y() : -e.y(), (k & 4) ? e.z() : -e.z());
    m->vertices.push_back(v.cast<float>());
  }
  const unsigned f[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                             {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  for (auto& t : f) {
    m->indices.push_back(t[0]);
    m->indices.push_back(inward ? t[2] : t[1]);
    m->indices.push_back(inward ? t[1] : t[2]);
  }
  return m;
}

/// A tessellated capsule about z: radius r, cylinder length h, n segments around, k rings per cap.
std::shared_ptr<MeshData> capsuleMesh(double r, double h, int n, int k) {
  auto m = std::make_shared<MeshData>();
  // Rings from the bottom pole to the top pole.
  std::vector<std::pair<double, double>> rings;  // (z, radius)
  for (int i = 1; i <= k; ++i) {
    const double a = -M_PI / 2 + M_PI / 2 * i / k;
    rings.push_back({-h / 2 + r * std::sin(a), r * std::cos(a)});
  }
  for (int i = 0; i <= k - 1; ++i) {
    const double a = M_PI / 2 * i / k;
    rings.push_back({h / 2 + r * std::sin(a), r * std::cos(a)});
  }
  m->vertices.push_back(Eigen::Vector3f(0, 0, static_cast<float>(-h / 2 - r)));
  for (auto [z, rr] : rings)
    for (int j = 0; j < n; ++j) {
      const double t = 2 * M_PI * j / n;
      m->vertices.push_back(Vec3(rr * std::cos(t), rr * std::sin(t), z).cast<float>());
    }
  m->vertices.push_back(Eigen::Vector3f(0, 0, static_cast<float>(h / 2 + r)));
  const unsigned top = static_cast<unsigned>(m->vertices.size() - 1);
  auto idx = [n](int ring, int j) { return static_cast<unsigned>(1 + ring * n + ((j % n) + n) % n); };
  auto tri = [&](unsigned a, unsigned b, unsigned c) { m->indices.insert(m->indices.end(), {a, b, c}); };
  for (int j = 0; j < n; ++j) tri(0, idx(0, j + 1), idx(0, j));
  for (int i = 0; i + 1 < static_cast<int>(rings.size()); ++i)
    for (int j = 0; j < n; ++j) {
      tri(idx(i, j), idx(i, j + 1), idx(i + 1, j + 1));
      tri(idx(i, j), idx(i + 1, j + 1), idx(i + 1, j));
    }
  const int last = static_cast<int>(rings.size()) - 1;
  for (int j = 0; j < n; ++j) tri(top, idx(last, j), idx(last, j + 1));
  return m;
}

bool near(const Mat3& a, const Mat3& b, double tol) { return (a - b).cwiseAbs().maxCoeff() <= tol * (1.0 + b.cwiseAbs().maxCoeff()); }

}  // namespace

class TestMassProperties : public QObject {
  Q_OBJECT
 private slots:
  void closedForms() {
    const double rho = 2700;
    ShapeSpec box = shape(ShapeType::Box);
    box.size = Vec3(0.1, 0.2, 0.3);
    MassProperties p = shapeMassProperties(box, rho);
    const double mb = rho * 0.006;
    QVERIFY(std::abs(p.mass - mb) < 1e-12);
    QVERIFY(near(p.inertia, Vec3(mb / 12 * 0.13, mb / 12 * 0.10, mb / 12 * 0.05).asDiagonal().toDenseMatrix(), 1e-14));

    ShapeSpec cyl = shape(ShapeType::Cylinder);
    cyl.radius = 0.05;
    cyl.length = 0.4;
    p = shapeMassProperties(cyl, rho);
    const double mc = rho * M_PI * 0.0025 * 0.4;
    QVERIFY(std::abs(p.mass - mc) < 1e-12);
    QVERIFY(std::abs(p.inertia(2, 2) - 0.5 * mc * 0.0025) < 1e-14);
    QVERIFY(std::abs(p.inertia(0, 0) - mc * (3 * 0.0025 + 0.16) / 12) < 1e-14);

    ShapeSpec sph = shape(ShapeType::Sphere);
    sph.radius = 0.1;
    p = shapeMassProperties(sph, rho);
    const double ms = rho * 4.0 / 3.0 * M_PI * 1e-3;
    QVERIFY(std::abs(p.mass - ms) < 1e-12);
    QVERIFY(near(p.inertia, 0.4 * ms * 0.01 * Mat3::Identity(), 1e-14));

    // A capsule of zero length is a sphere.
    ShapeSpec cap = shape(ShapeType::Capsule);
    cap.radius = 0.1;
    cap.length = 0;
    p = shapeMassProperties(cap, rho);
    QVERIFY(std::abs(p.mass - ms) < 1e-12);
    QVERIFY(near(p.inertia, 0.4 * ms * 0.01 * Mat3::Identity(), 1e-14));
  }

  // Divergence-theorem mesh integrals: a box mesh (exact, also scaled, offset and inward-wound).
  void meshOfBox() {
    const double rho = 1000;
    ShapeSpec mesh = shape(ShapeType::Mesh);
    mesh.mesh = boxMesh(Vec3(1, 2, 3), Vec3(0.5, -1, 2));
    mesh.scale = 0.1;
    ShapeSpec box = shape(ShapeType::Box);
    box.size = Vec3(0.1, 0.2, 0.3);
    box.position = Vec3(0.05, -0.1, 0.2);
    const MassProperties pm = shapeMassProperties(mesh, rho), pb = shapeMassProperties(box, rho);
    QVERIFY(std::abs(pm.mass - pb.mass) < 1e-9);
    QVERIFY((pm.com - pb.com).norm() < 1e-7);
    QVERIFY(near(pm.inertia, pb.inertia, 1e-6));
    mesh.mesh = boxMesh(Vec3(1, 2, 3), Vec3(0.5, -1, 2), true);
    const MassProperties pi = shapeMassProperties(mesh, rho);
    QVERIFY(std::abs(pi.mass - pb.mass) < 1e-9);
    QVERIFY(near(pi.inertia, pb.inertia, 1e-6));
  }

  // The capsule formula (hemispherical caps) against a fine tessellation.
  void capsuleAgainstMesh() {
    const double r = 0.1, h = 0.3, rho = 1000;
    ShapeSpec cap = shape(ShapeType::Capsule);
    cap.radius = r;
    cap.length = h;
    ShapeSpec mesh = shape(ShapeType::Mesh);
    mesh.mesh = capsuleMesh(r, h, 400, 100);
    const MassProperties pc = shapeMassProperties(cap, rho), pm = shapeMassProperties(mesh, rho);
    QVERIFY2(std::abs(pm.mass - pc.mass) < 1e-3 * pc.mass, qPrintable(QString("%1 vs %2").arg(pm.mass).arg(pc.mass)));
    QVERIFY(pm.com.norm() < 1e-6);
    QVERIFY2(near(pm.inertia, pc.inertia, 1e-3), "capsule inertia");
  }

  // Placement: a cylinder along x at an offset; two spheres combined by the parallel-axis theorem.
  void placementAndCombination() {
    ShapeSpec cyl = shape(ShapeType::Cylinder);
    cyl.radius = 0.05;
    cyl.length = 0.4;
    const MassProperties pz = shapeMassProperties(cyl, 1000);
    cyl.axis = Vec3::UnitX();
    cyl.position = Vec3(1, 2, 3);
    const MassProperties px = shapeMassProperties(cyl, 1000);
    QVERIFY((px.com - Vec3(1, 2, 3)).norm() < 1e-15);
    QVERIFY(std::abs(px.inertia(0, 0) - pz.inertia(2, 2)) < 1e-14);
    QVERIFY(std::abs(px.inertia(1, 1) - pz.inertia(0, 0)) < 1e-14);

    ShapeSpec s1 = shape(ShapeType::Sphere), s2 = s1;
    s1.radius = s2.radius = 0.1;
    s1.position = Vec3(-0.5, 0, 0);
    s2.position = Vec3(0.5, 0, 0);
    const MassProperties a = shapeMassProperties(s1, 1000), b = shapeMassProperties(s2, 1000);
    const MassProperties c = combine({a, b});
    QVERIFY(c.com.norm() < 1e-15);
    const double i0 = 0.4 * a.mass * 0.01;
    QVERIFY(std::abs(c.inertia(0, 0) - 2 * i0) < 1e-12);
    QVERIFY(std::abs(c.inertia(1, 1) - 2 * (i0 + a.mass * 0.25)) < 1e-12);
  }

  // compile(): mass from shapes and density; mass given → shapes' inertia scaled; no shapes → sphere.
  void bodyMassRules() {
    MechanismSpec s;
    BodySpec b = body("b", Vec3::Zero());
    ShapeSpec box = shape(ShapeType::Box);
    box.size = Vec3(0.1, 0.2, 0.3);
    box.position = Vec3(0.1, 0, 0);
    b.shapes = {box};
    b.mass.reset();
    s.bodies = {body("ground", Vec3::Zero(), true), b};
    {
      const Model m = compile(s);  // default density
      QVERIFY(std::abs(m.bodies[1].mass - 1000 * 0.006) < 1e-12);
      QVERIFY((m.bodies[1].com - Vec3(0.1, 0, 0)).norm() < 1e-15);
    }
    s.bodies[1].density = 7800;
    {
      const Model m = compile(s);
      QVERIFY(std::abs(m.bodies[1].mass - 7800 * 0.006) < 1e-12);
      const double mb = 7800 * 0.006;
      QVERIFY(std::abs(m.bodies[1].inertia(2, 2) - mb / 12 * 0.05) < 1e-12);
    }
    s.bodies[1].density.reset();
    s.bodies[1].mass = 3.0;
    {
      const Model m = compile(s);
      QVERIFY(std::abs(m.bodies[1].inertia(2, 2) - 3.0 / 12 * 0.05) < 1e-14);
      // A given com moves the inertia by the parallel-axis theorem.
      s.bodies[1].com = Vec3::Zero();
      s.bodies[1].comGiven = true;
      const Model m2 = compile(s);
      QVERIFY(std::abs(m2.bodies[1].inertia(2, 2) - 3.0 * (0.05 / 12 + 0.01)) < 1e-14);
    }
    s.bodies[1].shapes.clear();
    {
      const Model m = compile(s);
      QVERIFY(m.bodies[1].inertia(0, 0) > 0);
      QVERIFY(std::abs(m.bodies[1].inertia(0, 0) - m.bodies[1].inertia(2, 2)) < 1e-15);
    }
    Eigen::Matrix<double, 6, 1> I;
    I << 1, 2, 3, 0.1, 0.2, 0.3;
    s.bodies[1].inertia = I;
    {
      const Model m = compile(s);
      QVERIFY(std::abs(m.bodies[1].inertia(0, 1) - 0.1) < 1e-15 && std::abs(m.bodies[1].inertia(2, 1) - 0.3) < 1e-15);
    }
  }
};

QTEST_APPLESS_MAIN(TestMassProperties)
#include "test_mass_properties.moc"
