// fuzz/fuzz_tetmesh.cpp — the TetGen (.node + .ele) and Gmsh (.msh) readers (core/io/tetmesh_io.h)
// on arbitrary bytes. The first byte picks the reader: even → Gmsh on the rest; odd → TetGen, the
// rest split at its first NUL byte into the .node and the .ele text.
// Checked beyond "no crash, no sanitizer report, no hang": the readers throw only TetMeshError,
// and a mesh they return has every tet's indices inside its vertex list.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/io/tetmesh_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mechsim;
  if (size == 0) return 0;
  const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  io::TetMeshFile mesh;
  try {
    if (data[0] % 2 == 0) {
      mesh = io::parseGmsh(rest, "fuzz.msh");
    } else {
      const std::size_t cut = rest.find('\0');
      const std::string node = rest.substr(0, cut);
      const std::string ele = cut == std::string::npos ? std::string() : rest.substr(cut + 1);
      mesh = io::parseTetGen(node, ele, "fuzz.node", "fuzz.ele");
    }
  } catch (const io::TetMeshError&) {
    return 0;
  }
  const int n = int(mesh.vertices.size());
  for (const auto& t : mesh.tets)
    for (int v : t)
      if (v < 0 || v >= n) {
        std::fprintf(stderr, "fuzz_tetmesh: tet index %d outside %d vertices\n", v, n);
        std::abort();
      }
  return 0;
}
