// tests/ui/test_stress_colours.cpp — the GL-free parts of stress colouring and deformable picking:
// the colour ramp's stops and continuity, the range and colours of colourByStress (values that are
// not finite left out; a held range that only grows), the legend's pascal text, the scene's
// per-vertex colours of a deformable surface, and picking a deformable surface triangle by
// triangle (the corner nearest the hit, the nearest item along the ray).
#include <QtTest>

#include <cmath>
#include <limits>

#include "scene/picking.h"
#include "scene/scene.h"
#include "scene/stress_colours.h"

using namespace mechsim;
using namespace mechsim::ui;

namespace {
/// A unit square in the plane z = h, two triangles, vertices (0,0) (1,0) (1,1) (0,1).
std::shared_ptr<MeshData> square(float h) {
  auto m = std::make_shared<MeshData>();
  m->vertices = {{0, 0, h}, {1, 0, h}, {1, 1, h}, {0, 1, h}};
  m->normals.assign(4, Eigen::Vector3f::UnitZ());
  m->indices = {0, 1, 2, 0, 2, 3};
  return m;
}

Ray downAt(double x, double y) {
  Ray r;
  r.origin = Eigen::Vector3d(x, y, 5);
  r.direction = -Eigen::Vector3d::UnitZ();
  return r;
}
}  // namespace

class TestStressColours : public QObject {
  Q_OBJECT
 private slots:
  void rampStopsAndContinuity() {
    const Eigen::Vector4f blue = stressRampColour(0), green = stressRampColour(1.0 / 3), yellow = stressRampColour(2.0 / 3),
                          red = stressRampColour(1);
    QVERIFY(blue.z() > 0.8f && blue.x() < 0.2f && blue.y() < 0.4f);
    QVERIFY(green.y() > 0.7f && green.x() < 0.2f && green.z() < 0.3f);
    QVERIFY(yellow.x() > 0.9f && yellow.y() > 0.8f && yellow.z() < 0.2f);
    QVERIFY(red.x() > 0.9f && red.y() < 0.2f && red.z() < 0.2f);
    for (const auto& c : {blue, green, yellow, red}) QCOMPARE(c.w(), 1.0f);
    // Clamped outside [0, 1]; not finite: the bottom.
    QCOMPARE(stressRampColour(-3), blue);
    QCOMPARE(stressRampColour(7), red);
    QCOMPARE(stressRampColour(std::nan("")), blue);
    // Continuous: neighbouring values give neighbouring colours (no jump at the stops).
    for (int k = 0; k < 1000; ++k)
      QVERIFY((stressRampColour(k / 1000.0) - stressRampColour((k + 1) / 1000.0)).norm() < 0.01f);
  }

  void heldRangeOnlyGrows() {
    auto frame = [](std::vector<float> v) { return std::make_shared<std::vector<float>>(std::move(v)); };
    StressRange hold;
    StressColours sc = colourByStress({frame({10, 50})}, &hold);
    QVERIFY(hold.valid);
    QCOMPARE(sc.min, 10.0);
    QCOMPARE(sc.max, 50.0);
    // a calmer frame keeps the range: 30 Pa is still the middle of the ramp
    sc = colourByStress({frame({20, 30})}, &hold);
    QCOMPARE(sc.min, 10.0);
    QCOMPARE(sc.max, 50.0);
    QCOMPARE((*sc.colours[0])[1], stressRampColour(0.5));
    // a wider one widens it
    sc = colourByStress({frame({5, 90}), frame({std::numeric_limits<float>::quiet_NaN()})}, &hold);
    QCOMPARE(sc.min, 5.0);
    QCOMPARE(sc.max, 90.0);
    QCOMPARE(hold.min, 5.0);
    QCOMPARE(hold.max, 90.0);
    // reset: the next frame's own range; without a hold, always the frame's
    hold.reset();
    QVERIFY(!hold.valid);
    sc = colourByStress({frame({20, 30})}, &hold);
    QCOMPARE(sc.min, 20.0);
    QCOMPARE(sc.max, 30.0);
    sc = colourByStress({frame({21, 22})});
    QCOMPARE(sc.min, 21.0);
    QCOMPARE(sc.max, 22.0);
    // nothing finite leaves the hold as it was
    sc = colourByStress({frame({std::numeric_limits<float>::infinity()})}, &hold);
    QVERIFY(sc.valid);
    QCOMPARE(sc.max, 30.0);
  }

  void coloursSpanTheRangeOfAllParts() {
    auto a = std::make_shared<std::vector<float>>(std::vector<float>{10, 20, 30});
    auto b = std::make_shared<std::vector<float>>(std::vector<float>{50, std::numeric_limits<float>::quiet_NaN(), 40});
    const StressColours sc = colourByStress({a, b});
    QVERIFY(sc.valid);
    QCOMPARE(sc.min, 10.0);
    QCOMPARE(sc.max, 50.0);
    QCOMPARE(sc.colours.size(), size_t(2));
    QCOMPARE(sc.colours[0]->size(), size_t(3));
    QCOMPARE((*sc.colours[0])[0], stressRampColour(0));
    QCOMPARE((*sc.colours[0])[1], stressRampColour(0.25));
    QCOMPARE((*sc.colours[1])[0], stressRampColour(1));
    QCOMPARE((*sc.colours[1])[1], stressRampColour(0));  // NaN: bottom, out of the range
    QCOMPARE((*sc.colours[1])[2], stressRampColour(0.75));
    // All equal: valid, the bottom colour; nothing finite: not valid.
    auto c = std::make_shared<std::vector<float>>(std::vector<float>{7, 7});
    const StressColours flat = colourByStress({c});
    QVERIFY(flat.valid && flat.min == 7 && flat.max == 7);
    QCOMPARE((*flat.colours[0])[1], stressRampColour(0));
    auto d = std::make_shared<std::vector<float>>(std::vector<float>{std::numeric_limits<float>::infinity()});
    QVERIFY(!colourByStress({d, nullptr}).valid);
  }

  void pascalsWithPrefixes() {
    QCOMPARE(formatPascal(0), std::string("0 Pa"));
    QCOMPARE(formatPascal(0.5), std::string("0.50 Pa"));
    QCOMPARE(formatPascal(312), std::string("312 Pa"));
    QCOMPARE(formatPascal(45100), std::string("45.1 kPa"));
    QCOMPARE(formatPascal(2.05e6), std::string("2.05 MPa"));
    QCOMPARE(formatPascal(999.7), std::string("1.00 kPa"));
    QCOMPARE(formatPascal(1.2e9), std::string("1.20 GPa"));
    QCOMPARE(formatPascal(std::nan("")), std::string("– Pa"));
  }

  void sceneCarriesPerVertexColours() {
    Model m;  // no bodies: only the overlay's surfaces
    SceneOverlay o;
    o.deformables = {square(0), square(1)};
    auto colours = std::make_shared<std::vector<Eigen::Vector4f>>(4, Eigen::Vector4f(1, 0, 0, 1));
    o.deformableColors = {nullptr, colours};
    const Scene s = buildScene(m, {}, SceneOptions{}, &o);
    std::vector<const DrawItem*> surfaces;
    for (const DrawItem& it : s.items)
      if (it.role == ItemRole::DeformableSurface) surfaces.push_back(&it);
    QCOMPARE(surfaces.size(), size_t(2));
    QCOMPARE(surfaces[0]->deformable, 0);
    QCOMPARE(surfaces[1]->deformable, 1);
    QVERIFY(!surfaces[0]->vertexColors);
    QVERIFY(surfaces[1]->vertexColors == colours);
    QCOMPARE(surfaces[1]->color, Eigen::Vector4f(1, 1, 1, 1));  // the vertex colours as they are
    // Colours of the wrong size are ignored.
    o.deformableColors = {std::make_shared<std::vector<Eigen::Vector4f>>(3)};
    const Scene s2 = buildScene(m, {}, SceneOptions{}, &o);
    for (const DrawItem& it : s2.items)
      if (it.role == ItemRole::DeformableSurface) QVERIFY(!it.vertexColors);
  }

  void pickingHitsSurfaceTrianglesAtTheirNearestCorner() {
    Model m;
    SceneOverlay o;
    o.deformables = {square(0), square(1)};  // part 1 above part 0
    const Scene s = buildScene(m, {}, SceneOptions{}, &o);
    // From above: the upper square (part 1), at the corner nearest the point.
    auto hit = pick(s, downAt(0.9, 0.2));
    QVERIFY(hit);
    QCOMPARE(hit->role, ItemRole::DeformableSurface);
    QCOMPARE(hit->deformable, 1);
    QCOMPARE(hit->vertex, 1);  // (1, 0)
    QVERIFY((hit->point - Eigen::Vector3d(0.9, 0.2, 1)).norm() < 1e-12);
    QCOMPARE(hit->distance, 4.0);
    hit = pick(s, downAt(0.2, 0.85));
    QVERIFY(hit && hit->deformable == 1 && hit->vertex == 3);  // (0, 1)
    // From below: the lower square first.
    Ray up = downAt(0.6, 0.55);
    up.origin.z() = -5;
    up.direction = Eigen::Vector3d::UnitZ();
    hit = pick(s, up);
    QVERIFY(hit && hit->deformable == 0 && hit->vertex == 2);  // (1, 1)
    // Beside the squares: nothing (the surfaces' bounding boxes are not what is picked).
    QVERIFY(!pick(s, downAt(1.2, 0.5)));
    QVERIFY(!pick(s, downAt(0.5, -0.01)));
  }
};

QTEST_MAIN(TestStressColours)
#include "test_stress_colours.moc"
