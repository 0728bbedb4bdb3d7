#pragma once
// core/io/mesh.h — triangle meshes from files (STL, OBJ, glTF/glb, PLY, ... whatever Assimp reads).
#include <cstdint>
#include <memory>
#include <string>

#include "core/spec.h"  // MeshData

namespace mechsim::io {

/// Largest mesh file read: 1 GiB (a binary STL of 2·10^7 triangles). Larger files are refused
/// before anything reads them.
constexpr std::uintmax_t kMaxMeshFileBytes = std::uintmax_t(1) << 30;

/// Loads every mesh of the file at `path` into one MeshData, in the file's own frame and units
/// (node transforms of scene formats such as glTF are applied; no scale). Throws
/// std::runtime_error with a one-line reason when the file is missing, not a regular file, empty,
/// larger than kMaxMeshFileBytes, unreadable, corrupt, holds no triangles or a vertex that is not
/// a finite number.
///
/// The file is read in a separate process, the program meshReaderProgram() names, when there is
/// one (mesh_reader_process.cpp): a fault of the importer on a hostile file — a crash, an endless
/// loop, runaway output or memory — then ends that process, and is reported here as an unreadable
/// file ("cannot read mesh file PATH: the mesh reader crashed (signal 11, ...); the file is
/// probably corrupt", "... was stopped after 12 s; ..."). Without one it reads in this process if
/// the program installed the in-process reader (core/io/in_process.h), else it says so.
std::shared_ptr<const MeshData> loadMeshFile(const std::string& path);

/// The same reading in this process: what the reader program runs, and the fuzzing harness.
std::shared_ptr<const MeshData> loadMeshFileInProcess(const std::string& path);

/// The checks both make before reading: the file exists, is a regular file, is not empty and not
/// larger than kMaxMeshFileBytes; throws std::runtime_error as loadMeshFile does. Returns its size.
std::uintmax_t checkMeshFile(const std::string& path);

/// The reader program loadMeshFile runs, or "" when it reads in this process: $MECHSIM_MESH_READER
/// when set ("off": in this process, core/io/in_process.h), else mechsim-mesh-reader beside the running program, else the
/// one of the build tree this library was built in.
std::string meshReaderProgram();

/// How long loadMeshFile lets the reader program work on a file of `bytes` bytes before stopping
/// it: 10 s + 1 s per MiB ($MECHSIM_MESH_READER_TIMEOUT, in seconds, overrides).
double meshReaderTimeout(double bytes);

}  // namespace mechsim::io
