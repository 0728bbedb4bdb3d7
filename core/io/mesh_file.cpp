// core/io/mesh_file.cpp — checkMeshFile (mesh.h): what the program that asks for a mesh file and the
// reader program that reads it both check first. In mechsim_mesh_wire, the library both link.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include "core/io/mesh.h"

namespace mechsim::io {

std::uintmax_t checkMeshFile(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // Checked here first: Assimp's message for a missing file is less direct.
  if (!fs::exists(path, ec)) throw std::runtime_error("mesh file not found: " + path);
  if (!fs::is_regular_file(path, ec)) throw std::runtime_error("mesh path is not a regular file: " + path);
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw std::runtime_error("cannot read mesh file " + path + ": " + ec.message());
  if (size == 0) throw std::runtime_error("mesh file is empty: " + path);
  // Assimp reads a file whole before it looks at it: a 2 GB file of zeros cost 2 GB and 18 s
  // (STL) to 58 s (glTF) before its "cannot read" (docs/format.md, "Limits").
  static_assert(kMaxMeshFileBytes % (std::uintmax_t(1) << 30) == 0);
  if (size > kMaxMeshFileBytes)
    throw std::runtime_error("mesh file is too large (" + std::to_string(size) + " bytes; the limit is " +
                             std::to_string(kMaxMeshFileBytes >> 30) + " GiB): " + path);
  return size;
}

}  // namespace mechsim::io
