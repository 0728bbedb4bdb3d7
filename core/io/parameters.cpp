// core/io/parameters.cpp — the "parameters" section (core/io/parameters.h).
//
// Resolution: every parameter whose value is an expression depends on the names it uses; a
// depth-first walk evaluates each after its dependencies and meets a cycle as a name already on
// its path (reported with the cycle spelled out, at the expression that closes it).
#include "core/io/parameters.h"


#include <cctype>
#include <filesystem>
#include <cmath>
#include <set>
#include <stdexcept>
#include <vector>

#include <Eigen/Geometry>

#include "core/io/expressions.h"
#include "core/io/json_section.h"
#include "core/io/load.h"
#include "core/io/suggest.h"
#include "core/io/write.h"

namespace mechsim::io {

namespace {

using json::Kind;
using json::Value;

/// muparser's functions (expressions.cpp and muparser's own): not parameter names.
const std::set<std::string>& reservedNames() {
  static const std::set<std::string> names{"t",    "pi",   "e",     "sin",  "cos",  "tan",  "asin", "acos", "atan",
                                           "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sqrt",
                                           "exp",  "log",  "log2",  "log10", "ln",   "abs",  "sign", "rint", "min",
                                           "max",  "sum",  "avg"};
  return names;
}

bool validName(const std::string& n) {
  if (n.empty() || !(std::isalpha(static_cast<unsigned char>(n[0])) || n[0] == '_')) return false;
  for (char c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return n.size() <= 64;
}

class ParameterReader : JsonSection {
 public:
  ParameterReader(MechanismSpec& spec, const std::string& file) : JsonSection(spec, file) {}

  void read(const Value& v, const ParameterOverrides* overrides) {
    record("parameters", v);
    expectKind(v, "parameters", Kind::Object,
               "an object of named numbers {\"L1\": {\"value\": 0.1, \"unit\": \"length\"}, ...}");
    for (const json::Member& m : v.members) {
      const std::string path = child("parameters", m.key);
      if (!validName(m.key) || reservedNames().count(m.key))
        fail(m.keyLoc, path,
             "a parameter's name is a letter or _ followed by letters, digits or _ (at most 64), and not t, pi, e "
             "or a function's name");
      const Value& x = *m.value();
      record(path, x);
      ParameterSpec p;
      p.name = m.key;
      const Value* value = &x;
      if (x.kind == Kind::Object) {
        checkKeys(x, path, {"value", "unit"}, "a parameter");
        value = &req(x, path, "value", "the parameter's value: a number or \"=EXPR\"");
        if (const Value* u = opt(x, path, "unit")) {
          p.unit = string(*u, child(path, "unit"));
          if (p.unit != "length" && p.unit != "angle" && p.unit != "mass" && p.unit != "none")
            fail(*u, child(path, "unit"), "unknown unit kind \"" + p.unit + "\" (length, angle, mass or none)" +
                                              didYouMean(p.unit, {"length", "angle", "mass", "none"}));
        }
      }
      const std::string valuePath = value == &x ? path : child(path, "value");
      if (value->kind == Kind::String && !value->string.empty() && value->string[0] == '=') {
        p.expression = value->string.substr(1);
        locs_.push_back(value->loc);
      } else {
        if (value->kind != Kind::Number)
          fail(*value, valuePath, std::string("expected a number or an expression \"=EXPR\" of other parameters, got ") +
                                      json::describe(value->kind));
        p.value = value->number;
        locs_.push_back(value->loc);
      }
      paths_.push_back(valuePath);
      spec_.parameters.push_back(std::move(p));
    }
    if (overrides)
      for (const auto& [name, value] : *overrides) {
        ParameterSpec* p = find(name);
        if (!p) {
          std::vector<std::string> names;
          for (const ParameterSpec& q : spec_.parameters) names.push_back(q.name);
          throw LoadError(Diagnostic{file_, 0, 0, "parameter \"" + name + "\" is not in the file's \"parameters\"" +
                                                      didYouMean(name, names)});
        }
        if (!std::isfinite(value))
          throw LoadError(Diagnostic{file_, 0, 0, "parameter \"" + name + "\": the value is not finite"});
        p->value = value;
        p->expression.clear();
      }
    state_.assign(spec_.parameters.size(), 0);
    for (std::size_t i = 0; i < spec_.parameters.size(); ++i) resolve(i);
  }

 private:
  std::vector<SourceLoc> locs_;
  std::vector<std::string> paths_;
  std::vector<int> state_;          // 0 unvisited, 1 on the walk's path, 2 resolved
  std::vector<std::string> walk_;   // the names on the path

  ParameterSpec* find(const std::string& n) { return const_cast<ParameterSpec*>(findParameter(spec_.parameters, n)); }
  int indexOf(const std::string& n) const {
    const ParameterSpec* p = findParameter(spec_.parameters, n);
    return p ? static_cast<int>(p - spec_.parameters.data()) : -1;
  }

  /// Evaluates parameter `root` after the parameters it uses, depth first. With a stack of its
  /// own rather than recursion: a chain of 10^5 parameters, each using the next, overflowed the
  /// thread's stack (a crash) when the walk recursed.
  void resolve(std::size_t root) {
    struct Frame {
      std::size_t i;
      std::vector<std::string> names;  // the names its expression uses
      std::size_t next = 0;           // the first of them not yet walked
    };
    std::vector<Frame> stack;
    auto enter = [&](std::size_t i) {
      if (state_[i] == 2) return;
      const ParameterSpec& p = spec_.parameters[i];
      if (p.expression.empty()) {
        state_[i] = 2;
        return;
      }
      state_[i] = 1;
      walk_.push_back(p.name);
      stack.push_back(Frame{i, expressionNames(p.expression)});
    };
    enter(root);
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next < f.names.size()) {
        const std::string n = f.names[f.next++];
        if (n == "t") fail(locs_[f.i], paths_[f.i], "a parameter cannot depend on t (it is a number, not a function of time)");
        const int k = indexOf(n);
        if (k < 0) continue;  // evaluateParameterExpression names it below
        if (state_[k] == 1) {
          std::string cycle;
          bool on = false;
          for (const std::string& w : walk_) {
            if (w == n) on = true;
            if (on) cycle += w + " → ";
          }
          fail(locs_[f.i], paths_[f.i], "the parameters form a cycle: " + cycle + n);
        }
        enter(static_cast<std::size_t>(k));  // f may move: not used again before the next pass
        continue;
      }
      const std::size_t i = f.i;
      try {
        spec_.parameters[i].value = evaluateParameterExpression(spec_.parameters[i].expression, spec_.parameters);
      } catch (const std::invalid_argument& e) {
        fail(locs_[i], paths_[i], e.what());
      }
      walk_.pop_back();
      state_[i] = 2;
      stack.pop_back();
    }
  }
};

/// "joints[1].point[0]" → the JSON value there in `doc`, or nullptr.
nlohmann::ordered_json* at(nlohmann::ordered_json& doc, const std::string& path) {
  nlohmann::ordered_json* cur = &doc;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') ++i;
    if (path[i] == '[') {
      const std::size_t close = path.find(']', i);
      if (close == std::string::npos || !cur->is_array()) return nullptr;
      const std::size_t k = std::stoul(path.substr(i + 1, close - i - 1));
      if (k >= cur->size()) return nullptr;
      cur = &(*cur)[k];
      i = close + 1;
      continue;
    }
    std::size_t end = path.find_first_of(".[", i);
    if (end == std::string::npos) end = path.size();
    const std::string key = path.substr(i, end - i);
    if (!cur->is_object() || !cur->contains(key)) return nullptr;
    cur = &(*cur)[key];
    i = end;
  }
  return cur;
}

}  // namespace

std::vector<std::string> expressionNames(const std::string& e) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < e.size()) {
    const unsigned char c = static_cast<unsigned char>(e[i]);
    if (std::isdigit(c) || (c == '.' && i + 1 < e.size() && std::isdigit(static_cast<unsigned char>(e[i + 1])))) {
      // A number: digits, a point, an exponent (so that the e of 1e5 is not a name).
      while (i < e.size() && (std::isdigit(static_cast<unsigned char>(e[i])) || e[i] == '.')) ++i;
      if (i < e.size() && (e[i] == 'e' || e[i] == 'E')) {
        std::size_t j = i + 1;
        if (j < e.size() && (e[j] == '+' || e[j] == '-')) ++j;
        if (j < e.size() && std::isdigit(static_cast<unsigned char>(e[j]))) {
          i = j;
          while (i < e.size() && std::isdigit(static_cast<unsigned char>(e[i]))) ++i;
        }
      }
      continue;
    }
    if (std::isalpha(c) || c == '_') {
      std::size_t j = i;
      while (j < e.size() && (std::isalnum(static_cast<unsigned char>(e[j])) || e[j] == '_')) ++j;
      const std::string name = e.substr(i, j - i);
      std::size_t k = j;
      while (k < e.size() && std::isspace(static_cast<unsigned char>(e[k]))) ++k;
      const bool call = k < e.size() && e[k] == '(';
      if (!call && name != "pi") {
        bool seen = false;
        for (const std::string& n : out) seen = seen || n == name;
        if (!seen) out.push_back(name);
      }
      i = j;
      continue;
    }
    ++i;
  }
  return out;
}

double evaluateParameterExpression(const std::string& expression, const std::vector<ParameterSpec>& parameters) {
  for (const std::string& n : expressionNames(expression)) {
    if (n == "t") throw std::invalid_argument("\"=" + expression + "\": a number cannot depend on t");
    if (!findParameter(parameters, n)) {
      std::vector<std::string> names;
      for (const ParameterSpec& p : parameters) names.push_back(p.name);
      throw std::invalid_argument("\"=" + expression + "\": unknown parameter \"" + n + "\"" +
                                  (names.empty() ? std::string(" (the file has no \"parameters\")") : didYouMean(n, names)));
    }
  }
  double value = 0;
  try {
    value = compileExpression(expression, 1.0, &parameters)(0.0);
  } catch (const ExpressionError& e) {
    throw std::invalid_argument(expressionErrorMessage("=" + expression, e));
  }
  if (!std::isfinite(value)) throw std::invalid_argument("\"=" + expression + "\" is not a finite number");
  return value;
}

void readParametersSection(const json::Value& v, MechanismSpec& spec, const std::string& file,
                           const ParameterOverrides* overrides) {
  ParameterReader(spec, file).read(v, overrides);
}

nlohmann::ordered_json parametersSectionJson(const MechanismSpec& spec) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const ParameterSpec& p : spec.parameters) {
    nlohmann::ordered_json value;
    if (p.expression.empty()) value = p.value;
    else value = "=" + p.expression;
    out[p.name] = nlohmann::ordered_json{{"value", value}, {"unit", p.unit}};
  }
  return out;
}

namespace {

/// The axis to write for a rotation by `angle` about `axis` (of unit length) whose angle is an
/// expression. The reader turns the axis it reads into the quaternion of that rotation, and the
/// writer takes the axis back from the quaternion; normalising the quaternion's vector part need
/// not give back the same bits, so a file written, read back and written again could differ in
/// the axis's last digit (found by fuzz/fuzz_native.cpp: an axis [4, 0, 1];
/// fuzz/regressions/native/). That map from axis to axis reaches a cycle of a few axes within a
/// few steps, usually a single one; the smallest axis of the cycle is written, which is the same
/// whichever axis of the cycle the file gave, so writing what was read changes nothing.
Vec3 stableAxis(const Vec3& axis, double angle) {
  const double sign = std::sin(angle / 2) < 0 ? -1.0 : 1.0;  // the vector part points along ±axis
  auto next = [&](const Vec3& a) {
    const Quat q = Quat(Eigen::AngleAxisd(angle, a)).normalized();  // as the reader builds it
    return Vec3(sign * q.vec().normalized());
  };
  auto less = [](const Vec3& a, const Vec3& b) {
    return a.x() != b.x() ? a.x() < b.x() : a.y() != b.y() ? a.y() < b.y() : a.z() < b.z();
  };
  std::vector<Vec3> seen{axis};
  for (int k = 0; k < 16; ++k) {
    const Vec3 a = next(seen.back());
    for (std::size_t j = 0; j < seen.size(); ++j)
      if (seen[j] == a) {
        Vec3 best = seen[j];
        for (std::size_t c = j + 1; c < seen.size(); ++c)
          if (less(seen[c], best)) best = seen[c];
        return best;
      }
    seen.push_back(a);
  }
  return seen.back();
}

}  // namespace

void restoreParameterFields(const MechanismSpec& spec, nlohmann::ordered_json& doc) {
  const std::string angleKey = ".orientation.angle";
  for (const auto& [path, expression] : spec.parameterFields) {
    // An orientation the file gave as {"axis", "angle": "=EXPR"} is written as a quaternion: back
    // to the axis and the expression when the quaternion is still that rotation.
    if (path.size() > angleKey.size() && path.compare(path.size() - angleKey.size(), angleKey.size(), angleKey) == 0) {
      nlohmann::ordered_json* o = at(doc, path.substr(0, path.size() - std::string(".angle").size()));
      if (!o || !o->is_object() || !o->contains("quaternion")) continue;
      const auto& q = (*o)["quaternion"];
      double angle = 0;
      try {
        angle = evaluateParameterExpression(expression, spec.parameters) * spec.units.angleScale();
      } catch (const std::invalid_argument&) {
        continue;
      }
      const Vec3 v(q[1].get<double>(), q[2].get<double>(), q[3].get<double>());
      const double w = q[0].get<double>();
      if (v.norm() < 1e-12) continue;  // no rotation: no axis to write
      const Vec3 axis = v.normalized();
      const Quat expected(Eigen::AngleAxisd(angle, axis));
      if (std::abs(std::abs(expected.coeffs().dot(Eigen::Vector4d(v.x(), v.y(), v.z(), w))) - 1) > 1e-12) continue;
      const Vec3 stable = stableAxis(axis, angle);
      *o = nlohmann::ordered_json{{"axis", {stable.x(), stable.y(), stable.z()}}, {"angle", "=" + expression}};
      continue;
    }
    nlohmann::ordered_json* field = at(doc, path);
    if (!field || !field->is_number()) continue;
    double value = 0;
    try {
      value = evaluateParameterExpression(expression, spec.parameters);
    } catch (const std::invalid_argument&) {
      continue;  // a parameter removed since: the number stays
    }
    const double written = field->get<double>();
    if (std::abs(written - value) <= 1e-12 * std::max(1.0, std::abs(value))) *field = "=" + expression;
  }
}

MechanismSpec specWithParameters(const MechanismSpec& spec, const ParameterOverrides& values) {
  const std::string text = writeMechanism(spec);
  const std::filesystem::path source(spec.sourceFile);
  const std::string dir = spec.sourceFile.empty() ? std::filesystem::current_path().string() : source.parent_path().string();
  MechanismSpec out = parseMechanism(text, spec.sourceFile.empty() ? std::string("(edited mechanism)") : spec.sourceFile, dir, &values);
  out.sourceFile = spec.sourceFile;
  out.locations = spec.locations;  // positions in the file, not in the text written here
  return out;
}

}  // namespace mechsim::io
