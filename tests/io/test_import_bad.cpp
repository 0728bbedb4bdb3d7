// tests/io/test_import_bad.cpp — tests the importers of core/io/import on the bad-input corpus
// tests/data/import/: malformed XML, unknown joint types, cycles in a URDF tree, unknown links /
// bodies / classes, units (a suffix, degrees where radians are read and back), missing meshes,
// invalid inertias, located compiler errors. Each file states on its first line what it must
// give:
//     <!-- expect error LINE:COL MESSAGE -->     loading fails with FILE:LINE:COL: error: ...MESSAGE...
//     <!-- expect warning LINE:COL MESSAGE -->   loading succeeds with FILE:LINE:COL: warning: ...MESSAGE...
// An error in a file that an MJCF file includes names that file: "expect error OTHER:LINE:COL
// MESSAGE", OTHER relative to the corpus folder (the included files are in include/, which the
// corpus loop does not open on their own).
// Loading is loadModel's (import, then compile), as the GUI and the CLI do.
#include <QDir>
#include <QtTest>

#include <fstream>
#include <regex>

#include "core/io/import/import.h"
#include "core/io/load.h"

using namespace mechsim;
using namespace mechsim::io;

namespace {
const QString kDir = QStringLiteral(MECHSIM_SOURCE_DIR "/tests/data/import");

struct Expectation {
  bool error = true;
  std::string file;  // relative to kDir; empty: the file itself
  int line = 0, col = 0;
  std::string message;
};

Expectation expectationOf(const std::string& path) {
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  static const std::regex re(R"(<!-- expect (error|warning) (?:(\S+):)?(\d+):(\d+) (.*) -->)");
  std::smatch m;
  if (!std::regex_search(first, m, re)) return Expectation{true, "", -1, -1, ""};
  return Expectation{m[1] == "error", m[2], std::stoi(m[3]), std::stoi(m[4]), m[5]};
}
}  // namespace

class TestImportBad : public QObject {
  Q_OBJECT
 private slots:
  void corpusIsLargeEnough() {
    const QStringList files = QDir(kDir).entryList(QDir::Files);
    QVERIFY(files.size() >= 15);
    int urdf = 0, mjcf = 0, sdf = 0;
    for (const QString& f : files) urdf += f.endsWith(".urdf"), mjcf += f.endsWith(".xml"), sdf += f.endsWith(".sdf");
    QVERIFY(urdf >= 5 && mjcf >= 5 && sdf >= 4);
  }

  void corpus_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : QDir(kDir).entryList(QDir::Files, QDir::Name)) QTest::newRow(qPrintable(f)) << QDir(kDir).filePath(f);
  }
  void corpus() {
    QFETCH(QString, file);
    const std::string path = file.toStdString();
    const Expectation x = expectationOf(path);
    QVERIFY2(x.line > 0 && !x.message.empty(), "first line: <!-- expect error|warning LINE:COL MESSAGE -->");
    QVERIFY(importFormatOf(path).has_value());
    std::vector<std::string> warnings;
    try {
      loadModel(path, &warnings);
      QVERIFY2(!x.error, qPrintable("expected an error, the file loaded: " + file));
      const std::string head = path + ":" + std::to_string(x.line) + ":" + std::to_string(x.col) + ": warning: ";
      bool found = false;
      for (const std::string& w : warnings) found = found || (w.rfind(head, 0) == 0 && w.find(x.message) != std::string::npos);
      std::string all;
      for (const std::string& w : warnings) all += w + "\n";
      QVERIFY2(found, qPrintable(QString::fromStdString("expected " + head + "..." + x.message + "\ngot:\n" + all)));
    } catch (const LoadError& e) {
      QVERIFY2(x.error, e.what());
      const Diagnostic& d = e.diagnostic();
      QCOMPARE(QString::fromStdString(d.file), x.file.empty() ? file : QDir(kDir).filePath(QString::fromStdString(x.file)));
      // An error inside an included file says where it was included.
      if (!x.file.empty()) QVERIFY2(d.message.find("included from " + path + ":") != std::string::npos, e.what());
      QVERIFY2(d.line == x.line && d.col == x.col && d.message.find(x.message) != std::string::npos,
               qPrintable(QString("expected %1:%2 \"%3\", got: %4").arg(x.line).arg(x.col).arg(QString::fromStdString(x.message)).arg(e.what())));
      // One line, no crash text, nothing that is not a diagnostic.
      QVERIFY(std::string(e.what()).find('\n') == std::string::npos);
    }
  }

  /// Unknown extensions are not imported; a missing imported file is an I/O error at line 0.
  void dispatch() {
    QVERIFY(!importFormatOf("a.json").has_value());
    QVERIFY(importFormatOf("a.URDF") == ImportFormat::Urdf);
    QVERIFY(importFormatOf("a.world") == ImportFormat::Sdf);
    QVERIFY(importFormatOf((kDir + "/urdf_cycle.urdf").toStdString()) == ImportFormat::Urdf);
    try {
      readMechanismFile("/nonexistent/robot.urdf");
      QFAIL("no error");
    } catch (const LoadError& e) {
      QCOMPARE(QString(e.what()), QString("/nonexistent/robot.urdf: error: no such file"));
    }
  }
};

QTEST_APPLESS_MAIN(TestImportBad)
#include "test_import_bad.moc"
