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
// Loading is loadModel's (import, then compile), as the GUI and the CLI do. Files of the wrong
// kind (a .xacro, XML under another extension) and package:// / model:// URIs that resolve nowhere
// are checked by their own functions below, on files they write.
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
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

  /// Files of the wrong kind (issue 46, item 6): a .xacro says how to expand it, XML under an
  /// extension that names no format says which formats are read, both at 1:1 where the native
  /// reader said "unexpected '<'"; a non-XML file under such an extension keeps the native
  /// reader's error with the formats added. A .json file is the native format's, as before.
  void wrongKindOfFile() {
    QTemporaryDir tmp;
    auto write = [&](const QString& name, const std::string& text) {
      const std::string p = tmp.filePath(name).toStdString();
      std::ofstream(p) << text;
      return p;
    };
    auto errorOf = [](const std::string& p) -> std::string {
      try {
        loadModel(p);
      } catch (const LoadError& e) {
        return e.what();
      }
      return "(loaded)";
    };
    const std::string formats = "mechsim reads its native format (.json), URDF (.urdf";
    const std::string xacro = write("arm.urdf.xacro", "<?xml version=\"1.0\"?>\n<robot xmlns:xacro=\"http://www.ros.org/wiki/xacro\" "
                                                       "name=\"arm\">\n  <xacro:include filename=\"$(find arm)/arm.xacro\"/>\n</robot>\n");
    std::string e = errorOf(xacro);
    QVERIFY2(e.rfind(xacro + ":1:1: error: a .xacro file is a template that ROS's xacro expands into a URDF", 0) == 0, e.c_str());
    QVERIFY2(e.find("`xacro model.urdf.xacro > model.urdf`") != std::string::npos, e.c_str());
    QVERIFY2(e.find(formats) != std::string::npos, e.c_str());
    // A xacro that does not start with '<' (a comment line first) is refused the same way.
    e = errorOf(write("b.xacro", "\n\n  <robot name=\"b\"/>"));
    QVERIFY2(e.find(":1:1: error: a .xacro file is a template") != std::string::npos, e.c_str());
    for (const char* name : {"part.dae", "robot.launch", "README"}) {
      const std::string p = write(name, "\xEF\xBB\xBF  <?xml version=\"1.0\"?><COLLADA/>");
      e = errorOf(p);
      const std::string what = QFileInfo(name).suffix().isEmpty()
                                   ? "an XML file without an extension"
                                   : "an XML file with the extension \"." + QFileInfo(name).suffix().toStdString() + "\"";
      QVERIFY2(e.rfind(p + ":1:1: error: " + what + ", which names no format mechsim reads", 0) == 0, e.c_str());
      QVERIFY2(e.find(formats) != std::string::npos, e.c_str());
      QVERIFY(e.find('\n') == std::string::npos);
    }
    // Not XML, under an unknown extension: the native reader's located error, the formats added.
    const std::string txt = write("notes.txt", "solid cube\n");
    e = errorOf(txt);
    QVERIFY2(e.rfind(txt + ":1:1: error: ", 0) == 0 && e.find("(the extension \".txt\" names no format; " + formats) != std::string::npos,
             e.c_str());
    // .json stays the native reader's, word for word.
    e = errorOf(write("a.json", "<robot/>"));
    QVERIFY2(e.find("xacro") == std::string::npos && e.find("names no format") == std::string::npos, e.c_str());
  }

  /// A package:// or model:// URI whose package is on no root of the search path names the
  /// search path, in order, and the variables that extend it (issue 46, item 6).
  void unresolvedPackageNamesSearchPath() {
    QTemporaryDir tmp;
    const QString a = tmp.filePath("ros_a"), b = tmp.filePath("ros_b");
    QDir().mkpath(a);
    QDir().mkpath(b);
    // (Plain literals: moc takes the "//" of a URI in a raw string for a comment.)
    const std::string urdf =
        "<robot name=\"r\"><link name=\"base\"/><link name=\"arm\">\n"
        "  <inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
        "  <visual><geometry><mesh filename=\"package://ur_description/meshes/ur5/visual/base.dae\"/></geometry></visual></link>\n"
        "  <joint name=\"j\" type=\"continuous\"><parent link=\"base\"/><child link=\"arm\"/></joint></robot>";
    qputenv("ROS_PACKAGE_PATH", (a + ":" + b).toUtf8());
    const MechanismSpec s = parseUrdf(urdf, "r.urdf", tmp.path().toStdString());
    qunsetenv("ROS_PACKAGE_PATH");
    QCOMPARE(int(s.warnings.size()), 1);
    const std::string& w = s.warnings[0];
    const std::string roots = (a + ":" + b + ":" + tmp.path()).toStdString();
    QVERIFY2(w.rfind("r.urdf:3:21: warning: mesh \"package://ur_description/meshes/ur5/visual/base.dae\" not found: no ROS "
                     "package \"ur_description\" in the search path " + roots + ":", 0) == 0, w.c_str());
    QVERIFY2(w.find("add the folder that holds it to ROS_PACKAGE_PATH or MECHSIM_PACKAGE_PATH") != std::string::npos, w.c_str());
    QVERIFY2(w.find("placeholder box") != std::string::npos, w.c_str());

    const std::string sdf =
        "<sdf version=\"1.8\"><model name=\"m\"><link name=\"a\">\n"
        "  <visual name=\"v\"><geometry><mesh><uri>model://turtle/meshes/shell.dae</uri></mesh></geometry></visual>\n"
        "</link></model></sdf>";
    const MechanismSpec t = parseSdf(sdf, "m.sdf", tmp.path().toStdString());
    QCOMPARE(int(t.warnings.size()), 1);
    QVERIFY2(t.warnings[0].find("not found: no model \"turtle\" in the search path " + tmp.path().toStdString()) != std::string::npos,
             t.warnings[0].c_str());
    QVERIFY2(t.warnings[0].find("add the folder that holds it to SDF_PATH, GZ_SIM_RESOURCE_PATH, IGN_GAZEBO_RESOURCE_PATH, "
                                "GAZEBO_MODEL_PATH or MECHSIM_PACKAGE_PATH") != std::string::npos,
             t.warnings[0].c_str());

    // An SDFormat <include> of a model that is nowhere: libsdformat's error, the search path added.
    const std::string world = tmp.filePath("w.sdf").toStdString();
    std::ofstream(world) << "<sdf version=\"1.8\"><world name=\"w\">\n  <include><uri>model://bot</uri></include>\n</world></sdf>\n";
    try {
      readMechanismFile(world);
      QFAIL("no error");
    } catch (const LoadError& e) {
      const std::string m = e.what();
      QVERIFY2(m.find("Unable to find uri[model://bot]: no model \"bot\" in the search path " + tmp.path().toStdString()) != std::string::npos,
               m.c_str());
      QVERIFY2(m.find("to SDF_PATH, GZ_SIM_RESOURCE_PATH") != std::string::npos, m.c_str());
    }
    // The same include found along that search path (here MECHSIM_PACKAGE_PATH).
    QDir().mkpath(tmp.filePath("lib/bot"));
    std::ofstream(tmp.filePath("lib/bot/model.config").toStdString())
        << "<?xml version=\"1.0\"?><model><name>bot</name><sdf version=\"1.8\">model.sdf</sdf></model>\n";
    std::ofstream(tmp.filePath("lib/bot/model.sdf").toStdString())
        << "<sdf version=\"1.8\"><model name=\"bot\"><link name=\"body\"/></model></sdf>\n";
    qputenv("MECHSIM_PACKAGE_PATH", tmp.filePath("lib").toUtf8());
    const MechanismSpec found = readMechanismFile(world);
    qunsetenv("MECHSIM_PACKAGE_PATH");
    bool body = false;
    for (const BodySpec& bs : found.bodies) body = body || bs.name.find("body") != std::string::npos;
    QVERIFY(body);
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
