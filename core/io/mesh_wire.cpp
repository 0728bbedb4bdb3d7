// core/io/mesh_wire.cpp — MeshData to bytes and back (mesh_wire.h).
#include "core/io/mesh_wire.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace mechsim::io {

namespace {

constexpr char kMagic[8] = {'M', 'S', 'H', 'W', 'I', 'R', 'E', '2'};  // 2: with colour runs
constexpr char kTetMagic[8] = {'T', 'E', 'T', 'W', 'I', 'R', 'E', '1'};
constexpr char kEnd[4] = {'E', 'N', 'D', '.'};

template <class T>
void put(std::string& out, const T* data, std::size_t count) {
  out.append(reinterpret_cast<const char*>(data), count * sizeof(T));
}

[[noreturn]] void malformed(const char* what, const char* why) {
  throw std::runtime_error(std::string("malformed ") + what + ": " + why);
}

/// The framing both wires share: an 8-byte magic, `n` 64-bit counts, the body, the end mark.
struct Frame {
  std::uint64_t counts[4] = {0, 0, 0, 0};
  const char* body = nullptr;
  std::size_t size = 0;  // the body's bytes
};

Frame openFrame(const std::string& bytes, const char (&magic)[8], int n, const char* what) {
  const std::size_t head = sizeof magic + 8 * std::size_t(n);
  if (bytes.size() < head + sizeof kEnd) malformed(what, "too short");
  if (std::memcmp(bytes.data(), magic, sizeof magic) != 0) malformed(what, "wrong header");
  Frame f;
  for (int k = 0; k < n; ++k) std::memcpy(&f.counts[k], bytes.data() + sizeof magic + 8 * k, 8);
  f.body = bytes.data() + head;
  f.size = bytes.size() - head - sizeof kEnd;
  if (std::memcmp(bytes.data() + bytes.size() - sizeof kEnd, kEnd, sizeof kEnd) != 0) malformed(what, "no end mark");
  return f;
}

}  // namespace

std::string encodeMeshWire(const MeshData& mesh) {
  std::string out;
  const std::uint64_t counts[4] = {mesh.vertices.size(), mesh.normals.size(), mesh.indices.size(), mesh.colors.size()};
  out.reserve(sizeof kMagic + sizeof counts + 12 * (counts[0] + counts[1]) + 4 * counts[2] + 20 * counts[3] + sizeof kEnd);
  put(out, kMagic, sizeof kMagic);
  put(out, counts, 4);
  for (const auto* list : {&mesh.vertices, &mesh.normals})
    for (const Eigen::Vector3f& v : *list) put(out, v.data(), 3);
  static_assert(sizeof(unsigned) == 4, "indices travel as 32-bit");
  if (!mesh.indices.empty()) put(out, mesh.indices.data(), mesh.indices.size());
  for (const MeshData::ColorRun& run : mesh.colors) {
    const std::uint32_t range[2] = {run.first, run.count};
    put(out, range, 2);
    put(out, run.rgb.data(), 3);
  }
  put(out, kEnd, sizeof kEnd);
  return out;
}

MeshData decodeMeshWire(const std::string& bytes) {
  constexpr const char* what = "mesh data";
  const Frame f = openFrame(bytes, kMagic, 4, what);
  const std::uint64_t nv = f.counts[0], nn = f.counts[1], ni = f.counts[2], nc = f.counts[3];
  // Bound each count by the bytes present before multiplying, so no product overflows.
  const std::size_t body = f.size;
  if (nv > body / 12 || nn > body / 12 || ni > body / 4 || nc > body / 20) malformed(what, "counts larger than the data");
  if (nv > 0xffffffffu) malformed(what, "more vertices than 32-bit indices reach");
  if (nn != 0 && nn != nv) malformed(what, "normals neither absent nor one per vertex");
  if (ni % 3 != 0) malformed(what, "index count not a multiple of 3");
  if (12 * (nv + nn) + 4 * ni + 20 * nc != body) malformed(what, "length does not match the counts");
  MeshData m;
  const char* p = f.body;
  for (auto [list, n] : {std::pair{&m.vertices, nv}, std::pair{&m.normals, nn}}) {
    list->resize(n);
    for (Eigen::Vector3f& v : *list) {
      std::memcpy(v.data(), p, 12);
      p += 12;
    }
  }
  m.indices.resize(ni);
  if (ni > 0) std::memcpy(m.indices.data(), p, 4 * ni);
  p += 4 * ni;
  // Colour runs: each a non-empty whole number of triangles inside the indices, after the run
  // before it, its colour finite and in [0, 1] (what the reader clamps to).
  m.colors.resize(nc);
  std::uint64_t end = 0;
  for (MeshData::ColorRun& run : m.colors) {
    std::uint32_t range[2];
    std::memcpy(range, p, 8);
    std::memcpy(run.rgb.data(), p + 8, 12);
    p += 20;
    run.first = range[0], run.count = range[1];
    if (run.first % 3 != 0 || run.count % 3 != 0 || run.count == 0) malformed(what, "a colour run that is not whole triangles");
    if (run.first < end || std::uint64_t(run.first) + run.count > ni) malformed(what, "a colour run out of order or outside the triangles");
    end = std::uint64_t(run.first) + run.count;
    if (!run.rgb.allFinite() || run.rgb.minCoeff() < 0 || run.rgb.maxCoeff() > 1) malformed(what, "a colour outside [0, 1]");
  }
  for (const Eigen::Vector3f& v : m.vertices)
    if (!v.allFinite()) malformed(what, "a vertex is not a finite number");
  for (unsigned i : m.indices)
    if (i >= nv) malformed(what, "an index outside the vertices");
  return m;
}

std::string encodeTetWire(const TetMeshFile& mesh) {
  std::string out;
  const std::uint64_t counts[2] = {mesh.vertices.size(), mesh.tets.size()};
  put(out, kTetMagic, sizeof kTetMagic);
  put(out, counts, 2);
  for (const Vec3& v : mesh.vertices) put(out, v.data(), 3);
  for (const auto& t : mesh.tets) {
    const std::int32_t ix[4] = {t[0], t[1], t[2], t[3]};
    put(out, ix, 4);
  }
  put(out, kEnd, sizeof kEnd);
  return out;
}

TetMeshFile decodeTetWire(const std::string& bytes) {
  constexpr const char* what = "tet mesh data";
  const Frame f = openFrame(bytes, kTetMagic, 2, what);
  const std::uint64_t nv = f.counts[0], nt = f.counts[1];
  if (nv > f.size / 24 || nt > f.size / 16) malformed(what, "counts larger than the data");
  if (24 * nv + 16 * nt != f.size) malformed(what, "length does not match the counts");
  TetMeshFile m;
  const char* p = f.body;
  m.vertices.resize(nv);
  for (Vec3& v : m.vertices) {
    std::memcpy(v.data(), p, 24);
    p += 24;
    if (!v.allFinite()) malformed(what, "a vertex is not a finite number");
  }
  m.tets.resize(nt);
  for (auto& t : m.tets) {
    std::int32_t ix[4];
    std::memcpy(ix, p, 16);
    p += 16;
    for (int a = 0; a < 4; ++a) {
      if (ix[a] < 0 || static_cast<std::uint64_t>(ix[a]) >= nv) malformed(what, "an index outside the vertices");
      t[a] = ix[a];
    }
  }
  return m;
}

}  // namespace mechsim::io
