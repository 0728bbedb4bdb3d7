// core/io/import/xml_file.cpp — TinyXML2 documents with source positions and strict attributes.
//
// TinyXML2 records the line of each element but not its column; the column is found in the
// text: the first "<name" on the element's line (attributes: "name=" after it). Numbers are read
// with strtod and must use the whole token, so "0.5m", "90deg" and "1,2" are errors that name
// the attribute, never values read up to the first bad character.
#include "core/io/import/xml_file.h"

#include "core/io/suggest.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace mechsim::io::imp {

namespace {

/// A plain-words description of TinyXML2's error codes.
std::string describe(tinyxml2::XMLError e) {
  using namespace tinyxml2;
  switch (e) {
    case XML_ERROR_EMPTY_DOCUMENT: return "the document is empty";
    case XML_ERROR_MISMATCHED_ELEMENT: return "a closing tag does not match the open element";
    case XML_ERROR_PARSING_ELEMENT: return "an element is not well formed (unclosed tag or missing '>')";
    case XML_ERROR_PARSING_ATTRIBUTE: return "an attribute is not well formed (write name=\"value\")";
    case XML_ERROR_PARSING_TEXT: return "text is not well formed";
    case XML_ERROR_PARSING_CDATA: return "a CDATA section is not well formed";
    case XML_ERROR_PARSING_COMMENT: return "a comment is not well formed (unclosed <!--)";
    case XML_ERROR_PARSING_DECLARATION: return "the <?xml ...?> declaration is not well formed";
    case XML_ERROR_PARSING_UNKNOWN: return "an unknown <! ...> construct";
    default: return "the document is not well-formed XML";
  }
}


}  // namespace

std::string fmt(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

std::string didYouMean(const std::string& word, const std::vector<std::string>& candidates) {
  return io::didYouMean(word, candidates);
}

std::string joinNames(const std::vector<std::string>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}

std::vector<const XMLElement*> children(const XMLElement* parent, const char* name) {
  std::vector<const XMLElement*> out;
  for (const XMLElement* c = parent->FirstChildElement(name); c; c = c->NextSiblingElement(name)) out.push_back(c);
  return out;
}

XmlFile::XmlFile(std::string_view text, std::string fileName, std::string baseDir)
    : text_(text), file_(std::move(fileName)), baseDir_(std::move(baseDir)) {
  lineStart_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') lineStart_.push_back(i + 1);
  if (text_.size() > kMaxXmlBytes)
    failAt({1, 1}, "the file is too large (" + std::to_string(text_.size()) + " bytes; the limit is 64 MiB)");
  // Whitespace is kept as written (COLLAPSE_WHITESPACE would not change attribute values anyway).
  doc_.Parse(text_.data(), text_.size());
  if (doc_.Error()) {
    const int line = std::max(1, doc_.ErrorLineNum());
    std::string msg = "malformed XML: " + describe(doc_.ErrorID());
    // TinyXML2's own text ends with the offending element's name or a text excerpt; keep it.
    std::string detail = doc_.ErrorStr() ? doc_.ErrorStr() : "";
    const auto colon = detail.find(": ", detail.find("Line number"));
    if (colon != std::string::npos && detail.find("Line number") != std::string::npos) {
      detail = detail.substr(colon + 2);
      for (char& c : detail)
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
      if (!detail.empty() && detail.size() < 120) msg += " (" + detail + ")";
    }
    failAt({line, 1}, msg);
  }
  if (!doc_.RootElement()) failAt({1, 1}, "malformed XML: the document has no root element");
}

SourceLoc XmlFile::locOfOffset(std::size_t off) const {
  const auto it = std::upper_bound(lineStart_.begin(), lineStart_.end(), off);
  const std::size_t line = std::size_t(it - lineStart_.begin());  // 1-based
  return SourceLoc{int(line), int(off - lineStart_[line - 1]) + 1};
}

std::size_t XmlFile::elementOffset(const XMLElement* e) const {
  const int line = e->GetLineNum();
  if (line < 1 || std::size_t(line) > lineStart_.size()) return std::string::npos;
  const std::size_t begin = lineStart_[std::size_t(line) - 1];
  const std::size_t end = std::size_t(line) < lineStart_.size() ? lineStart_[std::size_t(line)] : text_.size();
  const std::string tag = std::string("<") + e->Name();
  std::size_t p = text_.find(tag, begin);
  while (p != std::string::npos && p < end) {
    const char next = p + tag.size() < text_.size() ? text_[p + tag.size()] : '>';
    if (std::isspace(static_cast<unsigned char>(next)) || next == '>' || next == '/') return p;
    p = text_.find(tag, p + 1);
  }
  return begin;
}

SourceLoc XmlFile::loc(const XMLElement* e) const {
  if (!e) return SourceLoc{};
  const std::size_t off = elementOffset(e);
  if (off == std::string::npos) return SourceLoc{e->GetLineNum(), 1};
  return locOfOffset(off);
}

SourceLoc XmlFile::attrLoc(const XMLElement* e, const char* name) const {
  if (!e) return SourceLoc{};
  const std::size_t start = elementOffset(e);
  if (start == std::string::npos) return loc(e);
  const std::size_t close = text_.find('>', start);
  const std::size_t end = close == std::string::npos ? text_.size() : close;
  const std::string key(name);
  std::size_t p = text_.find(key, start);
  while (p != std::string::npos && p < end) {
    const bool leftOk = p > 0 && std::isspace(static_cast<unsigned char>(text_[p - 1]));
    std::size_t q = p + key.size();
    while (q < end && std::isspace(static_cast<unsigned char>(text_[q]))) ++q;
    if (leftOk && q < end && text_[q] == '=') return locOfOffset(p);
    p = text_.find(key, p + 1);
  }
  return loc(e);
}

void XmlFile::failAt(SourceLoc l, const std::string& msg) const { throw LoadError(Diagnostic{file_, l.line, l.col, msg}); }
void XmlFile::fail(const XMLElement* e, const std::string& msg) const { failAt(loc(e), msg); }
void XmlFile::failAttr(const XMLElement* e, const char* a, const std::string& msg) const { failAt(attrLoc(e, a), msg); }

std::string XmlFile::warningAt(SourceLoc l, const std::string& msg) const {
  std::ostringstream s;
  s << (file_.empty() ? "<input>" : file_);
  if (l.line > 0) s << ':' << l.line << ':' << l.col;
  s << ": warning: " << msg;
  return s.str();
}
std::string XmlFile::warning(const XMLElement* e, const std::string& msg) const { return warningAt(loc(e), msg); }

std::string XmlFile::reqAttr(const XMLElement* e, const char* name, const std::string& what) const {
  const char* v = e->Attribute(name);
  if (!v) fail(e, "<" + std::string(e->Name()) + "> needs the attribute " + name + "=\"...\" (" + what + ")");
  std::string s(v);
  if (s.find_first_not_of(" \t\r\n") == std::string::npos)
    failAttr(e, name, "attribute " + std::string(name) + " of <" + e->Name() + "> is empty (" + what + ")");
  return s;
}

std::vector<double> XmlFile::parseNumbers(const XMLElement* e, const char* name, const char* text, std::size_t nMin,
                                          std::size_t nMax) const {
  const std::string where = "attribute " + std::string(name) + " of <" + e->Name() + ">";
  const std::string expected = nMin == nMax ? (nMin == 1 ? "a number" : std::to_string(nMin) + " numbers")
                                            : std::to_string(nMin) + " to " + std::to_string(nMax) + " numbers";
  std::vector<double> out;
  std::istringstream in(text ? text : "");
  std::string tok;
  while (in >> tok) {
    errno = 0;
    char* end = nullptr;
    const double x = std::strtod(tok.c_str(), &end);
    if (end == tok.c_str() || *end != '\0') {
      std::string msg = where + ": expected " + expected + ", got \"" + std::string(text) + "\"";
      // "0.5m", "90deg": a number followed by letters is a unit the format does not take.
      if (end != tok.c_str() && std::isalpha(static_cast<unsigned char>(*end)))
        msg += " (\"" + tok + "\" carries a unit: " + (unitHint_.empty() ? "write the bare number" : unitHint_) + ")";
      else if (tok.find(',') != std::string::npos)
        msg += " (separate numbers with spaces, not commas)";
      failAttr(e, name, msg);
    }
    if (!std::isfinite(x) || errno == ERANGE)
      failAttr(e, name, where + ": \"" + tok + "\" is not a finite number");
    out.push_back(x);
  }
  if (out.size() < nMin || out.size() > nMax)
    failAttr(e, name, where + ": expected " + expected + ", got " + std::to_string(out.size()) + " (\"" +
                          std::string(text ? text : "") + "\")");
  return out;
}

double XmlFile::number(const XMLElement* e, const char* name, const std::string& what) const {
  const char* v = e->Attribute(name);
  if (!v) fail(e, "<" + std::string(e->Name()) + "> needs the attribute " + name + "=\"...\" (" + what + ")");
  return parseNumbers(e, name, v, 1, 1)[0];
}

double XmlFile::number(const XMLElement* e, const char* name, double dflt) const {
  const char* v = e->Attribute(name);
  return v ? parseNumbers(e, name, v, 1, 1)[0] : dflt;
}

std::optional<std::vector<double>> XmlFile::numbers(const XMLElement* e, const char* name, std::size_t n) const {
  const char* v = e->Attribute(name);
  if (!v) return std::nullopt;
  return parseNumbers(e, name, v, n, n);
}

Vec3 XmlFile::vec3(const XMLElement* e, const char* name, const Vec3& dflt) const {
  const auto v = numbers(e, name, 3);
  return v ? Vec3((*v)[0], (*v)[1], (*v)[2]) : dflt;
}

}  // namespace mechsim::io::imp
