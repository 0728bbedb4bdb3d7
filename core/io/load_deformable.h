#pragma once
// core/io/load_deformable.h — the "deformables" section of the native format (docs/format.md,
// "Deformable parts"): tetrahedral meshes (generated box / cylinder grids, TetGen, Gmsh), material,
// pinned vertices and vertices attached to bodies. Internal to core/io (load.cpp calls it).
#include <nlohmann/json.hpp>
#include <string>

#include "core/io/json_value.h"
#include "core/spec.h"

namespace mechsim::io {

/// Reads the array `v` (located at "deformables") into spec.deformables, recording every value's
/// location; mesh files are resolved against `baseDir`. Bodies must already be in spec.
/// Throws LoadError (FILE:LINE:COL) — for an error inside a mesh file, at that file's line.
void readDeformablesSection(const json::Value& v, MechanismSpec& spec, const std::string& file, double lengthScale,
                            const std::string& baseDir);

/// The section as written back (write.cpp): meshes as described (box / cylinder parameters, file
/// and scale), selections as given (a box stays a box), lengths in the file's units. Empty when
/// there are no deformable parts.
nlohmann::ordered_json deformablesSectionJson(const MechanismSpec& spec);

}  // namespace mechsim::io
