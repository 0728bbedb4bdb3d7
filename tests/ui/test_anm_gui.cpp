// tests/ui/test_anm_gui.cpp — the main window with View → Drag Solver → Continuation (ANM): the
// four-bar's coupler handle dragged with the mouse round a full turn keeps its assembly branch
// (the sign of (D − B) × (C − B), which tells the two assemblies of a crank angle apart, never
// changes) with Φ met; a long slider move along the ANM path keeps it too; the choice is
// remembered. File → Save As writes the pose reached, and the saved file opens there. The
// default camera frames the whole mechanism with a margin (screenshot checked).
#include <QtTest>

#include <set>

#include <QAction>
#include <QDir>
#include <QDoubleSpinBox>
#include <QTemporaryDir>

#include "core/io/load.h"
#include "ui/dof_panel.h"
#include "ui/drag_handler.h"
#include "ui/main_window.h"
#include "scene/picking.h"
#include "ui/viewport.h"
#include "tests/ui/window_test_util.h"

using namespace mechsim;
using namespace mechsim::ui;
using namespace mechsim::test;

namespace {
constexpr double kPi = 3.14159265358979323846;

Vec3 jointPoint(const Model& m, const Frame& f, int j) {
  const Joint& jt = m.joints[j];
  return jt.body1 >= 0 ? f.poses[jt.body1].apply(jt.point1) : jt.point1;
}

/// ((D − B) × (C − B))_z of the four-bar (joints A, B, C, D): the assembly branch's sign.
double branch(const Model& m, const Frame& f) {
  const Vec3 B = jointPoint(m, f, 1), C = jointPoint(m, f, 2), D = jointPoint(m, f, 3);
  return (D - B).cross(C - B).z();
}

QPoint pixelOf(MainWindow& w, const Vec3& p) {
  const auto px = projectToPixel(w.viewport()->camera(), p, w.viewport()->width(), w.viewport()->height());
  return px ? QPoint(qRound(px->x()), qRound(px->y())) : QPoint(-1, -1);
}

QAction* anmAction(MainWindow& w) { return w.findChild<QAction*>("dragSolverAnm"); }

/// Cursor moves per turn in the drag test (a hand's pace: the controller coalesces what comes
/// faster than it solves).
constexpr int kMoves = 48;
}  // namespace

class TestAnmGui : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase();
  void anmDragKeepsTheBranch();
  void saveAsWritesThePose();
  void defaultCameraFramesTheMechanism();

 private:
  QTemporaryDir dir_;
};

void TestAnmGui::initTestCase() {
  useFreshSettings("test_ui_anm_gui");
  QVERIFY(dir_.isValid());
}

void TestAnmGui::anmDragKeepsTheBranch() {
  {
    MainWindow w;
    w.resize(1100, 760);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QAction* anm = anmAction(w);
    QVERIFY(anm);
    QVERIFY(!anm->isChecked());
    anm->trigger();
    QVERIFY(anm->isChecked());
    QCOMPARE(QSettings().value("drag/solver").toString(), QStringLiteral("anm"));
    QVERIFY(openAndWait(w, mechanism("fourbar.json")));
    const Model& m = *w.model();
    QCOMPARE(m.joints.size(), size_t(4));
    const double s0 = branch(m, w.currentFrame());
    QVERIFY(std::abs(s0) > 1e-3);

    // Every frame shown during the drag: branch sign, residual, crank sector visited.
    int frames = 0, flips = 0;
    double worstResidual = 0;
    std::set<int> sectors;
    const int crankCoord = m.joints[0].firstCoord;
    connect(&w, &MainWindow::frameShown, this, [&] {
      const Frame& f = w.currentFrame();
      if (!f.dragging) return;
      ++frames;
      if (branch(m, f) * s0 <= 0) ++flips;
      worstResidual = std::max(worstResidual, f.maxResidual());
      sectors.insert(static_cast<int>(std::floor((f.coords[crankCoord] + kPi) / (kPi / 4))));
    });
    // Grab the coupler handle and take the cursor once round the crank pivot, on a circle through
    // the handle (the coupler point follows the closest point of its coupler curve).
    Viewport* v = w.viewport();
    const Vec3 P = w.currentFrame().poses[m.handles[0].body].apply(m.handles[0].local);
    const QPoint p0 = pixelOf(w, P);
    QVERIFY(v->rect().contains(p0));
    QTest::mousePress(v, Qt::LeftButton, Qt::NoModifier, p0);
    QVERIFY(w.dragHandler()->dragging());
    const double radius = std::hypot(P.x(), P.y()), phi0 = std::atan2(P.y(), P.x());
    QPoint last = p0;
    for (int k = 1; k <= kMoves; ++k) {
      const double phi = phi0 + 2 * kPi * k / kMoves;
      last = pixelOf(w, Vec3(radius * std::cos(phi), radius * std::sin(phi), P.z()));
      QTest::mouseMove(v, last);
      QTest::qWait(25);
    }
    waitIdle(w);
    QTest::mouseRelease(v, Qt::LeftButton, Qt::NoModifier, last);
    waitIdle(w);
    QVERIFY2(frames >= 10, qPrintable(QString::number(frames)));
    QVERIFY2(sectors.size() >= 6, qPrintable(QString("crank visited %1 of 8 sectors").arg(sectors.size())));
    QCOMPARE(flips, 0);
    QVERIFY2(worstResidual < 1e-6, qPrintable(QString::number(worstResidual)));
    QVERIFY(w.currentFrame().maxResidual() < 1e-9);
    QVERIFY(branch(m, w.currentFrame()) * s0 > 0);

    // A long slider move (150° in one spin box entry) follows the ANM path: same branch, the
    // crank where it was asked.
    QDoubleSpinBox* spin = w.dofPanel()->spinBox(0);
    const double from = spin->value();
    const double to = from + 150 <= spin->maximum() ? from + 150 : from - 150;
    spin->setValue(to);
    waitIdle(w);
    const Frame& f = w.currentFrame();
    QVERIFY2(std::abs(f.dofValues[0] * 180 / kPi - to) < 1e-6, qPrintable(QString("%1 vs %2").arg(f.dofValues[0] * 180 / kPi).arg(to)));
    QVERIFY(f.maxResidual() < 1e-9);
    QVERIFY(branch(m, f) * s0 > 0);
    w.close();
  }
  // The choice is remembered.
  MainWindow w2;
  QVERIFY(anmAction(w2)->isChecked());
  w2.findChild<QAction*>("dragSolverNewton")->trigger();
  QCOMPARE(QSettings().value("drag/solver").toString(), QStringLiteral("newton"));
}

void TestAnmGui::saveAsWritesThePose() {
  const QString saved = dir_.filePath("fourbar-posed.json");
  std::vector<Pose> poses;
  Vec3 handle;
  {
    MainWindow w;
    w.resize(1000, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, mechanism("fourbar.json")));
    // The crank to 100° from its file position.
    QDoubleSpinBox* spin = w.dofPanel()->spinBox(0);
    spin->setValue(spin->value() + 100);
    waitIdle(w);
    const Frame& f = w.currentFrame();
    QVERIFY(f.maxResidual() < 1e-9);
    QVERIFY((f.poses[1].orientation.angularDistance(w.model()->bodies[1].pose0.orientation)) > 1.0);
    poses = f.poses;
    handle = f.poses[w.model()->handles[0].body].apply(w.model()->handles[0].local);
    QVERIFY2(w.saveAs(saved), qPrintable(w.lastError()));
  }
  // Read back: the bodies are placed where they were, the handle sits on its body there.
  const Model back = io::compileSpec(io::readMechanismFile(saved.toStdString()));
  QCOMPARE(back.bodies.size(), poses.size());
  for (size_t b = 0; b < poses.size(); ++b) {
    QVERIFY2((back.bodies[b].pose0.position - poses[b].position).norm() < 1e-9, qPrintable(QString::number(b)));
    QVERIFY2(back.bodies[b].pose0.orientation.angularDistance(poses[b].orientation) < 1e-9, qPrintable(QString::number(b)));
  }
  QVERIFY((back.bodies[back.handles[0].body].pose0.apply(back.handles[0].local) - handle).norm() < 1e-9);
  // Opened, it assembles at that pose (the crank driver is 0 at t = 0 from the new pose).
  MainWindow w;
  w.resize(1000, 700);
  w.show();
  QVERIFY(openAndWait(w, saved));
  const Frame& f = w.currentFrame();
  QVERIFY(f.maxResidual() < 1e-9);
  for (size_t b = 0; b < poses.size(); ++b) QVERIFY((f.poses[b].position - poses[b].position).norm() < 1e-8);
}

void TestAnmGui::defaultCameraFramesTheMechanism() {
  MainWindow w;
  w.resize(1000, 700);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QVERIFY(openAndWait(w, mechanism("fourbar.json")));
  Viewport* v = w.viewport();
  QTRY_VERIFY_WITH_TIMEOUT(v->paintCount() > 0, 10000);
  // Every corner of the mechanism's bounds projects inside the view with at least 8 % of its size
  // to spare on each side, and the mechanism spans most of it.
  const Eigen::AlignedBox3d& box = v->scene().bounds;
  double minX = 1e9, maxX = -1e9, minY = 1e9, maxY = -1e9;
  for (int k = 0; k < 8; ++k) {
    const auto px = projectToPixel(v->camera(), box.corner(static_cast<Eigen::AlignedBox3d::CornerType>(k)), v->width(), v->height());
    QVERIFY(px.has_value());
    minX = std::min(minX, px->x()), maxX = std::max(maxX, px->x());
    minY = std::min(minY, px->y()), maxY = std::max(maxY, px->y());
  }
  const double W = v->width(), H = v->height();
  QVERIFY2(minX >= 0.08 * W && maxX <= 0.92 * W && minY >= 0.08 * H && maxY <= 0.92 * H,
           qPrintable(QString("x %1..%2 of %3, y %4..%5 of %6").arg(minX).arg(maxX).arg(W).arg(minY).arg(maxY).arg(H)));
  QVERIFY(maxX - minX > 0.5 * W || maxY - minY > 0.5 * H);
  const QString dir = QStringLiteral(MECHSIM_SCREENSHOT_DIR);
  QDir().mkpath(dir);
  QVERIFY(v->grabFramebuffer().save(dir + "/fourbar-framed.png", "PNG"));
}

QTEST_MAIN(TestAnmGui)
#include "test_anm_gui.moc"
