// tests/ui/test_camera.cpp — scene/camera.cpp: orbit, pan, zoom, fit and the matrices.
#include <QtTest>

#include "scene/camera.h"

using mechsim::ui::Camera;

namespace {
/// Normalised device coordinates of a world point.
Eigen::Vector3d ndc(const Camera& c, const Eigen::Vector3d& p, double aspect) {
  const Eigen::Vector4f clip = c.projectionMatrix(aspect, 10) * c.viewMatrix() * p.cast<float>().homogeneous();
  return (clip.head<3>() / clip.w()).cast<double>();
}
}  // namespace

class TestCamera : public QObject {
  Q_OBJECT
 private slots:
  void frameIsOrthonormalAndZUp();
  void targetProjectsToTheCentre();
  void orbitPanZoom();
  void fitFramesTheBox();
};

void TestCamera::frameIsOrthonormalAndZUp() {
  Camera c;
  for (double el : {-1.5, -0.3, 0.0, 0.6, 1.5}) {
    c.elevation = el;
    QVERIFY(std::abs(c.right().dot(c.up())) < 1e-12);
    QVERIFY(std::abs(c.right().dot(c.backward())) < 1e-12);
    QVERIFY(c.right().cross(c.up()).isApprox(c.backward()));
    QVERIFY(c.up().z() > 0);  // world z points up on screen
    QVERIFY(std::abs(c.right().z()) < 1e-12);
  }
}

void TestCamera::targetProjectsToTheCentre() {
  Camera c;
  c.target = Eigen::Vector3d(1, 2, 3);
  c.distance = 5;
  const Eigen::Vector3d p = ndc(c, c.target, 1.5);
  QVERIFY(std::abs(p.x()) < 1e-5 && std::abs(p.y()) < 1e-5);
  QVERIFY(p.z() > -1 && p.z() < 1);
  // A point above the target appears above the centre.
  QVERIFY(ndc(c, c.target + Eigen::Vector3d(0, 0, 0.5), 1.5).y() > 0);
}

void TestCamera::orbitPanZoom() {
  Camera c;
  const double az = c.azimuth, el = c.elevation, d = c.distance;
  c.orbit(50, 0);
  QVERIFY(c.azimuth != az);
  QCOMPARE(c.elevation, el);
  c.orbit(0, 10000);  // clamped short of the pole
  QVERIFY(c.elevation < M_PI / 2 && c.elevation > 1.5);
  c.zoom(1);
  QVERIFY(c.distance < d);
  c.zoom(-2);
  QVERIFY(c.distance > d);
  // Panning moves the target in the view plane only.
  const Eigen::Vector3d t0 = c.target;
  c.pan(30, -20, 600);
  const Eigen::Vector3d moved = c.target - t0;
  QVERIFY(moved.norm() > 0);
  QVERIFY(std::abs(moved.dot(c.backward())) < 1e-12);
}

void TestCamera::fitFramesTheBox() {
  const Eigen::AlignedBox3d box(Eigen::Vector3d(-0.1, 0.2, -0.05), Eigen::Vector3d(0.5, 0.4, 0.1));
  for (double aspect : {0.5, 1.0, 2.0}) {
    Camera c;
    c.distance = 100;
    c.fit(box, aspect);
    QVERIFY(c.target.isApprox(box.center()));
    // Every corner lies inside the view with a margin (at most 80 % of the half extent out, i.e.
    // 10 % of the view free on each side), and the box fills most of it: the outermost corner
    // touches the 80 % frame.
    double extent = 0;
    for (int k = 0; k < 8; ++k) {
      const Eigen::Vector3d p = ndc(c, box.corner(static_cast<Eigen::AlignedBox3d::CornerType>(k)), aspect);
      QVERIFY(std::abs(p.x()) <= 0.8 + 1e-5 && std::abs(p.y()) <= 0.8 + 1e-5 && std::abs(p.z()) <= 1);  // float matrices
      extent = std::max({extent, std::abs(p.x()), std::abs(p.y())});
    }
    QVERIFY2(std::abs(extent - 0.8) < 1e-5, qPrintable(QString("outermost corner at %1 of the half view").arg(extent)));
  }
}

QTEST_APPLESS_MAIN(TestCamera)
#include "test_camera.moc"
