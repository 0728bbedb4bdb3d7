// core/io/import/mjcf_import.cpp — MJCF (MuJoCo XML, mujoco.readthedocs.io XML reference), a
// subset, → MechanismSpec. Parsed with TinyXML2 so that every error has its line and column.
//
// Read: <compiler angle eulerseq meshdir assetdir autolimits>, <option gravity>, <default> classes
// (nested, inherited; `class` and `childclass`), <asset><mesh> (a file, or vertex= / face= in the
// XML: without face= the vertices' convex hull, as MuJoCo takes it) and <asset><model>, <worldbody>
// with nested <body>, <joint> (hinge, slide, ball, free), <freejoint>, <geom> (sphere, capsule,
// cylinder, box, mesh, ellipsoid and plane approximated), <inertial>, <site>, and <equality>
// <connect> / <weld> (by body1/body2/anchor or by site1/site2) for closed loops and <joint> (polycoef)
// as a coupling; the meta-elements
// <frame>, <replicate>, <attach> and <flexcomp> (dim 3: a deformable part); <mechsim:driver> adds
// drivers. <include file> is expanded first (xml_file.cpp: MuJoCo's semantics, relative to the
// top-level file's folder), and repeated sections (two <worldbody>, <asset>, <default>, ... from
// the file and its includes) are read in order, as one. <composite> and flexcomps of dim 1 and 2
// are left out with a warning that names what they would have made. Everything else (actuators,
// sensors, tendons, contact, visual settings) is outside the kinematic model and left out.
//
// Frames (MJCF, coordinate="local"): a body's pos/orientation place it in its parent's frame, so
//   T_body = T_parent · T_frames · T_local,      T_world = identity,
// where T_frames is the product of the <frame>s and <replicate> copies between the body and its
// parent element; joint pos/axis and geom/site/inertial placements are in the body's frame (after
// the frames around them). The file describes the model at qpos0 (every joint at its ref), which
// is mechsim's zero configuration.
//
// <replicate count offset euler sep> (MuJoCo's xml_native_reader): copy i (0 ≤ i < count) of its
// contents is placed at T_i = (p_i, R(i · euler)) with p_0 = 0, p_{i+1} = p_i + R(i · euler) · offset,
// and every name in it (bodies, joints, sites) gets the suffix sep + i, written with as many
// digits as count has; nested replicates append the innermost suffix first. An <equality> that
// names a replicated body or site is replicated with it.
//
// Joints: a body with one joint gets one mechsim joint to its parent; a body with k > 1 joints
// gets a chain parent —j1— b/j1 —j2— … —jk— body through k − 1 intermediate bodies of
// kNominalMass at the body's place, because MuJoCo applies a body's joints in sequence, each
// about an axis carried by the previous ones. A body without joints is welded to its parent (a
// fixed body when the parent is the world). <connect body1 body2 anchor> → spherical joint at the
// anchor (body1 frame); <weld> → fixed joint; both hold at qpos0, as in MuJoCo. By sites,
// <connect site1 site2> is a spherical joint at site1 and <weld site1 site2> a fixed joint there;
// MuJoCo snaps sites that the file does not place together, mechsim holds them as placed (a
// warning gives the gap).
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "core/deform/tet_mesh.h"
#include "core/io/import/convex_hull.h"
#include "core/io/import/import.h"
#include "core/io/import/import_common.h"
#include "core/io/import/resources.h"
#include "core/io/import/xml_file.h"
#include "core/io/name_index.h"
#include "core/io/read_file.h"
#include "core/io/tetmesh_io.h"
#include "core/mesh_normals.h"

namespace mechsim::io {

namespace {

namespace fs = std::filesystem;
using imp::children;
using imp::didYouMean;
using imp::fmt;
using imp::XMLElement;

constexpr double kPi = 3.14159265358979323846;

/// A hinge range beyond ±2 turns under angle="radian" is degrees written as radians.
constexpr double kRadianSuspicion = 4 * kPi;

const std::vector<std::string> kJointTypes{"hinge", "slide", "ball", "free"};
const std::vector<std::string> kGeomTypes{"sphere", "capsule", "cylinder", "box", "mesh", "ellipsoid", "plane", "hfield", "sdf"};

/// <replicate> copies, multiplied through nesting, and elements read inside copies, at most (a
/// file of a few lines must not take the memory of the machine).
constexpr long kMaxReplicas = 1'000'000;
constexpr long kMaxReplicatedElements = 2'000'000;

/// <attach> of models that attach models, at most (MuJoCo does not check for cycles).
constexpr int kMaxAttachDepth = 16;

/// Sites further apart than this (m), or turned by more than kSiteTurn (rad), in the file are not
/// where a site-based equality holds them (MuJoCo would pull them together): a warning.
constexpr double kSiteGap = 1e-9;
constexpr double kSiteTurn = 1e-9;

/// One default class: the attributes it gives each element type, its parent's included.
struct DefaultClass {
  std::map<std::string, std::map<std::string, std::string>> attrs;  // element → attribute → value
  const XMLElement* where = nullptr;
};

/// Where an element of the tree sits between its body and it: the <frame>s and <replicate> copies
/// around it (their product, in the body's frame), the name suffix of the copies (innermost first)
/// and the childclass in force.
struct Place {
  Pose frame;
  std::string suffix;
  std::string childclass = "main";
  long copies = 1;           // product of the enclosing replicate counts
  bool replicated = false;   // directly inside a <replicate>
};

class MjcfImporter {
 public:
  MjcfImporter(std::string_view text, const std::string& fileName, const std::string& baseDir, int attachDepth = 0)
      : xml_(text, fileName, baseDir, /*mjcfIncludes=*/true), meshes_(spec_, baseDir), attachDepth_(attachDepth) {
    spec_.sourceFile = fileName;
  }

  MechanismSpec run() {
    read();
    return std::move(spec_);
  }

 private:
  /// The whole model into spec_ (run(), and the models <attach> takes bodies from).
  void read() {
    const XMLElement* root = xml_.root();
    if (std::string(root->Name()) != "mujoco")
      xml_.fail(root, "not an MJCF file: the root element is <" + std::string(root->Name()) + ">, expected <mujoco>");
    spec_.locations[""] = xml_.loc(root);
    spec_.name = root->Attribute("model") ? root->Attribute("model") : "";
    for (const XMLElement* c : children(root, "compiler")) compiler(c);
    xml_.setUnitHint(std::string("MJCF lengths are metres and angles are ") + (angleScale_ == 1.0 ? "radians" : "degrees") +
                     " (<compiler angle>), written without units");
    for (const XMLElement* o : children(root, "option"))
      if (o->Attribute("gravity")) spec_.gravity = xml_.vec3(o, "gravity", spec_.gravity);
    classes_["main"] = DefaultClass{};
    for (const XMLElement* d : children(root, "default")) defaults(d, "");
    for (const XMLElement* a : children(root, "asset")) assets(a);

    // The world body, then the tree.
    BodySpec world;
    world.name = "world";
    world.fixed = true;
    spec_.bodies.push_back(world);
    bodyIndex_["world"] = 0;
    bodyPose_["world"] = Pose{};
    const XMLElement* wb = root->FirstChildElement("worldbody");
    if (!wb) xml_.fail(root, "the model has no <worldbody>");
    spec_.locations["bodies[0]"] = xml_.loc(wb);
    for (const XMLElement* w = wb; w; w = w->NextSiblingElement("worldbody")) worldbody(w);
    for (const XMLElement* eq : children(root, "equality")) equality(eq);
    for (const XMLElement* d : children(root, "mechsim:driver")) imp::readDriver(xml_, d, spec_);
    for (BodySpec& b : spec_.bodies) imp::nominalMassIfMissing(b);
  }

  imp::XmlFile xml_;
  MechanismSpec spec_;
  imp::MeshLoader meshes_;
  double angleScale_ = kPi / 180;  // MJCF's default angle unit is the degree
  std::string eulerseq_ = "xyz";
  std::string meshdir_;            // folder of mesh files, relative to the model file
  bool autolimits_ = true;
  std::map<std::string, DefaultClass> classes_;
  struct MeshAsset {
    std::string file;
    Vec3 scale = Vec3::Ones();
    const XMLElement* where = nullptr;
    std::shared_ptr<const MeshData> data;  // vertex= in the XML: the mesh itself, in metres
  };
  std::map<std::string, MeshAsset> meshAssets_;
  NameIndex jointNames_;  // spec_.joints by name (addJoint)
  std::map<std::string, std::vector<double>> materialRgba_;  // <asset><material name rgba>
  struct ModelAsset {
    std::string file, name;  // name: its own, else the model's (read when first attached)
    const XMLElement* where = nullptr;
    std::shared_ptr<MjcfImporter> model;  // read on first use
  };
  std::vector<ModelAsset> modelAssets_;
  std::map<std::string, int> bodyIndex_;
  std::map<std::string, Pose> bodyPose_;  // world pose of each body at qpos0
  struct Site {
    std::string body;
    Pose world;  // at qpos0
  };
  std::map<std::string, Site> sites_;
  std::map<std::string, std::vector<std::string>> replicas_;  // name in the file → suffixes of its copies
  std::map<std::string, std::string> treeParent_;  // body → the body of the enclosing <body> (world: "world")
  std::map<std::string, std::string> owner_;       // intermediate body of a joint chain → its body
  std::set<std::string> treeJoints_;               // joints of the tree (not equalities)
  // Name prefixes of the bodies MuJoCo generates for <flexcomp>s and <composite>s (not bodies
  // here), with the element: an equality naming one is left out with a warning.
  std::vector<std::pair<std::string, const XMLElement*>> generated_;
  int unnamed_ = 0;
  int attachDepth_ = 0;
  long replicatedElements_ = 0;

  /// A warning at e, once (an element inside a <replicate> is read once per copy).
  void warn(const XMLElement* e, const std::string& msg) {
    std::string w = xml_.warning(e, msg);
    if (warned_.insert(w).second) spec_.warnings.push_back(std::move(w));
  }
  std::set<std::string> warned_;

  // ---- compiler, defaults, assets ----

  void compiler(const XMLElement* c) {
    if (const char* a = c->Attribute("angle")) {
      const std::string s = a;
      if (s == "degree") angleScale_ = kPi / 180;
      else if (s == "radian") angleScale_ = 1.0;
      else xml_.failAttr(c, "angle", "unknown angle unit \"" + s + "\" (expected \"degree\" or \"radian\")" + didYouMean(s, {"degree", "radian"}));
    }
    spec_.units.angle = angleScale_ == 1.0 ? "rad" : "deg";
    if (const char* s = c->Attribute("eulerseq")) {
      eulerseq_ = s;
      if (eulerseq_.size() != 3 || eulerseq_.find_first_not_of("xyzXYZ") != std::string::npos)
        xml_.failAttr(c, "eulerseq", "eulerseq must be three letters from x, y, z (moving axes) or X, Y, Z (fixed axes), got \"" + eulerseq_ + "\"");
    }
    if (const char* s = c->Attribute("coordinate"); s && std::string(s) != "local")
      xml_.failAttr(c, "coordinate", "coordinate=\"" + std::string(s) + "\" is not supported (MuJoCo removed it): give positions in the parent body's frame");
    if (const char* s = c->Attribute("meshdir")) meshdir_ = s;
    else if (const char* t = c->Attribute("assetdir")) meshdir_ = t;
    if (const char* s = c->Attribute("autolimits")) autolimits_ = std::string(s) == "true";
  }

  void defaults(const XMLElement* d, const std::string& parent) {
    const char* cls = d->Attribute("class");
    const std::string name = cls ? cls : parent.empty() ? "main" : "";
    if (name.empty()) xml_.fail(d, "a nested <default> needs a class=\"...\" name");
    if (!parent.empty() || name != "main") {
      if (classes_.count(name) && classes_[name].where)
        xml_.failAttr(d, "class", "duplicate default class \"" + name + "\" (first at line " + std::to_string(classes_[name].where->GetLineNum()) + ")");
      classes_[name] = parent.empty() ? classes_["main"] : classes_[parent];
    }
    DefaultClass& c = classes_[name];
    c.where = d;
    for (const XMLElement* e = d->FirstChildElement(); e; e = e->NextSiblingElement()) {
      if (std::string(e->Name()) == "default") continue;
      for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) c.attrs[e->Name()][a->Name()] = a->Value();
    }
    for (const XMLElement* e : children(d, "default")) defaults(e, name);
  }

  void assets(const XMLElement* a) {
    for (const XMLElement* m : children(a, "mesh")) {
      const char* file = m->Attribute("file");
      const char* vertex = m->Attribute("vertex");
      if (!file && !vertex) {
        warn(m, "mesh asset without file= or vertex= (e.g. builtin=) is not supported; geoms using it are drawn as placeholders");
        continue;
      }
      if (file && vertex) xml_.failAttr(m, "vertex", "a mesh asset takes its vertices from file= or from vertex=, not both");
      if (!file && !m->Attribute("name")) xml_.fail(m, "a mesh asset given by vertex= needs a name=\"...\"");
      std::string name = m->Attribute("name") ? m->Attribute("name") : fs::path(file).stem().string();
      MeshAsset asset{file ? file : "", Vec3::Ones(), m, nullptr};
      const std::string cls = m->Attribute("class") ? m->Attribute("class") : "main";
      if (const char* s = attr(m, "scale", cls)) {
        const auto v = xml_.parseNumbers(m, "scale", s, 3, 3);
        asset.scale = Vec3(v[0], v[1], v[2]);
      }
      if (vertex) asset.data = inlineMesh(m, asset.scale);
      if (meshAssets_.count(name)) xml_.failAttr(m, "name", "duplicate mesh asset \"" + name + "\"");
      meshAssets_[name] = asset;
    }
    // Materials: their colour (rgba, default white); textures, reflectance and the rest of the
    // look are not drawn.
    for (const XMLElement* m : children(a, "material")) {
      const std::string name = xml_.reqAttr(m, "name", "the material's name");
      const std::string cls = m->Attribute("class") ? m->Attribute("class") : "main";
      materialRgba_[name] = nums(m, "rgba", cls, 4, 4).value_or(std::vector<double>{1, 1, 1, 1});
    }
    for (const XMLElement* m : children(a, "model")) {
      ModelAsset asset;
      asset.file = xml_.reqAttr(m, "file", "the MJCF file of the model, relative to this file's folder");
      asset.name = m->Attribute("name") ? m->Attribute("name") : "";
      asset.where = m;
      modelAssets_.push_back(std::move(asset));
    }
  }

  /// <mesh vertex="x y z ..." [face="i j k ..."] [scale refpos refquat]>: the triangles of face=,
  /// else the vertices' convex hull (MuJoCo's reading). The scale (any signs) is applied to the
  /// vertices here, exactly; a reflection reverses the winding so that normals stay outward.
  std::shared_ptr<const MeshData> inlineMesh(const XMLElement* m, const Vec3& scale) {
    const std::vector<double> v = xml_.parseNumbers(m, "vertex", m->Attribute("vertex"), 3, std::size_t(-1));
    if (v.size() % 3 != 0)
      xml_.failAttr(m, "vertex", "vertex= needs 3 numbers per vertex, got " + std::to_string(v.size()));
    const Vec3 refpos = xml_.vec3(m, "refpos", Vec3::Zero());
    Quat refquat = Quat::Identity();
    if (const auto q = xml_.numbers(m, "refquat", 4)) {
      refquat = Quat((*q)[0], (*q)[1], (*q)[2], (*q)[3]);
      if (!(refquat.norm() > 1e-12)) xml_.failAttr(m, "refquat", "the quaternion has zero length");
      refquat.normalize();
    }
    if (!(scale.cwiseAbs().minCoeff() > 0)) xml_.failAttr(m, "scale", "mesh scale factors must not be zero");
    std::vector<Vec3> points;
    for (std::size_t k = 0; k < v.size(); k += 3)
      points.push_back(scale.cwiseProduct(refquat.conjugate() * (Vec3(v[k], v[k + 1], v[k + 2]) - refpos)));
    auto data = std::make_shared<MeshData>();
    if (const char* face = m->Attribute("face")) {
      const std::vector<double> f = xml_.parseNumbers(m, "face", face, 3, std::size_t(-1));
      if (f.size() % 3 != 0) xml_.failAttr(m, "face", "face= needs 3 vertex indices per triangle, got " + std::to_string(f.size()));
      for (const double x : f) {
        if (x != std::floor(x) || x < 0 || x >= double(points.size()))
          xml_.failAttr(m, "face", "face index " + fmt(x) + " is not a vertex index (0 to " + std::to_string(points.size() - 1) + ")");
        data->indices.push_back(unsigned(x));
      }
      for (const Vec3& q : points) data->vertices.push_back(q.cast<float>());
    } else {
      // The hull costs O(vertices × hull faces) (convex_hull.h): 2·10^4 points all on the hull
      // take about a second; a hostile file of 10^6 such points would take hours.
      constexpr std::size_t kMaxHullPoints = 20'000;
      if (points.size() > kMaxHullPoints)
        xml_.failAttr(m, "vertex", "a mesh given by vertex= alone is read as the convex hull of its vertices, which mechsim "
                                   "computes for at most " + std::to_string(kMaxHullPoints) + " of them (this one has " +
                                   std::to_string(points.size()) + "); give its triangles with face=");
      imp::HullMesh hull;
      try {
        hull = imp::convexHull(points);
      } catch (const std::invalid_argument& e) {
        xml_.failAttr(m, "vertex", std::string("the mesh has no face= and its vertices have no convex hull: ") + e.what());
      }
      for (const Vec3& q : hull.vertices) data->vertices.push_back(q.cast<float>());
      data->indices = std::move(hull.indices);
    }
    // A reflection (odd number of negative factors) turns the surface inside out: rewind it.
    if (scale.x() * scale.y() * scale.z() < 0)
      for (std::size_t t = 0; t + 2 < data->indices.size(); t += 3) std::swap(data->indices[t + 1], data->indices[t + 2]);
    // Normals smooth across gentle edges and sharp at creases, as for mesh files (core/io/mesh.cpp).
    creaseNormals(data->vertices, data->indices, data->normals);
    return data;
  }

  /// The value of attribute `name` of `e`: its own, else its default class's, else nullptr.
  const char* attr(const XMLElement* e, const char* name, const std::string& cls) const {
    if (const char* v = e->Attribute(name)) return v;
    auto c = classes_.find(cls);
    if (c == classes_.end()) return nullptr;
    auto el = c->second.attrs.find(e->Name());
    if (el == c->second.attrs.end()) return nullptr;
    auto a = el->second.find(name);
    return a == el->second.end() ? nullptr : a->second.c_str();
  }

  /// The class an element takes its defaults from: its own class=, else the enclosing childclass.
  std::string classOf(const XMLElement* e, const std::string& childclass) const {
    const char* c = e->Attribute("class");
    if (!c) return childclass;
    if (!classes_.count(c)) {
      std::vector<std::string> names;
      for (const auto& [n, _] : classes_) names.push_back(n);
      xml_.failAttr(e, "class", "unknown default class \"" + std::string(c) + "\"" + didYouMean(c, names));
    }
    return c;
  }

  double num(const XMLElement* e, const char* name, const std::string& cls, double dflt) const {
    const char* v = attr(e, name, cls);
    return v ? xml_.parseNumbers(e, name, v, 1, 1)[0] : dflt;
  }
  std::optional<std::vector<double>> nums(const XMLElement* e, const char* name, const std::string& cls, std::size_t nMin,
                                          std::size_t nMax) const {
    const char* v = attr(e, name, cls);
    if (!v) return std::nullopt;
    return xml_.parseNumbers(e, name, v, nMin, nMax);
  }
  Vec3 vec3(const XMLElement* e, const char* name, const std::string& cls, const Vec3& dflt) const {
    const auto v = nums(e, name, cls, 3, 3);
    return v ? Vec3((*v)[0], (*v)[1], (*v)[2]) : dflt;
  }

  /// Orientation from quat | axisangle | euler | xyaxes | zaxis (at most one), in the parent frame.
  Quat orientation(const XMLElement* e, const std::string& cls) const {
    const char* forms[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
    const char* given = nullptr;
    for (const char* f : forms)
      if (e->Attribute(f)) {
        if (given) xml_.failAttr(e, f, "give one orientation: both " + std::string(given) + " and " + f + " are set");
        given = f;
      }
    // An element's own orientation wins over its class's; the class may give one otherwise.
    if (!given)
      for (const char* f : forms)
        if (attr(e, f, cls)) {
          given = f;
          break;
        }
    if (!given) return Quat::Identity();
    const std::string g = given;
    const auto v = nums(e, given, cls, g == "quat" || g == "axisangle" ? 4 : g == "xyaxes" ? 6 : 3,
                        g == "quat" || g == "axisangle" ? 4 : g == "xyaxes" ? 6 : 3);
    const auto& x = *v;
    if (g == "quat") {
      const Quat q(x[0], x[1], x[2], x[3]);
      if (!(q.coeffs().stableNorm() > 1e-12)) xml_.failAttr(e, "quat", "the quaternion has zero length");
      return Quat(Eigen::Vector4d(q.coeffs().stableNormalized()));
    }
    if (g == "axisangle") {
      const Vec3 a(x[0], x[1], x[2]);
      if (!(a.stableNorm() > 1e-12)) xml_.failAttr(e, "axisangle", "the rotation axis is the zero vector");
      return Quat(Eigen::AngleAxisd(x[3] * angleScale_, a.stableNormalized()));
    }
    if (g == "euler") return eulerQuat(Vec3(x[0], x[1], x[2]));
    if (g == "xyaxes") {
      Vec3 a(x[0], x[1], x[2]), b(x[3], x[4], x[5]);
      if (!(a.stableNorm() > 1e-12)) xml_.failAttr(e, "xyaxes", "the x axis is the zero vector");
      a.stableNormalize();
      b.stableNormalize();
      b -= a * a.dot(b);
      if (!(b.stableNorm() > 1e-12)) xml_.failAttr(e, "xyaxes", "the y axis is parallel to the x axis");
      b.stableNormalize();
      Mat3 R;
      R.col(0) = a;
      R.col(1) = b;
      R.col(2) = a.cross(b);
      return Quat(R).normalized();
    }
    const Vec3 z(x[0], x[1], x[2]);
    if (!(z.stableNorm() > 1e-12)) xml_.failAttr(e, "zaxis", "the z axis is the zero vector");
    return Quat::FromTwoVectors(Vec3::UnitZ(), z.stableNormalized()).normalized();
  }

  /// The rotation of Euler angles (the file's angle unit) in <compiler eulerseq>'s order.
  Quat eulerQuat(const Vec3& angles) const {
    // Lower-case letters rotate about the moving (already rotated) axes, upper-case about the
    // fixed ones: q ← q · r (intrinsic) or q ← r · q (extrinsic), in eulerseq's order.
    Quat q = Quat::Identity();
    for (int i = 0; i < 3; ++i) {
      const char c = eulerseq_[std::size_t(i)];
      const int ax = std::tolower(c) - 'x';
      const Quat r(Eigen::AngleAxisd(angles[i] * angleScale_, Vec3::Unit(ax)));
      q = std::islower(c) ? q * r : r * q;
    }
    return q.normalized();
  }

  Pose localPose(const XMLElement* e, const std::string& cls) const {
    return Pose{vec3(e, "pos", cls, Vec3::Zero()), orientation(e, cls)};
  }

  // ---- bodies ----

  std::string bodyPath(int i) const { return "bodies[" + std::to_string(i) + "]"; }

  int addBody(BodySpec b, const XMLElement* e) {
    if (bodyIndex_.count(b.name)) {
      const int first = bodyIndex_[b.name];
      xml_.failAttr(e, "name", "duplicate body name \"" + b.name + "\"" +
                                   (first == 0 ? " (\"world\" is the world body)" : " (first at line " + std::to_string(spec_.locations[bodyPath(first)].line) + ")"));
    }
    const int i = int(spec_.bodies.size());
    spec_.locations[bodyPath(i)] = xml_.loc(e);
    bodyIndex_[b.name] = i;
    bodyPose_[b.name] = Pose{b.position, b.orientation};
    spec_.bodies.push_back(std::move(b));
    return i;
  }

  void worldbody(const XMLElement* wb) { contents(wb, 0, Pose{}, Place{}); }

  /// The child elements of a <worldbody>, <body>, <frame> or <replicate> that belong to body bi
  /// (world pose bodyPose), each placed by `place`. A body's joints are read by body().
  void contents(const XMLElement* parent, int bi, const Pose& bodyPose, const Place& place) {
    const bool world = bi == 0;
    const std::string bodyName = spec_.bodies[std::size_t(bi)].name;
    for (const XMLElement* c = parent->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string n = c->Name();
      if (place.copies > 1 && ++replicatedElements_ > kMaxReplicatedElements)
        xml_.fail(c, "the <replicate>s make more than " + std::to_string(kMaxReplicatedElements) + " elements");
      if (n == "geom") geom(c, bi, place);
      else if (n == "site") site(c, bi, place, bodyPose);
      else if (n == "body") body(c, bodyName, bodyPose, place);
      else if (n == "frame") contents(c, bi, bodyPose, framed(c, place));
      else if (n == "replicate") replicate(c, bi, bodyPose, place);
      else if (n == "attach") attach(c, bodyName, bodyPose, place);
      else if (n == "flexcomp") flexcomp(c, bodyName, bodyPose, place);
      else if (n == "composite") composite(c);
      else if (n == "joint" || n == "freejoint") {
        if (world) xml_.fail(c, "the world body cannot have joints: put the joint in a <body>");
        if (place.replicated) warn(c, "a joint inside a <replicate> within a <body> is not read (replicate whole bodies)");
      } else if (n == "inertial") {
        if (world) xml_.fail(c, "the world body cannot have an <inertial>");
        if (parent->Name() != std::string("body")) warn(c, "an <inertial> inside a <" + std::string(parent->Name()) + "> is not read: put it in the <body>");
        else inertial(c, bi);
      } else if (n == "camera" || n == "light" || n == "plugin") {
        continue;
      } else {
        warn(c, "<" + n + "> in " + (world ? std::string("<worldbody>") : "a <body>") + " is not read");
      }
    }
  }

  /// The place of a <frame>'s contents: its pos/orientation after the enclosing ones, its childclass.
  Place framed(const XMLElement* f, const Place& place) const {
    Place p = place;
    p.frame = imp::compose(place.frame, localPose(f, ""));
    if (const char* cc = f->Attribute("childclass")) p.childclass = knownClass(f, "childclass", cc);
    return p;
  }

  const std::string& knownClass(const XMLElement* e, const char* a, const std::string& name) const {
    if (!classes_.count(name)) {
      std::vector<std::string> names;
      for (const auto& [n, _] : classes_) names.push_back(n);
      xml_.failAttr(e, a, "unknown default class \"" + name + "\"" + didYouMean(name, names));
    }
    return classes_.find(name)->first;
  }

  /// <replicate count offset euler sep>: count copies of the contents (see the file comment).
  void replicate(const XMLElement* r, int bi, const Pose& bodyPose, const Place& place) {
    const double c = xml_.number(r, "count", "the number of copies (a positive integer)");
    if (!(c >= 1) || c != std::floor(c)) xml_.failAttr(r, "count", "count must be a positive integer, got " + fmt(c));
    if (c * double(place.copies) > double(kMaxReplicas))
      xml_.failAttr(r, "count", "the nested <replicate>s make more than " + std::to_string(kMaxReplicas) + " copies");
    const int count = int(c);
    const Vec3 offset = xml_.vec3(r, "offset", Vec3::Zero());
    const Vec3 euler = xml_.vec3(r, "euler", Vec3::Zero());
    const std::string sep = r->Attribute("sep") ? r->Attribute("sep") : "";
    Place p = place;
    p.copies = place.copies * count;
    p.replicated = true;
    if (const char* cc = r->Attribute("childclass")) p.childclass = knownClass(r, "childclass", cc);
    const std::size_t digits = std::to_string(count).size();
    Vec3 pos = Vec3::Zero();
    for (int i = 0; i < count; ++i) {
      // The rotation of copy i from i · euler (as MuJoCo computes it, for precision), the position
      // accumulated copy after copy.
      const Quat q = eulerQuat(double(i) * euler);
      std::string index = std::to_string(i);
      index.insert(0, digits - index.size(), '0');
      p.frame = imp::compose(place.frame, Pose{pos, q});
      p.suffix = sep + index + place.suffix;
      contents(r, bi, bodyPose, p);
      pos += q * offset;
    }
  }

  /// A <body>'s joints in order, with the frames between the body and each (joints in <frame>s)
  /// and the childclass in force there.
  struct BodyJoint {
    const XMLElement* e;
    Pose frame;
    std::string childclass;
  };
  void bodyJoints(const XMLElement* e, const Pose& frame, const std::string& childclass, std::vector<BodyJoint>& out) const {
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string n = c->Name();
      if (n == "joint" || n == "freejoint") {
        out.push_back(BodyJoint{c, frame, childclass});
      } else if (n == "frame") {
        const char* cc = c->Attribute("childclass");
        bodyJoints(c, imp::compose(frame, localPose(c, "")), cc ? knownClass(c, "childclass", cc) : childclass, out);
      }
    }
  }

  void body(const XMLElement* e, const std::string& parent, const Pose& parentPose, const Place& place) {
    const std::string childclass = e->Attribute("childclass") ? knownClass(e, "childclass", e->Attribute("childclass")) : place.childclass;
    BodySpec b;
    if (const char* n = e->Attribute("name")) {
      b.name = n + place.suffix;
      if (!place.suffix.empty()) replicas_[n].push_back(place.suffix);
    } else {
      b.name = "body" + std::to_string(++unnamed_);
    }
    const Pose pose = imp::compose(parentPose, imp::compose(place.frame, localPose(e, "")));  // bodies take no defaults
    b.position = pose.position;
    b.orientation = pose.orientation;

    // Joints of this body, in order.
    std::vector<BodyJoint> joints;
    bodyJoints(e, Pose{}, childclass, joints);
    bool free = false;
    for (const BodyJoint& bj : joints) {
      const XMLElement* j = bj.e;
      const std::string type = std::string(j->Name()) == "freejoint" ? "free" : jointType(j, classOf(j, bj.childclass));
      if (type == "free") {
        if (joints.size() > 1) xml_.fail(j, "a free joint must be the body's only joint");
        if (parent != "world") xml_.fail(j, "a free joint is allowed only in a top-level body (a child of <worldbody>)");
        free = true;
      }
    }
    if (joints.empty() && parent == "world") b.fixed = true;
    const int bi = addBody(b, e);
    const std::string path = bodyPath(bi);
    spec_.locations[path + ".name"] = xml_.attrLoc(e, "name");
    treeParent_[b.name] = parent;

    // Joint chain parent → (intermediates) → body.
    if (!free) {
      if (joints.empty()) {
        if (parent != "world") weld(parent, b.name, pose.position, e);
      } else {
        std::string prev = parent;
        for (std::size_t k = 0; k < joints.size(); ++k) {
          const XMLElement* je = joints[k].e;
          const std::string jname = jointName(je, b.name, k, place.suffix);
          std::string next = b.name;
          if (k + 1 < joints.size()) {
            BodySpec mid;
            mid.name = b.name + "/" + jname;
            mid.position = pose.position;
            mid.orientation = pose.orientation;
            mid.mass = imp::kNominalMass;
            addBody(mid, je);
            owner_[mid.name] = b.name;
            next = mid.name;
          }
          treeJoints_.insert(jname);
          joint(je, classOf(je, joints[k].childclass), prev, next, imp::compose(pose, joints[k].frame), jname);
          prev = next;
        }
      }
    }

    // Contents: inertial, geoms, sites, child bodies, frames, replicates.
    Place inside;
    inside.suffix = place.suffix;
    inside.childclass = childclass;
    inside.copies = place.copies;
    contents(e, bi, pose, inside);
  }

  std::string jointName(const XMLElement* j, const std::string& body, std::size_t k, const std::string& suffix) const {
    if (const char* n = j->Attribute("name")) return n + suffix;
    return body + ".joint" + std::to_string(k);
  }

  std::string jointType(const XMLElement* j, const std::string& cls) const {
    const char* t = attr(j, "type", cls);
    const std::string type = t ? t : "hinge";
    if (std::find(kJointTypes.begin(), kJointTypes.end(), type) == kJointTypes.end())
      xml_.failAttr(j, "type", "unknown joint type \"" + type + "\" (MJCF joint types: hinge, slide, ball, free)" +
                                   (type == "revolute" ? std::string("; a revolute joint is type=\"hinge\" in MJCF")
                                    : type == "prismatic" ? std::string("; a prismatic joint is type=\"slide\" in MJCF")
                                    : type == "spherical" ? std::string("; a spherical joint is type=\"ball\" in MJCF")
                                                          : didYouMean(type, kJointTypes)));
    return type;
  }

  void joint(const XMLElement* je, const std::string& cls, const std::string& b1, const std::string& b2, const Pose& pose,
             const std::string& name) {
    const std::string type = jointType(je, cls);
    JointSpec j;
    j.name = name;
    j.body1 = b1;
    j.body2 = b2;
    j.point = pose.apply(vec3(je, "pos", cls, Vec3::Zero()));
    const Vec3 a = vec3(je, "axis", cls, Vec3::UnitZ());
    if (!(a.stableNorm() > 1e-12)) xml_.failAttr(je, "axis", "the joint axis is the zero vector");
    j.axis = pose.rotate(a.stableNormalized());
    j.type = type == "hinge" ? JointType::Revolute : type == "slide" ? JointType::Prismatic : JointType::Spherical;
    // Limits: range when limited (limited="auto" with autolimits: when a range is given).
    const char* lim = attr(je, "limited", cls);
    const auto range = nums(je, "range", cls, 2, 2);
    const bool limited = lim ? std::string(lim) == "true" : autolimits_ && range.has_value();
    if (limited && range && type != "ball") {
      const double s = type == "hinge" ? angleScale_ : 1.0;
      double lo = (*range)[0], hi = (*range)[1];
      if (lo > hi) xml_.failAttr(je, "range", "the range's lower end " + fmt(lo) + " is above its upper end " + fmt(hi));
      if (type == "hinge") unitCheck(je, lo, hi);
      const double ref = num(je, "ref", cls, 0.0) * s;  // coordinates are measured from qpos0 = ref
      j.limits = std::make_pair(lo * s - ref, hi * s - ref);
    }
    addJoint(std::move(j), je);
  }

  /// The most common MJCF slip: angles in the wrong unit for <compiler angle>.
  void unitCheck(const XMLElement* je, double lo, double hi) {
    const double m = std::max(std::fabs(lo), std::fabs(hi));
    if (angleScale_ == 1.0 && m > kRadianSuspicion)
      xml_.failAttr(je, "range", "hinge range [" + fmt(lo) + ", " + fmt(hi) +
                                     "] is more than two turns in radians (<compiler angle=\"radian\">): were degrees meant? Write radians, or set angle=\"degree\"");
    const bool integral = lo == std::floor(lo) && hi == std::floor(hi);
    if (angleScale_ != 1.0 && m > 0 && m <= 3.2 && !integral)
      warn(je, "hinge range [" + fmt(lo) + ", " + fmt(hi) +
                   "] is read in degrees (MJCF's default unit); if these are radians add <compiler angle=\"radian\"/>");
  }

  /// A fixed joint "BODY.fixed" from `parent` to `body` at `point` (a body without joints inside
  /// a moving one; an attached root that was fixed to its own world).
  void weld(const std::string& parent, const std::string& body, const Vec3& point, const XMLElement* e) {
    JointSpec j;
    j.name = body + ".fixed";
    j.type = JointType::Fixed;
    j.body1 = parent;
    j.body2 = body;
    j.point = point;
    treeJoints_.insert(j.name);
    addJoint(std::move(j), e);
  }

  void addJoint(JointSpec j, const XMLElement* e) {
    // Hashed (name_index.h): <replicate> can make 10^5 joints, and a pass over the earlier ones
    // for each was quadratic.
    if (jointNames_.find(spec_.joints, j.name)) xml_.failAttr(e, "name", "duplicate joint name \"" + j.name + "\"");
    const std::string path = "joints[" + std::to_string(spec_.joints.size()) + "]";
    spec_.locations[path] = xml_.loc(e);
    for (const char* k : {"pos", "axis", "range"}) {
      const SourceLoc l = xml_.attrLoc(e, k);
      const std::string key = std::string(k) == "pos" ? "point" : std::string(k) == "range" ? "limits" : "axis";
      spec_.locations[path + "." + key] = l;
    }
    spec_.joints.push_back(std::move(j));
  }

  void inertial(const XMLElement* e, int bi) {
    BodySpec& b = spec_.bodies[std::size_t(bi)];
    const double mass = xml_.number(e, "mass", "the body's mass in kg");
    if (mass < 0) xml_.failAttr(e, "mass", "the mass must not be negative, got " + fmt(mass));
    const Pose f = localPose(e, "main");
    Mat3 I = Mat3::Zero();
    if (const auto d = xml_.numbers(e, "diaginertia", 3)) {
      I.diagonal() = Vec3((*d)[0], (*d)[1], (*d)[2]);
    } else if (const auto full = xml_.numbers(e, "fullinertia", 6)) {
      const auto& x = *full;  // ixx iyy izz ixy ixz iyz
      I << x[0], x[3], x[4], x[3], x[1], x[5], x[4], x[5], x[2];
    } else {
      xml_.fail(e, "<inertial> needs diaginertia=\"..\" or fullinertia=\"..\"");
    }
    const Mat3 R = f.orientation.toRotationMatrix();
    imp::setInertial(b, mass, f.position, R * I * R.transpose(), [&](const std::string& w) { warn(e, w); });
    const std::string path = bodyPath(bi);
    spec_.locations[path + ".mass"] = xml_.attrLoc(e, "mass");
    spec_.locations[path + ".inertia"] = xml_.loc(e);
    spec_.locations[path + ".com"] = xml_.attrLoc(e, "pos");
  }

  void geom(const XMLElement* e, int bi, const Place& place) {
    const std::string cls = classOf(e, place.childclass);
    const char* meshName = attr(e, "mesh", cls);
    const char* t = attr(e, "type", cls);
    const std::string type = t ? t : meshName ? "mesh" : "sphere";
    if (std::find(kGeomTypes.begin(), kGeomTypes.end(), type) == kGeomTypes.end())
      xml_.failAttr(e, "type", "unknown geom type \"" + type + "\" (MJCF geom types: " + imp::joinNames(kGeomTypes) + ")" + didYouMean(type, kGeomTypes));
    const std::string name = e->Attribute("name") ? e->Attribute("name") : "";
    Pose p = localPose(e, cls);
    ShapeSpec s;
    const auto size = nums(e, "size", cls, 0, 3);
    auto sz = [&](std::size_t i, const char* what) {
      if (!size || size->size() <= i) xml_.fail(e, "a " + type + " geom needs size=\"...\" with its " + what);
      const double v = (*size)[i];
      if (!(v > 0)) xml_.failAttr(e, "size", "geom size values must be positive, got " + fmt(v));
      return v;
    };
    // fromto (capsule, cylinder, box, ellipsoid): the segment between two points sets position,
    // the +z axis and the length; across it the geom's sizes are both size[0] (MuJoCo's rule).
    const bool elongated = type == "capsule" || type == "cylinder" || type == "box" || type == "ellipsoid";
    const auto fromto = elongated ? nums(e, "fromto", cls, 6, 6) : std::nullopt;
    double halfLength = 0;
    if (fromto) {
      const Vec3 a((*fromto)[0], (*fromto)[1], (*fromto)[2]), c((*fromto)[3], (*fromto)[4], (*fromto)[5]);
      if (!((c - a).stableNorm() > 1e-12)) xml_.failAttr(e, "fromto", "fromto's two points coincide");
      p.position = 0.5 * (a + c);
      p.orientation = Quat::FromTwoVectors(Vec3::UnitZ(), (c - a).stableNormalized());
      halfLength = 0.5 * (c - a).stableNorm();
    }
    if (type == "sphere") {
      s.type = ShapeType::Sphere;
      s.radius = sz(0, "radius");
    } else if (type == "capsule" || type == "cylinder") {
      s.type = type == "capsule" ? ShapeType::Capsule : ShapeType::Cylinder;
      s.radius = sz(0, "radius");
      s.length = 2 * (fromto ? halfLength : sz(1, "half-length"));
    } else if (type == "box") {
      s.type = ShapeType::Box;
      s.size = fromto ? Vec3(2 * sz(0, "half-size across"), 2 * sz(0, "half-size across"), 2 * halfLength)
                      : Vec3(2 * sz(0, "half-size x"), 2 * sz(1, "half-size y"), 2 * sz(2, "half-size z"));
    } else if (type == "ellipsoid") {
      s.type = ShapeType::Sphere;
      s.radius = fromto ? std::max(sz(0, "radius across"), halfLength) : std::max({sz(0, "radii"), sz(1, "radii"), sz(2, "radii")});
      warn(e, "ellipsoid geom approximated by a sphere of its largest radius " + fmt(s.radius) + " m");
    } else if (type == "plane") {
      const double hx = size && size->size() > 0 ? (*size)[0] : 0, hy = size && size->size() > 1 ? (*size)[1] : 0;
      if (!(hx > 0 && hy > 0)) {
        warn(e, "an infinite plane geom is left out (mechsim has no unbounded shapes)");
        return;
      }
      // A finite plane: a 1 mm slab whose top face is the plane.
      s.type = ShapeType::Box;
      s.size = Vec3(2 * hx, 2 * hy, 1e-3);
      p.position = p.apply(Vec3(0, 0, -0.5e-3));
    } else if (type == "mesh") {
      if (!meshName) xml_.fail(e, "a mesh geom needs mesh=\"NAME\" naming an <asset><mesh>");
      auto it = meshAssets_.find(meshName);
      if (it == meshAssets_.end()) {
        std::vector<std::string> names;
        for (const auto& [n, _] : meshAssets_) names.push_back(n);
        xml_.failAttr(e, "mesh", "unknown mesh asset \"" + std::string(meshName) + "\"" + didYouMean(meshName, names));
      }
      if (it->second.data) {
        s.type = ShapeType::Mesh;  // vertex= in the XML: no file (Save as… cannot name one)
        s.mesh = it->second.data;
      } else {
        const fs::path dir = fs::path(xml_.baseDir()) / meshdir_;
        s = meshes_.load(xml_.loc(it->second.where), it->second.file, it->second.scale, dir.string());
      }
    } else {
      warn(e, type + " geom is not supported and left out");
      return;
    }
    p = imp::compose(place.frame, p);
    s.position = p.position;
    s.orientation = p.orientation;
    // Colour, as MuJoCo takes it: the geom's rgba when it differs from the default 0.5 0.5 0.5 1,
    // else its material's (own or from its class), else the rgba.
    const auto rgba = nums(e, "rgba", cls, 4, 4);
    const bool defaultRgba = !rgba || *rgba == std::vector<double>{0.5, 0.5, 0.5, 1};
    const char* material = attr(e, "material", cls);
    if (s.color.empty() && material && defaultRgba) {
      const auto it = materialRgba_.find(material);
      if (it != materialRgba_.end()) s.color = imp::colorHex(it->second[0], it->second[1], it->second[2]);
      else warn(e, "unknown material \"" + std::string(material) + "\" (no <asset><material> of that name); drawn in the default colour");
    }
    if (rgba && s.color.empty()) s.color = imp::colorHex((*rgba)[0], (*rgba)[1], (*rgba)[2]);
    // friction="slide [torsion [roll]]": the sliding coefficient is the shape's μ (the torsional and
    // rolling lengths are the contact section's, one for the file).
    if (const auto mu = nums(e, "friction", cls, 1, 3); mu && (*mu)[0] >= 0) s.friction = (*mu)[0];
    // contype = conaffinity = 0: a visual-only geom (MuJoCo's usual "visual" class).
    const bool visualOnly = num(e, "contype", cls, 1) == 0 && num(e, "conaffinity", cls, 1) == 0;
    BodySpec& b = spec_.bodies[std::size_t(bi)];
    const std::string path = bodyPath(bi) + (visualOnly ? ".visuals[" + std::to_string(b.visuals.size()) : ".shapes[" + std::to_string(b.shapes.size())) + "]";
    spec_.locations[path] = xml_.loc(e);
    if (!visualOnly && !b.fixed) {
      if (const char* d = attr(e, "density", cls); d && !b.density) b.density = xml_.parseNumbers(e, "density", d, 1, 1)[0];
    }
    (void)name;
    (visualOnly ? b.visuals : b.shapes).push_back(std::move(s));
    if (!b.density || !(*b.density > 0)) b.density.reset();
  }

  /// A named site: kept for site-based equalities (every body, the world's too), and a handle
  /// when its body moves.
  void site(const XMLElement* e, int bi, const Place& place, const Pose& bodyPose) {
    const char* n = e->Attribute("name");
    if (!n) return;
    const std::string cls = classOf(e, place.childclass);
    const std::string name = n + place.suffix;
    if (!place.suffix.empty()) replicas_[n].push_back(place.suffix);
    if (sites_.count(name)) xml_.failAttr(e, "name", "duplicate site name \"" + name + "\"");
    const Pose world = imp::compose(bodyPose, imp::compose(place.frame, localPose(e, cls)));
    const BodySpec& b = spec_.bodies[std::size_t(bi)];
    sites_[name] = Site{b.name, world};
    if (b.fixed) return;  // handles are named points on moving bodies
    HandleSpec h;
    h.name = name;
    h.body = b.name;
    h.point = world.position;
    spec_.locations["handles[" + std::to_string(spec_.handles.size()) + "]"] = xml_.loc(e);
    spec_.handles.push_back(std::move(h));
  }

  // ---- <attach>: bodies of another model ----

  /// The model of <asset><model> named `name` (its name=, else the model's own name), read once.
  MjcfImporter& attachedModel(const XMLElement* e, const std::string& name) {
    std::vector<std::string> names;
    for (ModelAsset& a : modelAssets_) {
      if (a.name.empty()) {
        load(a);
        a.name = a.model->spec_.name.empty() ? "MuJoCo Model" : a.model->spec_.name;  // MuJoCo's default model name
      }
      if (a.name == name) return load(a);
      names.push_back(a.name);
    }
    xml_.failAttr(e, "model", "no <asset><model> is named \"" + name + "\"" + (names.empty() ? std::string(" (the file has none)") : didYouMean(name, names)));
  }

  MjcfImporter& load(ModelAsset& a) {
    if (a.model) return *a.model;
    if (attachDepth_ >= kMaxAttachDepth)
      xml_.failAttr(a.where, "file", "models attach models more than " + std::to_string(kMaxAttachDepth) + " deep (does a model attach itself?)");
    // Relative to this file's folder; named in diagnostics as this file's name would lead to it.
    fs::path f = a.file, shown = a.file;
    if (f.is_relative()) {
      f = fs::path(xml_.baseDir()) / f;
      shown = (fs::path(xml_.file()).parent_path() / a.file).lexically_normal();
    }
    FileText t;
    try {
      t = readMechanismText(f.lexically_normal().string(), imp::kMaxXmlBytes);
    } catch (const LoadError& err) {
      xml_.failAttr(a.where, "file", "cannot read the model: " + err.diagnostic().message);
    }
    a.model = std::make_shared<MjcfImporter>(t.text, shown.string(), t.dir, attachDepth_ + 1);
    a.model->read();
    for (const std::string& w : a.model->spec_.warnings) spec_.warnings.push_back(w);
    if (!a.model->spec_.deformables.empty())
      warn(a.where, "the flexcomps of an attached model are not attached (only its bodies, joints and sites)");
    return *a.model;
  }

  /// <attach model body prefix>: body `body` of the model and its subtree (without body=: every
  /// top-level body of the model) become children of the enclosing body at the enclosing frames,
  /// their names prefixed. The subtree keeps its own poses relative to its root's parent there;
  /// its joints, loops among its bodies, sites and shapes come with it.
  void attach(const XMLElement* e, const std::string& parent, const Pose& parentPose, const Place& place) {
    const char* modelName = e->Attribute("model");
    if (!modelName) xml_.fail(e, "<attach> without model= (a model attaching part of itself) is not supported: name an <asset><model>");
    if (e->Attribute("frame")) xml_.failAttr(e, "frame", "<attach frame=\"...\"> is not supported: attach a body (body=\"...\") or the whole model");
    const std::string prefix = xml_.reqAttr(e, "prefix", "the prefix of the attached names");
    MjcfImporter& m = attachedModel(e, modelName);
    const std::vector<BodySpec>& bodies = m.spec_.bodies;

    // The subtree roots, and which of the model's bodies lie below them.
    std::set<std::string> roots;
    if (const char* b = e->Attribute("body")) {
      if (!m.bodyIndex_.count(b) || m.owner_.count(b) || std::string(b) == "world") {
        std::vector<std::string> names;
        for (const auto& [n, _] : m.treeParent_) names.push_back(n);
        xml_.failAttr(e, "body", "model \"" + std::string(modelName) + "\" has no body \"" + b + "\"" + didYouMean(b, names));
      }
      roots.insert(b);
    } else {
      for (const auto& [n, p] : m.treeParent_)
        if (p == "world") roots.insert(n);
    }
    auto rootOf = [&](std::string x) -> std::string {
      if (auto o = m.owner_.find(x); o != m.owner_.end()) x = o->second;
      while (x != "world") {
        if (roots.count(x)) return x;
        auto it = m.treeParent_.find(x);
        if (it == m.treeParent_.end()) return "";
        x = it->second;
      }
      return "";
    };
    const std::string modelParent = roots.size() == 1 ? m.treeParent_.at(*roots.begin()) : "world";
    // One rigid map for the subtree: its root's parent in the model goes to the attachment frame.
    const Pose attachWorld = imp::compose(parentPose, place.frame);
    const Pose& mp = m.bodyPose_.at(modelParent);
    const Quat qInv = mp.orientation.conjugate();
    const Pose T = imp::compose(attachWorld, Pose{-(qInv * mp.position), qInv});
    auto renamed = [&](const std::string& n) { return prefix + n + place.suffix; };
    auto mapBody = [&](const std::string& n, bool tree) -> std::optional<std::string> {
      if (!rootOf(n).empty()) return renamed(n);
      if (n == modelParent && (tree || parent == "world")) return parent;
      return std::nullopt;
    };
    std::error_code ec;
    const fs::path here = fs::absolute(fs::path(xml_.baseDir().empty() ? "." : xml_.baseDir()), ec).lexically_normal();

    // Bodies, in the model's order.
    for (std::size_t i = 1; i < bodies.size(); ++i) {
      const std::string root = rootOf(bodies[i].name);
      if (root.empty()) continue;
      BodySpec b = bodies[i];
      b.name = renamed(b.name);
      b.position = T.apply(b.position);
      b.orientation = (T.orientation * b.orientation).normalized();
      for (std::vector<ShapeSpec>* shapes : {&b.shapes, &b.visuals})
        for (ShapeSpec& s : *shapes)
          if (!s.resolvedFile.empty()) {  // mesh names are relative to this file's folder
            const fs::path rel = fs::path(s.resolvedFile).lexically_relative(here);
            if (!rel.empty()) s.file = rel.generic_string();
          }
      const bool isRoot = bodies[i].name == root;
      bool freeRoot = false;
      if (isRoot && !b.fixed) {
        freeRoot = true;
        for (const JointSpec& j : m.spec_.joints)
          if (m.treeJoints_.count(j.name) && j.body2 == root) freeRoot = false;
        if (freeRoot && parent != "world")
          xml_.fail(e, "attached body \"" + root + "\" has a free joint, which is allowed only in a top-level body: attach it in <worldbody>");
      }
      const bool welded = isRoot && b.fixed && parent != "world";
      if (welded) b.fixed = false;
      addBody(b, e);
      if (isRoot) treeParent_[b.name] = parent;
      else if (auto o = m.owner_.find(bodies[i].name); o != m.owner_.end()) owner_[b.name] = renamed(o->second);
      else treeParent_[b.name] = renamed(m.treeParent_.at(bodies[i].name));
      if (welded) weld(parent, b.name, b.position, e);  // welded to the world in the model, to the enclosing body here
    }

    // Joints of the subtree (tree joints, and loops between its bodies).
    for (const JointSpec& cj : m.spec_.joints) {
      const bool tree = m.treeJoints_.count(cj.name) > 0;
      const auto b1 = mapBody(cj.body1, tree), b2 = mapBody(cj.body2, tree);
      if (rootOf(cj.body1).empty() && rootOf(cj.body2).empty()) continue;  // outside the subtree
      if (!b1 || !b2) {
        warn(e, "the equality \"" + cj.name + "\" of model \"" + std::string(modelName) + "\" joins the attached bodies to a body that is not attached: left out");
        continue;
      }
      JointSpec j = cj;
      j.name = renamed(cj.name);
      j.body1 = *b1;
      j.body2 = *b2;
      j.point = T.apply(cj.point);
      j.point1 = T.apply(cj.point1);
      j.point2 = T.apply(cj.point2);
      for (Vec3* v : {&j.axis, &j.axis1, &j.axis2, &j.normal}) *v = T.rotate(*v);
      if (tree) treeJoints_.insert(j.name);
      addJoint(std::move(j), e);
    }

    // Sites (handles on the moving ones).
    for (const auto& [n, site] : m.sites_) {
      if (rootOf(site.body).empty()) continue;
      const std::string name = renamed(n);
      if (sites_.count(name)) xml_.failAttr(e, "prefix", "duplicate site name \"" + name + "\" (the prefix does not keep the names apart)");
      sites_[name] = Site{renamed(site.body), imp::compose(T, site.world)};
    }
    for (const HandleSpec& ch : m.spec_.handles) {
      if (rootOf(ch.body).empty()) continue;
      HandleSpec h{renamed(ch.name), renamed(ch.body), T.apply(ch.point)};
      spec_.locations["handles[" + std::to_string(spec_.handles.size()) + "]"] = xml_.loc(e);
      spec_.handles.push_back(std::move(h));
    }
  }

  // ---- <flexcomp>, <composite>: generated objects ----

  /// <flexcomp dim="3"> of type grid or box → a deformable part (tetrahedra of the native
  /// "deformables" section, docs/deform.md); gmsh → its tetrahedra. Lower dimensions and the other
  /// types are left out with a warning that names the bodies MuJoCo would have made.
  void flexcomp(const XMLElement* e, const std::string& parent, const Pose& parentPose, const Place& place) {
    const std::vector<std::string> types{"grid", "box", "cylinder", "ellipsoid", "disc", "circle", "mesh", "gmsh", "direct"};
    const std::string type = e->Attribute("type") ? e->Attribute("type") : "grid";
    if (std::find(types.begin(), types.end(), type) == types.end())
      xml_.failAttr(e, "type", "unknown flexcomp type \"" + type + "\" (MJCF flexcomp types: " + imp::joinNames(types) + ")" + didYouMean(type, types));
    const std::string name = (e->Attribute("name") ? std::string(e->Attribute("name")) : "flexcomp" + std::to_string(spec_.deformables.size())) + place.suffix;
    const double dimValue = xml_.number(e, "dim", 2.0);
    if (dimValue != 1 && dimValue != 2 && dimValue != 3) xml_.failAttr(e, "dim", "dim must be 1, 2 or 3, got " + fmt(dimValue));
    // circle and disc imply their dimension, a gmsh file has its own (its tetrahedra: 3).
    const int dim = type == "circle" ? 1 : type == "disc" ? 2 : type == "gmsh" ? 3 : int(dimValue);
    int count[3] = {10, 10, 10};
    if (const auto c = xml_.numbers(e, "count", 3))
      for (int k = 0; k < 3; ++k) {
        if (!((*c)[std::size_t(k)] >= 1) || (*c)[std::size_t(k)] != std::floor((*c)[std::size_t(k)]) || (*c)[std::size_t(k)] > 1e6)
          xml_.failAttr(e, "count", "counts must be positive integers, got " + fmt((*c)[std::size_t(k)]));
        count[k] = int((*c)[std::size_t(k)]);
      }
    const Vec3 spacing = xml_.vec3(e, "spacing", Vec3::Constant(0.02));
    const std::string what = "<flexcomp name=\"" + name + "\" type=\"" + type + "\"" +
                             (type == "gmsh" ? std::string("") : " dim=\"" + std::to_string(dim) + "\"") + ">";
    generated_.emplace_back(name + "_", e);

    // Left out: what MuJoCo would make of it (a body NAME_i per unpinned point, with slide joints).
    auto skip = [&](const std::string& why) {
      std::string points;
      if (type == "grid") {
        long np = 1;
        for (int k = 0; k < dim; ++k) np *= count[k];
        points = std::to_string(np) + " points: bodies " + name + "_0 … " + name + "_" + std::to_string(np - 1);
      } else if (type == "direct" && e->Attribute("point")) {
        const std::size_t np = xml_.parseNumbers(e, "point", e->Attribute("point"), 0, std::size_t(-1)).size() / 3;
        points = std::to_string(np) + " points: bodies " + name + "_0 … " + name + "_" + std::to_string(np == 0 ? 0 : np - 1);
      } else {
        points = "one body " + name + "_<i> per point";
      }
      warn(e, what + " is left out (" + why + "); MuJoCo makes a " + (type == "gmsh" ? std::string("flex of the file's dimension") : std::to_string(dim) + "-D flex") +
                  " of it, " + points +
                  " with their slide joints (pinned points excepted)");
    };
    if (dim != 3) {
      skip("mechsim's deformable parts are solids of tetrahedra, dim=\"3\"");
      return;
    }
    if (type != "grid" && type != "box" && type != "gmsh") {
      skip("of the 3-D flexcomps mechsim reads types grid, box and gmsh");
      return;
    }

    // The points and tetrahedra, in the flexcomp's frame, then in the world.
    DeformableSpec d;
    d.name = name;
    for (const DeformableSpec& o : spec_.deformables)
      if (o.name == d.name) xml_.failAttr(e, "name", "duplicate flexcomp name \"" + d.name + "\"");
    const Pose W = imp::compose(parentPose, imp::compose(place.frame, localPose(e, "")));
    deform::TetMesh mesh;
    std::vector<int> gridIndex;  // MuJoCo's point id → vertex (grid)
    Vec3 lower = Vec3::Zero();   // the mesh's corner / origin in the flexcomp's frame
    if (type == "grid" || type == "box") {
      if (count[0] < 2 || count[1] < 2 || count[2] < 2) {
        skip("a 3-D grid needs at least 2 points along each axis");
        return;
      }
      const int nx = count[0] - 1, ny = count[1] - 1, nz = count[2] - 1;
      if (long(nx) * ny * nz > 2'000'000) xml_.failAttr(e, "count", "too many cells (at most 2e6)");
      if (!(spacing.minCoeff() > 0)) xml_.failAttr(e, "spacing", "spacings must be positive");
      const Vec3 size = spacing.cwiseProduct(Vec3(nx, ny, nz));
      lower = -0.5 * size;  // MuJoCo centres the grid: point i at spacing · (i − (count − 1)/2)
      try {
        mesh = deform::makeBoxMesh(size, nx, ny, nz, lower);
      } catch (const std::invalid_argument& err) {  // sizes whose tetrahedra have no representable volume
        xml_.failAttr(e, "spacing", std::string("invalid grid (are the spacings in range?): ") + err.what());
      }
      d.meshType = "box";
      d.boxSize = size;
      d.cells = {nx, ny, nz};
      // MuJoCo numbers a grid's points ix·(ny+1)(nz+1) + iy·(nz+1) + iz; the box mesh ix + (nx+1)(iy + (ny+1) iz).
      for (int ix = 0; ix <= nx; ++ix)
        for (int iy = 0; iy <= ny; ++iy)
          for (int iz = 0; iz <= nz; ++iz) gridIndex.push_back(ix + (nx + 1) * (iy + (ny + 1) * iz));
      if (type == "box")
        warn(e, what + " is approximated by a solid box of tetrahedra of the same extent: MuJoCo's box is a shell of points, each on a radial slide joint from its centre");
    } else {
      const char* file = e->Attribute("file");
      if (!file) xml_.fail(e, "a gmsh flexcomp needs file=\"...\"");
      fs::path f = fs::path(meshdir_) / file;
      std::error_code ec;
      if (!fs::exists(fs::path(xml_.baseDir()) / f, ec)) f = file;
      const fs::path resolved = fs::path(file).is_absolute() ? fs::path(file) : (fs::path(xml_.baseDir()) / f).lexically_normal();
      TetMeshFile tm;
      try {
        tm = readGmsh(resolved.string());
      } catch (const std::exception& err) {
        // A surface or line mesh is a flex of lower dimension.
        const std::string msg = err.what();
        skip(msg.find("no tetrahedra") != std::string::npos
                 ? "its file has no tetrahedra, and mechsim's deformable parts are solids of tetrahedra"
                 : "its tetrahedra cannot be read: " + msg);
        return;
      }
      const auto sc = xml_.numbers(e, "scale", 3);
      double scale = 1;
      if (sc) {
        if (!((*sc)[0] > 0 && (*sc)[1] > 0 && (*sc)[2] > 0)) xml_.failAttr(e, "scale", "scale factors must be positive");
        scale = std::cbrt((*sc)[0] * (*sc)[1] * (*sc)[2]);
        if (std::max({(*sc)[0], (*sc)[1], (*sc)[2]}) - std::min({(*sc)[0], (*sc)[1], (*sc)[2]}) > 1e-12 * scale)
          warn(e, "a deformable part is scaled uniformly: scale " + fmt((*sc)[0]) + " " + fmt((*sc)[1]) + " " + fmt((*sc)[2]) +
                      " is replaced by its geometric mean " + fmt(scale));
      }
      for (Vec3& v : tm.vertices) v *= scale;
      mesh.vertices = std::move(tm.vertices);
      mesh.tets = std::move(tm.tets);
      d.meshType = "gmsh";
      d.file = f.generic_string();
      d.resolvedFile = resolved.string();
      d.fileScale = scale;
    }
    for (Vec3& v : mesh.vertices) v = W.apply(v);
    try {
      deform::validateAndOrient(mesh);
    } catch (const std::invalid_argument& err) {
      skip(std::string("its tetrahedra are invalid: ") + err.what());
      return;
    }
    // The native section places a part by a translation: a turned flexcomp is kept turned here, but
    // Save as… writes it unturned.
    d.position = W.apply(lower);
    if (W.orientation.angularDistance(Quat::Identity()) > 1e-12)
      warn(e, what + " is turned in the world: the part is placed turned, but the native format places parts by a translation, so Save as… writes it unturned");

    // Material: <elasticity young poisson> (MuJoCo's default Poisson ratio 0); the density from
    // the total mass.
    bool youngGiven = false;
    d.poisson = 0;
    if (const XMLElement* el = e->FirstChildElement("elasticity")) {
      if (const double young = xml_.number(el, "young", 0.0); young > 0) {
        d.youngs = young;
        youngGiven = true;
      }
      d.poisson = xml_.number(el, "poisson", 0.0);
      if (!(d.poisson > -1 && d.poisson < 0.5)) xml_.failAttr(el, "poisson", "Poisson ratio must lie in (-1, 0.5), got " + fmt(d.poisson));
    }
    if (!youngGiven)
      warn(e, what + " gives no Young's modulus (<elasticity young=\"...\">): the part takes mechsim's default " + fmt(d.youngs) + " Pa");
    double volume = 0;
    for (int t = 0; t < int(mesh.tets.size()); ++t) volume += deform::tetVolume(mesh, t);
    const double mass = xml_.number(e, "mass", 1.0);
    if (!(mass > 0)) xml_.failAttr(e, "mass", "the mass must be positive, got " + fmt(mass));
    d.density = mass / volume;
    if (const char* dof = e->Attribute("dof"); dof && std::string(dof) != "full")
      warn(e, what + " has dof=\"" + std::string(dof) + "\": that reduced parametrisation is not represented, every vertex of the part moves");

    // Pinned points: held by the enclosing body (pinned in place when it is the world).
    std::set<int> pinned;
    const int nv = int(mesh.vertices.size());
    auto vertexOf = [&](const XMLElement* pe, const char* a, double id) {
      const int n = gridIndex.empty() ? nv : int(gridIndex.size());
      if (id != std::floor(id) || id < 0 || id >= n) xml_.failAttr(pe, a, "point id " + fmt(id) + " is not in 0 … " + std::to_string(n - 1));
      return gridIndex.empty() ? int(id) : gridIndex[std::size_t(id)];
    };
    auto gridVertex = [&](const XMLElement* pe, const char* a, double ix, double iy, double iz) {
      if (type == "gmsh") xml_.failAttr(pe, a, "pins by grid coordinates need a grid or box flexcomp");
      for (double x : {ix, iy, iz})
        if (x != std::floor(x) || x < 0) xml_.failAttr(pe, a, "grid coordinates must be non-negative integers, got " + fmt(x));
      if (ix >= count[0] || iy >= count[1] || iz >= count[2]) xml_.failAttr(pe, a, "grid coordinates out of the grid");
      return int(ix) + count[0] * (int(iy) + count[1] * int(iz));
    };
    for (const XMLElement* pe : children(e, "pin")) {
      if (type == "box" && (pe->Attribute("id") || pe->Attribute("range"))) {
        warn(pe, "pins by point id of a box flexcomp (MuJoCo numbers its shell points) are not read: pin by grid= or gridrange=");
        continue;
      }
      if (const char* v = pe->Attribute("id"))
        for (double id : xml_.parseNumbers(pe, "id", v, 1, std::size_t(-1))) pinned.insert(vertexOf(pe, "id", id));
      if (const char* v = pe->Attribute("range")) {
        const auto r = xml_.parseNumbers(pe, "range", v, 2, std::size_t(-1));
        if (r.size() % 2) xml_.failAttr(pe, "range", "range needs pairs of point ids");
        for (std::size_t k = 0; k < r.size(); k += 2)
          for (double id = r[k]; id <= r[k + 1]; ++id) pinned.insert(vertexOf(pe, "range", id));
      }
      if (const char* v = pe->Attribute("grid")) {
        const auto g = xml_.parseNumbers(pe, "grid", v, 3, std::size_t(-1));
        if (g.size() % 3) xml_.failAttr(pe, "grid", "grid needs triples of grid coordinates");
        for (std::size_t k = 0; k < g.size(); k += 3) pinned.insert(gridVertex(pe, "grid", g[k], g[k + 1], g[k + 2]));
      }
      if (const char* v = pe->Attribute("gridrange")) {
        const auto g = xml_.parseNumbers(pe, "gridrange", v, 6, std::size_t(-1));
        if (g.size() % 6) xml_.failAttr(pe, "gridrange", "gridrange needs 6 grid coordinates per range");
        for (std::size_t k = 0; k < g.size(); k += 6)
          for (double ix = g[k]; ix <= g[k + 3]; ++ix)
            for (double iy = g[k + 1]; iy <= g[k + 4]; ++iy)
              for (double iz = g[k + 2]; iz <= g[k + 5]; ++iz) pinned.insert(gridVertex(pe, "gridrange", ix, iy, iz));
      }
    }
    if (const char* r = e->Attribute("rigid"); r && std::string(r) == "true")
      for (int v = 0; v < nv; ++v) pinned.insert(v);
    if (!pinned.empty()) {
      const std::vector<int> list(pinned.begin(), pinned.end());
      if (parent == "world") d.pinned = list;
      else d.attachments.push_back(DeformableAttachmentSpec{parent, list, std::nullopt});
    } else if (parent != "world") {
      warn(e, what + " pins no point to body \"" + parent + "\": MuJoCo's flexcomp points are that body's children, here the part moves on its own (pin points with <pin> to attach them)");
    }
    d.vertices = std::move(mesh.vertices);
    d.tets = std::move(mesh.tets);
    spec_.locations["deformables[" + std::to_string(spec_.deformables.size()) + "]"] = xml_.loc(e);
    spec_.deformables.push_back(std::move(d));
  }

  /// <composite>: MuJoCo 3 makes only type="cable" (a chain of bodies on ball joints); left out.
  void composite(const XMLElement* e) {
    const std::string type = e->Attribute("type") ? e->Attribute("type") : "";
    const std::string prefix = e->Attribute("prefix") ? e->Attribute("prefix") : "";
    generated_.emplace_back(prefix + "B", e);
    if (type == "cable") {
      const auto c = xml_.numbers(e, "count", 3);
      const int n = c ? int((*c)[0]) : 0;
      warn(e, "<composite type=\"cable\"> is not read: left out is its chain of " + (n > 1 ? std::to_string(n - 1) + " " : std::string("")) +
                  "bodies " + prefix + "B_first … " + prefix + "B_last, each on a ball joint to the previous (write the chain as <body>s with ball joints)");
    } else {
      warn(e, "<composite type=\"" + type + "\"> is not read: left out are its bodies " + prefix + "B…" +
                  " (MuJoCo 3 makes only cables of <composite>; soft bodies are <flexcomp>s, repeated objects <replicate>)");
    }
  }

  // ---- equality constraints: loop closures ----

  /// The body attribute `a` of an equality names (with the suffix of the copy being read when the
  /// name is that of a replicated body); "world" when absent and not required.
  std::string bodyRef(const XMLElement* e, const char* a, bool required, const std::string& suffix) {
    const char* v = e->Attribute(a);
    if (!v) {
      if (required) xml_.fail(e, "<" + std::string(e->Name()) + "> needs " + a + "=\"BODY\"");
      return "world";
    }
    if (bodyIndex_.count(v)) return v;
    if (!suffix.empty() && bodyIndex_.count(v + suffix)) return v + suffix;
    std::vector<std::string> names;
    for (const auto& [n, _] : bodyIndex_) names.push_back(n);
    xml_.failAttr(e, a, "unknown body \"" + std::string(v) + "\"" + didYouMean(v, names));
  }

  const Site& siteRef(const XMLElement* e, const char* a, const std::string& suffix) {
    const std::string v = xml_.reqAttr(e, a, "a site name");
    if (auto it = sites_.find(v); it != sites_.end()) return it->second;
    if (auto it = sites_.find(v + suffix); !suffix.empty() && it != sites_.end()) return it->second;
    std::vector<std::string> names;
    for (const auto& [n, _] : sites_) names.push_back(n);
    xml_.failAttr(e, a, "unknown site \"" + v + "\"" + didYouMean(v, names));
  }

  void equality(const XMLElement* eq) {
    int k = 0;
    for (const XMLElement* e = eq->FirstChildElement(); e; e = e->NextSiblingElement(), ++k) {
      const std::string n = e->Name();
      if (const char* act = e->Attribute("active"); act && std::string(act) == "false") continue;
      if (n == "joint") {
        jointEquality(e, k);
        continue;
      }
      if (n != "connect" && n != "weld") {
        warn(e, "<equality><" + n + "> is not supported (mechsim reads connect, weld and joint); left out");
        continue;
      }
      // An equality that names bodies or sites of a <replicate> is replicated with them.
      std::vector<std::string> suffixes{""};
      for (const char* a : {"body1", "body2", "site1", "site2"}) {
        const char* v = e->Attribute(a);
        const bool exists = v && (std::string(a).rfind("body", 0) == 0 ? bodyIndex_.count(v) : sites_.count(v));
        if (v && !exists && replicas_.count(v)) {
          suffixes = replicas_[v];
          break;
        }
      }
      for (const std::string& suffix : suffixes) equalityOne(e, n, k, suffix);
    }
  }

  /// <joint joint1="B" [joint2="A"] polycoef="a0 a1 a2 a3 a4"/>: MuJoCo's
  ///   y − y0 = a0 + a1 (x − x0) + … + a4 (x − x0)⁴,  y, x the values of joint1, joint2 and y0, x0
  /// their reference values (qpos0, the file's configuration): mechsim's coordinates, which are
  /// measured from that configuration, so the coupling takes polycoef as it is (radians and
  /// metres whatever <compiler angle>: joint values are). Without joint2, y − y0 = a0. Replicated
  /// with a <replicate> that copies joint1.
  void jointEquality(const XMLElement* e, int k) {
    const std::string j1 = xml_.reqAttr(e, "joint1", "the constrained joint's name");
    const std::string j2 = e->Attribute("joint2") ? e->Attribute("joint2") : "";
    std::array<double, 5> poly = {0, 1, 0, 0, 0};
    if (const auto p = xml_.numbers(e, "polycoef", 5)) std::copy(p->begin(), p->end(), poly.begin());
    if (j2.empty()) poly = {poly[0], 0, 0, 0, 0};
    std::vector<std::string> suffixes{""};
    if (!jointNames_.find(spec_.joints, j1) && replicas_.count(j1)) suffixes = replicas_[j1];
    for (const std::string& suffix : suffixes) {
      const std::string follower = j1 + suffix;
      std::string leader = j2;
      if (!j2.empty() && !jointNames_.find(spec_.joints, j2) && jointNames_.find(spec_.joints, j2 + suffix)) leader = j2 + suffix;
      const std::string name = (e->Attribute("name") ? std::string(e->Attribute("name")) : "joint" + std::to_string(k)) + suffix;
      const std::string why = imp::addCoupling(spec_, xml_.loc(e), name, follower, leader, poly);
      if (!why.empty()) warn(e, "<equality><joint> \"" + name + "\" left out (" + why + ")");
    }
  }

  void equalityOne(const XMLElement* e, const std::string& n, int k, const std::string& suffix) {
    // A body MuJoCo makes of a <flexcomp> or <composite> (a point of a flex, a cable segment).
    for (const char* a : {"body1", "body2"}) {
      const char* v = e->Attribute(a);
      if (!v || bodyIndex_.count(v) || bodyIndex_.count(v + suffix)) continue;
      for (const auto& [prefix, where] : generated_)
        if (std::string(v).rfind(prefix, 0) == 0) {
          warn(e, "<" + n + "> names body \"" + std::string(v) + "\", which MuJoCo makes of the <" + where->Name() + "> at line " +
                      std::to_string(xml_.loc(where).line) + ": mechsim has no such body, the equality is left out");
          return;
        }
    }
    JointSpec j;
    j.name = (e->Attribute("name") ? std::string(e->Attribute("name")) : n + std::to_string(k)) + suffix;
    j.type = n == "connect" ? JointType::Spherical : JointType::Fixed;
    const bool bySite = e->Attribute("site1") || e->Attribute("site2");
    if (bySite) {
      // Site-based (MuJoCo 3): the joint at site1; MuJoCo pulls the sites together where the
      // file does not place them so, mechsim holds them as placed.
      if (e->Attribute("body1") || e->Attribute("body2") || e->Attribute("anchor"))
        xml_.fail(e, "<" + n + "> names its bodies either by body1/body2 (with anchor) or by site1/site2, not both");
      const Site& s1 = siteRef(e, "site1", suffix);
      const Site& s2 = siteRef(e, "site2", suffix);
      j.body1 = s1.body;
      j.body2 = s2.body;
      j.point = s1.world.position;
      if (j.body1 == j.body2) xml_.failAttr(e, "site2", "an equality constraint needs sites on two different bodies");
      const double gap = (s2.world.position - s1.world.position).norm();
      const double turn = n == "weld" ? s1.world.orientation.angularDistance(s2.world.orientation) : 0.0;
      if (gap > kSiteGap || turn > kSiteTurn)
        warn(e, "the sites of <" + n + "> are " + (gap > kSiteGap ? fmt(gap) + " m apart" : std::string("")) +
                    (gap > kSiteGap && turn > kSiteTurn ? " and " : "") + (turn > kSiteTurn ? "turned " + fmt(turn) + " rad from each other" : "") +
                    " in the file: MuJoCo pulls them together when the simulation starts, mechsim holds them as placed (the joint at site1)");
    } else {
      j.body1 = bodyRef(e, "body1", true, suffix);
      j.body2 = bodyRef(e, "body2", false, suffix);
      if (j.body1 == j.body2) xml_.failAttr(e, "body2", "an equality constraint needs two different bodies");
      const Pose& p1 = bodyPose_.at(j.body1);
      if (n == "connect") {
        const auto a = xml_.numbers(e, "anchor", 3);
        if (!a) xml_.fail(e, "<connect> needs anchor=\"x y z\" (a point in body1's frame)");
        j.point = p1.apply(Vec3((*a)[0], (*a)[1], (*a)[2]));
      } else {
        j.point = p1.apply(xml_.vec3(e, "anchor", Vec3::Zero()));
        if (e->Attribute("relpose"))
          warn(e, "weld relpose is not read: the weld holds the two bodies as they are placed in the file");
      }
    }
    addJoint(std::move(j), e);
  }

};

}  // namespace

MechanismSpec parseMjcf(std::string_view text, const std::string& fileName, const std::string& baseDir) {
  return MjcfImporter(text, fileName, baseDir).run();
}

}  // namespace mechsim::io
