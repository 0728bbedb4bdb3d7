#pragma once
// core/io/json_value.h — a JSON document tree in which every value knows its line and column.
//
// Why hand-written: FORMAT.md §1 requires every error in a mechanism file to point at
// FILE:LINE:COL of the offending value, and to accept // and /* */ comments. None of the JSON
// libraries packaged for Debian (nlohmann-json, jsoncpp, RapidJSON as packaged) records the source
// position of every value in the tree it builds, so the reader is this small recursive-descent
// parser. The writer side uses nlohmann-json (core/io/write.cpp), where positions are not needed.
//
// What it accepts: RFC 8259 JSON plus // line comments and /* block */ comments wherever
// whitespace may appear. What it rejects, each with a located message: NaN / Infinity, numbers
// that overflow a double, duplicate keys in one object, control characters and invalid escapes in
// strings, lone UTF-16 surrogates, invalid UTF-8, trailing content after the value, nesting deeper
// than ParseLimits::maxDepth (so recursion is bounded), inputs larger than ParseLimits::maxBytes,
// documents with more than ParseLimits::maxValues values (so memory is bounded).
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/spec.h"  // SourceLoc

namespace mechsim::io::json {

enum class Kind { Null, Bool, Number, String, Array, Object };

/// "null", "a boolean", "a number", "a string", "an array", "an object" (for messages).
const char* describe(Kind k);

struct Value;

/// One "key": value pair of an object, in file order, with the location of the key itself.
struct Member {
  std::string key;
  SourceLoc keyLoc;
  Value* value() { return value_.data(); }
  const Value* value() const { return value_.data(); }
  std::vector<Value> value_;  // exactly one element (a vector so that Value may be incomplete here)
};

struct Value {
  Kind kind = Kind::Null;
  SourceLoc loc;                 // first character of the value (1-based line and column)
  bool boolean = false;          // Kind::Bool
  double number = 0;             // Kind::Number (always finite)
  bool integral = false;         // Kind::Number written without fraction or exponent
  std::string string;            // Kind::String (UTF-8, escapes resolved)
  std::vector<Value> items;      // Kind::Array
  std::vector<Member> members;   // Kind::Object, in file order (keys are unique)

  bool isNull() const { return kind == Kind::Null; }
  bool isNumber() const { return kind == Kind::Number; }
  bool isString() const { return kind == Kind::String; }
  bool isArray() const { return kind == Kind::Array; }
  bool isObject() const { return kind == Kind::Object; }

  /// The member `key` of an object, or nullptr (also when this is not an object).
  const Value* find(std::string_view key) const;
  /// The member record (with the key's location) of `key`, or nullptr.
  const Member* findMember(std::string_view key) const;
};

/// A syntax error at `loc`; what() is the message without the location.
class ParseError : public std::runtime_error {
 public:
  ParseError(SourceLoc loc, const std::string& message) : std::runtime_error(message), loc_(loc) {}
  SourceLoc loc() const { return loc_; }

 private:
  SourceLoc loc_;
};

struct ParseLimits {
  std::size_t maxBytes = std::size_t(64) << 20;  // 64 MiB: far above any hand-written mechanism
  int maxDepth = 64;                             // nesting of arrays/objects; bounds the recursion
  /// Values in the document. Each costs ~120 bytes in the tree, so 64 MiB of "0," would need
  /// ~4 GB; this bounds the tree to ~0.5 GB while leaving room for large generated mechanisms.
  std::size_t maxValues = 4'000'000;
};

/// Parses one JSON document (with comments). Throws ParseError.
Value parse(std::string_view text, const ParseLimits& limits = {});

}  // namespace mechsim::io::json
