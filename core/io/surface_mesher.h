#pragma once
// core/io/surface_mesher.h — a closed surface mesh file filled with tetrahedra (a deformable part's
// "surface" mesh), run in a process of its own by the program mechsim-surface-mesher when there is
// one: Gmsh's 3D mesher can take minutes on a fine size or a badly shaped surface, and a hostile
// surface could crash it; a time limit, Cancel (read_cancel.h) and a crash then end that process,
// not the session. Without the program it runs here when the program installed the in-process
// tetrahedraliser (core/io/in_process.h; tetrahedralise.h, not stoppable), else it says so.
#include <string>

#include "core/io/tetmesh_io.h"  // TetMeshFile

namespace mechsim::io {

/// Reads the surface mesh file at `path` (any format Assimp reads; mesh.h), scales its
/// coordinates by `scale`, welds repeated vertices and tetrahedralises the enclosed solid with tet
/// edges up to `maxSize` (0: graded from the surface). Throws std::runtime_error with a one-line
/// reason: the file cannot be read, the surface is not closed or consistently oriented, Gmsh fails,
/// the mesher crashed, was cancelled or ran past its limit ($MECHSIM_SURFACE_MESHER_TIMEOUT,
/// seconds; default 120).
TetMeshFile tetrahedraliseSurfaceFile(const std::string& path, double scale, double maxSize);

/// The mesher program tetrahedraliseSurfaceFile runs, or "": $MECHSIM_SURFACE_MESHER ("off": in
/// this process), else mechsim-surface-mesher beside the running program, else the build tree's.
std::string surfaceMesherProgram();

}  // namespace mechsim::io
