#pragma once
// core/io/comments.h — the comments of a native mechanism file (// line and /* block */ comments,
// FORMAT.md §1), kept across a read → edit → write: readComments takes them from the file's text,
// each anchored to where it stood in the JSON document; keepComments puts them into the text the
// writer produced for the (possibly edited) spec (core/io/write.h writeMechanism(spec, comments)).
//
// Anchors. A comment stands at one of these places of the document, named by the path of a value:
//
//   Before(P)        on its own line(s) before the value P: before its key for an object member,
//                    before the value for an array element. Before("") is the header, before '{'.
//                    A comment between a key and its value counts as before that member.
//   Trailing(P)      on the line where the value P ends, after it (and after its comma, if any).
//   AfterOpen(P)     on the line of P's opening '{' or '[', after the bracket.
//   ContainerEnd(P)  on its own line(s) before P's closing '}' or ']' with no value after it.
//   DocumentEnd      after the document's closing bracket, on lines of its own.
//
// A comment is trailing when nothing but spaces (or other trailing comments) separates it from the
// token before it on the same line; it then trails the value that token ends (or the container the
// token opens). Every other comment is anchored to what follows it.
//
// Paths: members by key ("units.angle"), array elements by index ("joints[0].axis"), except that an
// object element with a "name" string that no other element of its array has is named by it
// ("bodies{crank}", "dynamics.springs{return}.stiffness"), so that its comments follow it when
// elements are added, removed or reordered. A key or name with one of . [ ] { } " \ or a control
// character is written as a JSON string ("bodies{\"a.b\"}"); paths are compared, not parsed.
//
// Putting back (keepComments). Each comment goes to its anchor in the new text: Before and
// ContainerEnd comments on lines of their own just above the anchor's line, indented as that line
// (as its members for a closing bracket), in file order, block comments that shared a line still on
// one line; Trailing and AfterOpen comments at the end of the anchor's line, after a space. Where the
// anchor is not the first thing on its line (the writer put a short object on one line), a Before
// comment goes above that line, or at its end when a trailing comment is already there (so that the
// comments keep their order). A trailing // comment always ends its line: what follows it on that
// line goes to a new line below. Block comments keep their inner line breaks. A comment whose
// anchor is gone (its value was deleted or renamed, or the writer leaves the key out, as it does
// default values) is never dropped: it moves, as an own-line comment, to the nearest own-line place
// after it in the original document that still exists: the next surviving member or element, else
// the end of the enclosing container, and so on up to the end of the document. So all the comments
// of a deleted body go, in their order, before the body that followed it (or before the closing ']'
// of "bodies"), and a renamed element's comments likewise (its path was its name). The result has
// the written text's line ends (LF; a CRLF file's comments lose their CRs) and reads to exactly the
// document of the written text.
//
// Memory: FileComments keeps every anchor of the original document (about one path per value) when
// the file has comments, and nothing when it has none.
#include <cstddef>
#include <string>
#include <vector>

namespace mechsim::io {

struct FileComments {
  enum class Where : unsigned char { Before, Trailing, AfterOpen, ContainerEnd, DocumentEnd };
  struct Anchor {
    Where where = Where::DocumentEnd;
    std::string path;  // "" for the document itself (and for DocumentEnd)
  };
  struct Comment {
    std::string text;        // "// ..." or "/* ... */" as in the file (a CR before each LF removed)
    std::size_t anchor = 0;  // index into anchors: where it stood
    bool sameLine = false;   // an own-line comment on the same line as the comment before it
    bool block() const { return text.size() >= 2 && text[1] == '*'; }
  };
  /// Every place of the original document a comment can stand at, in document order (the fallbacks
  /// of a comment whose anchor is gone); empty when there are no comments.
  std::vector<Anchor> anchors;
  std::vector<Comment> comments;  // in file order
  bool empty() const { return comments.empty(); }
  const Anchor& anchorOf(const Comment& c) const { return anchors[c.anchor]; }
};

/// The comments of a native file's text (as read, CRLF or LF, a UTF-8 byte-order mark allowed).
/// Throws json::ParseError (core/io/json_value.h) when the text is not valid JSON with comments.
FileComments readComments(const std::string& text);

/// `written` (the writer's text, without comments: std::invalid_argument otherwise; json::ParseError
/// when it is not JSON) with the comments put back as described above. Without comments, `written`.
std::string keepComments(const FileComments& comments, const std::string& written);

/// "Before bodies{crank}", "Trailing joints[0].axis", "DocumentEnd" (messages, tests).
std::string describe(const FileComments::Anchor& anchor);

}  // namespace mechsim::io
