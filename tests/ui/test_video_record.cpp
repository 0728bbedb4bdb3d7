// tests/ui/test_video_record.cpp — ui/video_recorder.cpp, File → Record Video (MainWindow::
// recordVideo) and `mechsim FILE --record OUT --t-end T` (app/main_gui.cpp). The videos are decoded
// back with FFmpeg's demuxer and decoder (tests/ui/video_decode.h):
//   - the four-bar's playback as MP4: round(T·fps) frames of the size asked, not one colour, each
//     differing from the one before (the crank turns 36° a frame at 10 fps);
//   - simulated time per frame, not the clock's: a PNG recording at 20 fps holds, in its even
//     frames, the same pictures as one at 10 fps (the same instants), and others in its odd ones;
//   - a dynamic run (the A01 pendulum falling from the horizontal) and the recorded history;
//   - cancel and a bad output path: false, the reason (or none for a cancel), nothing left;
//   - the command line: MP4 and a %03d.png pattern, a bad path (exit 1, `OUT: error: …`, no file),
//     --record without --t-end, and --help naming the options.
#include <QtTest>

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSurfaceFormat>
#include <QTemporaryDir>

#include "interaction_util.h"
#include "video_decode.h"
#include "window_test_util.h"
#include "ui/main_window.h"
#include "ui/record_dialog.h"
#include "ui/video_recorder.h"
#include "ui/viewport.h"

using namespace mechsim;
using namespace mechsim::ui;
using mechsim::test::decodeVideo;
using mechsim::test::mechanism;
using mechsim::test::pixelsDiffering;

namespace {

/// Distinct colours of an image (a blank or one-colour frame has a handful).
int distinctColours(const QImage& img) {
  QSet<QRgb> seen;
  for (int y = 0; y < img.height(); y += 2)
    for (int x = 0; x < img.width(); x += 2) seen.insert(img.pixel(x, y));
  return int(seen.size());
}

QStringList entries(const QString& dir) {
  return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

RecordRequest request(const QString& path, double fps, double seconds, RecordSource source = RecordSource::Playback) {
  RecordRequest r;
  r.path = path;
  r.size = QSize(320, 240);
  r.fps = fps;
  r.duration = seconds;
  r.source = source;
  return r;
}

}  // namespace

class TestVideoRecord : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { mechsim::test::useFreshSettings("test_video_record"); }
  void playbackAsMp4();
  void framesAreAtSimulatedTimes();
  void dynamicRunAndHistory();
  void cancelAndBadPathLeaveNothing();
  void dialogAndMenu();
  void commandLine();

 private:
  int run(const QStringList& args, QByteArray* out = nullptr, QByteArray* err = nullptr);
};

int TestVideoRecord::run(const QStringList& args, QByteArray* out, QByteArray* err) {
  QProcess p;
  p.start(QStringLiteral(MECHSIM_GUI_EXE), args);
  if (!p.waitForFinished(60000 * MECHSIM_WAIT_SCALE)) {
    p.kill();
    p.waitForFinished();
    return -1;
  }
  if (out) *out = p.readAllStandardOutput();
  if (err) *err = p.readAllStandardError();
  return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
}

void TestVideoRecord::playbackAsMp4() {
  MainWindow w;
  w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
  QVERIFY(mechsim::test::showAndOpen(w, mechanism("fourbar.json"), QSize(900, 600)));
  QTRY_VERIFY_WITH_TIMEOUT(w.viewport()->paintCount() > 0, 10000);
  const size_t itemsBefore = w.viewport()->scene().items.size();
  QTemporaryDir dir;
  const QString path = dir.filePath("fourbar.mp4");
  QVERIFY2(w.recordVideo(request(path, 10, 1.0)), qPrintable(w.lastError()));
  QCOMPARE(entries(dir.path()), QStringList{"fourbar.mp4"});
  const auto v = decodeVideo(path);
  QVERIFY2(v.error.isEmpty(), qPrintable(v.error));
  QCOMPARE(v.codec, QStringLiteral("h264"));
  QCOMPARE(QSize(v.width, v.height), QSize(320, 240));
  QCOMPARE(int(v.frames.size()), 10);  // 1 s at 10 fps
  QCOMPARE(qRound(v.fps), 10);
  QVERIFY2(distinctColours(v.frames[0]) > 50, qPrintable(QString::number(distinctColours(v.frames[0]))));
  for (size_t k = 1; k < v.frames.size(); ++k) {
    const long d = pixelsDiffering(v.frames[k - 1], v.frames[k]);
    QVERIFY2(d > 100, qPrintable(QStringLiteral("frames %1 and %2 differ in %3 pixels").arg(k - 1).arg(k).arg(d)));
  }
  // The window shows its own frame again; time was paused for the recording.
  QCOMPARE(w.viewport()->scene().items.size(), itemsBefore);
  QVERIFY(!w.currentFrame().playing);
}

void TestVideoRecord::framesAreAtSimulatedTimes() {
  MainWindow w;
  w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
  QVERIFY(mechsim::test::showAndOpen(w, mechanism("fourbar.json"), QSize(900, 600)));
  QTemporaryDir dir;
  QVERIFY2(w.recordVideo(request(dir.filePath("ten/"), 10, 0.5)), qPrintable(w.lastError()));
  QVERIFY2(w.recordVideo(request(dir.filePath("twenty/"), 20, 0.5)), qPrintable(w.lastError()));
  QCOMPARE(entries(dir.filePath("ten")).size(), 5);
  QCOMPARE(entries(dir.filePath("twenty")).size(), 10);
  for (int k = 0; k < 5; ++k) {
    const QImage a(dir.filePath(QStringLiteral("ten/frame_%1.png").arg(k, 4, 10, QChar('0'))));
    const QImage same(dir.filePath(QStringLiteral("twenty/frame_%1.png").arg(2 * k, 4, 10, QChar('0'))));
    const QImage between(dir.filePath(QStringLiteral("twenty/frame_%1.png").arg(2 * k + 1, 4, 10, QChar('0'))));
    QCOMPARE(a.size(), QSize(320, 240));
    // t = k/10 = 2k/20: the same pose (to the position analysis's 1e-10), the same picture.
    QVERIFY2(pixelsDiffering(a, same, 8) < 10, qPrintable(QString::number(pixelsDiffering(a, same, 8))));
    QVERIFY(pixelsDiffering(a, between) > 100);  // 18° of crank later
  }
}

void TestVideoRecord::dynamicRunAndHistory() {
  MainWindow w;
  w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
  QVERIFY(mechsim::test::showAndOpen(w, mechanism("dynamics/a01-pendulum.json"), QSize(900, 600)));
  QTemporaryDir dir;
  // Released from the horizontal at rest: it falls, each frame 0.1 s further on.
  QVERIFY2(w.recordVideo(request(dir.filePath("fall/"), 10, 0.6, RecordSource::DynamicRun)), qPrintable(w.lastError()));
  QStringList frames = entries(dir.filePath("fall"));
  QCOMPARE(frames.size(), 6);
  QImage previous;
  for (const QString& f : frames) {
    const QImage img(dir.filePath("fall/" + f));
    QCOMPARE(img.size(), QSize(320, 240));
    if (!previous.isNull()) QVERIFY2(pixelsDiffering(previous, img) > 20, qPrintable(f));
    previous = img;
  }
  // The history: play the four-bar a little, then record what was recorded, sampled at 10 fps.
  QVERIFY(mechsim::test::openAndWait(w, mechanism("fourbar.json")));
  w.simulation()->play();
  QTRY_VERIFY_WITH_TIMEOUT(w.history().size() > 1 && w.history().back().t > 0.45, 20000);
  w.simulation()->pause();
  mechsim::test::waitIdle(w);
  const double span = w.history().back().t - w.history().at(0).t;
  QVERIFY2(w.recordVideo(request(dir.filePath("history_%02d.png"), 10, 99, RecordSource::History)), qPrintable(w.lastError()));
  frames = entries(dir.path()).filter(QRegularExpression("^history_\\d\\d\\.png$"));
  QCOMPARE(long(frames.size()), std::lround(span * 10));
  QCOMPARE(QImage(dir.filePath(frames.first())).size(), QSize(320, 240));
}

void TestVideoRecord::cancelAndBadPathLeaveNothing() {
  MainWindow w;
  w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
  QVERIFY(mechsim::test::showAndOpen(w, mechanism("fourbar.json"), QSize(900, 600)));
  QTemporaryDir dir;
  // Cancelled after three frames: false, no reason, nothing at the path or beside it.
  RecordInput input;
  input.model = w.model();
  input.spec = w.spec();
  QString error = "unset";
  long written = 0;
  const bool ok = recordVideo(*w.viewport(), request(dir.filePath("cut.mp4"), 10, 2), input,
                              [](long done, long, const QString&) { return done < 3; }, &error, &written);
  QVERIFY(!ok);
  QVERIFY2(error.isEmpty(), qPrintable(error));
  QCOMPARE(written, 3L);
  QVERIFY2(entries(dir.path()).isEmpty(), qPrintable(entries(dir.path()).join(' ')));
  // A folder that does not exist: the reason names the path.
  const QString bad = dir.filePath("no/such/folder/out.mp4");
  QVERIFY(!w.recordVideo(request(bad, 10, 1)));
  QVERIFY2(w.lastError().startsWith(bad + ": error:") && w.lastError().contains("does not exist"), qPrintable(w.lastError()));
  // An odd size for H.264, and a rate out of range.
  RecordRequest odd = request(dir.filePath("odd.mp4"), 10, 1);
  odd.size = QSize(321, 240);
  QVERIFY(!w.recordVideo(odd));
  QVERIFY2(w.lastError().contains("even"), qPrintable(w.lastError()));
  QVERIFY(!w.recordVideo(request(dir.filePath("fast.mp4"), 1000, 1)));
  QVERIFY2(w.lastError().contains("error:"), qPrintable(w.lastError()));
  QVERIFY(entries(dir.path()).isEmpty());
}

void TestVideoRecord::dialogAndMenu() {
  // The dialog: the view's size made even, the path following the format, the history's length.
  RecordDialog d("/tmp/x/fourbar.mp4", QSize(901, 600), 2.5);
  QCOMPARE(d.widthBox()->value(), 900);
  QCOMPARE(d.heightBox()->value(), 600);
  RecordRequest r = d.request();
  QCOMPARE(r.path, QStringLiteral("/tmp/x/fourbar.mp4"));
  QCOMPARE(r.size, QSize(900, 600));
  QCOMPARE(r.fps, 30.0);
  QCOMPARE(r.source, RecordSource::Playback);
  d.formatBox()->setCurrentIndex(1);
  QCOMPARE(d.pathEdit()->text(), QStringLiteral("/tmp/x/fourbar/"));
  d.pathEdit()->setText("/tmp/x/shots");  // neither a folder nor a pattern: taken as a folder
  QCOMPARE(d.request().path, QStringLiteral("/tmp/x/shots/"));
  d.formatBox()->setCurrentIndex(0);
  QCOMPARE(d.pathEdit()->text(), QStringLiteral("/tmp/x/shots.mp4"));
  d.sourceBox()->setCurrentIndex(2);
  QCOMPARE(d.request().source, RecordSource::History);
  QVERIFY(!d.durationBox()->isEnabled());
  d.fpsBox()->setValue(24);
  QCOMPARE(d.request().fps, 24.0);
  // File → Record Video… is in the menu.
  MainWindow w;
  auto* action = w.findChild<QAction*>("recordVideoAction");
  QVERIFY(action);
  QVERIFY(action->text().contains("Record"));
}

void TestVideoRecord::commandLine() {
  QTemporaryDir dir;
  const QString fourbar = mechanism("fourbar.json");
  QByteArray out, err;
  // MP4: 1 s at 12 fps, 320 × 240.
  const QString mp4 = dir.filePath("cli.mp4");
  QCOMPARE(run({fourbar, "--record", mp4, "--t-end", "1", "--fps", "12", "--size", "320x240"}, &out, &err), 0);
  QVERIFY2(out.contains("cli.mp4") && out.contains("12 frames"), out.constData());
  const auto v = decodeVideo(mp4);
  QVERIFY2(v.error.isEmpty(), qPrintable(v.error));
  QCOMPARE(int(v.frames.size()), 12);
  QCOMPARE(QSize(v.width, v.height), QSize(320, 240));
  QVERIFY(distinctColours(v.frames[0]) > 50);
  for (size_t k = 1; k < v.frames.size(); ++k) QVERIFY(pixelsDiffering(v.frames[k - 1], v.frames[k]) > 100);
  // PNG images after a pattern: 0.5 s at 8 fps.
  QVERIFY(QDir(dir.path()).mkdir("png"));
  QCOMPARE(run({fourbar, "--record", dir.filePath("png/f_%03d.png"), "--t-end", "0.5", "--fps", "8", "--size", "320x240"}, &out,
               &err),
           0);
  QCOMPARE(entries(dir.filePath("png")), (QStringList{"f_000.png", "f_001.png", "f_002.png", "f_003.png"}));
  QCOMPARE(QImage(dir.filePath("png/f_003.png")).size(), QSize(320, 240));
  // A dynamic run.
  QCOMPARE(run({mechanism("dynamics/a01-pendulum.json"), "--record", dir.filePath("fall.mp4"), "--t-end", "0.5", "--fps", "10",
                "--size", "320x240", "--dynamic"},
               &out, &err),
           0);
  QCOMPARE(int(decodeVideo(dir.filePath("fall.mp4")).frames.size()), 5);
  // A bad output path: exit 1, the path and the reason on stderr, nothing written.
  const QString bad = dir.filePath("missing/cli.mp4");
  QCOMPARE(run({fourbar, "--record", bad, "--t-end", "1", "--size", "320x240"}, &out, &err), 1);
  QVERIFY2(err.contains("error:") && err.contains("missing"), err.constData());
  QVERIFY(!QFileInfo::exists(dir.filePath("missing")));
  // An output that is neither a video nor images, --record without --t-end, a bad rate.
  QCOMPARE(run({fourbar, "--record", dir.filePath("cli.avi"), "--t-end", "1"}, &out, &err), 1);
  QVERIFY2(err.contains("error:"), err.constData());
  QCOMPARE(run({fourbar, "--record", dir.filePath("x.mp4")}, &out, &err), 1);
  QVERIFY2(err.contains("--t-end"), err.constData());
  QCOMPARE(run({fourbar, "--record", dir.filePath("x.mp4"), "--t-end", "1", "--fps", "0"}, &out, &err), 1);
  QVERIFY2(err.contains("--fps"), err.constData());
  QCOMPARE(entries(dir.path()), (QStringList{"cli.mp4", "fall.mp4", "png"}));
  // --help names the options.
  QCOMPARE(run({"--help"}, &out), 0);
  for (const char* o : {"--record", "--t-end", "--fps", "--dynamic"}) QVERIFY2(out.contains(o), o);
}

int main(int argc, char** argv) {
  QSurfaceFormat::setDefaultFormat(Viewport::applicationFormat());
  QApplication app(argc, argv);
  TestVideoRecord t;
  return QTest::qExec(&t, argc, argv);
}
#include "test_video_record.moc"
