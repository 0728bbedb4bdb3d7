// fuzz/in_process.cpp — every harness reads mesh files with Assimp and fills surfaces with Gmsh in its
// own process (core/io/in_process.h), where the sanitizers see them; scripts/fuzz.sh turns the
// helper programs off (MECHSIM_MESH_READER=off, MECHSIM_SURFACE_MESHER=off).
#include "core/io/read_in_process.h"

namespace {
const bool installed = (mechsim::io::readInThisProcess(), true);
}  // namespace
