// core/io/tetmesh_io.cpp — TetGen and Gmsh tetrahedral mesh readers.
//
// TetGen .node: "<#points> <dim = 3> <#attributes> <#boundary markers (0|1)>", then one line per
// point "<index> x y z [attributes] [marker]"; .ele: "<#tets> <nodes per tet (4|10)> <#attributes>",
// then "<index> n1 n2 n3 n4 [...]". '#' starts a comment. Indices start at the first point's index
// (0 or 1). Second-order (10-node) tets keep their four corners.
// Gmsh 2.2: $Nodes n / "id x y z" / $EndNodes, $Elements n / "id type ntags tags… nodes" / $EndElements.
// Gmsh 4.1: $Nodes "blocks n min max", per block "dim tag parametric count", count tags, then count
// coordinate lines; $Elements "blocks n min max", per block "dim tag type count", then
// "tag nodes…" lines. Node tags may be sparse: they are mapped to 0-based indices.
#include "core/io/tetmesh_io.h"
#include "core/io/read_cancel.h"
#include "core/io/regular_file.h"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <sstream>
#include <unordered_map>

namespace mechsim::io {

namespace {

/// The largest mesh file read (a million-tet .ele or .msh is 40-60 MB of text).
constexpr std::uintmax_t kMaxMeshFileBytes = std::uintmax_t(1) << 30;

std::string slurp(const std::string& path) {
  // A device, pipe or socket named as a mesh (/dev/zero, a FIFO) would otherwise be read until
  // memory runs out, or block forever (regular_file.h).
  std::string text;
  if (const auto failure = readRegularFile(path, kMaxMeshFileBytes, text)) {
    using Kind = ReadFailure::Kind;
    switch (failure->kind) {
      case Kind::Missing: throw TetMeshError(path, 0, "cannot open mesh file: no such file");
      case Kind::Folder:
      case Kind::NotRegular: throw TetMeshError(path, 0, "not a regular file (a folder, device or pipe)");
      case Kind::TooLarge: throw TetMeshError(path, 0, "mesh file " + failure->reason);
      case Kind::Unreadable: throw TetMeshError(path, 0, "cannot read mesh file: " + failure->reason);
    }
  }
  return text;
}

/// Line-by-line reader that drops comments ('#', TetGen) and blank lines and keeps line numbers.
class Lines {
 public:
  Lines(const std::string& text, std::string name, bool hashComments) : name_(std::move(name)) {
    std::istringstream in(text);
    std::string l;
    int n = 0;
    while (std::getline(in, l)) {
      ++n;
      checkCancel(std::size_t(n), n);
      if (hashComments) {
        const auto h = l.find('#');
        if (h != std::string::npos) l.resize(h);
      }
      if (!l.empty() && l.back() == '\r') l.pop_back();
      if (l.find_first_not_of(" \t") == std::string::npos) continue;
      lines_.push_back({n, l});
    }
  }
  bool done() const { return pos_ >= lines_.size(); }
  /// Cancel (read_cancel.h) is heard every 64k lines, when they are split and when they are read.
  /// `count` lines so far, at file line `line`.
  void checkCancel(std::size_t count, int line) const {
    if ((count & 0xFFFF) == 0 && cancel_ && cancel_->load()) throw TetMeshError(name_, line, "cancelled");
  }
  /// The next line as a stream; fails with "unexpected end of file (expected WHAT)".
  std::istringstream next(const char* what) {
    if (done()) throw TetMeshError(name_, lines_.empty() ? 0 : lines_.back().first, std::string("unexpected end of file (expected ") + what + ")");
    line_ = lines_[pos_].first;
    checkCancel(pos_ + 1, line_);
    return std::istringstream(lines_[pos_++].second);
  }
  std::string nextRaw(const char* what) {
    if (done()) throw TetMeshError(name_, 0, std::string("unexpected end of file (expected ") + what + ")");
    line_ = lines_[pos_].first;
    return lines_[pos_++].second;
  }
  [[noreturn]] void fail(const std::string& msg) const { throw TetMeshError(name_, line_, msg); }
  template <class T>
  T read(std::istringstream& s, const char* what) const {
    T v{};
    if (!(s >> v)) fail(std::string("expected ") + what);
    if constexpr (std::is_floating_point_v<T>)
      if (!std::isfinite(v)) fail(std::string(what) + " is not finite");
    return v;
  }
  long count(std::istringstream& s, const char* what, long maxCount = 50'000'000) const {
    const long n = read<long>(s, what);
    if (n < 0 || n > maxCount) fail(std::string(what) + " out of range: " + std::to_string(n));
    return n;
  }

 private:
  std::string name_;
  const std::atomic<bool>* cancel_ = readCancelFlag();  // of the reading thread (read_cancel.h)
  std::vector<std::pair<int, std::string>> lines_;
  std::size_t pos_ = 0;
  int line_ = 0;
};

}  // namespace

TetMeshFile parseTetGen(const std::string& nodeText, const std::string& eleText, const std::string& nodeName,
                        const std::string& eleName) {
  TetMeshFile m;
  Lines nl(nodeText, nodeName, true);
  auto h = nl.next("the .node header");
  const long np = nl.count(h, "the number of points");
  const int dim = nl.read<int>(h, "the dimension");
  if (dim != 3) nl.fail("dimension must be 3, got " + std::to_string(dim));
  long nattr = 0, nmark = 0;
  if (!(h >> nattr)) nattr = 0;
  if (!(h >> nmark)) nmark = 0;
  long base = 0;
  std::unordered_map<long, int> index;
  for (long k = 0; k < np; ++k) {
    auto s = nl.next("a point line");
    const long id = nl.read<long>(s, "a point index");
    if (k == 0) base = id;
    if (id != base + k) nl.fail("point index " + std::to_string(id) + " out of sequence (expected " + std::to_string(base + k) + ")");
    Vec3 p;
    for (int r = 0; r < 3; ++r) p[r] = nl.read<double>(s, "a coordinate");
    m.vertices.push_back(p);
  }
  Lines el(eleText, eleName, true);
  auto eh = el.next("the .ele header");
  const long nt = el.count(eh, "the number of tetrahedra");
  const int npt = el.read<int>(eh, "the nodes per tetrahedron");
  if (npt != 4 && npt != 10) el.fail("nodes per tetrahedron must be 4 or 10, got " + std::to_string(npt));
  for (long k = 0; k < nt; ++k) {
    auto s = el.next("a tetrahedron line");
    el.read<long>(s, "a tetrahedron index");
    std::array<int, 4> t{};
    for (int a = 0; a < 4; ++a) {
      const long v = el.read<long>(s, "a vertex index") - base;
      if (v < 0 || v >= np) el.fail("vertex index " + std::to_string(v + base) + " out of range (" + std::to_string(np) + " points from " + std::to_string(base) + ")");
      t[a] = static_cast<int>(v);
    }
    m.tets.push_back(t);
  }
  return m;
}

TetMeshFile readTetGen(const std::string& path) {
  std::string base = path;
  if (base.size() > 5 && base.substr(base.size() - 5) == ".node") base.resize(base.size() - 5);
  const std::string node = slurp(base + ".node");  // the .node first: its problems are reported first
  return parseTetGen(node, slurp(base + ".ele"), base + ".node", base + ".ele");
}

TetMeshFile parseGmsh(const std::string& text, const std::string& name) {
  Lines L(text, name, false);
  TetMeshFile m;
  std::unordered_map<long, int> node;  // Gmsh tag → index
  double version = 0;
  bool sawNodes = false;
  // The two format versions differ only in how lines are grouped; a node and a tetrahedron are
  // read the same way in both.
  auto addNode = [&](long id, std::istringstream& l) {
    Vec3 p;
    for (int r = 0; r < 3; ++r) p[r] = L.read<double>(l, "a coordinate");
    if (!node.emplace(id, static_cast<int>(m.vertices.size())).second)
      L.fail("duplicate node tag " + std::to_string(id));
    m.vertices.push_back(p);
  };
  auto addTet = [&](std::istringstream& l) {
    std::array<int, 4> t{};
    for (int a = 0; a < 4; ++a) {
      const long id = L.read<long>(l, "a node of the tetrahedron");
      const auto it = node.find(id);
      if (it == node.end()) L.fail("element refers to unknown node " + std::to_string(id));
      t[a] = it->second;
    }
    m.tets.push_back(t);
  };
  while (!L.done()) {
    const std::string sec = L.nextRaw("a section");
    const std::string tag = sec.substr(0, sec.find_first_of(" \t"));
    if (tag == "$MeshFormat") {
      auto s = L.next("the format line");
      version = L.read<double>(s, "the format version");
      const int fileType = L.read<int>(s, "the file type");
      if (fileType != 0) L.fail("binary .msh files are not supported (save as ASCII)");
      if (!(version >= 2 && version < 3) && !(version >= 4 && version < 5))
        L.fail("unsupported .msh version " + std::to_string(version) + " (2.2 or 4.1 expected)");
    } else if (tag == "$Nodes") {
      if (version == 0) L.fail("$Nodes before $MeshFormat");
      sawNodes = true;
      if (version < 3) {
        auto s = L.next("the node count");
        const long n = L.count(s, "the node count");
        for (long k = 0; k < n; ++k) {
          auto l = L.next("a node line");
          const long id = L.read<long>(l, "a node tag");
          addNode(id, l);
        }
      } else {
        auto s = L.next("the $Nodes header");
        const long blocks = L.count(s, "the number of entity blocks");
        for (long b = 0; b < blocks; ++b) {
          auto bh = L.next("a node block header");
          L.read<int>(bh, "the entity dimension");
          L.read<int>(bh, "the entity tag");
          const int parametric = L.read<int>(bh, "the parametric flag");
          if (parametric != 0) L.fail("parametric node coordinates are not supported");
          const long n = L.count(bh, "the node count of the block");
          std::vector<long> tags(n);
          for (long k = 0; k < n; ++k) {
            auto l = L.next("a node tag");
            tags[k] = L.read<long>(l, "a node tag");
          }
          for (long k = 0; k < n; ++k) {
            auto l = L.next("node coordinates");
            addNode(tags[k], l);
          }
        }
      }
      L.nextRaw("$EndNodes");
    } else if (tag == "$Elements") {
      if (!sawNodes) L.fail("$Elements before $Nodes");
      if (version < 3) {
        auto s = L.next("the element count");
        const long n = L.count(s, "the element count");
        for (long k = 0; k < n; ++k) {
          auto l = L.next("an element line");
          L.read<long>(l, "an element tag");
          const int type = L.read<int>(l, "an element type");
          const int ntags = L.read<int>(l, "the tag count");
          for (int q = 0; q < ntags; ++q) L.read<long>(l, "an element tag value");
          if (type == 4) addTet(l);  // only 4-node tetrahedra
        }
      } else {
        auto s = L.next("the $Elements header");
        const long blocks = L.count(s, "the number of entity blocks");
        for (long b = 0; b < blocks; ++b) {
          auto bh = L.next("an element block header");
          L.read<int>(bh, "the entity dimension");
          L.read<int>(bh, "the entity tag");
          const int type = L.read<int>(bh, "the element type");
          const long n = L.count(bh, "the element count of the block");
          for (long k = 0; k < n; ++k) {
            auto l = L.next("an element line");
            L.read<long>(l, "an element tag");
            if (type == 4) addTet(l);
          }
        }
      }
      L.nextRaw("$EndElements");
    } else if (!tag.empty() && tag[0] == '$' && tag.rfind("$End", 0) != 0) {
      // Another section ($PhysicalNames, $Entities, ...): skip to its end.
      const std::string end = "$End" + tag.substr(1);
      while (true) {
        const std::string l = L.nextRaw(end.c_str());
        if (l.rfind(end, 0) == 0) break;
      }
    }
  }
  if (version == 0) throw TetMeshError(name, 1, "not a Gmsh mesh: no $MeshFormat section");
  if (m.tets.empty()) throw TetMeshError(name, 0, "no tetrahedra (element type 4) in the mesh");
  return m;
}

TetMeshFile readGmsh(const std::string& path) { return parseGmsh(slurp(path), path); }

}  // namespace mechsim::io
