// core/io/import/sdf_import.cpp — SDFormat (sdformat.org) → MechanismSpec, through libsdformat
// (Debian 12: libsdformat-dev, sdformat 12). libsdformat parses and validates the file (its
// errors carry the line), resolves every pose against SDF's frame semantics (pose relative_to,
// joint frames attached to the child link, axis expressed_in) and reports graph errors; this
// file maps the resolved model onto the spec.
//
// Frames: every link pose is resolved in the model frame, T_link = T_model · T_link/model; a
// joint's frame (by default on its child link) likewise; its axis is resolved in the model frame
// and rotated into the world. The file's poses are the zero configuration of every joint.
//
// Mapping: revolute → revolute (with limits unless they are SDF's ±1e16 "unlimited"),
// continuous → revolute, prismatic → prismatic, ball → spherical, universal / revolute2 with
// perpendicular axes → universal, fixed → fixed; parent "world" → the fixed world body. Links
// of a static model are fixed. SDF allows joint graphs with loops, so closed chains need no
// extension. A gearbox joint and an axis's <mimic> become couplings (after every joint is read);
// screw joints are refused (mechsim has no coupled rotation and slide).
#include <functional>
#include <console_bridge/console.h>
#include <sdf/sdf.hh>

#include <cmath>
#include <map>
#include <mutex>
#include <regex>

#include "core/io/import/import.h"
#include "core/io/import/import_common.h"
#include "core/io/import/resources.h"
#include "core/io/import/xml_file.h"

namespace mechsim::io {

namespace {

/// The diffuse colour of Gazebo classic's plain named materials (gazebo/media/materials/scripts/
/// gazebo.material), "#rrggbb"; empty for any other name (textures, shaders, unknown).
std::string gazeboMaterialColor(const std::string& name) {
  static const std::pair<const char*, const char*> table[] = {
      {"Gazebo/White", "#ffffff"},     {"Gazebo/Grey", "#b3b3b3"},      {"Gazebo/Gray", "#b3b3b3"},
      {"Gazebo/DarkGrey", "#2d2d2d"},  {"Gazebo/DarkGray", "#2d2d2d"},  {"Gazebo/Black", "#000000"},
      {"Gazebo/FlatBlack", "#1a1a1a"}, {"Gazebo/Red", "#ff0000"},       {"Gazebo/RedBright", "#ff0000"},
      {"Gazebo/Green", "#00ff00"},     {"Gazebo/Blue", "#0000ff"},      {"Gazebo/SkyBlue", "#87ceeb"},
      {"Gazebo/Yellow", "#ffff00"},    {"Gazebo/ZincYellow", "#e6d733"}, {"Gazebo/DarkYellow", "#b3b300"},
      {"Gazebo/Purple", "#ff00ff"},    {"Gazebo/Turquoise", "#00ffff"}, {"Gazebo/Orange", "#ff8200"},
      {"Gazebo/Gold", "#d4a017"},      {"Gazebo/Indigo", "#4b0082"},    {"Gazebo/Wood", "#a0703c"}};
  for (const auto& [n, c] : table)
    if (name == n) return c;
  return {};
}


using imp::fmt;

/// |limit| at or above this is SDF's way of saying "no limit" (its defaults are ±1e16).
constexpr double kUnlimited = 1e15;

std::mutex gSdfMutex;  // libsdformat's console is process-wide

/// A console_bridge handler that drops everything (urdfdom's messages from inside libsdformat).
class SilentConsole : public console_bridge::OutputHandler {
 public:
  void log(const std::string&, console_bridge::LogLevel, const char*, int) override {}
};

Pose toPose(const ignition::math::Pose3d& p) {
  Pose out;
  out.position = Vec3(p.Pos().X(), p.Pos().Y(), p.Pos().Z());
  out.orientation = Quat(p.Rot().W(), p.Rot().X(), p.Rot().Y(), p.Rot().Z()).normalized();
  return out;
}
Vec3 toVec(const ignition::math::Vector3d& v) { return Vec3(v.X(), v.Y(), v.Z()); }

class SdfImporter {
 public:
  SdfImporter(std::string_view text, const std::string& fileName, const std::string& baseDir)
      : text_(text), file_(fileName), baseDir_(baseDir), meshes_(spec_, baseDir) {
    spec_.sourceFile = fileName;
    lineStart_.push_back(0);
    for (std::size_t i = 0; i < text_.size(); ++i)
      if (text_[i] == '\n') lineStart_.push_back(i + 1);
  }

  MechanismSpec run() {
    // Well-formedness first, with TinyXML2's line (libsdformat's own message for broken XML has none).
    const imp::XmlFile xml(text_, file_, baseDir_);
    const std::string rootName = xml.root()->Name();
    if (rootName != "sdf") xml.fail(xml.root(), "not an SDFormat file: the root element is <" + rootName + ">, expected <sdf>");
    spec_.locations[""] = xml.loc(xml.root());

    // libsdformat parses the version with std::stoi and lets its exception out ("2.x" ends the
    // program); the form is checked here first, with the attribute's place.
    static const std::regex versionForm("[0-9]+(\\.[0-9]+)*");
    if (const char* v = xml.root()->Attribute("version"); v && !std::regex_match(v, versionForm))
      xml.failAttr(xml.root(), "version", std::string("expected an SDFormat version such as \"1.9\", got \"") + v + "\"");

    sdf::Root root;
    sdf::Errors errors;
    std::string thrown;
    {
      std::lock_guard<std::mutex> lock(gSdfMutex);
      // On some errors libsdformat tries the text as URDF, and urdfdom then prints its own
      // complaint ("Could not find the 'robot' element") through console_bridge: silenced here,
      // the diagnostic below says what is wrong.
      std::lock_guard<std::mutex> consoleLock(imp::consoleBridgeMutex());
      SilentConsole silent;
      console_bridge::useOutputHandler(&silent);
      sdf::Console::Instance()->SetQuiet(true);
      // <include><uri>model://NAME</uri> goes along the search path the meshes use
      // (resources.h); libsdformat on its own looks in SDF_PATH.
      sdf::ParserConfig config = sdf::ParserConfig::GlobalConfig();
      config.SetFindCallback([this](const std::string& uri) {
        std::vector<std::string> tried;
        return imp::resolveResource(uri, baseDir_, baseDir_, tried, true).value_or("");
      });
      try {
        errors = root.LoadSdfString(text_, config);
      } catch (const std::exception& e) {  // any other exception the library lets out
        thrown = e.what();
      }
      console_bridge::restorePreviousOutputHandler();
    }
    if (!thrown.empty()) xml.fail(xml.root(), "libsdformat cannot read this file: " + thrown);
    int scriptsWithoutUri = 0;
    for (const sdf::Error& e : errors) {
      // Version-conversion notices are not failures.
      if (e.Code() == sdf::ErrorCode::NONE) continue;
      // An inertia that is not physically valid is not a refusal: the rule of URDF and MJCF applies
      // (imp::setInertial below warns and the inertia is derived from the link's shapes).
      if (e.Code() == sdf::ErrorCode::LINK_INERTIA_INVALID) continue;
      std::string msg = e.Message();
      while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
      // Gazebo classic names a material of its own media by <script><name> alone; libsdformat 12
      // wants a <uri> too, but builds the model all the same. What is lost is only a colour
      // (gazeboMaterialColor draws the plain ones): one warning after the loop, not a refusal.
      if (msg.find("A <script> element is missing a child <uri>") != std::string::npos) {
        ++scriptsWithoutUri;
        continue;
      }
      // The error's XML path (/sdf/model[@name="m"]/joint[@name="j"]) locates it when it has no line.
      SourceLoc where = spec_.locations[""];
      if (const imp::XMLElement* at = e.XmlPath() ? elementAt(xml, *e.XmlPath()) : nullptr) where = xml.loc(at);
      else if (const imp::XMLElement* named = elementNamedIn(xml, msg)) where = xml.loc(named);
      if (e.LineNumber() && *e.LineNumber() > 0) where = SourceLoc{*e.LineNumber(), 1};
      // An <include> whose model is nowhere: the search path and how to extend it.
      static const std::regex unfound(R"(Unable to find uri\[([^\]]*)\])");
      std::smatch u;
      if (std::regex_search(msg, u, unfound))
        if (auto note = imp::missingPackageNote(u[1].str(), baseDir_)) msg += ": " + *note;
      throw LoadError(Diagnostic{file_, where.line, where.col, "libsdformat: " + msg});
    }

    if (scriptsWithoutUri > 0) {
      // Located at the first such <script> of the file.
      std::function<const imp::XMLElement*(const imp::XMLElement*)> first = [&](const imp::XMLElement* el) -> const imp::XMLElement* {
        for (const imp::XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) {
          if (std::string(c->Name()) == "script" && !c->FirstChildElement("uri")) return c;
          if (const imp::XMLElement* f = first(c)) return f;
        }
        return nullptr;
      };
      const imp::XMLElement* at = first(xml.root());
      spec_.warnings.push_back(imp::formatWarning(
          file_, at ? xml.loc(at) : spec_.locations[""],
          std::to_string(scriptsWithoutUri) + " material <script> element(s) without <uri> (Gazebo's own media): drawn in "
              "the named material's colour when it is a plain one (Gazebo/Yellow, …), else in the default colour"));
    }

    BodySpec world;
    world.name = "world";
    world.fixed = true;
    spec_.bodies.push_back(world);

    std::vector<const sdf::Model*> models;
    if (root.Model()) {
      models.push_back(root.Model());
    } else if (root.WorldCount() > 0) {
      const sdf::World* w = root.WorldByIndex(0);
      spec_.name = w->Name();
      const ignition::math::Vector3d g = w->Gravity();
      spec_.gravity = toVec(g);
      for (uint64_t i = 0; i < w->ModelCount(); ++i) models.push_back(w->ModelByIndex(i));
    }
    if (models.empty()) xml.fail(xml.root(), "the file holds no <model> (nor a <world> with one)");
    if (models.size() == 1 && spec_.name.empty()) spec_.name = models[0]->Name();
    const bool prefix = models.size() > 1;
    for (const sdf::Model* m : models) {
      ignition::math::Pose3d mp = m->RawPose();
      m->SemanticPose().Resolve(mp);  // in the world (top-level models)
      model(*m, toPose(mp), prefix ? m->Name() + "::" : "", m->Static());
    }
    mimics();     // <mimic> and gearbox joints: couplings between the joints read above
    gearboxes();
    for (const imp::XMLElement* d : driverElements(xml.root())) imp::readDriver(xml, d, spec_);
    for (BodySpec& b : spec_.bodies) imp::nominalMassIfMissing(b);
    return std::move(spec_);
  }

 private:
  std::string text_, file_, baseDir_;
  MechanismSpec spec_;
  imp::MeshLoader meshes_;
  std::vector<std::size_t> lineStart_;

  /// The element an XML path such as /sdf/model[@name="m"]/joint[@name="j"] names, or the
  /// deepest one found on the way (nullptr when not even the first step matches).
  static const imp::XMLElement* elementAt(const imp::XmlFile& xml, const std::string& xmlPath) {
    static const std::regex step("([^/\\[]+)(\\[@name=\"([^\"]*)\"\\])?");
    const imp::XMLElement* at = nullptr;
    const imp::XMLElement* scope = nullptr;
    for (auto it = std::sregex_iterator(xmlPath.begin(), xmlPath.end(), step); it != std::sregex_iterator(); ++it) {
      const std::string tag = (*it)[1], name = (*it)[3];
      const imp::XMLElement* next = nullptr;
      if (!scope) {
        next = std::string(xml.root()->Name()) == tag ? xml.root() : nullptr;
      } else {
        for (const imp::XMLElement* c = scope->FirstChildElement(tag.c_str()); c && !next; c = c->NextSiblingElement(tag.c_str()))
          if (name.empty() || (c->Attribute("name") && name == c->Attribute("name"))) next = c;
      }
      if (!next) break;
      at = scope = next;
    }
    return at;
  }

  /// The first element of the document whose name= (or, for "type of X", type=) the message
  /// quotes as name[X]: libsdformat's graph errors name the joint or link but carry no line.
  static const imp::XMLElement* elementNamedIn(const imp::XmlFile& xml, const std::string& msg) {
    auto find = [&](const char* attr, const std::string& value) {
      std::vector<const imp::XMLElement*> todo{xml.root()};
      while (!todo.empty()) {
        const imp::XMLElement* e = todo.front();
        todo.erase(todo.begin());
        if (const char* v = e->Attribute(attr); v && value == v) return e;
        for (const imp::XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) todo.push_back(c);
      }
      return static_cast<const imp::XMLElement*>(nullptr);
    };
    static const std::regex named("name\\[([^\\]]+)\\]"), typed("type of ([A-Za-z0-9_]+)");
    for (auto it = std::sregex_iterator(msg.begin(), msg.end(), named); it != std::sregex_iterator(); ++it)
      if (const imp::XMLElement* e = find("name", (*it)[1])) return e;
    std::smatch m;
    if (std::regex_search(msg, m, typed)) return find("type", m[1]);
    return nullptr;
  }

  /// <mechsim:driver> elements under <model> (or a world's models).
  std::vector<const imp::XMLElement*> driverElements(const imp::XMLElement* sdfRoot) const {
    std::vector<const imp::XMLElement*> out;
    std::vector<const imp::XMLElement*> todo{sdfRoot};
    while (!todo.empty()) {
      const imp::XMLElement* e = todo.back();
      todo.pop_back();
      for (const imp::XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
        const std::string n = c->Name();
        if (n == "mechsim:driver") out.push_back(c);
        else if (n == "world" || n == "model") todo.push_back(c);
      }
    }
    std::reverse(out.begin(), out.end());
    return out;
  }

  /// Line of an sdf element, and the column of "<tag" on that line.
  SourceLoc loc(const sdf::ElementPtr& e) const {
    if (!e || !e->LineNumber()) return spec_.locate("");
    const int line = *e->LineNumber();
    if (line < 1 || std::size_t(line) > lineStart_.size()) return SourceLoc{line, 1};
    const std::size_t begin = lineStart_[std::size_t(line) - 1];
    const std::size_t p = text_.find("<" + e->GetName(), begin);
    const std::size_t end = std::size_t(line) < lineStart_.size() ? lineStart_[std::size_t(line)] : text_.size();
    return SourceLoc{line, p != std::string::npos && p < end ? int(p - begin) + 1 : 1};
  }
  [[noreturn]] void fail(const sdf::ElementPtr& e, const std::string& msg) const {
    const SourceLoc l = loc(e);
    throw LoadError(Diagnostic{file_, l.line, l.col, msg});
  }
  void warn(const sdf::ElementPtr& e, const std::string& msg) {
    spec_.warnings.push_back(imp::formatWarning(file_, loc(e), msg));
  }

  ShapeSpec shape(const sdf::Geometry& g, const ignition::math::Pose3d& p, const sdf::ElementPtr& where, bool& ok) {
    ShapeSpec s;
    ok = true;
    switch (g.Type()) {
      case sdf::GeometryType::BOX:
        s.type = ShapeType::Box;
        s.size = toVec(g.BoxShape()->Size());
        break;
      case sdf::GeometryType::CYLINDER:
        s.type = ShapeType::Cylinder;
        s.radius = g.CylinderShape()->Radius();
        s.length = g.CylinderShape()->Length();
        break;
      case sdf::GeometryType::CAPSULE:
        s.type = ShapeType::Capsule;
        s.radius = g.CapsuleShape()->Radius();
        s.length = g.CapsuleShape()->Length();
        break;
      case sdf::GeometryType::SPHERE:
        s.type = ShapeType::Sphere;
        s.radius = g.SphereShape()->Radius();
        break;
      case sdf::GeometryType::ELLIPSOID: {
        const Vec3 r = toVec(g.EllipsoidShape()->Radii());
        s.type = ShapeType::Sphere;
        s.radius = r.maxCoeff();
        warn(where, "ellipsoid approximated by a sphere of its largest radius " + fmt(s.radius) + " m");
        break;
      }
      case sdf::GeometryType::MESH: {
        const sdf::Mesh* m = g.MeshShape();
        s = meshes_.load(loc(where), m->Uri(), toVec(m->Scale()), baseDir_);
        break;
      }
      default:
        warn(where, "geometry of this type (plane, heightmap, empty) is not represented; left out");
        ok = false;
        return s;
    }
    const Pose q = toPose(p);
    s.position = q.position;
    s.orientation = q.orientation;
    return s;
  }

  void model(const sdf::Model& m, const Pose& modelPose, const std::string& scope, bool isStatic) {
    // Links.
    for (uint64_t i = 0; i < m.LinkCount(); ++i) {
      const sdf::Link* l = m.LinkByIndex(i);
      ignition::math::Pose3d lp = l->RawPose();
      if (sdf::Errors e = l->SemanticPose().Resolve(lp, "__model__"); !e.empty()) fail(l->Element(), "libsdformat: " + e[0].Message());
      const Pose w = imp::compose(modelPose, toPose(lp));
      BodySpec b;
      b.name = scope + l->Name();
      b.fixed = isStatic;
      b.position = w.position;
      b.orientation = w.orientation;
      const std::string path = "bodies[" + std::to_string(spec_.bodies.size()) + "]";
      spec_.locations[path] = loc(l->Element());
      // Inertial: mass matrix in the inertial frame, rotated into link axes.
      const ignition::math::Inertiald& in = l->Inertial();
      const auto& mm = in.MassMatrix();
      const ignition::math::Matrix3d I0 = mm.Moi();
      Mat3 I;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) I(r, c) = I0(r, c);
      const Pose f = toPose(in.Pose());
      const Mat3 R = f.orientation.toRotationMatrix();
      sdf::ElementPtr ie = l->Element() && l->Element()->HasElement("inertial") ? l->Element()->GetElement("inertial") : l->Element();
      imp::setInertial(b, mm.Mass(), f.position, R * I * R.transpose(), [&](const std::string& msg) { warn(ie, msg); });
      spec_.locations[path + ".mass"] = spec_.locations[path + ".inertia"] = loc(ie);
      for (uint64_t k = 0; k < l->CollisionCount(); ++k) {
        const sdf::Collision* c = l->CollisionByIndex(k);
        ignition::math::Pose3d cp = c->RawPose();
        c->SemanticPose().Resolve(cp, l->Name());
        bool ok;
        ShapeSpec s = shape(*c->Geom(), cp, c->Element(), ok);
        if (!ok) continue;
        spec_.locations[path + ".shapes[" + std::to_string(b.shapes.size()) + "]"] = loc(c->Element());
        b.shapes.push_back(std::move(s));
      }
      for (uint64_t k = 0; k < l->VisualCount(); ++k) {
        const sdf::Visual* v = l->VisualByIndex(k);
        ignition::math::Pose3d vp = v->RawPose();
        v->SemanticPose().Resolve(vp, l->Name());
        bool ok;
        ShapeSpec s = shape(*v->Geom(), vp, v->Element(), ok);
        if (!ok) continue;
        if (const sdf::Material* mat = v->Material(); mat && s.color.empty()) {
          const sdf::ElementPtr me = v->Element() && v->Element()->HasElement("material") ? v->Element()->GetElement("material") : nullptr;
          if (!me || me->HasElement("diffuse")) {
            const auto d = mat->Diffuse();
            s.color = imp::colorHex(d.R(), d.G(), d.B());
          } else if (me->HasElement("script")) {
            // Gazebo classic's <script><name>Gazebo/Yellow</name>: a material of Gazebo's own
            // media, not in the file; drawn in that material's diffuse colour when it is one of
            // the plain colours (else the default colour — not black, which libsdformat's unset
            // diffuse would give).
            s.color = gazeboMaterialColor(me->GetElement("script")->Get<std::string>("name"));
          }
        }
        spec_.locations[path + ".visuals[" + std::to_string(b.visuals.size()) + "]"] = loc(v->Element());
        b.visuals.push_back(std::move(s));
      }
      spec_.bodies.push_back(std::move(b));
    }
    // Nested models, in their own scope.
    for (uint64_t i = 0; i < m.ModelCount(); ++i) {
      const sdf::Model* n = m.ModelByIndex(i);
      ignition::math::Pose3d np = n->RawPose();
      n->SemanticPose().Resolve(np, "__model__");
      model(*n, imp::compose(modelPose, toPose(np)), scope + n->Name() + "::", isStatic || n->Static());
    }
    // Joints.
    for (uint64_t i = 0; i < m.JointCount(); ++i) joint(*m.JointByIndex(i), modelPose, scope);
  }

  void joint(const sdf::Joint& sj, const Pose& modelPose, const std::string& scope) {
    const sdf::ElementPtr el = sj.Element();
    std::string parent, child;
    if (sdf::Errors e = sj.ResolveParentLink(parent); !e.empty()) fail(el, "libsdformat: " + e[0].Message());
    if (sdf::Errors e = sj.ResolveChildLink(child); !e.empty()) fail(el, "libsdformat: " + e[0].Message());
    ignition::math::Pose3d jp = sj.RawPose();
    if (sdf::Errors e = sj.SemanticPose().Resolve(jp, "__model__"); !e.empty()) fail(el, "libsdformat: " + e[0].Message());
    const Pose f = imp::compose(modelPose, toPose(jp));
    auto axis = [&](unsigned k) -> Vec3 {
      const sdf::JointAxis* a = sj.Axis(k);
      if (!a) fail(el, "joint \"" + sj.Name() + "\" needs an <axis" + (k ? "2" : "") + "> element");
      ignition::math::Vector3d xyz = a->Xyz();
      if (sdf::Errors e = a->ResolveXyz(xyz, "__model__"); !e.empty()) fail(el, "libsdformat: " + e[0].Message());
      const Vec3 v = toVec(xyz);
      if (!(v.norm() > 1e-12)) fail(a->Element() ? a->Element() : el, "joint \"" + sj.Name() + "\": the axis is the zero vector");
      return modelPose.rotate(v.stableNormalized());
    };
    JointSpec j;
    j.name = scope + sj.Name();
    j.body1 = parent == "world" ? "world" : scope + parent;
    j.body2 = child == "world" ? "world" : scope + child;
    j.point = f.position;
    switch (sj.Type()) {
      case sdf::JointType::REVOLUTE:
      case sdf::JointType::CONTINUOUS:
      case sdf::JointType::PRISMATIC: {
        const bool slide = sj.Type() == sdf::JointType::PRISMATIC;
        j.type = slide ? JointType::Prismatic : JointType::Revolute;
        j.axis = axis(0);
        const sdf::JointAxis* a = sj.Axis(0);
        if (sj.Type() != sdf::JointType::CONTINUOUS && std::fabs(a->Lower()) < kUnlimited && std::fabs(a->Upper()) < kUnlimited) {
          if (a->Lower() > a->Upper())
            fail(a->Element() ? a->Element() : el, "joint \"" + sj.Name() + "\": the lower limit " + fmt(a->Lower()) +
                                                        " is above the upper limit " + fmt(a->Upper()));
          j.limits = std::make_pair(a->Lower(), a->Upper());
        }
        break;
      }
      case sdf::JointType::BALL: j.type = JointType::Spherical; break;
      case sdf::JointType::FIXED: j.type = JointType::Fixed; break;
      case sdf::JointType::UNIVERSAL:
      case sdf::JointType::REVOLUTE2: {
        j.type = JointType::Universal;
        j.axis1 = axis(0);
        j.axis2 = axis(1);
        if (std::fabs(j.axis1.dot(j.axis2)) > 1e-6)
          fail(el, "joint \"" + sj.Name() + "\": the two axes of a universal / revolute2 joint must be perpendicular for mechsim's universal joint");
        break;
      }
      case sdf::JointType::SCREW:
        fail(el, "joint \"" + sj.Name() + "\": screw joints are not supported (mechsim has no coupled rotation and slide)");
      case sdf::JointType::GEARBOX:
        // No joint of its own: a coupling between the two revolutes that hold the parent and the
        // child on the reference body, made once every joint is known (gearboxes()).
        gearboxes_.push_back({el, scope, parent == "world" ? "world" : scope + parent, child == "world" ? "world" : scope + child,
                              axis(0), axis(1)});
        return;
      default: fail(el, "joint \"" + sj.Name() + "\": unknown joint type");
    }
    if (j.body1 == j.body2) fail(el, "joint \"" + sj.Name() + "\" connects \"" + j.body1 + "\" to itself");
    const std::string path = "joints[" + std::to_string(spec_.joints.size()) + "]";
    spec_.locations[path] = loc(el);
    if (el && el->HasElement("axis")) spec_.locations[path + ".axis"] = spec_.locations[path + ".axis1"] = loc(el->GetElement("axis"));
    if (el && el->HasElement("pose")) spec_.locations[path + ".point"] = loc(el->GetElement("pose"));
    // <axis><mimic joint="LEADER"><multiplier>r</multiplier><offset>c</offset><reference>a0</reference>
    // (SDFormat 1.10): follower = r (LEADER − a0) + c, a coupling made once every joint is known.
    if (el && el->HasElement("axis")) {
      const sdf::ElementPtr ax = el->GetElement("axis");
      if (ax->HasElement("mimic")) mimics_.push_back({ax->GetElement("mimic"), j.name, scope});
    }
    spec_.joints.push_back(std::move(j));
  }

  struct Mimic {
    sdf::ElementPtr el;
    std::string follower, scope;
  };
  struct Gearbox {
    sdf::ElementPtr el;
    std::string scope, parent, child;
    Vec3 axis1, axis2;  // world axes of θ_1 (parent) and θ_2 (child)
  };
  std::vector<Mimic> mimics_;
  std::vector<Gearbox> gearboxes_;

  /// A number child element `name` of e (default `def` when absent); fails at it when unreadable.
  double childNumber(const sdf::ElementPtr& e, const char* name, double def) {
    if (!e->HasElement(name)) return def;
    const sdf::ElementPtr c = e->GetElement(name);
    const std::string text = c->GetValue() ? c->GetValue()->GetAsString() : std::string();
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end == text.c_str() || !std::isfinite(v)) fail(c, "<" + std::string(name) + ">: expected a number, got \"" + text + "\"");
    return v;
  }

  void mimics() {
    for (const Mimic& mi : mimics_) {
      const std::string leader = mi.el->HasAttribute("joint") ? mi.scope + mi.el->GetAttribute("joint")->GetAsString() : "";
      if (leader == mi.scope) fail(mi.el, "joint \"" + mi.follower + "\": <mimic> needs a joint=\"LEADER\" attribute");
      const double r = childNumber(mi.el, "multiplier", 1.0), c = childNumber(mi.el, "offset", 0.0),
                   a0 = childNumber(mi.el, "reference", 0.0);
      const std::string why = imp::addCoupling(spec_, loc(mi.el), mi.follower, mi.follower, leader, {c - r * a0, r, 0, 0, 0});
      if (!why.empty()) warn(mi.el, "joint \"" + mi.follower + "\": <mimic> left out (" + why + "); the joint moves independently");
    }
  }

  /// gearbox (SDFormat joint.sdf): θ_2 = −gearbox_ratio · θ_1, θ_1 the angle from
  /// gearbox_reference_body to the parent link about <axis>, θ_2 from it to the child link about
  /// <axis2>. Each is the coordinate of the revolute joint between the reference body and that
  /// link, times s = ±1: + when the joint's axis points along the gearbox axis and the joint goes
  /// from the reference body to the link, − for each of the two reversed. So the coupling is
  ///   coord(child joint) = −ratio · s_1 s_2 · coord(parent joint).
  void gearboxes() {
    for (const Gearbox& g : gearboxes_) {
      const std::string name = g.el->HasAttribute("name") ? g.scope + g.el->GetAttribute("name")->GetAsString() : g.scope;
      const double ratio = g.el->HasElement("gearbox_ratio") ? g.el->Get<double>("gearbox_ratio") : 1.0;
      std::string ref = g.el->HasElement("gearbox_reference_body") ? g.el->Get<std::string>("gearbox_reference_body") : "";
      if (ref.empty()) fail(g.el, "gearbox joint \"" + name + "\" needs a <gearbox_reference_body>");
      if (ref != "world") ref = g.scope + ref;
      // The revolute between ref and `link`, and its sign against the gearbox axis.
      auto find = [&](const std::string& link, const Vec3& axis, double& sign) -> const JointSpec* {
        for (const JointSpec& j : spec_.joints) {
          if (j.type != JointType::Revolute) continue;
          const bool forward = j.body1 == ref && j.body2 == link, backward = j.body1 == link && j.body2 == ref;
          if (!forward && !backward) continue;
          const double along = j.axis.dot(axis);
          if (std::abs(std::abs(along) - 1) > 1e-6) continue;
          sign = (along > 0 ? 1.0 : -1.0) * (forward ? 1.0 : -1.0);
          return &j;
        }
        return nullptr;
      };
      double s1 = 1, s2 = 1;
      const JointSpec* j1 = find(g.parent, g.axis1, s1);
      const JointSpec* j2 = find(g.child, g.axis2, s2);
      std::string why;
      if (!j1 || !j2)
        why = "no revolute joint about its " + std::string(!j1 ? "<axis>" : "<axis2>") + " holds link \"" + (!j1 ? g.parent : g.child) +
              "\" on the reference body \"" + ref + "\"";
      else
        why = imp::addCoupling(spec_, loc(g.el), name, j2->name, j1->name, {0, -ratio * s1 * s2, 0, 0, 0});
      if (!why.empty()) warn(g.el, "gearbox joint \"" + name + "\" left out (" + why + ")");
    }
  }
};

}  // namespace

MechanismSpec parseSdf(std::string_view text, const std::string& fileName, const std::string& baseDir) {
  return SdfImporter(text, fileName, baseDir).run();
}

}  // namespace mechsim::io
