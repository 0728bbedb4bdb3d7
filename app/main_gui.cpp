// app/main_gui.cpp — `mechsim [FILE] [--screenshot OUT.png] [--size WxH] [--benchmark-drag] [--benchmark-edit]
// [--record OUT.mp4 --t-end T [--fps F] [--dynamic]]`: the GUI (FORMAT.md §2, §4).
//
// --benchmark-drag shows the window, grabs the file's first handle (or, without handles, the
// surface vertex of its first deformable part nearest the part's centroid — a soft handle drag —
// or, without parts, the point under the origin of its last moving body) with a left press on the
// viewport, drags it round a circle in the plane facing the camera for a few seconds under the
// real event loop (mouse moves posted every 4 ms: the full path event → target → worker solve →
// frame → scene → paint), and prints, as its last two lines, `fps N` (new solver frames painted
// per second) and `solve_ms_per_frame M` (mean wall time of the DragSolver's update per frame;
// 0 for a deformable part's drag, whose time is the part's implicit-Euler step).
// --benchmark-edit times edits from the request to the re-solved frame on screen (app/benchmark_edit.h).
// --benchmark-dynamic plays the file in dynamic mode at speed 1× for a few seconds and prints its
// real-time factor (app/benchmark_dynamic.h).
//
// Without FILE it opens the default mechanism, mechanisms/fourbar.json of the source tree (or
// next to the executable when installed). With --screenshot it shows the window, waits for the
// first painted frame, saves the 3-D view's framebuffer (WxH of --size) as a PNG and exits: 0 on
// success, 1 when the file does not load (the loader's `FILE:LINE:COL: error: ...` on stderr)
// or the image cannot be written. --size is the size of the 3-D view (the window grows around it;
// interactively, only within the screen's available area).
//
// With --record OUT --t-end T it opens FILE as for a screenshot, then records the mechanism from
// the file's start (t = 0) to T, frame k at t = k/F (--fps F, default 30: round(T·F) frames,
// whatever the time each takes), rendered offscreen at --size and written to OUT — an H.264 MP4
// for OUT.mp4, PNG images for a folder (OUT/ or an existing one: frame_0000.png, …) or a
// pattern such as shots/%04d.png (ui/video_recorder.h). The drivers play the mechanism
// (kinematics) unless --dynamic runs its forward dynamics. OUT is written under a temporary name
// and renamed at the end: an error leaves nothing and exits 1 with `OUT: error: why` on stderr.
//
// OpenGL: the viewport needs a 3.3 core context, requested with QSurfaceFormat::setDefaultFormat
// before QApplication exists. Mesa (llvmpipe under Xvfb included) grants it directly through
// GLX_ARB_create_context_profile; on a driver that only offers a 2.1 / compatibility context,
// run with MESA_GL_VERSION_OVERRIDE=3.3 (and LIBGL_ALWAYS_SOFTWARE=1 to force llvmpipe).
#include <cmath>
#include <cstdio>

#include "app/benchmark_dynamic.h"
#include "app/benchmark_edit.h"

#include <QApplication>

#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QLayout>
#include <QSurfaceFormat>
#include <QTimer>

#include <QMouseEvent>
#include <QPointingDevice>

#include "data_root.h"
#include "ui/drag_handler.h"
#include "ui/main_window.h"
#include "scene/picking.h"
#include "ui/video_recorder.h"
#include "ui/viewport.h"

#ifndef MECHSIM_VERSION
#define MECHSIM_VERSION "0"
#endif

namespace {

/// The default mechanism, mechanisms/fourbar.json of the examples (data_root.h); empty when none.
QString defaultMechanism() {
  const std::string root = mechsim::app::dataRoot();
  if (root.empty()) return {};
  const QString file = QDir(QString::fromStdString(root)).filePath(QStringLiteral("mechanisms/fourbar.json"));
  return QFileInfo::exists(file) ? file : QString();
}

bool parseSize(const QString& text, QSize& size) {
  const QStringList parts = text.toLower().split('x');
  if (parts.size() != 2) return false;
  bool okW = false, okH = false;
  const int w = parts[0].toInt(&okW), h = parts[1].toInt(&okH);
  if (!okW || !okH || w < 64 || h < 64 || w > 16384 || h > 16384) return false;
  size = QSize(w, h);
  return true;
}

/// Sends (press, release) or posts (moves) a left-button mouse event to the viewport.
void mouse(QWidget* w, QEvent::Type type, const QPointF& pos, bool post) {
  const Qt::MouseButton button = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
  const Qt::MouseButtons buttons = type == QEvent::MouseButtonRelease ? Qt::NoButton : Qt::LeftButton;
  auto* e = new QMouseEvent(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
  if (post) {
    QCoreApplication::postEvent(w, e);
  } else {
    QCoreApplication::sendEvent(w, e);
    delete e;
  }
}

int benchmarkDrag(mechsim::ui::MainWindow& window, double seconds) {
  using namespace mechsim;
  mechsim::ui::Viewport* view = window.viewport();
  // Wait for the controller's analysis, its first frame and a paint.
  QElapsedTimer clock;
  clock.start();
  while (clock.elapsed() < 60000) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    if (window.modelInfo().model == window.model() && window.currentFrame().serial > 0 && view->paintCount() > 0) break;
  }
  if (window.modelInfo().model != window.model() || !window.model()) {
    std::fprintf(stderr, "mechsim: error: the mechanism did not come up within 60 s\n");
    return 1;
  }
  const Model& m = *window.model();
  const std::vector<Pose>& poses = window.currentFrame().poses;
  Vec3 point = Vec3::Zero();
  std::string what;
  const auto& parts = window.currentFrame().deformables;
  if (!m.handles.empty()) {
    point = poses[m.handles[0].body].apply(m.handles[0].local);
    what = "handle " + m.handles[0].name;
  } else if (!parts.empty() && parts[0] && !parts[0]->vertices.empty()) {
    // A deformable part: its surface vertex nearest its centroid (for a ring or a C, on the inside
    // of the bend, still on the part). The press there starts a soft handle on the part.
    const auto& v = parts[0]->vertices;
    Vec3 c = Vec3::Zero();
    for (const auto& p : v) c += p.cast<double>();
    c /= double(v.size());
    double best = INFINITY;
    for (const auto& p : v) {
      const double d2 = (p.cast<double>() - c).squaredNorm();
      if (d2 < best) best = d2, point = p.cast<double>();
    }
    what = "deformable part " + (window.spec() && !window.spec()->deformables.empty() ? window.spec()->deformables[0].name : std::string("0"));
  } else {
    for (int b = static_cast<int>(m.bodies.size()) - 1; b >= 0; --b)
      if (!m.bodies[b].fixed) {
        point = poses[b].position;
        what = "body " + m.bodies[b].name;
        break;
      }
  }
  const auto px = mechsim::ui::projectToPixel(view->camera(), point, view->width(), view->height());
  if (!px) {
    std::fprintf(stderr, "mechsim: error: the drag point is not in view\n");
    return 1;
  }
  const QPointF start((*px).x(), (*px).y());
  mouse(view, QEvent::MouseButtonPress, start, false);
  if (!window.dragHandler()->dragging()) {
    std::fprintf(stderr, "mechsim: error: nothing to grab at the %s\n", what.c_str());
    return 1;
  }

  // Count the solver frames that reach the screen, and their solve times.
  long frames = 0;
  double solveSeconds = 0;
  quint64 lastSerial = window.currentFrame().serial;
  QObject::connect(view, &mechsim::ui::Viewport::framePainted, view, [&] {
    const auto& f = window.currentFrame();
    if (f.serial == lastSerial || !(f.dragging || f.deformDragging)) return;
    lastSerial = f.serial;
    ++frames;
    solveSeconds += f.stats.solveSeconds;
  });
  // The cursor goes round a circle (one turn per 2 s) starting at the grabbed point.
  const double radius = 0.06 * view->height();
  QElapsedTimer run;
  QTimer mover;
  mover.setInterval(4);
  QObject::connect(&mover, &QTimer::timeout, view, [&] {
    const double a = 2 * M_PI * run.elapsed() / 2000.0;
    mouse(view, QEvent::MouseMove, start + QPointF(radius * (std::cos(a) - 1), radius * std::sin(a)), true);
  });
  long shown = 0;
  QObject::connect(&window, &mechsim::ui::MainWindow::frameShown, view, [&] { ++shown; });
  const int paints0 = view->paintCount();
  QEventLoop loop;
  QTimer::singleShot(static_cast<int>(1000 * seconds), &loop, &QEventLoop::quit);
  run.start();
  mover.start();
  loop.exec();
  mover.stop();
  const double elapsed = run.elapsed() / 1000.0;
  mouse(view, QEvent::MouseButtonRelease, start, false);
  std::printf("drag benchmark: %s, %s, %ld frames painted (%ld received, %d paints) in %.2f s, view %dx%d, "
              "final residual %.3g\n",
              qPrintable(QFileInfo(window.currentFile()).fileName()), what.c_str(), frames, shown,
              view->paintCount() - paints0, elapsed, view->width(), view->height(), window.currentFrame().maxResidual());
  std::printf("fps %.1f\n", frames / elapsed);
  std::printf("solve_ms_per_frame %.3f\n", frames ? 1e3 * solveSeconds / frames : 0.0);
  return frames > 0 ? 0 : 1;
}

}  // namespace

/// The command line; shared by the --help/--version path and the GUI path.
struct Options {
  QCommandLineOption screenshot{"screenshot", "Render the first frame to OUT.png and exit.", "OUT.png"};
  QCommandLineOption size{"size", "Size of the 3-D view (and of the screenshot or the recording), e.g. 1280x800.", "WxH", "1024x720"};
  QCommandLineOption benchmarkDrag{"benchmark-drag",
                                   "Drag the first handle (else a deformable part, else the last body) for a few seconds; print fps and solve time."};
  QCommandLineOption benchmarkEdit{"benchmark-edit",
                                   "Edit the first body's mass, the first joint's point and the first parameter 20 times each; print the time to the re-solved frame on screen."};
  QCommandLineOption benchmarkDynamic{"benchmark-dynamic",
                                      "Play the mechanism in dynamic mode at speed 1x for 5 s; print the real-time factor and fps."};
  QCommandLineOption record{"record",
                            "Record the mechanism from t = 0 to --t-end and exit: OUT.mp4 is an H.264 video; a folder "
                            "(OUT/) or a pattern such as frames/%04d.png gets PNG images. Frames of --size, one per "
                            "1/fps of simulated time.",
                            "OUT"};
  QCommandLineOption tEnd{"t-end", "With --record: the simulated time to record, in seconds.", "T"};
  QCommandLineOption fps{"fps", "With --record: frames per simulated second, 1 to 240 (default 30).", "F", "30"};
  QCommandLineOption dynamic{"dynamic", "With --record: run the forward dynamics (dynamic mode) instead of the drivers."};
  void addTo(QCommandLineParser& parser) {
    parser.setApplicationDescription("mechsim — mechanism simulator (GUI).");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("file", "Mechanism file to open (default: mechanisms/fourbar.json).", "[FILE]");
    parser.addOption(screenshot);
    parser.addOption(size);
    parser.addOption(benchmarkDrag);
    parser.addOption(benchmarkEdit);
    parser.addOption(benchmarkDynamic);
    parser.addOption(record);
    parser.addOption(tEnd);
    parser.addOption(fps);
    parser.addOption(dynamic);
  }
};

void setApplicationNames() {
  QCoreApplication::setOrganizationName("mechsim");
  QCoreApplication::setApplicationName("mechsim");
  QCoreApplication::setApplicationVersion(MECHSIM_VERSION);
}

int main(int argc, char** argv) {
  // --help and --version answer without a display: a core application parses and exits.
  for (int i = 1; i < argc; ++i) {
    const QByteArray a(argv[i]);
    if (a == "-h" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version") {
      QCoreApplication core(argc, argv);
      setApplicationNames();
      QCommandLineParser parser;
      Options opt;
      opt.addTo(parser);
      parser.process(core);  // prints and exits
      return 0;
    }
  }

  // The GL context format must be the default before the application object exists.
  QSurfaceFormat::setDefaultFormat(mechsim::ui::Viewport::applicationFormat());
  // A window's update request (the 3-D view's next frame) waits QT_QPA_UPDATE_IDLE_TIME, 5 ms by
  // default, where the platform gives no frame callback (X11 without a compositor, xvfb). A frame
  // takes 10–20 ms under a software rasteriser, so that idle time cost a quarter of the frame rate
  // (--benchmark-drag under llvmpipe: stewart 48 → 86 fps); requests still coalesce, one per pass
  // of the event loop. A value set by the user is kept.
  if (!qEnvironmentVariableIsSet("QT_QPA_UPDATE_IDLE_TIME")) qputenv("QT_QPA_UPDATE_IDLE_TIME", "0");
  QApplication app(argc, argv);
  setApplicationNames();

  QCommandLineParser parser;
  Options opt;
  opt.addTo(parser);
  parser.process(app);
  const QCommandLineOption& screenshot = opt.screenshot;
  const QCommandLineOption& size = opt.size;

  QSize windowSize;
  if (!parseSize(parser.value(size), windowSize)) {
    std::fprintf(stderr, "mechsim: error: --size expects WxH, e.g. 1280x800 (got '%s')\n",
                 qPrintable(parser.value(size)));
    return 1;
  }
  const QStringList args = parser.positionalArguments();
  if (args.size() > 1) {
    std::fprintf(stderr, "mechsim: error: expected at most one FILE\n");
    return 1;
  }
  // --record: its time, rate and size, checked before anything opens.
  const bool recording = parser.isSet(opt.record);
  mechsim::ui::RecordRequest record;
  if (recording) {
    bool okT = false, okF = false;
    record.path = parser.value(opt.record);
    record.duration = parser.value(opt.tEnd).toDouble(&okT);
    record.fps = parser.value(opt.fps).toDouble(&okF);
    record.size = windowSize;
    record.source = parser.isSet(opt.dynamic) ? mechsim::ui::RecordSource::DynamicRun : mechsim::ui::RecordSource::Playback;
    if (!parser.isSet(opt.tEnd) || !okT || !(record.duration > 0)) {
      std::fprintf(stderr, "mechsim: error: --record needs --t-end T, a time in seconds > 0 (got '%s')\n",
                   qPrintable(parser.value(opt.tEnd)));
      return 1;
    }
    if (!okF || record.framesFor(record.duration) < 0) {
      std::fprintf(stderr, "mechsim: error: --fps expects a frame rate from 1 to 240 and at most %ld frames in all (got '%s')\n",
                   mechsim::ui::RecordRequest::kMaxFrames, qPrintable(parser.value(opt.fps)));
      return 1;
    }
    if (parser.isSet(screenshot)) {
      std::fprintf(stderr, "mechsim: error: --record and --screenshot do not go together\n");
      return 1;
    }
  } else if (parser.isSet(opt.tEnd) || parser.isSet(opt.fps) || parser.isSet(opt.dynamic)) {
    std::fprintf(stderr, "mechsim: error: --t-end, --fps and --dynamic go with --record\n");
    return 1;
  }
  const bool shot = parser.isSet(screenshot) || recording;
  const QString file = args.isEmpty() ? defaultMechanism() : args.first();

  mechsim::ui::MainWindow window;
  // --size is the size of the 3-D view: lay the window out once, then grow it by what the menus,
  // the dock and the status bar take. The screenshot and the benchmarks always size their view
  // (1024 × 720 by default) and keep it, on the screen or not; an interactive window has the size
  // and place of the last session (or its default) within the screen, and --size only when given.
  const bool sized = shot || parser.isSet(opt.benchmarkDrag) || parser.isSet(opt.benchmarkEdit) || parser.isSet(opt.benchmarkDynamic);
  if (sized || parser.isSet(size)) {
    window.resize(windowSize);
    if (QLayout* layout = window.layout()) layout->activate();
    window.resize(windowSize + (window.size() - window.viewport()->size()));
    if (sized) window.setFitsScreen(false);
    else window.fitToScreen();
  }

  // In screenshot mode a load error goes to stderr and ends the program with status 1.
  if (shot) window.setErrorHandler([](const QString& m) { std::fprintf(stderr, "%s\n", qPrintable(m)); });
  if (file.isEmpty()) {
    std::fprintf(stderr, "mechsim: no FILE given and the default mechanism (mechanisms/fourbar.json) was not found\n");
    if (shot) return 1;
  }
  if (parser.isSet(opt.benchmarkDrag)) {
    window.setErrorHandler([](const QString& m) { std::fprintf(stderr, "%s\n", qPrintable(m)); });
    if (file.isEmpty() || !window.openFile(file)) return 1;
    window.show();
    return benchmarkDrag(window, 4.0);
  }
  if (parser.isSet(opt.benchmarkDynamic)) {
    window.setErrorHandler([](const QString& m) { std::fprintf(stderr, "%s\n", qPrintable(m)); });
    if (file.isEmpty() || !window.openFile(file)) return 1;
    window.show();
    return mechsim::ui::benchmarkDynamic(window, 5.0);
  }
  if (parser.isSet(opt.benchmarkEdit)) {
    window.setErrorHandler([](const QString& m) { std::fprintf(stderr, "%s\n", qPrintable(m)); });
    if (file.isEmpty() || !window.openFile(file)) return 1;
    window.show();
    return mechsim::ui::benchmarkEdit(window, 20);
  }
  if (!shot) {
    // Interactive: the window first, so that a load error's message box has a parent to sit on;
    // then a copy a killed session left (ui/autosave.h) is offered before the file is opened.
    window.show();
    if (!window.offerRecovery() && !file.isEmpty()) window.openFile(file);
    return app.exec();
  }
  if (!file.isEmpty() && !window.openFile(file)) return 1;
  window.show();

  // Screenshot: wait for the first paint of the viewport (and the controller's first frame when
  // it comes quickly), then grab the framebuffer.
  mechsim::ui::Viewport* view = window.viewport();
  QElapsedTimer clock;
  clock.start();
  while (clock.elapsed() < 20000) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    const bool framed = window.currentFrame().serial > 0 || clock.elapsed() > 2000;
    if (view->paintCount() > 0 && framed) break;
  }
  if (!view->glInfo().ok) {
    std::fprintf(stderr, "mechsim: error: %s\n",
                 qPrintable(view->glInfo().error.isEmpty() ? QStringLiteral("no OpenGL context") : view->glInfo().error));
    return 1;
  }
  if (recording) {
    // The file's start at t = 0, the view's camera and display options (ui/video_recorder.h).
    mechsim::ui::RecordInput input;
    input.model = window.model();
    input.spec = window.spec();
    input.options = window.sceneOptions();
    QString error;
    long frames = 0;
    const bool ok = mechsim::ui::recordVideo(*view, record, input, [](long, long, const QString&) {
      QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
      return true;
    }, &error, &frames);
    if (!ok) {
      std::fprintf(stderr, "%s\n", qPrintable(error.isEmpty() ? QStringLiteral("mechsim: error: the recording stopped") : error));
      return 1;
    }
    std::printf("%s\n%ld frames\n", qPrintable(QFileInfo(record.path).absoluteFilePath()), frames);
    return 0;
  }
  const QImage image = view->grabFramebuffer();
  const QString out = parser.value(screenshot);
  if (image.isNull() || !image.save(out, "PNG")) {
    std::fprintf(stderr, "mechsim: error: cannot write the screenshot to %s\n", qPrintable(out));
    return 1;
  }
  std::printf("%s\n", qPrintable(QFileInfo(out).absoluteFilePath()));
  return 0;
}
