// tests/app/test_golden.cpp — golden outputs of mechsim-cli (app/cli/ through the engine, core/sim):
// every run of tests/data/golden/cases.txt — `kinematics`, `simulate` and `deform` on every example
// mechanism — must write the CSV in tests/data/golden/NAME.csv, which the commands wrote before the
// engine took them over. Cells compare as text where they are not numbers, and as numbers within
// |a − b| ≤ 1e-12 (1 + |b|) where they are (the CSV has 17 significant digits; `deform` writes 9).
// The runs of tests/data/golden/mesh-dependent.txt (a tet mesh Gmsh makes at open time, not the
// same to the last bit on every CPU) are compared more loosely (mesh_dependent.h), their iteration
// counts not at all.
//
// MECHSIM_GOLDEN_UPDATE=1 rewrites the golden files from the current command instead (to accept a
// change on purpose; say why in the commit).
#include <QtTest>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <cmath>

#include "tests/app/csv_compare.h"
#include "tests/app/mesh_dependent.h"

namespace {

QString goldenDir() { return QStringLiteral(MECHSIM_SOURCE_DIR "/tests/data/golden/"); }

struct Case {
  QString name;
  QStringList args;
  bool meshDependent = false;
};

std::vector<Case> readCases() {
  std::vector<Case> cases;
  const QSet<QString> meshDependent = mechsim::test::meshDependentCases();
  QFile f(goldenDir() + "cases.txt");
  if (!f.open(QIODevice::ReadOnly)) return cases;
  for (const QByteArray& raw : f.readAll().split('\n')) {
    const QString line = QString::fromUtf8(raw).trimmed();
    if (line.isEmpty() || line.startsWith('#')) continue;
    QStringList w = line.split(' ', Qt::SkipEmptyParts);
    Case c{w.takeFirst(), w};
    c.meshDependent = meshDependent.contains(c.name);
    c.args[1] = QStringLiteral(MECHSIM_SOURCE_DIR "/") + c.args[1];  // the file, from the source tree
    cases.push_back(c);
  }
  return cases;
}

mechsim::test::CsvTable readCsv(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? mechsim::test::parseCsv(f.readAll()) : mechsim::test::CsvTable{};
}

}  // namespace

class TestGolden : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    // The JGS2 precomputation is never read from, or written to, the user's cache here.
    qputenv("MECHSIM_CACHE_DIR", "off");
  }

  void commandOutputIsUnchanged_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<bool>("meshDependent");
    const std::vector<Case> cases = readCases();
    QVERIFY2(cases.size() >= 50, "tests/data/golden/cases.txt lists the runs");
    for (const Case& c : cases) QTest::newRow(qPrintable(c.name)) << c.name << c.args << c.meshDependent;
  }

  void commandOutputIsUnchanged() {
    QFETCH(QString, name);
    QFETCH(QStringList, args);
    QFETCH(bool, meshDependent);
    QTemporaryDir dir;
    const QString out = dir.filePath(name + ".csv");
    QProcess p;
    p.setWorkingDirectory(QStringLiteral(MECHSIM_SOURCE_DIR));
    p.start(QStringLiteral(MECHSIM_CLI), args + QStringList{"--out", out});
    QVERIFY(p.waitForFinished(120000));
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, p.readAllStandardError().constData());
    const QString golden = goldenDir() + name + ".csv";
    if (qEnvironmentVariableIntValue("MECHSIM_GOLDEN_UPDATE") == 1) {
      QFile::remove(golden);
      QVERIFY(QFile::copy(out, golden));
      QSKIP("golden file rewritten");
    }
    const mechsim::test::CsvTable want = readCsv(golden), got = readCsv(out);
    QVERIFY2(!want.isEmpty(), qPrintable("no golden file " + golden));
    double worst = 0;
    QString worstAt;
    const auto tolerance = [meshDependent](const QByteArray& column) {
      return meshDependent ? mechsim::test::meshDependentTolerance(column) : 1e-12;
    };
    mechsim::test::compareCsv(got, want, tolerance, "the command's", &worst, &worstAt);
    if (QTest::currentTestFailed()) return;
    if (worst > 0) qInfo("%s: largest difference %.3g at %s", qPrintable(name), worst, qPrintable(worstAt));
  }
};

QTEST_APPLESS_MAIN(TestGolden)
#include "test_golden.moc"
