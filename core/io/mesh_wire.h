#pragma once
// core/io/mesh_wire.h — a MeshData or a tet mesh as bytes, for the helper programs
// (mechsim-mesh-reader, mechsim-surface-mesher) to hand what they made to the program that asked
// (mesh.h loadMeshFile, surface_mesher.h). Both ends are the same
// build on the same machine, so numbers travel in the machine's own byte order; the receiving end
// still checks everything, since the bytes come from a process that just read a hostile file:
//   "MSHWIRE2", u64 vertex count nv, u64 normal count (0 or nv), u64 index count ni (3 per
//   triangle), u64 colour run count nc, nv × 3 float32, normals × 3 float32, ni × u32,
//   nc × (u32 first index, u32 index count, 3 float32 RGB), "END."
// (Version 1, before the colour runs, had no nc and no runs.)
#include <string>

#include "core/io/tetmesh_io.h"  // TetMeshFile
#include "core/spec.h"  // MeshData

namespace mechsim::io {

std::string encodeMeshWire(const MeshData& mesh);

/// Decodes what encodeMeshWire wrote. Throws std::runtime_error (a short reason) unless the bytes
/// are exactly one well-formed message whose indices lie inside the vertices, whose vertices are
/// finite numbers, and whose colour runs are whole triangles, in order, inside the indices, with
/// colours in [0, 1].
MeshData decodeMeshWire(const std::string& bytes);

/// A tet mesh: "TETWIRE1", u64 vertex count nv, u64 tet count nt, nv × 3 float64, nt × 4 int32,
/// "END.". decodeTetWire checks as decodeMeshWire does: exact length, finite vertices, every index
/// inside the vertices.
std::string encodeTetWire(const TetMeshFile& mesh);
TetMeshFile decodeTetWire(const std::string& bytes);

}  // namespace mechsim::io
