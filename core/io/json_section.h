#pragma once
// core/io/json_section.h — checked access to a located JSON tree (json_value.h), shared by the
// readers of the native format's sections: the main reader (load.cpp) and the "dynamics",
// "deformables" and "contact" readers (load_dynamics.cpp, load_deformable.cpp, load_contact.cpp).
//
// A value is addressed by its path ("joints[3].axis", built with child() and index()). Every
// member looked up through opt() / req() has its location recorded under that path in
// MechanismSpec::locations, so that later stages (compile, the GUI) can point at it. The first
// problem found throws LoadError "FILE:LINE:COL: error: PATH: MESSAGE" at the offending value
// (at the key itself for an unknown key).
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/io/json_value.h"
#include "core/io/name_index.h"
#include "core/spec.h"

namespace mechsim::io {

/// How much a reader's messages say beyond the problem itself.
enum class MessageStyle {
  /// An unknown key or body name gets a did-you-mean hint (an unknown key without a near miss:
  /// the allowed keys), a quoted number "write numbers without quotes", a number out of range is
  /// echoed (", got 0").
  Detailed,
  /// The problem only: an unknown key lists the allowed keys, no hints, nothing echoed
  /// (the "deformables" section).
  Brief,
};

class JsonSection {
 public:
  JsonSection(MechanismSpec& spec, std::string file, MessageStyle style = MessageStyle::Detailed)
      : spec_(spec), file_(std::move(file)), style_(style) {}

  // ---- paths and text ----

  /// "path.key" ("key" at the root, whose path is "").
  static std::string child(const std::string& path, const std::string& key);
  /// "path[i]".
  static std::string index(const std::string& path, std::size_t i);
  /// x with 6 significant digits (printf "%g").
  static std::string fmt(double x);
  /// "a, b, c".
  static std::string join(const std::vector<std::string>& v);

  // ---- errors and locations ----

  /// Throws LoadError at `loc`: "PATH: MSG" (just MSG at the root).
  [[noreturn]] void fail(SourceLoc loc, const std::string& path, const std::string& msg) const;
  [[noreturn]] void fail(const json::Value& v, const std::string& path, const std::string& msg) const {
    fail(v.loc, path, msg);
  }
  /// Records v's location under `path` in spec.locations.
  void record(const std::string& path, const json::Value& v) { spec_.locations[path] = v.loc; }

  /// Fails "expected WHAT, got KIND" unless v is of kind k (WHAT defaults to "a number", ...).
  void expectKind(const json::Value& v, const std::string& path, json::Kind k, const std::string& what = "") const;

  /// Rejects keys of `obj` not in `allowed` at the key's location; `what` names the object
  /// ("a body"). `elsewhere` may explain a key that is valid in another context (a non-empty
  /// return is the message).
  void checkKeys(const json::Value& obj, const std::string& path, const std::vector<std::string>& allowed,
                 const std::string& what,
                 const std::function<std::string(const std::string&)>& elsewhere = {}) const;

  /// The member `key` of `obj` (its location recorded under child(path, key)), or nullptr.
  const json::Value* opt(const json::Value& obj, const std::string& path, const char* key);
  /// The member `key` of `obj`, or fails at obj "missing required key "KEY" (WHAT)".
  const json::Value& req(const json::Value& obj, const std::string& path, const char* key, const std::string& what);

  /// Checks that `a` is an array (else "expected WHAT, got KIND") and calls f(item, index(path,
  /// first + i)) for each item in order (`first`: entries already in the list, an import's).
  template <class F>
  void items(const json::Value& a, const std::string& path, const std::string& what, F&& f, std::size_t first = 0) {
    expectKind(a, path, json::Kind::Array, what);
    for (std::size_t i = 0; i < a.items.size(); ++i) f(a.items[i], index(path, first + i));
  }

  // ---- scalars ----

  /// A number (finite: the parser rejects NaN, Infinity and overflow).
  double number(const json::Value& v, const std::string& path) const;
  /// A number > 0, else "WHAT must be positive" (Detailed: ", got X" added).
  double positive(const json::Value& v, const std::string& path, const char* what) const;
  /// A whole number of magnitude at most 1e9, else "expected an integer, got X".
  int integer(const json::Value& v, const std::string& path) const;
  /// A whole number in [lo, hi], else `message` (default "expected an integer from LO to HI").
  int integer(const json::Value& v, const std::string& path, int lo, int hi, const std::string& message = "") const;
  bool boolean(const json::Value& v, const std::string& path) const;
  std::string string(const json::Value& v, const std::string& path) const;
  /// A non-empty string.
  std::string name(const json::Value& v, const std::string& path) const;

  // ---- arrays ----

  /// An array of exactly n numbers, each multiplied by `scale`; else "expected WHAT, got ...".
  std::vector<double> numbers(const json::Value& v, const std::string& path, std::size_t n, double scale,
                              const char* what) const;
  /// [x, y, z] multiplied by `scale`. When `message` is given, a value that is not an array of 3
  /// fails with exactly it (instead of "expected an array of 3 numbers [x, y, z], got ...").
  Vec3 vec3(const json::Value& v, const std::string& path, double scale, const std::string& message = "") const;

  // ---- references to what was read before ----

  /// Fails "unknown body" (Detailed: with a did-you-mean) unless a body named `n` is in spec.bodies.
  void bodyRef(const std::string& n, const json::Value& v, const std::string& path) const;
  /// The joint named `n` in spec.joints, or fails with a did-you-mean.
  const JointSpec& jointRef(const std::string& n, const json::Value& v, const std::string& path) const;

 protected:
  MechanismSpec& spec_;
  std::string file_;
  MessageStyle style_;
  // Name lookups of bodyRef and jointRef (the lists grow while the file is read).
  mutable NameIndex bodyNames_, jointNames_;
};

}  // namespace mechsim::io
