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

/// "mechsim reads its native format (.json), URDF (...), MJCF (...) and SDFormat (...)": the
/// sentence the diagnostics of a file of the wrong kind end with.
extern const char* const kFormatsRead;

/// For a file importFormatOf leaves to the native reader, whose `text` has been read: throws
/// LoadError at 1:1 when it is a .xacro (saying how to expand it) or XML under an extension that
/// names no format (saying which are read), which the native reader would refuse as
/// "unexpected '<'". Returns otherwise.
void refuseUnreadable(const std::string& path, std::string_view text);

/// Reads a URDF / MJCF / SDF file chosen by importFormatOf. Throws LoadError.
MechanismSpec importMechanismFile(const std::string& path, const ImportOptions& options = {});

/// The importers, on text. `fileName` names the text in diagnostics; relative mesh paths (and
/// package:// / model:// searches) start at `baseDir`. Throw LoadError.
MechanismSpec parseUrdf(std::string_view text, const std::string& fileName, const std::string& baseDir,
                        const ImportOptions& options = {});
MechanismSpec parseMjcf(std::string_view text, const std::string& fileName, const std::string& baseDir);
MechanismSpec parseSdf(std::string_view text, const std::string& fileName, const std::string& baseDir);

}  // namespace mechsim::io
