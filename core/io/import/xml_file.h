#pragma once
// core/io/import/xml_file.h — an XML document (TinyXML2) that knows where each element and
// attribute is in its text, so that the importers report "FILE:LINE:COL: error: ..." as the
// native reader does, and parses attribute values (numbers, vectors) strictly: "0.5m", "1,2,3"
// or a missing number is an error pointing at the attribute, never a silent zero.
#include <tinyxml2.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/load.h"
#include "core/spec.h"
#include "core/types.h"

namespace mechsim::io::imp {

using tinyxml2::XMLElement;

/// Largest accepted XML file (same limit as the native format).
constexpr std::size_t kMaxXmlBytes = std::size_t(64) << 20;

class XmlFile {
 public:
  /// Parses `text`; a malformed document throws LoadError at TinyXML2's line.
  XmlFile(std::string_view text, std::string fileName, std::string baseDir);
  XmlFile(const XmlFile&) = delete;
  XmlFile& operator=(const XmlFile&) = delete;

  const XMLElement* root() const { return doc_.RootElement(); }
  const std::string& file() const { return file_; }
  const std::string& baseDir() const { return baseDir_; }
  const std::string& text() const { return text_; }

  /// Set by an importer: appended to "expected a number" errors (e.g. which units the format uses).
  void setUnitHint(std::string hint) { unitHint_ = std::move(hint); }

  // ---- locations and diagnostics ----
  SourceLoc loc(const XMLElement* e) const;                     // the '<' of the element
  SourceLoc attrLoc(const XMLElement* e, const char* name) const;  // the attribute's name (or the element)
  [[noreturn]] void fail(const XMLElement* e, const std::string& msg) const;
  [[noreturn]] void failAttr(const XMLElement* e, const char* attr, const std::string& msg) const;
  [[noreturn]] void failAt(SourceLoc l, const std::string& msg) const;
  /// "FILE:LINE:COL: warning: MSG"
  std::string warning(const XMLElement* e, const std::string& msg) const;
  std::string warningAt(SourceLoc l, const std::string& msg) const;

  // ---- attributes ----
  /// The attribute's text, or nullptr when absent.
  static const char* attr(const XMLElement* e, const char* name) { return e->Attribute(name); }
  /// A required, non-empty attribute.
  std::string reqAttr(const XMLElement* e, const char* name, const std::string& what) const;
  /// A required number.
  double number(const XMLElement* e, const char* name, const std::string& what) const;
  /// An optional number (dflt when absent).
  double number(const XMLElement* e, const char* name, double dflt) const;
  /// Between nMin and nMax whitespace-separated numbers from `text` (the value of attribute `name`
  /// of `e`, or of a default class; errors point at `e`'s attribute).
  std::vector<double> parseNumbers(const XMLElement* e, const char* name, const char* text, std::size_t nMin,
                                   std::size_t nMax) const;
  /// Exactly n numbers from attribute `name`, or std::nullopt when absent.
  std::optional<std::vector<double>> numbers(const XMLElement* e, const char* name, std::size_t n) const;
  /// A 3-vector attribute (dflt when absent).
  Vec3 vec3(const XMLElement* e, const char* name, const Vec3& dflt) const;

 private:
  std::string text_, file_, baseDir_, unitHint_;
  tinyxml2::XMLDocument doc_;
  std::vector<std::size_t> lineStart_;  // offset of the first character of each line (0-based lines)

  SourceLoc locOfOffset(std::size_t off) const;
  std::size_t elementOffset(const XMLElement* e) const;
};

// ---- small shared helpers ----
std::string fmt(double x);
/// "; did you mean \"x\"?" when `word` is a plausible typo of a candidate, else "".
std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates);
std::string joinNames(const std::vector<std::string>& v);
/// Elements named `name` directly under `parent`.
std::vector<const XMLElement*> children(const XMLElement* parent, const char* name = nullptr);

}  // namespace mechsim::io::imp
