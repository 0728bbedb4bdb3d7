// tests/io/test_load.cpp — tests core/io/load.cpp (and mesh.cpp through it): the native reader.
//   * the bad-file corpus tests/data/bad/*.json: each file's first line is
//     "// expect: LINE:COL: SUBSTRING", the exact location and a part of the message;
//   * generated hostile inputs (deep nesting, huge files);
//   * the good files of tests/data/good/ and every mechanisms/*.json, with their values in SI.
#include <QDir>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

#include "core/io/load.h"

using namespace mechsim;
using namespace mechsim::io;

namespace {
const QString kSource = QStringLiteral(MECHSIM_SOURCE_DIR);
constexpr double kPi = 3.14159265358979323846;
constexpr double kTight = 1e-12;  // values converted once (unit scale, normalisation)

std::string dataPath(const QString& rel) { return (kSource + "/tests/data/" + rel).toStdString(); }

bool near(const Vec3& a, const Vec3& b, double tol = kTight) { return (a - b).cwiseAbs().maxCoeff() <= tol; }
bool near(double a, double b, double tol = kTight) { return std::abs(a - b) <= tol; }
bool sameRotation(const Quat& a, const Quat& b, double tol = kTight) { return a.angularDistance(b) <= tol * 10; }

const BodySpec& body(const MechanismSpec& s, const std::string& n) {
  for (const auto& b : s.bodies)
    if (b.name == n) return b;
  throw std::runtime_error("no body " + n);
}
const JointSpec& joint(const MechanismSpec& s, const std::string& n) {
  for (const auto& j : s.joints)
    if (j.name == n) return j;
  throw std::runtime_error("no joint " + n);
}

LoadError loadErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const LoadError& e) {
    return e;
  }
  throw std::runtime_error("no LoadError thrown");
}
}  // namespace

class TestLoad : public QObject {
  Q_OBJECT
 private slots:
  // ---- the bad-file corpus ----
  void badCorpus_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("col");
    QTest::addColumn<QString>("substring");
    const QDir dir(kSource + "/tests/data/bad");
    const QRegularExpression re(R"(^// expect: (\d+):(\d+): (.+)$)");
    for (const QString& f : dir.entryList({"*.json"}, QDir::Files, QDir::Name)) {
      QFile in(dir.filePath(f));
      QVERIFY(in.open(QIODevice::ReadOnly));
      const QString first = QString::fromUtf8(in.readLine()).trimmed();
      const auto m = re.match(first);
      QVERIFY2(m.hasMatch(), qPrintable(f + ": first line is not '// expect: LINE:COL: SUBSTRING'"));
      QTest::newRow(qPrintable(f)) << dir.filePath(f) << m.captured(1).toInt() << m.captured(2).toInt()
                                   << m.captured(3);
    }
  }
  void badCorpus() {
    QFETCH(QString, file);
    QFETCH(int, line);
    QFETCH(int, col);
    QFETCH(QString, substring);
    QElapsedTimer timer;
    timer.start();
    try {
      readMechanismFile(file.toStdString());
      QFAIL("the file loaded without an error");
    } catch (const LoadError& e) {
      const Diagnostic& d = e.diagnostic();
      const QString what = QString::fromStdString(e.what());
      QVERIFY2(d.message.find(substring.toStdString()) != std::string::npos, qPrintable(what));
      QVERIFY2(d.line == line && d.col == col,
               qPrintable(QString("expected %1:%2, got: %3").arg(line).arg(col).arg(what)));
      // FILE:LINE:COL: error: MESSAGE
      QVERIFY2(what.startsWith(file + QString(":%1:%2: error: ").arg(line).arg(col)), qPrintable(what));
    }
    QVERIFY(timer.elapsed() < 2000);
  }
  void badCorpusIsLarge() {
    QDir dir(kSource + "/tests/data/bad");
    QVERIFY(dir.entryList({"*.json"}, QDir::Files).size() >= 35);
  }

  // ---- generated hostile inputs ----
  void absurdlyDeepNesting() {
    QElapsedTimer timer;
    timer.start();
    LoadError e = loadErrorOf([] { parseMechanism(std::string(100000, '['), "deep.json", "."); });
    QCOMPARE(e.diagnostic().line, 1);
    QCOMPARE(e.diagnostic().col, 65);
    QVERIFY(e.diagnostic().message.find("nesting is too deep") != std::string::npos);
    // Deep inside a valid-looking mechanism, through objects.
    std::string text = "{\"mechsim\": 1, \"name\": ";
    for (int i = 0; i < 100000; ++i) text += "{\"x\": [";
    e = loadErrorOf([&] { parseMechanism(text, "deep2.json", "."); });
    QVERIFY(e.diagnostic().message.find("nesting is too deep") != std::string::npos);
    QVERIFY(timer.elapsed() < 3000);
  }
  void hugeInput() {
    // 65 MiB: refused before parsing, both as text and as a file.
    std::string text = "{\"mechsim\": 1, \"name\": \"";
    text.append(std::size_t(65) << 20, 'x');
    text += "\", \"bodies\": [{\"name\": \"a\"}]}";
    LoadError e = loadErrorOf([&] { parseMechanism(text, "huge.json", "."); });
    QCOMPARE(e.diagnostic().line, 1);
    QVERIFY(e.diagnostic().message.find("too large") != std::string::npos);
    QTemporaryDir tmp;
    const std::string path = (tmp.path() + "/huge.json").toStdString();
    {
      std::ofstream out(path, std::ios::binary);
      out << text;
    }
    e = loadErrorOf([&] { readMechanismFile(path); });
    QVERIFY(e.diagnostic().message.find("too large") != std::string::npos);
  }
  // Names, keys and paths from a hostile file are quoted by their start: the diagnostic stays a
  // readable line, still located, still naming what is wrong.
  void longNamesShortenedInMessages() {
    const std::string longName(100000, 'x');
    const std::string text = "{\"mechsim\": 1, \"bodies\": [{\"name\": \"g\", \"fixed\": true}], \"joints\": [],\n"
                             "  \"drivers\": [{\"name\": \"d\", \"joint\": \"" + longName + "\", \"value\": \"t\", \"" +
                             longName + "\": 1}]}";
    const LoadError e = loadErrorOf([&] { parseMechanism(text, "long.json", "."); });
    const std::string what = e.what();
    QVERIFY2(what.size() < 400, what.substr(0, 400).c_str());
    QCOMPARE(e.diagnostic().line, 2);
    QVERIFY2(what.find(": unknown key \"" + std::string(80, 'x') + "...\" in a driver") != std::string::npos, what.c_str());
    // Short quoted parts, and a quoted part cut inside a multi-byte character, stay valid UTF-8.
    QCOMPARE(QString::fromStdString(shortenLongParts("a \"b\" c")), QString("a \"b\" c"));
    const std::string cut = shortenLongParts("\"" + std::string(79, 'y') + "\u00e9\u00e9\"");
    QCOMPARE(QString::fromStdString(cut), QString("\"" + QString(79, 'y') + "...\""));
  }
  // Directions and quaternions with components beyond 1e154 (whose plain norm overflows) are
  // normalised, not turned into zero vectors that a saved file would then refuse.
  void hugeComponentsNormalised() {
    const std::string text =
        "{\"mechsim\": 1, \"bodies\": [{\"name\": \"g\", \"fixed\": true}, {\"name\": \"b\", \"mass\": 1,"
        " \"inertia\": [1, 1, 1, 0, 0, 0], \"orientation\": {\"quaternion\": [0, 0, 0, 1e300]}}],"
        " \"joints\": [{\"name\": \"A\", \"type\": \"revolute\", \"body1\": \"g\", \"body2\": \"b\","
        " \"point\": [0, 0, 0], \"axis\": [0, 3e200, 4e200]}]}";
    const MechanismSpec s = parseMechanism(text, "huge.json", ".");
    QVERIFY((joint(s, "A").axis - Vec3(0, 0.6, 0.8)).norm() < 1e-15);
    const Quat q = body(s, "b").orientation;
    QVERIFY(std::abs(std::abs(q.z()) - 1) < 1e-15 && std::abs(q.w()) < 1e-15);
  }
  // A well-formed PLY passes the header check that guards Assimp's PLY reader (comments,
  // obj_info, CRLF line ends); the broken ones are in the bad corpus.
  void plyMeshRead() {
    const std::string text =
        "{\"mechsim\": 1, \"bodies\": [{\"name\": \"a\", \"mass\": 1, \"inertia\": [1, 1, 1, 0, 0, 0],"
        " \"shapes\": [{\"type\": \"mesh\", \"file\": \"triangle.ply\"}]}]}";
    const MechanismSpec s = parseMechanism(text, "ply.json", dataPath("meshes"));
    const ShapeSpec& m = body(s, "a").shapes.at(0);
    QVERIFY(m.mesh);
    QCOMPARE(int(m.mesh->indices.size()), 3);
  }
  void fileErrors() {
    LoadError e = loadErrorOf([] { readMechanismFile("/nonexistent/folder/x.json"); });
    QCOMPARE(e.diagnostic().line, 0);
    QCOMPARE(QString(e.what()), QString("/nonexistent/folder/x.json: error: no such file"));
    e = loadErrorOf([] { readMechanismFile(dataPath("good/robot.urdf")); });
    QVERIFY(e.diagnostic().message.find("no such file") != std::string::npos);  // imported formats: core/io/import
    e = loadErrorOf([] { readMechanismFile(dataPath("good")); });
    QVERIFY(e.diagnostic().message.find("folder") != std::string::npos);
    Diagnostic d{"a.json", 3, 7, "joints[0].axis: expected a non-zero 3-vector"};
    QCOMPARE(QString::fromStdString(d.format()), QString("a.json:3:7: error: joints[0].axis: expected a non-zero 3-vector"));
  }

  // ---- good files ----
  void goodFiles_data() {
    QTest::addColumn<QString>("file");
    for (const QString& folder : {QString("tests/data/good"), QString("mechanisms")}) {
      const QDir dir(kSource + "/" + folder);
      for (const QString& f : dir.entryList({"*.json"}, QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(folder + "/" + f)) << dir.filePath(f);
    }
  }
  void goodFiles() {
    QFETCH(QString, file);
    try {
      const MechanismSpec s = readMechanismFile(file.toStdString());
      QVERIFY(!s.bodies.empty());
      QCOMPARE(QString::fromStdString(s.sourceFile), file);
      // Every body, joint and driver has its location recorded.
      for (std::size_t i = 0; i < s.bodies.size(); ++i)
        QVERIFY(s.locations.count("bodies[" + std::to_string(i) + "].name"));
      for (std::size_t i = 0; i < s.joints.size(); ++i)
        QVERIFY(s.locations.count("joints[" + std::to_string(i) + "].type"));
      for (std::size_t i = 0; i < s.drivers.size(); ++i)
        QVERIFY(s.locations.count("drivers[" + std::to_string(i) + "].value"));
      for (const auto& b : s.bodies)
        for (const auto& sh : b.shapes)
          if (sh.type == ShapeType::Mesh) QVERIFY(sh.mesh && !sh.mesh->indices.empty());
    } catch (const LoadError& e) {
      QFAIL(e.what());
    }
  }

  void allFeatures() {
    const MechanismSpec s = readMechanismFile(dataPath("good/all_features.json"));
    QCOMPARE(s.version, 1);
    QCOMPARE(s.name, std::string("all features \xC3\xA9\xF0\x9F\x98\x80"));
    QVERIFY(near(s.gravity, Vec3(0, -9.81, 0)));
    QCOMPARE(int(s.bodies.size()), 9);

    const BodySpec& g = body(s, "ground");
    QVERIFY(g.fixed);
    QCOMPARE(*g.mass, 5.0);  // allowed on a fixed body (ignored by compile)
    QCOMPARE(g.color, std::string("#808080"));

    const BodySpec& c = body(s, "crank");
    QVERIFY(!c.fixed);
    QVERIFY(near(c.position, Vec3(0.1, 0, 0)));
    QVERIFY(sameRotation(c.orientation, Quat(Eigen::AngleAxisd(0.5, Vec3::UnitZ()))));  // axis [0,0,2] normalised
    QCOMPARE(*c.mass, 1.5);
    QVERIFY(c.comGiven);
    QVERIFY(near(c.com, Vec3(0.05, 0, 0)));
    QVERIFY(c.inertia && near((*c.inertia)[1], 0.002));
    QCOMPARE(c.color, std::string("#C04020"));
    QCOMPARE(int(c.shapes.size()), 5);
    const ShapeSpec& box = c.shapes[0];
    QCOMPARE(box.type, ShapeType::Box);
    QVERIFY(near(box.size, Vec3(0.1, 0.02, 0.02)));
    QVERIFY(near(box.position, Vec3(0.05, 0, 0)));
    // rpy = fixed axes X, Y, Z: R = Rz(y) Ry(p) Rx(r), as URDF.
    const Quat rpy = Eigen::AngleAxisd(0.3, Vec3::UnitZ()) * Eigen::AngleAxisd(0.2, Vec3::UnitY()) *
                     Eigen::AngleAxisd(0.1, Vec3::UnitX());
    QVERIFY(sameRotation(box.orientation, rpy));
    QCOMPARE(box.color, std::string("#112233"));
    QCOMPARE(c.shapes[1].type, ShapeType::Cylinder);
    QCOMPARE(c.shapes[1].radius, 0.01);
    QCOMPARE(c.shapes[1].length, 0.03);
    QCOMPARE(c.shapes[2].type, ShapeType::Sphere);
    QCOMPARE(c.shapes[3].type, ShapeType::Capsule);
    QVERIFY(near(c.shapes[3].axis, Vec3::UnitX()));
    const ShapeSpec& stl = c.shapes[4];
    QCOMPARE(stl.type, ShapeType::Mesh);
    QCOMPARE(stl.file, std::string("../meshes/tetra.stl"));
    QVERIFY(QString::fromStdString(stl.resolvedFile).endsWith("tests/data/meshes/tetra.stl"));
    QVERIFY(QDir::isAbsolutePath(QString::fromStdString(stl.resolvedFile)));
    QCOMPARE(stl.scale, 0.001);
    QVERIFY(stl.mesh);
    QCOMPARE(int(stl.mesh->indices.size()), 12);  // 4 triangles
    QCOMPARE(stl.mesh->normals.size(), stl.mesh->vertices.size());
    const ShapeSpec& obj = c.visuals.at(0);
    QCOMPARE(int(obj.mesh->indices.size()), 36);   // 6 quads → 12 triangles
    QVERIFY(obj.mesh->vertices.size() >= 8);
    float maxc = 0;
    for (const auto& v : obj.mesh->vertices) maxc = std::max(maxc, v.cwiseAbs().maxCoeff());
    QCOMPARE(maxc, 0.5f);

    const BodySpec& b = body(s, "block");
    QVERIFY(!b.mass);
    QCOMPARE(*b.density, 7800.0);
    QVERIFY(!b.comGiven);
    QVERIFY(sameRotation(b.orientation, Quat::Identity()));  // [2,0,0,0] normalised
    QCOMPARE(b.shapes[1].mesh.get(), stl.mesh.get());       // one load per file
    QVERIFY(sameRotation(body(s, "c1").orientation, Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()))));

    const JointSpec& A = joint(s, "A");
    QCOMPARE(A.type, JointType::Revolute);
    QCOMPARE(A.body1, std::string("ground"));
    QVERIFY(A.limits && near(A.limits->first, -3) && near(A.limits->second, 3));
    QVERIFY(near(joint(s, "S").axis, Vec3::UnitX()));  // [2,0,0] normalised
    QCOMPARE(joint(s, "C").type, JointType::Cylindrical);
    QCOMPARE(joint(s, "B").type, JointType::Spherical);
    QVERIFY(near(joint(s, "B").point, Vec3(0, 1, 0)));
    const JointSpec& U = joint(s, "U");
    QVERIFY(near(U.axis1, Vec3::UnitX()) && near(U.axis2, Vec3::UnitZ()));
    QVERIFY(near(joint(s, "P").normal, -Vec3::UnitZ()));
    QCOMPARE(joint(s, "W").type, JointType::Fixed);
    const JointSpec& R = joint(s, "R");
    QVERIFY(near(R.point1, Vec3(0.2, 0, 0)) && near(R.point2, Vec3(1, 0, 0)));
    QVERIFY(R.length && near(*R.length, 0.8));
    QVERIFY(R.limits && near(R.limits->second, 0.2));
    QVERIFY(!joint(s, "R2").length);

    QCOMPARE(int(s.drivers.size()), 4);
    QCOMPARE(s.drivers[0].expression, std::string("2 * pi * t"));
    QCOMPARE(s.drivers[2].coordinate, 1);
    QCOMPARE(s.drivers[3].coordinate, 2);
    QCOMPARE(int(s.handles.size()), 2);
    QCOMPARE(s.handles[1].body, std::string("block"));
    QVERIFY(near(s.handles[1].point, Vec3(1, 0.05, 0)));

    // Locations: the value of joints[0].axis starts on line 40, column 105 of the file.
    const SourceLoc axis = s.locations.at("joints[0].axis");
    QCOMPARE(axis.line, 40);
    QCOMPARE(axis.col, 105);
    QCOMPARE(s.locate("joints[0].axis[2]").line, 40);
    QCOMPARE(s.locations.at("").line, 4);
    QCOMPARE(s.locations.at("bodies[1]").line, 12);
  }

  void unitsAreConvertedToSI() {
    const MechanismSpec s = readMechanismFile(dataPath("good/fourbar_mm_deg.json"));
    QCOMPARE(s.units.length, std::string("mm"));
    QCOMPARE(s.units.angle, std::string("deg"));
    QVERIFY(near(s.gravity, Vec3(0, 0, -9.81)));
    const BodySpec& c = body(s, "crank");
    QVERIFY(near(c.com, Vec3(0.025, 0, 0)));
    QVERIFY(near((*c.inertia)[0], 10e-6) && near((*c.inertia)[1], 200e-6));  // kg·mm² → kg·m²
    QVERIFY(sameRotation(c.orientation, Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()))));
    QVERIFY(near(c.shapes[0].radius, 0.005) && near(c.shapes[0].length, 0.05));
    QVERIFY(near(c.shapes[0].position, Vec3(0.025, 0, 0)));
    QVERIFY(near(c.shapes[1].scale, 0.01));  // file scale 10, mm → m
    QCOMPARE(*body(s, "coupler").density, 2700.0);  // kg/m³ whatever the length unit
    QVERIFY(near(body(s, "coupler").shapes[0].size, Vec3(0.2, 0.01, 0.01)));
    QVERIFY(sameRotation(body(s, "rocker").orientation, Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitZ()))));
    QVERIFY(near(joint(s, "C").point, Vec3(0.2, 0.15, 0)));
    QVERIFY(near(joint(s, "A").limits->first, -kPi) && near(joint(s, "A").limits->second, kPi));
    QVERIFY(near(joint(s, "S").limits->first, -0.01) && near(joint(s, "S").limits->second, 0.02));
    QVERIFY(near(s.handles[0].point, Vec3(0.1, 0.1, 0)));
    QCOMPARE(s.drivers[0].expression, std::string("360 * t"));  // kept in file units

    const MechanismSpec cm = readMechanismFile(dataPath("good/slider_cm.json"));
    QCOMPARE(cm.units.angle, std::string("rad"));
    QVERIFY(near(body(cm, "slider").position, Vec3(0.4, 0, 0)));
    QVERIFY(near(body(cm, "crank").shapes[0].size, Vec3(0.1, 0.01, 0.01)));
  }

  void parseFromText() {
    // parseMechanism names the file in diagnostics and resolves meshes against baseDir.
    const std::string text = R"({"mechsim": 1, "bodies": [{"name": "a", "shapes": [{"type": "mesh", "file": "tetra.stl"}]}]})";
    const MechanismSpec s = parseMechanism(text, "inline.json", dataPath("meshes"));
    QCOMPARE(int(s.bodies[0].shapes[0].mesh->indices.size()), 12);
    const LoadError e = loadErrorOf([&] { parseMechanism(text, "inline.json", "/nonexistent"); });
    QCOMPARE(e.diagnostic().file, std::string("inline.json"));
    QCOMPARE(e.diagnostic().col, 77);
    QVERIFY(e.diagnostic().message.find("mesh file not found: /nonexistent/tetra.stl") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(TestLoad)
#include "test_load.moc"
