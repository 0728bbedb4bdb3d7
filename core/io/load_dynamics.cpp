// core/io/load_dynamics.cpp — the "dynamics" section of the native format:
//   "dynamics": {
//     "springs":           [{name, body1, point1, body2, point2, stiffness, damping, length}],
//     "jointSprings":      [{name, joint, coordinate, stiffness, damping, rest}],
//     "motors":            [{name, joint, coordinate, effort} | {name, joint, coordinate, servo, kp, kd, maxEffort}],
//     "initialVelocities": [{joint, coordinate, value}],
//     "solver":            {timestep, weights, reduction, tolerance, maxIterations}
//   }
// Points and lengths are in the file's length unit, joint-spring rest positions and initial joint
// rates in the file's angle / length unit (per second), forces, torques, stiffnesses, dampings and
// gains always SI. Every error names FILE:LINE:COL and the value's path, unknown keys get a
// did-you-mean hint, as in load.cpp. Names of bodies, joints and drivers are checked here too
// (with hints); compile_dynamics.cpp checks the rest of the meaning.
#include "core/io/load_dynamics.h"

#include <set>
#include <string>
#include <utility>

#include "core/io/expressions.h"
#include "core/io/json_section.h"
#include "core/io/load.h"
#include "core/io/suggest.h"

namespace mechsim::io {
namespace {

using json::Kind;
using json::Value;

class DynamicsReader : JsonSection {
 public:
  DynamicsReader(MechanismSpec& spec, std::string file, double L, double A)
      : JsonSection(spec, std::move(file)), L_(L), A_(A) {}

  void section(const Value& v) {
    const std::string path = "dynamics";
    record(path, v);
    expectKind(v, path, Kind::Object, "an object {\"springs\": [...], \"motors\": [...], ...}");
    checkKeys(v, path, {"springs", "jointSprings", "motors", "initialVelocities", "solver"}, "the dynamics section");
    DynamicsSpec& ds = spec_.dynamics;
    ds.present = true;
    if (const Value* a = opt(v, path, "springs")) list(*a, child(path, "springs"), [&](const Value& x, const std::string& p) { spring(x, p); });
    if (const Value* a = opt(v, path, "jointSprings"))
      list(*a, child(path, "jointSprings"), [&](const Value& x, const std::string& p) { jointSpring(x, p); });
    if (const Value* a = opt(v, path, "motors")) list(*a, child(path, "motors"), [&](const Value& x, const std::string& p) { motor(x, p); });
    if (const Value* a = opt(v, path, "initialVelocities"))
      list(*a, child(path, "initialVelocities"), [&](const Value& x, const std::string& p) { initialRate(x, p); });
    if (const Value* s = opt(v, path, "solver")) solver(*s, child(path, "solver"));
  }

 private:
  double L_, A_;
  // Lookups in what was read so far, hashed, so that each costs O(1) (json_section.h, NameIndex).
  NameIndex driverNames_;
  std::set<std::pair<std::string, int>> motorCoords_, rateCoords_;  // (joint, coordinate)

  /// Checks that `a` is an array of objects and calls f(item, path) for each, recording each.
  template <class F>
  void list(const Value& a, const std::string& path, F&& f) {
    items(a, path, "an array", [&](const Value& x, const std::string& p) {
      record(p, x);
      expectKind(x, p, Kind::Object, "an object");
      f(x, p);
    });
  }
  double nonNegative(const Value& v, const std::string& path, const char* what) const {
    const double x = number(v, path);
    if (x < 0) fail(v, path, std::string(what) + " must not be negative");
    return x;
  }
  Vec3 point(const Value& v, const std::string& path) const {
    return vec3(v, path, L_, "expected an array of 3 numbers [x, y, z]");
  }
  /// Joint by name and coordinate index (key "coordinate", default 0); returns the joint.
  const JointSpec& coordinateRef(const Value& obj, const std::string& path, std::string& jointName, int& coordinate) {
    const Value& jv = req(obj, path, "joint", "a joint's name");
    jointName = name(jv, child(path, "joint"));
    const JointSpec& joint = jointRef(jointName, jv, child(path, "joint"));
    const int n = jointCoordinateCount(joint.type);
    if (n == 0) fail(jv, child(path, "joint"), "joint \"" + jointName + "\" is a fixed joint: it has no coordinate");
    coordinate = 0;
    if (const Value* c = opt(obj, path, "coordinate"))
      coordinate = integer(*c, child(path, "coordinate"), 0, n - 1,
                           "expected a coordinate index from 0 to " + std::to_string(n - 1));
    return joint;
  }
  double coordScale(const JointSpec& j, int k) const { return coordinateIsAngle(j.type, k) ? A_ : L_; }

  void spring(const Value& v, const std::string& path) {
    checkKeys(v, path, {"name", "body1", "point1", "body2", "point2", "stiffness", "damping", "length"}, "a spring");
    SpringSpec s;
    if (const Value* n = opt(v, path, "name")) s.name = name(*n, child(path, "name"));
    const Value& b1 = req(v, path, "body1", "the first body's name");
    s.body1 = name(b1, child(path, "body1"));
    bodyRef(s.body1, b1, child(path, "body1"));
    const Value& b2 = req(v, path, "body2", "the second body's name");
    s.body2 = name(b2, child(path, "body2"));
    bodyRef(s.body2, b2, child(path, "body2"));
    if (s.body1 == s.body2) fail(b2, child(path, "body2"), "a spring needs two different bodies");
    s.point1 = point(req(v, path, "point1", "a world point on body1"), child(path, "point1"));
    s.point2 = point(req(v, path, "point2", "a world point on body2"), child(path, "point2"));
    s.stiffness = nonNegative(req(v, path, "stiffness", "N/m"), child(path, "stiffness"), "stiffness");
    if (const Value* x = opt(v, path, "damping")) s.damping = nonNegative(*x, child(path, "damping"), "damping");
    if (const Value* x = opt(v, path, "length")) s.length = nonNegative(*x, child(path, "length"), "a length") * L_;
    spec_.dynamics.springs.push_back(std::move(s));
  }

  void jointSpring(const Value& v, const std::string& path) {
    checkKeys(v, path, {"name", "joint", "coordinate", "stiffness", "damping", "rest"}, "a joint spring");
    JointSpringSpec s;
    if (const Value* n = opt(v, path, "name")) s.name = name(*n, child(path, "name"));
    const JointSpec& j = coordinateRef(v, path, s.joint, s.coordinate);
    s.stiffness = nonNegative(req(v, path, "stiffness", "N·m/rad or N/m"), child(path, "stiffness"), "stiffness");
    if (const Value* x = opt(v, path, "damping")) s.damping = nonNegative(*x, child(path, "damping"), "damping");
    if (const Value* x = opt(v, path, "rest")) s.rest = number(*x, child(path, "rest")) * coordScale(j, s.coordinate);
    spec_.dynamics.jointSprings.push_back(std::move(s));
  }

  void motor(const Value& v, const std::string& path) {
    checkKeys(v, path, {"name", "joint", "coordinate", "effort", "servo", "kp", "kd", "maxEffort"}, "a motor");
    MotorSpec s;
    if (const Value* n = opt(v, path, "name")) s.name = name(*n, child(path, "name"));
    coordinateRef(v, path, s.joint, s.coordinate);
    if (!motorCoords_.emplace(s.joint, s.coordinate).second)
      fail(*v.find("joint"), child(path, "joint"), "coordinate " + std::to_string(s.coordinate) + " of joint \"" + s.joint + "\" already has a motor");
    const Value* e = opt(v, path, "effort");
    const Value* sv = opt(v, path, "servo");
    if (!e && !sv) fail(v, path, "a motor needs \"effort\" (an expression of t) or \"servo\" (a driver's name)");
    if (e && sv) fail(*sv, child(path, "servo"), "give either \"effort\" or \"servo\", not both");
    if (e) {
      if (e->kind == Kind::Number)
        fail(*e, child(path, "effort"), "expected an expression string, got a number (write it in quotes, e.g. \"0.033\")");
      expectKind(*e, child(path, "effort"), Kind::String, "an expression of t");
      s.effort = e->string;
      try {
        compileExpression(s.effort, 1.0, &spec_.parameters);
      } catch (const ExpressionError& err) {
        fail(*e, child(path, "effort"), expressionErrorMessage(s.effort, err));
      }
      for (const char* k : {"kp", "kd", "maxEffort"})
        if (const Value* x = v.find(k)) fail(*x, child(path, k), std::string("\"") + k + "\" belongs to a servo motor (one with \"servo\")");
    } else {
      s.servo = name(*sv, child(path, "servo"));
      const DriverSpec* drv = driverNames_.find(spec_.drivers, s.servo);
      if (!drv) {
        std::vector<std::string> names;
        for (const DriverSpec& d : spec_.drivers) names.push_back(d.name);
        fail(*sv, child(path, "servo"), "unknown driver \"" + s.servo + "\"" + didYouMean(s.servo, names));
      }
      if (drv->joint != s.joint || drv->coordinate != s.coordinate)
        fail(*sv, child(path, "servo"), "driver \"" + s.servo + "\" drives joint \"" + drv->joint + "\" coordinate " +
                                            std::to_string(drv->coordinate) + ", not this motor's coordinate");
      if (const Value* x = opt(v, path, "kp")) s.kp = nonNegative(*x, child(path, "kp"), "a gain");
      if (const Value* x = opt(v, path, "kd")) s.kd = nonNegative(*x, child(path, "kd"), "a gain");
      if (!(s.kp > 0 || s.kd > 0)) fail(v, path, "a servo needs a positive \"kp\" or \"kd\"");
      if (const Value* x = opt(v, path, "maxEffort")) {
        const double m = number(*x, child(path, "maxEffort"));
        if (!(m > 0)) fail(*x, child(path, "maxEffort"), "maxEffort must be positive");
        s.maxEffort = m;
      }
    }
    spec_.dynamics.motors.push_back(std::move(s));
  }

  void initialRate(const Value& v, const std::string& path) {
    checkKeys(v, path, {"joint", "coordinate", "value"}, "an initial velocity");
    InitialRateSpec s;
    const JointSpec& j = coordinateRef(v, path, s.joint, s.coordinate);
    if (!rateCoords_.emplace(s.joint, s.coordinate).second)
      fail(*v.find("joint"), child(path, "joint"), "this coordinate already has an initial velocity");
    s.value = number(req(v, path, "value", "the coordinate's rate per second"), child(path, "value")) * coordScale(j, s.coordinate);
    spec_.dynamics.initialRates.push_back(std::move(s));
  }

  void solver(const Value& v, const std::string& path) {
    expectKind(v, path, Kind::Object, "an object");
    checkKeys(v, path, {"timestep", "weights", "reduction", "tolerance", "maxIterations"}, "the dynamics solver settings");
    DynamicsSolverSpec& s = spec_.dynamics.solver;
    if (const Value* x = opt(v, path, "timestep")) {
      s.timestep = number(*x, child(path, "timestep"));
      if (!(*s.timestep > 0)) fail(*x, child(path, "timestep"), "the time step must be positive");
    }
    if (const Value* x = opt(v, path, "weights")) {
      expectKind(*x, child(path, "weights"), Kind::String, "\"mass\" or \"identity\"");
      if (x->string != "mass" && x->string != "identity")
        fail(*x, child(path, "weights"), "expected \"mass\" or \"identity\", got \"" + x->string + "\"");
      s.weights = x->string;
    }
    if (const Value* x = opt(v, path, "reduction")) {
      s.reduction = number(*x, child(path, "reduction"));
      if (!(*s.reduction > 0 && *s.reduction < 1)) fail(*x, child(path, "reduction"), "expected a factor between 0 and 1 (exclusive)");
    }
    if (const Value* x = opt(v, path, "tolerance")) {
      s.tolerance = number(*x, child(path, "tolerance"));
      if (!(*s.tolerance > 0 && *s.tolerance < 1)) fail(*x, child(path, "tolerance"), "expected a tolerance between 0 and 1 (exclusive)");
    }
    if (const Value* x = opt(v, path, "maxIterations")) s.maxIterations = integer(*x, child(path, "maxIterations"), 1, 100000);
  }
};

}  // namespace

void readDynamicsSection(const json::Value& v, MechanismSpec& spec, const std::string& file, double lengthScale,
                         double angleScale) {
  DynamicsReader(spec, file, lengthScale, angleScale).section(v);
}

nlohmann::ordered_json dynamicsSectionJson(const MechanismSpec& spec) {
  using Json = nlohmann::ordered_json;
  const DynamicsSpec& ds = spec.dynamics;
  const double L = spec.units.lengthScale(), A = spec.units.angleScale();
  auto vec = [&](const Vec3& v) { return Json::array({v.x() / L, v.y() / L, v.z() / L}); };
  auto scaleOf = [&](const std::string& joint, int k) {
    for (const JointSpec& j : spec.joints)
      if (j.name == joint) return coordinateIsAngle(j.type, k) ? A : L;
    return 1.0;
  };
  Json out = Json::object();
  if (!ds.springs.empty()) {
    out["springs"] = Json::array();
    for (const SpringSpec& s : ds.springs) {
      Json j;
      if (!s.name.empty()) j["name"] = s.name;
      j["body1"] = s.body1;
      j["point1"] = vec(s.point1);
      j["body2"] = s.body2;
      j["point2"] = vec(s.point2);
      j["stiffness"] = s.stiffness;
      if (s.damping != 0) j["damping"] = s.damping;
      if (s.length) j["length"] = *s.length / L;
      out["springs"].push_back(j);
    }
  }
  if (!ds.jointSprings.empty()) {
    out["jointSprings"] = Json::array();
    for (const JointSpringSpec& s : ds.jointSprings) {
      Json j;
      if (!s.name.empty()) j["name"] = s.name;
      j["joint"] = s.joint;
      if (s.coordinate != 0) j["coordinate"] = s.coordinate;
      j["stiffness"] = s.stiffness;
      if (s.damping != 0) j["damping"] = s.damping;
      if (s.rest != 0) j["rest"] = s.rest / scaleOf(s.joint, s.coordinate);
      out["jointSprings"].push_back(j);
    }
  }
  if (!ds.motors.empty()) {
    out["motors"] = Json::array();
    for (const MotorSpec& s : ds.motors) {
      Json j;
      if (!s.name.empty()) j["name"] = s.name;
      j["joint"] = s.joint;
      if (s.coordinate != 0) j["coordinate"] = s.coordinate;
      if (!s.effort.empty()) {
        j["effort"] = s.effort;
      } else {
        j["servo"] = s.servo;
        if (s.kp != 0) j["kp"] = s.kp;
        if (s.kd != 0) j["kd"] = s.kd;
        if (s.maxEffort) j["maxEffort"] = *s.maxEffort;
      }
      out["motors"].push_back(j);
    }
  }
  if (!ds.initialRates.empty()) {
    out["initialVelocities"] = Json::array();
    for (const InitialRateSpec& s : ds.initialRates) {
      Json j;
      j["joint"] = s.joint;
      if (s.coordinate != 0) j["coordinate"] = s.coordinate;
      j["value"] = s.value / scaleOf(s.joint, s.coordinate);
      out["initialVelocities"].push_back(j);
    }
  }
  const DynamicsSolverSpec& so = ds.solver;
  if (so.timestep || so.weights || so.reduction || so.tolerance || so.maxIterations) {
    Json j = Json::object();
    if (so.timestep) j["timestep"] = *so.timestep;
    if (so.weights) j["weights"] = *so.weights;
    if (so.reduction) j["reduction"] = *so.reduction;
    if (so.tolerance) j["tolerance"] = *so.tolerance;
    if (so.maxIterations) j["maxIterations"] = *so.maxIterations;
    out["solver"] = j;
  }
  return out;
}

std::vector<std::function<double(double)>> motorEffortFunctions(const MechanismSpec& spec) {
  std::vector<std::function<double(double)>> out(spec.dynamics.motors.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const std::string& expression = spec.dynamics.motors[i].effort;
    if (expression.empty()) continue;
    try {
      out[i] = compileExpression(expression, 1.0, &spec.parameters);
    } catch (const ExpressionError& e) {
      const std::string path = "dynamics.motors[" + std::to_string(i) + "].effort";
      const SourceLoc loc = spec.locate(path);
      throw LoadError(Diagnostic{spec.sourceFile, loc.line, loc.col, path + ": " + expressionErrorMessage(expression, e)});
    }
  }
  return out;
}

void attachMotorFunctions(const MechanismSpec& spec, Model& m) {
  std::vector<std::function<double(double)>> fns = motorEffortFunctions(spec);
  for (size_t i = 0; i < m.motors.size() && i < fns.size(); ++i)
    if (!m.motors[i].expression.empty()) m.motors[i].effort = std::move(fns[i]);
}

}  // namespace mechsim::io
