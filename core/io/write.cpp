// core/io/write.cpp — MechanismSpec → native-format JSON, and atomic file writes.
//
// The spec is SI; the text is written in the spec's units (spec.units), converted back, so a file
// read and written again keeps the units its author chose. Orientations are written as
// quaternions (exact, no angle-unit round-off). Keys holding their default value are left out
// where the default is obvious (position [0,0,0], identity orientation, "fixed": false, ...).
// The document is built with nlohmann::ordered_json (key order as written here) and printed by a
// small emitter that keeps short arrays and objects on one line, as a person would write them.
#include "core/io/write.h"
#include "core/io/load_dynamics.h"
#include "core/io/load_contact.h"
#include "core/io/load_coupling.h"
#include "core/io/load_deformable.h"
#include "core/io/load_import.h"
#include "core/io/parameters.h"
#include "core/mesh_mirror.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace mechsim::io {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

/// Values that differ from their default by less than this are written as the default (left out).
/// Defaults are exact in the spec (0, identity, −9.81), so this only absorbs round-off.
constexpr double kDefaultEps = 1e-15;

Json vec(const Vec3& v, double scale) { return Json::array({v.x() / scale, v.y() / scale, v.z() / scale}); }

bool isZero(const Vec3& v) { return v.cwiseAbs().maxCoeff() <= kDefaultEps; }

Json quat(const Quat& q) { return Json::array({q.w(), q.x(), q.y(), q.z()}); }

bool isIdentity(const Quat& q) {
  return std::abs(q.w() - 1) <= kDefaultEps && std::abs(q.x()) <= kDefaultEps && std::abs(q.y()) <= kDefaultEps &&
         std::abs(q.z()) <= kDefaultEps;
}

Json shape(const ShapeSpec& s, double L) {
  Json j;
  j["type"] = toString(s.type);
  switch (s.type) {
    case ShapeType::Box: j["size"] = vec(s.size, L); break;
    case ShapeType::Sphere: j["radius"] = s.radius / L; break;
    case ShapeType::Cylinder:
    case ShapeType::Capsule:
      j["radius"] = s.radius / L;
      j["length"] = s.length / L;
      if ((s.axis - Vec3::UnitZ()).cwiseAbs().maxCoeff() > kDefaultEps) j["axis"] = vec(s.axis, 1.0);
      break;
    case ShapeType::Mesh:
      j["file"] = s.file;
      // The spec's scale maps mesh coordinates to metres; the file's maps them to file units.
      // A mirrored mesh: the three signed factors (the reader's "scale": [sx, sy, sz]).
      if (mirrors(s.mirror)) j["scale"] = vec(s.mirror * s.scale, L);
      else if (std::abs(s.scale / L - 1) > 1e-14) j["scale"] = s.scale / L;
      break;
    case ShapeType::Plane:
      if ((s.axis - Vec3::UnitZ()).cwiseAbs().maxCoeff() > kDefaultEps) j["normal"] = vec(s.axis, 1.0);
      break;
  }
  if (!isZero(s.position)) j["position"] = vec(s.position, L);
  if (!isIdentity(s.orientation)) j["orientation"] = Json{{"quaternion", quat(s.orientation)}};
  if (!s.color.empty()) j["color"] = s.color;
  if (s.friction) j["friction"] = *s.friction;
  return j;
}

Json body(const BodySpec& b, double L) {
  Json j;
  j["name"] = b.name;
  if (b.fixed) j["fixed"] = true;
  if (!isZero(b.position)) j["position"] = vec(b.position, L);
  if (!isIdentity(b.orientation)) j["orientation"] = Json{{"quaternion", quat(b.orientation)}};
  if (b.mass) j["mass"] = *b.mass;
  if (b.density) j["density"] = *b.density;  // kg/m³ in every unit system
  if (b.comGiven || !isZero(b.com)) j["com"] = vec(b.com, L);
  if (b.inertia) {
    Json a = Json::array();
    for (int i = 0; i < 6; ++i) a.push_back((*b.inertia)[i] / (L * L));
    j["inertia"] = a;
  }
  if (!b.shapes.empty()) {
    j["shapes"] = Json::array();
    for (const ShapeSpec& s : b.shapes) j["shapes"].push_back(shape(s, L));
  }
  if (!b.visuals.empty()) {
    j["visuals"] = Json::array();
    for (const ShapeSpec& s : b.visuals) j["visuals"].push_back(shape(s, L));
  }
  if (!b.color.empty()) j["color"] = b.color;
  return j;
}

Json joint(const JointSpec& jt, double L, double A) {
  Json j;
  j["name"] = jt.name;
  j["type"] = toString(jt.type);
  j["body1"] = jt.body1;
  j["body2"] = jt.body2;
  switch (jt.type) {
    case JointType::Revolute:
    case JointType::Prismatic:
    case JointType::Cylindrical:
      j["point"] = vec(jt.point, L);
      j["axis"] = vec(jt.axis, 1.0);
      break;
    case JointType::Spherical: j["point"] = vec(jt.point, L); break;
    case JointType::Universal:
      j["point"] = vec(jt.point, L);
      j["axis1"] = vec(jt.axis1, 1.0);
      j["axis2"] = vec(jt.axis2, 1.0);
      break;
    case JointType::Planar:
      j["point"] = vec(jt.point, L);
      j["normal"] = vec(jt.normal, 1.0);
      break;
    case JointType::Fixed:
      if (!isZero(jt.point)) j["point"] = vec(jt.point, L);
      break;
    case JointType::Distance:
      j["point1"] = vec(jt.point1, L);
      j["point2"] = vec(jt.point2, L);
      if (jt.length) j["length"] = *jt.length / L;
      break;
  }
  if (jt.limits) {
    // Only one-coordinate joints carry limits: revolute in angle units, the others in lengths.
    const double s = jt.type == JointType::Revolute ? A : L;
    j["limits"] = Json::array({jt.limits->first / s, jt.limits->second / s});
  }
  return j;
}

// ---- the emitter: short containers on one line, longer ones one element per line ----

constexpr std::size_t kLineWidth = 110;

std::string inlineForm(const Json& j) {
  if (j.is_array()) {
    std::string s = "[";
    for (std::size_t i = 0; i < j.size(); ++i) s += (i ? ", " : "") + inlineForm(j[i]);
    return s + "]";
  }
  if (j.is_object()) {
    if (j.empty()) return "{}";
    std::string s = "{ ";
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it, first = false)
      s += (first ? "" : ", ") + Json(it.key()).dump() + ": " + inlineForm(it.value());
    return s + " }";
  }
  if (j.is_number_float()) {
    // Whole numbers print as integers ("0", not "0.0"), as a person writes them; the others
    // with nlohmann's shortest round-trip representation, so reading back gives the same double.
    const double x = j.get<double>();
    if (std::isfinite(x) && x == std::floor(x) && std::abs(x) < 1e15) return std::to_string(static_cast<long long>(x));
  }
  return j.dump();
}

void emit(const Json& j, std::string& out, int indent, std::size_t prefix) {
  const std::string flat = inlineForm(j);
  if (!j.is_structured() || (indent > 0 && indent + prefix + flat.size() <= kLineWidth)) {
    out += flat;
    return;
  }
  const std::string pad(indent + 2, ' ');
  const bool isArray = j.is_array();
  out += isArray ? "[\n" : "{\n";
  std::size_t i = 0;
  for (auto it = j.begin(); it != j.end(); ++it, ++i) {
    out += pad;
    std::size_t keyLen = 0;
    if (!isArray) {
      const std::string key = Json(it.key()).dump() + ": ";
      out += key;
      keyLen = key.size();
    }
    emit(it.value(), out, indent + 2, keyLen);
    out += i + 1 < j.size() ? ",\n" : "\n";
  }
  out += std::string(indent, ' ') + (isArray ? "]" : "}");
}

int currentUmask() {
  // umask() can only be read by setting it, which races with other threads; /proc has it.
  std::ifstream st("/proc/self/status");
  std::string line;
  while (std::getline(st, line))
    if (line.rfind("Umask:", 0) == 0) return std::stoi(line.substr(6), nullptr, 8);
  return 022;
}

}  // namespace

std::string writeMechanism(const MechanismSpec& spec) {
  const double L = spec.units.lengthScale(), A = spec.units.angleScale();
  Json doc;
  doc["mechsim"] = 1;
  if (!spec.name.empty()) doc["name"] = spec.name;
  if (spec.units.length != "m" || spec.units.angle != "rad")
    doc["units"] = Json{{"length", spec.units.length}, {"angle", spec.units.angle}};
  if (!spec.parameters.empty()) doc["parameters"] = parametersSectionJson(spec);
  if ((spec.gravity - Vec3(0, 0, -9.81)).cwiseAbs().maxCoeff() > kDefaultEps) doc["gravity"] = vec(spec.gravity, L);
  // An imported robot is written as its "import" section, not inlined: what came with it is left
  // out below (load_import.h).
  if (spec.imported) {
    doc["import"] = Json{{"file", spec.imported->file}};
    if (spec.imported->floatingBase) doc["import"]["floatingBase"] = true;
  }
  doc["bodies"] = Json::array();
  for (const BodySpec& b : spec.bodies)
    if (!importedBody(spec, b.name)) doc["bodies"].push_back(body(b, L));
  if (spec.imported && doc["bodies"].empty()) doc.erase("bodies");
  if (!spec.joints.empty()) {
    doc["joints"] = Json::array();
    for (const JointSpec& j : spec.joints)
      if (!importedJoint(spec, j.name)) doc["joints"].push_back(joint(j, L, A));
    if (doc["joints"].empty()) doc.erase("joints");
  }
  if (!spec.drivers.empty()) {
    doc["drivers"] = Json::array();
    for (const DriverSpec& d : spec.drivers) {
      if (importedDriver(spec, d.name)) continue;
      Json j;
      j["name"] = d.name;
      j["joint"] = d.joint;
      j["value"] = d.expression;  // kept in the file's units, as written
      if (d.coordinate != 0) j["coordinate"] = d.coordinate;
      doc["drivers"].push_back(j);
    }
    if (doc["drivers"].empty()) doc.erase("drivers");
  }
  if (!spec.couplings.empty()) {
    doc["couplings"] = couplingsSectionJson(spec);  // load_coupling.cpp
    if (spec.imported) {
      Json own = Json::array();
      for (std::size_t k = 0; k < spec.couplings.size() && k < doc["couplings"].size(); ++k)
        if (!importedCoupling(spec, spec.couplings[k].name)) own.push_back(doc["couplings"][k]);
      if (own.empty()) doc.erase("couplings");
      else doc["couplings"] = own;
    }
  }
  if (!spec.handles.empty()) {
    doc["handles"] = Json::array();
    for (const HandleSpec& h : spec.handles)
      doc["handles"].push_back(Json{{"name", h.name}, {"body", h.body}, {"point", vec(h.point, L)}});
  }
  // The dynamics section (load_dynamics.cpp), when the spec has one.
  if (spec.dynamics.present || !dynamicsSectionJson(spec).empty()) doc["dynamics"] = dynamicsSectionJson(spec);
  if (spec.contact.present) doc["contact"] = contactSectionJson(spec);
  if (!spec.deformables.empty()) doc["deformables"] = deformablesSectionJson(spec);
  // "=EXPR" where the file had it and the value is unchanged (with an import, at the paths the
  // file's own entries have without the imported ones).
  if (spec.imported && !spec.parameterFields.empty()) {
    MechanismSpec own = spec;
    own.parameterFields = pathsWithoutImport(spec, spec.parameterFields);
    restoreParameterFields(own, doc);
  } else {
    restoreParameterFields(spec, doc);
  }
  std::string out;
  emit(doc, out, 0, 0);
  out += '\n';
  return out;
}

namespace {

// Relative mesh paths are relative to the file that names them: when writing elsewhere, rebase
// them on the new folder using the absolute path the loader resolved. Meshes without a file are
// written beside `path` first (below).
MechanismSpec rebasedFor(const MechanismSpec& spec, const std::string& path) {
  MechanismSpec copy = spec;
  std::error_code ec;
  const fs::path dir = fs::absolute(fs::path(path), ec).parent_path().lexically_normal();
  auto rebase = [&](std::vector<ShapeSpec>& shapes) {
    for (ShapeSpec& s : shapes)
      if (s.type == ShapeType::Mesh && !s.resolvedFile.empty() && fs::path(s.file).is_relative()) {
        const fs::path rel = fs::path(s.resolvedFile).lexically_relative(dir);
        if (!rel.empty()) s.file = rel.generic_string();
      }
  };
  // A mesh that came with no file (MJCF's <mesh vertex= face=>) is written beside the mechanism
  // as a Wavefront OBJ of its own — STEM-BODY-shapeK.obj, in metres — which the shape then names:
  // the saved file reads back whole. Each is written atomically, before the mechanism file.
  const std::string stem = fs::path(path).stem().string();
  auto writeInline = [&](const std::string& body, std::vector<ShapeSpec>& shapes, const char* kind) {
    for (std::size_t k = 0; k < shapes.size(); ++k) {
      ShapeSpec& s = shapes[k];
      if (s.type != ShapeType::Mesh || !s.file.empty() || !s.mesh) continue;
      std::string name = stem + "-" + body + "-" + kind + std::to_string(k) + ".obj";
      for (char& c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.')) c = '_';
      std::string obj = "# written by mechsim: an inline mesh of " + body + " (metres)\n";
      char line[128];
      for (const Eigen::Vector3f& v : s.mesh->vertices) {
        std::snprintf(line, sizeof line, "v %.9g %.9g %.9g\n", double(v.x()), double(v.y()), double(v.z()));
        obj += line;
      }
      for (std::size_t t = 0; t + 2 < s.mesh->indices.size(); t += 3) {
        std::snprintf(line, sizeof line, "f %u %u %u\n", s.mesh->indices[t] + 1, s.mesh->indices[t + 1] + 1,
                      s.mesh->indices[t + 2] + 1);
        obj += line;
      }
      const fs::path file = dir / name;
      writeFileAtomically(file.string(), obj);
      s.file = name;
      s.resolvedFile = file.string();
    }
  };
  for (BodySpec& b : copy.bodies) {
    writeInline(b.name, b.shapes, "shape");
    writeInline(b.name, b.visuals, "visual");
    rebase(b.shapes);
    rebase(b.visuals);
  }
  if (copy.imported && !copy.imported->resolvedFile.empty() && fs::path(copy.imported->file).is_relative()) {
    const fs::path rel = fs::path(copy.imported->resolvedFile).lexically_relative(dir);
    if (!rel.empty()) copy.imported->file = rel.generic_string();
  }
  for (DeformableSpec& d : copy.deformables)
    if (!d.resolvedFile.empty() && fs::path(d.file).is_relative()) {
      const fs::path rel = fs::absolute(fs::path(d.resolvedFile), ec).lexically_normal().lexically_relative(dir);
      if (!rel.empty()) d.file = rel.generic_string();
    }
  return copy;
}

}  // namespace

void writeMechanismFile(const MechanismSpec& spec, const std::string& path) {
  writeFileAtomically(path, writeMechanism(rebasedFor(spec, path)));
}

std::string writeMechanism(const MechanismSpec& spec, const FileComments& comments) {
  return keepComments(comments, writeMechanism(spec));
}

void writeMechanismFile(const MechanismSpec& spec, const std::string& path, const FileComments& comments) {
  writeFileAtomically(path, writeMechanism(rebasedFor(spec, path), comments));
}

void writeFileAtomically(const std::string& path, const std::string& contents) {
  // Write a temporary file in the target's folder (rename is atomic only within one file
  // system), flush it to disk, then rename it over the target. A reader sees the old file or the
  // new one, never a part; a crash leaves at most a stray ".NAME.tmp-XXXXXX".
  const fs::path target(path);
  if (target.filename().empty()) throw std::runtime_error("cannot write '" + path + "': not a file name");
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpName = ".";  // built with += (GCC 12 warns falsely on "." + string here)
  tmpName += target.filename().string();
  tmpName += ".tmp-XXXXXX";
  std::string tmpl = (dir / tmpName).string();
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0)
    throw std::runtime_error("cannot write '" + path + "': cannot create a temporary file in '" + dir.string() +
                             "': " + std::strerror(errno));
  auto failWith = [&](const std::string& what) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmpl.c_str());
    throw std::runtime_error("cannot write '" + path + "': " + what + ": " + std::strerror(err));
  };

  // Keep the permissions of a file being replaced; a new file gets 0666 minus the umask, as
  // open(2) would have given it (mkstemp creates 0600).
  struct stat st {};
  const mode_t mode = ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : (0666 & ~currentUmask());
  if (::fchmod(fd, mode) != 0) failWith("fchmod");

  const char* p = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      failWith("write");
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) failWith("fsync");
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    throw std::runtime_error("cannot write '" + path + "': close: " + std::strerror(err));
  }
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    throw std::runtime_error("cannot write '" + path + "': rename: " + std::strerror(err));
  }
  // Make the rename itself durable (best effort: some file systems refuse fsync on folders).
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace mechsim::io
