// tests/app/test_golden.cpp — golden outputs of mechsim-cli (app/cli/ through the engine, core/sim):
// every run of tests/data/golden/cases.txt — `kinematics`, `simulate` and `deform` on every example
// mechanism — must write the CSV in tests/data/golden/NAME.csv, which the commands wrote before the
// engine took them over. Cells compare as text where they are not numbers, and as numbers within
// |a − b| ≤ 1e-12 (1 + |b|) where they are (the CSV has 17 significant digits; `deform` writes 9).
//
// MECHSIM_GOLDEN_UPDATE=1 rewrites the golden files from the current command instead (to accept a
// change on purpose; say why in the commit).
#include <QtTest>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <cmath>

namespace {

QString goldenDir() { return QStringLiteral(MECHSIM_SOURCE_DIR "/tests/data/golden/"); }

struct Case {
  QString name;
  QStringList args;
};

std::vector<Case> readCases() {
  std::vector<Case> cases;
  QFile f(goldenDir() + "cases.txt");
  if (!f.open(QIODevice::ReadOnly)) return cases;
  for (const QByteArray& raw : f.readAll().split('\n')) {
    const QString line = QString::fromUtf8(raw).trimmed();
    if (line.isEmpty() || line.startsWith('#')) continue;
    QStringList w = line.split(' ', Qt::SkipEmptyParts);
    Case c{w.takeFirst(), w};
    c.args[1] = QStringLiteral(MECHSIM_SOURCE_DIR "/") + c.args[1];  // the file, from the source tree
    cases.push_back(c);
  }
  return cases;
}

QList<QList<QByteArray>> readCsv(const QString& path) {
  QList<QList<QByteArray>> rows;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return rows;
  for (const QByteArray& line : f.readAll().trimmed().split('\n')) rows.push_back(line.split(','));
  return rows;
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
    const std::vector<Case> cases = readCases();
    QVERIFY2(cases.size() >= 50, "tests/data/golden/cases.txt lists the runs");
    for (const Case& c : cases) QTest::newRow(qPrintable(c.name)) << c.name << c.args;
  }

  void commandOutputIsUnchanged() {
    QFETCH(QString, name);
    QFETCH(QStringList, args);
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
    const QList<QList<QByteArray>> want = readCsv(golden), got = readCsv(out);
    QVERIFY2(!want.isEmpty(), qPrintable("no golden file " + golden));
    QCOMPARE(got.size(), want.size());
    QCOMPARE(got[0], want[0]);  // the header
    double worst = 0;
    QString worstAt;
    for (int r = 1; r < want.size(); ++r) {
      QCOMPARE(got[r].size(), want[r].size());
      for (int c = 0; c < want[r].size(); ++c) {
        bool okA = false, okB = false;
        const double a = got[r][c].toDouble(&okA), b = want[r][c].toDouble(&okB);
        if (!okA || !okB) {
          QCOMPARE(got[r][c], want[r][c]);
          continue;
        }
        const QString column = QString::fromUtf8(want[0][c]);
        const double tol = 1e-12;
        const double err = std::abs(a - b) / (1 + std::abs(b));
        QVERIFY2(std::isfinite(a), qPrintable(QString("row %1, %2: not finite").arg(r).arg(column)));
        if (err > worst) worst = err, worstAt = QString("row %1, %2").arg(r).arg(column);
        QVERIFY2(err <= tol, qPrintable(QString("row %1, %2: %3 against the golden %4 (|a − b|/(1 + |b|) = %5, "
                                                "tolerance %6)")
                                            .arg(r)
                                            .arg(column)
                                            .arg(a, 0, 'g', 17)
                                            .arg(b, 0, 'g', 17)
                                            .arg(err, 0, 'g', 3)
                                            .arg(tol)));
      }
    }
    if (worst > 0) qInfo("%s: largest difference %.3g at %s", qPrintable(name), worst, qPrintable(worstAt));
  }
};

QTEST_APPLESS_MAIN(TestGolden)
#include "test_golden.moc"
