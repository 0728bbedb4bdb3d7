// tests/io/test_mesh.cpp — core/io/mesh.cpp: mesh files through Assimp and the guards in front of
// it. Assimp's failed internal checks must become errors (not abort the program), PLY headers on
// which its reader would hang are refused before it runs, and non-finite coordinates are refused.
// mesh_reader_process.cpp, mesh_wire.cpp, subprocess.cpp: the same reading in the reader program's
// own process gives the same mesh and the same errors, and its crash, hang, flood of output or
// malformed answer becomes an error of this process, which goes on. A file without normals gets
// normals sharp at creases and smooth elsewhere (core/mesh_normals.h): an OBJ cube, an OBJ prism
// of 24 sides.
#include <QtTest>
#include <QTemporaryDir>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>

#include "core/io/in_process.h"
#include "core/io/mesh.h"
#include "core/io/mesh_wire.h"
#include "core/io/read_cancel.h"
#include "core/io/read_in_process.h"
#include "core/io/subprocess.h"
#include "tests/mesh_reader_crash.h"

namespace {

const std::string kData = MECHSIM_SOURCE_DIR "/tests/data/";

/// The message loadMeshFile (or, with inProcess, loadMeshFileInProcess) throws on path; "" if none.
std::string errorOf(const std::string& path, bool inProcess = false) {
  try {
    inProcess ? mechsim::io::loadMeshFileInProcess(path) : mechsim::io::loadMeshFile(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

/// Sets an environment variable for one scope (the reader program inherits it).
struct ScopedEnv {
  std::string name;
  ScopedEnv(const char* n, const char* value) : name(n) { ::setenv(n, value, 1); }
  ~ScopedEnv() { ::unsetenv(name.c_str()); }
};

bool sameMesh(const mechsim::MeshData& a, const mechsim::MeshData& b) {
  return a.vertices == b.vertices && a.normals == b.normals && a.indices == b.indices;
}

}  // namespace

class TestMesh : public QObject {
  Q_OBJECT
 private slots:
  // Straight through Assimp, past loadMeshFile's PLY header check: the file on which Debian's
  // Assimp fails its own check (TriangulateProcess) and used to abort. mesh.cpp's definition of
  // the function its checks call throws; ReadFile returns no scene and says why.
  void assimpChecksThrowInsteadOfAborting() {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(kData + "bad/meshes/assimp_check.ply",
                                             aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
    QVERIFY(!scene);
    QVERIFY2(std::string(importer.GetErrorString()).find("the importer's own check failed") != std::string::npos,
             importer.GetErrorString());
  }

  // Headers on which Assimp's PLY reader never returns are refused before it runs; a well-formed
  // one (comments, obj_info, CRLF line ends) is read.
  void plyHeaderChecked() {
    QVERIFY(errorOf(kData + "bad/meshes/no_end_header.ply").find("no end_header line") != std::string::npos);
    QVERIFY(errorOf(kData + "bad/meshes/assimp_check.ply").find("malformed PLY header (line 5") != std::string::npos);
    const auto mesh = mechsim::io::loadMeshFile(kData + "meshes/triangle.ply");
    QCOMPARE(int(mesh->indices.size()), 3);
  }

  // The build tree's reader program is found (tests run from the build folder).
  void readerProgramFound() {
    const std::string reader = mechsim::io::meshReaderProgram();
    QVERIFY2(reader.size() > 20 && reader.substr(reader.size() - 20) == "/mechsim-mesh-reader", reader.c_str());
    ScopedEnv off("MECHSIM_MESH_READER", "off");
    QVERIFY(mechsim::io::meshReaderProgram().empty());
  }

  // Without a reader program a program reads in its own process only when it installed the
  // in-process reader (core/io/in_process.h): the programs leave Assimp to the helper and say so.
  void inProcessOnlyWhenInstalled() {
    ScopedEnv off("MECHSIM_MESH_READER", "off");
    const std::string path = MECHSIM_SOURCE_DIR "/models/crank.stl";
    mechsim::io::setInProcessReaders(nullptr, nullptr);
    const std::string message = errorOf(path);
    QVERIFY2(message.find("no mesh reader program") != std::string::npos &&
                 message.find("does not read meshes itself") != std::string::npos,
             message.c_str());
    mechsim::io::readInThisProcess();
    QVERIFY(mechsim::io::loadMeshFile(path)->vertices.size() > 0);
  }

  // Read in the reader's process, every example format gives the mesh this process reads, bit for
  // bit; and every refusal the same message.
  void isolatedReadEqualsInProcess() {
    for (const std::string f : {"/models/crank.stl", "/models/coupler.obj", "/models/rocker.gltf",
                                "/tests/data/meshes/triangle.ply"}) {
      const std::string path = MECHSIM_SOURCE_DIR + f;
      const auto isolated = mechsim::io::loadMeshFile(path);
      const auto local = mechsim::io::loadMeshFileInProcess(path);
      QVERIFY2(!isolated->indices.empty() && sameMesh(*isolated, *local), path.c_str());
    }
    for (const std::string f : {"bad/meshes/no_end_header.ply", "bad/meshes/assimp_check.ply",
                                "bad/meshes/infinite_vertex.obj", "no-such-mesh.stl"}) {
      const std::string e = errorOf(kData + f);
      QVERIFY2(!e.empty() && e == errorOf(kData + f, true), e.c_str());
    }
    QCOMPARE(errorOf("/dev/zero"), errorOf("/dev/zero", true));
  }

  // What a fault inside the importer would do to the reader process — crash, hang, write without
  // end, answer garbage — is one error here, in bounded time.
  void readerFaultsReported_data() {
    QTest::addColumn<QString>("fault");
    QTest::addColumn<QString>("said");
    QTest::newRow("crash") << "crash" << kReaderCrash;
    QTest::newRow("hang") << "hang" << "the mesh reader was stopped after 1.5 s; the file is corrupt, or too large";
    QTest::newRow("flood") << "flood" << "the mesh reader wrote more than expected and was stopped";
    QTest::newRow("garbage") << "garbage" << "the mesh reader's answer is malformed mesh data";
#ifndef __SANITIZE_ADDRESS__  // the reader has no memory limit under AddressSanitizer
    QTest::newRow("hog") << "hog" << "reading it needs more memory than the 4.0 GiB allowed for a file of its size";
#endif
  }
  void readerFaultsReported() {
    QFETCH(QString, fault);
    QFETCH(QString, said);
    const std::string path = MECHSIM_SOURCE_DIR "/models/crank.stl";
    ScopedEnv f("MECHSIM_MESH_READER_FAULT", fault.toUtf8().constData());
    ScopedEnv t("MECHSIM_MESH_READER_TIMEOUT", "1.5");
    const auto start = std::chrono::steady_clock::now();
    const std::string e = errorOf(path);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    QVERIFY2(e.rfind("cannot read mesh file " + path + ": ", 0) == 0, e.c_str());
    QVERIFY2(e.find(said.toStdString()) != std::string::npos, e.c_str());
    QVERIFY2(took < 6, std::to_string(took).c_str());
    // The same file reads again once the reader behaves.
    ::unsetenv("MECHSIM_MESH_READER_FAULT");
    QVERIFY(!mechsim::io::loadMeshFile(path)->indices.empty());
  }

  // A read on a thread with a ReadCancelScope stops when its flag turns true, here from another
  // thread while the reader hangs (its limit 60 s): at once, with "cancelled". Without
  // the scope the flag means nothing.
  void readerCancelled() {
    const std::string path = MECHSIM_SOURCE_DIR "/models/crank.stl";
    ScopedEnv f("MECHSIM_MESH_READER_FAULT", "hang");
    ScopedEnv t("MECHSIM_MESH_READER_TIMEOUT", "60");
    std::atomic<bool> cancel{false};
    std::thread canceller([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      cancel = true;
    });
    const auto start = std::chrono::steady_clock::now();
    std::string e;
    {
      mechsim::io::ReadCancelScope scope(cancel);
      QVERIFY(mechsim::io::readCancelFlag() == &cancel);
      e = errorOf(path);
    }
    canceller.join();
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    QVERIFY(mechsim::io::readCancelFlag() == nullptr);
    QCOMPARE(e, "cannot read mesh file " + path + ": cancelled");
    QVERIFY2(took > 0.25 && took < 5, std::to_string(took).c_str());
  }

  void readerMissingIsAnError() {
    ScopedEnv r("MECHSIM_MESH_READER", "/no/such/mechsim-mesh-reader");
    const std::string e = errorOf(MECHSIM_SOURCE_DIR "/models/crank.stl");
    QVERIFY2(e.find("the mesh reader /no/such/mechsim-mesh-reader could not be started (No such file") !=
                 std::string::npos,
             e.c_str());
  }

  // The reader's answer: a round trip keeps the mesh; every truncation, a stray byte, an index past
  // the vertices, a NaN vertex, counts beyond the data are refused.
  void wireChecked() {
    using mechsim::io::decodeMeshWire;
    using mechsim::io::encodeMeshWire;
    const auto mesh = mechsim::io::loadMeshFileInProcess(MECHSIM_SOURCE_DIR "/models/coupler.obj");
    const std::string w = encodeMeshWire(*mesh);
    QVERIFY(sameMesh(decodeMeshWire(w), *mesh));
    mechsim::MeshData none;  // no normals, no triangles: still a valid message
    QVERIFY(sameMesh(decodeMeshWire(encodeMeshWire(none)), none));
    auto refused = [&](const std::string& bytes) {
      try {
        decodeMeshWire(bytes);
      } catch (const std::runtime_error& e) {
        return std::string(e.what()).rfind("malformed mesh data: ", 0) == 0;
      }
      return false;
    };
    for (std::size_t n = 0; n < w.size(); n += 7) QVERIFY2(refused(w.substr(0, n)), std::to_string(n).c_str());
    QVERIFY(refused(w + "x"));
    mechsim::MeshData bad = *mesh;
    bad.indices[4] = static_cast<unsigned>(bad.vertices.size());
    QVERIFY(refused(encodeMeshWire(bad)));
    bad = *mesh;
    bad.vertices[2].y() = std::nanf("");
    QVERIFY(refused(encodeMeshWire(bad)));
    std::string huge = w;
    huge[8 + 7] = 0x40;  // vertex count's top byte: 2^62 and more
    QVERIFY(refused(huge));
  }

  // runSubprocess on its own: exit status, stderr, stdin closed, a program that is not there.
  void subprocessBasics() {
    using mechsim::io::runSubprocess;
    auto r = runSubprocess({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, 10, 1000);
    QVERIFY(r.started);
    QCOMPARE(r.out, std::string("out\n"));
    QCOMPARE(r.err, std::string("err\n"));
    QCOMPARE(r.exitCode, 3);
    r = runSubprocess({"/bin/cat"}, 10, 1000);  // stdin is /dev/null: cat ends at once
    QVERIFY(r.started && r.exitCode == 0 && r.out.empty() && !r.timedOut);
    r = runSubprocess({"/bin/sh", "-c", "exec sleep 30"}, 0.3, 1000);
    QVERIFY(r.timedOut);
    QCOMPARE(mechsim::io::describeEnd(r, 0.3), std::string("was stopped after 0.3 s"));
    r = runSubprocess({"/no/such/program"}, 10, 1000);
    QVERIFY(!r.started);
    QVERIFY2(mechsim::io::describeEnd(r, 10).find("could not be started") == 0, r.startError.c_str());
    // A child that closes its output and then lingers is still stopped at the time limit.
    r = runSubprocess({"/bin/sh", "-c", "exec >&- 2>&-; sleep 30"}, 0.3, 1000);
    QVERIFY(r.timedOut);
  }

  void normalsSharpAtCreases() {
    // A cube without normals: each of its 8 corners becomes 3 vertices, one per face, and every
    // vertex's normal is its face's (outward: the file winds its faces so).
    QTemporaryDir dir;
    const QString cube = dir.filePath("cube.obj");
    {
      QFile f(cube);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
              "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n");
    }
    const auto m = mechsim::io::loadMeshFileInProcess(cube.toStdString());
    QCOMPARE(m->vertices.size(), std::size_t(24));
    QCOMPARE(m->normals.size(), std::size_t(24));
    for (std::size_t t = 0; t < m->indices.size(); t += 3) {
      const Eigen::Vector3f& a = m->vertices[m->indices[t]];
      const Eigen::Vector3f n = (m->vertices[m->indices[t + 1]] - a).cross(m->vertices[m->indices[t + 2]] - a).normalized();
      QVERIFY(n.dot(a - Eigen::Vector3f(0.5f, 0.5f, 0.5f)) > 0);  // outward
      for (int c = 0; c < 3; ++c) QVERIFY((m->normals[m->indices[t + std::size_t(c)]] - n).norm() < 1e-6f);
    }
    // A 24-sided prism: smooth around (15° between sides: normals radial), sharp at the caps.
    const QString prism = dir.filePath("prism.obj");
    {
      QFile f(prism);
      QVERIFY(f.open(QIODevice::WriteOnly));
      QByteArray text;
      const int n = 24;
      for (int z = 0; z < 2; ++z)
        for (int k = 0; k < n; ++k)
          text += QByteArray("v ") + QByteArray::number(std::cos(2 * M_PI * k / n)) + " " +
                  QByteArray::number(std::sin(2 * M_PI * k / n)) + " " + QByteArray::number(z) + "\n";
      for (int k = 0; k < n; ++k) {
        const int a = k + 1, b = (k + 1) % n + 1;
        text += "f " + QByteArray::number(a) + " " + QByteArray::number(b) + " " + QByteArray::number(b + n) + " " +
                QByteArray::number(a + n) + "\n";
      }
      QByteArray bottom = "f", top = "f";
      for (int k = n; k >= 1; --k) bottom += " " + QByteArray::number(k);
      for (int k = 1; k <= n; ++k) top += " " + QByteArray::number(k + n);
      f.write(text + bottom + "\n" + top + "\n");
    }
    const auto p = mechsim::io::loadMeshFileInProcess(prism.toStdString());
    QCOMPARE(p->vertices.size(), std::size_t(4 * 24));  // each rim point twice: side and cap
    int side = 0;
    for (std::size_t v = 0; v < p->vertices.size(); ++v) {
      const Eigen::Vector3f& x = p->vertices[v];
      const Eigen::Vector3f& nv = p->normals[v];
      if (std::abs(nv.z()) > 0.999f) {
        QCOMPARE(nv.z() > 0, x.z() > 0.5f);
      } else {
        // Within 4° of radial (area weights lean towards the side whose both triangles touch the
        // vertex); a side's own normal is 7.5° off at its edges.
        QVERIFY(std::abs(nv.z()) < 1e-6f && nv.dot(Eigen::Vector3f(x.x(), x.y(), 0).normalized()) > std::cos(4 * M_PI / 180));
        ++side;
      }
    }
    QCOMPARE(side, 48);
  }

  // mesh.cpp joins the corners of a mesh itself (not Assimp's JoinIdenticalVertices): corners
  // with the same position and the same normal, bit for bit (−0 and +0 alike), become one vertex;
  // the same position with another normal stays a vertex of its own.
  void cornersJoinedByPositionAndNormal() {
    QTemporaryDir tmp;
    const std::string path = (tmp.path() + "/joined.stl").toStdString();
    // Triangles 0 and 1 share an edge and the normal +z (one corner written as -0 in triangle 1);
    // triangle 2 has the corner (1, 0, 0) too, with the normal +x.
    const float tris[3][12] = {{0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0},
                               {0, 0, 1, 1, 0, 0, 1, 1, 0, -0.0f, 1, 0},
                               {1, 0, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1}};
    std::string bytes(84, '\0');
    bytes[80] = 3;
    for (const auto& t : tris) {
      bytes.append(reinterpret_cast<const char*>(t), sizeof t);
      bytes.append(2, '\0');
    }
    std::ofstream(path, std::ios::binary) << bytes;
    for (bool inProcess : {true, false}) {
      const auto m = inProcess ? mechsim::io::loadMeshFileInProcess(path) : mechsim::io::loadMeshFile(path);
      QCOMPARE(m->indices.size(), std::size_t(9));
      QCOMPARE(m->vertices.size(), std::size_t(4 + 3));  // the square's 4 corners, the third triangle's 3
      QCOMPARE(m->indices[1], m->indices[3]);  // (1, 0, 0) with +z, in triangles 0 and 1
      QCOMPARE(m->indices[2], m->indices[5]);  // (0, 1, 0) and (-0, 1, 0)
      QVERIFY(m->indices[6] != m->indices[1]);  // (1, 0, 0) with +x
      QCOMPARE(m->normals[m->indices[6]], Eigen::Vector3f(1, 0, 0));
    }
  }

  void nonFiniteVerticesRefused() {
    QVERIFY(errorOf(kData + "bad/meshes/infinite_vertex.obj").find("not a finite number") != std::string::npos);
    QVERIFY(errorOf("/dev/zero").find("not a regular file") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(TestMesh)
#include "test_mesh.moc"
