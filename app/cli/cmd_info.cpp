// app/cli/cmd_info.cpp — `mechsim-cli info`: version, build options, the compute devices found and
// the helper programs.
#include <cstdio>

#include "cli/commands.h"
#include "core/io/mesh.h"
#include "core/io/surface_mesher.h"
#ifdef MECHSIM_HAVE_CUDA
#include "gpu/device_info.h"
#endif

namespace mechsim::cli {

int cmdInfo(const Args& args) {
  if (!args.empty()) {
    std::fprintf(stderr, "mechsim-cli: info: unexpected argument '%s'\nusage: %s\n", args[0].c_str(),
                 commandUsage("info"));
    return 2;
  }
  std::printf("mechsim %s\n", MECHSIM_VERSION);
#ifdef MECHSIM_HAVE_CUDA
  std::printf("CUDA backend: built (sm_90); %s\n", gpu::deviceCount() > 0 ? gpu::deviceDescription().c_str()
                                                                         : "no device found: the CPU twin runs");
#else
  std::printf("CUDA backend: not built (no nvcc at configure time); the CPU twin runs\n");
#endif
  const std::string reader = io::meshReaderProgram();
  std::printf("mesh files: %s\n", reader.empty() ? "not read: no mechsim-mesh-reader found (MECHSIM_MESH_READER=PATH)"
                                                  : ("read by " + reader + ", one process per file").c_str());
  const std::string mesher = io::surfaceMesherProgram();
  std::printf("surface meshes of deformable parts: %s\n",
              mesher.empty() ? "not filled: no mechsim-surface-mesher found (MECHSIM_SURFACE_MESHER=PATH)"
                             : ("filled with tets by " + mesher + ", one process per part").c_str());
  return 0;
}

}  // namespace mechsim::cli
