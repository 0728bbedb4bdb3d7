#pragma once
// core/io/parameters.h — the native format's "parameters" section (docs/format.md, "Parameters"):
// named numbers with a unit kind, written
//
//   "parameters": {"L1": {"value": 0.1, "unit": "length"}, "L2": "=2*L1", "omega": {"value": 360, "unit": "angle"}}
//
// (a plain number or "=EXPR" is a parameter of unit "none"), used as "=EXPR" in any number field
// ("point": ["=L1", 0, 0]) and by name in driver and effort expressions ("value": "omega * t").
// Values are in the file's units of their kind; a field's "=EXPR" is a number in the field's own
// file units, as if written there. An unknown name, a cycle or an invalid expression is a
// FILE:LINE:COL error at the expression.
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/io/json_value.h"
#include "core/spec.h"

namespace mechsim::io {

/// New values of parameters by name (the file's units), for a study's run: each replaces the
/// parameter's value and expression before the rest of the file is read.
using ParameterOverrides = std::map<std::string, double>;

/// Reads the section `v` into spec.parameters in file order, every expression resolved in
/// dependency order; `overrides` (may be null) replace values first. Throws LoadError.
void readParametersSection(const json::Value& v, MechanismSpec& spec, const std::string& file,
                           const ParameterOverrides* overrides);

/// The value of EXPR (no leading "=") with the spec's parameters; throws std::invalid_argument with
/// the message a reader reports ("unknown parameter \"L9\" (did you mean \"L1\"?)", muparser's).
double evaluateParameterExpression(const std::string& expression, const std::vector<ParameterSpec>& parameters);

/// The names EXPR uses that are not functions, t or pi (in order, once each).
std::vector<std::string> expressionNames(const std::string& expression);

/// The section as the writer writes it ({} when there are no parameters).
nlohmann::ordered_json parametersSectionJson(const MechanismSpec& spec);

/// Puts "=EXPR" back into a written document at every field spec.parameterFields names whose
/// written number still equals EXPR's value (relative 1e-12; a value changed since, by a study or
/// the GUI, stays the number).
void restoreParameterFields(const MechanismSpec& spec, nlohmann::ordered_json& doc);

/// `spec` read again with the parameters `values` (the file's units) in place of its own: the spec
/// is written (every field that used a parameter as "=EXPR" again), then parsed with the values as
/// overrides, so that every field and expression that uses them — directly or through other
/// parameters — follows, as if the file had been opened with them. Relative mesh paths resolve
/// against spec.sourceFile's folder; meshes still held are not read again (io::loadMeshFile).
/// Throws LoadError (an unknown name, a value that makes a field invalid).
MechanismSpec specWithParameters(const MechanismSpec& spec, const ParameterOverrides& values);

}  // namespace mechsim::io
