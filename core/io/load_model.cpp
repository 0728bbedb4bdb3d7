// core/io/load_model.cpp — from a file or a spec to a compiled Model: the driver expressions
// become functions (expressions.cpp), compile(spec) builds the model (core/compile.cpp), and the
// compiler's SpecError(path, message) becomes a located Diagnostic "FILE:LINE:COL: error: PATH: MESSAGE".
#include "core/compile.h"
#include "core/io/load.h"
#include "core/io/load_dynamics.h"
#include "core/io/pose_limits.h"

#include <iostream>

namespace mechsim::io {

Model compileSpec(const MechanismSpec& spec) {
  auto functions = driverFunctions(spec);  // throws LoadError itself
  try {
    Model m = compile(spec, functions);
    attachMotorFunctions(spec, m);  // motors' effort expressions (load_dynamics.cpp)
    return m;
  } catch (const SpecError& e) {
    const SourceLoc loc = spec.locate(e.path());
    // In the file the value came from: the native file, or the robot it imports (load_import.h).
    throw LoadError(Diagnostic{spec.fileOf(e.path()), loc.line, loc.col,
                               e.path().empty() ? std::string(e.what()) : e.path() + ": " + e.what()});
  }
}

Model loadModel(const std::string& path) {
  MechanismSpec spec = readMechanismFile(path);
  for (const std::string& w : spec.warnings) std::cerr << w << '\n';
  Model m = compileSpec(spec);
  // A starting pose outside a joint's limits (core/io/pose_limits.h).
  for (const std::string& w : poseLimitWarnings(spec, m)) std::cerr << w << '\n';
  return m;
}

Model loadModel(const std::string& path, std::vector<std::string>* warnings) {
  // readMechanismFile dispatches on the file type (native JSON or an imported format).
  MechanismSpec spec = readMechanismFile(path);
  if (warnings) *warnings = spec.warnings;
  Model m = compileSpec(spec);
  if (warnings)
    for (std::string& w : poseLimitWarnings(spec, m)) warnings->push_back(std::move(w));
  return m;
}

}  // namespace mechsim::io
