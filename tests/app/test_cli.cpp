// tests/app/test_cli.cpp — tests the mechsim-cli binary itself (app/cli/): `check --json` on the
// example files (fourbar.json: dof 1, 3 redundant, Grübler −2; bricard.json: Grübler 0, dof 1),
// a bad file (exit 1, `FILE:LINE:COL: error:` on stderr), and `kinematics` (exit 0, the CSV
// header of docs/format.md §2 "Trajectory CSV" with rates, one row per output time, finite
// numbers), including the singular examples driven through their singular positions, and a driver
// past the mechanism's reach (exit 2, the engine's message, the good rows before it).
// `deform --vtk` writes the parts' motion as VTK XML (.vtu per state, .pvd series), read back here
// with Qt's XML reader and checked against the run's own CSV.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "tests/mesh_reader_crash.h"
#include "tests/vtk_read.h"

namespace {

struct Run {
  int exitCode = -1;
  QByteArray out, err;
};

Run runProgram(const QString& program, const QStringList& args) {
  QProcess p;
  p.setWorkingDirectory(QStringLiteral(MECHSIM_SOURCE_DIR));
  p.start(program, args);
  Run r;
  if (!p.waitForFinished(120000)) {
    p.kill();
    p.waitForFinished();
    return r;
  }
  r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = p.readAllStandardOutput();
  r.err = p.readAllStandardError();
  return r;
}

Run runCli(const QStringList& args) { return runProgram(QStringLiteral(MECHSIM_CLI), args); }

QString example(const char* name) { return QStringLiteral(MECHSIM_SOURCE_DIR "/mechanisms/") + name; }

/// A copy of the flexible-link example in dir, named `name`, with `from` replaced by `to`; its
/// path, or an empty string when it cannot be made.
QString strapCopy(const QTemporaryDir& dir, const QString& name, const QString& from, const QString& to) {
  QFile in(example("deform-flexible-link.json"));
  if (!in.open(QIODevice::ReadOnly)) return {};
  QString text = QString::fromUtf8(in.readAll());
  if (!text.contains(from)) return {};
  text.replace(from, to);
  const QString path = dir.filePath(name);
  QFile out(path);
  if (!out.open(QIODevice::WriteOnly) || out.write(text.toUtf8()) < 0) return {};
  return path;
}

/// The flexible link with its part's `"solver": "newton"` replaced by `solverKeys`.
QString strapWithSolver(const QTemporaryDir& dir, const char* solverKeys) {
  return strapCopy(dir, "strap-jgs2.json", QStringLiteral("\"solver\": \"newton\""), QString::fromUtf8(solverKeys));
}

/// The flexible link with a coarse strap (10 × 2 × 1 cells, 120 tets instead of 1920), for the
/// cases that compare two backends step by step rather than the part's behaviour: the same
/// comparison at a sixteenth of the work (deformOnTheEmulatedDevice took 75 s of test_app_cli's
/// 120 s limit on a busy machine with the full strap, 1.3 s with this one).
QString coarseStrap(const QTemporaryDir& dir) {
  return strapCopy(dir, "strap-coarse.json", QStringLiteral("\"cells\": [40, 4, 2]"), QStringLiteral("\"cells\": [10, 2, 1]"));
}

}  // namespace

class TestCli : public QObject {
  Q_OBJECT
 private slots:
  void checkFourBarJson() {
    const Run r = runCli({"check", example("fourbar.json"), "--json"});
    QCOMPARE(r.exitCode, 0);
    QJsonParseError pe;
    const QJsonObject j = QJsonDocument::fromJson(r.out, &pe).object();
    QVERIFY2(pe.error == QJsonParseError::NoError, r.out.constData());
    QCOMPARE(j["dof"].toInt(), 1);
    QCOMPARE(j["redundant"].toArray().size(), 3);
    QCOMPARE(j["grubler_dof"].toInt(), -2);
    QCOMPARE(j["dof_driven"].toInt(), 0);
    QCOMPARE(j["singular"].toBool(true), false);
  }

  void checkBricardJson() {
    const Run r = runCli({"check", example("bricard.json"), "--json"});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(j["grubler_dof"].toInt(), 0);
    QCOMPARE(j["dof"].toInt(), 1);
    QCOMPARE(j["singular"].toBool(true), false);
  }

  // Regular configurations are not reported singular (millimetre-scale squeezer, parallelogram at 90°).
  void checkNotSingular_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"andrews-squeezer.json", "fourbar-changepoint.json", "slider-crank-singular.json"})
      QTest::newRow(f) << example(f);
  }
  void checkNotSingular() {
    QFETCH(QString, file);
    const Run r = runCli({"check", file, "--json"});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(r.out).object()["singular"].toBool(true), false);
  }

  // `check` prints what the reader replaced or left out: on an imported robot whose mesh files the
  // reader cannot use (here the mesh reader made to crash), each mesh shape's placeholder box is a
  // located warning on stderr and in --json's "warnings", and the check itself succeeds.
  void checkPrintsWarnings() {
    const QString urdf = QStringLiteral(MECHSIM_SOURCE_DIR "/mechanisms/urdf/panda.urdf");
    Run r = runCli({"check", urdf});
    QCOMPARE(r.exitCode, 0);
    // The finger <mimic> is a coupling now, no warning: check counts it (8 DOF, 7 + the gripper).
    QVERIFY2(!r.err.contains("mimic"), r.err.constData());
    QVERIFY2(r.out.contains("  couplings     1 (one equation each, counted below)"), r.out.constData());
    QVERIFY2(r.out.contains("  mobility      8 "), r.out.constData());
    QVERIFY2(!r.err.contains("placeholder"), r.err.constData());
    // joint 4's range [−3.0718, −0.0698] rad excludes the file pose 0 (core/io/pose_limits.h), once
    QCOMPARE(QString::fromUtf8(r.err).count("panda.urdf:90:5: warning: joint \"panda_joint4\": the starting pose has its angle "
                                             "at 0 rad, 0.0698 rad above its upper limit -0.0698 rad"), 1);
    Run json = runCli({"check", urdf, "--json"});
    int poseWarnings = 0;
    for (const QJsonValue& w : QJsonDocument::fromJson(json.out).object()["warnings"].toArray())
      poseWarnings += w.toString().contains("\"panda_joint4\": the starting pose");
    QCOMPARE(poseWarnings, 1);
    QCOMPARE(QJsonDocument::fromJson(json.out).object()["couplings"].toInt(), 1);
    QCOMPARE(QJsonDocument::fromJson(json.out).object()["dof"].toInt(), 8);
    qputenv("MECHSIM_MESH_READER_FAULT", "crash");
    r = runCli({"check", urdf, "--json"});
    qunsetenv("MECHSIM_MESH_READER_FAULT");
    QCOMPARE(r.exitCode, 0);
    const QJsonArray warnings = QJsonDocument::fromJson(r.out).object()["warnings"].toArray();
    int placeholders = 0;
    for (const QJsonValue& w : warnings)
      if (w.toString().contains(kReaderCrash) && w.toString().contains("placeholder box"))
        ++placeholders;
    QVERIFY2(placeholders >= 10, r.out.constData());
    QCOMPARE(QString::fromUtf8(r.err).count("placeholder box"), placeholders);
  }

  // --floating-base: a URDF's root link free, six DOF more (issue 46, item 2); kinematics and
  // simulate take it too; a native file refuses it (it says itself which bodies are fixed).
  void checkFloatingBase() {
    const QString urdf = QStringLiteral(MECHSIM_SOURCE_DIR "/tests/data/import/real/kuka_iiwa.urdf");
    for (const bool floating : {false, true}) {
      QStringList args{"check", urdf, "--json"};
      if (floating) args << "--floating-base";
      const Run r = runCli(args);
      QCOMPARE(r.exitCode, 0);
      QCOMPARE(QJsonDocument::fromJson(r.out).object()["dof"].toInt(), floating ? 13 : 7);
    }
    QTemporaryDir tmp;
    const Run k = runCli({"kinematics", urdf, "--t-end", "0.01", "--dt", "0.01", "--out", tmp.filePath("k.csv"), "--floating-base"});
    QCOMPARE(k.exitCode, 0);
    const Run n = runCli({"check", example("fourbar.json"), "--floating-base"});
    QCOMPARE(n.exitCode, 1);
    QVERIFY2(n.err.contains("fourbar.json:1:1: error: a floating base is an option of the URDF importer"), n.err.constData());
  }

  // A .xacro is refused with how to expand it, at 1:1 (issue 46, item 6).
  void checkXacroSaysHowToExpand() {
    QTemporaryDir tmp;
    const QString x = tmp.filePath("robot.urdf.xacro");
    QFile f(x);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("<?xml version=\"1.0\"?>\n<robot xmlns:xacro=\"http://www.ros.org/wiki/xacro\" name=\"r\"/>\n");
    f.close();
    const Run r = runCli({"check", x});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.startsWith((x + ":1:1: error: a .xacro file is a template").toUtf8()), r.err.constData());
    QVERIFY2(r.err.contains("xacro model.urdf.xacro > model.urdf"), r.err.constData());
  }

  void checkBadFile() {
    const QString bad = QStringLiteral(MECHSIM_SOURCE_DIR "/tests/data/bad/bad_angle_unit.json");
    const Run r = runCli({"check", bad});
    QCOMPARE(r.exitCode, 1);
    const QRegularExpression re("^" + QRegularExpression::escape(bad) + R"(:\d+:\d+: error: )");
    QVERIFY2(re.match(QString::fromUtf8(r.err)).hasMatch(), r.err.constData());
  }

  // `COMMAND --help`, `-h` and `help COMMAND`: that command's usage on stdout, exit 0, nothing run.
  void helpPerCommand_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("usage");
    QTest::newRow("check --help") << QStringList{"check", "--help"} << "usage: mechsim-cli check FILE";
    QTest::newRow("kinematics -h") << QStringList{"kinematics", "-h"} << "usage: mechsim-cli kinematics FILE";
    QTest::newRow("simulate with args") << QStringList{"simulate", example("fourbar.json"), "--help"}
                                        << "usage: mechsim-cli simulate FILE";
    QTest::newRow("help deform") << QStringList{"help", "deform"} << "usage: mechsim-cli deform FILE";
    QTest::newRow("bench deform --help") << QStringList{"bench", "deform", "--help"} << "usage: mechsim-cli bench";
    QTest::newRow("info --help") << QStringList{"info", "--help"} << "usage: mechsim-cli info";
    QTest::newRow("--help") << QStringList{"--help"} << "usage: mechsim-cli COMMAND";
  }
  void helpPerCommand() {
    QFETCH(QStringList, args);
    QFETCH(QString, usage);
    const Run r = runCli(args);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(QString::fromUtf8(r.out).startsWith(usage), r.out.constData());
    QVERIFY2(r.err.isEmpty(), r.err.constData());
  }

  // A misspelt or misplaced option is a usage error (exit 2, the option named), not ignored: a
  // benchmark must not start its long run on `--qiuck`, nor `info` take stray arguments.
  void unknownOptionsRefused_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("bench deform --qiuck") << QStringList{"bench", "deform", "--qiuck"} << "unknown option '--qiuck'";
    QTest::newRow("bench kinematics --quick") << QStringList{"bench", "kinematics", "--quick"}
                                              << "unknown option '--quick'";
    QTest::newRow("bench contact --gpu") << QStringList{"bench", "contact", "--gpu"} << "unknown option '--gpu'";
    QTest::newRow("bench kinematics --large") << QStringList{"bench", "kinematics", "--large"} << "unknown option '--large'";
    QTest::newRow("bench deform --large=2m") << QStringList{"bench", "deform", "--large=2m"} << "unknown option '--large=2m'";
    QTest::newRow("bench kinematics --large=1m") << QStringList{"bench", "kinematics", "--large=1m"}
                                                 << "unknown option '--large=1m'";
    QTest::newRow("bench deform --modes=2m") << QStringList{"bench", "deform", "--modes=2m"} << "unknown option '--modes=2m'";
    QTest::newRow("bench contact --modes") << QStringList{"bench", "contact", "--modes"} << "unknown option '--modes'";
    QTest::newRow("info extra") << QStringList{"info", "extra"} << "unexpected argument 'extra'";
    QTest::newRow("check --jsn") << QStringList{"check", example("fourbar.json"), "--jsn"}
                                 << "unknown option '--jsn'";
    QTest::newRow("help nope") << QStringList{"help", "nope"} << "unknown command 'nope'";
  }
  void unknownOptionsRefused() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run r = runCli(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    QVERIFY2(r.out.isEmpty(), r.out.constData());
  }

  // `kinematics`: exit 0, header per format.md §2, one row per t = k·dt, all numbers finite.
  void kinematicsCsv_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("dt");
    QTest::newRow("fourbar") << example("fourbar.json") << 0.01;
    QTest::newRow("slider-crank-singular") << example("slider-crank-singular.json") << 0.01;
    QTest::newRow("fourbar-changepoint") << example("fourbar-changepoint.json") << 0.05;
  }
  void kinematicsCsv() {
    QFETCH(QString, file);
    QFETCH(double, dt);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath("traj.csv");
    const Run r = runCli({"kinematics", file, "--t-end", "2", "--dt", QString::number(dt), "--out", out});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(r.out.startsWith("kinematics: "));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    const int rows = static_cast<int>(std::floor(2.0 / dt + 1e-9)) + 1;
    QCOMPARE(lines.size(), 1 + rows);
    const QStringList header = lines[0].split(',');
    if (file.endsWith("/fourbar.json")) {
      // Coordinates, poses of the moving bodies, coordinate rates and accelerations, body
      // origin velocities and accelerations.
      QStringList expect{"t", "A", "B", "C", "D"};
      const QStringList bodies{"crank", "coupler", "rocker"};
      for (const QString& b : bodies)
        for (const char* c : {".x", ".y", ".z", ".qw", ".qx", ".qy", ".qz"}) expect << b + c;
      for (const char* c : {"A", "B", "C", "D"}) expect << QString(c) + ".vel";
      for (const char* c : {"A", "B", "C", "D"}) expect << QString(c) + ".acc";
      for (const QString& b : bodies)
        for (const char* c : {".vx", ".vy", ".vz"}) expect << b + c;
      for (const QString& b : bodies)
        for (const char* c : {".ax", ".ay", ".az"}) expect << b + c;
      QCOMPARE(header, expect);
    } else {
      QCOMPARE(header.value(0), QString("t"));
    }
    for (int k = 1; k < lines.size(); ++k) {
      const QStringList cells = lines[k].split(',');
      QCOMPARE(cells.size(), header.size());
      for (const QString& c : cells) {
        bool ok = false;
        const double v = c.toDouble(&ok);
        QVERIFY2(ok && std::isfinite(v), qPrintable(QString("row %1: '%2'").arg(k).arg(c)));
      }
      QVERIFY(std::abs(cells[0].toDouble() - (k - 1) * dt) < 1e-12);
    }
  }

  // `kinematics` with a driver past the mechanism's reach (tests/data/good/slider_crank_unreachable.json,
  // written for this test: the slider-crank's slider pushed out at 100 mm/s, in line at
  // t = (450 − x0) / 100 = 0.169873 s, x0 = 100 cos 30° + sqrt(350² − 50²) mm): exit 2, the
  // engine's message on stderr (the first output time past the reach, the joint furthest from met,
  // the last good pose kept), and the rows before it written, every number finite, the last the
  // pose at 0.16 s.
  void kinematicsUnreachableDriver() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath("traj.csv");
    const Run r = runCli({"kinematics", QStringLiteral(MECHSIM_SOURCE_DIR "/tests/data/good/slider_crank_unreachable.json"),
                          "--t-end", "1", "--dt", "0.01", "--out", out});
    QCOMPARE(r.exitCode, 2);
    const double x0 = 100 * std::cos(M_PI / 6) + std::sqrt(350.0 * 350.0 - 50.0 * 50.0);
    const int rows = static_cast<int>(std::floor((450 - x0) / 100 / 0.01)) + 1;  // t = 0 … 0.16
    QCOMPARE(rows, 17);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.startsWith("mechsim-cli: kinematics: cannot assemble at t = 0.17 s: the residual stalls at "),
             r.err.constData());
    QVERIFY2(err.contains("(joint \"B\" furthest from met, by "), r.err.constData());
    QVERIFY2(err.contains(QString("; the last good pose (t = 0.16 s) is kept; wrote the %1 rows before it to ").arg(rows)),
             r.err.constData());
    QVERIFY2(!err.contains("diverged") && !err.contains("non-finite"), r.err.constData());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    QVERIFY(!text.contains("nan", Qt::CaseInsensitive) && !text.contains("inf", Qt::CaseInsensitive));
    const QStringList lines = text.split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + rows);
    const QStringList header = lines[0].split(',');
    const int slide = static_cast<int>(header.indexOf("S"));
    QVERIFY(slide > 0);
    for (int k = 1; k < lines.size(); ++k) {
      const QStringList cells = lines[k].split(',');
      QCOMPARE(cells.size(), header.size());
      for (const QString& c : cells) {
        bool ok = false;
        QVERIFY2(std::isfinite(c.toDouble(&ok)) && ok, qPrintable(QString("row %1: '%2'").arg(k).arg(c)));
      }
      QVERIFY(std::abs(cells[0].toDouble() - (k - 1) * 0.01) < 1e-12);
      QVERIFY(std::abs(cells[slide].toDouble() - 0.1 * (k - 1) * 0.01) < 1e-9);  // the slider on its driver (m)
    }
  }

  void deformUsesEachPartsSolver() {
    // `deform` steps each part by its file's "solver" (the example's "newton"; a copy set to
    // "jgs2-jacobi" with "stepControl": "none"); --method overrides the file for every part. Both
    // runs write the CSV of docs/deform.md and end with the attachment error 0.
    QTemporaryDir dir;
    const QString jgs2File = strapWithSolver(dir, "\"solver\": \"jgs2-jacobi\", \"stepControl\": \"none\"");
    QVERIFY(!jgs2File.isEmpty());
    const QString csv = dir.filePath("strap.csv");
    struct Case {
      QStringList args;
      const char* method;
    };
    // check names the part, its size and its solver.
    const Run chk = runCli({"check", jgs2File, "--json"});
    QVERIFY2(chk.exitCode == 0, chk.err.constData());
    const QJsonArray parts = QJsonDocument::fromJson(chk.out).object().value("deformables").toArray();
    QCOMPARE(parts.size(), 1);
    QCOMPARE(parts[0].toObject().value("name").toString(), QStringLiteral("strap"));
    QCOMPARE(parts[0].toObject().value("tets").toInt(), 1920);
    QCOMPARE(parts[0].toObject().value("solver").toString(), QStringLiteral("jgs2-jacobi"));
    for (const Case& c : {Case{{"deform", example("deform-flexible-link.json")}, "method newton,"},
                          Case{{"deform", jgs2File}, "method jgs2-jacobi,"},
                          Case{{"deform", jgs2File, "--method", "newton"}, "method newton,"}}) {
      const Run r = runCli(c.args + QStringList{"--t-end", "0.05", "--dt", "0.01", "--out", csv});
      QVERIFY2(r.exitCode == 0, r.err.constData());
      QVERIFY2(r.out.contains(c.method), r.out.constData());
      QVERIFY2(r.out.contains("max attachment error 0 m"), r.out.constData());
      QFile f(csv);
      QVERIFY(f.open(QIODevice::ReadOnly));
      const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
      QCOMPARE(lines.value(0), QByteArray("t,part,iterations,converged,centroid_x,centroid_y,centroid_z,max_speed,attach_error"));
      QCOMPARE(lines.size(), 7);  // t = 0 … 0.05
      for (int k = 2; k < lines.size(); ++k) QCOMPARE(lines[k].split(',').value(3), QByteArray("1"));
    }
  }

  void deformVtkSeries() {
    // `deform --vtk DIR --vtk-every 2` over five steps writes the states at t = 0, 0.02, 0.04 and
    // the series listing them; each file is well-formed XML whose mesh and fields agree with the
    // run: the points' mean is the CSV's centroid, the displacement is the points minus the first
    // state's, every tet keeps a positive volume and the rest volume is the strap's 0.4 x 0.04 x
    // 0.02 m; the stress is zero at rest and not afterwards.
    QTemporaryDir dir;
    const QString csv = dir.filePath("strap.csv"), vtk = dir.filePath("motion/vtk");
    const Run r = runCli({"deform", example("deform-flexible-link.json"), "--t-end", "0.05", "--dt", "0.01", "--out", csv,
                          "--vtk", vtk, "--vtk-every", "2"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.out.contains("VTK series") && r.out.contains("strap.pvd (3 states)"), r.out.constData());
    QFile csvFile(csv);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    const QList<QByteArray> rows = csvFile.readAll().trimmed().split('\n');
    QCOMPARE(rows.size(), 7);
    // The series: three data sets with their times and files.
    const mechsim::test::PvdFile series = mechsim::test::readPvd(vtk + "/strap.pvd");
    QVERIFY2(series.error.isEmpty(), qPrintable(series.error));
    const QStringList& files = series.files;
    const QList<double>& times = series.times;
    QCOMPARE(files, (QStringList{"strap_000000.vtu", "strap_000002.vtu", "strap_000004.vtu"}));
    QCOMPARE(times, (QList<double>{0.0, 0.02, 0.04}));
    QVERIFY(!QFileInfo::exists(vtk + "/strap_000001.vtu"));
    std::vector<double> first;
    for (int s = 0; s < 3; ++s) {
      mechsim::test::VtkXmlFile f = mechsim::test::readVtkXml(vtk + "/" + files[s]);
      QVERIFY2(f.error.isEmpty(), qPrintable(f.error));
      QCOMPARE(f.points, 615);
      QCOMPARE(f.cells, 1920);
      QCOMPARE(int(f.x.size()), 3 * f.points);
      QCOMPARE(int(f.connectivity.size()), 4 * f.cells);
      QCOMPARE(f.offsets.back(), 4L * f.cells);
      QVERIFY(std::all_of(f.types.begin(), f.types.end(), [](long t) { return t == 10; }));
      QCOMPARE(int(f.types.size()), f.cells);
      if (s == 0) first = f.x;
      // Centroid against the CSV row of the same time (rows[0] is the header; row k + 1 is t_k).
      const QList<QByteArray> row = rows[2 * s + 1].split(',');
      QCOMPARE(row.value(0).toDouble(), times[s]);
      for (int c = 0; c < 3; ++c) {
        double mean = 0;
        for (int v = 0; v < f.points; ++v) mean += f.x[size_t(3 * v + c)] / f.points;
        QVERIFY2(std::abs(mean - row.value(4 + c).toDouble()) < 1e-9, qPrintable(QString("%1 vs %2").arg(mean).arg(row.value(4 + c))));
      }
      const std::vector<double>& disp = f.arrays["PointData/displacement"];
      QCOMPARE(int(disp.size()), 3 * f.points);
      double moved = 0;
      for (size_t k = 0; k < disp.size(); ++k) {
        QVERIFY(std::abs(disp[k] - (f.x[k] - first[k])) < 1e-10);
        moved = std::max(moved, std::abs(disp[k]));
      }
      QCOMPARE(int(f.arrays["PointData/velocity"].size()), 3 * f.points);
      const std::vector<double>& vmCell = f.arrays["CellData/von_mises"];
      const std::vector<double>& vmPoint = f.arrays["PointData/von_mises"];
      QCOMPARE(int(vmCell.size()), f.cells);
      QCOMPARE(int(vmPoint.size()), f.points);
      const double vmMax = *std::max_element(vmCell.begin(), vmCell.end());
      QVERIFY(*std::min_element(vmCell.begin(), vmCell.end()) >= 0);
      double volume = 0;
      for (int t = 0; t < f.cells; ++t) {
        auto p = [&](int a) {
          const size_t v = size_t(f.connectivity[size_t(4 * t + a)]);
          return std::array<double, 3>{f.x[3 * v], f.x[3 * v + 1], f.x[3 * v + 2]};
        };
        const auto a = p(0), b = p(1), c = p(2), d = p(3);
        const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]},
                     z[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
        const double vol = (u[0] * (w[1] * z[2] - w[2] * z[1]) - u[1] * (w[0] * z[2] - w[2] * z[0]) +
                            u[2] * (w[0] * z[1] - w[1] * z[0])) / 6;
        QVERIFY(vol > 0);
        volume += vol;
      }
      if (s == 0) {
        QVERIFY2(std::abs(volume - 0.4 * 0.04 * 0.02) < 1e-12, qPrintable(QString::number(volume)));
        QVERIFY(vmMax < 1e-3 && moved == 0);
      } else {
        QVERIFY2(vmMax > 1e3 && moved > 1e-4, qPrintable(QString("%1 Pa, %2 m").arg(vmMax).arg(moved)));
      }
    }
    // Bad requests: a step count that is not whole, --vtk-every alone, a folder that is a file.
    QFile blocker(dir.filePath("afile"));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const QStringList base = {"deform", example("deform-flexible-link.json"), "--t-end", "0.02", "--dt", "0.01", "--out", csv};
    for (const QStringList& bad : {QStringList{"--vtk", vtk, "--vtk-every", "0"}, QStringList{"--vtk-every", "2"},
                                   QStringList{"--vtk", dir.filePath("afile")}}) {
      const Run b = runCli(base + bad);
      QCOMPARE(b.exitCode, 2);
      QVERIFY2(b.err.contains("--vtk"), b.err.constData());
    }
  }

  void deformIterationBudget() {
    // "maxIterations" in the file is a budget: a step stopped at it keeps its state, its row says
    // converged 0 with exactly that many iterations, the run goes on (exit 0) and the summary
    // counts the capped steps. Without it, a step that does not converge within the default cap
    // still ends the run (exit 2; here forced by a tolerance no sweep meets).
    QTemporaryDir dir;
    const QString budget = strapWithSolver(dir, "\"solver\": \"vbd\", \"maxIterations\": 3");
    QVERIFY(!budget.isEmpty());
    const Run chk = runCli({"check", budget, "--json"});  // check names the budget
    QVERIFY2(chk.exitCode == 0, chk.err.constData());
    const QJsonObject part = QJsonDocument::fromJson(chk.out).object().value("deformables").toArray().at(0).toObject();
    QCOMPARE(part.value("maxIterations").toInt(), 3);
    QVERIFY(!part.contains("tolerance"));
    const Run chkText = runCli({"check", budget});
    QVERIFY2(chkText.out.contains("solver vbd, at most 3 iterations per step"), chkText.out.constData());
    const QString csv = dir.filePath("budget.csv");
    const Run r = runCli({"deform", budget, "--t-end", "0.03", "--dt", "0.01", "--out", csv});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.out.contains("3 part step(s) stopped at the file's maxIterations"), r.out.constData());
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 5);  // header, t = 0 … 0.03
    for (int k = 2; k < lines.size(); ++k) {
      const QList<QByteArray> cells = lines[k].split(',');
      QCOMPARE(cells.value(2), QByteArray("3"));
      QCOMPARE(cells.value(3), QByteArray("0"));
      for (int c = 4; c < cells.size(); ++c) QVERIFY(std::isfinite(cells[c].toDouble()));
    }
    const QString strict = strapWithSolver(dir, "\"solver\": \"vbd\", \"tolerance\": 1e-12");
    QVERIFY(!strict.isEmpty());
    const Run s = runCli({"deform", strict, "--t-end", "0.01", "--dt", "0.01", "--out", dir.filePath("strict.csv")});
    QCOMPARE(s.exitCode, 2);
    QVERIFY2(s.err.contains("did not converge"), s.err.constData());
    // The summary counts the steps done (none), not the steps asked for.
    QVERIFY2(s.err.contains("after 0 of 1 steps"), s.err.constData());
    QVERIFY2(s.out.contains("1 part(s), 0 steps,"), s.out.constData());
  }

  void deformCoarseModes() {
    // "modes" sets the JGS2 coarse space: `check` names it, and the precomputation the run gets
    // uses it — with the training modes only (64) the strap's steps take more Jacobi sweeps than
    // with the default 256 (about 13 against 7 per step over the first 0.1 s).
    QTemporaryDir dir;
    const QString few = strapWithSolver(dir, "\"solver\": \"jgs2-jacobi\", \"modes\": 64");
    QVERIFY(!few.isEmpty());
    const Run chk = runCli({"check", few, "--json"});
    QVERIFY2(chk.exitCode == 0, chk.err.constData());
    QCOMPARE(QJsonDocument::fromJson(chk.out).object().value("deformables").toArray().at(0).toObject().value("modes").toInt(),
             64);
    QVERIFY(runCli({"check", few}).out.contains("solver jgs2-jacobi, 64 coarse modes"));
    auto meanIterations = [&](const QStringList& args, const QString& csv) {
      const Run r = runCli(QStringList{"deform"} + args + QStringList{"--t-end", "0.1", "--dt", "0.01", "--out", csv});
      if (r.exitCode != 0) return -1.0;
      QFile f(csv);
      if (!f.open(QIODevice::ReadOnly)) return -1.0;
      const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
      double sum = 0;
      for (int k = 2; k < lines.size(); ++k) sum += lines[k].split(',').value(2).toDouble();
      return lines.size() > 2 ? sum / (lines.size() - 2) : -1.0;
    };
    const double itFew = meanIterations({few}, dir.filePath("few.csv"));
    const double itDefault =
        meanIterations({example("deform-flexible-link.json"), "--method", "jgs2-jacobi"}, dir.filePath("default.csv"));
    QVERIFY2(itFew > 0 && itDefault > 0, qPrintable(QString("%1 %2").arg(itFew).arg(itDefault)));
    QVERIFY2(itDefault < 0.8 * itFew, qPrintable(QString("256 modes: %1 it/step, 64 modes: %2").arg(itDefault).arg(itFew)));
    // --modes overrides the file's count for every part, as --method does the solver.
    const double itOverride = meanIterations({few, "--modes", "256"}, dir.filePath("override.csv"));
    QVERIFY2(itOverride > 0 && itOverride < 0.8 * itFew, qPrintable(QString("--modes 256: %1 it/step").arg(itOverride)));
    for (const char* bad : {"63", "2000", "100.5", "many"}) {
      const Run r = runCli({"deform", few, "--modes", bad, "--t-end", "0.01", "--dt", "0.01", "--out", dir.filePath("x.csv")});
      QCOMPARE(r.exitCode, 2);
      QVERIFY2(r.err.contains("--modes"), r.err.constData());
    }
  }

  // A JGS2 part's precomputation goes to the cache folder on the first run and is read back on the
  // next: the summary line says which, and the two runs write the same CSV (the data read are the
  // data computed). `--cache off` neither reads nor writes; a damaged file is said and replaced.
  void deformCache() {
    QTemporaryDir dir;
    const QString cache = dir.filePath("cache");
    const QStringList run = {example("deform-flexible-link.json"), "--method", "jgs2-jacobi", "--t-end", "0.05", "--dt", "0.01"};
    auto deform = [&](const QStringList& extra, const QString& csv) {
      return runCli(QStringList{"deform"} + run + extra + QStringList{"--out", dir.filePath(csv)});
    };
    auto csvText = [&](const QString& name) {
      QFile f(dir.filePath(name));
      return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    const Run first = deform({"--cache", cache}, "first.csv");
    QVERIFY2(first.exitCode == 0, first.err.constData());
    QVERIFY2(first.out.contains("JGS2 precomputation computed in") && first.out.contains(" s, saved"), first.out.constData());
    QVERIFY2(first.err.isEmpty(), first.err.constData());
    const QStringList files = QDir(cache + "/").entryList({"jgs2-*.bin"}, QDir::Files);
    QCOMPARE(files.size(), 1);
    const Run second = deform({"--cache", cache}, "second.csv");
    QVERIFY2(second.exitCode == 0, second.err.constData());
    QVERIFY2(second.out.contains("JGS2 precomputation read from the cache"), second.out.constData());
    QVERIFY(!csvText("first.csv").isEmpty());
    QCOMPARE(csvText("second.csv"), csvText("first.csv"));
    // Another coarse space is another precomputation: a second file.
    const Run other = deform({"--cache", cache, "--modes", "128"}, "other.csv");
    QVERIFY2(other.exitCode == 0 && other.out.contains("computed in"), (other.out + other.err).constData());
    QCOMPARE(QDir(cache).entryList({"jgs2-*.bin"}, QDir::Files).size(), 2);
    // off: computed, not saved.
    const Run off = deform({"--cache", "off"}, "off.csv");
    QVERIFY2(off.exitCode == 0, off.err.constData());
    QVERIFY2(off.out.contains("computed in") && !off.out.contains("saved"), off.out.constData());
    QCOMPARE(csvText("off.csv"), csvText("first.csv"));
    // A damaged file: said on stderr, recomputed, replaced.
    QFile f(cache + "/" + files.front());
    QVERIFY(f.open(QIODevice::ReadWrite));
    QVERIFY(f.resize(f.size() / 2));
    f.close();
    const Run damaged = deform({"--cache", cache}, "damaged.csv");
    QVERIFY2(damaged.exitCode == 0, damaged.err.constData());
    QVERIFY2(damaged.err.contains("ignored the cache file") && damaged.out.contains("saved"),
             (damaged.out + damaged.err).constData());
    QCOMPARE(csvText("damaged.csv"), csvText("first.csv"));
    QVERIFY(deform({"--cache", cache}, "again.csv").out.contains("read from the cache"));
    // A folder that cannot be made: computed, said, the run goes on.
    QFile plain(dir.filePath("plain"));
    QVERIFY(plain.open(QIODevice::WriteOnly));
    plain.close();
    const Run unwritable = deform({"--cache", dir.filePath("plain/cache")}, "unwritable.csv");
    QVERIFY2(unwritable.exitCode == 0, unwritable.err.constData());
    QVERIFY2(unwritable.err.contains("was not saved") && !unwritable.out.contains("saved"),
             (unwritable.out + unwritable.err).constData());
    QCOMPARE(csvText("unwritable.csv"), csvText("first.csv"));
  }

  // `bench deform --gpu` (the CUDA backend against its CPU twin) needs a device: without one it says
  // why and exits 1 at once, printing no table. With a device it would start the long run: skipped.
  void benchDeformGpuNeedsDevice() {
    const Run info = runCli({"info"});
    QCOMPARE(info.exitCode, 0);
    if (info.out.contains("CUDA backend: built") && !info.out.contains("no device found"))
      QSKIP("a CUDA device is present: `bench deform --gpu` would run (scripts/device-check.sh runs it)");
    const Run r = runCli({"bench", "deform", "--gpu"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.startsWith("bench deform --gpu: "), r.err.constData());
    QVERIFY2(r.err.contains("no CUDA device") || r.err.contains("built without CUDA"), r.err.constData());
    QVERIFY2(r.out.isEmpty(), r.out.constData());
  }

  void deformBackendChoice() {
    // --backend: cpu always runs on the CPU; auto uses the CUDA backend only when `info` reports a
    // device and the part's solver is one the device runs (a jgs2-jacobi part), so the example's
    // newton part stays on the CPU; cuda insists and, where it cannot (no backend built, no device,
    // or a solver the device does not run), exits 2 naming why and writes no CSV.
    const Run info = runCli({"info"});
    QCOMPARE(info.exitCode, 0);
    const bool device = info.out.contains("CUDA backend: built") && !info.out.contains("no device found");
    QTemporaryDir dir;
    const QString jgs2File = strapWithSolver(dir, "\"solver\": \"jgs2-jacobi\"");
    QVERIFY(!jgs2File.isEmpty());
    const QString csv = dir.filePath("strap.csv");
    const QStringList run = {"--t-end", "0.03", "--dt", "0.01", "--out", csv};
    const QString newtonFile = example("deform-flexible-link.json");
    struct Case {
      QString file, backend;
      int exitCode;
      const char* said;  // in stdout (exit 0) or stderr (exit 2)
    };
    const QList<Case> cases = {
        {newtonFile, "cpu", 0, "backend cpu,"},
        {jgs2File, "cpu", 0, "backend cpu,"},
        {newtonFile, "auto", 0, "backend cpu,"},
        {jgs2File, "auto", 0, device ? "backend cuda," : "backend cpu,"},
        {newtonFile, "cuda", 2, device ? "not newton" : "--backend cuda"},
        {jgs2File, "cuda", device ? 0 : 2, device ? "backend cuda," : "--backend cuda"},
        {jgs2File, "gpu", 2, "unknown backend 'gpu' (auto, cpu, cuda)"},
    };
    for (const Case& c : cases) {
      QFile::remove(csv);
      const Run r = runCli(QStringList{"deform", c.file, "--backend", c.backend} + run);
      QVERIFY2(r.exitCode == c.exitCode, (c.backend + ": " + QString::fromUtf8(r.err)).toUtf8().constData());
      QVERIFY2((c.exitCode == 0 ? r.out : r.err).contains(c.said), (r.out + r.err).constData());
      QCOMPARE(QFile::exists(csv), c.exitCode == 0);
    }
  }

  void deformOnTheEmulatedDevice() {
    // The command's device path — the choice of backend, the upload, DeviceSolver's whole solves
    // with the part's step control, the JGS2 data of the precomputation, colour subspaces for
    // jgs2-gs — run by mechsim-cli-emulated, whose "device" is the CUDA source built for the CPU
    // (gpu/emulation/). Each method's CSV with --backend cuda must equal the CPU's (the same
    // iterations; the numbers within round-off), and auto must choose the device.
    const QString cli = QStringLiteral(MECHSIM_CLI_EMULATED);
    QTemporaryDir dir;
    const QString cpuCsv = dir.filePath("cpu.csv"), cudaCsv = dir.filePath("cuda.csv");
    const QString file = coarseStrap(dir);
    QVERIFY(!file.isEmpty());
    for (const char* method : {"jacobi", "vbd", "jgs2-jacobi", "jgs2-gs"}) {
      const QStringList run = {"deform", file, "--t-end", "0.05", "--dt", "0.01", "--method", method};
      const Run autoRun = runProgram(cli, run + QStringList{"--out", cudaCsv});
      QVERIFY2(autoRun.exitCode == 0, autoRun.err.constData());
      QVERIFY2(autoRun.out.contains("backend cuda,"), autoRun.out.constData());
      const Run cuda = runProgram(cli, run + QStringList{"--backend", "cuda", "--out", cudaCsv});
      QVERIFY2(cuda.exitCode == 0 && cuda.out.contains("backend cuda,"), (cuda.out + cuda.err).constData());
      const Run cpu = runProgram(cli, run + QStringList{"--backend", "cpu", "--out", cpuCsv});
      QVERIFY2(cpu.exitCode == 0 && cpu.out.contains("backend cpu,"), (cpu.out + cpu.err).constData());
      QFile a(cpuCsv), b(cudaCsv);
      QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
      const QList<QByteArray> la = a.readAll().trimmed().split('\n'), lb = b.readAll().trimmed().split('\n');
      QCOMPARE(lb.size(), la.size());
      QVERIFY(la.size() == 7);  // header + 5 steps + t = 0
      QCOMPARE(lb.front(), la.front());
      for (int row = 1; row < la.size(); ++row) {
        const QList<QByteArray> fa = la[row].split(','), fb = lb[row].split(',');
        QCOMPARE(fb.size(), fa.size());
        for (int k = 0; k < fa.size(); ++k) {
          bool numA = false, numB = false;
          const double va = fa[k].toDouble(&numA), vb = fb[k].toDouble(&numB);
          if (!numA) {
            QCOMPARE(fb[k], fa[k]);  // the part's name
            continue;
          }
          QVERIFY(numB);
          QVERIFY2(std::abs(va - vb) <= 1e-8 * std::max(1.0, std::abs(va)),  // a last printed digit
                   qPrintable(QString("%1 row %2 column %3: cpu %4, cuda %5").arg(method).arg(row).arg(k)
                                  .arg(fa[k].constData(), fb[k].constData())));
        }
      }
    }
    // Newton stays on the CPU: cuda names why.
    const Run newton = runProgram(cli, {"deform", file, "--t-end", "0.02", "--dt", "0.01", "--backend", "cuda",
                                        "--out", cudaCsv});
    QCOMPARE(newton.exitCode, 2);
    QVERIFY2(newton.err.contains("not newton"), newton.err.constData());
  }

  // `cmake --install` gives a tree that works on its own: the programs in bin/ with their two
  // helpers beside them (found there, not in this build tree), the examples and their meshes in
  // share/mechsim/ (the mechanisms' relative mesh paths hold), the documentation in share/doc.
  void installedTreeWorks() {
    QTemporaryDir prefix;
    QVERIFY(prefix.isValid());
    const Run install = runProgram(QStringLiteral(MECHSIM_CMAKE),
                                   {"--install", QStringLiteral(MECHSIM_BUILD_DIR), "--prefix", prefix.path()});
    QVERIFY2(install.exitCode == 0, (install.out + install.err).constData());
    const QString bin = prefix.filePath("bin/");
    for (const char* program : {"mechsim-cli", "mechsim-mesh-reader", "mechsim-surface-mesher"})
      QVERIFY2(QFileInfo(bin + program).isExecutable(), program);
    QVERIFY(QFileInfo::exists(prefix.filePath("share/doc/mechsim/deform.md")));

    const Run info = runProgram(bin + "mechsim-cli", {"info"});
    QCOMPARE(info.exitCode, 0);
    QVERIFY2(info.out.contains(("read by " + bin + "mechsim-mesh-reader,").toUtf8()), info.out.constData());
    QVERIFY2(info.out.contains(("by " + bin + "mechsim-surface-mesher,").toUtf8()), info.out.constData());
    const QString examples = prefix.filePath("share/mechsim/mechanisms/");
    for (const char* file : {"fourbar-meshes.json", "urdf/ur5.urdf", "deform-flexible-link.json"}) {
      const Run check = runProgram(bin + "mechsim-cli", {"check", examples + file});
      QVERIFY2(check.exitCode == 0 && check.err.isEmpty(), (QString(file) + ": " + check.err).toUtf8().constData());
    }
  }
};

QTEST_APPLESS_MAIN(TestCli)
#include "test_cli.moc"
