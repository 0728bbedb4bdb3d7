#pragma once
// core/io/tetmesh_io.h — tetrahedral mesh files: TetGen (.node + .ele) and Gmsh (.msh, ASCII
// format 2.2 and 4.1; linear tetrahedra, element type 4). Errors name the file, line and column.
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/types.h"

namespace mechsim::io {

struct TetMeshFile {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 4>> tets;  // 0-based vertex indices
};

/// A syntax or consistency error in a mesh file at `line` (1-based; 0 when not tied to a line).
class TetMeshError : public std::runtime_error {
 public:
  TetMeshError(std::string file, int line, const std::string& msg)
      : std::runtime_error(msg), file_(std::move(file)), line_(line) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }

 private:
  std::string file_;
  int line_;
};

/// TetGen: `path` is the .node file (or the base name without extension); the .ele file beside it.
TetMeshFile readTetGen(const std::string& path);
/// Gmsh .msh (ASCII 2.2 or 4.1): the nodes and the 4-node tetrahedra (other elements ignored).
TetMeshFile readGmsh(const std::string& path);
/// Parses TetGen text (for tests); names are used in messages.
TetMeshFile parseTetGen(const std::string& nodeText, const std::string& eleText, const std::string& nodeName,
                        const std::string& eleName);
/// Parses Gmsh text (for tests).
TetMeshFile parseGmsh(const std::string& text, const std::string& name);

}  // namespace mechsim::io
