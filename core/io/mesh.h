#pragma once
// core/io/mesh.h — triangle meshes from files (STL, OBJ, glTF/glb, PLY, ... whatever Assimp reads).
#include <memory>
#include <string>

#include "core/spec.h"  // MeshData

namespace mechsim::io {

/// Loads every mesh of the file at `path` into one MeshData, in the file's own frame and units
/// (node transforms of scene formats such as glTF are applied; no scale). Throws
/// std::runtime_error with a one-line reason when the file is missing, not a regular file, empty,
/// unreadable, corrupt, holds no triangles or a vertex that is not a finite number.
std::shared_ptr<const MeshData> loadMeshFile(const std::string& path);

}  // namespace mechsim::io
