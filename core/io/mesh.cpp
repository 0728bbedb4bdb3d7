// core/io/mesh.cpp — mesh files through Assimp into MeshData, in this process (loadMeshFileInProcess;
// loadMeshFile runs it in a separate process: mesh_reader_process.cpp).
#include "core/io/mesh.h"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

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

/// Joins the corners of one mesh's triangles that have the same position and normal into one
/// vertex (what Assimp's aiProcess_JoinIdenticalVertices does, within 1e-5 there, bit for bit
/// here, as the tetrahedraliser welds). Assimp's step keeps a 272-byte record of every attribute
/// per vertex, with address space reserved for every vertex at once: reading a binary STL of 10^7
/// triangles took 6 GB (12.5 GB of address space), one of 2·10^6 triangles that share no corner
/// 3.4 GB. This costs an open-addressing table of 4-byte vertex numbers, at most half full, and a
/// 4-byte map per vertex of the mesh (docs/format.md, "Limits").
class CornerJoiner {
 public:
  CornerJoiner(MeshData& out, std::size_t maxVertices, bool normals) : out_(out), base_(out.vertices.size()), normals_(normals) {
    std::size_t capacity = 16;
    while (capacity < 2 * maxVertices) capacity *= 2;
    slots_.assign(capacity, kEmpty);
  }

  /// The output vertex of position p and normal n (n ignored without normals), added if new.
  unsigned vertex(const Eigen::Vector3f& p, const Eigen::Vector3f& n) {
    // MeshData numbers vertices with 32 bits (a scene that instances a mesh many times could
    // outgrow them; the reader's memory limit comes first in practice).
    if (out_.vertices.size() >= kEmpty) throw std::runtime_error("more than 2^32 - 1 vertices");
    // + 0.0f: -0 and +0 are one coordinate (equal, and hashed alike).
    const Eigen::Vector3f pk = p + Eigen::Vector3f::Zero(), nk = normals_ ? Eigen::Vector3f(n + Eigen::Vector3f::Zero()) : Eigen::Vector3f::Zero();
    std::size_t slot = hash(pk, nk) & (slots_.size() - 1);
    for (;; slot = (slot + 1) & (slots_.size() - 1)) {
      const std::uint32_t at = slots_[slot];
      if (at == kEmpty) break;
      if (out_.vertices[base_ + at] == pk && (!normals_ || out_.normals[base_ + at] == nk)) return unsigned(base_ + at);
    }
    slots_[slot] = std::uint32_t(out_.vertices.size() - base_);
    out_.vertices.push_back(pk);
    if (normals_) out_.normals.push_back(nk);
    return unsigned(out_.vertices.size() - 1);
  }

 private:
  static constexpr std::uint32_t kEmpty = 0xffffffffu;
  MeshData& out_;
  std::size_t base_;
  bool normals_;
  std::vector<std::uint32_t> slots_;

  static std::size_t hash(const Eigen::Vector3f& p, const Eigen::Vector3f& n) {
    std::uint64_t h = 0x9e3779b97f4a7c15ull;
    for (const float* v : {p.data(), n.data()})
      for (int i = 0; i < 3; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, v + i, 4);
        h = (h ^ bits) * 0x100000001b3ull;
        h ^= h >> 29;
      }
    return static_cast<std::size_t>(h);
  }
};

/// The colour the material of `mesh` gives its surface: the base colour (glTF's baseColorFactor)
/// when the material has one, else its diffuse colour (Collada <diffuse><color>, OBJ's Kd in the
/// .mtl, FBX, 3DS...). None when the material is one Assimp makes up for a file or a mesh that
/// names none — "DefaultMaterial" (OBJ without .mtl: grey 0.6; STL: white), or one without a name
/// in plain white (PLY; glTF's default material) — or when the value is not a finite number. Each
/// channel is clamped to [0, 1] (an OBJ may write Kd 1.2).
std::optional<Eigen::Vector3f> materialColor(const aiScene* scene, const aiMesh* mesh) {
  if (mesh->mMaterialIndex >= scene->mNumMaterials || !scene->mMaterials) return std::nullopt;
  const aiMaterial* material = scene->mMaterials[mesh->mMaterialIndex];
  if (!material) return std::nullopt;
  aiString name;
  if (material->Get(AI_MATKEY_NAME, name) != aiReturn_SUCCESS) name.Clear();
  if (std::strcmp(name.C_Str(), AI_DEFAULT_MATERIAL_NAME) == 0) return std::nullopt;
  aiColor4D c;
  if (material->Get(AI_MATKEY_BASE_COLOR, c) != aiReturn_SUCCESS && material->Get(AI_MATKEY_COLOR_DIFFUSE, c) != aiReturn_SUCCESS)
    return std::nullopt;
  const Eigen::Vector3f rgb(c.r, c.g, c.b);
  if (!rgb.allFinite() || (name.length == 0 && rgb == Eigen::Vector3f::Ones())) return std::nullopt;
  return rgb.cwiseMax(0.0f).cwiseMin(1.0f);
}

// Appends the triangles of `node` and its children, with the accumulated node transform; the
// corners of each mesh joined (CornerJoiner), and only the vertices a triangle uses kept.
void collect(const aiScene* scene, const aiNode* node, const aiMatrix4x4& parent, MeshData& out) {
  const aiMatrix4x4 xf = parent * node->mTransformation;
  aiMatrix3x3 nxf(xf);  // normals: inverse transpose of the linear part
  nxf.Inverse().Transpose();
  for (unsigned k = 0; k < node->mNumMeshes; ++k) {
    if (node->mMeshes[k] >= scene->mNumMeshes) throw std::runtime_error("a node naming a mesh that is not there");
    const aiMesh* mesh = scene->mMeshes[node->mMeshes[k]];
    if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;  // points / lines only
    const bool normals = mesh->HasNormals();
    std::size_t corners = 0;
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) corners += mesh->mFaces[f].mNumIndices == 3 ? 3 : 0;
    CornerJoiner join(out, std::min<std::size_t>(mesh->mNumVertices, corners), normals);
    std::vector<std::uint32_t> joined(mesh->mNumVertices, 0xffffffffu);  // mesh vertex → output vertex
    out.indices.reserve(out.indices.size() + corners);
    const std::size_t first = out.indices.size();  // this mesh's triangles start here
    // Triangulate left lines and points as 1- and 2-index faces; keep only the triangles.
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;
      for (int j = 0; j < 3; ++j) {
        const unsigned i = face.mIndices[j];
        // Assimp's importers are trusted with nothing a hostile file controls: a face naming a
        // vertex that is not there ends the read here, before anything indexes with it.
        if (i >= mesh->mNumVertices) throw std::runtime_error("a face with a vertex out of range");
        if (joined[i] == 0xffffffffu) {
          const aiVector3D p = xf * mesh->mVertices[i];
          aiVector3D n(0, 0, 0);
          if (normals) {
            n = nxf * mesh->mNormals[i];
            n.Normalize();
          }
          joined[i] = join.vertex(Eigen::Vector3f(p.x, p.y, p.z), Eigen::Vector3f(n.x, n.y, n.z));
        }
        out.indices.push_back(joined[i]);
      }
    }
    // The mesh's triangles, just appended, take its material's colour: one run per mesh (Assimp
    // splits a file's meshes by material), joined to the run before when that ends here in the
    // same colour.
    if (const auto rgb = materialColor(scene, mesh); rgb && out.indices.size() > first) {
      if (out.indices.size() > 0xffffffffu) throw std::runtime_error("more than 2^32 - 1 triangle corners in colour");
      const unsigned count = unsigned(out.indices.size() - first);
      if (!out.colors.empty() && out.colors.back().first + out.colors.back().count == first && out.colors.back().rgb == *rgb)
        out.colors.back().count += count;
      else
        out.colors.push_back({unsigned(first), count, *rgb});
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

/// A .stl file is binary when its size is exactly the 84-byte header plus the 50 bytes of each
/// triangle its header counts, else ASCII ("solid ..."); Assimp says only "Failed to determine STL
/// storage representation" of a file that is neither — a binary STL cut short, or one whose
/// header claims 10^7 triangles it does not hold. Such a file is refused here with its numbers.
void checkStlHeader(const std::string& path, std::uintmax_t size) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext != ".stl") return;
  std::ifstream in(path, std::ios::binary);
  unsigned char head[84] = {};
  in.read(reinterpret_cast<char*>(head), sizeof head);
  const std::size_t got = static_cast<std::size_t>(in.gcount());
  std::size_t text = 0;  // an ASCII STL: "solid" after any white space
  while (text < got && std::isspace(head[text])) ++text;
  if (got - text >= 5 && std::memcmp(head + text, "solid", 5) == 0) return;
  if (got < 84)
    throw std::runtime_error("cannot read mesh file " + path + ": not an STL file (" + std::to_string(size) +
                             " bytes: shorter than a binary STL's 84-byte header, and not an ASCII STL, which starts "
                             "with \"solid\")");
  const std::uint64_t count = std::uint64_t(head[80]) | std::uint64_t(head[81]) << 8 | std::uint64_t(head[82]) << 16 |
                              std::uint64_t(head[83]) << 24;
  if (84 + 50 * count == size) return;
  throw std::runtime_error("cannot read mesh file " + path + ": not an STL file (its binary header gives " +
                           std::to_string(count) + " triangles, which take " + std::to_string(84 + 50 * count) +
                           " bytes, but the file has " + std::to_string(size) +
                           " bytes; and it is not an ASCII STL, which starts with \"solid\")");
}

}  // namespace

std::shared_ptr<const MeshData> loadMeshFileInProcess(const std::string& path) {
  const std::uintmax_t size = checkMeshFile(path);
  checkPlyHeader(path);
  checkStlHeader(path, size);

  Assimp::Importer importer;
  // Collada: the file's <up_axis> is not applied (Assimp would turn a Z_UP file, as every ROS
  // robot's .dae is, to Y-up: 90° about x), and its <unit meter="..."> is (Assimp 5.2 scales the
  // root node by it and has no switch for that), as RViz and Gazebo read them (docs/import.md).
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  // No aiProcess_GenSmoothNormals: on indexed meshes (glTF, joined OBJ) its vertices can hold only
  // one normal, so every edge of a plate or a box came out rounded. Files without normals get
  // crease-aware ones below (core/mesh_normals.h). No aiProcess_JoinIdenticalVertices: collect()
  // joins corners itself, in a small fraction of the memory (CornerJoiner).
  const aiScene* scene = importer.ReadFile(path, aiProcess_Triangulate);
  if (!scene || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) || !scene->mRootNode) {
    std::string why = importer.GetErrorString();
    if (why.empty()) why = "unknown reason";
    // Assimp catches every exception of its importers, std::bad_alloc too, and keeps only its
    // what(): memory ran out (the reader program's limit, mesh_reader_main.cpp), which the
    // caller reports as such.
    if (why == std::bad_alloc().what()) throw std::bad_alloc();
    // Assimp quotes file content in some messages; keep the diagnostic on one printable line.
    for (char& c : why)
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    while (!why.empty() && (why.back() == ' ' || why.back() == '\n')) why.pop_back();
    throw std::runtime_error("cannot read mesh file " + path + ": " + why);
  }
  auto data = std::make_shared<MeshData>();
  try {
    collect(scene, scene->mRootNode, aiMatrix4x4(), *data);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("mesh file has " + std::string(e.what()) + ": " + path);
  }
  importer.FreeScene();  // the scene is copied: its memory is not needed for what follows
  if (data->indices.empty()) throw std::runtime_error("mesh file has no triangles: " + path);
  // Assimp passes "nan" and "1e999" through from text formats; a shape, its mass properties and
  // the view would all turn NaN.
  for (const Eigen::Vector3f& v : data->vertices)
    if (!v.allFinite()) throw std::runtime_error("mesh file has a vertex that is not a finite number: " + path);
  // Normals are all-or-nothing: the file's own when every mesh has them, else normals that are
  // smooth across gentle edges and sharp at creases (a vertex repeated once per smooth side).
  if (data->normals.size() != data->vertices.size()) creaseNormals(data->vertices, data->indices, data->normals);
  return data;
}

}  // namespace mechsim::io
