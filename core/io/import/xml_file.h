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
  /// With `mjcfIncludes`, every MJCF <include file="F"/> is first replaced by the children of the
  /// root element of F (F relative to baseDir, the top-level file's folder; nested, at most
  /// kMaxIncludeDepth deep, no cycles). Errors and warnings about an element that came from an
  /// included file name that file and its line:col, with a note of where it was included.
  XmlFile(std::string_view text, std::string fileName, std::string baseDir, bool mjcfIncludes = false);
  XmlFile(const XmlFile&) = delete;
  XmlFile& operator=(const XmlFile&) = delete;

  const XMLElement* root() const { return doc_.RootElement(); }
  const std::string& file() const { return file_; }
  const std::string& baseDir() const { return baseDir_; }
  const std::string& text() const { return text_; }

  /// Set by an importer: appended to "expected a number" errors (e.g. which units the format uses).
  void setUnitHint(std::string hint) { unitHint_ = std::move(hint); }

  // ---- locations and diagnostics ----
  /// The '<' of the element in the top-level file; an element from an included file gives the
  /// place of the top-level <include> that brought it in (SourceLoc carries no file name).
  SourceLoc loc(const XMLElement* e) const;
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

  /// A file that took part: the top-level one (index 0) or an included one.
  struct Source {
    std::string file;        // as written in diagnostics
    int parent = -1;         // the file holding its <include>
    SourceLoc includedAt;    // that <include>, in the parent's own text
  };
  /// From output line `line0` (0-based) on, the text is `source`'s, starting at its line
  /// `origLine0` (0-based), columns as in that file.
  struct Segment {
    std::size_t line0 = 0;
    int source = 0;
    int origLine0 = 0;
  };
  struct Expanded {
    std::string text;
    std::vector<Segment> segs;
  };
  std::vector<Source> sources_;
  std::vector<Segment> segs_;  // empty: the text is the top-level file's, unchanged

  SourceLoc locOfOffset(std::size_t off) const;
  std::size_t elementOffset(const XMLElement* e) const;
  /// The file and position in it of a position of the (expanded) text.
  std::pair<int, SourceLoc> origin(SourceLoc l) const;
  /// loc / attrLoc in the (expanded) text this document was parsed from.
  SourceLoc textLoc(const XMLElement* e) const;
  SourceLoc textAttrLoc(const XMLElement* e, const char* name) const;
  /// " (included from A:L:C, included from B:L:C)" for source `src`, "" for the top-level file.
  std::string includeNote(int src) const;
  [[noreturn]] void failIn(int src, SourceLoc l, const std::string& msg) const;
  Expanded expand(const std::string& raw, int src, int depth, std::vector<std::string>& chain);
};

/// Deepest accepted nesting of MJCF <include> files.
constexpr int kMaxIncludeDepth = 32;

// ---- small shared helpers ----
std::string fmt(double x);
/// "; did you mean \"x\"?" when `word` is a plausible typo of a candidate, else "".
std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates);
std::string joinNames(const std::vector<std::string>& v);
/// Elements named `name` directly under `parent`.
std::vector<const XMLElement*> children(const XMLElement* parent, const char* name = nullptr);

}  // namespace mechsim::io::imp
