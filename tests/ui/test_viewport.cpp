// tests/ui/test_viewport.cpp — ui/viewport.cpp: the 3.3 core context, rendering every example
// mechanism (screenshots saved to <build>/screenshots/), and the camera's mouse gestures.
#include <QtTest>

#include <QApplication>
#include <QDir>
#include <QWheelEvent>

#include "test_models.h"
#include "ui/main_window.h"
#include "scene/scene.h"
#include "ui/viewport.h"

using namespace mechsim;
using namespace mechsim::ui;

class TestViewport : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void contextIsOpenGl33Core();
  void rendersEveryExampleMechanism();
  void rendersAModelBuiltInCode();
  void mouseOrbitPanZoom();
  void fitKey();

 private:
  /// Shows `w`, waits for its first paint, returns the grabbed framebuffer.
  QImage renderOnce(Viewport* v);
};

void TestViewport::initTestCase() {
  QCoreApplication::setOrganizationName("mechsim-tests");
  QCoreApplication::setApplicationName("test_ui_viewport");
  QStandardPaths::setTestModeEnabled(true);
  QVERIFY(QDir().mkpath(MECHSIM_SCREENSHOT_DIR));
}

QImage TestViewport::renderOnce(Viewport* v) {
  const int before = v->paintCount();
  v->update();
  if (!QTest::qWaitFor([&] { return v->paintCount() > before; }, 10000 * MECHSIM_WAIT_SCALE)) return {};
  return v->grabFramebuffer();
}

void TestViewport::contextIsOpenGl33Core() {
  Viewport v;
  v.resize(320, 240);
  v.show();
  QVERIFY(QTest::qWaitForWindowExposed(&v));
  QTRY_VERIFY_WITH_TIMEOUT(v.glInfo().initialized, 10000 * MECHSIM_WAIT_SCALE);
  const GlInfo& gl = v.glInfo();
  qInfo("OpenGL %d.%d %s: %s / %s", gl.major, gl.minor, gl.coreProfile ? "core" : "compat", qPrintable(gl.version),
        qPrintable(gl.renderer));
  QVERIFY2(gl.ok, qPrintable(gl.error));
  QVERIFY(gl.major * 10 + gl.minor >= 33);
  QVERIFY(gl.coreProfile);
}

void TestViewport::rendersEveryExampleMechanism() {
  const QDir dir(QDir(qEnvironmentVariable("MECHSIM_SOURCE_DIR", MECHSIM_SOURCE_DIR)).filePath("mechanisms"));
  const QStringList files = dir.entryList({"*.json"}, QDir::Files, QDir::Name);
  int rendered = 0;
  QStringList failedToLoad;
  // One window for all files: each open replaces the mechanism shown.
  MainWindow w;
  QString error;
  w.setErrorHandler([&](const QString& m) { error = m; });
  w.resize(1100, 750);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  for (const QString& name : files) {
    if (!w.openFile(dir.filePath(name))) {
      failedToLoad << QStringLiteral("%1 (%2)").arg(name, error);
      continue;
    }
    // Wait for the controller's first frame of this model (worker thread), then for a paint.
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().serial > 0 && w.currentFrame().model == w.model(), 10000 * MECHSIM_WAIT_SCALE);
    const QImage img = renderOnce(w.viewport());
    QVERIFY2(!img.isNull(), qPrintable(name));
    const test::ImageStats st = test::imageStats(img);
    const QString out = QDir(MECHSIM_SCREENSHOT_DIR).filePath(QFileInfo(name).completeBaseName() + ".png");
    QVERIFY(img.save(out));
    if (name == "fourbar.json") {
      // The whole window once, for a look at the tree, menus and status bar.
      const QString win = QDir(MECHSIM_SCREENSHOT_DIR).filePath("window-fourbar.png");
      QVERIFY(w.grab().save(win));
      qInfo("window %s", qPrintable(win));
    }
    qInfo("screenshot %s: %d colours, %.1f%% foreground pixels", qPrintable(out), st.distinctColors,
          100 * st.foregroundFraction);
    QVERIFY2(st.distinctColors > 200, qPrintable(name + ": too few colours, looks blank"));
    QVERIFY2(st.foregroundFraction > 0.005, qPrintable(name + ": almost nothing drawn"));
    ++rendered;
  }
  for (const QString& f : failedToLoad) qInfo("not loadable (yet): %s", qPrintable(f));
  if (rendered == 0) QSKIP("no mechanisms/*.json loads yet");
}

void TestViewport::rendersAModelBuiltInCode() {
  // Independent of the loader: a model built in code, drawn straight into a viewport.
  const Model m = test::fourbarModel();
  Viewport v;
  v.resize(640, 480);
  v.setScene(buildScene(m, initialPoses(m)), true);
  v.show();
  QVERIFY(QTest::qWaitForWindowExposed(&v));
  const QImage img = renderOnce(&v);
  QVERIFY(!img.isNull());
  QCOMPARE(img.size(), QSize(640, 480) * v.devicePixelRatioF());
  const test::ImageStats st = test::imageStats(img);
  QVERIFY(img.save(QDir(MECHSIM_SCREENSHOT_DIR).filePath("built-in-model.png")));
  QVERIFY2(st.distinctColors > 200 && st.foregroundFraction > 0.01, "the built-in model should be visible");
  // Without any scene items only the background, grid and triad remain: far fewer foreground pixels.
  SceneOptions none;
  none.grid = none.axes = none.joints = none.handles = false;
  v.setScene(buildScene(Model{}, {}, none), true);
  const test::ImageStats empty = test::imageStats(renderOnce(&v));
  QVERIFY(empty.foregroundFraction < st.foregroundFraction / 2);
}

void TestViewport::mouseOrbitPanZoom() {
  const Model m = test::fourbarModel();
  Viewport v;
  v.resize(640, 480);
  v.setScene(buildScene(m, initialPoses(m)), true);
  v.show();
  QVERIFY(QTest::qWaitForWindowExposed(&v));
  renderOnce(&v);
  QSignalSpy changed(&v, &Viewport::cameraChanged);

  // Left drag orbits.
  const Camera c0 = v.camera();
  QTest::mousePress(&v, Qt::LeftButton, {}, QPoint(300, 200));
  QTest::mouseMove(&v, QPoint(360, 230));
  QTest::mouseRelease(&v, Qt::LeftButton, {}, QPoint(360, 230));
  QVERIFY(v.camera().azimuth != c0.azimuth);
  QVERIFY(v.camera().elevation != c0.elevation);
  QCOMPARE(v.camera().distance, c0.distance);
  QVERIFY(changed.count() > 0);

  // Shift + left drag pans: the target moves, the angles do not.
  const Camera c1 = v.camera();
  QTest::mousePress(&v, Qt::LeftButton, Qt::ShiftModifier, QPoint(300, 200));
  QTest::mouseMove(&v, QPoint(340, 180));
  QTest::mouseRelease(&v, Qt::LeftButton, Qt::ShiftModifier, QPoint(340, 180));
  QVERIFY((v.camera().target - c1.target).norm() > 0);
  QCOMPARE(v.camera().azimuth, c1.azimuth);

  // The wheel zooms: forward brings the camera closer.
  const double d = v.camera().distance;
  QWheelEvent wheel(QPointF(320, 240), v.mapToGlobal(QPointF(320, 240)), QPoint(), QPoint(0, 240), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(&v, &wheel);
  QVERIFY(v.camera().distance < d);

  // And the picture changed with the camera.
  QVERIFY(!renderOnce(&v).isNull());
}

void TestViewport::fitKey() {
  const Model m = test::fourbarModel();
  Viewport v;
  v.resize(640, 480);
  v.setScene(buildScene(m, initialPoses(m)), true);
  v.show();
  QVERIFY(QTest::qWaitForWindowExposed(&v));
  renderOnce(&v);
  const Camera fitted = v.camera();
  v.camera().zoom(-5);
  v.camera().target += Eigen::Vector3d(1, 1, 0);
  QTest::keyClick(&v, Qt::Key_F);
  QVERIFY(v.camera().target.isApprox(fitted.target));
  QVERIFY(std::abs(v.camera().distance - fitted.distance) < 1e-9 * fitted.distance);
}

int main(int argc, char** argv) {
  // As app/main_gui.cpp does: the 3.3 core format must be the default before the application.
  QSurfaceFormat::setDefaultFormat(Viewport::requiredFormat());
  QApplication app(argc, argv);
  TestViewport t;
  return QTest::qExec(&t, argc, argv);
}
#include "test_viewport.moc"
