// tests/ui/test_deformable_gui.cpp — deformable parts in the main window: the flexible-link example
// (a crank driving one end of a neo-Hookean strap whose other end is clamped to a post) opens with
// the strap drawn as its boundary surface; playing moves the crank, and the strap's attached end
// follows the crank exactly while the clamped end stays; the surface stays closed (every edge in two
// triangles) and finite (the surfaces' own tests, sharp at creases and smooth elsewhere, and the
// parts' stepping are the engine's: tests/core/test_sim_parts.cpp). The history bounds the
// surfaces its frames keep.
// File → Export Deformables (VTK) writes the recorded surfaces as a series ParaView replays (read
// back: the history's times, vertices, triangles and normals); cancelled or failed, it leaves
// nothing; the action is off for a mechanism without parts (export_deformables_menu.png).
// A screenshot (deformable_link.png) is looked at. Every mechanisms/deform-*.json example (box,
// cylinder, Gmsh and closed-surface meshes) steps a quarter second in the window with converged
// steps, finite closed surfaces that move and keep their volume (example-deform-*.png).
// View → Colour Deformables by Stress (off by default) gives the surface per-vertex colours from
// the von Mises stress (they vary over the strap, span the ramp from blue to red, reach the
// rendered image, and the status bar's legend names the range in Pa; deformable_stress.png).
// A press on the strap and a drag pull the surface vertex under the cursor with a soft handle
// while time is paused: frames keep coming, the vertex moves a substantial part of the way to the
// cursor's point on the view plane, the attached ends stay on their bodies; released, the strap
// springs back towards rest. A press on the crank still drags the rigid body.
// A JGS2 part's precomputation reports its stages (factorisation, rest modes, subspaces with the
// share done) for the status bar.
// Simulation → Deformable Solver switches the strap from the file's Newton to JGS2 and back: the
// precomputation is announced, the frames and the model tree name the new solver, the run restarts
// at t = 0 and moves, Save As writes the solver chosen; the menu is disabled for a mechanism
// without deformable parts.
// Long work on the simulation worker is abandoned, not waited out: a part whose step would take
// minutes (vbd, 100000 sweeps to an unreachable tolerance on 15k tets) while another file is
// opened, while the window closes, and a JGS2 precomputation on 30k tets while another file is
// opened. A part is drawn at rest while it is prepared (deformable_preparing.png). A file whose
// only content is a deformable part opens with the view fitted to it (deformable_only.png).
#include <QtTest>

#include <QAction>
#include <QDir>
#include <QElapsedTimer>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>

#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTreeWidget>

#include "core/deform/tet_mesh.h"
#include "core/io/load.h"
#include "tests/closed_surface.h"
#include "ui/deformable_export.h"
#include "ui/drag_handler.h"
#include "ui/history.h"
#include "ui/main_window.h"
#include "scene/picking.h"
#include "scene/stress_colours.h"
#include "ui/viewport.h"
#include "tests/ui/window_test_util.h"
#include "tests/vtk_read.h"

using namespace mechsim;
using namespace mechsim::ui;
using namespace mechsim::test;

namespace {
/// The example strap's text with its `"solver": "newton"` replaced by solverKeys (empty when the
/// example cannot be read or no longer says so).
QString strapWithSolver(const QString& solverKeys) {
  QFile in(mechanism("deform-flexible-link.json"));
  if (!in.open(QIODevice::ReadOnly)) return {};
  QString text = QString::fromUtf8(in.readAll());
  const QString from = QStringLiteral("\"solver\": \"newton\"");
  if (!text.contains(from)) return {};
  return text.replace(from, solverKeys);
}

/// Writes text as dir/name; the path, or empty when the text is empty or cannot be written.
QString save(const QTemporaryDir& dir, const QString& name, const QString& text) {
  if (text.isEmpty()) return {};
  QFile out(dir.filePath(name));
  if (!out.open(QIODevice::WriteOnly) || out.write(text.toUtf8()) < 0) return {};
  return dir.filePath(name);
}

/// Volume enclosed by a closed, outward-wound triangle surface (divergence theorem).
double enclosedVolume(const MeshData& m) {
  double v = 0;
  for (size_t t = 0; t + 2 < m.indices.size(); t += 3) {
    const Vec3 a = m.vertices[m.indices[t]].cast<double>(), b = m.vertices[m.indices[t + 1]].cast<double>(),
               c = m.vertices[m.indices[t + 2]].cast<double>();
    v += a.dot(b.cross(c)) / 6;
  }
  return v;
}

const DrawItem* surfaceItem(MainWindow& w) {
  for (const DrawItem& it : w.viewport()->scene().items)
    if (it.role == ItemRole::DeformableSurface) return &it;
  return nullptr;
}

/// Pixels of two images of the same size whose colours differ by more than `tol` (0–255 per channel).
int changedPixels(const QImage& a, const QImage& b, int tol = 40) {
  if (a.size() != b.size()) return -1;
  int n = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) {
      const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
      if (std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) + std::abs(qBlue(p) - qBlue(q)) > tol) ++n;
    }
  return n;
}

/// Plays until t > 0.1 s and pauses: how far the strap's vertices moved from where they were when
/// play started (the largest distance; NaN when a vertex is not finite).
double playAndMeasureStrap(MainWindow& w) {
  const auto start = w.currentFrame().deformables.at(0)->vertices;
  QAction* play = findAction(&w, "Play");
  play->trigger();
  const bool ran = QTest::qWaitFor([&] { return w.currentFrame().t > 0.1; }, 30000);
  play->trigger();
  waitIdle(w);
  if (!ran) return 0;
  const auto& now = w.currentFrame().deformables.at(0)->vertices;
  double moved = 0;
  for (std::size_t k = 0; k < now.size() && k < start.size(); ++k) {
    if (!now[k].allFinite()) return std::nan("");
    moved = std::max(moved, double((now[k] - start[k]).norm()));
  }
  return moved;
}

void openStrap(MainWindow& w) {
  w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
  w.resize(1100, 760);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QVERIFY(openAndWait(w, mechanism("deform-flexible-link.json")));
  QTRY_VERIFY_WITH_TIMEOUT(w.viewport()->paintCount() > 0, 10000);
  QVERIFY(surfaceItem(w));
}
}  // namespace

class TestDeformableGui : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    useFreshSettings("test_deformable_gui");
  }

  void historyBoundsTheSurfacesItKeeps() {
    // Each recorded frame keeps its parts' surfaces for scrubbing; the history holds at most
    // kMaxBytes of them, dropping the oldest frames (never the newest), and the count alone
    // bounds frames without parts.
    auto big = std::make_shared<MeshData>();
    big->vertices.assign(100000, Eigen::Vector3f::Zero());
    big->normals = big->vertices;
    big->indices.assign(3 * 200000, 0u);  // 2.4 + 2.4 + 2.4 MB a frame
    const size_t perFrame = 12 * 200000 + 4 * 600000;
    History h;
    for (int k = 0; k < 300; ++k) {
      Frame f;
      f.t = k;
      f.deformables = {big};
      h.append(f);
    }
    QVERIFY(h.surfaceBytes() <= History::kMaxBytes);
    QCOMPARE(size_t(h.size()), History::kMaxBytes / perFrame);
    QCOMPARE(h.dropped(), long(300 - h.size()));
    QCOMPARE(h.back().t, 299.0);
    QCOMPARE(h.at(0).t, double(300 - h.size()));
    // Going back from a scrubbed point releases the frames after it.
    h.truncateAfter(9);
    QCOMPARE(h.size(), 10);
    QCOMPARE(h.surfaceBytes(), 10 * perFrame);
    h.clear();
    QCOMPARE(h.surfaceBytes(), size_t(0));
    // One frame larger than the budget is still kept.
    auto huge = std::make_shared<MeshData>(*big);
    huge->indices.assign(History::kMaxBytes / 4 + 1, 0u);
    Frame f;
    f.deformables = {huge};
    h.append(f);
    QCOMPARE(h.size(), 1);
    h.clear();
    for (int k = 0; k < int(History::kMaxFrames) + 500; ++k) h.append(Frame{});
    QCOMPARE(size_t(h.size()), History::kMaxFrames);
    QCOMPARE(h.dropped(), 500L);
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
    // The status bar names the strap's solver (the file's "newton") and its iterations.
    QCOMPARE(QString::fromStdString(f.deformSolvers), QStringLiteral("newton"));
    bool named = false;
    for (const QLabel* l : w.findChildren<QLabel*>()) named = named || l->text().contains(QStringLiteral("deformables: newton, "));
    QVERIFY(named);
    // The model tree lists the part with its size and solver (material in the tooltip).
    const auto* tree = w.findChild<QTreeWidget*>();
    QVERIFY(tree);
    const auto rows = tree->findItems(QStringLiteral("strap"), Qt::MatchExactly | Qt::MatchRecursive);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0]->text(1), QStringLiteral("1920 tets, newton"));
    QVERIFY(rows[0]->toolTip(1).contains(QStringLiteral("stable-neo-hookean")));
    QCOMPARE(rows[0]->parent()->text(0), QStringLiteral("Deformables (1)"));
    QVERIFY(QDir().mkpath(MECHSIM_SCREENSHOT_DIR));
    QVERIFY(w.grab().save(QStringLiteral(MECHSIM_SCREENSHOT_DIR "/deformable_link.png"), "PNG"));
    // Reset: t = 0 with the strap at rest again, as opened, and no step taken since.
    const quint64 shown = w.currentFrame().serial;
    findAction(&w, "Reset")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t == 0 && w.currentFrame().serial > shown, 10000);
    waitIdle(w);
    QCOMPARE(w.currentFrame().deformIterations, 0);
    QCOMPARE(w.currentFrame().deformables.at(0)->vertices[0].cast<double>(), before);
  }

  void everyDeformableExampleRuns_data() {
    QTest::addColumn<QString>("file");
    const QDir dir(QStringLiteral(MECHSIM_SOURCE_DIR "/mechanisms"));
    const QStringList files = dir.entryList({"deform-*.json"}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 4);  // box grid, cylinder grid, Gmsh file, closed surface
    for (const QString& f : files) QTest::newRow(qPrintable(f)) << dir.filePath(f);
  }
  void everyDeformableExampleRuns() {
    // Each example with deformable parts, as a user opens it: stress colours on, stepped a quarter
    // of a second. Every step converges (the status bar would say "not converged"), the part stays
    // a closed surface with finite vertices, it moves, and — all four materials are nearly
    // incompressible (ν = 0.4–0.45) — the volume it encloses stays within 5 % of its volume at
    // rest while it is squeezed, bent or swung (the bonded rubber mount, squeezed 10 % by then,
    // loses the most: 2.6 %; a free bar of ν = 0.45 would lose 1 %, a fully confined one 10 %).
    QFETCH(QString, file);
    MainWindow w;
    w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
    w.resize(1100, 760);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, file));
    QTRY_VERIFY_WITH_TIMEOUT(!w.currentFrame().deformables.empty(), 30000);
    const MeshData rest = *w.currentFrame().deformables[0];
    const double restVolume = enclosedVolume(rest);
    QVERIFY2(restVolume > 0, qPrintable(QString::number(restVolume)));
    // The choice is remembered across windows: set here, and cleared again however the row ends.
    QAction* stress = findAction(&w, "Colour Deformables by Stress");
    stress->setChecked(true);
    const auto off = qScopeGuard([stress] { stress->setChecked(false); });
    QAction* step = findAction(&w, "Step");
    double worstVolume = 0;  // largest |V/V_rest − 1| seen
    for (int k = 0; k < 15; ++k) {  // 15 × 1/60 s
      step->trigger();
      waitIdle(w);
      QCOMPARE(w.currentFrame().deformUnconverged, 0);
      const MeshData& now = *w.currentFrame().deformables[0];
      for (const auto& v : now.vertices) QVERIFY(v.allFinite());
      const double ratio = enclosedVolume(now) / restVolume;
      worstVolume = std::max(worstVolume, std::abs(ratio - 1));
      QVERIFY2(std::abs(ratio - 1) < 0.05, qPrintable(QString("t = %1: volume ratio %2").arg(w.currentFrame().t).arg(ratio)));
    }
    const Frame& f = w.currentFrame();
    QVERIFY(f.t > 0.24);
    QVERIFY(closedSurface(*f.deformables[0]));
    double moved = 0;
    for (size_t k = 0; k < rest.vertices.size(); ++k)
      moved = std::max(moved, double((f.deformables[0]->vertices[k] - rest.vertices[k]).norm()));
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().deformableStress.size() == 1, 5000);
    const std::vector<float>& s = *w.currentFrame().deformableStress[0];
    const float peak = *std::max_element(s.begin(), s.end());
    qInfo("%s: t = %.3f s, largest vertex displacement %.2f mm, peak von Mises %.3g Pa, %d iterations in the last "
          "step, volume within %.2f %% of rest",
          qPrintable(QFileInfo(file).fileName()), f.t, 1e3 * moved, double(peak), f.deformIterations, 100 * worstVolume);
    QVERIFY2(moved > 2e-3, qPrintable(QString::number(moved)));
    QVERIFY(std::isfinite(peak) && peak > 0);
    QVERIFY(QDir().mkpath(MECHSIM_SCREENSHOT_DIR));
    QVERIFY(w.grab().save(QDir(MECHSIM_SCREENSHOT_DIR).filePath("example-" + QFileInfo(file).completeBaseName() + ".png"), "PNG"));
  }

  void iterationCapSaidInTheStatusBar() {
    // A part whose file caps its steps at 2 VBD iterations ("maxIterations"): the steps stop at
    // the cap, the status bar's solver label says "not converged", the part still moves (the
    // reached state is kept). The example's Newton strap converges and says nothing of the kind.
    // Screenshot deformable_budget.png.
    QTemporaryDir dir;
    const QString budgetFile =
        save(dir, "strap-budget.json", strapWithSolver(QStringLiteral("\"solver\": \"vbd\", \"maxIterations\": 2")));
    QVERIFY(!budgetFile.isEmpty());
    MainWindow w;
    w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
    w.resize(1100, 760);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto solverText = [&] {
      for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
        if (l->text().contains(QStringLiteral("deformables:"))) return l->text();
      return QString();
    };
    QAction* play = findAction(&w, "Play");
    QVERIFY(openAndWait(w, mechanism("deform-flexible-link.json")));
    play->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > 0.05, 30000);
    play->trigger();
    waitIdle(w);
    QVERIFY2(solverText().contains(QStringLiteral("deformables: newton")), qPrintable(solverText()));
    QVERIFY2(!solverText().contains(QStringLiteral("not converged")), qPrintable(solverText()));

    QVERIFY(openAndWait(w, budgetFile));
    const Vec3 before = w.currentFrame().deformables.at(0)->vertices[0].cast<double>();
    play->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > 0.05, 30000);
    play->trigger();
    waitIdle(w);
    QCOMPARE(w.currentFrame().deformIterations, 2);
    QCOMPARE(w.currentFrame().deformUnconverged, 1);
    QVERIFY2(solverText().endsWith(QStringLiteral("deformables: vbd, 2 it, not converged")), qPrintable(solverText()));
    for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
      if (l->text().contains(QStringLiteral("deformables:")))
        QVERIFY2(l->toolTip().contains(QStringLiteral("1 deformable part(s) stopped at the iteration cap")),
                 qPrintable(l->toolTip()));
    double moved = 0;
    for (const auto& v : w.currentFrame().deformables.at(0)->vertices) {
      QVERIFY(v.allFinite());
      moved = std::max(moved, (v.cast<double>() - before).norm());
    }
    QVERIFY2(moved > 1e-3, qPrintable(QString::number(moved)));
    QVERIFY(w.grab().save(QStringLiteral(MECHSIM_SCREENSHOT_DIR "/deformable_budget.png"), "PNG"));
  }

  void jgs2PartInTheWindowAndAFailingPartReported_data() {
    QTest::addColumn<QString>("solver");
    QTest::newRow("jacobi") << QStringLiteral("jgs2-jacobi");
    QTest::newRow("gauss-seidel") << QStringLiteral("jgs2-gs");  // colour subspaces (paper §6)
  }
  void jgs2PartInTheWindowAndAFailingPartReported() {
    // A copy of the strap with "solver": "jgs2-jacobi" or "jgs2-gs": while the worker precomputes,
    // the status bar says so; then the status bar and the model tree name the solver and the strap
    // moves when played. A part whose precomputation fails (every vertex pinned: JGS2 has nothing
    // to solve) is reported in the status bar, and the mechanism still runs.
    QFETCH(QString, solver);
    QTemporaryDir dir;
    QString text = strapWithSolver(QStringLiteral("\"solver\": \"%1\"").arg(solver));
    QVERIFY(!text.isEmpty());
    const QString jgs2File = save(dir, "strap-jgs2.json", text);
    QVERIFY(!jgs2File.isEmpty());
    MainWindow w;
    w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
    w.resize(1100, 760);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy progress(w.simulation()->controller(), &SimulationController::deformPreparing);
    QVERIFY(w.openFile(jgs2File));
    QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("JGS2 precomputation on 1920 tets")),
             qPrintable(w.statusBar()->currentMessage()));
    QTRY_VERIFY_WITH_TIMEOUT(w.modelInfo().model == w.model() && w.currentFrame().serial > 0, 60000);
    // The precomputation said where it was, stage by stage, ending with every subspace made; the
    // status bar showed it (a line seen before the model's info cleared it).
    QVERIFY2(progress.size() >= 3, qPrintable(QString::number(progress.size())));
    const QString head = QStringLiteral("JGS2 \"strap\": ");
    QCOMPARE(progress.first().at(1).toString(), head + QStringLiteral("factorising"));
    QCOMPARE(progress.at(1).at(1).toString(), head + QStringLiteral("rest modes"));
    QCOMPARE(progress.last().at(1).toString(), head + QStringLiteral("subspaces 100 %"));
    for (const auto& line : progress) QCOMPARE(line.at(0).value<quintptr>(), reinterpret_cast<quintptr>(w.model().get()));
    waitIdle(w);
    QVERIFY(!w.statusBar()->currentMessage().contains(QStringLiteral("Preparing")));
    const QString solvers = QString::fromStdString(w.currentFrame().deformSolvers);
    QVERIFY2(solvers == solver || solvers == solver + QStringLiteral(" (cuda)"), qPrintable(solvers));
    const auto rows = w.findChild<QTreeWidget*>()->findItems(QStringLiteral("strap"), Qt::MatchExactly | Qt::MatchRecursive);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0]->text(1), QStringLiteral("1920 tets, ") + solver);
    const double moved = playAndMeasureStrap(w);
    QVERIFY2(moved > 1e-3, qPrintable(QString::number(moved)));
    QVERIFY(w.currentFrame().deformIterations > 0);
    QAction* play = findAction(&w, "Play");

    text.replace(QStringLiteral("\"attachments\": ["),
                 QStringLiteral("\"pinned\": {\"min\": [-1, -1, -1], \"max\": [1, 1, 1]},\n     \"attachments\": ["));
    const QString pinnedFile = save(dir, "strap-pinned.json", text);
    QVERIFY(openAndWait(w, pinnedFile));
    QTRY_VERIFY_WITH_TIMEOUT(w.statusBar()->currentMessage().contains(QStringLiteral("deformable part \"strap\": JGS2: no free vertex")),
                             10000);
    QVERIFY(w.currentFrame().deformables.empty());
    play->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > 0.05, 30000);  // the crank still runs
    play->trigger();
    waitIdle(w);
  }

  void jgs2PrecomputationReadFromTheCache() {
    // With a cache folder (MECHSIM_CACHE_DIR; the tests run with it off), the first open of a JGS2
    // part precomputes and saves; opening the file again reads the precomputation back — the
    // progress line says so, no stage runs — and the part steps as before (that the data read are
    // the data computed, bit for bit, test_io_jgs2_cache and test_app_cli deformCache check).
    QTemporaryDir dir;
    const QString file = save(dir, "strap-jgs2.json", strapWithSolver(QStringLiteral("\"solver\": \"jgs2-jacobi\"")));
    QVERIFY(!file.isEmpty());
    const QByteArray before = qgetenv("MECHSIM_CACHE_DIR");
    qputenv("MECHSIM_CACHE_DIR", dir.filePath("cache").toUtf8());
    MainWindow w;
    qputenv("MECHSIM_CACHE_DIR", before);
    w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
    w.resize(1100, 760);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy progress(w.simulation()->controller(), &SimulationController::deformPreparing);
    const QString head = QStringLiteral("JGS2 \"strap\": ");
    auto openAndPlay = [&](QStringList& lines) {
      progress.clear();
      if (!openAndWait(w, file)) return -1.0;
      for (const auto& line : progress) lines << line.at(1).toString();
      return playAndMeasureStrap(w);
    };
    QStringList first, second;
    const double movedFirst = openAndPlay(first);
    QVERIFY2(first.contains(head + QStringLiteral("factorising")), qPrintable(first.join(" | ")));
    QCOMPARE(QDir(dir.filePath("cache/jgs2")).entryList({"jgs2-*.bin"}, QDir::Files).size(), 1);  // $MECHSIM_CACHE_DIR/jgs2
    const double movedSecond = openAndPlay(second);
    QCOMPARE(second, QStringList{head + QStringLiteral("read from the cache")});
    QVERIFY2(movedFirst > 1e-3 && movedSecond > 1e-3, qPrintable(QString("%1 %2").arg(movedFirst).arg(movedSecond)));
    QCOMPARE(QString::fromStdString(w.currentFrame().deformSolvers).left(11), QStringLiteral("jgs2-jacobi"));
  }

  void deformableSolverFromTheMenu() {
    MainWindow w;
    openStrap(w);
    auto* menu = w.findChild<QMenu*>(QStringLiteral("deformSolverMenu"));
    QVERIFY(menu);
    QVERIFY(menu->isEnabled());
    QAction* fromFile = w.findChild<QAction*>(QStringLiteral("deformSolver-file"));
    QAction* jgs2 = w.findChild<QAction*>(QStringLiteral("deformSolver-jgs2-jacobi"));
    QVERIFY(fromFile && jgs2);
    QVERIFY(fromFile->isChecked());
    QCOMPARE(QString::fromStdString(w.currentFrame().deformSolvers), QStringLiteral("newton"));
    QAction* play = findAction(&w, "Play");
    play->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > 0.05, 30000);
    play->trigger();
    waitIdle(w);

    jgs2->trigger();  // as the menu item does
    QVERIFY(jgs2->isChecked());
    QCOMPARE(w.deformableSolver(), QStringLiteral("jgs2-jacobi"));
    QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("JGS2 precomputation on 1920 tets")),
             qPrintable(w.statusBar()->currentMessage()));
    QTRY_VERIFY_WITH_TIMEOUT(w.modelInfo().model == w.model() && w.currentFrame().serial > 0 &&
                                 !w.currentFrame().deformSolvers.empty(),
                             60000);
    waitIdle(w);
    const QString solvers = QString::fromStdString(w.currentFrame().deformSolvers);
    QVERIFY2(solvers == QStringLiteral("jgs2-jacobi") || solvers == QStringLiteral("jgs2-jacobi (cuda)"),
             qPrintable(solvers));
    QCOMPARE(w.currentFrame().t, 0.0);  // the run restarted
    QCOMPARE(w.history().size(), std::size_t(1));
    const auto rows = w.modelTree()->findItems(QStringLiteral("strap"), Qt::MatchExactly | Qt::MatchRecursive);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0]->text(1), QStringLiteral("1920 tets, jgs2-jacobi"));
    const double moved = playAndMeasureStrap(w);
    QVERIFY2(moved > 1e-3, qPrintable(QString::number(moved)));
    QVERIFY(w.grab().save(QStringLiteral(MECHSIM_SCREENSHOT_DIR "/deformable_solver.png"), "PNG"));
    menu->popup(w.mapToGlobal(QPoint(300, 200)));  // the submenu as the user sees it, JGS2 checked
    QTRY_VERIFY(menu->isVisible());
    QVERIFY(menu->grab().save(QStringLiteral(MECHSIM_SCREENSHOT_DIR "/deformable_solver_menu.png"), "PNG"));
    menu->hide();

    // Save As writes the solver chosen; the file on disk is unchanged until then.
    QTemporaryDir dir;
    const QString saved = dir.filePath("strap-jgs2.json");
    QVERIFY2(w.saveAs(saved), qPrintable(w.lastError()));
    QCOMPARE(QString::fromStdString(io::readMechanismFile(saved.toStdString()).deformables.at(0).solver),
             QStringLiteral("jgs2-jacobi"));
    QCOMPARE(QString::fromStdString(
                 io::readMechanismFile(mechanism("deform-flexible-link.json").toStdString()).deformables.at(0).solver),
             QStringLiteral("newton"));

    // Back to the file's own solver.
    fromFile->trigger();
    QVERIFY(w.deformableSolver().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().deformSolvers == "newton", 30000);
    waitIdle(w);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(w.modelTree()->findItems(QStringLiteral("strap"), Qt::MatchExactly | Qt::MatchRecursive).at(0)->text(1),
             QStringLiteral("1920 tets, newton"));

    // A mechanism without deformable parts: the menu is off, and the call refuses.
    w.setDeformableSolver(QStringLiteral("jgs2-jacobi"));  // (back on JGS2 first: opening resets it)
    QVERIFY(openAndWait(w, mechanism("fourbar.json")));
    QVERIFY(!menu->isEnabled());
    QVERIFY(fromFile->isChecked());
    QVERIFY(w.deformableSolver().isEmpty());
    QVERIFY(!w.setDeformableSolver(QStringLiteral("vbd")));
  }

  void stressColouringFromTheMenu() {
    MainWindow w;
    openStrap(w);
    // Two steps of time: the crank turns the strap's end, a stressed state.
    QAction* step = findAction(&w, "Step");
    QVERIFY(step);
    for (int k = 0; k < 2; ++k) {
      step->trigger();
      waitIdle(w);
    }
    QVERIFY(w.currentFrame().t > 0.03);
    QAction* stress = findAction(&w, "Colour Deformables by Stress");
    QVERIFY(stress);
    QVERIFY(stress->isCheckable());
    QVERIFY(!stress->isChecked());  // off by default
    QVERIFY(w.currentFrame().deformableStress.empty());
    QVERIFY(!surfaceItem(w)->vertexColors);
    QVERIFY(!w.stressLegend()->isVisible());
    w.viewport()->update();
    QTRY_VERIFY_WITH_TIMEOUT(!w.viewport()->grabFramebuffer().isNull(), 5000);
    const QImage plain = w.viewport()->grabFramebuffer();

    stress->trigger();  // the controller publishes the same state again, with its stress
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().deformableStress.size() == 1, 10000);
    waitIdle(w);
    const Frame& f = w.currentFrame();
    const std::vector<float>& s = *f.deformableStress[0];
    QCOMPARE(s.size(), f.deformables[0]->vertices.size());
    const auto [lo, hi] = std::minmax_element(s.begin(), s.end());
    qInfo("strap von Mises stress %.4g … %.4g Pa", *lo, *hi);
    QVERIFY(*lo >= 0 && std::isfinite(*hi));
    QVERIFY2(*hi > 1e3 && *hi > 3 * *lo, qPrintable(QString("%1 %2").arg(*lo).arg(*hi)));  // it varies
    // The window's range and legend are this frame's.
    QCOMPARE(w.stressMin(), double(*lo));
    QCOMPARE(w.stressMax(), double(*hi));
    QVERIFY(w.stressLegend()->isVisible());
    const QString legend = w.stressLegend()->text();
    QVERIFY2(legend.contains(QString::fromStdString(formatPascal(*hi))) && legend.contains("Pa"), qPrintable(legend));
    // Per-vertex colours on the drawn surface: not all equal, the ends of the ramp where the
    // stress is lowest and highest.
    const DrawItem* item = surfaceItem(w);
    QVERIFY(item && item->vertexColors);
    const std::vector<Eigen::Vector4f>& c = *item->vertexColors;
    QCOMPARE(c.size(), s.size());
    float spread = 0;
    for (const Eigen::Vector4f& ci : c) spread = std::max(spread, (ci - c[0]).head<3>().norm());
    QVERIFY2(spread > 0.5f, qPrintable(QString::number(spread)));
    QVERIFY((c[size_t(lo - s.begin())] - stressRampColour(0)).norm() < 1e-6f);
    QVERIFY((c[size_t(hi - s.begin())] - stressRampColour(1)).norm() < 1e-6f);
    // The colours reach the rendered image: the strap's pixels change.
    w.viewport()->update();
    QTest::qWait(100);
    const QImage coloured = w.viewport()->grabFramebuffer();
    const int changed = changedPixels(plain, coloured);
    qInfo("stress colouring changed %d of %d pixels", changed, int(plain.width() * plain.height()));
    QVERIFY2(changed > 300, qPrintable(QString::number(changed)));
    QVERIFY(QDir().mkpath(MECHSIM_SCREENSHOT_DIR));
    QVERIFY(w.grab().save(QStringLiteral(MECHSIM_SCREENSHOT_DIR "/deformable_stress.png"), "PNG"));

    // Stepping on: the legend's range holds every stress seen since colouring was switched on (it
    // only grows, so a colour keeps its stress while the strap swings).
    double seenLo = *lo, seenHi = *hi;
    for (int k = 0; k < 6; ++k) {
      step->trigger();
      waitIdle(w);
      QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().deformableStress.size() == 1, 5000);
      const std::vector<float>& sk = *w.currentFrame().deformableStress[0];
      const auto [l, h] = std::minmax_element(sk.begin(), sk.end());
      seenLo = std::min(seenLo, double(*l));
      seenHi = std::max(seenHi, double(*h));
      QCOMPARE(w.stressMin(), seenLo);
      QCOMPARE(w.stressMax(), seenHi);
    }
    qInfo("held stress range over 7 frames %.4g … %.4g Pa", seenLo, seenHi);

    stress->trigger();  // off: plain colour again
    QTRY_VERIFY_WITH_TIMEOUT(!surfaceItem(w)->vertexColors, 5000);
    QVERIFY(!w.stressLegend()->isVisible());
  }

  void longWorkAbandoned() {
    // Work that would take minutes: each step of the slow file is 100000 VBD sweeps on 15360 tets
    // (about 5 ms each here) towards a tolerance no sweep reaches; the JGS2 file's precomputation
    // on 30000 tets takes about half a minute on two cores. The worker hears a model change or the
    // window closing after one sweep (one block of the precomputation's solves).
    QTemporaryDir dir;
    QString slow = strapWithSolver(QStringLiteral("\"solver\": \"vbd\", \"maxIterations\": 100000, \"tolerance\": 1e-12"));
    slow.replace(QStringLiteral("\"cells\": [40, 4, 2]"), QStringLiteral("\"cells\": [80, 8, 4]"));
    QString jgs2 = strapWithSolver(QStringLiteral("\"solver\": \"jgs2-jacobi\""));
    jgs2.replace(QStringLiteral("\"cells\": [40, 4, 2]"), QStringLiteral("\"cells\": [100, 10, 5]"));
    const QString slowFile = save(dir, "slow.json", slow), jgs2File = save(dir, "big-jgs2.json", jgs2);
    QVERIFY(slow.contains(QStringLiteral("[80, 8, 4]")) && !slowFile.isEmpty());
    QVERIFY(jgs2.contains(QStringLiteral("[100, 10, 5]")) && !jgs2File.isEmpty());
    constexpr qint64 kPromptMs = 8000;
    auto ready = [](MainWindow& w) { return w.modelInfo().model == w.model() && w.currentFrame().serial > 0; };

    auto w = std::make_unique<MainWindow>();
    openStrap(*w);
    // The slow part's first frame shows it at rest at once (no step is taken for it).
    QElapsedTimer clock;
    clock.start();
    QVERIFY(w->openFile(slowFile));
    QTRY_VERIFY_WITH_TIMEOUT(ready(*w) && !w->currentFrame().deformables.empty(), 20000);
    QVERIFY2(clock.elapsed() < kPromptMs, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(w->currentFrame().deformIterations, 0);
    // Play: the worker is inside a step; no second frame comes for a long while.
    findAction(w.get(), "Play")->trigger();
    QTest::qWait(1500);
    QVERIFY(w->currentFrame().t < 0.05);
    // Another file: its first frame comes promptly.
    clock.restart();
    QVERIFY(w->openFile(mechanism("fourbar.json")));
    QTRY_VERIFY_WITH_TIMEOUT(ready(*w), 60000);
    QVERIFY2(clock.elapsed() < kPromptMs, qPrintable(QString::number(clock.elapsed())));
    // The JGS2 part's precomputation is abandoned for the next file as well.
    QVERIFY(w->openFile(jgs2File));
    QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("JGS2 precomputation on 30000 tets")));
    // Within a few seconds the status bar says which stage the precomputation is in.
    QTRY_VERIFY_WITH_TIMEOUT(w->statusBar()->currentMessage().startsWith(QStringLiteral(
                                 "Preparing the deformable parts: JGS2 \"strap\": ")),
                             10000);
    // Meanwhile the part is drawn at rest: the window built its surface when it read the file.
    QVERIFY(w->currentFrame().serial == 0 && surfaceItem(*w));
    QCOMPARE(w->currentFrame().deformables.size(), std::size_t(1));
    QVERIFY(w->grab().save(QStringLiteral(MECHSIM_SCREENSHOT_DIR "/deformable_preparing.png"), "PNG"));
    clock.restart();
    QVERIFY(w->openFile(mechanism("fourbar.json")));
    QTRY_VERIFY_WITH_TIMEOUT(ready(*w), 60000);
    QVERIFY2(clock.elapsed() < kPromptMs, qPrintable(QString::number(clock.elapsed())));
    // Closing the window in the middle of a step.
    QVERIFY(openAndWait(*w, slowFile));
    findAction(w.get(), "Play")->trigger();
    QTest::qWait(1500);
    QVERIFY(w->currentFrame().t < 0.05);
    clock.restart();
    w.reset();
    QVERIFY2(clock.elapsed() < kPromptMs, qPrintable(QString::number(clock.elapsed())));
  }

  void deformableOnlyFileFitted() {
    // A file with nothing but a deformable cube away from the origin (the ground has no shape):
    // the view is fitted to the cube once its surface arrives, and the cube fills a good part of it.
    QTemporaryDir dir;
    const QString file = save(dir, "cube.json",
                              QStringLiteral("{\"mechsim\": 1, \"bodies\": [{\"name\": \"ground\", \"fixed\": true}],"
                                             " \"deformables\": [{\"name\": \"cube\","
                                             " \"mesh\": {\"type\": \"box\", \"size\": [2, 2, 2], \"cells\": [4, 4, 4]},"
                                             " \"position\": [5, 5, 0], \"material\": {\"model\": \"stable-neo-hookean\","
                                             " \"youngs\": 1e6, \"poisson\": 0.3, \"density\": 1000},"
                                             " \"pinned\": {\"min\": [5, 5, 0], \"max\": [7, 7, 0]}}]}"));
    QVERIFY(!file.isEmpty());
    MainWindow w;
    openStrap(w);
    // The surface the window builds when it reads the file is the one the worker then sends at rest.
    QVERIFY(w.openFile(file));
    QCOMPARE(w.currentFrame().serial, quint64(0));
    QCOMPARE(w.currentFrame().deformables.size(), std::size_t(1));
    const MeshData read = *w.currentFrame().deformables[0];
    QTRY_VERIFY_WITH_TIMEOUT(w.modelInfo().model == w.model() && w.currentFrame().serial > 0, 20000);
    waitIdle(w);
    QCOMPARE(w.currentFrame().deformables.size(), std::size_t(1));
    const MeshData& sent = *w.currentFrame().deformables[0];
    QVERIFY(read.vertices == sent.vertices && read.indices == sent.indices && read.normals == sent.normals);
    QVERIFY(surfaceItem(w));
    QVERIFY(w.viewport()->scene().bounds.contains(Eigen::Vector3d(7, 7, 2)));
    const QImage shot = w.viewport()->grabFramebuffer();
    int green = 0;  // the part's default colour (scene.cpp): green well above red and blue
    for (int y = 0; y < shot.height(); y += 4)
      for (int x = 0; x < shot.width(); x += 4) {
        const QRgb p = shot.pixel(x, y);
        green += qGreen(p) > qRed(p) + 40 && qGreen(p) > qBlue(p) + 20;
      }
    const double share = double(green) / ((shot.height() / 4) * (shot.width() / 4));
    QVERIFY2(share > 0.1, qPrintable(QString::number(share)));
    QVERIFY(shot.save(QStringLiteral(MECHSIM_SCREENSHOT_DIR "/deformable_only.png"), "PNG"));
  }

  void recordedSurfacesExportedAsVtk() {
    MainWindow w;
    openStrap(w);
    QVERIFY(w.exportDeformablesAction()->isEnabled());
    // The File menu as the user sees it (export_deformables_menu.png).
    QMenu* fileMenu = w.menuBar()->actions().at(0)->menu();
    QVERIFY(fileMenu && fileMenu->actions().contains(w.exportDeformablesAction()));
    fileMenu->popup(w.mapToGlobal(QPoint(10, 30)));
    QTRY_VERIFY(fileMenu->isVisible());
    QVERIFY(QDir().mkpath(MECHSIM_SCREENSHOT_DIR));
    QVERIFY(fileMenu->grab().save(QStringLiteral(MECHSIM_SCREENSHOT_DIR "/export_deformables_menu.png"), "PNG"));
    fileMenu->hide();
    QAction* play = findAction(&w, "Play");
    play->trigger();
    QVERIFY(QTest::qWaitFor([&] { return w.currentFrame().t > 0.05; }, 30000));
    play->trigger();
    waitIdle(w);
    const History& h = w.history();
    QVERIFY(h.size() >= 3);
    QTemporaryDir dir;
    QVERIFY2(w.exportDeformables(dir.path()), qPrintable(w.lastError()));
    const mechsim::test::PvdFile series = mechsim::test::readPvd(dir.filePath("strap.pvd"));
    QVERIFY2(series.error.isEmpty(), qPrintable(series.error));
    QCOMPARE(series.files.size(), h.size());
    for (int i = 0; i < h.size(); ++i) {
      QVERIFY(std::abs(series.times[i] - h.at(i).t) < 1e-10);  // 12 significant digits
      const MeshData& m = *h.at(i).deformables.at(0);
      const mechsim::test::VtkXmlFile f = mechsim::test::readVtkXml(dir.filePath(series.files[i]));
      QVERIFY2(f.error.isEmpty(), qPrintable(f.error));
      QCOMPARE(f.points, int(m.vertices.size()));
      QCOMPARE(f.cells, int(m.indices.size() / 3));
      QCOMPARE(f.connectivity, std::vector<long>(m.indices.begin(), m.indices.end()));
      QCOMPARE(f.offsets.back(), long(m.indices.size()));
      const std::vector<double>& n = f.arrays.at("PointData/normals");
      for (size_t v = 0; v < m.vertices.size(); ++v)
        for (int c = 0; c < 3; ++c) {
          QVERIFY(std::abs(f.x[3 * v + size_t(c)] - m.vertices[v][c]) < 1e-7);
          QVERIFY(std::abs(n[3 * v + size_t(c)] - m.normals[v][c]) < 1e-7);
        }
    }
    QVERIFY(h.back().deformables[0]->vertices != h.at(0).deformables[0]->vertices);  // it moved
    // Cancelled after three files, or failing (a folder that is not there): nothing is left.
    std::vector<SurfaceFrame> frames;
    for (int i = 0; i < h.size(); ++i) frames.push_back({h.at(i).t, h.at(i).deformables, h.at(i).deformableStress});
    QTemporaryDir other;
    std::string error;
    QVERIFY(!writeSurfaceSeries(other.path().toStdString(), {"strap"}, frames, [](int done, int) { return done < 3; }, error));
    QVERIFY(error.empty());
    QVERIFY(QDir(other.path()).isEmpty());
    QVERIFY(!writeSurfaceSeries(other.filePath("missing").toStdString(), {"strap"}, frames, {}, error));
    QVERIFY(!error.empty());
    QVERIFY(!w.exportDeformables(other.filePath("missing")));
    QVERIFY(w.lastError().contains("error: not a folder"));
    // A mechanism without parts has nothing to export.
    QVERIFY(openAndWait(w, mechanism("fourbar.json")));
    QVERIFY(!w.exportDeformablesAction()->isEnabled());
  }

  void dragPullsAStrapVertexAndItSpringsBack() {
    MainWindow w;
    openStrap(w);
    Viewport* v = w.viewport();
    QVERIFY(!w.currentFrame().playing);
    const MeshData rest = *w.currentFrame().deformables[0];
    // A vertex on the strap's visible side near its middle: the one the pick names at its pixel.
    int vertex = -1;
    QPoint p0;
    std::vector<int> candidates(rest.vertices.size());
    for (size_t i = 0; i < candidates.size(); ++i) candidates[i] = int(i);
    std::sort(candidates.begin(), candidates.end(), [&](int a, int b) {
      return std::abs(rest.vertices[a].x() - 0.3f) < std::abs(rest.vertices[b].x() - 0.3f);
    });
    for (int c : candidates) {
      const auto px = projectToPixel(v->camera(), rest.vertices[c].cast<double>(), v->width(), v->height());
      if (!px) continue;
      const auto hit = pick(v->scene(), cameraRay(v->camera(), std::round(px->x()), std::round(px->y()), v->width(), v->height()));
      if (hit && hit->role == ItemRole::DeformableSurface && hit->vertex == c) {
        vertex = c;
        p0 = QPoint(int(std::round(px->x())), int(std::round(px->y())));
        break;
      }
    }
    QVERIFY2(vertex >= 0, "no strap vertex visible near the middle");
    const Vec3 anchor = rest.vertices[vertex].cast<double>();
    // Drag 70 px up on the screen, time paused.
    const quint64 before = w.simulation()->controller()->framesPublished();
    QTest::mousePress(v, Qt::LeftButton, Qt::NoModifier, p0);
    QVERIFY(w.dragHandler()->dragging());
    const QPoint p1 = p0 + QPoint(0, -70);
    for (int k = 1; k <= 7; ++k) {
      QTest::mouseMove(v, p0 + (p1 - p0) * k / 7);
      QTest::qWait(20);
    }
    const Vec3 target = *dragOnPlane(cameraRay(v->camera(), p1.x(), p1.y(), v->width(), v->height()), anchor,
                                     v->camera().backward());
    const double reach = (target - anchor).norm();
    QVERIFY2(reach > 0.02, qPrintable(QString::number(reach)));
    auto at = [&] { return Vec3(w.currentFrame().deformables[0]->vertices[size_t(vertex)].cast<double>()); };
    // Frames keep coming while the handle is held; the vertex goes most of the way.
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().deformDragging && (at() - target).norm() < 0.5 * reach, 20000);
    const quint64 reached = w.simulation()->controller()->framesPublished();
    QVERIFY(reached > before);
    // Frames still come while the handle is held, time paused.
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().serial >= reached + 3, 10000);
    const Frame& held = w.currentFrame();
    QVERIFY(held.deformDragging && !held.playing && !held.dragging);
    QVERIFY((held.deformTarget - target).norm() < 1e-9);
    const double pulled = (at() - anchor).norm();
    const double left = (at() - target).norm();
    qInfo("handle drag: %.1f mm towards a target %.1f mm away, %.1f mm left", 1e3 * (at() - anchor).dot((target - anchor) / reach),
          1e3 * reach, 1e3 * left);
    const double along = (at() - anchor).dot((target - anchor) / reach);
    QVERIFY2(along > 0.5 * reach && left < 0.5 * reach, qPrintable(QString("%1, %2 left of %3").arg(along).arg(left).arg(reach)));
    // A look at the pulled strap in its stress colours (deformable_drag.png).
    findAction(&w, "Colour Deformables by Stress")->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!w.currentFrame().deformableStress.empty() && surfaceItem(w)->vertexColors, 10000);
    QVERIFY(QDir().mkpath(MECHSIM_SCREENSHOT_DIR));
    QVERIFY(w.grab().save(QStringLiteral(MECHSIM_SCREENSHOT_DIR "/deformable_drag.png"), "PNG"));
    // The attached ends stay on the crank and the post (neither moves while paused).
    const MeshData& now = *held.deformables[0];
    int ends = 0;
    for (size_t i = 0; i < rest.vertices.size(); ++i) {
      const float x = rest.vertices[i].x();
      if (x > 0.11f + 1e-4f && x < 0.49f - 1e-4f) continue;
      ++ends;
      QVERIFY2((now.vertices[i] - rest.vertices[i]).norm() < 1e-6f, qPrintable(QString::number(i)));
    }
    QVERIFY(ends > 10);
    QTest::mouseRelease(v, Qt::LeftButton, Qt::NoModifier, p1);
    // Released: the strap springs back towards rest, and the frames stop once it has settled.
    QTRY_VERIFY_WITH_TIMEOUT(!w.currentFrame().deformDragging && (at() - anchor).norm() < 0.3 * pulled, 20000);
    QVERIFY(!w.currentFrame().playing);
    // Settled: the window has the last frame and no frame has come for a second. (The window
    // catching up alone is no sign of it: while the part springs back, frames come one at a time
    // as the window takes them, and on a loaded machine it is often caught up between two.)
    auto published = [&] { return w.simulation()->controller()->framesPublished(); };
    quint64 last = published();
    QElapsedTimer quiet;
    quiet.start();
    auto quietForASecond = [&] {
      if (published() != last) {
        last = published();
        quiet.restart();
      }
      return quiet.elapsed() >= 1000 && w.currentFrame().serial == last;
    };
    QTRY_VERIFY_WITH_TIMEOUT(quietForASecond(), 30000);
    // Settled means the worker stopped stepping the parts (a step on a loaded machine can take as
    // long as the quiet second above), and then no frame comes.
    QTRY_VERIFY_WITH_TIMEOUT(!w.simulation()->controller()->partsMoving(), 30000);
    waitIdle(w);
    const quint64 settled = published();
    QTest::qWait(300);
    QCOMPARE(published(), settled);

    // A press on the crank still drags the rigid body.
    const int crank = w.model()->findBody("crank");
    const Pose& pc = w.currentFrame().poses[size_t(crank)];
    const Vec3 crankPoint = pc.apply(Vec3(0.03, 0, 0.01));
    const auto cpx = projectToPixel(v->camera(), crankPoint, v->width(), v->height());
    QVERIFY(cpx);
    const QPoint q0(int(std::round(cpx->x())), int(std::round(cpx->y())));
    const auto hit = pick(v->scene(), cameraRay(v->camera(), q0.x(), q0.y(), v->width(), v->height()));
    QVERIFY(hit && hit->body == crank);
    QTest::mousePress(v, Qt::LeftButton, Qt::NoModifier, q0);
    QVERIFY(w.dragHandler()->dragging());
    for (int k = 1; k <= 4; ++k) QTest::mouseMove(v, q0 + QPoint(0, -8 * k));
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().dragging, 10000);
    QVERIFY(!w.currentFrame().deformDragging);
    QTest::mouseRelease(v, Qt::LeftButton, Qt::NoModifier, q0 + QPoint(0, -32));
    // The release's frame follows the last target's solve and the strap's step (about 0.1 s on a
    // loaded machine: longer than waitIdle's quiet spell).
    QTRY_VERIFY_WITH_TIMEOUT(!w.currentFrame().dragging, 10000);
  }
};

QTEST_MAIN(TestDeformableGui)
#include "test_deformable_gui.moc"
