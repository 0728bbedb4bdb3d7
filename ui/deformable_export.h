#pragma once
// ui/deformable_export.h — the work behind File → Export Deformables (VTK)… (no Qt widgets, no
// GL): the deformable parts' surfaces as recorded in the history, one VTK PolyData file per part
// and frame and a .pvd series per part with the frames' times (core/io/vtk.h), so that ParaView
// replays what the window showed — handle drags included, which a fresh `mechsim-cli deform
// --vtk` run (the whole tet mesh with its stress) would not have.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/spec.h"

namespace mechsim::ui {

/// One recorded frame's parts: each part's surface (and its stress colours' values in Pa, when
/// stress colouring was on; else null or empty).
struct SurfaceFrame {
  double t = 0;
  std::vector<std::shared_ptr<const MeshData>> surfaces;
  std::vector<std::shared_ptr<const std::vector<float>>> stress;
};

/// Writes, for every part k (named partNames[k]) and frame i, DIR/<stem>_<i>.vtp with the point
/// field `normals` (and `von_mises` where the frame has it), then DIR/<stem>.pvd; each file
/// atomically, the .pvd files last. `progress(done, total)` is called per file; returning false
/// cancels. On cancel or error every file this call wrote is removed again and false is returned
/// (`error` empty when cancelled). DIR must exist.
bool writeSurfaceSeries(const std::string& dir, const std::vector<std::string>& partNames,
                        const std::vector<SurfaceFrame>& frames, const std::function<bool(int, int)>& progress,
                        std::string& error);

}  // namespace mechsim::ui
