// tests/io/test_comments.cpp — tests core/io/comments.cpp: a native file's comments read with their
// anchors and put back into the writer's text (every file of mechanisms/ round-trips with its
// comments and parameters; comments follow their bodies through edits; trailing, block, closing
// bracket and CRLF cases), and write.h's writeMechanism / writeMechanismFile with comments.
#include <QDirIterator>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

#include "core/io/comments.h"
#include "core/io/json_value.h"
#include "core/io/load.h"
#include "core/io/write.h"

using namespace mechsim;
using namespace mechsim::io;

namespace {
const QString kSource = QStringLiteral(MECHSIM_SOURCE_DIR);

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

MechanismSpec parse(const std::string& text) { return parseMechanism(text, "test.json", "."); }

// The text without comments and whitespace outside strings: equal for two texts that differ only
// in comments and layout.
std::string tokens(const std::string& t) {
  std::string out;
  for (std::size_t i = 0; i < t.size();) {
    const char c = t[i];
    if (c == '"') {
      const std::size_t start = i++;
      while (i < t.size() && t[i] != '"') i += t[i] == '\\' ? 2 : 1;
      out.append(t, start, ++i - start);
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (t.compare(i, 2, "//") == 0) {
      i = std::min(t.find('\n', i), t.size());
    } else if (t.compare(i, 2, "/*") == 0) {
      i = t.find("*/", i + 2) + 2;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

// "" when every comment's text is in `out` exactly once, in file order; else what is wrong.
std::string commentsKept(const FileComments& fc, const std::string& out) {
  std::size_t at = 0;
  for (const FileComments::Comment& c : fc.comments) {
    if (count(out, c.text) != 1) return "found " + std::to_string(count(out, c.text)) + " times: " + c.text;
    const std::size_t p = out.find(c.text);
    if (p < at) return "out of order: " + c.text;
    at = p;
  }
  return "";
}

// The line of `text` holding `needle` (0-based), or -1.
int lineOf(const std::string& text, const std::string& needle) {
  const std::size_t p = text.find(needle);
  return p == std::string::npos ? -1 : int(std::count(text.begin(), text.begin() + p, '\n'));
}

std::string line(const std::string& text, int l) {
  std::istringstream in(text);
  std::string s;
  for (int i = 0; i <= l && std::getline(in, s); ++i) {
  }
  return s;
}

// Every check of one text with comments: kept once in order, the same document as the plain
// writer's text, reads back to a spec that writes the same, and is a fixed point.
void roundTrip(const std::string& text, const std::string& baseDir = ".") {
  const MechanismSpec spec = parseMechanism(text, "test.json", baseDir);
  const FileComments fc = readComments(text);
  const std::string plain = writeMechanism(spec);
  const std::string out = writeMechanism(spec, fc);
  const std::string kept = commentsKept(fc, out);
  QVERIFY2(kept.empty(), (kept + "\n" + out).c_str());
  QCOMPARE(tokens(out), tokens(plain));  // only comments differ (and so every "=EXPR" is kept)
  QCOMPARE(count(out, "\"="), count(plain, "\"="));
  const MechanismSpec again = parseMechanism(out, "test.json", baseDir);
  QCOMPARE(writeMechanism(again), plain);
  QCOMPARE(writeMechanism(again, readComments(out)), out);
}

const char* kBodies = R"({
  "mechsim": 1,
  "bodies": [
    {"name": "ground", "fixed": true},
    // the crank turns
    {"name": "crank", "mass": 2, "shapes": [{"type": "box", "size": [0.1, 0.02, 0.02]}]},
    {"name": "rocker", "mass": 2, "shapes": [{"type": "box", "size": [0.1, 0.02, 0.02]}]}
  ]
}
)";

}  // namespace

class TestComments : public QObject {
  Q_OBJECT

 private slots:
  void everyMechanismFileRoundTrips() {
    int files = 0, withComments = 0, withParameters = 0;
    QDirIterator it(kSource + "/mechanisms", {"*.json"}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
      const QString path = it.next();
      const std::string text = readAll(path.toStdString());
      const std::string dir = QFileInfo(path).absolutePath().toStdString();
      MechanismSpec spec;
      try {
        spec = parseMechanism(text, path.toStdString(), dir);
      } catch (const LoadError&) {
        continue;  // not a mechanism (a study file)
      }
      ++files;
      const FileComments fc = readComments(text);
      if (!fc.empty()) ++withComments;
      if (!spec.parameters.empty()) ++withParameters;
      const std::string plain = writeMechanism(spec);
      const std::string out = writeMechanism(spec, fc);
      const std::string where = path.toStdString() + ": ";
      const std::string kept = commentsKept(fc, out);
      QVERIFY2(kept.empty(), (where + kept).c_str());
      QVERIFY2(tokens(out) == tokens(plain), (where + "not the written document").c_str());
      QVERIFY2(count(out, "\"=") == count(plain, "\"="), (where + "\"=EXPR\" fields lost").c_str());
      const MechanismSpec again = parseMechanism(out, path.toStdString(), dir);
      QVERIFY2(writeMechanism(again) == plain, (where + "reads back to another spec").c_str());
      QVERIFY2(writeMechanism(again, readComments(out)) == out, (where + "not a fixed point").c_str());
    }
    QVERIFY(files >= 30);
    QVERIFY(withComments >= 30);
    QVERIFY(withParameters >= 1);
  }

  void headerAndParameters() {
    const std::string text = readAll((kSource + "/mechanisms/fourbar-parametric.json").toStdString());
    const FileComments fc = readComments(text);
    QCOMPARE(fc.comments.size(), std::size_t(5));
    QCOMPARE(describe(fc.anchorOf(fc.comments[0])), std::string("Before "));
    const std::string out = writeMechanism(parse(text), fc);
    QVERIFY(out.rfind(fc.comments[0].text + "\n", 0) == 0);  // the header is still the header
    QVERIFY(count(out, "\"=") > 0);
    roundTrip(text);
  }

  void anchors() {
    const std::string text = R"(/* head */ {
  "mechsim": 1, // version
  "units": { // units
    /* before angle */ "angle": "deg"
  },
  "bodies": [
    { "name": "a" },
    // before b
    { "name": "b", "shapes": [
      // first shape
      { "type": "sphere", "radius": 1 } ] },
    { "name": "c" }
    // closing
  ]
} // end
// after
)";
    const FileComments fc = readComments(text);
    std::vector<std::string> got;
    for (const auto& c : fc.comments) got.push_back(describe(fc.anchorOf(c)));
    const std::vector<std::string> want = {"Before ",
                                           "Trailing mechsim",
                                           "AfterOpen units",
                                           "Before units.angle",
                                           "Before bodies{b}",
                                           "Before bodies{b}.shapes[0]",
                                           "ContainerEnd bodies",
                                           "Trailing ",
                                           "DocumentEnd"};
    QCOMPARE(got, want);
    QCOMPARE(fc.comments[0].text, std::string("/* head */"));
    roundTrip(text);
  }

  void commentFollowsItsBody() {
    MechanismSpec spec = parse(kBodies);
    const FileComments fc = readComments(kBodies);
    QCOMPARE(describe(fc.anchorOf(fc.comments[0])), std::string("Before bodies{crank}"));
    BodySpec extra = spec.bodies[2];
    extra.name = "extra";
    spec.bodies.insert(spec.bodies.begin() + 1, extra);  // before the crank
    const std::string out = writeMechanism(spec, fc);
    const int l = lineOf(out, "// the crank turns");
    QVERIFY2(l > 0, out.c_str());
    QVERIFY2(line(out, l + 1).find("\"name\": \"crank\"") != std::string::npos, out.c_str());
    QVERIFY2(line(out, l - 1).find("\"name\": \"extra\"") != std::string::npos, out.c_str());
    QCOMPARE(line(out, l), std::string("    // the crank turns"));
    QCOMPARE(tokens(out), tokens(writeMechanism(spec)));
  }

  void commentOfADeletedBody() {
    // Its comment moves to the next body; deleting the last one, to the end of the array.
    MechanismSpec spec = parse(kBodies);
    const FileComments fc = readComments(kBodies);
    spec.bodies.erase(spec.bodies.begin() + 1);
    std::string out = writeMechanism(spec, fc);
    QCOMPARE(tokens(out), tokens(writeMechanism(spec)));
    QCOMPARE(count(out, "// the crank turns"), std::size_t(1));
    QVERIFY2(line(out, lineOf(out, "// the crank turns") + 1).find("\"rocker\"") != std::string::npos, out.c_str());
    spec.bodies.erase(spec.bodies.begin() + 1);
    out = writeMechanism(spec, fc);
    QCOMPARE(tokens(out), tokens(writeMechanism(spec)));
    QCOMPARE(count(out, "// the crank turns"), std::size_t(1));
    QCOMPARE(writeMechanism(parse(out)), writeMechanism(spec));
  }

  void trailingComments() {
    // The body is written on one line: its members' trailing comments all end up at its end, each
    // // comment ending its line. "fixed": false is left out by the writer: its comment goes to
    // the end of the previous member's line.
    const std::string text = R"({
  "mechsim": 1,  // version
  "name": "t", /* block */ // and a line
  "bodies": [
    { "name": "a",  // first
      "mass": 1,    /* kg */
      "fixed": false // default
    }
  ]
}
)";
    const std::string out = writeMechanism(parse(text), readComments(text));
    QVERIFY2(out.find("  \"mechsim\": 1, // version\n") != std::string::npos, out.c_str());
    QVERIFY2(out.find("  \"name\": \"t\", /* block */ // and a line\n") != std::string::npos, out.c_str());
    QVERIFY2(out.find("[{ \"name\": \"a\", \"mass\": 1 }] // first\n  /* kg */ // default\n}") != std::string::npos,
             out.c_str());
    roundTrip(text);
  }

  void blockCommentsOverLines() {
    const std::string text = R"(/* A header
   over two lines */
{
  "mechsim": 1,
  /* before
     bodies */ "bodies": [ { "name": "a", "mass": 1 } ], /* trailing
  over lines */ // and more
  "joints": []
}
)";
    const FileComments fc = readComments(text);
    QCOMPARE(fc.comments[1].text, std::string("/* before\n     bodies */"));
    const std::string out = writeMechanism(parse(text), fc);
    QVERIFY2(out.rfind("/* A header\n   over two lines */\n{\n", 0) == 0, out.c_str());
    QVERIFY2(out.find("  /* before\n     bodies */\n  \"bodies\"") != std::string::npos, out.c_str());
    QVERIFY2(out.find("}] /* trailing\n  over lines */ // and more\n}") != std::string::npos, out.c_str());
    roundTrip(text);
  }

  void commentBeforeClosingBracket() {
    // In fourbar.json the bodies array is written over several lines: the comment stays just above
    // its closing bracket, indented as its elements.
    std::string text = readAll((kSource + "/mechanisms/fourbar.json").toStdString());
    const std::size_t close = text.find("  ],\n  \"joints\"");
    QVERIFY(close != std::string::npos);
    text.insert(close, "    // more bodies here\n");
    const FileComments fc = readComments(text);
    QCOMPARE(describe(fc.anchorOf(fc.comments.back())), std::string("ContainerEnd bodies"));
    const std::string out = writeMechanism(parse(text), fc);
    const int l = lineOf(out, "// more bodies here");
    QCOMPARE(line(out, l), std::string("    // more bodies here"));
    QCOMPARE(line(out, l + 1), std::string("  ],"));
    roundTrip(text);
    // A short array written on one line: the comment goes above that line.
    const std::string small = "{\n  \"mechsim\": 1,\n  \"bodies\": [\n    { \"name\": \"a\" }\n    // end\n  ]\n}\n";
    const std::string o2 = writeMechanism(parse(small), readComments(small));
    QVERIFY2(o2.find("  // end\n  \"bodies\": [") != std::string::npos, o2.c_str());
    roundTrip(small);
  }

  void crlfLineEnds() {
    const std::string lf = std::string(kBodies).insert(2, "  /* a block\n     comment */\n");
    std::string crlf;
    for (const char c : "// header\n" + lf) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    const FileComments fc = readComments(crlf);
    QCOMPARE(fc.comments.size(), std::size_t(3));
    for (const auto& c : fc.comments) QVERIFY2(c.text.find('\r') == std::string::npos, c.text.c_str());
    const std::string out = writeMechanism(parse(crlf), fc);
    QVERIFY(out.find('\r') == std::string::npos);
    QCOMPARE(out, writeMechanism(parse("// header\n" + lf), readComments("// header\n" + lf)));
    roundTrip(crlf);
  }

  void commentsAnywhere_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("fourbar") << "mechanisms/fourbar.json";
    QTest::newRow("parametric") << "mechanisms/fourbar-parametric.json";
  }

  void commentsAnywhere() {
    // A comment in every third gap between tokens, one at a time (a line comment, a block comment
    // over two lines), then one in every gap at once, with LF and with CRLF line ends: always kept
    // once and in order, the text always reads as the writer's, a fixed point.
    QFETCH(QString, file);
    const std::string text = readAll((kSource + "/" + file).toStdString());
    std::vector<std::size_t> gaps;
    bool inString = false;
    auto structural = [](char c) { return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':'; };
    for (std::size_t p = text.find('{'); p < text.size(); ++p) {
      if (inString) {
        if (text[p] == '\\') ++p;
        else if (text[p] == '"') inString = false;
        continue;
      }
      if (structural(text[p]) || (p > 0 && structural(text[p - 1]))) gaps.push_back(p);
      if (text[p] == '"') inString = true;
    }
    gaps.push_back(text.size());
    QVERIFY(gaps.size() > 500);
    for (std::size_t g = 0; g < gaps.size(); g += 3) {
      for (const char* c : {" // ~c~\n", " /* ~c\n b~ */ "}) {
        std::string t = text;
        t.insert(gaps[g], c);
        roundTrip(t);
        if (QTest::currentTestFailed()) QFAIL(("at gap " + std::to_string(gaps[g]) + ": " + c).c_str());
      }
    }
    std::string all = text;
    for (std::size_t g = gaps.size(); g-- > 0;)
      all.insert(gaps[g], g % 2 ? " // ~c" + std::to_string(g) + "~\n" : " /* ~c" + std::to_string(g) + "~ */ ");
    roundTrip(all);
    std::string crlf;
    for (const char c : all) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    roundTrip(crlf);
    QCOMPARE(writeMechanism(parse(crlf), readComments(crlf)), writeMechanism(parse(all), readComments(all)));
  }

  void namesAndIndices() {
    // Duplicate or missing names fall back to the index; keys with dots are quoted.
    const std::string text = R"({
  "mechsim": 1,
  "parameters": {
    // length
    "L.1": 0.1
  },
  "bodies": [
    // by index
    { "name": "a" },
    { "name": "a" }
  ]
}
)";
    const FileComments fc = readComments(text);
    QCOMPARE(describe(fc.anchorOf(fc.comments[0])), std::string("Before parameters.\"L.1\""));
    QCOMPARE(describe(fc.anchorOf(fc.comments[1])), std::string("Before bodies[0]"));
  }

  void noCommentsAndBadInput() {
    const std::string text = "{\"mechsim\": 1, \"bodies\": [{\"name\": \"a\"}]}";
    const FileComments none = readComments(text);
    QVERIFY(none.empty());
    QVERIFY(none.anchors.empty());
    const std::string w = writeMechanism(parse(text));
    QCOMPARE(keepComments(none, w), w);
    QVERIFY_THROWS_EXCEPTION(json::ParseError, readComments("{ /* open"));
    const FileComments some = readComments("// c\n" + text);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, keepComments(some, "// x\n" + w));
  }

  void writeMechanismFileWithComments() {
    QTemporaryDir tmp;
    const std::string path = (tmp.path() + "/m.json").toStdString();
    const FileComments fc = readComments(kBodies);
    const MechanismSpec spec = parse(kBodies);
    writeMechanismFile(spec, path, fc);
    QCOMPARE(readAll(path), writeMechanism(spec, fc));
    QCOMPARE(readComments(readAll(path)).comments.size(), std::size_t(1));
  }
};

QTEST_GUILESS_MAIN(TestComments)
#include "test_comments.moc"
