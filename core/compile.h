#pragma once
// core/compile.h — turns a MechanismSpec into a Model (MuJoCo's user → model step).
#include <stdexcept>
#include <string>

#include "core/model.h"
#include "core/spec.h"

namespace mechsim {

/// A spec that cannot be compiled: the path of the offending value ("joints[3].body1") and what
/// was expected. core/io turns it into FILE:LINE:COL using MechanismSpec::locations.
class SpecError : public std::runtime_error {
 public:
  SpecError(std::string path, const std::string& message)
      : std::runtime_error(message), path_(std::move(path)) {}
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Compile: resolve names, build joint frames from the world-coordinate geometry, derive mass
/// and inertia from shapes and density when omitted, lay out q and Φ. Throws SpecError.
/// Drivers' `value` functions are taken from `driverFunctions` when given (core/io builds them
/// from the expressions with muparser); a spec compiled without them gets drivers that hold the
/// coordinate at zero.
/// The "dynamics" part of compile() (core/dynamics/compile_dynamics.cpp): resolves spec.dynamics
/// into m.springs, m.jointSprings, m.motors (effort functions return 0 until core/io sets them),
/// m.initialRates and m.dynamics. Needs m's bodies, joints and drivers. Throws SpecError.
void compileDynamics(const MechanismSpec& spec, Model& m);
/// The "contact" part of compile() (core/collision/compile_contact.cpp): spec.contact → m.contact
/// (exclusions by body index; plane shapes only on fixed bodies). Throws SpecError.
void compileContact(const MechanismSpec& spec, Model& m);

Model compile(const MechanismSpec& spec,
              const std::vector<std::function<double(double)>>& driverFunctions = {});

}  // namespace mechsim
