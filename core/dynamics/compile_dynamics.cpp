// core/dynamics/compile_dynamics.cpp — the "dynamics" section of a spec → Model (part of compile()).
//
// Resolves the names of springs, joint springs, motors and initial rates, converts the world
// attachment points of springs into body frames (like joints, compile.cpp step 2), and checks every
// number: stiffness and damping ≥ 0, servo gains ≥ 0, finite efforts, a servo's driver existing,
// one motor per coordinate, solver settings in range. Failures are SpecErrors naming the value's
// path ("dynamics.springs[2].body1"), which core/io turns into FILE:LINE:COL.
#include <cmath>
#include <set>

#include "core/compile.h"
#include "core/tolerances.h"

namespace mechsim {
namespace {

std::string at(const char* list, size_t i, const char* key = nullptr) {
  std::string p = std::string("dynamics.") + list + "[" + std::to_string(i) + "]";
  if (key) p += std::string(".") + key;
  return p;
}

void nonNegative(double v, const std::string& path, const char* what) {
  if (!std::isfinite(v) || v < 0) throw SpecError(path, std::string("expected a ") + what + " ≥ 0");
}

/// Joint index and a valid coordinate of it, or SpecError.
int jointCoordinate(const Model& m, const std::string& joint, int coordinate, const std::string& path) {
  const int j = m.findJoint(joint);
  if (j < 0) throw SpecError(path + ".joint", "unknown joint '" + joint + "'");
  const Joint& jt = m.joints[j];
  if (jt.nCoords == 0) throw SpecError(path + ".joint", "joint '" + joint + "' (" + toString(jt.type) + ") has no coordinate");
  if (coordinate < 0 || coordinate >= jt.nCoords)
    throw SpecError(path + ".coordinate", "expected a coordinate index from 0 to " + std::to_string(jt.nCoords - 1));
  return j;
}

}  // namespace

/// Compiles spec.dynamics into m (called by compile() after joints and drivers are laid out).
void compileDynamics(const MechanismSpec& spec, Model& m) {
  const DynamicsSpec& ds = spec.dynamics;
  std::set<std::string> names;
  for (size_t i = 0; i < ds.springs.size(); ++i) {
    const SpringSpec& s = ds.springs[i];
    Spring out;
    out.name = s.name;
    if (!s.name.empty() && !names.insert(s.name).second) throw SpecError(at("springs", i, "name"), "duplicate name '" + s.name + "'");
    out.body1 = m.findBody(s.body1);
    if (out.body1 < 0) throw SpecError(at("springs", i, "body1"), "unknown body '" + s.body1 + "'");
    out.body2 = m.findBody(s.body2);
    if (out.body2 < 0) throw SpecError(at("springs", i, "body2"), "unknown body '" + s.body2 + "'");
    if (out.body1 == out.body2) throw SpecError(at("springs", i, "body2"), "a spring needs two different bodies");
    if (!s.point1.allFinite()) throw SpecError(at("springs", i, "point1"), "expected finite numbers");
    if (!s.point2.allFinite()) throw SpecError(at("springs", i, "point2"), "expected finite numbers");
    nonNegative(s.stiffness, at("springs", i, "stiffness"), "stiffness");
    nonNegative(s.damping, at("springs", i, "damping"), "damping");
    const Pose& P1 = m.bodies[out.body1].pose0;
    const Pose& P2 = m.bodies[out.body2].pose0;
    out.local1 = P1.orientation.conjugate() * (s.point1 - P1.position);
    out.local2 = P2.orientation.conjugate() * (s.point2 - P2.position);
    out.stiffness = s.stiffness;
    out.damping = s.damping;
    out.restLength = s.length ? *s.length : (s.point2 - s.point1).norm();
    if (!std::isfinite(out.restLength) || out.restLength < 0) throw SpecError(at("springs", i, "length"), "expected a length ≥ 0");
    m.springs.push_back(std::move(out));
  }
  for (size_t i = 0; i < ds.jointSprings.size(); ++i) {
    const JointSpringSpec& s = ds.jointSprings[i];
    JointSpring out;
    out.name = s.name;
    out.joint = jointCoordinate(m, s.joint, s.coordinate, at("jointSprings", i));
    out.coordinate = s.coordinate;
    nonNegative(s.stiffness, at("jointSprings", i, "stiffness"), "stiffness");
    nonNegative(s.damping, at("jointSprings", i, "damping"), "damping");
    if (!std::isfinite(s.rest)) throw SpecError(at("jointSprings", i, "rest"), "expected a finite number");
    out.stiffness = s.stiffness;
    out.damping = s.damping;
    out.rest = s.rest;
    m.jointSprings.push_back(std::move(out));
  }
  std::set<std::pair<int, int>> actuated;
  for (size_t i = 0; i < ds.motors.size(); ++i) {
    const MotorSpec& s = ds.motors[i];
    Motor out;
    out.name = s.name;
    out.joint = jointCoordinate(m, s.joint, s.coordinate, at("motors", i));
    out.coordinate = s.coordinate;
    if (!actuated.insert({out.joint, out.coordinate}).second)
      throw SpecError(at("motors", i, "joint"), "coordinate " + std::to_string(s.coordinate) + " of joint '" + s.joint + "' already has a motor");
    if (s.servo.empty() == s.effort.empty())
      throw SpecError(at("motors", i), "give exactly one of \"effort\" (an expression of t) or \"servo\" (a driver's name)");
    out.expression = s.effort;
    out.effort = [](double) { return 0.0; };  // core/io replaces it by the compiled expression
    if (!s.servo.empty()) {
      for (int d = 0; d < static_cast<int>(m.drivers.size()); ++d)
        if (m.drivers[d].name == s.servo) out.driver = d;
      if (out.driver < 0) throw SpecError(at("motors", i, "servo"), "unknown driver '" + s.servo + "'");
      const Driver& drv = m.drivers[out.driver];
      if (drv.joint != out.joint || drv.coordinate != out.coordinate)
        throw SpecError(at("motors", i, "servo"), "driver '" + s.servo + "' drives another coordinate than the motor's");
      nonNegative(s.kp, at("motors", i, "kp"), "gain");
      nonNegative(s.kd, at("motors", i, "kd"), "gain");
      if (!(s.kp > 0 || s.kd > 0)) throw SpecError(at("motors", i, "kp"), "a servo needs kp > 0 or kd > 0");
      out.kp = s.kp;
      out.kd = s.kd;
      if (s.maxEffort) {
        if (!(*s.maxEffort > 0) || !std::isfinite(*s.maxEffort)) throw SpecError(at("motors", i, "maxEffort"), "expected a positive effort");
        out.maxEffort = *s.maxEffort;
      }
    }
    m.motors.push_back(std::move(out));
  }
  std::set<std::pair<int, int>> rated;
  for (size_t i = 0; i < ds.initialRates.size(); ++i) {
    const InitialRateSpec& s = ds.initialRates[i];
    InitialRate out;
    out.joint = jointCoordinate(m, s.joint, s.coordinate, at("initialVelocities", i));
    out.coordinate = s.coordinate;
    if (!rated.insert({out.joint, out.coordinate}).second)
      throw SpecError(at("initialVelocities", i, "joint"), "this coordinate already has an initial velocity");
    if (!std::isfinite(s.value)) throw SpecError(at("initialVelocities", i, "value"), "expected a finite number");
    out.value = s.value;
    m.initialRates.push_back(out);
  }
  const DynamicsSolverSpec& so = ds.solver;
  DynamicsOptions& o = m.dynamics;
  if (so.timestep) {
    if (!(*so.timestep > 0) || !std::isfinite(*so.timestep)) throw SpecError("dynamics.solver.timestep", "expected a positive time step");
    o.timestep = *so.timestep;
  }
  if (so.weights) {
    if (*so.weights == "mass") o.weights = ConstraintWeights::Mass;
    else if (*so.weights == "identity") o.weights = ConstraintWeights::Identity;
    else throw SpecError("dynamics.solver.weights", "expected \"mass\" or \"identity\"");
  }
  if (so.reduction) {
    if (!(*so.reduction > 0 && *so.reduction < 1)) throw SpecError("dynamics.solver.reduction", "expected a factor 0 < f < 1");
    o.reduction = *so.reduction;
  }
  if (so.tolerance) {
    if (!(*so.tolerance > 0 && *so.tolerance < 1)) throw SpecError("dynamics.solver.tolerance", "expected 0 < tolerance < 1");
    o.tolerance = *so.tolerance;
  }
  if (so.maxIterations) {
    if (*so.maxIterations < 1 || *so.maxIterations > 100000) throw SpecError("dynamics.solver.maxIterations", "expected 1 to 100000");
    o.maxIterations = *so.maxIterations;
  }
}

}  // namespace mechsim
