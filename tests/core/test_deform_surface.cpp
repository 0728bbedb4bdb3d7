// tests/core/test_deform_surface.cpp — tests core/io/tetrahedralise.cpp and the "surface" mesh type
// of the deformables section: a closed triangle surface filled with tets by Gmsh's library. The
// tet mesh's volume must equal the volume the surface encloses (divergence theorem,
// Σ a·(b×c)/6 over the triangles — an independent closed form), every tet must be positively
// oriented after validation, and the boundary of the tet mesh must be the given surface's area.
// Open or inconsistently oriented surfaces are rejected. Skipped without Gmsh.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>

#include "core/deform/tet_mesh.h"
#include "core/io/load.h"
#include "core/io/mesh.h"
#include "core/io/read_cancel.h"
#include "core/io/surface_mesher.h"
#include "core/io/tetrahedralise.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

using namespace mechsim;
using namespace mechsim::io;

namespace {

using Tris = std::vector<std::array<int, 3>>;

/// Unit cube [0,1]³, 12 outward triangles.
void cube(std::vector<Vec3>& v, Tris& t) {
  v.clear();
  for (int k = 0; k < 8; ++k) v.emplace_back(k & 1, (k >> 1) & 1, (k >> 2) & 1);
  const int q[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  t.clear();
  for (const auto& f : q) {
    t.push_back({f[0], f[1], f[2]});
    t.push_back({f[0], f[2], f[3]});
  }
}

/// Octahedron subdivided `levels` times, vertices projected on the sphere of radius r (outward).
void sphere(double r, int levels, std::vector<Vec3>& v, Tris& t) {
  v = {Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0), Vec3(0, 0, 1), Vec3(0, 0, -1)};
  t = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<int, int>, int> mid;
    auto midpoint = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      v.push_back((v[a] + v[b]).normalized());
      return mid[key] = int(v.size()) - 1;
    };
    Tris next;
    for (const auto& f : t) {
      const int ab = midpoint(f[0], f[1]), bc = midpoint(f[1], f[2]), ca = midpoint(f[2], f[0]);
      next.push_back({f[0], ab, ca});
      next.push_back({ab, f[1], bc});
      next.push_back({ca, bc, f[2]});
      next.push_back({ab, bc, ca});
    }
    t = next;
  }
  for (Vec3& p : v) p *= r;
}

double enclosedVolume(const std::vector<Vec3>& v, const Tris& t) {
  double s = 0;
  for (const auto& f : t) s += v[f[0]].dot(v[f[1]].cross(v[f[2]])) / 6;
  return s;
}

double surfaceArea(const std::vector<Vec3>& v, const Tris& t) {
  double s = 0;
  for (const auto& f : t) s += 0.5 * (v[f[1]] - v[f[0]]).cross(v[f[2]] - v[f[0]]).norm();
  return s;
}

/// Checks a tet mesh of the given surface: volume, orientation, boundary area.
void checkFill(const std::vector<Vec3>& sv, const Tris& st, const TetMeshFile& f) {
  deform::TetMesh m;
  m.vertices = f.vertices;
  m.tets = f.tets;
  deform::validateAndOrient(m, 1e-14);
  double vol = 0;
  for (int k = 0; k < m.tetCount(); ++k) {
    QVERIFY(deform::tetVolume(m, k) > 0);
    vol += deform::tetVolume(m, k);
  }
  const double expected = enclosedVolume(sv, st);
  QVERIFY2(std::abs(vol - expected) < 1e-10 * expected, qPrintable(QString("%1 vs %2").arg(vol).arg(expected)));
  double area = 0;
  for (const auto& b : deform::boundaryFaces(m))
    area += 0.5 * (m.vertices[b[1]] - m.vertices[b[0]]).cross(m.vertices[b[2]] - m.vertices[b[0]]).norm();
  QVERIFY(std::abs(area - surfaceArea(sv, st)) < 1e-10 * area);
}

}  // namespace

class TestDeformSurface : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    if (!haveTetrahedraliser()) QSKIP("built without the Gmsh library");
  }

  void cubeIsFilledExactly() {
    std::vector<Vec3> v;
    Tris t;
    cube(v, t);
    const TetMeshFile f = tetrahedraliseSurface(v, t, 0.25);
    qInfo("cube: %zu tets, %zu vertices", f.tets.size(), f.vertices.size());
    QVERIFY(f.tets.size() > 50);  // interior points inserted down to the size cap
    QVERIFY(f.vertices.size() > v.size());
    checkFill(v, t, f);
  }

  void sphereIsFilledExactly() {
    std::vector<Vec3> v;
    Tris t;
    sphere(0.3, 3, v, t);  // 512 triangles
    const TetMeshFile f = tetrahedraliseSurface(v, t, 0.05);
    checkFill(v, t, f);
    // The polyhedron's volume approaches the ball's (4/3)πr³ from below.
    const double ball = 4.0 / 3.0 * M_PI * 0.027;
    QVERIFY(enclosedVolume(v, t) < ball && enclosedVolume(v, t) > 0.95 * ball);
  }

  void badSurfacesAreRejected() {
    std::vector<Vec3> v;
    Tris t;
    cube(v, t);
    Tris open = t;
    open.pop_back();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tetrahedraliseSurface(v, open));
    Tris flipped = t;
    std::swap(flipped[0][1], flipped[0][2]);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tetrahedraliseSurface(v, flipped));
    Tris bad = t;
    bad[3][0] = 99;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tetrahedraliseSurface(v, bad));
    std::vector<Vec3> nan = v;
    nan[2].x() = NAN;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tetrahedraliseSurface(nan, t));
  }

  void weldMergesRepeatedVertices() {
    std::vector<Vec3> v;
    Tris t;
    cube(v, t);
    // Per-face vertex copies, as mesh files store them.
    std::vector<Vec3> split;
    Tris ts;
    for (const auto& f : t) {
      std::array<int, 3> g{};
      for (int a = 0; a < 3; ++a) {
        g[a] = int(split.size());
        split.push_back(v[f[a]]);
      }
      ts.push_back(g);
    }
    const Tris w = weldVertices(split, ts);
    QCOMPARE(int(split.size()), 8);
    QCOMPARE(int(w.size()), 12);
    QVERIFY(std::abs(enclosedVolume(split, w) - 1) < 1e-15);
  }

  void surfaceMeshTypeInAMechanismFile() {
    // An OBJ cube (mm) as a deformable part's "surface" mesh, read through Assimp.
    QTemporaryDir dir;
    std::vector<Vec3> v;
    Tris t;
    cube(v, t);
    {
      std::ofstream obj((dir.path() + "/cube.obj").toStdString());
      for (const Vec3& p : v) obj << "v " << 20 * p.x() << ' ' << 10 * p.y() << ' ' << 10 * p.z() << '\n';
      for (const auto& f : t) obj << "f " << f[0] + 1 << ' ' << f[1] + 1 << ' ' << f[2] + 1 << '\n';
    }
    const std::string text =
        "{ \"mechsim\": 1, \"units\": {\"length\": \"mm\"},\n"
        "  \"bodies\": [ {\"name\": \"ground\", \"fixed\": true} ],\n"
        "  \"deformables\": [ {\"name\": \"block\", \"mesh\": {\"type\": \"surface\", \"file\": \"cube.obj\", "
        "\"size\": 4},\n"
        "     \"pinned\": {\"min\": [0, 0, 0], \"max\": [0, 10, 10]} } ] }\n";
    const MechanismSpec spec = parseMechanism(text, "test.json", dir.path().toStdString());
    QCOMPARE(int(spec.deformables.size()), 1);
    const DeformableSpec& d = spec.deformables[0];
    double vol = 0;
    for (const auto& e : d.tets) {
      const Vec3 a = d.vertices[e[0]];
      vol += (d.vertices[e[1]] - a).dot((d.vertices[e[2]] - a).cross(d.vertices[e[3]] - a)) / 6;
    }
    QVERIFY(std::abs(vol - 0.02 * 0.01 * 0.01) < 1e-9 * 2e-6);  // metres
    QVERIFY(d.pinned.size() >= 4);
    // A missing file and an open surface are load errors naming the mesh file.
    const std::string missing = text.substr(0, text.find("cube.obj")) + "nope.obj" +
                                text.substr(text.find("cube.obj") + 8);
    QVERIFY_THROWS_EXCEPTION(LoadError, parseMechanism(missing, "test.json", dir.path().toStdString()));
    {
      std::ofstream obj((dir.path() + "/open.obj").toStdString());
      for (const Vec3& p : v) obj << "v " << p.x() << ' ' << p.y() << ' ' << p.z() << '\n';
      for (std::size_t k = 0; k + 1 < t.size(); ++k) obj << "f " << t[k][0] + 1 << ' ' << t[k][1] + 1 << ' ' << t[k][2] + 1 << '\n';
    }
    const std::string open = text.substr(0, text.find("cube.obj")) + "open.obj" + text.substr(text.find("cube.obj") + 8);
    try {
      parseMechanism(open, "test.json", dir.path().toStdString());
      QFAIL("open surface accepted");
    } catch (const LoadError& e) {
      QVERIFY2(std::string(e.what()).find("not closed") != std::string::npos, e.what());
    }
  }

  // The surface mesher program (tetrahedraliseSurfaceFile) gives the tets this process makes from
  // the same file; its hang stops at the time limit or at Cancel, its crash is an error; the
  // session goes on either way.
  void surfaceMesherInItsOwnProcess() {
    if (!haveTetrahedraliser()) QSKIP("built without the Gmsh library");
    const std::string mesher = surfaceMesherProgram();
    QVERIFY2(mesher.size() > 23 && mesher.substr(mesher.size() - 23) == "/mechsim-surface-mesher", mesher.c_str());
    const std::string cubeFile = MECHSIM_SOURCE_DIR "/tests/data/meshes/cube.obj";
    // Gmsh's HXT mesher runs on several threads, so the two meshes need not be the same tets; each
    // fills the 0.5 m cube exactly, with edges near the size asked.
    const TetMeshFile there = tetrahedraliseSurfaceFile(cubeFile, 0.5, 0.2);
    const TetMeshFile here = tetrahedraliseMesh(*loadMeshFileInProcess(cubeFile), 0.5, 0.2);
    for (const TetMeshFile* m : {&there, &here}) {
      QVERIFY(m->tets.size() >= 20);
      double vol = 0;
      for (const auto& e : m->tets) {
        const Vec3 a = m->vertices[e[0]];
        vol += std::abs((m->vertices[e[1]] - a).dot((m->vertices[e[2]] - a).cross(m->vertices[e[3]] - a))) / 6;
      }
      QVERIFY2(std::abs(vol - 0.125) < 1e-12, std::to_string(vol).c_str());
    }
    QVERIFY(std::abs(double(there.tets.size()) - double(here.tets.size())) < 0.5 * double(here.tets.size()));
    auto errorOf = [&] {
      try {
        tetrahedraliseSurfaceFile(cubeFile, 0.5, 0.2);
      } catch (const std::runtime_error& e) {
        return std::string(e.what());
      }
      return std::string();
    };
    const std::string prefix = "cannot tetrahedralise " + cubeFile + ": the surface mesher ";
    ::setenv("MECHSIM_SURFACE_MESHER_TIMEOUT", "1.5", 1);
    ::setenv("MECHSIM_SURFACE_MESHER_FAULT", "hang", 1);
    std::string e = errorOf();
    QVERIFY2(e.rfind(prefix + "was stopped after 1.5 s; the size is too fine", 0) == 0, e.c_str());
    ::setenv("MECHSIM_SURFACE_MESHER_TIMEOUT", "60", 1);
    std::atomic<bool> cancel{false};
    std::thread canceller([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      cancel = true;
    });
    const auto start = std::chrono::steady_clock::now();
    {
      ReadCancelScope scope(cancel);
      e = errorOf();
    }
    canceller.join();
    QCOMPARE(e, "cannot tetrahedralise " + cubeFile + ": cancelled");
    QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    ::setenv("MECHSIM_SURFACE_MESHER_FAULT", "crash", 1);
    e = errorOf();
    QVERIFY2(e.rfind(prefix, 0) == 0 && e.find("the surface mesher crashed (signal 11, Segmentation fault)") != std::string::npos,
             e.c_str());
    ::unsetenv("MECHSIM_SURFACE_MESHER_FAULT");
    ::unsetenv("MECHSIM_SURFACE_MESHER_TIMEOUT");
    // Its refusal is its own message, whole: an open surface.
    e = [&] {
      try {
        tetrahedraliseSurfaceFile(MECHSIM_SOURCE_DIR "/tests/data/meshes/triangle.ply", 1, 0);
      } catch (const std::runtime_error& x) {
        return std::string(x.what());
      }
      return std::string();
    }();
    QVERIFY2(e.rfind("surface: ", 0) == 0, e.c_str());
  }
};

QTEST_APPLESS_MAIN(TestDeformSurface)
#include "test_deform_surface.moc"
