// tests/io/test_tetmesh.cpp — tests core/io/tetmesh_io.cpp and core/io/load_deformable.cpp (with
// core/deform/from_spec.cpp): one two-tet mesh written as TetGen, Gmsh 2.2 and Gmsh 4.1 text reads
// back to the same vertices and tets (sparse Gmsh tags, 1-based TetGen indices, comments, other
// element types skipped); broken mesh text names the line; the deformables section of the example
// mechanism and of generated files (box, cylinder, TetGen and Gmsh files on disk, units, pinned
// boxes, attachments) becomes the expected DeformableModel, and one step keeps attached vertices on
// their body. A read on a thread whose cancel flag is set (read_cancel.h) stops with "cancelled"
// and the line it reached, where the same text reads whole without the flag.
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

#include <sys/stat.h>  // mkfifo

#include "core/deform/from_spec.h"
#include "core/deform/solver.h"
#include "core/io/load.h"
#include "core/io/read_cancel.h"
#include "core/io/write.h"
#include "core/io/tetmesh_io.h"

using namespace mechsim;
using namespace mechsim::io;

namespace {

const QString kSource = QStringLiteral(MECHSIM_SOURCE_DIR);

// Two tets sharing the face (1, 2, 3): vertices 0..4.
const char* kNode = "# two tets\n5 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 1 1 1  # apex\n";
const char* kEle = "2 4 0\n1 1 2 3 4\n2 2 3 4 5\n";
const char* kMsh2 =
    "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n1\n3 1 \"solid\"\n$EndPhysicalNames\n"
    "$Nodes\n5\n10 0 0 0\n20 1 0 0\n30 0 1 0\n40 0 0 1\n50 1 1 1\n$EndNodes\n"
    "$Elements\n3\n1 2 2 0 1 10 20 30\n2 4 2 1 1 10 20 30 40\n3 4 2 1 1 20 30 40 50\n$EndElements\n";
const char* kMsh4 =
    "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
    "$Nodes\n1 5 1 5\n3 1 0 5\n1\n2\n3\n4\n5\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n1 1 1\n$EndNodes\n"
    "$Elements\n2 3 1 3\n2 1 2 1\n1 1 2 3\n3 1 4 2\n2 1 2 3 4\n3 2 3 4 5\n$EndElements\n";

void checkTwoTets(const TetMeshFile& m) {
  QCOMPARE(int(m.vertices.size()), 5);
  QCOMPARE(int(m.tets.size()), 2);
  QVERIFY((m.vertices[4] - Vec3(1, 1, 1)).norm() == 0);
  QVERIFY((m.tets[0] == std::array<int, 4>{0, 1, 2, 3}));
  QVERIFY((m.tets[1] == std::array<int, 4>{1, 2, 3, 4}));
}

void write(const QString& path, const std::string& text) {
  std::ofstream(path.toStdString()) << text;
}

/// A mechanism file with one deformable part whose "mesh" object is `mesh`.
std::string mechanismWith(const std::string& mesh, const std::string& extra = "") {
  return "{ \"mechsim\": 1, \"units\": {\"length\": \"mm\"},\n"
         "  \"bodies\": [ {\"name\": \"ground\", \"fixed\": true},\n"
         "              {\"name\": \"arm\", \"mass\": 1, \"position\": [0, 0, 1000]} ],\n"
         "  \"deformables\": [ {\"name\": \"part\", \"mesh\": " + mesh + extra + "} ] }\n";
}

}  // namespace

class TestTetMesh : public QObject {
  Q_OBJECT
 private slots:
  void formatsAgree() {
    checkTwoTets(parseTetGen(kNode, kEle, "a.node", "a.ele"));
    checkTwoTets(parseGmsh(kMsh2, "a.msh"));
    checkTwoTets(parseGmsh(kMsh4, "b.msh"));
  }

  void brokenMeshesNameTheLine() {
    auto expectError = [](auto&& f, int line, const char* sub) {
      try {
        f();
        QFAIL("no error");
      } catch (const TetMeshError& e) {
        QVERIFY2(e.line() == line && std::string(e.what()).find(sub) != std::string::npos,
                 qPrintable(QString("%1: %2").arg(e.line()).arg(e.what())));
      }
    };
    expectError([] { parseTetGen("2 3 0 0\n0 0 0 0\n1 1 0 nan\n", "0 4 0\n", "n", "e"); }, 3, "expected a coordinate");
    expectError([] { parseTetGen("2 3 0 0\n0 0 0 0\n", "0 4 0\n", "n", "e"); }, 2, "unexpected end of file");
    expectError([] { parseTetGen(kNode, "1 4 0\n1 1 2 3 9\n", "n", "e"); }, 2, "out of range");
    expectError([] { parseTetGen("3 2 0 0\n", "", "n", "e"); }, 1, "dimension must be 3");
    expectError([] { parseGmsh("$MeshFormat\n2.2 1 8\n$EndMeshFormat\n", "m"); }, 2, "binary");
    expectError([] { parseGmsh("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$EndNodes\n"
                               "$Elements\n1\n1 4 0 1 2 3 4\n$EndElements\n", "m"); }, 10, "unknown node 2");
    expectError([] { parseGmsh("$Nodes\n", "m"); }, 1, "$Nodes before $MeshFormat");
  }

  void exampleMechanismLoadsAndSteps() {
    const MechanismSpec spec = readMechanismFile((kSource + "/mechanisms/deform-flexible-link.json").toStdString());
    QCOMPARE(int(spec.deformables.size()), 1);
    const DeformableSpec& d = spec.deformables[0];
    QCOMPARE(int(d.tets.size()), 6 * 40 * 4 * 2);
    QCOMPARE(d.youngs, 2e6);
    QCOMPARE(int(d.attachments.size()), 2);
    QCOMPARE(int(d.attachments[0].vertices.size()), 2 * 5 * 3);  // the x = 0.1 face and the next layer
    const deform::DeformableModel m = deform::makeDeformableFromSpec(d, spec, 0.01);
    // Post vertices are pinned, crank vertices attached to body index 2 (the crank).
    int attached = 0;
    for (const auto& a : m.attachments) {
      QCOMPARE(a.body, 2);
      ++attached;
    }
    QCOMPARE(attached, 30);
    QCOMPARE(m.freeCount(), m.vertexCount() - 60);
    // Turn the crank by 10° and step: attached vertices follow it exactly.
    std::vector<Pose> poses(spec.bodies.size());
    poses[2].orientation = Quat(Eigen::AngleAxisd(10 * M_PI / 180, Vec3::UnitZ()));
    VecX x = deform::restPositions(m), v = VecX::Zero(x.size());
    deform::SolveOptions o;
    const deform::SolveStats st = deform::stepImplicitEuler(m, nullptr, o, x, v, poses);
    QVERIFY(st.converged);
    for (const auto& a : m.attachments)
      QVERIFY((x.segment<3>(3 * a.vertex) - poses[2].apply(m.mesh.vertices[a.vertex])).norm() < 1e-12);
  }

  void generatedAndFileMeshesWithUnits() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    write(dir.filePath("m.node"), kNode);
    write(dir.filePath("m.ele"), kEle);
    write(dir.filePath("m.msh"), kMsh4);
    struct Case {
      std::string mesh;
      int tets;
      double volume;  // m³
    };
    const Case cases[] = {
        {R"({"type": "box", "size": [100, 20, 10], "cells": [5, 2, 1]})", 60, 0.1 * 0.02 * 0.01},
        {R"({"type": "tetgen", "file": "m.node", "scale": 10})", 2, 0.5e-6},
        {R"({"type": "gmsh", "file": "m.msh", "scale": 10})", 2, 0.5e-6},
    };
    for (const Case& c : cases) {
      const std::string path = dir.filePath("mech.json").toStdString();
      write(dir.filePath("mech.json"), mechanismWith(c.mesh, R"(, "pinned": {"min": [0, 0, 0], "max": [0, 1000, 1000]})"));
      const MechanismSpec spec = readMechanismFile(path);
      const DeformableSpec& d = spec.deformables.at(0);
      QCOMPARE(int(d.tets.size()), c.tets);
      const deform::DeformableModel m = deform::makeDeformableFromSpec(d, spec, 0.01);
      double vol = 0;
      for (double V : m.volume) vol += V;
      QVERIFY2(std::abs(vol - c.volume) < 1e-12, qPrintable(QString::number(vol)));
      for (int v = 0; v < m.vertexCount(); ++v) QCOMPARE(bool(m.prescribed[v]), m.mesh.vertices[v].x() < 1e-12);
      // Saved into another folder (as the GUI's Save As does) and read back: the same part, the
      // mesh file still found, the pinned box still a box, in the file's units (mm).
      QDir(dir.path()).mkpath("sub");
      const std::string copy = dir.filePath("sub/copy.json").toStdString();
      io::writeMechanismFile(spec, copy);
      const MechanismSpec back = readMechanismFile(copy);
      const DeformableSpec& e = back.deformables.at(0);
      QVERIFY(e.meshType == d.meshType);
      QVERIFY(e.tets == d.tets);
      QCOMPARE(e.vertices.size(), d.vertices.size());
      for (std::size_t k = 0; k < d.vertices.size(); ++k) QVERIFY((e.vertices[k] - d.vertices[k]).norm() < 1e-12);
      QVERIFY(e.pinned == d.pinned);
      QVERIFY(e.pinnedBox.has_value());
      if (d.meshType != "box") QVERIFY2(e.file == "../" + d.file, e.file.c_str());
    }
    // A cylinder about z: every vertex within the radius (mm → m).
    write(dir.filePath("mech.json"), mechanismWith(R"({"type": "cylinder", "radius": 50, "length": 200, "cells": [4, 4]})"));
    const MechanismSpec spec = readMechanismFile(dir.filePath("mech.json").toStdString());
    for (const Vec3& p : spec.deformables[0].vertices) QVERIFY(std::hypot(p.x(), p.y()) <= 0.05 + 1e-12 && p.z() <= 0.2 + 1e-12);
    // A broken mesh file is reported at its own line.
    write(dir.filePath("m.msh"), "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 x\n");
    write(dir.filePath("mech.json"), mechanismWith(R"({"type": "gmsh", "file": "m.msh"})"));
    try {
      readMechanismFile(dir.filePath("mech.json").toStdString());
      QFAIL("no error");
    } catch (const LoadError& e) {
      QVERIFY2(e.diagnostic().file.find("m.msh") != std::string::npos && e.diagnostic().line == 5, e.what());
    }
  }

  // A device or a pipe named as the mesh file is refused before it is read: /dev/zero would be
  // read until memory runs out and a FIFO with no writer blocks forever.
  void devicesAndPipesRefused() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string fifo = dir.filePath("pipe.msh").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    QCOMPARE(::mkfifo(dir.filePath("t.node").toUtf8().constData(), 0600), 0);
    for (const std::string& mesh : {std::string(R"({"type": "gmsh", "file": "/dev/zero"})"),
                                    std::string(R"({"type": "gmsh", "file": "pipe.msh"})"),
                                    std::string(R"({"type": "tetgen", "file": "t.node"})")}) {
      write(dir.filePath("mech.json"), mechanismWith(mesh));
      try {
        readMechanismFile(dir.filePath("mech.json").toStdString());
        QFAIL("no error");
      } catch (const LoadError& e) {
        QVERIFY2(std::string(e.what()).find("not a regular file") != std::string::npos, e.what());
      }
    }
    for (const std::string& path : {std::string("/dev/zero"), fifo}) {
      try {
        readMechanismFile(path);
        QFAIL("no error");
      } catch (const LoadError& e) {
        QVERIFY2(std::string(e.what()).find("not a regular file") != std::string::npos, e.what());
      }
    }
  }

  void cancelledRead() {
    // 100 000 points (a chain of 99 997 tets): long enough for the every-64k-lines check.
    constexpr int n = 100000;
    std::string node = std::to_string(n) + " 3 0 0\n", ele = std::to_string(n - 3) + " 4 0\n";
    for (int i = 0; i < n; ++i)
      node += std::to_string(i) + " " + std::to_string(i % 2) + " " + std::to_string((i / 2) % 2) + " " + std::to_string(i) + "\n";
    for (int i = 0; i + 3 < n; ++i)
      ele += std::to_string(i) + " " + std::to_string(i) + " " + std::to_string(i + 1) + " " + std::to_string(i + 2) + " " +
             std::to_string(i + 3) + "\n";
    QCOMPARE(parseTetGen(node, ele, "c.node", "c.ele").tets.size(), std::size_t(n - 3));
    std::atomic<bool> cancel{true};
    ReadCancelScope scope(cancel);
    try {
      parseTetGen(node, ele, "c.node", "c.ele");
      QFAIL("no error");
    } catch (const TetMeshError& e) {
      QCOMPARE(std::string(e.what()), std::string("cancelled"));
      QCOMPARE(e.file(), std::string("c.node"));
      QCOMPARE(e.line(), 65536);
    }
  }
};

QTEST_APPLESS_MAIN(TestTetMesh)
#include "test_tetmesh.moc"
