#pragma once
// core/io/load_import.h — the "import" section of the native format (docs/format.md, "Import"):
// a robot description (URDF, MJCF, SDFormat; core/io/import/import.h) whose bodies, joints,
// drivers and couplings join the native file's own, so that the native file can add drivers,
// handles, springs, motors, contact and bodies of its own that refer to the imported names.
// Internal to core/io (load.cpp reads the section, write.cpp writes it back).
//
// Where things go in the spec: the imported bodies and joints come first (spec.bodies[0..nb),
// spec.joints[0..nj)), so the native file's references to them resolve while it is read; its
// drivers and couplings are put after the native file's own (finishImport), since the native
// sections number theirs from 0. Each imported value keeps its location in the imported file
// (spec.locationFiles, MechanismSpec::fileOf): an error the compiler finds in an imported joint is
// reported at its line in the URDF, one in the native file's own bodies at theirs.
#include <map>
#include <string>

#include "core/io/json_value.h"
#include "core/spec.h"

namespace mechsim::io {

/// Reads the section `v` (at path "import": {"file": PATH, "floatingBase": BOOL}) of the native
/// file `file` (its folder `baseDir`, where a relative PATH starts) and imports PATH into `spec`,
/// which must hold no bodies, joints, drivers or couplings yet. Sets spec.imported. Throws
/// LoadError: at the section's values for the section's own problems (no such file, a native file,
/// ...), in the imported file for the importer's.
void readImportSection(const json::Value& v, MechanismSpec& spec, const std::string& file, const std::string& baseDir);

/// Moves the imported drivers and couplings behind the native file's (read since), with their
/// locations renumbered. Call once after the native "drivers" and "couplings" sections; nothing
/// to do without an import.
void finishImport(MechanismSpec& spec);

/// Whether write.cpp leaves an entry out when writing `spec` back: it came with the import.
bool importedBody(const MechanismSpec& spec, const std::string& name);
bool importedJoint(const MechanismSpec& spec, const std::string& name);
bool importedDriver(const MechanismSpec& spec, const std::string& name);
bool importedCoupling(const MechanismSpec& spec, const std::string& name);

/// `fields` (paths → values, as MechanismSpec::parameterFields) with the paths renumbered as the
/// native file has them once the imported entries are left out ("joints[7].point" → "joints[2].point"
/// after 5 imported joints); paths into imported entries dropped.
std::map<std::string, std::string> pathsWithoutImport(const MechanismSpec& spec, const std::map<std::string, std::string>& fields);

}  // namespace mechsim::io
