// core/io/comments.cpp — comments of a native file, read with their anchors and put back into
// written text (core/io/comments.h).
//
// Both directions walk the text with a small scanner that follows the tree json::parse built from
// the same text: the parser has already checked the syntax (so the scanner only steps over tokens)
// and gives each array's element names before the scanner enters it. The walk lists every anchor
// with its byte offset in document order; on the original text it also assigns each comment to an
// anchor, on the written text its offsets are where the comments go.
#include "core/io/comments.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "core/io/json_value.h"

namespace mechsim::io {

namespace {

using Where = FileComments::Where;
using Anchor = FileComments::Anchor;
using Comment = FileComments::Comment;
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// A key or name as a path segment: as is, or as a JSON string when it could be misread.
std::string segment(const std::string& s) {
  bool plain = !s.empty();
  for (const char c : s)
    if (c == '.' || c == '[' || c == ']' || c == '{' || c == '}' || c == '"' || c == '\\' ||
        static_cast<unsigned char>(c) < 0x20)
      plain = false;
  if (plain) return s;
  std::string q = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      q += '\\';
      q += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      q += buf;
    } else {
      q += c;
    }
  }
  return q + '"';
}

// The comment's text without the CR of CRLF line ends.
std::string normalised(std::string_view raw) {
  std::string t;
  t.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i)
    if (!(raw[i] == '\r' && (i + 1 == raw.size() || raw[i + 1] == '\n'))) t += raw[i];
  return t;
}

class Walker {
 public:
  // `collect`: record the comments (the original text); otherwise refuse text that has any.
  Walker(std::string_view text, bool collect) : s_(text), collect_(collect) {}

  std::vector<Anchor> anchors;
  std::vector<std::size_t> offsets;  // of each anchor: see offsetOf
  std::vector<Comment> comments;

  void document(const json::Value& root) {
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    skip();
    const std::size_t before = push(Where::Before, "", pos_);
    value(root, "", before);
    skip();
    resolvePending(push(Where::DocumentEnd, "", s_.size()));
  }

 private:
  std::string_view s_;
  bool collect_;
  std::size_t pos_ = 0;
  std::size_t trail_ = kNone;  // the anchor a comment on the line of the last token trails
  std::size_t lastEnd_ = 0;    // end of that token (or of the last comment trailing it)
  std::vector<std::size_t> pending_;  // own-line comments waiting for the anchor after them

  // Offsets: Before → the key or value, Trailing → one past the value's end, AfterOpen and
  // ContainerEnd → the bracket, DocumentEnd → the end of the text.
  std::size_t push(Where w, std::string path, std::size_t offset) {
    anchors.push_back({w, std::move(path)});
    offsets.push_back(offset);
    return anchors.size() - 1;
  }

  void resolvePending(std::size_t anchor) {
    for (const std::size_t i : pending_) comments[i].anchor = anchor;
    pending_.clear();
  }

  bool newlineBetween(std::size_t a, std::size_t b) const {
    return s_.substr(a, b - a).find('\n') != std::string_view::npos;
  }

  // Whitespace and comments; each comment trails the last token or waits for the next anchor.
  void skip() {
    std::size_t prevEnd = kNone;  // end of the previous comment of this gap
    for (;;) {
      while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
      if (!(pos_ + 1 < s_.size() && s_[pos_] == '/' && (s_[pos_ + 1] == '/' || s_[pos_ + 1] == '*'))) return;
      const std::size_t start = pos_;
      if (s_[pos_ + 1] == '/') {
        const std::size_t nl = s_.find('\n', pos_);
        pos_ = nl == std::string_view::npos ? s_.size() : nl;
      } else {
        const std::size_t close = s_.find("*/", pos_ + 2);
        pos_ = close == std::string_view::npos ? s_.size() : close + 2;  // the parser has checked it closes
      }
      if (!collect_) throw std::invalid_argument("keepComments: the written text already has comments");
      Comment c;
      c.text = normalised(s_.substr(start, pos_ - start));
      if (trail_ != kNone && !newlineBetween(lastEnd_, start)) {
        c.anchor = trail_;
        lastEnd_ = pos_;
      } else {
        trail_ = kNone;  // the rest of this gap stands before what follows
        c.sameLine = prevEnd != kNone && !newlineBetween(prevEnd, start);
        pending_.push_back(comments.size());
      }
      comments.push_back(std::move(c));
      prevEnd = pos_;
    }
  }

  void skipString() {
    ++pos_;  // opening quote
    while (pos_ < s_.size() && s_[pos_] != '"') pos_ += s_[pos_] == '\\' ? 2 : 1;
    ++pos_;
  }

  // One value at pos_ (its Before anchor is `before`), then its Trailing anchor.
  void value(const json::Value& v, const std::string& path, std::size_t before) {
    resolvePending(before);  // comments between a key and its value
    if (v.isObject() || v.isArray()) {
      const std::size_t open = push(Where::AfterOpen, path, pos_);
      ++pos_;
      trail_ = open;
      lastEnd_ = pos_;
      if (v.isObject())
        members(v, path);
      else
        items(v, path);
      skip();
      resolvePending(push(Where::ContainerEnd, path, pos_));
      ++pos_;  // closing bracket
    } else if (v.isString()) {
      skipString();
    } else {
      // Numbers and literals: the parser has checked them; step over their characters.
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' ||
                                  s_[pos_] == '+' || s_[pos_] == '.'))
        ++pos_;
    }
    trail_ = push(Where::Trailing, path, pos_);
    lastEnd_ = pos_;
  }

  // After a value of a container: its comma, which a trailing comment may follow.
  void comma() {
    skip();
    if (pos_ < s_.size() && s_[pos_] == ',') {
      ++pos_;
      if (trail_ != kNone) lastEnd_ = pos_;
    }
  }

  void members(const json::Value& v, const std::string& path) {
    for (const json::Member& m : v.members) {
      skip();
      const std::string child = path.empty() ? segment(m.key) : path + "." + segment(m.key);
      const std::size_t before = push(Where::Before, child, pos_);
      resolvePending(before);
      trail_ = kNone;  // a comment after the key stands before the member
      skipString();
      skip();
      ++pos_;  // ':'
      skip();
      value(*m.value(), child, before);
      comma();
    }
  }

  void items(const json::Value& v, const std::string& path) {
    // Elements named by a "name" no other element of this array has; the others by index.
    std::unordered_map<std::string, int> uses;
    for (const json::Value& item : v.items)
      if (const json::Value* n = item.find("name"); n && n->isString()) ++uses[n->string];
    for (std::size_t i = 0; i < v.items.size(); ++i) {
      const json::Value& item = v.items[i];
      const json::Value* n = item.find("name");
      const std::string child = n && n->isString() && uses[n->string] == 1 ? path + "{" + segment(n->string) + "}"
                                                                            : path + "[" + std::to_string(i) + "]";
      skip();
      value(item, child, push(Where::Before, child, pos_));
      comma();
    }
  }
};

std::string key(const Anchor& a) { return std::string(1, char('0' + static_cast<int>(a.where))) + a.path; }

bool trailingKind(Where w) { return w == Where::Trailing || w == Where::AfterOpen; }

// The written text as lines (without their '\n').
struct Lines {
  explicit Lines(const std::string& text) : text_(text) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n' && i + 1 < text.size()) starts_.push_back(i + 1);
  }
  std::size_t count() const { return starts_.size(); }
  std::size_t of(std::size_t offset) const {
    return std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin() - 1;
  }
  std::string_view line(std::size_t l) const {
    const std::size_t b = starts_[l];
    std::size_t e = text_.find('\n', b);
    if (e == std::string::npos) e = text_.size();
    return std::string_view(text_).substr(b, e - b);
  }
  bool endsWithNewline(std::size_t l) const { return text_.find('\n', starts_[l]) != std::string::npos; }
  // Only spaces before `offset` on its line.
  bool firstOnLine(std::size_t offset) const {
    for (std::size_t i = starts_[of(offset)]; i < offset; ++i)
      if (text_[i] != ' ' && text_[i] != '\t') return false;
    return true;
  }
  // The indentation of comments above line l: the line's own, a member's for a closing bracket.
  std::string commentIndent(std::size_t l) const {
    const std::string_view s = line(l);
    const std::size_t n = s.find_first_not_of(" \t");
    std::string ind(s.substr(0, n == std::string_view::npos ? s.size() : n));
    if (n != std::string_view::npos && (s[n] == '}' || s[n] == ']')) ind += "  ";
    return ind;
  }

 private:
  const std::string& text_;
  std::vector<std::size_t> starts_;
};

}  // namespace

FileComments readComments(const std::string& text) {
  const json::Value root = json::parse(text);
  Walker w(text, true);
  w.document(root);
  FileComments fc;
  if (w.comments.empty()) return fc;
  fc.anchors = std::move(w.anchors);
  fc.comments = std::move(w.comments);
  return fc;
}

std::string keepComments(const FileComments& fc, const std::string& written) {
  if (fc.comments.empty()) return written;
  const json::Value root = json::parse(written);
  Walker w(written, false);
  w.document(root);
  std::unordered_map<std::string, std::size_t> at;  // anchor key → index in w.anchors
  at.reserve(w.anchors.size());
  for (std::size_t i = 0; i < w.anchors.size(); ++i) at.emplace(key(w.anchors[i]), i);

  // The anchor of the written text where comment c goes: its own, else the first own-line place
  // after it in the original that still exists (all the comments of a deleted value go there, in
  // their order).
  auto place = [&](const Comment& c) -> std::size_t {
    if (auto it = at.find(key(fc.anchors[c.anchor])); it != at.end()) return it->second;
    for (std::size_t k = c.anchor + 1; k < fc.anchors.size(); ++k)
      if (!trailingKind(fc.anchors[k].where))
        if (auto it = at.find(key(fc.anchors[k])); it != at.end()) return it->second;
    return w.anchors.size() - 1;  // DocumentEnd
  };

  // Sort the comments into lines: above a line, at its end, or after the document.
  const Lines lines(written);
  std::vector<std::vector<std::size_t>> above(lines.count()), atEnd(lines.count());
  std::vector<std::size_t> tail;
  for (std::size_t i = 0; i < fc.comments.size(); ++i) {
    const std::size_t a = place(fc.comments[i]);
    const std::size_t off = w.offsets[a];
    switch (w.anchors[a].where) {
      case Where::DocumentEnd: tail.push_back(i); break;
      case Where::Trailing: atEnd[lines.of(off - 1)].push_back(i); break;
      case Where::AfterOpen: atEnd[lines.of(off)].push_back(i); break;
      case Where::Before:
      case Where::ContainerEnd: {
        const std::size_t l = lines.of(off);
        // Mid-line (a one-line object's member): above the line, unless that would put it before
        // a comment that came first in the file.
        (lines.firstOnLine(off) || atEnd[l].empty() ? above[l] : atEnd[l]).push_back(i);
        break;
      }
    }
  }

  // Own-line comments: one a line, block comments that shared a line in the file still together.
  std::string out;
  out.reserve(written.size() + 64 * fc.comments.size());
  auto ownLines = [&](const std::vector<std::size_t>& list, const std::string& indent) {
    for (std::size_t j = 0; j < list.size(); ++j) {
      const Comment& c = fc.comments[list[j]];
      if (j > 0 && c.sameLine && list[j - 1] + 1 == list[j] && fc.comments[list[j - 1]].block()) {
        out += ' ';
      } else {
        if (j > 0) out += '\n';
        out += indent;
      }
      out += c.text;
    }
    if (!list.empty()) out += '\n';
  };
  for (std::size_t l = 0; l < lines.count(); ++l) {
    ownLines(above[l], lines.commentIndent(l));
    out += lines.line(l);
    // Trailing comments; after a // comment the line is over, the rest goes below it.
    bool lineComment = false;
    const std::string next = l + 1 < lines.count() ? lines.commentIndent(l + 1) : std::string();
    for (const std::size_t i : atEnd[l]) {
      out += lineComment ? "\n" + next : std::string(" ");
      out += fc.comments[i].text;
      lineComment = !fc.comments[i].block();
    }
    if (lines.endsWithNewline(l) || !tail.empty()) out += '\n';
  }
  ownLines(tail, "");
  return out;
}

std::string describe(const FileComments::Anchor& a) {
  switch (a.where) {
    case Where::Before: return "Before " + a.path;
    case Where::Trailing: return "Trailing " + a.path;
    case Where::AfterOpen: return "AfterOpen " + a.path;
    case Where::ContainerEnd: return "ContainerEnd " + a.path;
    case Where::DocumentEnd: return "DocumentEnd";
  }
  return "?";
}

}  // namespace mechsim::io
