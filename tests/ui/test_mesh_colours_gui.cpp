// tests/ui/test_mesh_colours_gui.cpp — scene/mesh_colours.cpp and the way a mesh file's own
// colours (MeshData::colors) reach the drawing: the scene gives a mesh shape without a colour of
// its own per-vertex colours (the run's colour, the body's palette colour for triangles in no
// run), the same array frame after frame; a colour from the mechanism file wins. The viewport
// then draws them: a square of two triangles, red and green by their runs, rendered under
// xvfb/llvmpipe, shows both hues, and only the file's colour when the shape has one. The real
// UR5 shoulder visual (Collada, three materials) read through the mesh reader draws its blue.
#include <QtTest>

#include <QApplication>
#include <QDir>

#include "core/io/mesh.h"
#include "scene/mesh_colours.h"
#include "scene/scene.h"
#include "test_models.h"
#include "ui/viewport.h"

using namespace mechsim;
using namespace mechsim::ui;

namespace {

/// A unit square in z = 0 of two triangles: the first red, the second green (or uncoloured).
std::shared_ptr<const MeshData> square(bool colourSecond = true) {
  auto m = std::make_shared<MeshData>();
  m->vertices = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  m->normals.assign(6, Eigen::Vector3f::UnitZ());
  m->indices = {0, 1, 2, 3, 4, 5};
  m->colors.push_back({0, 3, Eigen::Vector3f(0.9f, 0.1f, 0.1f)});
  if (colourSecond) m->colors.push_back({3, 3, Eigen::Vector3f(0.1f, 0.8f, 0.1f)});
  return m;
}

/// One moving body (palette colour 0) with the mesh as its shape.
Model meshModel(std::shared_ptr<const MeshData> mesh, const Eigen::Vector3f* colour = nullptr) {
  Model m;
  Shape s;
  s.type = ShapeType::Mesh;
  s.mesh = std::move(mesh);
  if (colour) s.color = *colour;
  Pose pose;
  pose.orientation = Quat(Eigen::AngleAxisd(0.5, Vec3::UnitX()));  // seen at a slant from the default camera
  m.bodies.push_back(test::makeBody("plate", false, pose, {s}));
  m.bodies[0].qIndex = 0;
  m.nq = 7;
  m.nMoving = 1;
  return m;
}

/// Pixels whose red (green) channel is more than twice each other channel.
std::pair<long, long> redAndGreen(const QImage& src) {
  const QImage img = src.convertToFormat(QImage::Format_RGB32);
  long red = 0, green = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QRgb p = img.pixel(x, y);
      red += qRed(p) > 2 * qGreen(p) && qRed(p) > 2 * qBlue(p) && qRed(p) > 60;
      green += qGreen(p) > 2 * qRed(p) && qGreen(p) > 2 * qBlue(p) && qGreen(p) > 60;
    }
  return {red, green};
}

const DrawItem* bodyItem(const Scene& s) {
  for (const DrawItem& it : s.items)
    if (it.role == ItemRole::BodyShape) return &it;
  return nullptr;
}

}  // namespace

class TestMeshColoursGui : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY(QDir().mkpath(MECHSIM_SCREENSHOT_DIR)); }

  // What the scene hands the viewport, without GL.
  void sceneGivesVertexColours() {
    const Model m = meshModel(square(false));
    const Scene a = buildScene(m, initialPoses(m)), b = buildScene(m, initialPoses(m));
    const DrawItem* it = bodyItem(a);
    QVERIFY(it && it->vertexColors);
    QCOMPARE(it->color, Eigen::Vector4f(1, 1, 1, 1));
    const Eigen::Vector3f palette = bodyColor(m, 0, m.bodies[0].shapes[0]);
    for (int v = 0; v < 3; ++v) QCOMPARE((*it->vertexColors)[v], Eigen::Vector4f(0.9f, 0.1f, 0.1f, 1));
    for (int v = 3; v < 6; ++v) QCOMPARE((*it->vertexColors)[v], Eigen::Vector4f(palette.x(), palette.y(), palette.z(), 1));
    QCOMPARE(bodyItem(b)->vertexColors.get(), it->vertexColors.get());  // the same array: uploaded once
    // The mechanism file's colour wins: no vertex colours, the shape's colour.
    const Eigen::Vector3f blue(0.1f, 0.2f, 0.9f);
    const Model own = meshModel(square(), &blue);
    const Scene c = buildScene(own, initialPoses(own));
    QVERIFY(!bodyItem(c)->vertexColors);
    QCOMPARE(bodyItem(c)->color, Eigen::Vector4f(0.1f, 0.2f, 0.9f, 1));
    // A mesh without runs: none.
    auto plain = std::make_shared<MeshData>(*square());
    plain->colors.clear();
    QVERIFY(!meshVertexColours(plain, palette));
  }

  // Drawn: both hues of the runs; with the file's own colour, neither.
  void viewportDrawsTheRuns() {
    Viewport v;
    v.resize(480, 360);
    const Model coloured = meshModel(square());
    v.setScene(buildScene(coloured, initialPoses(coloured)), true);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    auto render = [&] {
      const int before = v.paintCount();
      v.update();
      return QTest::qWaitFor([&] { return v.paintCount() > before; }, 10000 * MECHSIM_WAIT_SCALE) ? v.grabFramebuffer() : QImage();
    };
    const QImage img = render();
    QVERIFY(!img.isNull());
    QVERIFY(img.save(QDir(MECHSIM_SCREENSHOT_DIR).filePath("mesh-colours.png")));
    const auto [red, green] = redAndGreen(img);
    const long pixels = long(img.width()) * img.height();
    QVERIFY2(red > pixels / 50 && green > pixels / 50, qPrintable(QString("red %1, green %2 of %3").arg(red).arg(green).arg(pixels)));
    const Eigen::Vector3f blue(0.1f, 0.2f, 0.9f);
    const Model own = meshModel(square(), &blue);
    v.setScene(buildScene(own, initialPoses(own)), true);
    const auto [red2, green2] = redAndGreen(render());
    QVERIFY2(red2 < pixels / 1000 && green2 < pixels / 1000, qPrintable(QString("red %1, green %2").arg(red2).arg(green2)));
  }

  // The UR5 shoulder (its blue cap, 0.3136 0.4344 0.512 in the file) read through the mesh
  // reader program and drawn: the blue run's vertices carry that colour into the scene.
  void ur5ShoulderColoursReachTheScene() {
    const auto mesh = io::loadMeshFile(MECHSIM_SOURCE_DIR "/tests/data/import/real/ur5_meshes/visual/shoulder.dae");
    const Model m = meshModel(mesh);
    const Scene s = buildScene(m, initialPoses(m));
    const DrawItem* it = bodyItem(s);
    QVERIFY(it && it->vertexColors && it->vertexColors->size() == mesh->vertices.size());
    long blue = 0;
    for (const Eigen::Vector4f& c : *it->vertexColors) blue += (c.head<3>() - Eigen::Vector3f(0.3136f, 0.4344f, 0.512f)).norm() < 1e-6f;
    QVERIFY(blue > 0 && blue < long(mesh->vertices.size()));
    // Drawn, for the eye (build/screenshots/ur5-shoulder-colours.png): dark grey with a blue cap.
    Viewport v;
    v.resize(480, 360);
    v.setScene(s, true);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    const int before = v.paintCount();
    v.update();
    QVERIFY(QTest::qWaitFor([&] { return v.paintCount() > before; }, 10000 * MECHSIM_WAIT_SCALE));
    QVERIFY(v.grabFramebuffer().save(QDir(MECHSIM_SCREENSHOT_DIR).filePath("ur5-shoulder-colours.png")));
  }
};

QTEST_MAIN(TestMeshColoursGui)
#include "test_mesh_colours_gui.moc"
