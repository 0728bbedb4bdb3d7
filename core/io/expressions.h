#pragma once
// core/io/expressions.h — driver expressions of t (muparser), used by load.cpp and driverFunctions.
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/spec.h"

namespace mechsim::io {

/// An expression muparser rejects; `position` is the 0-based character offset it names (or −1).
class ExpressionError : public std::runtime_error {
 public:
  ExpressionError(const std::string& message, int position) : std::runtime_error(message), position_(position) {}
  int position() const { return position_; }

 private:
  int position_;
};

/// Compiles `expression` (variable t in seconds; functions sin cos tan asin acos atan atan2 sqrt
/// exp log abs min max; constant pi) into a function returning `scale` × its value. The function
/// owns its parser and may be copied; copies share the parser, so call them from one thread at a
/// time. A non-finite result is returned as NaN. Throws ExpressionError when the expression does
/// not parse, names an unknown variable or function, or yields more than one value.
/// The message for a driver whose expression failed: "invalid expression \"EXPR\": WHY", with a
/// reminder of the names an expression may use when muparser met an unknown one.
std::string expressionErrorMessage(const std::string& expression, const ExpressionError& e);

/// `parameters` (may be null): the file's parameters, constants of the expression by name in the
/// file's units (core/io/parameters.h). Only those the expression names are given to the parser,
/// so an expression costs the same among 10 parameters or 10^5.
std::function<double(double)> compileExpression(const std::string& expression, double scale = 1.0,
                                                const std::vector<ParameterSpec>* parameters = nullptr);

/// The parameter called `name` in `parameters` (the first, if several are), or nullptr. A long list
/// is looked up in a hash of its names, kept per thread for the last list asked about and checked
/// on every hit (a list changed since is hashed again), so that a file's expressions cost O(1)
/// per name whatever the number of parameters.
const ParameterSpec* findParameter(const std::vector<ParameterSpec>& parameters, const std::string& name);

/// Whether coordinate `k` of a joint of type `t` is an angle (true) or a length (false):
/// revolute 0 angle; prismatic 0 length; cylindrical 0 angle, 1 slide; spherical and universal
/// angles; planar 0, 1 slides and 2 angle; distance length.
bool coordinateIsAngle(JointType t, int k);

}  // namespace mechsim::io
