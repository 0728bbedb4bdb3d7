// core/io/json_value.cpp — recursive-descent JSON parser recording line:column of every value.
// See json_value.h for why it exists and what it accepts. The grammar is RFC 8259 §2–§7:
//   value  = object / array / string / number / true / false / null
//   object = '{' [ string ':' value *( ',' string ':' value ) ] '}'
//   array  = '[' [ value *( ',' value ) ] ']'
//   number = [ '-' ] ( '0' / [1-9] *DIGIT ) [ '.' 1*DIGIT ] [ ( 'e' / 'E' ) [ '+' / '-' ] 1*DIGIT ]
// plus comments, which are skipped together with whitespace.
#include "core/io/json_value.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_set>

namespace mechsim::io::json {

const char* describe(Kind k) {
  switch (k) {
    case Kind::Null: return "null";
    case Kind::Bool: return "a boolean";
    case Kind::Number: return "a number";
    case Kind::String: return "a string";
    case Kind::Array: return "an array";
    case Kind::Object: return "an object";
  }
  return "?";
}

const Member* Value::findMember(std::string_view key) const {
  if (kind != Kind::Object) return nullptr;
  for (const Member& m : members)
    if (m.key == key) return &m;
  return nullptr;
}

const Value* Value::find(std::string_view key) const {
  const Member* m = findMember(key);
  return m ? m->value() : nullptr;
}

namespace {

class Parser {
 public:
  Parser(std::string_view text, const ParseLimits& limits) : s_(text), limits_(limits) {}

  Value document() {
    // The size limit is checked before anything else so that a huge input costs nothing.
    if (s_.size() > limits_.maxBytes)
      throw ParseError({1, 1}, "input is too large (" + std::to_string(s_.size()) + " bytes; the limit is " +
                                   std::to_string(limits_.maxBytes >> 20) + " MiB)");
    // A UTF-8 byte-order mark is tolerated (some Windows editors write one).
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    skipSpace();
    if (atEnd()) throw ParseError({1, 1}, "the file is empty (expected a JSON object)");
    Value v = value(0);
    skipSpace();
    if (!atEnd())
      throw ParseError(here(), "unexpected " + quoteChar() + " after the end of the JSON document");
    return v;
  }

 private:
  std::string_view s_;
  ParseLimits limits_;
  std::size_t pos_ = 0;
  std::size_t values_ = 0;  // values parsed so far (ParseLimits::maxValues)
  int line_ = 1, col_ = 1;

  bool atEnd() const { return pos_ >= s_.size(); }
  char peek() const { return atEnd() ? '\0' : s_[pos_]; }
  SourceLoc here() const { return {line_, col_}; }

  // Advances one byte, keeping line and column. Columns count characters (UTF-8 code points),
  // so continuation bytes 10xxxxxx do not advance the column.
  void advance() {
    const unsigned char c = static_cast<unsigned char>(s_[pos_++]);
    if (c == '\n') {
      ++line_;
      col_ = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++col_;
    }
  }

  // The character at the cursor, quoted for a message ("'x'", "end of input", "byte 0x01").
  std::string quoteChar() const {
    if (atEnd()) return "end of input";
    const unsigned char c = static_cast<unsigned char>(s_[pos_]);
    if (c < 0x20 || c >= 0x7F) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "byte 0x%02X", c);
      return buf;
    }
    return std::string("'") + char(c) + "'";
  }

  // Skips whitespace and comments. An unterminated block comment is reported at its start.
  void skipSpace() {
    while (!atEnd()) {
      const char c = s_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        advance();
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
        while (!atEnd() && s_[pos_] != '\n') advance();
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '*') {
        const SourceLoc start = here();
        advance();
        advance();
        for (;;) {
          if (atEnd()) throw ParseError(start, "unterminated /* comment");
          if (s_[pos_] == '*' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
            advance();
            advance();
            break;
          }
          advance();
        }
      } else {
        break;
      }
    }
  }

  // value = object / array / string / number / literal. `depth` counts enclosing containers.
  Value value(int depth) {
    if (++values_ > limits_.maxValues)
      throw ParseError(here(), "too many values in one document (more than " + std::to_string(limits_.maxValues) + ")");
    Value v;
    v.loc = here();
    const char c = peek();
    if (c == '{' || c == '[') {
      // Bounding the depth bounds the recursion: 1e6 '[' fail here after maxDepth frames.
      if (depth >= limits_.maxDepth)
        throw ParseError(here(), "nesting is too deep (more than " + std::to_string(limits_.maxDepth) +
                                     " levels of arrays/objects)");
      if (c == '{')
        object(v, depth + 1);
      else
        array(v, depth + 1);
    } else if (c == '"') {
      v.kind = Kind::String;
      v.string = string();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      number(v);
    } else if (c >= 'a' && c <= 'z') {
      literal(v);
    } else if (c == 'N' || c == 'I' || c == '+') {
      literal(v);  // NaN, Infinity, +Infinity: reported with a specific message
    } else if (atEnd()) {
      throw ParseError(here(), "unexpected end of input (expected a value)");
    } else {
      throw ParseError(here(), "unexpected " + quoteChar() + " (expected a value)");
    }
    return v;
  }

  void object(Value& v, int depth) {
    v.kind = Kind::Object;
    advance();  // '{'
    skipSpace();
    if (peek() == '}') {
      advance();
      return;
    }
    std::unordered_set<std::string> seen;
    for (;;) {
      if (peek() != '"') {
        if (peek() == '}') throw ParseError(here(), "trailing comma before '}' is not allowed in JSON");
        throw ParseError(here(), "expected a key in double quotes, got " + quoteChar());
      }
      Member m;
      m.keyLoc = here();
      m.key = string();
      if (!seen.insert(m.key).second)
        throw ParseError(m.keyLoc, "duplicate key \"" + m.key + "\" in this object");
      skipSpace();
      if (peek() != ':') throw ParseError(here(), "expected ':' after key \"" + m.key + "\", got " + quoteChar());
      advance();
      skipSpace();
      m.value_.push_back(value(depth));
      v.members.push_back(std::move(m));
      skipSpace();
      if (peek() == ',') {
        advance();
        skipSpace();
        continue;
      }
      if (peek() == '}') {
        advance();
        return;
      }
      throw ParseError(here(), "expected ',' or '}' after an object member, got " + quoteChar() +
                                   (peek() == '"' ? " (a comma is probably missing)" : ""));
    }
  }

  void array(Value& v, int depth) {
    v.kind = Kind::Array;
    advance();  // '['
    skipSpace();
    if (peek() == ']') {
      advance();
      return;
    }
    for (;;) {
      if (peek() == ']') throw ParseError(here(), "trailing comma before ']' is not allowed in JSON");
      v.items.push_back(value(depth));
      skipSpace();
      if (peek() == ',') {
        advance();
        skipSpace();
        continue;
      }
      if (peek() == ']') {
        advance();
        return;
      }
      throw ParseError(here(), "expected ',' or ']' after an array element, got " + quoteChar() +
                                   (peek() == '"' || peek() == '{' || peek() == '[' || std::isdigit(static_cast<unsigned char>(peek()))
                                        ? " (a comma is probably missing)"
                                        : ""));
    }
  }

  // true, false, null; anything else alphabetic is reported by name (NaN and Infinity specially).
  void literal(Value& v) {
    const SourceLoc start = here();
    std::size_t end = pos_;
    while (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_' || s_[end] == '+'))
      ++end;
    const std::string_view word = s_.substr(pos_, end - pos_);
    if (word == "true" || word == "false") {
      v.kind = Kind::Bool;
      v.boolean = word == "true";
    } else if (word == "null") {
      v.kind = Kind::Null;
    } else if (!word.empty() && word[0] == '+') {
      throw ParseError(start, "a leading '+' is not allowed in JSON numbers");
    } else if (word == "NaN" || word == "nan" || word == "Infinity" || word == "+Infinity" || word == "inf") {
      throw ParseError(start, std::string(word) + " is not a valid JSON number (values must be finite)");
    } else {
      throw ParseError(start, "unexpected word '" + std::string(word.substr(0, 40)) +
                                  "' (expected a value; strings need double quotes)");
    }
    while (pos_ < end) advance();
  }

  void number(Value& v) {
    const SourceLoc start = here();
    const std::size_t begin = pos_;
    auto digits = [&] {
      std::size_t n = 0;
      while (!atEnd() && s_[pos_] >= '0' && s_[pos_] <= '9') advance(), ++n;
      return n;
    };
    bool integral = true;
    if (peek() == '-') {
      advance();
      if (std::isalpha(static_cast<unsigned char>(peek()))) {
        std::size_t end = pos_;
        while (end < s_.size() && end - pos_ < 40 && std::isalpha(static_cast<unsigned char>(s_[end]))) ++end;
        throw ParseError(start, "-" + std::string(s_.substr(pos_, end - pos_)) +
                                    " is not a valid JSON number (values must be finite)");
      }
    }
    // Where the parts begin and end, to tell an overflow from an underflow below.
    const std::size_t intBegin = pos_;
    if (peek() == '0') {
      advance();
      if (peek() >= '0' && peek() <= '9') throw ParseError(start, "numbers may not have leading zeros");
    } else if (digits() == 0) {
      throw ParseError(start, "expected a digit after '-'");
    }
    const std::size_t intEnd = pos_;
    std::size_t fracBegin = pos_, fracEnd = pos_, expBegin = pos_, expEnd = pos_;
    bool negativeExponent = false;
    if (peek() == '.') {
      integral = false;
      advance();
      fracBegin = pos_;
      if (digits() == 0) throw ParseError(here(), "expected a digit after the decimal point");
      fracEnd = pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      advance();
      if (peek() == '+' || peek() == '-') {
        negativeExponent = peek() == '-';
        advance();
      }
      expBegin = pos_;
      if (digits() == 0) throw ParseError(here(), "expected a digit in the exponent");
      expEnd = pos_;
    }
    // A letter or dot glued to the number (1.2.3, 12abc) is a malformed number, not trailing garbage.
    if (!atEnd() && (std::isalpha(static_cast<unsigned char>(peek())) || peek() == '.'))
      throw ParseError(start, "malformed number");

    // std::from_chars is locale-independent (strtod would read "1,5" under a German locale, which
    // QCoreApplication installs from the environment). It reads a number of any length in one
    // pass (a million digits: about a millisecond) and keeps the digits that matter to a double.
    const char* first = s_.data() + begin;
    const char* last = s_.data() + pos_;
    double x = 0;
    const auto [ptr, ec] = std::from_chars(first, last, x);
    if (ec == std::errc::result_out_of_range) {
      // Out of range is either beyond the largest double (an error: it would become inf) or
      // closer to zero than the smallest (harmless: 0 to double precision). Which one is the
      // sign of the decimal exponent of the first significant digit, not of the written
      // exponent: 0.000…01 without an exponent underflows, 1000…0e-5 may still overflow.
      std::int64_t lead = 0;  // the power of ten of the first non-zero digit
      if (s_[intBegin] != '0') {
        lead = std::int64_t(intEnd - intBegin) - 1;
      } else {
        std::size_t i = fracBegin;
        while (i < fracEnd && s_[i] == '0') ++i;
        lead = -std::int64_t(i - fracBegin) - 1;
      }
      std::int64_t exponent = 0;  // saturated: anything past 10^12 is out of range either way
      for (std::size_t i = expBegin; i < expEnd && exponent < 1'000'000'000'000; ++i) exponent = 10 * exponent + (s_[i] - '0');
      if (lead + (negativeExponent ? -exponent : exponent) >= 0)
        throw ParseError(start, "number " + numberText(first, last) + " is too large for a double (values must be finite)");
      x = 0.0;
    } else if (ec != std::errc() || ptr != last || !std::isfinite(x)) {
      throw ParseError(start, "malformed number");
    }
    v.kind = Kind::Number;
    v.number = x;
    v.integral = integral;
  }

  /// A number's text for a message: whole up to 40 characters, else its first 40 and its length.
  static std::string numberText(const char* first, const char* last) {
    const std::size_t n = static_cast<std::size_t>(last - first);
    if (n <= 40) return std::string(first, n);
    return std::string(first, 40) + "… (" + std::to_string(n) + " characters)";
  }

  // Four hex digits of a \u escape.
  unsigned hex4() {
    unsigned u = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = peek();
      unsigned d;
      if (c >= '0' && c <= '9')
        d = c - '0';
      else if (c >= 'a' && c <= 'f')
        d = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        d = c - 'A' + 10;
      else
        throw ParseError(here(), "expected 4 hex digits after \\u");
      u = u * 16 + d;
      advance();
    }
    return u;
  }

  static void appendUtf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  // Validates one UTF-8 sequence starting at the cursor and copies it to `out`.
  void utf8Char(std::string& out) {
    const SourceLoc at = here();
    const unsigned char c = static_cast<unsigned char>(s_[pos_]);
    int extra;
    std::uint32_t cp;
    if (c < 0x80) {
      extra = 0, cp = c;
    } else if ((c & 0xE0) == 0xC0) {
      extra = 1, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3, cp = c & 0x07;
    } else {
      throw ParseError(at, "invalid UTF-8 in string");
    }
    if (extra > 0 && pos_ + extra >= s_.size())
      throw ParseError(at, "invalid UTF-8 in string (truncated sequence)");
    for (int i = 1; i <= extra; ++i) {
      const unsigned char d = static_cast<unsigned char>(s_[pos_ + i]);
      if ((d & 0xC0) != 0x80) throw ParseError(at, "invalid UTF-8 in string");
      cp = (cp << 6) | (d & 0x3F);
    }
    static constexpr std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      throw ParseError(at, "invalid UTF-8 in string (overlong or out-of-range sequence)");
    for (int i = 0; i <= extra; ++i) {
      out += s_[pos_];
      advance();
    }
  }

  std::string string() {
    const SourceLoc start = here();
    advance();  // opening quote
    std::string out;
    for (;;) {
      if (atEnd()) throw ParseError(start, "unterminated string");
      const unsigned char c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        advance();
        return out;
      }
      if (c < 0x20) {
        if (c == '\n') throw ParseError(start, "unterminated string (a newline inside a string must be written \\n)");
        throw ParseError(here(), "control character " + quoteChar() + " in a string must be escaped");
      }
      if (c != '\\') {
        utf8Char(out);
        continue;
      }
      const SourceLoc escLoc = here();
      advance();  // backslash
      if (atEnd()) throw ParseError(start, "unterminated string");
      const char e = s_[pos_];
      advance();
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            // A high surrogate must be followed by \u and a low surrogate (RFC 8259 §7).
            if (!(peek() == '\\' && pos_ + 1 < s_.size() && s_[pos_ + 1] == 'u'))
              throw ParseError(escLoc, "lone UTF-16 high surrogate in \\u escape");
            advance();
            advance();
            const std::uint32_t lo = hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) throw ParseError(escLoc, "invalid UTF-16 surrogate pair in \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            throw ParseError(escLoc, "lone UTF-16 low surrogate in \\u escape");
          }
          appendUtf8(out, cp);
          break;
        }
        default:
          throw ParseError(escLoc, std::string("invalid escape '\\") + e + "' in string");
      }
    }
  }
};

}  // namespace

Value parse(std::string_view text, const ParseLimits& limits) {
  Parser p(text, limits);
  return p.document();
}

}  // namespace mechsim::io::json
