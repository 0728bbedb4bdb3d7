// core/io/load_import.cpp — the native format's "import" section: a URDF, MJCF or SDFormat robot
// read by its importer and merged into the native file's spec (load_import.h).
#include "core/io/load_import.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

#include "core/io/import/import.h"
#include "core/io/json_section.h"

namespace mechsim::io {

namespace {

namespace fs = std::filesystem;
using json::Kind;
using json::Value;

/// "bodies[12].shapes[0]" with list "bodies": 12 and the rest ".shapes[0]"; false for another list.
bool splitIndexed(const std::string& path, const std::string& list, std::size_t& index, std::string& rest) {
  if (path.compare(0, list.size() + 1, list + "[") != 0) return false;
  const std::size_t close = path.find(']', list.size() + 1);
  if (close == std::string::npos) return false;
  index = std::stoul(path.substr(list.size() + 1, close - list.size() - 1));
  rest = path.substr(close + 1);
  return true;
}

bool contains(const std::vector<std::string>& names, const std::string& n) {
  return std::find(names.begin(), names.end(), n) != names.end();
}

class ImportReader : JsonSection {
 public:
  ImportReader(MechanismSpec& spec, std::string file, std::string baseDir)
      : JsonSection(spec, std::move(file)), baseDir_(std::move(baseDir)) {}

  void section(const Value& v) {
    record("import", v);
    expectKind(v, "import", Kind::Object, "an object {\"file\": \"robot.urdf\"}");
    checkKeys(v, "import", {"file", "floatingBase"}, "the import");
    const Value& fv = req(v, "import", "file", "the URDF, MJCF or SDFormat file to import");
    ImportSpec imp;
    imp.file = name(fv, "import.file");
    ImportOptions options;
    if (const Value* fb = opt(v, "import", "floatingBase")) options.floatingBase = imp.floatingBase = boolean(*fb, "import.floatingBase");

    // The file, relative to the native file's folder; named in diagnostics as the native file's
    // name would lead to it ("robots/arm.json" imports "arm.urdf": "robots/arm.urdf").
    const fs::path given(imp.file);
    const fs::path resolved = (given.is_absolute() ? given : fs::path(baseDir_) / given).lexically_normal();
    imp.resolvedFile = resolved.string();
    std::error_code ec;
    if (!fs::exists(resolved, ec)) fail(fv, "import.file", "no such file \"" + imp.resolvedFile + "\"");
    if (!fs::is_regular_file(resolved, ec)) fail(fv, "import.file", "\"" + imp.resolvedFile + "\" is not a regular file");
    const auto format = importFormatOf(imp.resolvedFile);
    if (!format)
      fail(fv, "import.file", "\"" + imp.file + "\" is not a URDF, MJCF or SDFormat file (.urdf, .xml, .mjcf, .sdf, .world): "
                              "a native file imports a robot description, not another native file");
    std::string shown = imp.resolvedFile;
    if (!given.is_absolute()) {
      const fs::path near = (fs::path(file_).parent_path() / given).lexically_normal();
      if (fs::equivalent(near, resolved, ec)) shown = near.string();
    }
    if (options.floatingBase && *format != ImportFormat::Urdf) {
      // As mechsim-cli --floating-base on such a file: said, and nothing changes.
      const SourceLoc at = v.find("floatingBase")->loc;
      spec_.warnings.push_back(file_ + ":" + std::to_string(at.line) + ":" + std::to_string(at.col) +
                               ": warning: import.floatingBase is for URDF files and changes nothing here: " +
                               (*format == ImportFormat::Mjcf ? "an MJCF body floats with a <freejoint/>"
                                                              : "an SDFormat model floats unless a joint joins it to the world"));
      options.floatingBase = false;
    }

    // The importer's own errors are located in the imported file (LoadError passes through).
    MechanismSpec robot = importMechanismFile(shown, options);

    // Merge: the robot's bodies and joints first, its drivers and couplings too for now (the
    // native sections' duplicate names are then found), their locations held (finishImport).
    for (const BodySpec& b : robot.bodies) imp.bodies.push_back(b.name);
    for (const JointSpec& j : robot.joints) imp.joints.push_back(j.name);
    for (const DriverSpec& d : robot.drivers) imp.drivers.push_back(d.name);
    for (const CouplingSpec& c : robot.couplings) imp.couplings.push_back(c.name);
    spec_.bodies = std::move(robot.bodies);
    spec_.joints = std::move(robot.joints);
    spec_.drivers = std::move(robot.drivers);
    spec_.couplings = std::move(robot.couplings);
    // What the robot's file sets for the whole mechanism, unless the native file sets it too
    // (its "name" and "gravity" are read after this section).
    if (spec_.name.empty()) spec_.name = robot.name;
    spec_.gravity = robot.gravity;
    spec_.contact = robot.contact;
    spec_.dynamics = robot.dynamics;
    for (std::string& w : robot.warnings) spec_.warnings.push_back(std::move(w));
    // Driver expressions are evaluated in the spec's units, which are this file's.
    if (!imp.drivers.empty() && (robot.units.length != spec_.units.length || robot.units.angle != spec_.units.angle))
      spec_.warnings.push_back(file_ + ":" + std::to_string(fv.loc.line) + ":" + std::to_string(fv.loc.col) + ": warning: the " +
                               std::to_string(imp.drivers.size()) + " driver(s) of \"" + imp.file + "\" are written in " +
                               robot.units.length + " and " + robot.units.angle + " and are evaluated in this file's " +
                               spec_.units.length + " and " + spec_.units.angle + ": drive its joints from this file instead");
    for (const auto& [path, loc] : robot.locations) {
      std::size_t i = 0;
      std::string rest;
      if (splitIndexed(path, "bodies", i, rest) || splitIndexed(path, "joints", i, rest)) {
        spec_.locations[path] = loc;
        spec_.locationFiles[path] = shown;
      } else if (splitIndexed(path, "drivers", i, rest) || splitIndexed(path, "couplings", i, rest)) {
        imp.heldLocations[path] = loc;
      }
    }
    imp.shownFile = shown;
    spec_.imported = std::move(imp);
  }

 private:
  std::string baseDir_;
};

/// The first `n` entries of `list` (the import's, named in `list` "drivers" / "couplings") moved
/// behind the others, their held locations filed under their new indices.
template <class Spec>
void moveLast(MechanismSpec& spec, std::vector<Spec>& list, std::size_t n, const std::string& name) {
  if (n == 0 || n > list.size()) return;
  const std::size_t native = list.size() - n;
  std::rotate(list.begin(), list.begin() + std::ptrdiff_t(n), list.end());
  ImportSpec& imp = *spec.imported;
  for (const auto& [path, loc] : imp.heldLocations) {
    std::size_t i = 0;
    std::string rest;
    if (!splitIndexed(path, name, i, rest)) continue;
    const std::string moved = name + "[" + std::to_string(native + i) + "]" + rest;
    spec.locations[moved] = loc;
    spec.locationFiles[moved] = imp.shownFile;
  }
}

}  // namespace

void readImportSection(const Value& v, MechanismSpec& spec, const std::string& file, const std::string& baseDir) {
  ImportReader(spec, file, baseDir).section(v);
}

void finishImport(MechanismSpec& spec) {
  if (!spec.imported) return;
  moveLast(spec, spec.drivers, spec.imported->drivers.size(), "drivers");
  moveLast(spec, spec.couplings, spec.imported->couplings.size(), "couplings");
  spec.imported->heldLocations.clear();
}

std::map<std::string, std::string> pathsWithoutImport(const MechanismSpec& spec, const std::map<std::string, std::string>& fields) {
  if (!spec.imported) return fields;
  // Per list, each entry's index among the native file's own (-1: imported).
  auto renumber = [](const auto& list, const std::vector<std::string>& imported) {
    std::vector<long> at;
    long own = 0;
    for (const auto& e : list) at.push_back(contains(imported, e.name) ? -1 : own++);
    return at;
  };
  const std::pair<std::string, std::vector<long>> lists[] = {
      {"bodies", renumber(spec.bodies, spec.imported->bodies)},
      {"joints", renumber(spec.joints, spec.imported->joints)},
      {"drivers", renumber(spec.drivers, spec.imported->drivers)},
      {"couplings", renumber(spec.couplings, spec.imported->couplings)}};
  std::map<std::string, std::string> out;
  for (const auto& [path, value] : fields) {
    std::string moved = path;
    for (const auto& [name, at] : lists) {
      std::size_t i = 0;
      std::string rest;
      if (!splitIndexed(path, name, i, rest)) continue;
      moved = i < at.size() && at[i] >= 0 ? name + "[" + std::to_string(at[i]) + "]" + rest : "";
    }
    if (!moved.empty()) out[moved] = value;
  }
  return out;
}

bool importedBody(const MechanismSpec& spec, const std::string& name) {
  return spec.imported && contains(spec.imported->bodies, name);
}
bool importedJoint(const MechanismSpec& spec, const std::string& name) {
  return spec.imported && contains(spec.imported->joints, name);
}
bool importedDriver(const MechanismSpec& spec, const std::string& name) {
  return spec.imported && contains(spec.imported->drivers, name);
}
bool importedCoupling(const MechanismSpec& spec, const std::string& name) {
  return spec.imported && contains(spec.imported->couplings, name);
}

}  // namespace mechsim::io
