// core/io/import/mjcf_import.cpp — MJCF (MuJoCo XML, mujoco.readthedocs.io XML reference), a
// subset, → MechanismSpec. Parsed with TinyXML2 so that every error has its line and column.
//
// Read: <compiler angle eulerseq meshdir assetdir autolimits>, <option gravity>, <default> classes
// (nested, inherited; `class` and `childclass`), <asset><mesh>, <worldbody> with nested <body>,
// <joint> (hinge, slide, ball, free), <freejoint>, <geom> (sphere, capsule, cylinder, box, mesh,
// ellipsoid and plane approximated), <inertial>, <site>, and <equality> <connect> / <weld> for
// closed loops; <mechsim:driver> adds drivers. <include file> is expanded first (xml_file.cpp:
// MuJoCo's semantics, relative to the top-level file's folder), and repeated sections (two
// <worldbody>, <asset>, <default>, ... from the file and its includes) are read in order, as one.
// Everything else (actuators, sensors, tendons, contact, visual settings) is outside the
// kinematic model and left out.
//
// Frames (MJCF, coordinate="local"): a body's pos/orientation place it in its parent's frame, so
//   T_body = T_parent · T_local,      T_world = identity;
// joint pos/axis and geom/site/inertial placements are in the body's frame. The file describes
// the model at qpos0 (every joint at its ref), which is mechsim's zero configuration.
//
// Joints: a body with one joint gets one mechsim joint to its parent; a body with k > 1 joints
// gets a chain parent —j1— b/j1 —j2— … —jk— body through k − 1 intermediate bodies of
// kNominalMass at the body's place, because MuJoCo applies a body's joints in sequence, each
// about an axis carried by the previous ones. A body without joints is welded to its parent (a
// fixed body when the parent is the world). <connect body1 body2 anchor> → spherical joint at the
// anchor (body1 frame); <weld> → fixed joint; both hold at qpos0, as in MuJoCo.
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "core/io/import/import.h"
#include "core/io/import/import_common.h"
#include "core/io/import/resources.h"
#include "core/io/import/xml_file.h"

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

/// One default class: the attributes it gives each element type, its parent's included.
struct DefaultClass {
  std::map<std::string, std::map<std::string, std::string>> attrs;  // element → attribute → value
  const XMLElement* where = nullptr;
};

class MjcfImporter {
 public:
  MjcfImporter(std::string_view text, const std::string& fileName, const std::string& baseDir)
      : xml_(text, fileName, baseDir, /*mjcfIncludes=*/true), meshes_(spec_, baseDir) {
    spec_.sourceFile = fileName;
  }

  MechanismSpec run() {
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
    const XMLElement* wb = root->FirstChildElement("worldbody");
    if (!wb) xml_.fail(root, "the model has no <worldbody>");
    spec_.locations["bodies[0]"] = xml_.loc(wb);
    for (const XMLElement* w = wb; w; w = w->NextSiblingElement("worldbody")) worldbody(w);
    for (const XMLElement* eq : children(root, "equality")) equality(eq);
    for (const XMLElement* d : children(root, "mechsim:driver")) imp::readDriver(xml_, d, spec_);
    for (BodySpec& b : spec_.bodies) imp::nominalMassIfMissing(b);
    return std::move(spec_);
  }

 private:
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
  };
  std::map<std::string, MeshAsset> meshAssets_;
  std::map<std::string, int> bodyIndex_;
  std::map<std::string, Pose> bodyPose_;  // world pose of each body at qpos0
  int unnamed_ = 0;

  void warn(const XMLElement* e, const std::string& msg) { spec_.warnings.push_back(xml_.warning(e, msg)); }

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
      if (!file) {
        warn(m, "mesh asset without file= (vertex data in the XML) is not supported; geoms using it are drawn as placeholders");
        continue;
      }
      std::string name = m->Attribute("name") ? m->Attribute("name") : fs::path(file).stem().string();
      MeshAsset asset{file, Vec3::Ones(), m};
      const std::string cls = m->Attribute("class") ? m->Attribute("class") : "main";
      if (const char* s = attr(m, "scale", cls)) {
        const auto v = xml_.parseNumbers(m, "scale", s, 3, 3);
        asset.scale = Vec3(v[0], v[1], v[2]);
      }
      if (meshAssets_.count(name)) xml_.failAttr(m, "name", "duplicate mesh asset \"" + name + "\"");
      meshAssets_[name] = asset;
    }
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
    if (g == "euler") {
      // Lower-case letters rotate about the moving (already rotated) axes, upper-case about the
      // fixed ones: q ← q · r (intrinsic) or q ← r · q (extrinsic), in eulerseq's order.
      Quat q = Quat::Identity();
      for (int i = 0; i < 3; ++i) {
        const char c = eulerseq_[std::size_t(i)];
        const int ax = std::tolower(c) - 'x';
        const Quat r(Eigen::AngleAxisd(x[std::size_t(i)] * angleScale_, Vec3::Unit(ax)));
        q = std::islower(c) ? q * r : r * q;
      }
      return q.normalized();
    }
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

  void worldbody(const XMLElement* wb) {
    const std::string cls = "main";
    for (const XMLElement* e = wb->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string n = e->Name();
      if (n == "geom") geom(e, 0, cls);
      else if (n == "body") body(e, "world", Pose{}, cls);
      else if (n == "joint" || n == "freejoint") xml_.fail(e, "the world body cannot have joints: put the joint in a <body>");
      else if (n == "site" || n == "camera" || n == "light" || n == "frame") continue;
      else warn(e, "<" + n + "> in <worldbody> is not read");
    }
  }

  void body(const XMLElement* e, const std::string& parent, const Pose& parentPose, const std::string& inherited) {
    const std::string childclass = e->Attribute("childclass") ? std::string(e->Attribute("childclass")) : inherited;
    if (!classes_.count(childclass)) {
      std::vector<std::string> names;
      for (const auto& [n, _] : classes_) names.push_back(n);
      xml_.failAttr(e, "childclass", "unknown default class \"" + childclass + "\"" + didYouMean(childclass, names));
    }
    BodySpec b;
    b.name = e->Attribute("name") ? e->Attribute("name") : "body" + std::to_string(++unnamed_);
    const Pose pose = imp::compose(parentPose, localPose(e, ""));  // bodies take no defaults
    b.position = pose.position;
    b.orientation = pose.orientation;

    // Joints of this body, in order.
    std::vector<const XMLElement*> joints;
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string n = c->Name();
      if (n == "joint" || n == "freejoint") joints.push_back(c);
    }
    bool free = false;
    for (const XMLElement* j : joints) {
      const std::string type = std::string(j->Name()) == "freejoint" ? "free" : jointType(j, classOf(j, childclass));
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

    // Joint chain parent → (intermediates) → body.
    if (!free) {
      if (joints.empty()) {
        if (parent != "world") {
          JointSpec j;
          j.name = b.name + ".fixed";
          j.type = JointType::Fixed;
          j.body1 = parent;
          j.body2 = b.name;
          j.point = pose.position;
          addJoint(std::move(j), e);
        }
      } else {
        std::string prev = parent;
        for (std::size_t k = 0; k < joints.size(); ++k) {
          std::string next = b.name;
          if (k + 1 < joints.size()) {
            BodySpec mid;
            mid.name = b.name + "/" + jointName(joints[k], b.name, k);
            mid.position = pose.position;
            mid.orientation = pose.orientation;
            mid.mass = imp::kNominalMass;
            addBody(mid, joints[k]);
            next = mid.name;
          }
          joint(joints[k], classOf(joints[k], childclass), prev, next, pose, jointName(joints[k], b.name, k));
          prev = next;
        }
      }
    }

    // Contents: inertial, geoms, sites, child bodies.
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string n = c->Name();
      if (n == "inertial") inertial(c, bi);
      else if (n == "geom") geom(c, bi, childclass);
      else if (n == "site") site(c, bi, childclass, pose);
      else if (n == "body") body(c, b.name, pose, childclass);
      else if (n == "joint" || n == "freejoint" || n == "camera" || n == "light") continue;
      else warn(c, "<" + n + "> in a <body> is not read");
    }
  }

  std::string jointName(const XMLElement* j, const std::string& body, std::size_t k) const {
    if (const char* n = j->Attribute("name")) return n;
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

  void addJoint(JointSpec j, const XMLElement* e) {
    for (const JointSpec& o : spec_.joints)
      if (o.name == j.name) xml_.failAttr(e, "name", "duplicate joint name \"" + j.name + "\"");
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

  void geom(const XMLElement* e, int bi, const std::string& childclass) {
    const std::string cls = classOf(e, childclass);
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
    // fromto (capsule, cylinder, box): the segment between two points sets position, axis, length.
    const auto fromto = (type == "capsule" || type == "cylinder" || type == "box") ? nums(e, "fromto", cls, 6, 6) : std::nullopt;
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
      s.size = fromto ? Vec3(2 * sz(0, "half-size x"), 2 * sz(1, "half-size y"), 2 * halfLength)
                      : Vec3(2 * sz(0, "half-size x"), 2 * sz(1, "half-size y"), 2 * sz(2, "half-size z"));
    } else if (type == "ellipsoid") {
      s.type = ShapeType::Sphere;
      s.radius = std::max({sz(0, "radii"), sz(1, "radii"), sz(2, "radii")});
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
      const fs::path dir = fs::path(xml_.baseDir()) / meshdir_;
      s = meshes_.load(xml_.loc(it->second.where), it->second.file, it->second.scale, dir.string());
    } else {
      warn(e, type + " geom is not supported and left out");
      return;
    }
    s.position = p.position;
    s.orientation = p.orientation;
    if (const auto rgba = nums(e, "rgba", cls, 4, 4); rgba && s.color.empty())
      s.color = imp::colorHex((*rgba)[0], (*rgba)[1], (*rgba)[2]);
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

  void site(const XMLElement* e, int bi, const std::string& childclass, const Pose& pose) {
    const char* n = e->Attribute("name");
    if (!n || spec_.bodies[std::size_t(bi)].fixed) return;  // handles are named points on moving bodies
    const std::string cls = classOf(e, childclass);
    HandleSpec h;
    h.name = n;
    for (const HandleSpec& o : spec_.handles)
      if (o.name == h.name) xml_.failAttr(e, "name", "duplicate site name \"" + h.name + "\"");
    h.body = spec_.bodies[std::size_t(bi)].name;
    h.point = pose.apply(vec3(e, "pos", cls, Vec3::Zero()));
    spec_.locations["handles[" + std::to_string(spec_.handles.size()) + "]"] = xml_.loc(e);
    spec_.handles.push_back(std::move(h));
  }

  // ---- equality constraints: loop closures ----

  std::string bodyRef(const XMLElement* e, const char* a, bool required) {
    const char* v = e->Attribute(a);
    if (!v) {
      if (required) xml_.fail(e, "<" + std::string(e->Name()) + "> needs " + a + "=\"BODY\"");
      return "world";
    }
    if (!bodyIndex_.count(v)) {
      std::vector<std::string> names;
      for (const auto& [n, _] : bodyIndex_) names.push_back(n);
      xml_.failAttr(e, a, "unknown body \"" + std::string(v) + "\"" + didYouMean(v, names));
    }
    return v;
  }

  void equality(const XMLElement* eq) {
    int k = 0;
    for (const XMLElement* e = eq->FirstChildElement(); e; e = e->NextSiblingElement(), ++k) {
      const std::string n = e->Name();
      if (const char* act = e->Attribute("active"); act && std::string(act) == "false") continue;
      if (n != "connect" && n != "weld") {
        warn(e, "<equality><" + n + "> is not supported (mechsim reads connect and weld); left out");
        continue;
      }
      JointSpec j;
      j.name = e->Attribute("name") ? e->Attribute("name") : n + std::to_string(k);
      if (e->Attribute("site1") || e->Attribute("site2")) {
        xml_.fail(e, "<" + n + "> with site1/site2 is not supported: use body1, body2 and anchor");
      }
      j.body1 = bodyRef(e, "body1", true);
      j.body2 = bodyRef(e, "body2", false);
      if (j.body1 == j.body2) xml_.failAttr(e, "body2", "an equality constraint needs two different bodies");
      const Pose& p1 = bodyPose_.at(j.body1);
      if (n == "connect") {
        const auto a = xml_.numbers(e, "anchor", 3);
        if (!a) xml_.fail(e, "<connect> needs anchor=\"x y z\" (a point in body1's frame)");
        j.type = JointType::Spherical;
        j.point = p1.apply(Vec3((*a)[0], (*a)[1], (*a)[2]));
      } else {
        j.type = JointType::Fixed;
        j.point = p1.apply(xml_.vec3(e, "anchor", Vec3::Zero()));
        if (e->Attribute("relpose"))
          warn(e, "weld relpose is not read: the weld holds the two bodies as they are placed in the file");
      }
      addJoint(std::move(j), e);
    }
  }
};

}  // namespace

MechanismSpec parseMjcf(std::string_view text, const std::string& fileName, const std::string& baseDir) {
  return MjcfImporter(text, fileName, baseDir).run();
}

}  // namespace mechsim::io
