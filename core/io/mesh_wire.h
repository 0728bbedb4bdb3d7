#pragma once
// core/io/mesh_wire.h — a MeshData as bytes, for the mesh reader program (mechsim-mesh-reader) to
// hand the mesh it read to the program that asked (mesh.h, loadMeshFile). Both ends are the same
// build on the same machine, so numbers travel in the machine's own byte order; the receiving end
// still checks everything, since the bytes come from a process that just read a hostile file:
//   "MSHWIRE1", u64 vertex count nv, u64 normal count (0 or nv), u64 index count ni (3 per
//   triangle), nv × 3 float32, normals × 3 float32, ni × u32, "END."
#include <string>

#include "core/spec.h"  // MeshData

namespace mechsim::io {

/// The reader program's exit status when the file cannot be read; its stderr then holds the whole
/// one-line message. (EX_DATAERR of sysexits.h: not 1, which crashes report under the sanitizers.)
constexpr int kMeshReaderRefused = 65;

std::string encodeMeshWire(const MeshData& mesh);

/// Decodes what encodeMeshWire wrote. Throws std::runtime_error (a short reason) unless the bytes
/// are exactly one well-formed message whose indices lie inside the vertices and whose vertices are
/// finite numbers.
MeshData decodeMeshWire(const std::string& bytes);

}  // namespace mechsim::io
