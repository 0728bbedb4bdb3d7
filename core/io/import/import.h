#pragma once
// core/io/import/import.h — robot description formats in: URDF, MJCF (MuJoCo XML) and SDFormat,
// each turned into the same MechanismSpec the native reader produces (docs/import.md).
//
// Every importer records the source location of each value under its spec path
// ("joints[3].axis" → the <axis> element), so that the compiler's errors point into the XML file,
// and throws LoadError "FILE:LINE:COL: error: ..." on bad input. Problems it can work around
// (a missing mesh file, a URDF mimic joint, an ellipsoid) become warnings in spec.warnings
// ("FILE:LINE:COL: warning: ...") and the import goes on.
#include <optional>
#include <string>
#include <string_view>

#include "core/io/load.h"
#include "core/spec.h"

namespace mechsim::io {

enum class ImportFormat { Urdf, Mjcf, Sdf };

/// The import format of `path`: by extension (.urdf, .mjcf, .sdf, .world), and for .xml by the
/// root element (<robot> URDF, <mujoco> MJCF, <sdf> SDFormat; MJCF when it cannot be read).
/// std::nullopt for every other file (the native format).
std::optional<ImportFormat> importFormatOf(const std::string& path);

/// Reads a URDF / MJCF / SDF file chosen by importFormatOf. Throws LoadError.
MechanismSpec importMechanismFile(const std::string& path);

/// The importers, on text. `fileName` names the text in diagnostics; relative mesh paths (and
/// package:// / model:// searches) start at `baseDir`. Throw LoadError.
MechanismSpec parseUrdf(std::string_view text, const std::string& fileName, const std::string& baseDir);
MechanismSpec parseMjcf(std::string_view text, const std::string& fileName, const std::string& baseDir);
MechanismSpec parseSdf(std::string_view text, const std::string& fileName, const std::string& baseDir);

}  // namespace mechsim::io
