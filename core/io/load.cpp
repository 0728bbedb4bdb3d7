// core/io/load.cpp — the native mechanism format (FORMAT.md §1, docs/format.md) → MechanismSpec.
//
// The text is parsed into a located JSON tree (json_value.h), then a Reader walks the tree
// section by section: units first (every length and angle is converted to SI as it is read),
// then bodies, joints, drivers and handles. Every value read records its location under its path
// ("joints[3].axis") in spec.locations, so that later stages (compile, the GUI) can point at it
// too. The first problem found stops the read with a LoadError "FILE:LINE:COL: error: PATH: ...".
#include "core/io/load.h"
#include "core/io/suggest.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <set>
#include <sstream>

#include "core/io/expressions.h"
#include "core/io/import/import.h"
#include "core/io/json_section.h"
#include "core/io/json_value.h"
#include "core/io/load_deformable.h"
#include "core/io/load_dynamics.h"
#include "core/io/load_import.h"
#include "core/io/load_contact.h"
#include "core/io/load_coupling.h"
#include "core/io/mesh.h"
#include "core/io/parameters.h"
#include "core/io/read_file.h"
#include "core/mesh_mirror.h"
#include "core/tolerances.h"

namespace mechsim::io {

namespace {

/// `text` cut to `max` bytes and "..." when longer, at a UTF-8 character boundary.
std::string cutAt(std::string_view text, std::size_t max) {
  if (text.size() <= max) return std::string(text);
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

}  // namespace

std::string shortenLongParts(const std::string& message, std::size_t maxPart) {
  // First every "quoted" part, then every remaining run without spaces (a value path that ends in
  // a long key), each cut to maxPart bytes.
  std::string quotedCut;
  for (std::size_t i = 0; i < message.size();) {
    const std::size_t open = message.find('"', i);
    const std::size_t close = open == std::string::npos ? std::string::npos : message.find('"', open + 1);
    if (close == std::string::npos) {
      quotedCut.append(message, i, std::string::npos);
      break;
    }
    quotedCut.append(message, i, open + 1 - i);
    quotedCut += cutAt(std::string_view(message).substr(open + 1, close - open - 1), maxPart);
    quotedCut += '"';
    i = close + 1;
  }
  std::string out;
  for (std::size_t i = 0; i < quotedCut.size();) {
    std::size_t end = quotedCut.find(' ', i);
    if (end == std::string::npos) end = quotedCut.size();
    const std::string_view run = std::string_view(quotedCut).substr(i, end - i);
    out += cutAt(run, maxPart + 40);
    if (run.size() > maxPart + 40 && (run.back() == ':' || run.back() == ',')) out += run.back();  // "path:"
    if (end < quotedCut.size()) out += ' ';
    i = end + 1;
  }
  return out;
}

std::string Diagnostic::format() const {
  std::ostringstream s;
  s << (file.empty() ? "<input>" : file);
  if (line > 0) s << ':' << line << ':' << col;
  s << ": error: " << message;
  return s.str();
}

namespace {

namespace fs = std::filesystem;
using json::Kind;
using json::Value;

/// Largest accepted mechanism file (same as the JSON parser's limit).
constexpr std::size_t kMaxFileBytes = std::size_t(64) << 20;

/// |cos| of the angle between a universal joint's axes above which they are "not perpendicular".
/// 1e-6 rad is far below any drawing precision, yet axes typed with 4–6 significant digits
/// ([0.7071, 0.7071, 0] and [-0.7071, 0.7071, 0]) pass.
constexpr double kPerpendicularCos = 1e-6;

/// Relative slack of the inertia checks (positive definiteness, triangle inequality), so that a
/// thin rod or disc whose moments meet the triangle inequality with equality is accepted.
constexpr double kInertiaRelTol = 1e-9;

// Keys of each joint type (besides name, type, body1, body2) and of each shape type (besides type).
const std::vector<std::string>& jointKeys(JointType t) {
  static const std::vector<std::string> rev{"point", "axis", "limits"}, cyl{"point", "axis"}, sph{"point"},
      uni{"point", "axis1", "axis2"}, pla{"point", "normal"}, fix{"point"},
      dis{"point1", "point2", "length", "limits"};
  switch (t) {
    case JointType::Revolute:
    case JointType::Prismatic: return rev;
    case JointType::Cylindrical: return cyl;
    case JointType::Spherical: return sph;
    case JointType::Universal: return uni;
    case JointType::Planar: return pla;
    case JointType::Fixed: return fix;
    case JointType::Distance: return dis;
  }
  return fix;
}

const std::vector<std::string>& shapeKeys(ShapeType t) {
  static const std::vector<std::string> box{"size", "position", "orientation", "color", "friction"},
      cyl{"radius", "length", "axis", "position", "orientation", "color", "friction"},
      sph{"radius", "position", "orientation", "color", "friction"},
      mesh{"file", "scale", "position", "orientation", "color", "friction"},
      plane{"normal", "position", "orientation", "color", "friction"};
  switch (t) {
    case ShapeType::Plane: return plane;
    case ShapeType::Box: return box;
    case ShapeType::Cylinder:
    case ShapeType::Capsule: return cyl;
    case ShapeType::Sphere: return sph;
    case ShapeType::Mesh: return mesh;
  }
  return box;
}

// ---- the reader ----

class Reader : JsonSection {
 public:
  Reader(MechanismSpec& spec, std::string fileName, std::string baseDir, const ParameterOverrides* overrides)
      : JsonSection(spec, std::move(fileName)), baseDir_(std::move(baseDir)), overrides_(overrides) {}

  void read(std::string_view text) {
    Value root;
    try {
      root = json::parse(text, json::ParseLimits{kMaxFileBytes, 64});
    } catch (const json::ParseError& e) {
      throw LoadError(Diagnostic{file_, e.loc().line, e.loc().col, e.what()});
    }
    spec_.sourceFile = file_;
    top(root);
  }

 private:
  std::string baseDir_;
  const ParameterOverrides* overrides_ = nullptr;  // a study run's parameter values
  std::map<std::string, std::shared_ptr<const MeshData>> meshCache_;  // absolute path → mesh
  double L_ = 1.0, A_ = 1.0;  // file length / angle unit in metres / radians

  // Names read so far, hashed (json_section.h): bodies and joints are JsonSection's own.
  NameIndex driverNames_, handleNames_;
  std::set<std::pair<std::string, int>> driven_;  // (joint, coordinate) of the drivers read so far

  /// The "name" of v (a KIND object): not empty, and not the name of one of `others` (looked up
  /// in `index`, which follows `others`).
  template <class Spec>
  std::string uniqueName(const Value& v, const std::string& path, const std::vector<Spec>& others, NameIndex& index,
                         const std::string& kind) {
    std::string n = name(req(v, path, "name", "the " + kind + "'s name"), child(path, "name"));
    if (index.find(others, n)) fail(*v.find("name"), child(path, "name"), "duplicate " + kind + " name \"" + n + "\"");
    return n;
  }

  // ---- colours, directions and rotations ----

  std::string color(const Value& v, const std::string& path) const {
    const std::string s = string(v, path);
    bool ok = s.size() == 7 && s[0] == '#';
    for (std::size_t i = 1; ok && i < s.size(); ++i) ok = std::isxdigit(static_cast<unsigned char>(s[i]));
    if (!ok) fail(v, path, "expected a colour \"#rrggbb\" (6 hex digits), got \"" + s + "\"");
    return s;
  }

  /// A direction: non-zero 3-vector, returned normalised.
  Vec3 direction(const Value& v, const std::string& path) const {
    const Vec3 d = vec3(v, path, 1.0);
    if (!(d.stableNorm() >= tol::kAxisNormMin)) fail(v, path, "expected a non-zero 3-vector (a direction), got a zero-length one");
    return unitLength(d);
  }

  /// `v` normalised; left bit for bit as it is when already of unit length to round-off (as the
  /// writer leaves every direction and quaternion), so that reading a written file and writing it
  /// again gives the same text instead of moving the last digit on every save.
  /// (stableNorm: components beyond 1e154 would overflow the plain norm and normalise to zero.)
  static Vec3 unitLength(const Vec3& v) {
    if (std::abs(v.stableNorm() - 1) <= 4 * std::numeric_limits<double>::epsilon()) return v;
    return v.stableNormalized();
  }
  static Quat unitLength(const Quat& q) {
    if (std::abs(q.coeffs().stableNorm() - 1) <= 4 * std::numeric_limits<double>::epsilon()) return q;
    return Quat(Eigen::Vector4d(q.coeffs().stableNormalized()));
  }

  /// {"axis": [..], "angle": a} | {"quaternion": [w, x, y, z]} | {"rpy": [r, p, y]}.
  Quat orientation(const Value& v, const std::string& path) {
    expectKind(v, path, Kind::Object,
               "an object {\"axis\": [x, y, z], \"angle\": a}, {\"quaternion\": [w, x, y, z]} or {\"rpy\": [r, p, y]}");
    checkKeys(v, path, {"axis", "angle", "quaternion", "rpy"}, "an orientation");
    const bool hasAxis = v.find("axis") || v.find("angle");
    const int forms = int(hasAxis) + int(v.find("quaternion") != nullptr) + int(v.find("rpy") != nullptr);
    if (forms != 1)
      fail(v, path, forms == 0 ? "empty orientation: give {\"axis\", \"angle\"}, {\"quaternion\"} or {\"rpy\"}"
                               : "give exactly one of {\"axis\", \"angle\"}, \"quaternion\" or \"rpy\"");
    if (const Value* q = opt(v, path, "quaternion")) {
      const auto w = numbers(*q, child(path, "quaternion"), 4, 1.0, "an array of 4 numbers [w, x, y, z]");
      Quat r(w[0], w[1], w[2], w[3]);
      if (!(r.coeffs().stableNorm() >= tol::kAxisNormMin)) fail(*q, child(path, "quaternion"), "the quaternion has zero length");
      return unitLength(r);
    }
    if (const Value* rpy = opt(v, path, "rpy")) {
      // Fixed axes X, then Y, then Z (URDF): R = Rz(yaw) · Ry(pitch) · Rx(roll).
      const auto a = numbers(*rpy, child(path, "rpy"), 3, A_, "an array of 3 angles [roll, pitch, yaw]");
      return Quat(Eigen::AngleAxisd(a[2], Vec3::UnitZ()) * Eigen::AngleAxisd(a[1], Vec3::UnitY()) *
                  Eigen::AngleAxisd(a[0], Vec3::UnitX()))
          .normalized();
    }
    const Value& ax = req(v, path, "axis", "the rotation axis");
    const Value& an = req(v, path, "angle", "the rotation angle");
    const Vec3 axis = direction(ax, child(path, "axis"));
    const double angle = number(an, child(path, "angle")) * A_;
    return Quat(Eigen::AngleAxisd(angle, axis)).normalized();
  }

  // ---- sections ----

  void top(const Value& root) {
    record("", root);
    expectKind(root, "", Kind::Object, "a JSON object { \"mechsim\": 1, ... }");

    // The version comes first: a JSON file that is not a mechanism should say so, not complain
    // about its keys.
    const Value* ver = opt(root, "", "mechsim");
    if (!ver) fail(root, "", "not a mechsim file: missing the format version key \"mechsim\": 1");
    const int version = integer(*ver, "mechsim");
    if (version != 1)
      fail(*ver, "mechsim", "unsupported format version " + std::to_string(version) + " (this program reads version 1)");
    spec_.version = version;

    checkKeys(root, "", {"mechsim", "name", "units", "parameters", "gravity", "bodies", "joints", "drivers",
                         "couplings", "handles", "dynamics", "deformables", "contact", "import"},
              "the mechanism");
    if (const Value* u = opt(root, "", "units")) units(*u);
    // Named numbers, before every field that may use them (core/io/parameters.h).
    if (const Value* p = opt(root, "", "parameters")) readParametersSection(*p, spec_, file_, overrides_);
    else if (overrides_ && !overrides_->empty())
      throw LoadError(Diagnostic{file_, root.loc.line, root.loc.col,
                                 "parameter \"" + overrides_->begin()->first + "\" is not in the file: it has no \"parameters\""});
    // A robot description whose bodies and joints come first (load_import.cpp).
    if (const Value* im = opt(root, "", "import")) readImportSection(*im, spec_, file_, baseDir_);
    if (const Value* n = opt(root, "", "name")) spec_.name = string(*n, "name");
    if (const Value* g = opt(root, "", "gravity")) spec_.gravity = vec3(*g, "gravity", L_);

    // An import's bodies and joints are spec_.bodies / joints[0..n): the file's own follow.
    const std::size_t importedBodies = spec_.bodies.size(), importedJoints = spec_.joints.size();
    const Value* b = opt(root, "", "bodies");
    if (!b && !importedBodies) fail(root, "", "missing required key \"bodies\" (a mechanism needs at least one body)");
    if (b) {
      expectKind(*b, "bodies", Kind::Array, "an array of bodies");
      if (b->items.empty() && !importedBodies) fail(*b, "bodies", "no bodies: a mechanism needs at least one body");
      for (std::size_t i = 0; i < b->items.size(); ++i) body(b->items[i], index("bodies", importedBodies + i));
    }

    if (const Value* j = opt(root, "", "joints"))
      items(*j, "joints", "an array of joints", [&](const Value& x, const std::string& p) { joint(x, p); }, importedJoints);
    if (const Value* d = opt(root, "", "drivers"))
      items(*d, "drivers", "an array of drivers", [&](const Value& x, const std::string& p) { driver(x, p); });
    // Couplings between joint coordinates (load_coupling.cpp).
    if (const Value* c = opt(root, "", "couplings")) readCouplingsSection(*c, spec_, file_);
    finishImport(spec_);  // the import's drivers and couplings after the file's own
    if (const Value* h = opt(root, "", "handles"))
      items(*h, "handles", "an array of handles", [&](const Value& x, const std::string& p) { handle(x, p); });
    // Springs, motors, initial velocities, solver settings (load_dynamics.cpp).
    if (const Value* dyn = opt(root, "", "dynamics")) readDynamicsSection(*dyn, spec_, file_, L_, A_);
    // Deformable parts: tetrahedral meshes, material, pinned / attached vertices (load_deformable.cpp).
    if (const Value* def = opt(root, "", "deformables")) readDeformablesSection(*def, spec_, file_, L_, baseDir_);
    // Contact settings, exclusions (load_contact.cpp).
    if (const Value* con = opt(root, "", "contact")) readContactSection(*con, spec_, file_, L_);
  }

  void units(const Value& u) {
    expectKind(u, "units", Kind::Object, "an object {\"length\": \"m\", \"angle\": \"rad\"}");
    checkKeys(u, "units", {"length", "angle"}, "units");
    if (const Value* l = opt(u, "units", "length")) {
      const std::string s = string(*l, "units.length");
      if (s != "m" && s != "cm" && s != "mm")
        fail(*l, "units.length", "unknown length unit \"" + s + "\" (expected \"m\", \"cm\" or \"mm\")" +
                                     didYouMean(s, {"m", "cm", "mm"}));
      spec_.units.length = s;
    }
    if (const Value* a = opt(u, "units", "angle")) {
      const std::string s = string(*a, "units.angle");
      if (s != "rad" && s != "deg")
        fail(*a, "units.angle", "unknown angle unit \"" + s + "\" (expected \"rad\" or \"deg\")" +
                                    didYouMean(s, {"rad", "deg"}));
      spec_.units.angle = s;
    }
    L_ = spec_.units.lengthScale();
    A_ = spec_.units.angleScale();
  }

  void body(const Value& v, const std::string& path) {
    record(path, v);
    expectKind(v, path, Kind::Object, "a body object");
    checkKeys(v, path,
              {"name", "fixed", "position", "orientation", "mass", "density", "com", "inertia", "shapes", "visuals",
               "color"},
              "a body", [](const std::string& k) -> std::string {
                if (k == "type" || k == "file" || k == "radius" || k == "size")
                  return "\"" + k + "\" belongs to a shape: put it in an entry of the body's \"shapes\" array";
                return "";
              });
    BodySpec b;
    b.name = uniqueName(v, path, spec_.bodies, bodyNames_, "body");
    if (const Value* x = opt(v, path, "fixed")) b.fixed = boolean(*x, child(path, "fixed"));
    if (const Value* x = opt(v, path, "position")) b.position = vec3(*x, child(path, "position"), L_);
    if (const Value* x = opt(v, path, "orientation")) b.orientation = orientation(*x, child(path, "orientation"));
    // A fixed body's mass is allowed and ignored (it never moves); it is kept for writing back.
    if (const Value* x = opt(v, path, "mass")) b.mass = positive(*x, child(path, "mass"), "mass");
    // Density is always kg/m³ whatever the file's length unit (it is a looked-up material constant).
    if (const Value* x = opt(v, path, "density")) b.density = positive(*x, child(path, "density"), "density");
    if (const Value* x = opt(v, path, "com")) {
      b.com = vec3(*x, child(path, "com"), L_);
      b.comGiven = true;
    }
    if (const Value* x = opt(v, path, "inertia")) b.inertia = inertia(*x, child(path, "inertia"));
    if (const Value* x = opt(v, path, "shapes")) b.shapes = shapes(*x, child(path, "shapes"));
    if (const Value* x = opt(v, path, "visuals")) b.visuals = shapes(*x, child(path, "visuals"));
    if (const Value* x = opt(v, path, "color")) b.color = color(*x, child(path, "color"));
    spec_.bodies.push_back(std::move(b));
  }

  /// Ixx Iyy Izz Ixy Ixz Iyz (tensor entries) in kg·(file length)², returned in kg·m².
  Eigen::Matrix<double, 6, 1> inertia(const Value& v, const std::string& path) const {
    const auto x = numbers(v, path, 6, L_ * L_, "an array of 6 numbers [Ixx, Iyy, Izz, Ixy, Ixz, Iyz]");
    Eigen::Matrix<double, 6, 1> I;
    for (int i = 0; i < 6; ++i) I[i] = x[i];
    Mat3 M;
    M << I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2];
    const Eigen::SelfAdjointEigenSolver<Mat3> es(M, Eigen::EigenvaluesOnly);
    const Vec3 l = es.eigenvalues();  // ascending
    const double s = L_ * L_;
    const std::string moments = fmt(l[0] / s) + ", " + fmt(l[1] / s) + ", " + fmt(l[2] / s);
    if (!(l[0] > kInertiaRelTol * std::fabs(l[2])) || !(l[2] > 0))
      fail(v, path, "the inertia matrix is not positive definite (principal moments " + moments + ")");
    if (l[2] > (l[0] + l[1]) * (1 + kInertiaRelTol))
      fail(v, path, "the principal moments " + moments +
                        " violate the triangle inequality (each must be at most the sum of the other two)");
    return I;
  }

  std::vector<ShapeSpec> shapes(const Value& v, const std::string& path) {
    std::vector<ShapeSpec> out;
    items(v, path, "an array of shapes", [&](const Value& x, const std::string& p) { out.push_back(shape(x, p)); });
    return out;
  }

  ShapeSpec shape(const Value& v, const std::string& path) {
    record(path, v);
    expectKind(v, path, Kind::Object, "a shape object {\"type\": ...}");
    ShapeSpec s;
    const Value& tv = req(v, path, "type", "box, cylinder, sphere, capsule or mesh");
    const std::string ts = string(tv, child(path, "type"));
    const auto t = shapeTypeFromString(ts);
    if (!t)
      fail(tv, child(path, "type"), "unknown shape type \"" + ts + "\" (expected box, cylinder, sphere, capsule, mesh or plane)" +
                                        didYouMean(ts, {"box", "cylinder", "sphere", "capsule", "mesh", "plane"}));
    s.type = *t;
    std::vector<std::string> allowed = shapeKeys(s.type);
    allowed.insert(allowed.begin(), "type");
    checkKeys(v, path, allowed, std::string("a ") + ts + " shape", [&](const std::string& k) -> std::string {
      for (ShapeType o : {ShapeType::Box, ShapeType::Cylinder, ShapeType::Sphere, ShapeType::Capsule, ShapeType::Mesh, ShapeType::Plane}) {
        const auto& ok = shapeKeys(o);
        if (std::find(ok.begin(), ok.end(), k) != ok.end())
          return "key \"" + k + "\" is not used by a " + ts + " shape (" + ts + " shapes take: " + join(allowed) + ")";
      }
      return "";
    });

    switch (s.type) {
      case ShapeType::Box: {
        const Value& x = req(v, path, "size", "full edge lengths [x, y, z]");
        s.size = vec3(x, child(path, "size"), L_);
        for (int i = 0; i < 3; ++i)
          if (!(s.size[i] > 0))
            fail(x.items[i], index(child(path, "size"), i), "box edge lengths must be positive, got " + fmt(s.size[i] / L_));
        break;
      }
      case ShapeType::Sphere:
        s.radius = positive(req(v, path, "radius", "the radius"), child(path, "radius"), "radius") * L_;
        break;
      case ShapeType::Cylinder:
      case ShapeType::Capsule: {
        s.radius = positive(req(v, path, "radius", "the radius"), child(path, "radius"), "radius") * L_;
        const Value& lv = req(v, path, "length", "the length along the axis");
        s.length = number(lv, child(path, "length")) * L_;
        // A capsule of length 0 is a sphere, which is allowed; a cylinder needs a length.
        if (s.type == ShapeType::Cylinder ? !(s.length > 0) : !(s.length >= 0))
          fail(lv, child(path, "length"),
               std::string("length must be ") + (s.type == ShapeType::Cylinder ? "positive" : "zero or positive") +
                   ", got " + fmt(s.length / L_));
        if (const Value* x = opt(v, path, "axis")) s.axis = direction(*x, child(path, "axis"));
        break;
      }
      case ShapeType::Mesh: {
        const Value& fv = req(v, path, "file", "the mesh file, relative to this file");
        s.file = string(fv, child(path, "file"));
        if (s.file.empty()) fail(fv, child(path, "file"), "the mesh file name is empty");
        // The file's coordinates × scale are in the file's length unit; the spec keeps metres.
        // Three numbers mirror the mesh by their signs; their magnitudes must agree (one uniform scale).
        double scale = 1.0;
        if (const Value* x = opt(v, path, "scale")) {
          if (x->isArray()) {
            const Vec3 k = vec3(*x, child(path, "scale"), 1.0);
            const Vec3 a = k.cwiseAbs();
            if (!(a.minCoeff() > 0) || a.maxCoeff() - a.minCoeff() > 1e-12 * a.maxCoeff())
              fail(*x, child(path, "scale"), "the three scale factors must have one magnitude (mechsim scales meshes "
                                             "uniformly; their signs mirror the mesh), got " + fmt(k.x()) + ", " +
                                             fmt(k.y()) + ", " + fmt(k.z()));
            scale = a.x();
            for (int i = 0; i < 3; ++i) s.mirror[i] = k[i] < 0 ? -1.0 : 1.0;
          } else {
            scale = positive(*x, child(path, "scale"), "scale");
          }
        }
        s.scale = scale * L_;
        loadMesh(s, fv, child(path, "file"));
        if (mirrors(s.mirror)) s.mesh = std::make_shared<const MeshData>(mirroredMesh(*s.mesh, s.mirror));
        break;
      }
      case ShapeType::Plane:  // the half-space below the plane through `position` (contact ground)
        if (const Value* x = opt(v, path, "normal")) s.axis = direction(*x, child(path, "normal"));
        break;
    }
    if (const Value* x = opt(v, path, "position")) s.position = vec3(*x, child(path, "position"), L_);
    if (const Value* x = opt(v, path, "orientation")) s.orientation = orientation(*x, child(path, "orientation"));
    if (const Value* x = opt(v, path, "color")) s.color = color(*x, child(path, "color"));
    if (const Value* x = opt(v, path, "friction")) {
      const double mu = number(*x, child(path, "friction"));
      if (!(mu >= 0) || !(mu < 1e6)) fail(*x, child(path, "friction"), "friction coefficient must be ≥ 0, got " + fmt(mu));
      s.friction = mu;
    }
    return s;
  }

  /// Resolves the mesh path against the mechanism file's folder and loads it (once per load).
  void loadMesh(ShapeSpec& s, const Value& fv, const std::string& path) {
    fs::path p(s.file);
    if (p.is_relative()) p = fs::path(baseDir_.empty() ? "." : baseDir_) / p;
    std::error_code ec;
    fs::path abs = fs::absolute(p, ec).lexically_normal();
    s.resolvedFile = abs.string();
    auto it = meshCache_.find(s.resolvedFile);
    if (it != meshCache_.end()) {
      s.mesh = it->second;
      return;
    }
    try {
      s.mesh = loadMeshFile(s.resolvedFile);
    } catch (const std::exception& e) {
      fail(fv, path, e.what());
    }
    meshCache_[s.resolvedFile] = s.mesh;
  }

  void joint(const Value& v, const std::string& path) {
    record(path, v);
    expectKind(v, path, Kind::Object, "a joint object");
    JointSpec j;
    j.name = uniqueName(v, path, spec_.joints, jointNames_, "joint");
    const Value& tv = req(v, path, "type", "revolute, prismatic, cylindrical, spherical, universal, planar, fixed or distance");
    const std::string ts = string(tv, child(path, "type"));
    const auto t = jointTypeFromString(ts);
    const std::vector<std::string> typeNames{"revolute", "prismatic", "cylindrical", "spherical",
                                             "universal", "planar",    "fixed",       "distance"};
    if (!t) fail(tv, child(path, "type"), "unknown joint type \"" + ts + "\" (expected " + join(typeNames) + ")" + didYouMean(ts, typeNames));
    j.type = *t;

    // Exactly the keys this type uses; a key another type uses gets a specific explanation.
    std::vector<std::string> allowed{"name", "type", "body1", "body2"};
    for (const auto& k : jointKeys(j.type)) allowed.push_back(k);
    checkKeys(v, path, allowed, "a " + ts + " joint", [&](const std::string& k) -> std::string {
      if (k == "limits")
        return "\"limits\" apply to one-coordinate joints only (revolute, prismatic, distance); a " + ts +
               " joint has " + std::to_string(jointCoordinateCount(j.type)) + " coordinates";
      for (JointType o : {JointType::Revolute, JointType::Cylindrical, JointType::Universal, JointType::Planar,
                          JointType::Distance}) {
        const auto& ok = jointKeys(o);
        if (std::find(ok.begin(), ok.end(), k) != ok.end())
          return "key \"" + k + "\" is not used by a " + ts + " joint (" + ts + " joints take: " + join(allowed) + ")";
      }
      return "";
    });

    const Value& b1 = req(v, path, "body1", "the first body's name");
    const Value& b2 = req(v, path, "body2", "the second body's name");
    j.body1 = name(b1, child(path, "body1"));
    j.body2 = name(b2, child(path, "body2"));
    bodyRef(j.body1, b1, child(path, "body1"));
    bodyRef(j.body2, b2, child(path, "body2"));
    if (j.body1 == j.body2) fail(b2, child(path, "body2"), "a joint must connect two different bodies (body1 and body2 are both \"" + j.body1 + "\")");

    switch (j.type) {
      case JointType::Revolute:
      case JointType::Prismatic:
      case JointType::Cylindrical:
        j.point = vec3(req(v, path, "point", "a world point on the axis"), child(path, "point"), L_);
        j.axis = direction(req(v, path, "axis", "the joint axis"), child(path, "axis"));
        break;
      case JointType::Spherical:
        j.point = vec3(req(v, path, "point", "the centre, a world point"), child(path, "point"), L_);
        break;
      case JointType::Universal: {
        j.point = vec3(req(v, path, "point", "the centre, a world point"), child(path, "point"), L_);
        j.axis1 = direction(req(v, path, "axis1", "the axis fixed in body1"), child(path, "axis1"));
        const Value& a2 = req(v, path, "axis2", "the axis fixed in body2");
        j.axis2 = direction(a2, child(path, "axis2"));
        const double c = std::fabs(j.axis1.dot(j.axis2));
        if (c > kPerpendicularCos)
          fail(a2, child(path, "axis2"), "the universal joint's axes must be perpendicular (they are " +
                                             fmt(std::acos(std::min(1.0, c)) * 180 / 3.14159265358979323846) +
                                             " degrees apart)");
        break;
      }
      case JointType::Planar:
        j.point = vec3(req(v, path, "point", "a world point in the plane"), child(path, "point"), L_);
        j.normal = direction(req(v, path, "normal", "the plane's normal"), child(path, "normal"));
        break;
      case JointType::Fixed:
        if (const Value* x = opt(v, path, "point")) j.point = vec3(*x, child(path, "point"), L_);
        break;
      case JointType::Distance: {
        j.point1 = vec3(req(v, path, "point1", "the world point on body1"), child(path, "point1"), L_);
        j.point2 = vec3(req(v, path, "point2", "the world point on body2"), child(path, "point2"), L_);
        if (const Value* x = opt(v, path, "length")) j.length = positive(*x, child(path, "length"), "length") * L_;
        else if (!((j.point2 - j.point1).norm() > tol::kLengthEps))
          fail(v, path, "point1 and point2 coincide: give a positive \"length\" or separate the points");
        break;
      }
    }
    if (const Value* x = opt(v, path, "limits")) {
      const double s = coordinateIsAngle(j.type, 0) ? A_ : L_;
      const auto lim = numbers(*x, child(path, "limits"), 2, s, "an array [lower, upper]");
      if (!(lim[0] <= lim[1])) fail(*x, child(path, "limits"), "lower limit " + fmt(lim[0] / s) + " is above the upper limit " + fmt(lim[1] / s));
      j.limits = std::make_pair(lim[0], lim[1]);
    }
    spec_.joints.push_back(std::move(j));
  }

  void driver(const Value& v, const std::string& path) {
    record(path, v);
    expectKind(v, path, Kind::Object, "a driver object");
    checkKeys(v, path, {"name", "joint", "value", "coordinate"}, "a driver", [](const std::string& k) -> std::string {
      if (k == "expression" || k == "expr" || k == "function")
        return "the driver's expression goes in key \"value\" (e.g. \"value\": \"360 * t\")";
      return "";
    });
    DriverSpec d;
    d.name = uniqueName(v, path, spec_.drivers, driverNames_, "driver");
    const Value& jv = req(v, path, "joint", "the driven joint's name");
    d.joint = name(jv, child(path, "joint"));
    const JointSpec* joint = &jointRef(d.joint, jv, child(path, "joint"));
    const int n = jointCoordinateCount(joint->type);
    if (n == 0) fail(jv, child(path, "joint"), "joint \"" + d.joint + "\" is a fixed joint: it has no coordinate to drive");
    if (const Value* c = opt(v, path, "coordinate")) {
      d.coordinate = integer(*c, child(path, "coordinate"));
      if (d.coordinate < 0 || d.coordinate >= n)
        fail(*c, child(path, "coordinate"), "coordinate " + std::to_string(d.coordinate) + " is out of range: " +
                                                std::string(toString(joint->type)) + " joint \"" + d.joint + "\" has " +
                                                std::to_string(n) + (n == 1 ? " coordinate (0)" : " coordinates (0.." + std::to_string(n - 1) + ")"));
    }
    if (driven_.count({d.joint, d.coordinate}))
      for (const DriverSpec& o : spec_.drivers)  // which one, for the message
        if (o.joint == d.joint && o.coordinate == d.coordinate)
          fail(jv, child(path, "joint"), "coordinate " + std::to_string(d.coordinate) + " of joint \"" + d.joint +
                                             "\" is already driven by driver \"" + o.name + "\"");
    const Value& ev = req(v, path, "value", "an expression of t, e.g. \"360 * t\"");
    if (ev.kind == Kind::Number)
      fail(ev, child(path, "value"), "expected an expression string, got a number (write it in quotes, e.g. \"" + fmt(ev.number) + "\")");
    d.expression = string(ev, child(path, "value"));
    try {
      compileExpression(d.expression, 1.0, &spec_.parameters);
    } catch (const ExpressionError& e) {
      fail(ev, child(path, "value"), expressionErrorMessage(d.expression, e));
    }
    driven_.emplace(d.joint, d.coordinate);
    spec_.drivers.push_back(std::move(d));
  }

  void handle(const Value& v, const std::string& path) {
    record(path, v);
    expectKind(v, path, Kind::Object, "a handle object");
    checkKeys(v, path, {"name", "body", "point"}, "a handle");
    HandleSpec h;
    h.name = uniqueName(v, path, spec_.handles, handleNames_, "handle");
    const Value& bv = req(v, path, "body", "the body the handle is attached to");
    h.body = name(bv, child(path, "body"));
    bodyRef(h.body, bv, child(path, "body"));
    h.point = vec3(req(v, path, "point", "a world point"), child(path, "point"), L_);
    spec_.handles.push_back(std::move(h));
  }
};

}  // namespace

MechanismSpec parseMechanism(std::string_view text, const std::string& fileName, const std::string& baseDir,
                             const ParameterOverrides* overrides) {
  MechanismSpec spec;
  Reader(spec, fileName, baseDir, overrides).read(text);
  return spec;
}

namespace {

/// The native reader on `path`, which no importer takes: a xacro or misnamed XML file is refused
/// with what to do, and a file under another extension than .json that the native reader refuses
/// has its error end with the formats mechsim reads (it may be no mechanism file at all).
MechanismSpec readNative(const std::string& path, const ParameterOverrides* overrides) {
  const FileText file = readMechanismText(path, kMaxFileBytes);
  refuseUnreadable(path, file.text);
  try {
    return parseMechanism(file.text, path, file.dir, overrides);
  } catch (const LoadError& e) {
    const std::string ext = fs::path(path).extension().string();
    if (ext.empty() || ext == ".json") throw;
    Diagnostic d = e.diagnostic();
    d.message += " (the extension \"" + ext + "\" names no format; " + kFormatsRead + ")";
    throw LoadError(d);
  }
}

}  // namespace

MechanismSpec readMechanismFile(const std::string& path, const ParameterOverrides& overrides) {
  if (overrides.empty()) return readMechanismFile(path);
  if (importFormatOf(path))
    throw LoadError(Diagnostic{path, 0, 0, "parameters belong to the native format: this file has none to set"});
  return readNative(path, &overrides);
}

MechanismSpec readMechanismFile(const std::string& path, const ImportOptions& options) {
  if (options == ImportOptions{}) return readMechanismFile(path);
  if (!importFormatOf(path))
    throw LoadError(Diagnostic{path, 1, 1, "a floating base is an option of the URDF importer: a native file says itself "
                                           "which bodies are fixed (\"fixed\": true)"});
  return importMechanismFile(path, options);
}

MechanismSpec readMechanismFile(const std::string& path) {
  // URDF, MJCF and SDFormat go to their importers (core/io/import/import.h).
  if (importFormatOf(path)) return importMechanismFile(path);
  return readNative(path, nullptr);
}

}  // namespace mechsim::io
