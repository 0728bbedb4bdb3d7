// core/io/load_model.cpp — from a file or a spec to a compiled Model: the driver expressions
// become functions (expressions.cpp), compile(spec) builds the model (core/compile.cpp), and the
// compiler's SpecError(path, message) becomes a located Diagnostic "FILE:LINE:COL: error: PATH: MESSAGE".
#include "core/compile.h"
#include "core/io/load.h"

namespace mechsim::io {

Model compileSpec(const MechanismSpec& spec) {
  auto functions = driverFunctions(spec);  // throws LoadError itself
  try {
    return compile(spec, functions);
  } catch (const SpecError& e) {
    const SourceLoc loc = spec.locate(e.path());
    throw LoadError(Diagnostic{spec.sourceFile, loc.line, loc.col,
                               e.path().empty() ? std::string(e.what()) : e.path() + ": " + e.what()});
  }
}

Model loadModel(const std::string& path) { return compileSpec(readMechanismFile(path)); }

}  // namespace mechsim::io
