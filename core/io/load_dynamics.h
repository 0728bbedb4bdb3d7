#pragma once
// core/io/load_dynamics.h — the "dynamics" section of the native format (docs/format.md,
// "Dynamics"): reading it into MechanismSpec::dynamics, writing it back, and the motors' effort
// expressions as functions (internal to core/io: load.cpp, write.cpp and load_model.cpp call it).
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/io/json_value.h"
#include "core/model.h"
#include "core/spec.h"

namespace mechsim::io {

/// Reads the section `v` (located at "dynamics") into spec.dynamics, recording every value's
/// location. Bodies, joints and drivers must already be in spec (they are read first).
/// lengthScale / angleScale convert the file's units to SI. Throws LoadError (FILE:LINE:COL).
void readDynamicsSection(const json::Value& v, MechanismSpec& spec, const std::string& file, double lengthScale,
                         double angleScale);

/// The section as JSON in the spec's units (empty object when there is nothing to write).
nlohmann::ordered_json dynamicsSectionJson(const MechanismSpec& spec);

/// Compiles the effort expressions of m's motors (muparser) into Motor::effort. Throws LoadError
/// pointing at the expression when one fails (the reader has checked them already).
void attachMotorFunctions(const MechanismSpec& spec, Model& m);
/// Fresh evaluators of spec's motor efforts, one per motor (empty for a servo): sim::EffortFactory
/// (io::engineOptions). Throws LoadError as attachMotorFunctions.
std::vector<std::function<double(double)>> motorEffortFunctions(const MechanismSpec& spec);

}  // namespace mechsim::io
