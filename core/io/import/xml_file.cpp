// core/io/import/xml_file.cpp — TinyXML2 documents with source positions and strict attributes.
//
// TinyXML2 records the line of each element but not its column; the column is found in the
// text: the first "<name" on the element's line (attributes: "name=" after it). Numbers are read
// with strtod and must use the whole token, so "0.5m", "90deg" and "1,2" are errors that name
// the attribute, never values read up to the first bad character.
#include "core/io/import/xml_file.h"

#include "core/io/regular_file.h"
#include "core/io/suggest.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <sstream>

namespace mechsim::io::imp {

namespace {

namespace fs = std::filesystem;

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

std::string parseErrorMessage(const tinyxml2::XMLDocument& doc) {
  std::string msg = "malformed XML: " + describe(doc.ErrorID());
  // TinyXML2's own text ends with the offending element's name or a text excerpt; keep it.
  std::string detail = doc.ErrorStr() ? doc.ErrorStr() : "";
  const auto colon = detail.find(": ", detail.find("Line number"));
  if (colon != std::string::npos && detail.find("Line number") != std::string::npos) {
    detail = detail.substr(colon + 2);
    for (char& c : detail)
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    if (!detail.empty() && detail.size() < 120) msg += " (" + detail + ")";
  }
  return msg;
}

std::vector<std::size_t> lineStarts(const std::string& text) {
  std::vector<std::size_t> v{0};
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') v.push_back(i + 1);
  return v;
}

SourceLoc locOfIn(const std::vector<std::size_t>& starts, std::size_t off) {
  const auto it = std::upper_bound(starts.begin(), starts.end(), off);
  const std::size_t line = std::size_t(it - starts.begin());
  return SourceLoc{int(line), int(off - starts[line - 1]) + 1};
}

bool hasInclude(const XMLElement* e) {
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement())
    if (std::string(c->Name()) == "include" || hasInclude(c)) return true;
  return false;
}

std::string canonicalPath(const std::string& p) {
  std::error_code ec;
  const fs::path c = fs::weakly_canonical(fs::absolute(p, ec), ec);
  return ec ? fs::path(p).lexically_normal().string() : c.string();
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

XmlFile::XmlFile(std::string_view text, std::string fileName, std::string baseDir, bool mjcfIncludes)
    : text_(text), file_(std::move(fileName)), baseDir_(std::move(baseDir)) {
  sources_.push_back(Source{file_, -1, {}});
  lineStart_ = lineStarts(text_);
  if (text_.size() > kMaxXmlBytes)
    failAt({1, 1}, "the file is too large (" + std::to_string(text_.size()) + " bytes; the limit is 64 MiB)");
  // Whitespace is kept as written (COLLAPSE_WHITESPACE would not change attribute values anyway).
  doc_.Parse(text_.data(), text_.size());
  if (doc_.Error()) failIn(0, {std::max(1, doc_.ErrorLineNum()), 1}, parseErrorMessage(doc_));
  if (!doc_.RootElement()) failAt({1, 1}, "malformed XML: the document has no root element");
  if (!mjcfIncludes || !hasInclude(doc_.RootElement())) return;
  std::vector<std::string> chain{canonicalPath((fs::path(baseDir_) / fs::path(file_).filename()).string())};
  Expanded x = expand(text_, 0, 0, chain);
  text_ = std::move(x.text);
  segs_ = std::move(x.segs);
  lineStart_ = lineStarts(text_);
  doc_.Clear();
  doc_.Parse(text_.data(), text_.size());
  if (doc_.Error()) {  // each file was well formed on its own; report where the merge broke
    const auto [src, l] = origin({std::max(1, doc_.ErrorLineNum()), 1});
    failIn(src, l, parseErrorMessage(doc_) + " after merging the included files");
  }
}

// MJCF <include>: the element is replaced by the children of the included file's root, as MuJoCo
// does. The text is spliced rather than the trees (TinyXML2 cannot move nodes between
// documents), and every piece starts on a fresh line, indented to its original column, so that a
// line of the merged text belongs to one file only and keeps its columns: `segs` maps it back.
XmlFile::Expanded XmlFile::expand(const std::string& raw, int src, int depth, std::vector<std::string>& chain) {
  tinyxml2::XMLDocument doc;
  doc.Parse(raw.data(), raw.size());
  if (doc.Error()) failIn(src, {std::max(1, doc.ErrorLineNum()), 1}, parseErrorMessage(doc));
  const XMLElement* root = doc.RootElement();
  if (!root) failIn(src, {1, 1}, "malformed XML: the document has no root element");
  const std::vector<std::size_t> starts = lineStarts(raw);
  auto locIn = [&](std::size_t off) {
    const auto it = std::upper_bound(starts.begin(), starts.end(), off);
    const std::size_t line = std::size_t(it - starts.begin());
    return SourceLoc{int(line), int(off - starts[line - 1]) + 1};
  };
  std::vector<const XMLElement*> includes;
  std::function<void(const XMLElement*)> walk = [&](const XMLElement* e) {
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (std::string(c->Name()) == "include") includes.push_back(c);
      else walk(c);
    }
  };
  walk(root);

  Expanded out;
  std::size_t outLines = 0;  // newlines written so far
  auto put = [&](std::string_view piece) {
    out.text.append(piece);
    outLines += std::size_t(std::count(piece.begin(), piece.end(), '\n'));
  };
  // Starts a fresh line indented to column `col` and maps it to line `line0` of `source`.
  auto freshLine = [&](int source, int line0, int col) {
    put("\n");
    out.text.append(std::size_t(std::max(0, col - 1)), ' ');
    out.segs.push_back(Segment{outLines, source, line0});
  };
  out.segs.push_back(Segment{0, src, 0});
  std::size_t cursor = 0;
  for (const XMLElement* inc : includes) {
    // The element's text: "<include" on its line (after the previous one), up to "/>" or "</include>".
    const std::size_t lineBegin = starts[std::size_t(std::max(1, inc->GetLineNum())) - 1];
    std::size_t begin = raw.find("<include", std::max(lineBegin, cursor));
    while (begin != std::string::npos && begin + 8 < raw.size() && !std::isspace(static_cast<unsigned char>(raw[begin + 8])) &&
           raw[begin + 8] != '/' && raw[begin + 8] != '>')
      begin = raw.find("<include", begin + 1);
    if (begin == std::string::npos) begin = lineBegin;
    const SourceLoc at = locIn(begin);
    std::size_t end = raw.find('>', begin);
    if (end == std::string::npos) failIn(src, at, "malformed <include>");
    if (raw[end - 1] != '/') {
      if (inc->FirstChild()) failIn(src, at, "<include> must be empty: write <include file=\"...\"/>");
      end = raw.find('>', raw.find("</include", end));
    }
    ++end;
    const char* f = inc->Attribute("file");
    if (!f || std::string(f).find_first_not_of(" \t\r\n") == std::string::npos)
      failIn(src, at, "<include> needs the attribute file=\"...\" (the file to include, relative to the top-level model's folder)");
    // MuJoCo resolves every include against the folder of the top-level model file.
    const fs::path rel(f);
    const fs::path readPath = rel.is_absolute() ? rel : fs::path(baseDir_) / rel;
    const std::string shown =
        rel.is_absolute() ? rel.string() : (fs::path(file_).parent_path() / rel).lexically_normal().string();
    const std::string canon = canonicalPath(readPath.string());
    const std::string desc = "included file \"" + std::string(f) + "\"";
    if (std::find(chain.begin(), chain.end(), canon) != chain.end())
      failIn(src, at, "include cycle: " + desc + " is already being included (" +
                          fs::path(chain.front()).filename().string() + [&] {
                            std::string s;
                            for (std::size_t i = 1; i < chain.size(); ++i) s += " → " + fs::path(chain[i]).filename().string();
                            return s;
                          }() + " → " + rel.filename().string() + ")");
    if (depth + 1 > kMaxIncludeDepth)
      failIn(src, at, "includes nested more than " + std::to_string(kMaxIncludeDepth) + " deep at " + desc);
    std::string incText;
    if (const auto failure = readRegularFile(readPath.string(), kMaxXmlBytes, incText)) {
      using Kind = ReadFailure::Kind;
      if (failure->kind == Kind::Missing)
        failIn(src, at, "cannot read " + desc + ": no such file (looked for " + readPath.string() + ")");
      if (failure->kind == Kind::TooLarge) failIn(src, at, desc + " is " + failure->reason);
      failIn(src, at, "cannot read " + desc + ": " + failure->reason);
    }

    const int child = int(sources_.size());
    sources_.push_back(Source{shown, src, at});
    chain.push_back(canon);
    const Expanded sub = expand(incText, child, depth + 1, chain);
    chain.pop_back();

    // The text before the <include>, then the children of the included root.
    put(std::string_view(raw).substr(cursor, begin - cursor));
    tinyxml2::XMLDocument subDoc;
    subDoc.Parse(sub.text.data(), sub.text.size());
    const XMLElement* subRoot = subDoc.RootElement();
    const std::vector<std::size_t> subStarts = lineStarts(sub.text);
    auto subSeg = [&](std::size_t line0) {  // the included text's segment holding its line line0
      std::size_t k = 0;
      while (k + 1 < sub.segs.size() && sub.segs[k + 1].line0 <= line0) ++k;
      return sub.segs[k];
    };
    // The included file's root was read from its own text, before any nested include.
    const std::size_t rootLine0 = std::size_t(std::max(1, subRoot->GetLineNum())) - 1;
    const std::size_t rootOpen = sub.text.find("<" + std::string(subRoot->Name()), subStarts[rootLine0]);
    if (std::string(subRoot->Name()) != "mujoco") {
      const auto o = locOfIn(subStarts, rootOpen == std::string::npos ? subStarts[rootLine0] : rootOpen);
      const Segment sg = subSeg(std::size_t(o.line) - 1);
      failIn(sg.source, {sg.origLine0 + o.line - int(sg.line0), o.col},
             "an included MJCF file must have the root element <mujoco>, not <" + std::string(subRoot->Name()) + ">");
    }
    const std::size_t openEnd = sub.text.find('>', rootOpen);
    if (sub.text[openEnd - 1] != '/') {  // <mujoco/> has no children
      const std::size_t a = openEnd + 1, b = sub.text.rfind("</" + std::string(subRoot->Name()));
      const SourceLoc la = locOfIn(subStarts, a);
      const std::size_t aLine0 = std::size_t(la.line) - 1;
      const Segment first = subSeg(aLine0);
      freshLine(first.source, first.origLine0 + int(aLine0 - first.line0), la.col);
      const std::size_t base = outLines;
      for (const Segment& sg : sub.segs)
        if (sg.line0 > aLine0 && subStarts[sg.line0] < b)
          out.segs.push_back(Segment{base + (sg.line0 - aLine0), sg.source, sg.origLine0});
      put(std::string_view(sub.text).substr(a, b - a));
    }
    // Back to this file's text after the <include>.
    const SourceLoc after = locIn(end);
    freshLine(src, after.line - 1, after.col);
    cursor = end;
  }
  put(std::string_view(raw).substr(cursor));
  return out;
}

std::pair<int, SourceLoc> XmlFile::origin(SourceLoc l) const {
  if (segs_.empty() || l.line < 1) return {0, l};
  const std::size_t line0 = std::size_t(l.line) - 1;
  std::size_t k = 0;
  while (k + 1 < segs_.size() && segs_[k + 1].line0 <= line0) ++k;
  const Segment& s = segs_[k];
  return {s.source, SourceLoc{s.origLine0 + int(line0 - s.line0) + 1, l.col}};
}

std::string XmlFile::includeNote(int src) const {
  std::string note;
  for (int s = src; s > 0; s = sources_[std::size_t(s)].parent) {
    const Source& x = sources_[std::size_t(s)];
    const Source& p = sources_[std::size_t(x.parent)];
    note += std::string(note.empty() ? " (" : ", ") + "included from " + (p.file.empty() ? "<input>" : p.file) + ":" +
            std::to_string(x.includedAt.line) + ":" + std::to_string(x.includedAt.col);
  }
  return note.empty() ? note : note + ")";
}

void XmlFile::failIn(int src, SourceLoc l, const std::string& msg) const {
  throw LoadError(Diagnostic{sources_[std::size_t(src)].file, l.line, l.col, msg + includeNote(src)});
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

SourceLoc XmlFile::textLoc(const XMLElement* e) const {
  if (!e) return SourceLoc{};
  const std::size_t off = elementOffset(e);
  if (off == std::string::npos) return SourceLoc{e->GetLineNum(), 1};
  return locOfOffset(off);
}

SourceLoc XmlFile::loc(const XMLElement* e) const {
  auto [src, l] = origin(textLoc(e));
  for (; src > 0; src = sources_[std::size_t(src)].parent) l = sources_[std::size_t(src)].includedAt;
  return l;
}

SourceLoc XmlFile::attrLoc(const XMLElement* e, const char* name) const {
  auto [src, l] = origin(textAttrLoc(e, name));
  for (; src > 0; src = sources_[std::size_t(src)].parent) l = sources_[std::size_t(src)].includedAt;
  return l;
}

SourceLoc XmlFile::textAttrLoc(const XMLElement* e, const char* name) const {
  if (!e) return SourceLoc{};
  const std::size_t start = elementOffset(e);
  if (start == std::string::npos) return textLoc(e);
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
  return textLoc(e);
}

void XmlFile::failAt(SourceLoc l, const std::string& msg) const { throw LoadError(Diagnostic{file_, l.line, l.col, msg}); }
void XmlFile::fail(const XMLElement* e, const std::string& msg) const {
  const auto [src, l] = origin(textLoc(e));
  failIn(src, l, msg);
}
void XmlFile::failAttr(const XMLElement* e, const char* a, const std::string& msg) const {
  const auto [src, l] = origin(textAttrLoc(e, a));
  failIn(src, l, msg);
}

std::string XmlFile::warningAt(SourceLoc l, const std::string& msg) const {
  std::ostringstream s;
  s << (file_.empty() ? "<input>" : file_);
  if (l.line > 0) s << ':' << l.line << ':' << l.col;
  s << ": warning: " << msg;
  return s.str();
}
std::string XmlFile::warning(const XMLElement* e, const std::string& msg) const {
  const auto [src, l] = origin(textLoc(e));
  if (src == 0) return warningAt(l, msg);
  std::ostringstream s;
  s << sources_[std::size_t(src)].file << ':' << l.line << ':' << l.col << ": warning: " << msg << includeNote(src);
  return s.str();
}

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
