// core/io/mesh.cpp — mesh files through Assimp into MeshData, in this process (loadMeshFileInProcess;
// loadMeshFile runs it in a separate process: mesh_reader_process.cpp).
#include "core/io/mesh.h"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "core/mesh_normals.h"

// Debian's Assimp is built with its internal checks on, and a failed one (ai_assert) prints and
// aborts: a hostile mesh file (a PLY with a corrupt vertex line trips TriangulateProcess.cpp:238,
// found by fuzz/fuzz_mesh.cpp) would end the program. The library exports the function its checks
// call and installs no handler we could set (AssertHandler.h is not packaged), so this definition
// takes its place in our programs (symbol interposition: the executable's definition wins over the
// shared library's). It throws instead; Importer::ReadFile catches the exception and returns no
// scene with the message as its error string, which loadMeshFile reports like any unreadable file.
namespace Assimp {
void aiAssertViolation(const char* failedExpression, const char* file, int line) {
  throw std::runtime_error(std::string("the importer's own check failed (") + failedExpression + " at " + file + ":" +
                           std::to_string(line) + "); the file is corrupt");
}
}  // namespace Assimp

namespace mechsim::io {

namespace {

// Appends the triangles of `node` and its children, with the accumulated node transform.
void collect(const aiScene* scene, const aiNode* node, const aiMatrix4x4& parent, MeshData& out) {
  const aiMatrix4x4 xf = parent * node->mTransformation;
  aiMatrix3x3 nxf(xf);  // normals: inverse transpose of the linear part
  nxf.Inverse().Transpose();
  for (unsigned k = 0; k < node->mNumMeshes; ++k) {
    const aiMesh* mesh = scene->mMeshes[node->mMeshes[k]];
    if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;  // points / lines only
    const unsigned base = static_cast<unsigned>(out.vertices.size());
    for (unsigned i = 0; i < mesh->mNumVertices; ++i) {
      const aiVector3D p = xf * mesh->mVertices[i];
      out.vertices.emplace_back(p.x, p.y, p.z);
      if (mesh->HasNormals()) {
        aiVector3D n = nxf * mesh->mNormals[i];
        n.Normalize();
        out.normals.emplace_back(n.x, n.y, n.z);
      }
    }
    // Triangulate left lines and points as 1- and 2-index faces; keep only the triangles.
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;
      for (int j = 0; j < 3; ++j) out.indices.push_back(base + face.mIndices[j]);
    }
  }
  for (unsigned c = 0; c < node->mNumChildren; ++c) collect(scene, node->mChildren[c], xf, out);
}

/// Assimp's PLY reader (Debian's 5.2) never returns on some malformed headers — one without its
/// "end_header" line, one whose "end_header" runs into the data (both found by
/// fuzz/fuzz_mesh.cpp) — it reads on at the end of the file. Every file Assimp would give that
/// reader (a .ply, or any file starting with the "ply" magic) has its header checked here, line by
/// line against the PLY grammar, and must end it within the first MiB.
void checkPlyHeader(const std::string& path) {
  // Assimp takes a file for PLY by its extension, or by the magic in any letter case: only those
  // are read further (the first MiB), every other mesh file costs three bytes here.
  std::ifstream in(path, std::ios::binary);
  std::string head(3, '\0');
  in.read(head.data(), 3);
  head.resize(static_cast<std::size_t>(in.gcount()));
  std::string ext = std::filesystem::path(path).extension().string(), magic = head;
  for (std::string* t : {&ext, &magic})
    for (char& c : *t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext != ".ply" && magic != "ply") return;
  head.resize(1 << 20);
  in.read(head.data() + 3, static_cast<std::streamsize>(head.size() - 3));
  head.resize(3 + static_cast<std::size_t>(in.gcount()));
  auto refuse = [&](const std::string& why) {
    throw std::runtime_error("cannot read mesh file " + path + ": malformed PLY header (" + why + ")");
  };
  static const std::regex kFormat("format (ascii|binary_little_endian|binary_big_endian) [0-9.]+");
  static const std::regex kElement("element [!-~]+ [0-9]+");
  static const std::string kType = "(char|uchar|short|ushort|int|uint|float|double|int8|uint8|int16|uint16|int32|uint32|float32|float64)";
  static const std::regex kProperty("property " + kType + " [!-~]+");
  static const std::regex kList("property list " + kType + " " + kType + " [!-~]+");
  std::size_t pos = 0;
  for (int line = 1;; ++line) {
    const std::size_t end = head.find('\n', pos);
    if (end == std::string::npos) refuse("no end_header line in the first MiB");
    std::string text = head.substr(pos, end - pos);
    pos = end + 1;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.pop_back();
    if (line == 1) {
      if (text != "ply") refuse("the first line is not \"ply\"");
      continue;
    }
    if (text == "end_header") return;
    if (text.rfind("comment", 0) == 0 || text.rfind("obj_info", 0) == 0) continue;
    if (!std::regex_match(text, kFormat) && !std::regex_match(text, kElement) && !std::regex_match(text, kProperty) &&
        !std::regex_match(text, kList))
      refuse("line " + std::to_string(line) + " is not a format, element, property or comment line");
  }
}

}  // namespace

std::shared_ptr<const MeshData> loadMeshFileInProcess(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // Check the file ourselves first: Assimp's message for a missing file is less direct.
  if (!fs::exists(path, ec)) throw std::runtime_error("mesh file not found: " + path);
  if (!fs::is_regular_file(path, ec)) throw std::runtime_error("mesh path is not a regular file: " + path);
  if (fs::file_size(path, ec) == 0) throw std::runtime_error("mesh file is empty: " + path);
  checkPlyHeader(path);

  Assimp::Importer importer;
  // No aiProcess_GenSmoothNormals: on indexed meshes (glTF, joined OBJ) its vertices can hold only
  // one normal, so every edge of a plate or a box came out rounded. Files without normals get
  // crease-aware ones below (core/mesh_normals.h).
  const aiScene* scene = importer.ReadFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
  if (!scene || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) || !scene->mRootNode) {
    std::string why = importer.GetErrorString();
    if (why.empty()) why = "unknown reason";
    // Assimp quotes file content in some messages; keep the diagnostic on one printable line.
    for (char& c : why)
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    while (!why.empty() && (why.back() == ' ' || why.back() == '\n')) why.pop_back();
    throw std::runtime_error("cannot read mesh file " + path + ": " + why);
  }
  auto data = std::make_shared<MeshData>();
  collect(scene, scene->mRootNode, aiMatrix4x4(), *data);
  if (data->indices.empty()) throw std::runtime_error("mesh file has no triangles: " + path);
  // Assimp passes "nan" and "1e999" through from text formats; a shape, its mass properties and
  // the view would all turn NaN.
  for (const Eigen::Vector3f& v : data->vertices)
    if (!v.allFinite()) throw std::runtime_error("mesh file has a vertex that is not a finite number: " + path);
  // Assimp's importers are trusted with nothing a hostile file controls: a face naming a vertex
  // that is not there ends the read here, before anything indexes with it.
  for (unsigned i : data->indices)
    if (i >= data->vertices.size()) throw std::runtime_error("mesh file has a face with a vertex out of range: " + path);
  // Normals are all-or-nothing: the file's own when every mesh has them, else normals that are
  // smooth across gentle edges and sharp at creases (a vertex repeated once per smooth side).
  if (data->normals.size() != data->vertices.size()) {
    std::vector<unsigned> groupPoint;
    std::vector<unsigned> corners = creaseGroups(data->vertices, data->indices, kCreaseDegrees, groupPoint);
    std::vector<Eigen::Vector3f> vertices(groupPoint.size());
    for (std::size_t g = 0; g < groupPoint.size(); ++g) vertices[g] = data->vertices[groupPoint[g]];
    data->vertices = std::move(vertices);
    data->indices = std::move(corners);
    data->normals = areaWeightedNormals(data->vertices, data->indices);
  }
  return data;
}

}  // namespace mechsim::io
