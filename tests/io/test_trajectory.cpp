// tests/io/test_trajectory.cpp — tests core/io/trajectory.cpp: the trajectory CSV columns and
// numbers exactly as FORMAT.md §3, the JSON form, and the refusal to write non-finite values;
// core/io/vtk.cpp: a two-tet .vtu and a two-triangle .vtp read number by number, the .pvd series,
// the same refusals, and file stems made safe.
#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/io/json_value.h"
#include "core/io/trajectory.h"
#include "core/io/vtk.h"

using namespace mechsim;
using namespace mechsim::io;

namespace {
// A hand-made model (no compile needed): fixed "ground", moving "crank" and "block", joints
// A (1 coordinate) and C (2 coordinates), so coordNames = A, C.0, C.1.
Model makeModel() {
  Model m;
  m.name = "traj \"test\"";
  Body g;
  g.name = "ground";
  g.fixed = true;
  Body c;
  c.name = "crank";
  c.qIndex = 0;
  Body b;
  b.name = "block";
  b.qIndex = 7;
  m.bodies = {g, c, b};
  m.nq = 14;
  m.nMoving = 2;
  m.nCoords = 3;
  m.coordNames = {"A", "C.0", "C.1"};
  return m;
}

TrajectoryFrame makeFrame(double t) {
  TrajectoryFrame f;
  f.t = t;
  f.q = VecX::Zero(14);
  f.q.segment<3>(0) = Vec3(0.1, 0.2, 0.3);
  f.q.segment<4>(3) << 2, 0, 0, 0;  // not normalised: written normalised
  f.q.segment<3>(7) = Vec3(1, 2, 3);
  f.q.segment<4>(10) << std::sqrt(0.5), 0, 0, std::sqrt(0.5);
  f.qd = VecX::LinSpaced(14, 1, 14);
  f.qdd = VecX::LinSpaced(14, -1, -14);
  f.coords = Vec3(0.5, 1.0 / 3.0, -2);
  f.coordVel = Vec3(10, 20, 30);
  f.coordAcc = Vec3(-10, -20, -30);
  return f;
}

QStringList split(const std::string& csvLine) { return QString::fromStdString(csvLine).split(','); }
}  // namespace

class TestTrajectory : public QObject {
  Q_OBJECT
 private slots:
  void headerAsFormat3() {
    const Model m = makeModel();
    const std::string csv = trajectoryCsv(m, {}, false);
    QCOMPARE(QString::fromStdString(csv),
             QString("t,A,C.0,C.1,crank.x,crank.y,crank.z,crank.qw,crank.qx,crank.qy,crank.qz,"
                     "block.x,block.y,block.z,block.qw,block.qx,block.qy,block.qz\n"));
    const std::string withRates = trajectoryCsv(m, {}, true);
    QCOMPARE(QString::fromStdString(withRates),
             QString("t,A,C.0,C.1,crank.x,crank.y,crank.z,crank.qw,crank.qx,crank.qy,crank.qz,"
                     "block.x,block.y,block.z,block.qw,block.qx,block.qy,block.qz,"
                     "A.vel,C.0.vel,C.1.vel,A.acc,C.0.acc,C.1.acc,"
                     "crank.vx,crank.vy,crank.vz,block.vx,block.vy,block.vz,"
                     "crank.ax,crank.ay,crank.az,block.ax,block.ay,block.az\n"));
  }

  void rowValues() {
    const Model m = makeModel();
    const std::string csv = trajectoryCsv(m, {makeFrame(0.1), makeFrame(0.2)}, true);
    std::istringstream in(csv);
    std::string header, row1, row2, extra;
    std::getline(in, header);
    std::getline(in, row1);
    std::getline(in, row2);
    QVERIFY(!std::getline(in, extra));
    const QStringList h = split(header), r = split(row1);
    QCOMPARE(r.size(), h.size());
    auto col = [&](const char* name) { return r.at(h.indexOf(name)); };
    QCOMPARE(col("t"), QString("0.10000000000000001"));  // %.17g
    QCOMPARE(col("C.0"), QString("0.33333333333333331"));
    QCOMPARE(col("A"), QString("0.5"));
    QCOMPARE(col("crank.x"), QString("0.10000000000000001"));
    QCOMPARE(col("crank.qw"), QString("1"));  // [2,0,0,0] normalised
    QCOMPARE(col("block.z"), QString("3"));
    QCOMPARE(col("block.qz").toDouble(), std::sqrt(0.5));
    QCOMPARE(col("C.1.vel"), QString("30"));
    QCOMPARE(col("A.acc"), QString("-10"));
    QCOMPARE(col("crank.vx"), QString("1"));   // qd[0..2]
    QCOMPARE(col("block.vz"), QString("10"));  // qd[7 + 2]
    QCOMPARE(col("crank.ay"), QString("-2"));
    QCOMPARE(col("block.ax"), QString("-8"));
    QCOMPARE(split(row2).at(0), QString("0.20000000000000001"));
  }

  void neverWritesNaN() {
    const Model m = makeModel();
    TrajectoryFrame f = makeFrame(0.5);
    f.coords[1] = std::nan("");
    try {
      trajectoryCsv(m, {f}, false);
      QFAIL("no error");
    } catch (const std::invalid_argument& e) {
      QVERIFY2(QString(e.what()).contains("'C.0' at t = 0.5 is not finite"), e.what());
    }
    f = makeFrame(0.5);
    f.qdd[8] = INFINITY;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trajectoryCsv(m, {f}, true));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trajectoryJson(m, {f}, true));
    // Without rates, qdd is not written and not checked.
    QVERIFY(!trajectoryCsv(m, {f}, false).empty());
  }

  void sizesAreChecked() {
    const Model m = makeModel();
    TrajectoryFrame f = makeFrame(0);
    f.q.resize(13);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trajectoryCsv(m, {f}, false));
    f = makeFrame(0);
    f.qd.resize(0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trajectoryCsv(m, {f}, true));
    QVERIFY(!trajectoryCsv(m, {f}, false).empty());  // rates not requested: qd may be empty
  }

  void json() {
    const Model m = makeModel();
    const std::string text = trajectoryJson(m, {makeFrame(0), makeFrame(0.25)}, true);
    const json::Value v = json::parse(text);  // valid JSON
    QCOMPARE(v.find("format")->string, std::string("mechsim-trajectory"));
    QCOMPARE(v.find("version")->number, 1.0);
    QCOMPARE(v.find("model")->string, m.name);
    const auto& cols = v.find("columns")->items;
    const auto names = trajectoryColumns(m, true);
    QCOMPARE(cols.size(), names.size());
    for (std::size_t i = 0; i < names.size(); ++i) QCOMPARE(cols[i].string, names[i]);
    const auto& rows = v.find("rows")->items;
    QCOMPARE(int(rows.size()), 2);
    QCOMPARE(rows[1].items.size(), names.size());
    QCOMPARE(rows[1].items[0].number, 0.25);
    const auto expect = trajectoryRow(m, makeFrame(0.25), true);
    for (std::size_t i = 0; i < expect.size(); ++i) QCOMPARE(rows[1].items[i].number, expect[i]);  // exact
    // No frames: still a valid document.
    QCOMPARE(int(json::parse(trajectoryJson(m, {}, false)).find("rows")->items.size()), 0);
  }

  void vtkFiles() {
    // Two tets sharing a face; a point field and a cell field. The text holds the counts, the
    // numbers in order (12 significant digits), the connectivity, offsets 4, 8 and types 10.
    const std::vector<std::array<int, 4>> tets = {{0, 1, 2, 3}, {1, 2, 3, 4}};
    VecX x(15);
    x << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1.0 / 3, 1, 1;
    const std::vector<VtkField> points = {{"speed", 1, {0, 1, 2, 3, 4.5}}};
    const std::vector<VtkField> cells = {{"von_mises", 1, {10, 2e6}}};
    const std::string text = vtuText(tets, x, points, cells);
    QVERIFY(text.find("NumberOfPoints=\"5\" NumberOfCells=\"2\"") != std::string::npos);
    QVERIFY(text.find("Name=\"speed\" NumberOfComponents=\"1\" format=\"ascii\">\n0 1 2 3 4.5\n") != std::string::npos);
    QVERIFY(text.find("Name=\"von_mises\" NumberOfComponents=\"1\" format=\"ascii\">\n10 2000000\n") != std::string::npos);
    QVERIFY(text.find("0 0 0 1 0 0 0 1\n0 0 0 1 0.333333333333 1 1\n") != std::string::npos);
    QVERIFY(text.find("connectivity\" format=\"ascii\">\n0 1 2 3\n1 2 3 4\n") != std::string::npos);
    QVERIFY(text.find("offsets\" format=\"ascii\">\n4 8\n") != std::string::npos);
    QVERIFY(text.find("types\" format=\"ascii\">\n10 10\n") != std::string::npos);
    QVERIFY(text.rfind("</VTKFile>\n") == text.size() - 11);
    // Refusals: NaN anywhere, a field of the wrong length, a tet naming a missing point.
    VecX bad = x;
    bad(7) = std::nan("");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vtuText(tets, bad, points, cells));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vtuText(tets, x, {{"speed", 1, {0, 1}}}, cells));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vtuText(tets, x, points, {{"v", 1, {1, std::nan("")}}}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vtuText({{0, 1, 2, 5}}, x, {}, {}));
    // The series: times and files in order, the file names escaped for XML.
    const std::string pvd = pvdText({{0.0, "a_000000.vtu"}, {0.25, "b&<\"c.vtu"}});
    QVERIFY(pvd.find("timestep=\"0\" group=\"\" part=\"0\" file=\"a_000000.vtu\"") != std::string::npos);
    QVERIFY(pvd.find("timestep=\"0.25\" group=\"\" part=\"0\" file=\"b&amp;&lt;&quot;c.vtu\"") != std::string::npos);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pvdText({{INFINITY, "a.vtu"}}));
    // A surface: PolyData with its triangles as polygons of three.
    const std::string vtp = vtpText({0, 1, 2, 1, 3, 2}, x.head(12), {{"normals", 3, std::vector<double>(12, 0.5)}});
    QVERIFY(vtp.find("<VTKFile type=\"PolyData\"") != std::string::npos);
    QVERIFY(vtp.find("NumberOfPoints=\"4\" NumberOfVerts=\"0\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"2\"") !=
            std::string::npos);
    QVERIFY(vtp.find("<Polys>\n        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n0 1 2\n1 3 2\n") !=
            std::string::npos);
    QVERIFY(vtp.find("offsets\" format=\"ascii\">\n3 6\n") != std::string::npos);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vtpText({0, 1, 4}, x.head(12), {}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, vtpText({0, 1}, x.head(12), {}));
    QCOMPARE(fileStem("strap"), std::string("strap"));
    QCOMPARE(fileStem("../left arm/é"), std::string("_._left_arm___"));
    QCOMPARE(fileStem(""), std::string("part"));
    QCOMPARE(fileStems({"a b", "a/b", "c", "a_b"}), (std::vector<std::string>{"a_b", "a_b-2", "c", "a_b-4"}));
    QCOMPARE(fileStems({"x-3", "x", "x"}), (std::vector<std::string>{"x-3", "x", "x-3-3"}));
  }

  void filesAreWritten() {
    const Model m = makeModel();
    QTemporaryDir tmp;
    const std::string csv = (tmp.path() + "/t.csv").toStdString();
    const std::string js = (tmp.path() + "/t.json").toStdString();
    writeTrajectoryCsvFile(csv, m, {makeFrame(0)}, false);
    writeTrajectoryJsonFile(js, m, {makeFrame(0)}, false);
    std::ifstream a(csv), b(js);
    std::stringstream sa, sb;
    sa << a.rdbuf();
    sb << b.rdbuf();
    QCOMPARE(sa.str(), trajectoryCsv(m, {makeFrame(0)}, false));
    QCOMPARE(sb.str(), trajectoryJson(m, {makeFrame(0)}, false));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                             writeTrajectoryCsvFile((tmp.path() + "/missing/t.csv").toStdString(), m, {}, false));
  }
};

QTEST_APPLESS_MAIN(TestTrajectory)
#include "test_trajectory.moc"
