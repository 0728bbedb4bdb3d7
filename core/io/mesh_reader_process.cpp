// core/io/mesh_reader_process.cpp — loadMeshFile: the mesh file read by the program
// mechsim-mesh-reader (app/mesh_reader_main.cpp) in a process of its own, its result decoded and
// checked here (mesh_wire.h). Assimp is a large C++ library that reads many formats; fuzzing found
// a failed internal check (abort) and endless loops in it within minutes (fuzz/), each guarded in
// mesh.cpp since, but a crash or hang we have not met would otherwise take the user's session down
// with it. Costs one process start per mesh file (a few ms).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>

#include "core/io/in_process.h"
#include "core/io/mesh.h"
#include "core/io/mesh_wire.h"
#include "core/io/read_cancel.h"
#include "core/io/subprocess.h"

namespace mechsim::io {

std::string meshReaderProgram() {
  return findHelperProgram("mechsim-mesh-reader", "MECHSIM_MESH_READER");
}

double meshReaderTimeout(double bytes) {
  return timeoutFromEnv("MECHSIM_MESH_READER_TIMEOUT", 10 + bytes / (1 << 20));
}

namespace {
/// Meshes read and still in use (held by a spec or a scene), by path with the file's size and
/// modification time: a mechanism read again after an edit (a parameter moved in the GUI,
/// core/io/parameters.h specWithParameters) takes them back instead of running the reader again.
/// Weak pointers: the cache keeps no mesh alive.
struct CachedMesh {
  std::uintmax_t size = 0;
  std::filesystem::file_time_type time;
  std::weak_ptr<const MeshData> mesh;
};
std::mutex cacheMutex;
std::map<std::string, CachedMesh> meshCache;

std::shared_ptr<const MeshData> readMeshFile(const std::string& path);
}  // namespace

std::shared_ptr<const MeshData> loadMeshFile(const std::string& path) {
  std::error_code ec1, ec2;
  const auto size = std::filesystem::file_size(path, ec1);
  const auto time = std::filesystem::last_write_time(path, ec2);
  if (!ec1 && !ec2) {
    std::lock_guard<std::mutex> lock(cacheMutex);
    auto it = meshCache.find(path);
    if (it != meshCache.end() && it->second.size == size && it->second.time == time)
      if (auto mesh = it->second.mesh.lock()) return mesh;
  }
  std::shared_ptr<const MeshData> mesh = readMeshFile(path);
  if (!ec1 && !ec2) {
    std::lock_guard<std::mutex> lock(cacheMutex);
    for (auto it = meshCache.begin(); it != meshCache.end();)  // forget the meshes no one holds
      it = it->second.mesh.expired() ? meshCache.erase(it) : std::next(it);
    meshCache[path] = CachedMesh{size, time, mesh};
  }
  return mesh;
}

namespace {
std::shared_ptr<const MeshData> readMeshFile(const std::string& path) {
  const std::string reader = meshReaderProgram();
  if (reader.empty()) {
    if (const MeshReader& inProcess = inProcessMeshReader()) return inProcess(path);
    throw std::runtime_error("cannot read mesh file " + path +
                             ": no mesh reader program (mechsim-mesh-reader beside this program, or "
                             "MECHSIM_MESH_READER=PATH), and this program does not read meshes itself");
  }
  // A missing, empty or too large file is refused here, without starting the reader.
  const double bytes = static_cast<double>(checkMeshFile(path));
  const double timeout = meshReaderTimeout(bytes);
  // A mesh grows little from file to MeshData (a binary STL: 50 bytes per triangle in, at most 84
  // out); anything far beyond is runaway output.
  const std::size_t maxOut = static_cast<std::size_t>(std::min(64 * bytes, 1e12)) + (std::size_t(64) << 20);
  const SubprocessResult r = runSubprocess({reader, "--", path}, timeout, maxOut, 64 * 1024, readCancelFlag());
  const std::string prefix = "cannot read mesh file " + path + ": ";
  const HelperEnd end = helperEnd(r, "the mesh reader", reader, timeout,
                                  "the file is corrupt, or too large to read in that time", "MECHSIM_MESH_READER_TIMEOUT");
  if (!end.answered) throw std::runtime_error(end.whole ? end.text : prefix + end.text);
  try {
    return std::make_shared<const MeshData>(decodeMeshWire(r.out));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(prefix + "the mesh reader's answer is " + e.what() + " (" + reader + ")");
  }
}
}  // namespace

}  // namespace mechsim::io
