// core/io/import/urdf_import.cpp — URDF (http://wiki.ros.org/urdf/XML) → MechanismSpec.
//
// Two passes over one text. TinyXML2 first walks the document and checks every element the
// importer uses, with its line and column (urdfdom reports no positions): names, joint types,
// parent/child links, numbers, the tree structure (one parent per link, no cycle, one root).
// urdfdom's urdf::parseURDF then builds the model whose values the spec takes; should it still
// refuse the text, its own message is reported at the <robot> element.
//
// Frames (URDF): a joint's <origin> places the joint frame in the parent link's frame, and the
// child link's frame IS the joint frame. With every joint at zero (the file's configuration),
//   T_child = T_parent · T_origin(joint),      T_root = identity,
// and a joint's world point / axis are T_child's origin and R_child · axis. mechsim measures each
// joint coordinate from that configuration, as URDF does.
//
// Mapping: revolute → revolute with [lower, upper]; continuous → revolute; prismatic → prismatic
// with limits; fixed → fixed; planar → planar (axis = normal); floating → no joint (a free body).
// The root link is fixed, or free with ImportOptions::floatingBase. <inertial> gives mass, com and
// inertia (rotated into link axes); a link without one gets kNominalMass. <collision> → shapes,
// <visual> → visuals (material colour). <mimic> → a coupling of the joint on its leader (import_common.h).
// Loop closures: the extension element <loop_joint> (docs/import.md), read here with TinyXML2
// since urdfdom ignores unknown elements; <mechsim:driver> adds drivers.
#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include <cmath>
#include <locale>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include "core/io/import/import.h"
#include "core/io/import/import_common.h"
#include "core/io/import/resources.h"
#include "core/io/import/xml_file.h"

namespace mechsim::io {

namespace {

using imp::children;
using imp::didYouMean;
using imp::fmt;
using imp::XMLElement;

const std::vector<std::string> kJointTypes{"revolute", "continuous", "prismatic", "fixed", "floating", "planar"};
const std::vector<std::string> kLoopTypes{"revolute", "continuous", "prismatic", "cylindrical", "spherical",
                                          "universal", "planar", "fixed"};
const std::vector<std::string> kGeometries{"box", "cylinder", "sphere", "mesh"};

/// Revolute limits beyond ±2 turns are taken as degrees written where URDF wants radians.
constexpr double kDegreeSuspicion = 4 * 3.14159265358979323846;

/// urdfdom reports through console_bridge; this handler keeps the last error for the diagnostic.
class CaptureErrors : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR && firstError.empty()) firstError = text;
  }
  std::string firstError;
};

class UrdfImporter {
 public:
  UrdfImporter(std::string_view text, const std::string& fileName, const std::string& baseDir, const ImportOptions& options)
      : xml_(text, fileName, baseDir), meshes_(spec_, baseDir), options_(options) {
    spec_.sourceFile = fileName;
    xml_.setUnitHint("URDF values are metres, radians and kilograms, written without units");
  }

  MechanismSpec run() {
    const XMLElement* robot = xml_.root();
    if (std::string(robot->Name()) != "robot")
      xml_.fail(robot, "not a URDF file: the root element is <" + std::string(robot->Name()) + ">, expected <robot>");
    spec_.locations[""] = xml_.loc(robot);
    if (const char* n = robot->Attribute("name")) spec_.name = n;
    validate(robot);
    const urdf::ModelInterfaceSharedPtr model = parseWithUrdfdom(robot);
    build(*model);
    for (const XMLElement* l : children(robot, "loop_joint")) loopJoint(l);
    for (const XMLElement* g : children(robot, "gazebo"))
      for (const XMLElement* l : children(g, "joint")) gazeboJoint(g, l);
    for (const XMLElement* d : children(robot, "mechsim:driver")) imp::readDriver(xml_, d, spec_);
    return std::move(spec_);
  }

 private:
  imp::XmlFile xml_;
  MechanismSpec spec_;
  imp::MeshLoader meshes_;
  ImportOptions options_;
  std::map<std::string, const XMLElement*> links_, joints_;  // by name
  std::vector<std::string> linkOrder_;                         // document order
  std::map<std::string, const XMLElement*> parentJoint_;       // child link → its joint element
  std::map<std::string, Pose> world_;                          // link frame in the world

  void warn(const XMLElement* e, const std::string& msg) { spec_.warnings.push_back(xml_.warning(e, msg)); }

  // ---- pass 1: TinyXML2 validation with positions ----

  void validate(const XMLElement* robot) {
    for (const XMLElement* l : children(robot, "link")) {
      const std::string name = xml_.reqAttr(l, "name", "the link's name");
      if (links_.count(name)) xml_.failAttr(l, "name", "duplicate link name \"" + name + "\" (first at line " + std::to_string(links_[name]->GetLineNum()) + ")");
      links_[name] = l;
      linkOrder_.push_back(name);
      if (const XMLElement* in = l->FirstChildElement("inertial")) inertial(in);
      for (const char* kind : {"visual", "collision"})
        for (const XMLElement* v : children(l, kind)) {
          if (const XMLElement* o = v->FirstChildElement("origin")) origin(o);
          const XMLElement* g = v->FirstChildElement("geometry");
          if (!g) xml_.fail(v, "<" + std::string(kind) + "> needs a <geometry> element");
          geometry(g);
        }
    }
    if (links_.empty()) xml_.fail(robot, "the robot has no <link>: a URDF needs at least one link");

    for (const XMLElement* j : children(robot, "joint")) {
      const std::string name = xml_.reqAttr(j, "name", "the joint's name");
      if (joints_.count(name)) xml_.failAttr(j, "name", "duplicate joint name \"" + name + "\" (first at line " + std::to_string(joints_[name]->GetLineNum()) + ")");
      joints_[name] = j;
      const std::string type = jointType(j, kJointTypes, "URDF joint types");
      if (const XMLElement* o = j->FirstChildElement("origin")) origin(o);
      // A fixed or floating joint has no axis (urdfdom does not read it): published files leave
      // <axis xyz="0 0 0"/> there, which is no error.
      if (const XMLElement* a = j->FirstChildElement("axis"); a && type != "fixed" && type != "floating") axis(a);
      const std::string parent = linkRef(j, "parent");
      const std::string child = linkRef(j, "child");
      if (parent == child) xml_.fail(j->FirstChildElement("child"), "joint \"" + name + "\" connects link \"" + child + "\" to itself");
      const XMLElement* lim = j->FirstChildElement("limit");
      if ((type == "revolute" || type == "prismatic") && !lim)
        xml_.fail(j, "a " + type + " joint needs a <limit lower=\"..\" upper=\"..\" effort=\"..\" velocity=\"..\"/> element (use type \"continuous\" for an unlimited revolute joint)");
      if (lim) limit(lim, type);
      // A URDF is a tree: each link is the child of at most one joint.
      if (auto it = parentJoint_.find(child); it != parentJoint_.end())
        xml_.fail(j->FirstChildElement("child"),
                  "link \"" + child + "\" is already the child of joint \"" + it->second->Attribute("name") + "\" (line " +
                      std::to_string(it->second->GetLineNum()) +
                      "): URDF links form a tree; close a kinematic loop with a <loop_joint> element (docs/import.md)");
      parentJoint_[child] = j;
    }
    // No cycle: walking up from any link must end at a root.
    for (const auto& [start, joint] : parentJoint_) {
      std::vector<std::string> chain{start};
      std::set<std::string> seen{start};
      std::string at = start;
      while (true) {
        auto it = parentJoint_.find(at);
        if (it == parentJoint_.end()) break;
        at = it->second->FirstChildElement("parent")->Attribute("link");
        chain.push_back(at);
        if (!seen.insert(at).second) {
          std::string cycle;
          for (std::size_t i = 0; i < chain.size(); ++i) cycle += (i ? " → " : "") + chain[i];
          xml_.fail(parentJoint_.at(chain.front()),
                    "the joints form a cycle (" + cycle + "): URDF links form a tree; close a kinematic loop with a <loop_joint> element (docs/import.md)");
        }
      }
    }
    std::vector<std::string> roots;
    for (const std::string& l : linkOrder_)
      if (!parentJoint_.count(l)) roots.push_back(l);
    if (roots.size() > 1)
      xml_.fail(links_[roots[1]], "links \"" + roots[0] + "\" and \"" + roots[1] +
                                      "\" are both roots (no joint names them as its child): a URDF has one root link; connect \"" +
                                      roots[1] + "\" with a joint");
    for (const XMLElement* l : children(robot, "loop_joint")) validateLoop(l);
  }

  std::string jointType(const XMLElement* j, const std::vector<std::string>& types, const char* what) {
    const std::string type = xml_.reqAttr(j, "type", std::string("one of: ") + imp::joinNames(types));
    if (std::find(types.begin(), types.end(), type) != types.end()) return type;
    std::string msg = "unknown joint type \"" + type + "\" (" + what + ": " + imp::joinNames(types) + ")";
    if ((type == "spherical" || type == "ball" || type == "universal") && std::string(j->Name()) == "joint")
      msg += "; URDF trees have no " + type + " joint: chain revolute joints, or close a loop with <loop_joint type=\"" +
             (type == "ball" ? std::string("spherical") : type) + "\"> (docs/import.md)";
    else
      msg += didYouMean(type, types);
    xml_.failAttr(j, "type", msg);
  }

  std::string linkRef(const XMLElement* j, const char* role) {
    const XMLElement* e = j->FirstChildElement(role);
    if (!e) xml_.fail(j, "<" + std::string(j->Name()) + "> needs a <" + role + " link=\"...\"/> element");
    const std::string n = xml_.reqAttr(e, "link", std::string("the ") + role + " link's name");
    if (!links_.count(n)) xml_.failAttr(e, "link", "unknown link \"" + n + "\"" + didYouMean(n, linkOrder_));
    return n;
  }

  void origin(const XMLElement* o) {
    xml_.vec3(o, "xyz", Vec3::Zero());
    xml_.vec3(o, "rpy", Vec3::Zero());
  }

  void axis(const XMLElement* a) {
    const Vec3 v = xml_.vec3(a, "xyz", Vec3::UnitX());
    if (!(v.norm() > 1e-12)) xml_.failAttr(a, "xyz", "the joint axis is the zero vector");
  }

  void limit(const XMLElement* lim, const std::string& type) {
    const double lo = xml_.number(lim, "lower", 0.0), hi = xml_.number(lim, "upper", 0.0);
    xml_.number(lim, "effort", 0.0);
    xml_.number(lim, "velocity", 0.0);
    if ((type == "revolute" || type == "prismatic") && lo > hi)
      xml_.failAttr(lim, "upper", "the upper limit " + fmt(hi) + " is below the lower limit " + fmt(lo));
    if (type == "revolute" && (std::fabs(lo) > kDegreeSuspicion || std::fabs(hi) > kDegreeSuspicion))
      warn(lim, "revolute limits [" + fmt(lo) + ", " + fmt(hi) + "] exceed two turns: URDF angles are radians (were degrees written?)");
  }

  void inertial(const XMLElement* in) {
    if (const XMLElement* o = in->FirstChildElement("origin")) origin(o);
    const XMLElement* m = in->FirstChildElement("mass");
    if (!m) xml_.fail(in, "<inertial> needs a <mass value=\"...\"/> element");
    const double mass = xml_.number(m, "value", "the mass in kg");
    if (mass < 0) xml_.failAttr(m, "value", "the mass must not be negative, got " + fmt(mass));
    const XMLElement* I = in->FirstChildElement("inertia");
    if (!I) xml_.fail(in, "<inertial> needs an <inertia ixx=\"..\" ixy=\"..\" ixz=\"..\" iyy=\"..\" iyz=\"..\" izz=\"..\"/> element");
    for (const char* k : {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"}) xml_.number(I, k, "an entry of the inertia tensor in kg·m²");
  }

  void geometry(const XMLElement* g) {
    const XMLElement* s = g->FirstChildElement();
    if (!s) xml_.fail(g, "<geometry> is empty: give one of <box>, <cylinder>, <sphere>, <mesh>");
    const std::string t = s->Name();
    auto positive = [&](const char* a) {
      const double v = xml_.number(s, a, std::string("a positive ") + a);
      if (!(v > 0)) xml_.failAttr(s, a, std::string(a) + " must be positive, got " + fmt(v));
    };
    if (t == "box") {
      const auto v = xml_.numbers(s, "size", 3);
      if (!v) xml_.fail(s, "<box> needs size=\"x y z\"");
      for (double x : *v)
        if (!(x > 0)) xml_.failAttr(s, "size", "box edge lengths must be positive, got " + fmt(x));
    } else if (t == "cylinder") {
      positive("radius");
      positive("length");
    } else if (t == "sphere") {
      positive("radius");
    } else if (t == "mesh") {
      xml_.reqAttr(s, "filename", "the mesh file: package://NAME/path, file:///path or a path relative to this file");
      xml_.vec3(s, "scale", Vec3::Ones());
    } else {
      xml_.fail(s, "unknown geometry <" + t + "> (URDF geometries: box, cylinder, sphere, mesh)" + didYouMean(t, kGeometries));
    }
  }

  void validateLoop(const XMLElement* l) {
    const std::string name = xml_.reqAttr(l, "name", "the loop joint's name");
    if (joints_.count(name))
      xml_.failAttr(l, "name", "duplicate joint name \"" + name + "\" (first at line " + std::to_string(joints_[name]->GetLineNum()) + ")");
    joints_[name] = l;
    const std::string type = jointType(l, kLoopTypes, "loop joint types");
    if (const XMLElement* o = l->FirstChildElement("origin")) origin(o);
    for (const char* a : {"axis", "axis2"})
      if (const XMLElement* e = l->FirstChildElement(a)) axis(e);
    if (const XMLElement* lim = l->FirstChildElement("limit")) limit(lim, type);
    const std::string p = linkRef(l, "parent"), c = linkRef(l, "child");
    if (p == c) xml_.fail(l->FirstChildElement("child"), "loop joint \"" + name + "\" connects link \"" + c + "\" to itself");
  }

  // ---- urdfdom ----

  urdf::ModelInterfaceSharedPtr parseWithUrdfdom(const XMLElement* robot) {
    std::lock_guard<std::mutex> lock(imp::consoleBridgeMutex());
    CaptureErrors capture;
    console_bridge::useOutputHandler(&capture);
    urdf::ModelInterfaceSharedPtr model;
    std::string thrown;
    try {
      model = urdf::parseURDF(xml_.text());
    } catch (const std::exception& e) {
      thrown = e.what();
    }
    console_bridge::restorePreviousOutputHandler();
    if (!model) {
      std::string why = !capture.firstError.empty() ? capture.firstError : thrown.empty() ? "no reason given" : thrown;
      while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
      // Point at the link or joint the message names, when it names one.
      const XMLElement* at = robot;
      for (const auto* table : {&joints_, &links_})
        for (const auto& [n, e] : *table)
          if (why.find("[" + n + "]") != std::string::npos || why.find("'" + n + "'") != std::string::npos) at = e;
      xml_.fail(at, "urdfdom cannot read the robot: " + why);
    }
    return model;
  }

  // ---- pass 2: the spec from urdfdom's model ----

  static Pose pose(const urdf::Pose& p) {
    Pose out;
    out.position = Vec3(p.position.x, p.position.y, p.position.z);
    double w, x, y, z;
    p.rotation.getQuaternion(x, y, z, w);
    out.orientation = Quat(w, x, y, z).normalized();
    return out;
  }

  int bodyIndex(const std::string& link) const {
    for (std::size_t i = 0; i < spec_.bodies.size(); ++i)
      if (spec_.bodies[i].name == link) return int(i);
    return -1;
  }

  /// World poses of all links: the root at the identity, each child at T_parent · T_origin.
  void placeLinks(const urdf::ModelInterface& model) {
    const std::string root = model.getRoot()->name;
    world_[root] = Pose{};
    std::vector<std::string> todo{root};
    while (!todo.empty()) {
      const std::string l = todo.back();
      todo.pop_back();
      for (const auto& jn : model.getLink(l)->child_joints) {
        world_[jn->child_link_name] = imp::compose(world_[l], pose(jn->parent_to_joint_origin_transform));
        todo.push_back(jn->child_link_name);
      }
    }
  }

  ShapeSpec shape(const urdf::Geometry& g, const urdf::Pose& o, const XMLElement* where) {
    ShapeSpec s;
    switch (g.type) {
      case urdf::Geometry::BOX: {
        const auto& b = static_cast<const urdf::Box&>(g);
        s.type = ShapeType::Box;
        s.size = Vec3(b.dim.x, b.dim.y, b.dim.z);
        break;
      }
      case urdf::Geometry::CYLINDER: {
        const auto& c = static_cast<const urdf::Cylinder&>(g);
        s.type = ShapeType::Cylinder;  // URDF: along the shape frame's z, full length
        s.radius = c.radius;
        s.length = c.length;
        break;
      }
      case urdf::Geometry::SPHERE:
        s.type = ShapeType::Sphere;
        s.radius = static_cast<const urdf::Sphere&>(g).radius;
        break;
      case urdf::Geometry::MESH: {
        const auto& m = static_cast<const urdf::Mesh&>(g);
        s = meshes_.load(xml_.loc(where), m.filename, Vec3(m.scale.x, m.scale.y, m.scale.z), xml_.baseDir());
        break;
      }
    }
    const Pose p = pose(o);
    s.position = p.position;
    s.orientation = p.orientation;
    return s;
  }

  void build(const urdf::ModelInterface& model) {
    placeLinks(model);
    const std::string root = model.getRoot()->name;
    if (options_.floatingBase && root == "world")
      warn(links_.at(root), "floating base: the root link is \"world\", which ROS tools take for the world frame; it "
                            "floats too, with the robot joined to it as the file says");
    // Bodies, in document order.
    for (const std::string& name : linkOrder_) {
      const auto link = model.getLink(name);
      const XMLElement* le = links_.at(name);
      const std::string path = "bodies[" + std::to_string(spec_.bodies.size()) + "]";
      spec_.locations[path] = xml_.loc(le);
      spec_.locations[path + ".name"] = xml_.attrLoc(le, "name");
      BodySpec b;
      b.name = name;
      // The root is bolted to the world, as ROS tools take a URDF, unless the user asked for a
      // floating base (a legged robot, a humanoid): then no body is fixed and the root is free.
      b.fixed = name == root && !options_.floatingBase;
      b.position = world_.at(name).position;
      b.orientation = world_.at(name).orientation;
      if (link->inertial && link->inertial->mass > 0) {
        const urdf::Inertial& in = *link->inertial;
        const Pose f = pose(in.origin);
        Mat3 I;
        I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
        const Mat3 R = f.orientation.toRotationMatrix();
        const XMLElement* ie = le->FirstChildElement("inertial");
        imp::setInertial(b, in.mass, f.position, R * I * R.transpose(), [&](const std::string& w) { warn(ie, w); });
        spec_.locations[path + ".mass"] = xml_.loc(ie->FirstChildElement("mass"));
        spec_.locations[path + ".inertia"] = xml_.loc(ie->FirstChildElement("inertia"));
        if (const XMLElement* o = ie->FirstChildElement("origin")) spec_.locations[path + ".com"] = xml_.loc(o);
      } else if (!b.fixed) {
        b.mass = imp::kNominalMass;  // massless frame (docs/import.md)
        // A floating root carries the robot: its 1 g is worth a word (dynamics will show it).
        if (name == root)
          warn(le, "floating base: the root link \"" + name + "\" has no mass; it gets the nominal " +
                       fmt(imp::kNominalMass * 1e3) + " g of a massless link");
      }
      const auto collisions = children(le, "collision");
      for (std::size_t k = 0; k < link->collision_array.size() && k < collisions.size(); ++k) {
        const auto& c = link->collision_array[k];
        if (!c->geometry) continue;
        spec_.locations[path + ".shapes[" + std::to_string(b.shapes.size()) + "]"] = xml_.loc(collisions[k]);
        b.shapes.push_back(shape(*c->geometry, c->origin, collisions[k]->FirstChildElement("geometry")->FirstChildElement()));
      }
      const auto visuals = children(le, "visual");
      for (std::size_t k = 0; k < link->visual_array.size() && k < visuals.size(); ++k) {
        const auto& v = link->visual_array[k];
        if (!v->geometry) continue;
        spec_.locations[path + ".visuals[" + std::to_string(b.visuals.size()) + "]"] = xml_.loc(visuals[k]);
        ShapeSpec s = shape(*v->geometry, v->origin, visuals[k]->FirstChildElement("geometry")->FirstChildElement());
        if (v->material && s.color.empty() && v->material->color.a > 0)
          s.color = imp::colorHex(v->material->color.r, v->material->color.g, v->material->color.b);
        b.visuals.push_back(std::move(s));
      }
      spec_.bodies.push_back(std::move(b));
    }
    // Joints, in document order (floating joints leave their child free).
    std::vector<const XMLElement*> order;
    for (const XMLElement* j : children(xml_.root(), "joint")) order.push_back(j);
    for (const XMLElement* je : order) {
      const auto jn = model.getJoint(je->Attribute("name"));
      if (!jn || jn->type == urdf::Joint::FLOATING) continue;
      const Pose f = world_.at(jn->child_link_name);
      const Vec3 axis = f.orientation * Vec3(jn->axis.x, jn->axis.y, jn->axis.z).stableNormalized();
      JointSpec j;
      j.name = jn->name;
      j.body1 = jn->parent_link_name;
      j.body2 = jn->child_link_name;
      j.point = f.position;
      switch (jn->type) {
        case urdf::Joint::REVOLUTE:
        case urdf::Joint::CONTINUOUS: j.type = JointType::Revolute, j.axis = axis; break;
        case urdf::Joint::PRISMATIC: j.type = JointType::Prismatic, j.axis = axis; break;
        case urdf::Joint::PLANAR: j.type = JointType::Planar, j.normal = axis; break;
        case urdf::Joint::FIXED: j.type = JointType::Fixed; break;
        default: xml_.failAttr(je, "type", "joint type not supported");
      }
      if ((jn->type == urdf::Joint::REVOLUTE || jn->type == urdf::Joint::PRISMATIC) && jn->limits)
        j.limits = std::make_pair(jn->limits->lower, jn->limits->upper);
      addJoint(std::move(j), je);
    }
    // <mimic joint="LEADER" multiplier="r" offset="c"/>: this joint's coordinate = r · LEADER's + c
    // (radians or metres; urdfdom's defaults r = 1, c = 0), a coupling named after the joint.
    for (const XMLElement* je : order) {
      const XMLElement* me = je->FirstChildElement("mimic");
      const auto jn = model.getJoint(je->Attribute("name"));
      // A mimic on a fixed joint changes nothing (published files have them: TALOS's grippers).
      if (!me || !jn || !jn->mimic || jn->type == urdf::Joint::FIXED) continue;
      const std::string why = imp::addCoupling(spec_, xml_.loc(me), jn->name, jn->name, jn->mimic->joint_name,
                                               {jn->mimic->offset, jn->mimic->multiplier, 0, 0, 0});
      if (!why.empty()) warn(me, "joint \"" + jn->name + "\": <mimic> left out (" + why + "); the joint moves independently");
    }
  }

  void addJoint(JointSpec j, const XMLElement* je) {
    const std::string path = "joints[" + std::to_string(spec_.joints.size()) + "]";
    spec_.locations[path] = xml_.loc(je);
    spec_.locations[path + ".name"] = xml_.attrLoc(je, "name");
    if (const XMLElement* e = je->FirstChildElement("parent")) spec_.locations[path + ".body1"] = xml_.loc(e);
    if (const XMLElement* e = je->FirstChildElement("child")) spec_.locations[path + ".body2"] = xml_.loc(e);
    if (const XMLElement* e = je->FirstChildElement("origin")) spec_.locations[path + ".point"] = xml_.loc(e);
    if (const XMLElement* e = je->FirstChildElement("axis")) {
      spec_.locations[path + ".axis"] = spec_.locations[path + ".normal"] = spec_.locations[path + ".axis1"] = xml_.loc(e);
    }
    if (const XMLElement* e = je->FirstChildElement("axis2")) spec_.locations[path + ".axis2"] = xml_.loc(e);
    if (const XMLElement* e = je->FirstChildElement("limit")) spec_.locations[path + ".limits"] = xml_.loc(e);
    spec_.joints.push_back(std::move(j));
  }

  /// <loop_joint name type> <parent link/> <child link/> <origin xyz rpy/> <axis xyz/> [<axis2 xyz/>]
  /// [<limit lower upper/>] </loop_joint>: the joint frame is <origin> in the parent link's frame;
  /// on the child link it is where that frame lies in the file's configuration (all tree joints
  /// at zero), as MJCF's <connect> does. Axes are in the joint frame.
  void loopJoint(const XMLElement* l) {
    const std::string parent = l->FirstChildElement("parent")->Attribute("link");
    const std::string child = l->FirstChildElement("child")->Attribute("link");
    const std::string type = l->Attribute("type");
    Pose o;
    if (const XMLElement* e = l->FirstChildElement("origin")) {
      const Vec3 rpy = xml_.vec3(e, "rpy", Vec3::Zero());
      o.position = xml_.vec3(e, "xyz", Vec3::Zero());
      o.orientation = imp::quatFromRpy(rpy.x(), rpy.y(), rpy.z());
    }
    const Pose f = imp::compose(world_.at(parent), o);
    auto axisOf = [&](const char* name, const Vec3& dflt) {
      const XMLElement* e = l->FirstChildElement(name);
      return (f.orientation * (e ? xml_.vec3(e, "xyz", dflt) : dflt).stableNormalized()).eval();
    };
    JointSpec j;
    j.name = l->Attribute("name");
    j.body1 = parent;
    j.body2 = child;
    j.point = f.position;
    if (type == "revolute" || type == "continuous") j.type = JointType::Revolute;
    else if (type == "prismatic") j.type = JointType::Prismatic;
    else if (type == "cylindrical") j.type = JointType::Cylindrical;
    else if (type == "spherical") j.type = JointType::Spherical;
    else if (type == "universal") j.type = JointType::Universal;
    else if (type == "planar") j.type = JointType::Planar;
    else j.type = JointType::Fixed;
    j.axis = j.normal = j.axis1 = axisOf("axis", Vec3::UnitX());
    if (j.type == JointType::Universal) {
      j.axis2 = axisOf("axis2", Vec3::UnitY());
      if (std::fabs(j.axis1.dot(j.axis2)) > 1e-6)
        xml_.fail(l->FirstChildElement("axis2") ? l->FirstChildElement("axis2") : l,
                  "the universal loop joint's <axis> and <axis2> must be perpendicular");
    }
    if (const XMLElement* lim = l->FirstChildElement("limit");
        lim && (type == "revolute" || type == "prismatic"))
      j.limits = std::make_pair(xml_.number(lim, "lower", 0.0), xml_.number(lim, "upper", 0.0));
    if (world_.count(child) == 0 || world_.count(parent) == 0) xml_.fail(l, "internal: link not placed");
    addJoint(std::move(j), l);
  }

  /// The numbers of an element's text ("0.35 0 0 0 0 0"), or std::nullopt when it does not hold
  /// exactly n of them.
  static std::optional<std::vector<double>> textNumbers(const XMLElement* e, std::size_t n) {
    if (!e || !e->GetText()) return std::nullopt;
    std::istringstream in(e->GetText());
    in.imbue(std::locale::classic());
    std::vector<double> v;
    for (double x; in >> x;) v.push_back(x);
    if (!in.eof() || v.size() != n) return std::nullopt;
    for (double x : v)
      if (!std::isfinite(x)) return std::nullopt;
    return v;
  }
  static std::string textOf(const XMLElement* e) {
    std::string t = e && e->GetText() ? e->GetText() : "";
    const auto a = t.find_first_not_of(" \t\r\n"), b = t.find_last_not_of(" \t\r\n");
    return a == std::string::npos ? "" : t.substr(a, b - a + 1);
  }

  /// A loop closed in Gazebo's URDF extension: a <joint> in a <gazebo> block, in SDFormat's words,
  ///   <gazebo><joint name="C" type="revolute"><parent>rocker</parent><child>coupler</child>
  ///     <pose>0.35 0 0 0 0 0</pose><axis><xyz>0 0 1</xyz><limit><lower/><upper/></limit></axis>
  ///   </joint></gazebo>
  /// which Gazebo copies into the model it makes of the URDF (urdfdom does not see it). As in
  /// SDFormat 1.5+, <pose> (x y z roll pitch yaw) places the joint frame in the child link's frame
  /// and <axis><xyz> is in the joint frame, or in the model frame with
  /// <use_parent_model_frame>true</use_parent_model_frame> (SDFormat 1.4's convention). Held
  /// where the file draws it, as <loop_joint> is. A joint that cannot be read is a warning that
  /// says why and that the loop is left open — never dropped without a word.
  void gazeboJoint(const XMLElement* gazebo, const XMLElement* l) {
    const char* nameAttr = l->Attribute("name");
    const std::string name = nameAttr ? nameAttr : "";
    const std::string type = l->Attribute("type") ? l->Attribute("type") : "";
    auto skip = [&](const std::string& why) {
      warn(l, "Gazebo joint \"" + name + "\" in <gazebo> is not read (" + why +
                  "): the loop it closes stays open; write it as a <loop_joint> (docs/import.md)");
    };
    if (gazebo->Attribute("reference")) return skip("a <joint> belongs to a <gazebo> block without reference=");
    if (name.empty()) return skip("it has no name");
    for (const JointSpec& o : spec_.joints)
      if (o.name == name) return skip("a joint of that name exists");
    const std::string parent = textOf(l->FirstChildElement("parent")), child = textOf(l->FirstChildElement("child"));
    if (parent.empty() || child.empty()) return skip("it needs <parent> and <child> links");
    for (const std::string& link : {parent, child})
      if (world_.count(link) == 0) return skip("no link \"" + link + "\"");
    if (parent == child) return skip("its parent and child are the same link");
    JointSpec j;
    if (type == "revolute" || type == "continuous") j.type = JointType::Revolute;
    else if (type == "prismatic") j.type = JointType::Prismatic;
    else if (type == "ball") j.type = JointType::Spherical;
    else if (type == "universal") j.type = JointType::Universal;
    else if (type == "fixed") j.type = JointType::Fixed;
    else return skip("type \"" + type + "\" is not one of revolute, continuous, prismatic, ball, universal, fixed");
    Pose o;
    if (const XMLElement* pe = l->FirstChildElement("pose")) {
      if (pe->Attribute("relative_to") && std::string(pe->Attribute("relative_to")) != child)
        return skip("a <pose relative_to> other than the child link");
      const auto v = textNumbers(pe, 6);
      if (!v) return skip("its <pose> is not six numbers");
      o.position = Vec3((*v)[0], (*v)[1], (*v)[2]);
      o.orientation = imp::quatFromRpy((*v)[3], (*v)[4], (*v)[5]);
    }
    const Pose f = imp::compose(world_.at(child), o);
    auto axisOf = [&](const char* tag, const Vec3& dflt, Vec3& out) {
      const XMLElement* ax = l->FirstChildElement(tag);
      Vec3 a = dflt;
      bool modelFrame = false;
      if (ax) {
        if (const XMLElement* xyz = ax->FirstChildElement("xyz")) {
          const auto v = textNumbers(xyz, 3);
          if (!v || Vec3((*v)[0], (*v)[1], (*v)[2]).norm() == 0) return false;
          a = Vec3((*v)[0], (*v)[1], (*v)[2]);
          if (const char* e = xyz->Attribute("expressed_in")) modelFrame = std::string(e) == "__model__";
        }
        const std::string m = textOf(ax->FirstChildElement("use_parent_model_frame"));
        modelFrame = modelFrame || m == "true" || m == "1";
      }
      // The model frame is the root link's frame, which the importer places at the world origin.
      out = (modelFrame ? a : Vec3(f.orientation * a)).stableNormalized();
      return true;
    };
    if (!axisOf("axis", Vec3::UnitZ(), j.axis)) return skip("its <axis><xyz> is not a non-zero vector");
    j.normal = j.axis1 = j.axis;
    if (j.type == JointType::Universal) {
      if (!axisOf("axis2", Vec3::UnitY(), j.axis2)) return skip("its <axis2><xyz> is not a non-zero vector");
      if (std::fabs(j.axis1.dot(j.axis2)) > 1e-6) return skip("its two axes are not perpendicular");
    }
    if (j.type == JointType::Revolute || j.type == JointType::Prismatic)
      if (const XMLElement* lim = l->FirstChildElement("axis") ? l->FirstChildElement("axis")->FirstChildElement("limit") : nullptr) {
        const auto lo = textNumbers(lim->FirstChildElement("lower"), 1), hi = textNumbers(lim->FirstChildElement("upper"), 1);
        // Gazebo writes ±1e16 for "no limit" on continuous joints.
        if (lo && hi && (*lo)[0] <= (*hi)[0] && std::fabs((*lo)[0]) < 1e15 && std::fabs((*hi)[0]) < 1e15 && type != "continuous")
          j.limits = std::make_pair((*lo)[0], (*hi)[0]);
      }
    j.name = name;
    j.body1 = parent;
    j.body2 = child;
    j.point = f.position;
    addJoint(std::move(j), l);
  }
};

}  // namespace

MechanismSpec parseUrdf(std::string_view text, const std::string& fileName, const std::string& baseDir,
                        const ImportOptions& options) {
  return UrdfImporter(text, fileName, baseDir, options).run();
}

}  // namespace mechsim::io
