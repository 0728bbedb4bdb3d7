// tests/ui/test_mechsim_app.cpp — app/main_gui.cpp run as `mechsim` through QProcess:
// --screenshot writes a non-blank PNG, a bad file exits 1 with FILE:LINE:COL on stderr, --help;
// --benchmark-drag drags the four-bar's handle and a deformable part's vertex (frames painted,
// a frame rate printed); --benchmark-edit re-solves the parametric four-bar's edits (each edit and
// the File → Reload baseline timed; no threshold here: the figures are the benchmark's).
#include <QtTest>

#include <QDir>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>

#include "test_models.h"

class TestMechsimApp : public QObject {
  Q_OBJECT
 private slots:
  void help();
  void screenshotOfTheDefaultMechanism();
  void badFileExitsWithTheLoaderMessage();
  void dragBenchmark();
  void editBenchmark();

 private:
  int run(const QStringList& args, QByteArray* out = nullptr, QByteArray* err = nullptr, bool display = true);
};

int TestMechsimApp::run(const QStringList& args, QByteArray* out, QByteArray* err, bool display) {
  QProcess p;
  if (!display) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("DISPLAY");
    env.remove("WAYLAND_DISPLAY");
    env.remove("QT_QPA_PLATFORM");
    p.setProcessEnvironment(env);
  }
  p.start(QStringLiteral(MECHSIM_GUI_EXE), args);
  if (!p.waitForFinished(60000)) {
    p.kill();
    p.waitForFinished();
    return -1;
  }
  if (out) *out = p.readAllStandardOutput();
  if (err) *err = p.readAllStandardError();
  return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
}

void TestMechsimApp::help() {
  // --help needs no display.
  QByteArray out;
  QCOMPARE(run({"--help"}, &out, nullptr, /*display=*/false), 0);
  QVERIFY(out.contains("--screenshot"));
  QVERIFY(out.contains("--size"));
  QCOMPARE(run({"--version"}, &out, nullptr, false), 0);
  QVERIFY(out.contains("mechsim"));
}

void TestMechsimApp::screenshotOfTheDefaultMechanism() {
  const QString fourbar = QDir(qEnvironmentVariable("MECHSIM_SOURCE_DIR", MECHSIM_SOURCE_DIR)).filePath("mechanisms/fourbar.json");
  if (!QFileInfo::exists(fourbar)) QSKIP("mechanisms/fourbar.json does not exist yet");
  QTemporaryDir dir;
  const QString png = dir.filePath("fourbar.png");
  QByteArray out, err;
  const int rc = run({fourbar, "--screenshot", png, "--size", "800x600"}, &out, &err);
  if (rc == 1 && err.contains("error:") && !QFileInfo::exists(png))
    QSKIP(qPrintable("mechanisms/fourbar.json does not load yet: " + QString::fromUtf8(err)));
  QVERIFY2(rc == 0, err.constData());
  QImage img(png);
  QVERIFY(!img.isNull());
  QCOMPARE(img.size(), QSize(800, 600) * (img.devicePixelRatio()));
  const auto st = mechsim::test::imageStats(img);
  QVERIFY2(st.distinctColors > 200 && st.foregroundFraction > 0.005, "the screenshot looks blank");
  // Without FILE the default mechanism (the same four-bar) is shown.
  const QString png2 = dir.filePath("default.png");
  QCOMPARE(run({"--screenshot", png2, "--size", "640x480"}), 0);
  QVERIFY(!QImage(png2).isNull());
}

void TestMechsimApp::badFileExitsWithTheLoaderMessage() {
  QTemporaryDir dir;
  const QString bad = dir.filePath("bad.json");
  QFile f(bad);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write("{\n  \"mechsim\": 1,\n  \"bodies\": [ { \"name\": \"a\", \"fixd\": true } ]\n}\n");
  f.close();
  QByteArray err;
  QCOMPARE(run({bad, "--screenshot", dir.filePath("bad.png")}, nullptr, &err), 1);
  QVERIFY2(QRegularExpression("bad\\.json:\\d+:\\d+: error: ").match(QString::fromUtf8(err)).hasMatch(), err.constData());
  QVERIFY(!QFileInfo::exists(dir.filePath("bad.png")));
  // A file that does not exist, and a bad --size.
  QCOMPARE(run({dir.filePath("missing.json"), "--screenshot", dir.filePath("m.png")}), 1);
  QCOMPARE(run({bad, "--size", "huge"}), 1);
}

void TestMechsimApp::dragBenchmark() {
  // The handle of the four-bar, and — a file without handles but with a deformable part — a soft
  // handle on the rubber mount's surface. Each prints the frames painted while the cursor circled
  // and exits 0 only when there were some.
  const QDir src(qEnvironmentVariable("MECHSIM_SOURCE_DIR", MECHSIM_SOURCE_DIR));
  const std::pair<const char*, const char*> cases[] = {{"mechanisms/fourbar.json", "handle P"},
                                                       {"mechanisms/deform-rubber-mount.json", "deformable part mount"}};
  for (const auto& [file, what] : cases) {
    QByteArray out, err;
    QCOMPARE(run({src.filePath(file), "--benchmark-drag"}, &out, &err), 0);
    const QString text = QString::fromUtf8(out);
    QVERIFY2(text.contains(QString::fromUtf8(what)), qPrintable(text + QString::fromUtf8(err)));
    const auto m = QRegularExpression(QStringLiteral("(\\d+) frames painted")).match(text);
    QVERIFY2(m.hasMatch() && m.captured(1).toInt() >= 10, qPrintable(text));
    const auto fps = QRegularExpression(QStringLiteral("^fps ([0-9.]+)$"), QRegularExpression::MultilineOption).match(text);
    QVERIFY2(fps.hasMatch() && fps.captured(1).toDouble() > 1, qPrintable(text));
    qInfo("%s: %s", file, qPrintable(text.section('\n', 0, 0)));
  }
}

void TestMechsimApp::editBenchmark() {
  const QDir src(QStringLiteral(MECHSIM_SOURCE_DIR));
  QByteArray out, err;
  QCOMPARE(run({src.filePath("mechanisms/fourbar-parametric.json"), "--benchmark-edit"}, &out, &err), 0);
  const QString text = QString::fromUtf8(out);
  for (const char* row : {"inspector: crank mass", "inspector: joint A point", "parameter move", "baseline: File → Reload"})
    QVERIFY2(text.contains(QRegularExpression(QStringLiteral("%1\\s+(20|5) edits  median\\s+[0-9.]+ ms").arg(QRegularExpression::escape(QString::fromUtf8(row))))),
             qPrintable(text + QString::fromUtf8(err)));
  const auto m = QRegularExpression(QStringLiteral("^edit_ms_median ([0-9.]+)$"), QRegularExpression::MultilineOption).match(text);
  QVERIFY2(m.hasMatch() && m.captured(1).toDouble() > 0, qPrintable(text));
  qInfo("%s", qPrintable(text));
}

QTEST_GUILESS_MAIN(TestMechsimApp)
#include "test_mechsim_app.moc"
