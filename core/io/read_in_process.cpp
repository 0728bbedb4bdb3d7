// core/io/read_in_process.cpp — installs Assimp's reader and Gmsh's tetrahedraliser as the
// in-process readers (core/io/in_process.h).
#include "core/io/read_in_process.h"

#include "core/io/in_process.h"
#include "core/io/mesh.h"
#include "core/io/tetrahedralise.h"

namespace mechsim::io {

void readInThisProcess() { setInProcessReaders(loadMeshFileInProcess, tetrahedraliseMesh); }

}  // namespace mechsim::io
