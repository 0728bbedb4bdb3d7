#pragma once
// core/io/read_cancel.h — stopping a long file read from another thread. While a ReadCancelScope
// is alive on a thread, the mesh reads on that thread (mesh.h, loadMeshFile) watch its flag: once
// the flag turns true they stop their reader process and throw, so the load fails at once with
// "cancelled" (a mesh read in this process, without the reader program, is not stopped). TetGen and
// Gmsh tet meshes (tetmesh_io.h) watch it too, every 64k lines.
// The GUI opens files on a worker thread this way, with a Cancel button.
#include <atomic>

namespace mechsim::io {

class ReadCancelScope {
 public:
  explicit ReadCancelScope(const std::atomic<bool>& flag);
  ~ReadCancelScope();
  ReadCancelScope(const ReadCancelScope&) = delete;
  ReadCancelScope& operator=(const ReadCancelScope&) = delete;

 private:
  const std::atomic<bool>* previous_;
};

/// The flag of the innermost ReadCancelScope on this thread, or nullptr.
const std::atomic<bool>* readCancelFlag();

}  // namespace mechsim::io
