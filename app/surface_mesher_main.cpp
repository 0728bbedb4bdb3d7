// app/surface_mesher_main.cpp — mechsim-surface-mesher --scale K --size S -- FILE: reads a closed
// surface mesh file, scales it by K, fills it with tets of edge up to S (0: graded from the surface)
// through Gmsh, and writes the tet mesh to stdout (core/io/mesh_wire.h, encodeTetWire). Exit status
// 0: the mesh; 65 (kHelperRefused): a one-line error on stderr; 2: usage. Run by
// tetrahedraliseSurfaceFile (core/io/surface_mesher.h) so that a long, crashing or endless mesh
// generation ends this process only. It reads the file in this process (the reader program would
// add nothing here).
//
// MECHSIM_SURFACE_MESHER_FAULT=crash|hang fails on purpose after meshing, for the tests.
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <thread>

#include "core/io/mesh.h"
#include "core/io/mesh_wire.h"
#include "core/io/subprocess.h"  // kHelperRefused
#include "core/io/tetrahedralise.h"

int main(int argc, char** argv) {
  double scale = 1, size = 0;
  const char* file = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    char* end = nullptr;
    if ((a == "--scale" || a == "--size") && i + 1 < argc) {
      const double x = std::strtod(argv[++i], &end);
      if (*end != '\0') break;  // not a number: FILE stays unset, a usage error below
      (a == "--scale" ? scale : size) = x;
    } else if (a == "--" && i + 2 == argc) {
      file = argv[++i];
    } else {
      break;
    }
  }
  if (!file) {
    std::fprintf(stderr, "usage: mechsim-surface-mesher [--scale K] [--size S] -- FILE\n");
    return 2;
  }
  std::string wire;
  try {
    wire = mechsim::io::encodeTetWire(
        mechsim::io::tetrahedraliseMesh(*mechsim::io::loadMeshFileInProcess(file), scale, size));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return mechsim::io::kHelperRefused;
  }
  if (const char* fault = std::getenv("MECHSIM_SURFACE_MESHER_FAULT")) {
    // A crash as the kernel delivers it, whatever the build: the default action of SIGSEGV (under
    // AddressSanitizer its handler would report and exit, or abort, instead).
    if (std::strcmp(fault, "crash") == 0) {
      ::signal(SIGSEGV, SIG_DFL);
      ::raise(SIGSEGV);
    }
    if (std::strcmp(fault, "hang") == 0)
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  return std::fwrite(wire.data(), 1, wire.size(), stdout) == wire.size() && std::fflush(stdout) == 0 ? 0 : 3;
}
