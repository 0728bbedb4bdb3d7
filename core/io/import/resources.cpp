// core/io/import/resources.cpp — URI resolution along the documented search path, and meshes
// (through core/io/mesh.cpp, Assimp) or placeholders when a mesh cannot be had.
#include "core/io/import/resources.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/io/import/import_common.h"
#include "core/io/import/xml_file.h"
#include "core/io/mesh.h"
#include "core/mesh_mirror.h"

namespace mechsim::io::imp {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> splitPath(const char* env) {
  std::vector<std::string> out;
  if (!env) return out;
  std::stringstream s(env);
  std::string item;
  while (std::getline(s, item, ':'))
    if (!item.empty()) out.push_back(item);
  return out;
}

bool isDir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}
bool isFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

/// The <name> of the ROS package.xml in `dir`, or "".
std::string packageName(const fs::path& dir) {
  std::ifstream in(dir / "package.xml");
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  static const std::regex nameRe(R"(<name>\s*([^<\s]+)\s*</name>)");
  std::smatch m;
  const std::string text = ss.str();
  return std::regex_search(text, m, nameRe) ? m[1].str() : "";
}

/// The variables that extend the search path of `scheme` ("package" or "model"), in order.
std::vector<const char*> pathVariables(const std::string& scheme) {
  return scheme == "model"
             ? std::vector<const char*>{"SDF_PATH", "GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH", "GAZEBO_MODEL_PATH"}
             : std::vector<const char*>{"ROS_PACKAGE_PATH"};
}

}  // namespace

std::optional<std::string> missingPackageNote(const std::string& uri, const std::string& baseDir) {
  for (const std::string scheme : {"package", "model"}) {
    const std::string prefix = scheme + "://";
    if (uri.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = uri.substr(prefix.size());
    const std::string name = rest.substr(0, rest.find('/'));
    std::string roots;
    for (const std::string& r : resourceSearchPath(scheme, baseDir)) roots += (roots.empty() ? "" : ":") + r;
    std::vector<const char*> vars = pathVariables(scheme);
    vars.push_back("MECHSIM_PACKAGE_PATH");
    std::string extend = vars[0];
    for (std::size_t i = 1; i < vars.size(); ++i) extend += std::string(i + 1 == vars.size() ? " or " : ", ") + vars[i];
    return std::string("no ") + (scheme == "package" ? "ROS package" : "model") + " \"" + name +
           "\" in the search path " + roots + " (no folder there is named " + name +
           (scheme == "package" ? " or has a package.xml that names it" : "") + "); add the folder that holds it to " +
           extend + " (':'-separated; docs/import.md)";
  }
  return std::nullopt;
}

std::vector<std::string> resourceSearchPath(const std::string& scheme, const std::string& baseDir) {
  std::vector<std::string> roots = splitPath(std::getenv("MECHSIM_PACKAGE_PATH"));
  for (const char* e : pathVariables(scheme))
    for (const std::string& r : splitPath(std::getenv(e))) roots.push_back(r);
  std::error_code ec;
  fs::path dir = fs::absolute(baseDir.empty() ? fs::path(".") : fs::path(baseDir), ec).lexically_normal();
  while (true) {
    roots.push_back(dir.string());
    if (!dir.has_parent_path() || dir.parent_path() == dir) break;
    dir = dir.parent_path();
  }
  return roots;
}

std::optional<std::string> resolveResource(const std::string& uri, const std::string& baseDir,
                                           const std::string& relativeTo, std::vector<std::string>& tried, bool folders) {
  std::error_code ec;
  auto found = [&](const fs::path& p) -> std::optional<std::string> {
    tried.push_back(p.string());
    if (isFile(p) || (folders && isDir(p))) return fs::absolute(p, ec).lexically_normal().string();
    return std::nullopt;
  };
  for (const std::string scheme : {"package", "model"}) {
    const std::string prefix = scheme + "://";
    if (uri.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = uri.substr(prefix.size());
    const auto slash = rest.find('/');
    const std::string name = rest.substr(0, slash);
    const std::string inside = slash == std::string::npos ? "" : rest.substr(slash + 1);
    for (const std::string& r : resourceSearchPath(scheme, baseDir)) {
      const fs::path root(r);
      if (isDir(root / name))
        if (auto p = found(root / name / inside)) return p;
      if (isDir(root / "models" / name))
        if (auto p = found(root / "models" / name / inside)) return p;
      if (root.filename() == name || packageName(root) == name)
        if (auto p = found(root / inside)) return p;
    }
    return std::nullopt;
  }
  if (uri.compare(0, 7, "file://") == 0) return found(fs::path(uri.substr(7)));
  fs::path p(uri);
  if (p.is_relative()) p = fs::path(relativeTo.empty() ? "." : relativeTo) / p;
  return found(p);
}

void MeshLoader::warn(SourceLoc where, const std::string& msg) {
  spec_.warnings.push_back(formatWarning(spec_.sourceFile, where, msg));
}

ShapeSpec MeshLoader::load(SourceLoc where, const std::string& uri, const Vec3& scale, const std::string& relativeTo) {
  ShapeSpec s;
  // The signs of the scale reflect the mesh (a right-hand part drawn from the left-hand part's
  // file), exactly; the magnitudes give one uniform scale: exact when the three agree, else their
  // geometric mean (volume-preserving).
  const Vec3 a = scale.cwiseAbs();
  double k = a.x();
  Vec3 mirror = Vec3::Ones();
  if (!(a.minCoeff() > 0) || !a.allFinite()) {
    warn(where, "mesh \"" + uri + "\": scale " + fmt(scale.x()) + " " + fmt(scale.y()) + " " + fmt(scale.z()) +
                    " has a zero or non-finite component; scale 1 is used");
    k = 1.0;
  } else {
    for (int i = 0; i < 3; ++i) mirror[i] = scale[i] < 0 ? -1.0 : 1.0;
    if (a.maxCoeff() - a.minCoeff() > 1e-12 * a.maxCoeff()) {
      k = std::cbrt(a.x() * a.y() * a.z());
      warn(where, "mesh \"" + uri + "\": scale " + fmt(scale.x()) + " " + fmt(scale.y()) + " " + fmt(scale.z()) +
                      " is not uniform; mechsim scales meshes uniformly, by " + fmt(k) + " here" +
                      (mirrors(mirror) ? " (and mirrors them as the signs say)" : ""));
    }
  }

  std::vector<std::string> tried;
  const auto path = resolveResource(uri, baseDir_, relativeTo, tried);
  std::string reason;
  if (!path) {
    reason = "not found";
    // Nothing looked at: the package or model itself is in no root of the search path.
    if (auto missing = tried.empty() ? missingPackageNote(uri, baseDir_) : std::nullopt) {
      reason += ": " + *missing;
    } else if (!tried.empty()) {
      reason += " (looked for " + tried.front();
      if (tried.size() > 1) reason += " and " + std::to_string(tried.size() - 1) + " other place" + (tried.size() > 2 ? "s" : "");
      reason += "; see docs/import.md for the search path)";
    }
  } else if (auto f = failed_.find(*path); f != failed_.end()) {
    reason = f->second;
  } else if (auto c = cache_.find(*path); c != cache_.end()) {
    s.mesh = c->second;
  } else {
    try {
      s.mesh = loadMeshFile(*path);
      cache_[*path] = s.mesh;
    } catch (const std::exception& e) {
      reason = e.what();
      failed_[*path] = reason;
    }
  }
  if (!s.mesh) {
    warn(where, "mesh \"" + uri + "\" " + (path ? "cannot be used: " : "") + reason +
                    "; a placeholder box is drawn in its place");
    s.type = ShapeType::Box;
    s.size = Vec3::Constant(kPlaceholderEdge);
    s.color = "#ff00ff";
    return s;
  }
  s.type = ShapeType::Mesh;
  s.resolvedFile = *path;
  s.scale = k;
  if (mirrors(mirror)) {
    // One reflected copy per file and reflection, shared as the file's own triangles are.
    const std::string key = *path + "|" + fmt(mirror.x()) + fmt(mirror.y()) + fmt(mirror.z());
    auto& m = mirrored_[key];
    if (!m) m = std::make_shared<const MeshData>(mirroredMesh(*s.mesh, mirror));
    s.mesh = m;
    s.mirror = mirror;
  }
  // The spec names the mesh relative to the describing file's folder, as the native format does.
  std::error_code ec;
  const fs::path base = fs::absolute(baseDir_.empty() ? fs::path(".") : fs::path(baseDir_), ec).lexically_normal();
  const fs::path rel = fs::path(*path).lexically_relative(base);
  s.file = rel.empty() ? *path : rel.generic_string();
  return s;
}

}  // namespace mechsim::io::imp
