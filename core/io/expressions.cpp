// core/io/expressions.cpp — driver expressions with muparser.
//
// muparser 2.3 already defines sin cos tan asin acos atan atan2 sqrt exp abs min max (and more:
// sinh, log2, log10, ln, sum, avg, ...), but spells the constant π "_pi" and its "log" is the
// natural logarithm only from 2.3 on. The functions FORMAT.md §1 promises are (re)defined here
// when the library lacks them, so the documented set holds whatever muparser version is linked.
#include "core/io/expressions.h"

#include <muParser.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/io/load.h"
#include "core/io/parameters.h"  // expressionNames

namespace mechsim::io {

namespace {

constexpr double kPi = 3.14159265358979323846;

double fnAtan2(double y, double x) { return std::atan2(y, x); }
double fnLog(double x) { return std::log(x); }
double fnMin(double a, double b) { return std::min(a, b); }
double fnMax(double a, double b) { return std::max(a, b); }
double fnAbs(double x) { return std::fabs(x); }

// A parser together with the variable it reads: the parser keeps a pointer to `t`, so both
// live in one heap object that the returned std::function shares.
struct Evaluator {
  mu::Parser parser;
  double t = 0;
  double scale = 1;
};

void setUp(Evaluator& e, const std::string& expression, const std::vector<ParameterSpec>* parameters) {
  mu::Parser& p = e.parser;
  const auto& funs = p.GetFunDef();
  if (!funs.count("atan2")) p.DefineFun("atan2", fnAtan2);
  if (!funs.count("min")) p.DefineFun("min", fnMin);
  if (!funs.count("max")) p.DefineFun("max", fnMax);
  if (!funs.count("abs")) p.DefineFun("abs", fnAbs);
  // "log" is the natural logarithm in FORMAT.md; define it explicitly (older muparser: base 10).
  p.DefineFun("log", fnLog);
  p.DefineConst("pi", kPi);
  p.DefineVar("t", &e.t);
  if (parameters)
    for (const std::string& n : expressionNames(expression))
      if (n != "t")
        if (const ParameterSpec* q = findParameter(*parameters, n)) p.DefineConst(q->name, q->value);
  p.SetExpr(expression);
}

}  // namespace

const ParameterSpec* findParameter(const std::vector<ParameterSpec>& parameters, const std::string& name) {
  constexpr std::size_t kLinear = 32;  // below this, a pass over the list is as quick
  if (parameters.size() < kLinear) {
    for (const ParameterSpec& q : parameters)
      if (q.name == name) return &q;
    return nullptr;
  }
  struct Index {
    const ParameterSpec* data = nullptr;
    std::size_t size = 0;
    std::unordered_map<std::string, std::size_t> at;
  };
  thread_local Index index;
  bool fresh = false;
  auto rebuild = [&] {
    index.at.clear();
    for (std::size_t i = 0; i < parameters.size(); ++i) index.at.emplace(parameters[i].name, i);
    index.data = parameters.data();
    index.size = parameters.size();
    fresh = true;
  };
  if (index.data != parameters.data() || index.size != parameters.size()) rebuild();
  for (;;) {
    const auto it = index.at.find(name);
    if (it != index.at.end() && parameters[it->second].name == name) return &parameters[it->second];
    if (fresh) return nullptr;
    rebuild();  // the same list changed in place since it was hashed (a parameter renamed)
  }
}

std::function<double(double)> compileExpression(const std::string& expression, double scale,
                                                const std::vector<ParameterSpec>* parameters) {
  auto e = std::make_shared<Evaluator>();
  e->scale = scale;
  bool blank = true;
  for (char c : expression) blank = blank && std::isspace(static_cast<unsigned char>(c));
  if (blank) throw ExpressionError("empty expression", -1);
  try {
    setUp(*e, expression, parameters);
    // muparser parses lazily; evaluating once at t = 0 surfaces syntax errors and unknown names
    // now. A domain problem (log(t) at 0) is not an error: it gives a non-finite value, which the
    // caller handles at run time.
    e->t = 0;
    e->parser.Eval();
    if (e->parser.GetNumResults() != 1)
      throw ExpressionError("the expression gives " + std::to_string(e->parser.GetNumResults()) +
                                " values separated by commas; a driver needs exactly one",
                            -1);
  } catch (const mu::Parser::exception_type& ex) {
    throw ExpressionError(ex.GetMsg(), static_cast<int>(ex.GetPos()));
  }
  return [e](double t) {
    e->t = t;
    double v;
    try {
      v = e->parser.Eval();
    } catch (const mu::Parser::exception_type&) {
      return std::numeric_limits<double>::quiet_NaN();
    }
    v *= e->scale;
    return std::isfinite(v) ? v : std::numeric_limits<double>::quiet_NaN();
  };
}

std::string expressionErrorMessage(const std::string& expression, const ExpressionError& e) {
  std::string why = e.what();
  // muparser's messages usually end with "at position N." (0-based); otherwise add the place.
  if (e.position() >= 0 && why.find("position") == std::string::npos)
    why += " (at character " + std::to_string(e.position() + 1) + ")";
  if (why.find("Unexpected token") != std::string::npos || why.find("Unknown") != std::string::npos ||
      why.find("Unexpected function") != std::string::npos)
    why += "; expressions may use the variable t, the constant pi, the file's parameters and the functions "
           "sin cos tan asin acos atan atan2 sqrt exp log abs min max";
  return "invalid expression \"" + expression + "\": " + why;
}

bool coordinateIsAngle(JointType t, int k) {
  switch (t) {
    case JointType::Revolute: return true;
    case JointType::Prismatic: return false;
    case JointType::Cylindrical: return k == 0;
    case JointType::Spherical: return true;
    case JointType::Universal: return true;
    case JointType::Planar: return k == 2;
    case JointType::Fixed: return false;
    case JointType::Distance: return false;
  }
  return false;
}

std::vector<std::function<double(double)>> driverFunctions(const MechanismSpec& spec) {
  std::vector<std::function<double(double)>> out;
  out.reserve(spec.drivers.size());
  for (std::size_t i = 0; i < spec.drivers.size(); ++i) {
    const DriverSpec& d = spec.drivers[i];
    const std::string path = "drivers[" + std::to_string(i) + "]";
    auto fail = [&](const std::string& sub, const std::string& msg) -> LoadError {
      const SourceLoc loc = spec.locate(path + sub);
      return LoadError(Diagnostic{spec.fileOf(path + sub), loc.line, loc.col, path + sub + ": " + msg});
    };
    // The joint decides whether the expression is an angle or a length.
    const JointSpec* joint = nullptr;
    for (const JointSpec& j : spec.joints)
      if (j.name == d.joint) joint = &j;
    if (!joint) throw fail(".joint", "unknown joint \"" + d.joint + "\"");
    const int n = jointCoordinateCount(joint->type);
    if (d.coordinate < 0 || d.coordinate >= n)
      throw fail(".coordinate", "coordinate " + std::to_string(d.coordinate) + " is out of range for " +
                                    toString(joint->type) + " joint \"" + joint->name + "\" (" +
                                    std::to_string(n) + " coordinates)");
    const double scale =
        coordinateIsAngle(joint->type, d.coordinate) ? spec.units.angleScale() : spec.units.lengthScale();
    try {
      out.push_back(compileExpression(d.expression, scale, &spec.parameters));
    } catch (const ExpressionError& e) {
      throw fail(".value", expressionErrorMessage(d.expression, e));
    }
  }
  return out;
}

}  // namespace mechsim::io
