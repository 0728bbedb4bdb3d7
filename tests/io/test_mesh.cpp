// tests/io/test_mesh.cpp — core/io/mesh.cpp: mesh files through Assimp and the guards in front of
// it. Assimp's failed internal checks must become errors (not abort the program), PLY headers on
// which its reader would hang are refused before it runs, and non-finite coordinates are refused.
#include <QtTest>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <stdexcept>
#include <string>

#include "core/io/mesh.h"

namespace {

const std::string kData = MECHSIM_SOURCE_DIR "/tests/data/";

std::string errorOf(const std::string& path) {
  try {
    mechsim::io::loadMeshFile(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
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

  void nonFiniteVerticesRefused() {
    QVERIFY(errorOf(kData + "bad/meshes/infinite_vertex.obj").find("not a finite number") != std::string::npos);
    QVERIFY(errorOf("/dev/zero").find("not a regular file") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(TestMesh)
#include "test_mesh.moc"
