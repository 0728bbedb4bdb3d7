// tests/io/test_load_model.cpp — tests core/io/load_model.cpp: loadModel / compileSpec, with the
// compiler's SpecError turned into FILE:LINE:COL diagnostics, and the trajectory columns of real
// compiled models.
#include <QDir>
#include <QtTest>

#include <cmath>

#include "core/io/load.h"
#include "core/io/trajectory.h"

using namespace mechsim;
using namespace mechsim::io;

namespace {
const QString kSource = QStringLiteral(MECHSIM_SOURCE_DIR);
constexpr double kPi = 3.14159265358979323846;
}  // namespace

class TestLoadModel : public QObject {
  Q_OBJECT
 private slots:
  void compilesEveryGoodFile_data() {
    QTest::addColumn<QString>("file");
    for (const QString& folder : {QString("tests/data/good"), QString("mechanisms")}) {
      const QDir dir(kSource + "/" + folder);
      for (const QString& f : dir.entryList({"*.json"}, QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(folder + "/" + f)) << dir.filePath(f);
    }
  }
  void compilesEveryGoodFile() {
    QFETCH(QString, file);
    try {
      const Model m = loadModel(file.toStdString());
      QCOMPARE(int(m.drivers.size()), int(readMechanismFile(file.toStdString()).drivers.size()));
      for (const Driver& d : m.drivers) QVERIFY(d.value);
    } catch (const LoadError& e) {
      QFAIL(e.what());
    }
  }

  void driversAreScaled() {
    const Model m = loadModel((kSource + "/tests/data/good/fourbar_mm_deg.json").toStdString());
    QCOMPARE(int(m.drivers.size()), 1);
    QVERIFY(std::abs(m.drivers[0].value(0.5) - kPi) < 1e-12);  // 360 * t degrees at t = 0.5
    // The trajectory header of a compiled model: t, the coordinates, then the moving bodies.
    const auto cols = trajectoryColumns(m, false);
    QCOMPARE(QString::fromStdString(cols[0]), QString("t"));
    QCOMPARE(int(cols.size()), 1 + m.nCoords + 7 * m.nMoving);
    QCOMPARE(QString::fromStdString(cols[1]), QString("A"));
    QVERIFY(std::find(cols.begin(), cols.end(), "crank.qw") != cols.end());
    QVERIFY(std::find(cols.begin(), cols.end(), "ground.x") == cols.end());
  }

  void specErrorIsLocated() {
    // Valid for the reader, refused by the compiler: a joint between two fixed bodies.
    const std::string text =
        "{\n"
        "  \"mechsim\": 1,\n"
        "  \"bodies\": [ { \"name\": \"g\", \"fixed\": true }, { \"name\": \"h\", \"fixed\": true } ],\n"
        "  \"joints\": [\n"
        "    { \"name\": \"A\", \"type\": \"revolute\", \"body1\": \"g\", \"body2\": \"h\", \"point\": [0, 0, 0], \"axis\": [0, 0, 1] }\n"
        "  ]\n"
        "}\n";
    const MechanismSpec spec = parseMechanism(text, "two-fixed.json", ".");
    try {
      compileSpec(spec);
      QFAIL("compiled");
    } catch (const LoadError& e) {
      const Diagnostic& d = e.diagnostic();
      QCOMPARE(d.file, std::string("two-fixed.json"));
      // The compiler names a path under joints[0]; the diagnostic points at that value.
      QVERIFY2(d.message.rfind("joints[0]", 0) == 0, e.what());
      QCOMPARE(d.line, 5);
      const SourceLoc loc = spec.locate(d.message.substr(0, d.message.find(':')));
      QCOMPARE(d.col, loc.col);
      QVERIFY2(QString(e.what()).startsWith(QString("two-fixed.json:5:%1: error: joints[0]").arg(loc.col)), e.what());
    }
  }

  void missingFile() {
    QVERIFY_THROWS_EXCEPTION(LoadError, loadModel("/nonexistent/x.json"));
  }
};

QTEST_APPLESS_MAIN(TestLoadModel)
#include "test_load_model.moc"
