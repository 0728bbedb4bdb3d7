// tests/ui/test_scene.cpp — scene/scene.cpp and scene/primitives.cpp: what would be drawn, without GL.
#include <QtTest>

#include "test_models.h"
#include "scene/primitives.h"
#include "scene/scene.h"

using namespace mechsim;
using namespace mechsim::ui;

namespace {
bool near(const Eigen::Matrix4f& a, const Eigen::Matrix4f& b, float tol = 1e-5f) {
  return (a - b).cwiseAbs().maxCoeff() <= tol;
}
Pose compose(const Pose& a, const Pose& b) {
  Pose p;
  p.position = a.apply(b.position);
  p.orientation = a.orientation * b.orientation;
  return p;
}
Eigen::Matrix4f withScale(Eigen::Matrix4f t, const Eigen::Vector3f& s) {
  t.topLeftCorner<3, 3>() = t.topLeftCorner<3, 3>() * s.asDiagonal();
  return t;
}
}  // namespace

class TestScene : public QObject {
  Q_OBJECT
 private slots:
  void unitPrimitivesAreClosedAndNormalised();
  void meshWithoutNormalsGetsFlatNormals();
  void itemCounts();
  void transformsFollowBodyPoses();
  void boundsContainTheMechanism();
  void boundsOfASingleBox();
  void optionsHideGridAxesJointsHandles();
  void glyphsPerJointType();
  void colours();
};

void TestScene::unitPrimitivesAreClosedAndNormalised() {
  for (Primitive p : {Primitive::Box, Primitive::Cylinder, Primitive::Sphere, Primitive::Cone}) {
    const TriangleMesh m = unitPrimitive(p, 24);
    QVERIFY(m.triangleCount() > 0);
    QCOMPARE(m.positions.size(), m.normals.size());
    QCOMPARE(m.indices.size() % 3, size_t(0));
    const Eigen::AlignedBox3f bounds = primitiveBounds(p);
    for (size_t i = 0; i < m.positions.size(); ++i) {
      QVERIFY(std::abs(m.normals[i].norm() - 1.0f) < 1e-5f);
      QVERIFY(bounds.exteriorDistance(m.positions[i]) < 1e-5f);
    }
    // Outward winding: each triangle's geometric normal agrees with its vertex normals.
    for (size_t t = 0; t < m.indices.size(); t += 3) {
      const auto &a = m.positions[m.indices[t]], &b = m.positions[m.indices[t + 1]], &c = m.positions[m.indices[t + 2]];
      const Eigen::Vector3f n = (b - a).cross(c - a);
      if (n.norm() < 1e-9f) continue;
      QVERIFY2(n.dot(m.normals[m.indices[t]] + m.normals[m.indices[t + 1]] + m.normals[m.indices[t + 2]]) > 0,
               "inward-facing triangle");
    }
  }
  // The box is the unit cube: 6 faces × 2 triangles.
  QCOMPARE(unitPrimitive(Primitive::Box).triangleCount(), 12);
}

void TestScene::meshWithoutNormalsGetsFlatNormals() {
  MeshData d;
  d.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  d.indices = {0, 2, 1, 0, 1, 3};
  const TriangleMesh m = meshFromData(d);
  QCOMPARE(m.triangleCount(), 2);
  QCOMPARE(m.positions.size(), size_t(6));  // duplicated per triangle
  QVERIFY(m.normals[0].isApprox(Eigen::Vector3f(0, 0, -1)));
  QVERIFY(m.normals[3].isApprox(Eigen::Vector3f(0, -1, 0)));
  const auto box = primitiveBounds(Primitive::Mesh, &d);
  QVERIFY(box.min().isApprox(Eigen::Vector3f(0, 0, 0)) && box.max().isApprox(Eigen::Vector3f(1, 1, 1)));
}

void TestScene::itemCounts() {
  const Model m = test::fourbarModel();
  const Scene s = buildScene(m, initialPoses(m));
  // Shapes: ground box, crank capsule (3), coupler box, rocker capsule (3), slider box, ball sphere.
  QCOMPARE(s.count(ItemRole::BodyShape), 1 + 3 + 1 + 3 + 1 + 1);
  // Glyphs: four revolute pins (1 each), prismatic rail + arrow (3), spherical ball (1).
  QCOMPARE(s.count(ItemRole::JointGlyph), 4 + 3 + 1);
  QCOMPARE(s.count(ItemRole::HandleMarker), 1);
  QCOMPARE(s.count(ItemRole::WorldAxis), 6);  // three arrows, shaft + head each
  QVERIFY(s.lines.segmentCount() > 100);
  QVERIFY(s.gridSpacing > 0);
  QVERIFY(s.glyphSize > 0);
  // Every item belongs to what it says it does.
  for (const DrawItem& it : s.items) {
    if (it.role == ItemRole::BodyShape) QVERIFY(it.body >= 0 && it.body < int(m.bodies.size()));
    if (it.role == ItemRole::JointGlyph) QVERIFY(it.joint >= 0 && it.joint < int(m.joints.size()));
    if (it.role == ItemRole::HandleMarker) QCOMPARE(it.handle, 0);
  }
}

void TestScene::transformsFollowBodyPoses() {
  const Model m = test::fourbarModel();
  std::vector<Pose> poses = initialPoses(m);
  // Move the coupler (body 2) somewhere else and turn it.
  poses[2].position = Vec3(1, 2, 3);
  poses[2].orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 1, 0).normalized()));
  const Scene s = buildScene(m, poses);
  const Shape& shape = m.bodies[2].shapes[0];
  const Eigen::Matrix4f expected = withScale(poseMatrix(compose(poses[2], shape.local)), shape.size.cast<float>());
  int found = 0;
  for (const DrawItem& it : s.items) {
    if (it.role != ItemRole::BodyShape || it.body != 2) continue;
    QCOMPARE(it.primitive, Primitive::Box);
    QVERIFY(near(it.transform, expected));
    ++found;
  }
  QCOMPARE(found, 1);
  // The handle on the coupler moved with it.
  for (const DrawItem& it : s.items)
    if (it.role == ItemRole::HandleMarker)
      QVERIFY((it.transform.block<3, 1>(0, 3).cast<double>().isApprox(poses[2].apply(m.handles[0].local), 1e-6)));
  // The capsule of the crank: a cylinder along the shape's axis and two end spheres.
  const Shape& cap = m.bodies[1].shapes[0];
  const Pose capPose = compose(poses[1], cap.local);
  std::vector<Vec3> centres;
  for (const DrawItem& it : s.items)
    if (it.role == ItemRole::BodyShape && it.body == 1) centres.push_back(Vec3(it.transform.block<3, 1>(0, 3).cast<double>()));
  QCOMPARE(centres.size(), size_t(3));
  const Vec3 axis = capPose.rotate(Vec3::UnitZ());
  QVERIFY(centres[0].isApprox(capPose.position, 1e-6));
  QVERIFY((centres[1] - (capPose.position - 0.5 * cap.length * axis)).norm() < 1e-6);
  QVERIFY((centres[2] - (capPose.position + 0.5 * cap.length * axis)).norm() < 1e-6);
}

void TestScene::boundsContainTheMechanism() {
  const Model m = test::fourbarModel();
  const std::vector<Pose> poses = initialPoses(m);
  const Scene s = buildScene(m, poses);
  QVERIFY(!s.bounds.isEmpty());
  const Eigen::AlignedBox3d grown(s.bounds.min() - Vec3::Constant(1e-9), s.bounds.max() + Vec3::Constant(1e-9));
  for (const Joint& j : m.joints) QVERIFY(grown.contains(poses[j.body1].apply(j.point1)));
  // The ball (radius 0.03 at (0.2, 0.3, 0.1)) reaches z = 0.13; the ground box reaches z = −0.04.
  QVERIFY(std::abs(s.bounds.max().z() - 0.13) < 1e-6);
  QVERIFY(std::abs(s.bounds.min().z() + 0.04) < 1e-6);
  // Axes and glyphs do not widen the bounds used for fitting beyond the mechanism.
  QVERIFY(s.bounds.min().x() > -0.1 && s.bounds.max().x() < 0.7);
  // The grid lies below the mechanism.
  QVERIFY(s.gridZ < s.bounds.min().z());
}

void TestScene::boundsOfASingleBox() {
  Model m;
  Pose p;
  p.position = Vec3(1, 2, 3);
  m.bodies.push_back(test::makeBody("b", false, p, {test::box(Vec3(0.2, 0.4, 0.6))}));
  const Scene s = buildScene(m, initialPoses(m));
  QVERIFY(s.bounds.min().isApprox(Vec3(0.9, 1.8, 2.7), 1e-6));
  QVERIFY(s.bounds.max().isApprox(Vec3(1.1, 2.2, 3.3), 1e-6));
  QCOMPARE(s.gridZ, 0.0);  // the box is above the ground: grid at z = 0
  // Turned 90° about z the box's x and y extents swap.
  std::vector<Pose> turned = initialPoses(m);
  turned[0].orientation = Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()));
  const Scene t = buildScene(m, turned);
  QVERIFY(t.bounds.sizes().isApprox(Vec3(0.4, 0.2, 0.6), 1e-6));
  // An empty model has a non-empty bounds at the origin (fit-to-view still works).
  const Scene e = buildScene(Model{}, {});
  QVERIFY(!e.bounds.isEmpty());
}

void TestScene::optionsHideGridAxesJointsHandles() {
  const Model m = test::fourbarModel();
  SceneOptions o;
  o.grid = o.axes = o.joints = o.handles = false;
  const Scene s = buildScene(m, initialPoses(m), o);
  QCOMPARE(s.lines.segmentCount(), 0);
  QCOMPARE(s.count(ItemRole::WorldAxis), 0);
  QCOMPARE(s.count(ItemRole::JointGlyph), 0);
  QCOMPARE(s.count(ItemRole::HandleMarker), 0);
  QCOMPARE(s.count(ItemRole::BodyShape), 10);
}

void TestScene::glyphsPerJointType() {
  // One joint of each type between two boxes; glyph counts and placement at the joint point.
  const struct {
    JointType type;
    int items;
  } cases[] = {{JointType::Revolute, 1},  {JointType::Prismatic, 3}, {JointType::Cylindrical, 3},
               {JointType::Spherical, 1}, {JointType::Universal, 3}, {JointType::Planar, 3},
               {JointType::Fixed, 1},     {JointType::Distance, 3}};
  for (const auto& c : cases) {
    Model m;
    Pose a, b;
    b.position = Vec3(1, 0, 0);
    m.bodies.push_back(test::makeBody("a", true, a, {test::box(Vec3::Constant(0.1))}));
    m.bodies.push_back(test::makeBody("b", false, b, {test::box(Vec3::Constant(0.1))}));
    // The distance joint's second point is at b's origin, 0.5 from the first: a rod between them.
    const Vec3 p2 = c.type == JointType::Distance ? Vec3::Zero() : Vec3(-0.5, 0, 0);
    m.joints.push_back(test::makeJoint("j", c.type, 0, 1, Vec3(0.5, 0, 0), p2));
    const Scene s = buildScene(m, initialPoses(m));
    QCOMPARE(s.count(ItemRole::JointGlyph), c.items);
    // The first glyph item sits on the joint point (for a distance joint: between its points).
    const Vec3 expected = c.type == JointType::Distance ? Vec3(0.75, 0, 0) : Vec3(0.5, 0, 0);
    for (const DrawItem& it : s.items) {
      if (it.role != ItemRole::JointGlyph) continue;
      const Vec3 at = it.transform.block<3, 1>(0, 3).cast<double>();
      const bool centred = at.isApprox(expected, 1e-6);
      QVERIFY2(centred, toString(c.type));
      break;
    }
  }
}

void TestScene::colours() {
  const Model m = test::fourbarModel();
  // Fixed bodies grey, moving bodies from the palette (distinct), explicit colours kept.
  const Eigen::Vector3f ground = bodyColor(m, 0, m.bodies[0].shapes[0]);
  const Eigen::Vector3f crank = bodyColor(m, 1, m.bodies[1].shapes[0]);
  const Eigen::Vector3f rocker = bodyColor(m, 3, m.bodies[3].shapes[0]);
  QVERIFY(std::abs(ground.x() - ground.y()) < 0.05f);
  QVERIFY(!crank.isApprox(rocker));
  QVERIFY(bodyColor(m, 2, m.bodies[2].shapes[0]).isApprox(Eigen::Vector3f(0.1f, 0.2f, 0.9f)));
}

QTEST_APPLESS_MAIN(TestScene)
#include "test_scene.moc"
