// tests/io/test_mesh.cpp — core/io/mesh.cpp: mesh files through Assimp and the guards in front of
// it. Assimp's failed internal checks must become errors (not abort the program), PLY headers on
// which its reader would hang are refused before it runs, and non-finite coordinates are refused.
// mesh_reader_process.cpp, mesh_wire.cpp, subprocess.cpp: the same reading in the reader program's
// own process gives the same mesh and the same errors, and its crash, hang, flood of output or
// malformed answer becomes an error of this process, which goes on.
#include <QtTest>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "core/io/mesh.h"
#include "core/io/mesh_wire.h"
#include "core/io/read_cancel.h"
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

  void nonFiniteVerticesRefused() {
    QVERIFY(errorOf(kData + "bad/meshes/infinite_vertex.obj").find("not a finite number") != std::string::npos);
    QVERIFY(errorOf("/dev/zero").find("not a regular file") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(TestMesh)
#include "test_mesh.moc"
