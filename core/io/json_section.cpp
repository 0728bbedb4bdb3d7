// core/io/json_section.cpp — checked access to a located JSON tree for the native format's
// section readers (see json_section.h).
#include "core/io/json_section.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/io/load.h"
#include "core/io/parameters.h"
#include "core/io/suggest.h"

namespace mechsim::io {

using json::Kind;
using json::Value;

// ---- paths and text ----

std::string JsonSection::child(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string JsonSection::index(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

std::string JsonSection::fmt(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

std::string JsonSection::join(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}

// ---- errors and locations ----

void JsonSection::fail(SourceLoc loc, const std::string& path, const std::string& msg) const {
  throw LoadError(Diagnostic{file_, loc.line, loc.col, path.empty() ? msg : path + ": " + msg});
}

void JsonSection::expectKind(const Value& v, const std::string& path, Kind k, const std::string& what) const {
  if (v.kind != k)
    fail(v, path, "expected " + (what.empty() ? std::string(json::describe(k)) : what) + ", got " +
                      json::describe(v.kind));
}

void JsonSection::checkKeys(const Value& obj, const std::string& path, const std::vector<std::string>& allowed,
                            const std::string& what,
                            const std::function<std::string(const std::string&)>& elsewhere) const {
  for (const json::Member& m : obj.members) {
    if (std::find(allowed.begin(), allowed.end(), m.key) != allowed.end()) continue;
    if (elsewhere) {
      const std::string why = elsewhere(m.key);
      if (!why.empty()) fail(m.keyLoc, child(path, m.key), why);
    }
    // A near miss gets "did you mean"; otherwise (or in brief messages) the allowed keys.
    const std::string hint = style_ == MessageStyle::Detailed ? didYouMean(m.key, allowed) : std::string();
    fail(m.keyLoc, child(path, m.key),
         "unknown key \"" + m.key + "\" in " + what + (hint.empty() ? " (allowed: " + join(allowed) + ")" : hint));
  }
}

const Value* JsonSection::opt(const Value& obj, const std::string& path, const char* key) {
  const Value* v = obj.find(key);
  if (v) record(child(path, key), *v);
  return v;
}

const Value& JsonSection::req(const Value& obj, const std::string& path, const char* key, const std::string& what) {
  const Value* v = opt(obj, path, key);
  if (!v) fail(obj, path, std::string("missing required key \"") + key + "\" (" + what + ")");
  return *v;
}

// ---- scalars ----

double JsonSection::number(const Value& v, const std::string& path) const {
  // "=EXPR": a number computed from the file's parameters (core/io/parameters.h), kept for the writer.
  if (v.kind == Kind::String && !v.string.empty() && v.string[0] == '=') {
    double x = 0;
    try {
      x = evaluateParameterExpression(v.string.substr(1), spec_.parameters);
    } catch (const std::invalid_argument& e) {
      fail(v, path, e.what());
    }
    spec_.parameterFields[path] = v.string.substr(1);
    return x;
  }
  // "1.5" in quotes is a common slip; say so.
  if (v.kind == Kind::String && style_ == MessageStyle::Detailed)
    fail(v, path, "expected a number, got a string (write numbers without quotes)");
  expectKind(v, path, Kind::Number);
  return v.number;  // finite: the parser rejects NaN, Infinity and overflow
}

double JsonSection::positive(const Value& v, const std::string& path, const char* what) const {
  const double x = number(v, path);
  if (!(x > 0))
    fail(v, path, std::string(what) + " must be positive" + (style_ == MessageStyle::Detailed ? ", got " + fmt(x) : ""));
  return x;
}

int JsonSection::integer(const Value& v, const std::string& path) const {
  const double x = number(v, path);
  if (x != std::floor(x) || std::fabs(x) > 1e9) fail(v, path, "expected an integer, got " + fmt(x));
  return static_cast<int>(x);
}

int JsonSection::integer(const Value& v, const std::string& path, int lo, int hi, const std::string& message) const {
  const double x = number(v, path);
  if (x != std::floor(x) || x < lo || x > hi)
    fail(v, path,
         message.empty() ? "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) : message);
  return static_cast<int>(x);
}

bool JsonSection::boolean(const Value& v, const std::string& path) const {
  expectKind(v, path, Kind::Bool, "true or false");
  return v.boolean;
}

std::string JsonSection::string(const Value& v, const std::string& path) const {
  expectKind(v, path, Kind::String);
  return v.string;
}

std::string JsonSection::name(const Value& v, const std::string& path) const {
  std::string s = string(v, path);
  if (s.empty()) fail(v, path, "a name must not be empty");
  return s;
}

// ---- arrays ----

std::vector<double> JsonSection::numbers(const Value& v, const std::string& path, std::size_t n, double scale,
                                         const char* what) const {
  if (v.kind != Kind::Array) fail(v, path, std::string("expected ") + what + ", got " + json::describe(v.kind));
  if (v.items.size() != n)
    fail(v, path, std::string("expected ") + what + ", got an array of " + std::to_string(v.items.size()));
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = number(v.items[i], index(path, i)) * scale;
  return out;
}

Vec3 JsonSection::vec3(const Value& v, const std::string& path, double scale, const std::string& message) const {
  if (!message.empty() && (v.kind != Kind::Array || v.items.size() != 3)) fail(v, path, message);
  const auto x = numbers(v, path, 3, scale, "an array of 3 numbers [x, y, z]");
  return Vec3(x[0], x[1], x[2]);
}

// ---- references to what was read before ----

void JsonSection::bodyRef(const std::string& n, const Value& v, const std::string& path) const {
  if (bodyNames_.find(spec_.bodies, n)) return;
  std::vector<std::string> names;  // only for the message
  if (style_ == MessageStyle::Detailed)
    for (const BodySpec& b : spec_.bodies) names.push_back(b.name);
  fail(v, path, "unknown body \"" + n + "\"" + (style_ == MessageStyle::Detailed ? didYouMean(n, names) : ""));
}

const JointSpec& JsonSection::jointRef(const std::string& n, const Value& v, const std::string& path) const {
  if (const JointSpec* j = jointNames_.find(spec_.joints, n)) return *j;
  std::vector<std::string> names;
  for (const JointSpec& j : spec_.joints) names.push_back(j.name);
  fail(v, path, "unknown joint \"" + n + "\"" + didYouMean(n, names));
}

}  // namespace mechsim::io
