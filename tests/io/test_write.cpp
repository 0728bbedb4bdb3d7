// tests/io/test_write.cpp — tests core/io/write.cpp: writing the native format (read → write →
// read reproduces the spec, every field, to 1e-12) and the atomic file writer.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/io/load.h"
#include "core/io/write.h"

using namespace mechsim;
using namespace mechsim::io;

namespace {
const QString kSource = QStringLiteral(MECHSIM_SOURCE_DIR);
constexpr double kTol = 1e-12;  // values pass through one unit conversion each way

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Compares two specs field by field; returns the first difference ("" when equal).
struct Cmp {
  std::string diff;
  void num(const std::string& p, double a, double b) {
    if (diff.empty() && !(std::abs(a - b) <= kTol * std::max(1.0, std::abs(a)))) diff = p + ": " + std::to_string(a) + " vs " + std::to_string(b);
  }
  void vec(const std::string& p, const Vec3& a, const Vec3& b) {
    for (int i = 0; i < 3; ++i) num(p + "[" + std::to_string(i) + "]", a[i], b[i]);
  }
  void quat(const std::string& p, const Quat& a, const Quat& b) {
    num(p + ".w", a.w(), b.w());
    vec(p + ".xyz", a.vec(), b.vec());
  }
  void str(const std::string& p, const std::string& a, const std::string& b) {
    if (diff.empty() && a != b) diff = p + ": \"" + a + "\" vs \"" + b + "\"";
  }
  void flag(const std::string& p, bool a, bool b) {
    if (diff.empty() && a != b) diff = p + ": differs";
  }
  void optNum(const std::string& p, const std::optional<double>& a, const std::optional<double>& b) {
    flag(p + " (presence)", a.has_value(), b.has_value());
    if (a && b) num(p, *a, *b);
  }
  void shape(const std::string& p, const ShapeSpec& a, const ShapeSpec& b) {
    flag(p + ".type", a.type == b.type, true);
    vec(p + ".size", a.size, b.size);
    num(p + ".radius", a.radius, b.radius);
    num(p + ".length", a.length, b.length);
    vec(p + ".axis", a.axis, b.axis);
    vec(p + ".position", a.position, b.position);
    quat(p + ".orientation", a.orientation, b.orientation);
    str(p + ".file", a.file, b.file);
    str(p + ".resolvedFile", a.resolvedFile, b.resolvedFile);
    num(p + ".scale", a.scale, b.scale);
    str(p + ".color", a.color, b.color);
    flag(p + ".mesh", bool(a.mesh), bool(b.mesh));
    if (a.mesh && b.mesh) flag(p + ".mesh.indices", a.mesh->indices == b.mesh->indices, true);
  }
  void spec(const MechanismSpec& a, const MechanismSpec& b) {
    num("version", a.version, b.version);
    str("name", a.name, b.name);
    str("units.length", a.units.length, b.units.length);
    str("units.angle", a.units.angle, b.units.angle);
    vec("gravity", a.gravity, b.gravity);
    flag("bodies.size", a.bodies.size() == b.bodies.size(), true);
    for (std::size_t i = 0; diff.empty() && i < a.bodies.size(); ++i) {
      const BodySpec &x = a.bodies[i], &y = b.bodies[i];
      const std::string p = "bodies[" + std::to_string(i) + "]";
      str(p + ".name", x.name, y.name);
      flag(p + ".fixed", x.fixed, y.fixed);
      vec(p + ".position", x.position, y.position);
      quat(p + ".orientation", x.orientation, y.orientation);
      optNum(p + ".mass", x.mass, y.mass);
      optNum(p + ".density", x.density, y.density);
      vec(p + ".com", x.com, y.com);
      flag(p + ".comGiven", x.comGiven, y.comGiven);
      flag(p + ".inertia", x.inertia.has_value(), y.inertia.has_value());
      if (x.inertia && y.inertia)
        for (int k = 0; k < 6; ++k) num(p + ".inertia", (*x.inertia)[k], (*y.inertia)[k]);
      flag(p + ".shapes.size", x.shapes.size() == y.shapes.size(), true);
      for (std::size_t k = 0; diff.empty() && k < x.shapes.size(); ++k) shape(p + ".shapes", x.shapes[k], y.shapes[k]);
      flag(p + ".visuals.size", x.visuals.size() == y.visuals.size(), true);
      for (std::size_t k = 0; diff.empty() && k < x.visuals.size(); ++k) shape(p + ".visuals", x.visuals[k], y.visuals[k]);
      str(p + ".color", x.color, y.color);
    }
    flag("joints.size", a.joints.size() == b.joints.size(), true);
    for (std::size_t i = 0; diff.empty() && i < a.joints.size(); ++i) {
      const JointSpec &x = a.joints[i], &y = b.joints[i];
      const std::string p = "joints[" + std::to_string(i) + "]";
      str(p + ".name", x.name, y.name);
      flag(p + ".type", x.type == y.type, true);
      str(p + ".body1", x.body1, y.body1);
      str(p + ".body2", x.body2, y.body2);
      vec(p + ".point", x.point, y.point);
      vec(p + ".axis", x.axis, y.axis);
      vec(p + ".axis1", x.axis1, y.axis1);
      vec(p + ".axis2", x.axis2, y.axis2);
      vec(p + ".normal", x.normal, y.normal);
      vec(p + ".point1", x.point1, y.point1);
      vec(p + ".point2", x.point2, y.point2);
      optNum(p + ".length", x.length, y.length);
      flag(p + ".limits", x.limits.has_value(), y.limits.has_value());
      if (x.limits && y.limits) {
        num(p + ".limits[0]", x.limits->first, y.limits->first);
        num(p + ".limits[1]", x.limits->second, y.limits->second);
      }
    }
    flag("drivers.size", a.drivers.size() == b.drivers.size(), true);
    for (std::size_t i = 0; diff.empty() && i < a.drivers.size(); ++i) {
      const std::string p = "drivers[" + std::to_string(i) + "]";
      str(p + ".name", a.drivers[i].name, b.drivers[i].name);
      str(p + ".joint", a.drivers[i].joint, b.drivers[i].joint);
      str(p + ".expression", a.drivers[i].expression, b.drivers[i].expression);
      num(p + ".coordinate", a.drivers[i].coordinate, b.drivers[i].coordinate);
    }
    flag("handles.size", a.handles.size() == b.handles.size(), true);
    for (std::size_t i = 0; diff.empty() && i < a.handles.size(); ++i) {
      const std::string p = "handles[" + std::to_string(i) + "]";
      str(p + ".name", a.handles[i].name, b.handles[i].name);
      str(p + ".body", a.handles[i].body, b.handles[i].body);
      vec(p + ".point", a.handles[i].point, b.handles[i].point);
    }
    flag("deformables.size", a.deformables.size() == b.deformables.size(), true);
    for (std::size_t i = 0; diff.empty() && i < a.deformables.size(); ++i) {
      const DeformableSpec &x = a.deformables[i], &y = b.deformables[i];
      const std::string p = "deformables[" + std::to_string(i) + "]";
      str(p + ".name", x.name, y.name);
      str(p + ".meshType", x.meshType, y.meshType);
      str(p + ".resolvedFile", x.resolvedFile, y.resolvedFile);
      flag(p + ".vertices.size", x.vertices.size() == y.vertices.size(), true);
      for (std::size_t k = 0; diff.empty() && k < x.vertices.size(); ++k) vec(p + ".vertices", x.vertices[k], y.vertices[k]);
      flag(p + ".tets", x.tets == y.tets, true);
      str(p + ".material", x.material, y.material);
      num(p + ".youngs", x.youngs, y.youngs);
      num(p + ".poisson", x.poisson, y.poisson);
      num(p + ".density", x.density, y.density);
      flag(p + ".pinned", x.pinned == y.pinned, true);
      flag(p + ".pinnedBox", x.pinnedBox.has_value(), y.pinnedBox.has_value());
      flag(p + ".attachments.size", x.attachments.size() == y.attachments.size(), true);
      for (std::size_t k = 0; diff.empty() && k < x.attachments.size(); ++k) {
        str(p + ".attachments.body", x.attachments[k].body, y.attachments[k].body);
        flag(p + ".attachments.vertices", x.attachments[k].vertices == y.attachments[k].vertices, true);
        flag(p + ".attachments.box", x.attachments[k].box.has_value(), y.attachments[k].box.has_value());
      }
      str(p + ".solver", x.solver, y.solver);
      str(p + ".stepControl", x.stepControl, y.stepControl);
      flag(p + ".maxIterations", x.maxIterations == y.maxIterations, true);
      num(p + ".tolerance", x.tolerance, y.tolerance);
      flag(p + ".modes", x.modes == y.modes, true);
    }
  }
};

std::string differences(const MechanismSpec& a, const MechanismSpec& b) {
  Cmp c;
  c.spec(a, b);
  return c.diff;
}
}  // namespace

class TestWrite : public QObject {
  Q_OBJECT
 private slots:
  void roundTrip_data() {
    QTest::addColumn<QString>("file");
    for (const QString& folder : {QString("tests/data/good"), QString("mechanisms")}) {
      const QDir dir(kSource + "/" + folder);
      for (const QString& f : dir.entryList({"*.json"}, QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(folder + "/" + f)) << dir.filePath(f);
    }
  }
  void roundTrip() {
    QFETCH(QString, file);
    const MechanismSpec a = readMechanismFile(file.toStdString());
    const std::string text = writeMechanism(a);
    const std::string baseDir = QFileInfo(file).absolutePath().toStdString();
    MechanismSpec b;
    try {
      b = parseMechanism(text, "written.json", baseDir);
    } catch (const LoadError& e) {
      QFAIL(qPrintable(QString("written text does not read back: ") + e.what() + "\n" + QString::fromStdString(text)));
    }
    const std::string d = differences(a, b);
    QVERIFY2(d.empty(), d.c_str());
    // Writing what was read back gives the same text: saving a saved file again changes nothing
    // (no last digit of a normalised axis or quaternion moving on every save).
    QCOMPARE(QString::fromStdString(writeMechanism(b)), QString::fromStdString(text));
    // A second round trip changes nothing either (no drift from repeated unit conversions).
    const MechanismSpec c = parseMechanism(writeMechanism(b), "written2.json", baseDir);
    const std::string d2 = differences(a, c);
    QVERIFY2(d2.empty(), d2.c_str());
  }

  void writesInTheFileUnits() {
    const MechanismSpec s = readMechanismFile((kSource + "/tests/data/good/fourbar_mm_deg.json").toStdString());
    const QString text = QString::fromStdString(writeMechanism(s));
    QVERIFY(text.contains("\"units\": { \"length\": \"mm\", \"angle\": \"deg\" }"));
    QVERIFY(text.contains("\"com\": [25, 0, 0]"));
    QVERIFY(text.contains("\"limits\": [-180, 180]"));
    QVERIFY(!text.contains("\"gravity\""));  // -9810 mm/s² is the default -9.81 m/s²: left out
    QVERIFY(text.contains("\"value\": \"360 * t\""));
    QVERIFY(text.startsWith("{\n  \"mechsim\": 1,\n"));
    QVERIFY(text.contains("\"quaternion\": ["));
  }

  void specBuiltInCode() {
    // A spec that never saw a file: defaults are left out, everything else comes back.
    MechanismSpec s;
    s.name = "code";
    s.units.length = "cm";
    s.units.angle = "deg";
    BodySpec g;
    g.name = "g";
    g.fixed = true;
    BodySpec b;
    b.name = "b";
    b.position = Vec3(0.01, 0.02, 0.03);
    b.orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
    b.mass = 2.5;
    b.com = Vec3(0.001, 0, 0);
    b.comGiven = true;
    Eigen::Matrix<double, 6, 1> I;
    I << 0.01, 0.02, 0.025, 0.001, -0.002, 0.0005;
    b.inertia = I;
    ShapeSpec sh;
    sh.type = ShapeType::Capsule;
    sh.radius = 0.005;
    sh.length = 0.1;
    sh.axis = Vec3(0, 1, 0);
    sh.color = "#010203";
    sh.orientation = Quat(Eigen::AngleAxisd(0.1, Vec3::UnitX()));
    b.shapes.push_back(sh);
    s.bodies = {g, b};
    JointSpec j;
    j.name = "J";
    j.type = JointType::Universal;
    j.body1 = "g";
    j.body2 = "b";
    j.point = Vec3(0.1, 0, 0);
    j.axis1 = Vec3(0, 0, 1);
    j.axis2 = Vec3(1, 0, 0);
    s.joints.push_back(j);
    s.drivers.push_back({"m", "J", "10 * sin(t)", 1});
    s.handles.push_back({"h", "b", Vec3(0.5, 0.25, 0)});
    const std::string text = writeMechanism(s);
    QVERIFY(text.find("\"fixed\": true") != std::string::npos);
    QVERIFY(text.find("\"coordinate\": 1") != std::string::npos);
    QVERIFY(text.find("\"gravity\"") == std::string::npos);  // default left out
    const MechanismSpec r = parseMechanism(text, "code.json", ".");
    const std::string d = differences(s, r);
    QVERIFY2(d.empty(), d.c_str());
  }

  void atomicWriteReplaces() {
    QTemporaryDir tmp;
    const std::string path = (tmp.path() + "/out.json").toStdString();
    writeFileAtomically(path, "first");
    QCOMPARE(QString::fromStdString(readAll(path)), QString("first"));
    ::chmod(path.c_str(), 0640);
    writeFileAtomically(path, "second, longer");
    QCOMPARE(QString::fromStdString(readAll(path)), QString("second, longer"));
    struct stat st {};
    QCOMPARE(::stat(path.c_str(), &st), 0);
    QCOMPARE(int(st.st_mode & 0777), 0640);  // permissions of the replaced file kept
    // No temporary file is left behind.
    QCOMPARE(QDir(tmp.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
  }

  void readerNeverSeesHalfAFile() {
    // A reader polling the file while it is rewritten many times sees one complete version or
    // the other, never a mix or a truncation.
    QTemporaryDir tmp;
    const std::string path = (tmp.path() + "/big.csv").toStdString();
    const std::string a(1 << 20, 'a'), b(3 << 19, 'b');
    writeFileAtomically(path, a);
    std::atomic<bool> stop{false};
    std::atomic<int> bad{0}, reads{0};
    std::thread reader([&] {
      while (!stop) {
        const std::string s = readAll(path);
        if (s != a && s != b) ++bad;
        ++reads;
      }
    });
    for (int i = 0; i < 40; ++i) writeFileAtomically(path, i % 2 ? a : b);
    stop = true;
    reader.join();
    QCOMPARE(bad.load(), 0);
    QVERIFY(reads.load() > 0);
  }

  void writeFailsCleanly() {
    QTemporaryDir tmp;
    // A missing folder: a clear error and nothing created.
    const std::string missing = (tmp.path() + "/no/such/folder/x.json").toStdString();
    try {
      writeFileAtomically(missing, "x");
      QFAIL("no error");
    } catch (const std::runtime_error& e) {
      const QString m = e.what();
      QVERIFY2(m.startsWith("cannot write '" + QString::fromStdString(missing) + "'"), e.what());
      QVERIFY2(m.contains("No such file or directory"), e.what());
    }
    QVERIFY(!QFile::exists(QString::fromStdString(missing)));
    // The target is a folder: rename fails, the temporary file is removed.
    QDir(tmp.path()).mkdir("adir");
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, writeFileAtomically((tmp.path() + "/adir").toStdString(), "x"));
    QCOMPARE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(), 1);
    // The mechanism writer reports the same way.
    MechanismSpec s;
    s.bodies.push_back(BodySpec{});
    s.bodies[0].name = "a";
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, writeMechanismFile(s, missing));
  }

  void writeMechanismFileRebasesMeshPaths() {
    // Written into another folder, relative mesh paths still point at the same mesh files.
    const MechanismSpec a = readMechanismFile((kSource + "/tests/data/good/all_features.json").toStdString());
    QTemporaryDir tmp;
    const std::string out = (tmp.path() + "/sub/copy.json").toStdString();
    QDir(tmp.path()).mkdir("sub");
    writeMechanismFile(a, out);
    const MechanismSpec b = readMechanismFile(out);
    QCOMPARE(b.bodies[1].shapes[4].resolvedFile, a.bodies[1].shapes[4].resolvedFile);
    QVERIFY(b.bodies[1].shapes[4].file != a.bodies[1].shapes[4].file);
    QVERIFY(b.bodies[1].shapes[4].mesh);
  }
};

QTEST_GUILESS_MAIN(TestWrite)
#include "test_write.moc"
