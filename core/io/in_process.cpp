// core/io/in_process.cpp — the in-process readers' hooks (see the header).
#include "core/io/in_process.h"

namespace mechsim::io {
namespace {
MeshReader& meshReader() {
  static MeshReader r;
  return r;
}
Tetrahedraliser& tetrahedraliser() {
  static Tetrahedraliser t;
  return t;
}
}  // namespace

void setInProcessReaders(MeshReader meshes, Tetrahedraliser tets) {
  meshReader() = std::move(meshes);
  tetrahedraliser() = std::move(tets);
}

const MeshReader& inProcessMeshReader() { return meshReader(); }
const Tetrahedraliser& inProcessTetrahedraliser() { return tetrahedraliser(); }

}  // namespace mechsim::io
