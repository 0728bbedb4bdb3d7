// fuzz/fuzz_mesh.cpp — the mesh files of shapes and surface meshes (core/io/mesh.h: Assimp, then
// our checks) on arbitrary bytes. The first byte picks the extension the bytes are saved under
// (.stl, .obj, .ply, .gltf), since Assimp chooses its parser by extension and content.
// It reads in this process (loadMeshFileInProcess, what the reader program runs), so the sanitizers
// see Assimp. Checked beyond "no crash, no sanitizer report, no hang": it throws only
// std::runtime_error, and a mesh it returns has finite vertices and every index inside them.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "core/io/mesh.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* const kExt[] = {".stl", ".obj", ".ply", ".gltf"};
  const std::string path = "/tmp/mechsim-fuzz-mesh-" + std::to_string(::getpid()) + kExt[data[0] % 4];
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data) + 1, static_cast<std::streamsize>(size - 1));
  }
  std::shared_ptr<const mechsim::MeshData> mesh;
  try {
    mesh = mechsim::io::loadMeshFileInProcess(path);
  } catch (const std::runtime_error&) {
  }
  std::remove(path.c_str());
  if (!mesh) return 0;
  for (const auto& v : mesh->vertices)
    if (!std::isfinite(v.x()) || !std::isfinite(v.y()) || !std::isfinite(v.z())) {
      std::fprintf(stderr, "fuzz_mesh: a vertex is not finite\n");
      std::abort();
    }
  for (auto i : mesh->indices)
    if (i >= mesh->vertices.size()) {
      std::fprintf(stderr, "fuzz_mesh: index %u outside %zu vertices\n", unsigned(i), mesh->vertices.size());
      std::abort();
    }
  return 0;
}
