// tests/ui/test_picking.cpp — scene/picking.cpp: camera rays against the projection matrix, ray
// hits on every primitive against closed forms, handles before bodies, the drag plane and axis.
#include <QtTest>

#include "test_models.h"
#include "scene/picking.h"
#include "scene/scene.h"

using namespace mechsim;
using namespace mechsim::ui;

class TestPicking : public QObject {
  Q_OBJECT
 private slots:
  void rayAgreesWithTheProjectionMatrix();
  void hitsPrimitivesWhereTheClosedFormsSay();
  void handlesComeFirst();
  void dragPlaneAndAxis();
};

void TestPicking::rayAgreesWithTheProjectionMatrix() {
  Camera cam;
  cam.target = Eigen::Vector3d(0.3, -0.2, 0.1);
  cam.distance = 2.5;
  cam.azimuth = 0.7;
  cam.elevation = 0.4;
  const double w = 800, h = 600;
  const Eigen::Matrix4f pv = cam.projectionMatrix(w / h, 1.0) * cam.viewMatrix();
  for (const Eigen::Vector3d& p : {Eigen::Vector3d(0.3, -0.2, 0.1), Eigen::Vector3d(0.5, 0.1, -0.3), Eigen::Vector3d(-0.4, 0.2, 0.6)}) {
    // Reference: clip coordinates of the GL matrices → pixel.
    const Eigen::Vector4f c = pv * Eigen::Vector4f(p.x(), p.y(), p.z(), 1);
    const Eigen::Vector2d ref((c.x() / c.w() + 1) * w / 2, (1 - c.y() / c.w()) * h / 2);
    const auto px = projectToPixel(cam, p, w, h);
    QVERIFY(px);
    QVERIFY2((*px - ref).norm() < 1e-2, qPrintable(QString("%1 %2 vs %3 %4").arg(px->x()).arg(px->y()).arg(ref.x()).arg(ref.y())));
    // The ray through that pixel passes through p.
    const Ray r = cameraRay(cam, px->x(), px->y(), w, h);
    const Eigen::Vector3d v = p - r.origin;
    QVERIFY((v - v.dot(r.direction) * r.direction).norm() < 1e-9);
  }
  // Behind the eye: no pixel.
  QVERIFY(!projectToPixel(cam, cam.eye() + cam.backward(), w, h));
}

void TestPicking::hitsPrimitivesWhereTheClosedFormsSay() {
  // One body with a box, a sphere and a cylinder along x; rays along −z from above. Item
  // transforms are single precision: points agree to 1e-6.
  Model m;
  m.bodies.push_back(test::makeBody("b", false, Pose{}, {test::box(Vec3(0.2, 0.1, 0.05), Vec3(0, 0, 0)),
                                                       test::sphere(0.05, Vec3(0.5, 0, 0)),
                                                       test::cylinder(0.04, 0.3, Vec3(1.0, 0, 0))}));
  SceneOptions opt;
  opt.grid = opt.axes = opt.joints = opt.handles = false;
  const Scene s = buildScene(m, {Pose{}}, opt);
  auto down = [](double x, double y) {
    Ray r;
    r.origin = Eigen::Vector3d(x, y, 1);
    r.direction = -Eigen::Vector3d::UnitZ();
    return r;
  };
  // Box top at z = 0.025, its normal +z (the scaled unit cube's face, mapped by the inverse transpose).
  auto h = pick(s, down(0.05, 0.02));
  QVERIFY(h && h->body == 0);
  QVERIFY(std::abs(h->point.z() - 0.025) < 1e-6);
  QVERIFY((h->normal - Eigen::Vector3d::UnitZ()).norm() < 1e-6);
  // Sphere: z = sqrt(r² − ρ²), normal (p − centre) / r.
  h = pick(s, down(0.52, 0.01));
  QVERIFY(h);
  QVERIFY(std::abs(h->point.z() - std::sqrt(0.05 * 0.05 - 0.02 * 0.02 - 0.01 * 0.01)) < 1e-6);
  QVERIFY((h->normal - (h->point - Eigen::Vector3d(0.5, 0, 0)) / 0.05).norm() < 1e-5);
  // Cylinder along local z (shape frame), here axis z: its top cap at z = 0.15, normal the axis.
  h = pick(s, down(1.01, 0.02));
  QVERIFY(h);
  QVERIFY(std::abs(h->point.z() - 0.15) < 1e-6);
  QVERIFY((h->normal - Eigen::Vector3d::UnitZ()).norm() < 1e-6);
  // A ray from the side hits the cylinder's mantle at x = 1 − 0.04 · cos, normal radial (−x).
  Ray side;
  side.origin = Eigen::Vector3d(0, 0.0, 0.1);
  side.direction = Eigen::Vector3d::UnitX();
  h = pick(s, side);
  QVERIFY(h);
  QVERIFY(std::abs(h->point.x() - 0.96) < 1e-6);
  QVERIFY((h->normal + Eigen::Vector3d::UnitX()).norm() < 1e-6);
  // The box's side face from −x: normal −x; looking through the body, nothing.
  Ray sideBox;
  sideBox.origin = Eigen::Vector3d(-1, 0.0, 0.0);
  sideBox.direction = Eigen::Vector3d::UnitX();
  h = pick(s, sideBox);
  QVERIFY(h && std::abs(h->point.x() + 0.1) < 1e-6);
  QVERIFY((h->normal + Eigen::Vector3d::UnitX()).norm() < 1e-6);
  QVERIFY(!pick(s, sideBox, /*ignoreBody=*/0));
  // Nothing there.
  QVERIFY(!pick(s, down(0.3, 0.3)));
}

void TestPicking::handlesComeFirst() {
  const Model m = test::fourbarModel();
  const Scene s = buildScene(m, initialPoses(m));
  const Eigen::Vector3d hp = m.bodies[m.handles[0].body].pose0.apply(m.handles[0].local);
  Ray r;
  r.origin = hp + Eigen::Vector3d(0, 0, 1);
  r.direction = -Eigen::Vector3d::UnitZ();
  const auto h = pick(s, r);
  QVERIFY(h);
  QCOMPARE(int(h->role), int(ItemRole::HandleMarker));
  QCOMPARE(h->handle, 0);
  QCOMPARE(h->body, m.handles[0].body);
}

void TestPicking::dragPlaneAndAxis() {
  Ray r;
  r.origin = Eigen::Vector3d(0, 0, 5);
  r.direction = Eigen::Vector3d(0.1, 0.2, -1).normalized();
  // Plane z = 1 through the anchor.
  const auto p = dragOnPlane(r, Eigen::Vector3d(3, 3, 1), Eigen::Vector3d::UnitZ());
  QVERIFY(p);
  QVERIFY((*p - Eigen::Vector3d(0.4, 0.8, 1)).norm() < 1e-12);
  // Axis x through (0, 1, 1): the ray passes (0.4, 0.8, 1); the closest point on the axis line
  // has the x of the common perpendicular foot — checked by orthogonality of the connector.
  const Eigen::Vector3d a(0, 1, 1), u = Eigen::Vector3d::UnitX();
  const auto q = dragOnAxis(r, a, u);
  QVERIFY(q);
  QVERIFY(std::abs((*q - a).cross(u).norm()) < 1e-12);
  const double s = (*q - r.origin).dot(r.direction);
  const Eigen::Vector3d foot = r.at(s);
  QVERIFY(std::abs((*q - foot).dot(u)) < 1e-12);
  QVERIFY(std::abs((*q - foot).dot(r.direction)) < 1e-12);
  // Parallel ray: no point.
  Ray par;
  par.direction = u;
  QVERIFY(!dragOnAxis(par, a, u));
  // The dominant axis follows the screen motion: a camera looking down −y sees x rightwards.
  Camera cam;
  cam.azimuth = -M_PI / 2;
  cam.elevation = 0;
  cam.distance = 3;
  QCOMPARE(dominantAxis(cam, Eigen::Vector3d::Zero(), Eigen::Vector2d(10, 1), 800, 600), 0);
  QCOMPARE(dominantAxis(cam, Eigen::Vector3d::Zero(), Eigen::Vector2d(1, -10), 800, 600), 2);
}

QTEST_GUILESS_MAIN(TestPicking)
#include "test_picking.moc"
