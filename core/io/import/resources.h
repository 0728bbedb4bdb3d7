#pragma once
// core/io/import/resources.h — where the files a robot description names are, and its meshes.
//
// URIs: "package://NAME/rest" (URDF), "model://NAME/rest" (SDF), "file:///abs/path", absolute
// paths, and paths relative to the describing file's folder (MJCF: to its meshdir). A package or
// model NAME is looked for in each root of the search path, in order (docs/import.md):
//   1. the folders listed in MECHSIM_PACKAGE_PATH (':'-separated);
//   2. package://: ROS_PACKAGE_PATH;  model://: SDF_PATH, GZ_SIM_RESOURCE_PATH,
//      IGN_GAZEBO_RESOURCE_PATH, GAZEBO_MODEL_PATH;
//   3. the describing file's folder and each of its parents up to the file-system root.
// In a root R, NAME is R/NAME or R/models/NAME when that folder exists (the second is this
// repository's layout: mechanisms/ beside models/), or R itself when R is named NAME or holds a
// package.xml whose <name> is NAME.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/spec.h"

namespace mechsim::io::imp {

/// The roots searched for package:// (scheme "package") or model:// (scheme "model") URIs.
std::vector<std::string> resourceSearchPath(const std::string& scheme, const std::string& baseDir);

/// The absolute path of the existing file `uri` names (or folder, with `folders`: an SDFormat
/// <include>'s model://NAME), or std::nullopt; `tried` receives the places looked in (for the
/// warning). Relative paths are taken relative to `relativeTo`.
std::optional<std::string> resolveResource(const std::string& uri, const std::string& baseDir,
                                           const std::string& relativeTo, std::vector<std::string>& tried,
                                           bool folders = false);

/// For a package:// or model:// URI: "no ROS package "NAME" in the search path R1:R2:... (...);
/// add the folder that holds it to ROS_PACKAGE_PATH or MECHSIM_PACKAGE_PATH (...)" (model://: the
/// SDFormat and Gazebo variables), the diagnostic of a package or model that is in no root. std::nullopt
/// for other URIs.
std::optional<std::string> missingPackageNote(const std::string& uri, const std::string& baseDir);

/// Loads meshes once per import and turns missing or unreadable ones into placeholders.
class MeshLoader {
 public:
  /// `spec` receives the warnings; `baseDir` is the describing file's folder.
  MeshLoader(MechanismSpec& spec, std::string baseDir) : spec_(spec), baseDir_(std::move(baseDir)) {}

  /// A mesh shape for `uri` with per-axis `scale` (mesh coordinates × scale are metres). Negative
  /// components mirror the mesh (ShapeSpec::mirror, core/mesh_mirror.h); magnitudes that differ
  /// are approximated by their geometric mean with a warning (the spec holds one uniform scale).
  /// A mesh that is missing or cannot be read gives a warning and a placeholder: a 5 cm magenta
  /// box at the shape's place.
  ShapeSpec load(SourceLoc where, const std::string& uri, const Vec3& scale, const std::string& relativeTo);

  /// Edge of the placeholder box [m].
  static constexpr double kPlaceholderEdge = 0.05;

 private:
  MechanismSpec& spec_;
  std::string baseDir_;
  std::map<std::string, std::shared_ptr<const MeshData>> cache_;
  std::map<std::string, std::string> failed_;  // resolved path → reason
  std::map<std::string, std::shared_ptr<const MeshData>> mirrored_;  // "path|signs" → reflected copy
  void warn(SourceLoc where, const std::string& msg);
};

}  // namespace mechsim::io::imp
