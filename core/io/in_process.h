#pragma once
// core/io/in_process.h — reading a mesh file, and filling a surface with tets, in the program's own
// process: what loadMeshFile and tetrahedraliseSurfaceFile fall back to when they have no helper
// program (MECHSIM_MESH_READER=off, MECHSIM_SURFACE_MESHER=off, or none found), provided only by the
// programs that link the readers themselves and call readInThisProcess() (core/io/read_in_process.h:
// the fuzzing harnesses, which want the sanitizers to see Assimp and Gmsh, and the tests of those
// readers). Everything else leaves Assimp and Gmsh — with OpenCASCADE, FLTK and X11 behind it,
// about 0.1 s of loading at every start — to the helper programs, and never loads them itself.
#include <functional>
#include <memory>
#include <string>

#include "core/io/tetmesh_io.h"  // TetMeshFile
#include "core/spec.h"           // MeshData

namespace mechsim::io {

using MeshReader = std::function<std::shared_ptr<const MeshData>(const std::string& path)>;
using Tetrahedraliser = std::function<TetMeshFile(const MeshData& surface, double scale, double maxSize)>;

/// Installs the in-process readers (null: none; the default).
void setInProcessReaders(MeshReader meshes, Tetrahedraliser tets);
/// The installed ones; null when the program has none.
const MeshReader& inProcessMeshReader();
const Tetrahedraliser& inProcessTetrahedraliser();

}  // namespace mechsim::io
