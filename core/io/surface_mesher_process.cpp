// core/io/surface_mesher_process.cpp — tetrahedraliseSurfaceFile: the surface read and filled with
// tets by the program mechsim-surface-mesher (app/surface_mesher_main.cpp) in a process of its own,
// its answer decoded and checked here (mesh_wire.h); without such a program, in this process when it
// has the in-process tetrahedraliser (core/io/in_process.h).
#include <cstdio>
#include <stdexcept>
#include <string>

#include "core/io/mesh.h"
#include "core/io/mesh_wire.h"
#include "core/io/read_cancel.h"
#include "core/io/subprocess.h"
#include "core/io/surface_mesher.h"
#include "core/io/in_process.h"

namespace mechsim::io {

namespace {

/// The shortest decimal form that reads back as the same double.
std::string exact(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

}  // namespace

std::string surfaceMesherProgram() {
  return findHelperProgram("mechsim-surface-mesher", "MECHSIM_SURFACE_MESHER");
}

TetMeshFile tetrahedraliseSurfaceFile(const std::string& path, double scale, double maxSize) {
  const std::string mesher = surfaceMesherProgram();
  if (mesher.empty()) {
    if (const Tetrahedraliser& inProcess = inProcessTetrahedraliser()) return inProcess(*loadMeshFile(path), scale, maxSize);
    throw std::runtime_error("cannot tetrahedralise " + path +
                             ": no surface mesher program (mechsim-surface-mesher beside this program, or "
                             "MECHSIM_SURFACE_MESHER=PATH), and this program does not mesh surfaces itself");
  }
  const double timeout = timeoutFromEnv("MECHSIM_SURFACE_MESHER_TIMEOUT", 120);
  const SubprocessResult r =
      runSubprocess({mesher, "--scale", exact(scale), "--size", exact(maxSize), "--", path}, timeout,
                    std::size_t(16) << 30, 64 * 1024, readCancelFlag());
  const HelperEnd end = helperEnd(r, "the surface mesher", mesher, timeout,
                                  "the size is too fine, or the surface too badly shaped, to mesh in that time",
                                  "MECHSIM_SURFACE_MESHER_TIMEOUT");
  if (!end.answered) throw std::runtime_error(end.whole ? end.text : "cannot tetrahedralise " + path + ": " + end.text);
  try {
    return decodeTetWire(r.out);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("cannot tetrahedralise " + path + ": the surface mesher's answer is " + e.what() + " (" +
                             mesher + ")");
  }
}

}  // namespace mechsim::io
