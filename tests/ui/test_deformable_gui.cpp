// tests/ui/test_deformable_gui.cpp — deformable parts in the main window: the flexible-link example
// (a crank driving one end of a neo-Hookean strap whose other end is clamped to a post) opens with
// the strap drawn as its boundary surface; playing moves the crank, and the strap's attached end
// follows the crank exactly while the clamped end stays; the surface stays closed (every edge in two
// triangles) and finite. A screenshot (deformable_link.png) is looked at.
#include <QtTest>

#include <QAction>
#include <QDir>

#include <cmath>
#include <map>

#include "core/io/load.h"
#include "ui/deformable_parts.h"
#include "ui/main_window.h"
#include "ui/viewport.h"
#include "tests/ui/window_test_util.h"

using namespace mechsim;
using namespace mechsim::ui;
using namespace mechsim::test;

namespace {
/// Every undirected edge of the triangle list used by exactly two triangles (a closed surface).
bool closedSurface(const MeshData& m) {
  std::map<std::pair<unsigned, unsigned>, int> edges;
  for (size_t t = 0; t + 2 < m.indices.size(); t += 3)
    for (int e = 0; e < 3; ++e) {
      unsigned a = m.indices[t + e], b = m.indices[t + (e + 1) % 3];
      if (a > b) std::swap(a, b);
      ++edges[{a, b}];
    }
  for (const auto& [edge, n] : edges)
    if (n != 2) return false;
  return !edges.empty();
}
}  // namespace

class TestDeformableGui : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("mechsim-tests");
    QCoreApplication::setApplicationName("test_deformable_gui");
    QSettings().clear();
  }

  void partsFollowTheirBodies() {
    // The worker-side parts on their own: attached vertices on their body points after each step.
    const MechanismSpec spec = io::readMechanismFile(mechanism("deform-flexible-link.json").toStdString());
    const Model model = io::compileSpec(spec);
    DeformableParts parts;
    QVERIFY2(parts.build(spec, model, 1.0 / 60), parts.message().c_str());
    QCOMPARE(parts.count(), 1);
    Data d = makeData(model);
    int iterations = 0;
    for (int k = 1; k <= 20; ++k) {
      QVERIFY(solvePositions(model, d, k / 60.0));
      QVERIFY2(parts.step(model, d.q), parts.message().c_str());
      QVERIFY2(parts.attachmentError() < 1e-9, qPrintable(QString::number(parts.attachmentError())));
      iterations += parts.iterations();
    }
    qInfo("flexible link: 20 frames, %d Newton iterations in all", iterations);
    const auto s = parts.surface(0);
    QVERIFY(s->vertices.size() > 100);
    QVERIFY(closedSurface(*s));
    for (const auto& v : s->vertices) QVERIFY(v.allFinite());
  }

  void strapDrawnAndMovingInTheWindow() {
    MainWindow w;
    w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
    w.resize(1100, 760);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, mechanism("deform-flexible-link.json")));
    QVERIFY(!w.currentFrame().deformables.empty());
    auto surfaces = [&] {
      int n = 0;
      for (const DrawItem& it : w.viewport()->scene().items) n += it.role == ItemRole::DeformableSurface;
      return n;
    };
    QCOMPARE(surfaces(), 1);
    const Vec3 before = w.currentFrame().deformables[0]->vertices[0].cast<double>();
    QAction* play = findAction(&w, "Play");
    QVERIFY(play);
    play->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > 0.12, 30000);
    play->trigger();
    waitIdle(w);
    const Frame& f = w.currentFrame();
    QCOMPARE(f.deformables.size(), size_t(1));
    QVERIFY(closedSurface(*f.deformables[0]));
    double moved = 0;
    for (const auto& v : f.deformables[0]->vertices) {
      QVERIFY(v.allFinite());
      moved = std::max(moved, (v.cast<double>() - before).norm());
    }
    QVERIFY2(moved > 1e-3, qPrintable(QString::number(moved)));  // the crank end swung
    QCOMPARE(surfaces(), 1);
    QVERIFY(QDir().mkpath(MECHSIM_SCREENSHOT_DIR));
    QVERIFY(w.grab().save(QStringLiteral(MECHSIM_SCREENSHOT_DIR "/deformable_link.png"), "PNG"));
  }
};

QTEST_MAIN(TestDeformableGui)
#include "test_deformable_gui.moc"
