// core/io/mesh_reader_process.cpp — loadMeshFile: the mesh file read by the program
// mechsim-mesh-reader (app/mesh_reader_main.cpp) in a process of its own, its result decoded and
// checked here (mesh_wire.h). Assimp is a large C++ library that reads many formats; fuzzing found
// a failed internal check (abort) and endless loops in it within minutes (fuzz/), each guarded in
// mesh.cpp since, but a crash or hang we have not met would otherwise take the user's session down
// with it. Costs one process start per mesh file (a few ms).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include "core/io/mesh.h"
#include "core/io/mesh_wire.h"
#include "core/io/read_cancel.h"
#include "core/io/subprocess.h"

namespace mechsim::io {

namespace {

bool executable(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

/// The reader's one-line message: the first line of its stderr, printable, at most 1000 bytes.
std::string firstLine(std::string text) {
  text = text.substr(0, text.find('\n'));
  if (text.size() > 1000) text.resize(1000);
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

}  // namespace

std::string meshReaderProgram() {
  if (const char* env = std::getenv("MECHSIM_MESH_READER"); env && *env)
    return std::string(env) == "off" ? std::string() : std::string(env);
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::string beside = (self.parent_path() / "mechsim-mesh-reader").string();
    if (executable(beside)) return beside;
  }
#ifdef MECHSIM_MESH_READER_BUILD_PATH
  if (executable(MECHSIM_MESH_READER_BUILD_PATH)) return MECHSIM_MESH_READER_BUILD_PATH;
#endif
  return {};
}

double meshReaderTimeout(double bytes) {
  if (const char* env = std::getenv("MECHSIM_MESH_READER_TIMEOUT"); env && *env) {
    char* end = nullptr;
    const double s = std::strtod(env, &end);
    if (end && *end == '\0' && s > 0 && s < 1e6) return s;
  }
  return 10 + bytes / (1 << 20);
}

std::shared_ptr<const MeshData> loadMeshFile(const std::string& path) {
  const std::string reader = meshReaderProgram();
  if (reader.empty()) return loadMeshFileInProcess(path);
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  const double bytes = ec ? 0.0 : static_cast<double>(size);
  const double timeout = meshReaderTimeout(bytes);
  // A mesh grows little from file to MeshData (a binary STL: 50 bytes per triangle in, at most 84
  // out); anything far beyond is runaway output.
  const std::size_t maxOut = static_cast<std::size_t>(std::min(64 * bytes, 1e12)) + (std::size_t(64) << 20);
  const SubprocessResult r = runSubprocess({reader, "--", path}, timeout, maxOut, 64 * 1024, readCancelFlag());
  const std::string prefix = "cannot read mesh file " + path + ": ";
  if (r.cancelled) throw std::runtime_error(prefix + "reading was cancelled");
  const bool exited = r.started && !r.timedOut && !r.outputTooLarge && r.signal == 0;  // on its own, with a status
  // Exit status unknown (-1): reaped elsewhere (a program that ignores SIGCHLD); its answer decides.
  if (exited && (r.exitCode == 0 || (r.exitCode < 0 && !r.out.empty()))) {
    try {
      return std::make_shared<const MeshData>(decodeMeshWire(r.out));
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(prefix + "the mesh reader's answer is " + e.what() + " (" + reader + ")");
    }
  }
  // The reader's own refusal: its message is already whole ("cannot read mesh file ...").
  const std::string said = firstLine(r.err);
  if (exited && r.exitCode == kMeshReaderRefused && !said.empty()) throw std::runtime_error(said);
  // It could not start, or ended some other way on its own (a usage error, a sanitizer's report).
  if (!r.started || (exited && r.exitCode > 0))
    throw std::runtime_error(prefix + "the mesh reader " + reader + " " + describeEnd(r, timeout) +
                             (said.empty() ? "" : ": " + said));
  const std::string why = r.timedOut ? "the file is corrupt, or too large to read in that time "
                                       "(MECHSIM_MESH_READER_TIMEOUT sets the limit, in seconds)"
                                     : "the file is probably corrupt";
  throw std::runtime_error(prefix + "the mesh reader " + describeEnd(r, timeout) + "; " + why);
}

}  // namespace mechsim::io
