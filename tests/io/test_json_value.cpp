// tests/io/test_json_value.cpp — tests core/io/json_value.cpp: the located JSON parser.
#include <QElapsedTimer>
#include <QtTest>

#include "core/io/json_value.h"

using namespace mechsim;
using namespace mechsim::io;

namespace {
// The location and message of the ParseError `text` raises (fails the test when none is thrown).
struct Err {
  int line = -1, col = -1;
  QString msg;
};
Err errorOf(std::string_view text, json::ParseLimits limits = {}) {
  try {
    json::parse(text, limits);
  } catch (const json::ParseError& e) {
    return {e.loc().line, e.loc().col, QString::fromStdString(e.what())};
  }
  return {};
}
}  // namespace

class TestJsonValue : public QObject {
  Q_OBJECT
 private slots:
  void locationsOfEveryValue() {
    const auto v = json::parse("{\n  \"a\": [1, 2.5],\n  \"b\": {\"c\": \"x\", \"d\": null}\n}");
    QCOMPARE(v.loc.line, 1);
    QCOMPARE(v.loc.col, 1);
    const auto* a = v.find("a");
    QVERIFY(a && a->isArray());
    QCOMPARE(a->loc.line, 2);
    QCOMPARE(a->loc.col, 8);
    QCOMPARE(a->items[1].loc.col, 12);
    QCOMPARE(a->items[1].number, 2.5);
    QVERIFY(a->items[0].integral);
    QVERIFY(!a->items[1].integral);
    const auto* c = v.find("b")->find("c");
    QCOMPARE(c->loc.line, 3);
    QCOMPARE(c->loc.col, 14);
    QCOMPARE(v.findMember("b")->keyLoc.col, 3);
    QVERIFY(v.find("b")->find("d")->isNull());
    QVERIFY(v.find("zzz") == nullptr);
    // Members keep file order.
    QCOMPARE(QString::fromStdString(v.members[0].key), QString("a"));
    QCOMPARE(QString::fromStdString(v.members[1].key), QString("b"));
  }

  void columnsCountCharactersNotBytes() {
    // "é" is two bytes but one column: the error at x is in column 8.
    const Err e = errorOf("[\"\xC3\xA9\xC3\xA9\", x]");
    QCOMPARE(e.line, 1);
    QCOMPARE(e.col, 8);
  }

  void comments() {
    const auto v = json::parse("// leading\n/* block\n comment */ { /* a */ \"k\" /* b */ : // c\n [1, /* d */ 2] // e\n}\n// trailing");
    QCOMPARE(int(v.find("k")->items.size()), 2);
    QCOMPARE(v.find("k")->loc.line, 4);
    const Err e = errorOf("{ /* never closed");
    QCOMPARE(e.col, 3);
    QVERIFY(e.msg.contains("unterminated /* comment"));
    // A single slash is not a comment.
    QVERIFY(errorOf("[1 / 2]").msg.contains("expected ',' or ']'"));
  }

  void stringsAndEscapes() {
    const auto v = json::parse("[\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\", \"\\u00e9\\u20AC\", \"\\ud83d\\ude00\", \"caf\\u00E9\"]");
    QCOMPARE(v.items[0].string, std::string("a\"b\\c/d\b\f\n\r\t"));
    QCOMPARE(v.items[1].string, std::string("\xC3\xA9\xE2\x82\xAC"));
    QCOMPARE(v.items[2].string, std::string("\xF0\x9F\x98\x80"));  // U+1F600 from a surrogate pair
    QCOMPARE(v.items[3].string, std::string("caf\xC3\xA9"));
    QVERIFY(errorOf("[\"\\ud800\"]").msg.contains("lone UTF-16 high surrogate"));
    QVERIFY(errorOf("[\"\\udc00\"]").msg.contains("lone UTF-16 low surrogate"));
    QVERIFY(errorOf("[\"\\ud800\\u0041\"]").msg.contains("invalid UTF-16 surrogate pair"));
    QVERIFY(errorOf("[\"\\u12G4\"]").msg.contains("4 hex digits"));
    QVERIFY(errorOf("[\"\\x\"]").msg.contains("invalid escape"));
    QVERIFY(errorOf("[\"a\tb\"]").msg.contains("control character"));
    QVERIFY(errorOf("[\"abc").msg.contains("unterminated string"));
    QVERIFY(errorOf("[\"a\xFF\"]").msg.contains("invalid UTF-8"));
    QVERIFY(errorOf("[\"a\xC0\x80\"]").msg.contains("invalid UTF-8"));  // overlong NUL
    QVERIFY(errorOf("[\"a\xE2\x82\"]").msg.contains("invalid UTF-8"));  // truncated sequence
  }

  void numbers() {
    const auto v = json::parse("[0, -0, 12, -3.25, 1e3, 1.5E-2, 2e+2, 1e-400, 1.7976931348623157e308]");
    QCOMPARE(v.items[2].number, 12.0);
    QCOMPARE(v.items[3].number, -3.25);
    QCOMPARE(v.items[4].number, 1000.0);
    QCOMPARE(v.items[5].number, 0.015);
    QCOMPARE(v.items[6].number, 200.0);
    QCOMPARE(v.items[7].number, 0.0);  // underflow is harmless
    QVERIFY(std::isfinite(v.items[8].number));
    QVERIFY(errorOf("[1e999]").msg.contains("too large"));
    QVERIFY(errorOf("[-1e400]").msg.contains("too large"));
    QVERIFY(errorOf("[NaN]").msg.contains("NaN is not a valid JSON number"));
    QVERIFY(errorOf("[Infinity]").msg.contains("not a valid JSON number"));
    QVERIFY(errorOf("[-Infinity]").msg.contains("not a valid JSON number"));
    QVERIFY(errorOf("[01]").msg.contains("leading zeros"));
    QVERIFY(errorOf("[1.]").msg.contains("after the decimal point"));
    QVERIFY(errorOf("[.5]").msg.contains("expected a value"));
    QVERIFY(errorOf("[1e]").msg.contains("exponent"));
    QVERIFY(errorOf("[+1]").msg.contains("leading '+'"));
    QVERIFY(errorOf("[1.2.3]").msg.contains("malformed number"));
    QVERIFY(errorOf("[-]").msg.contains("expected a digit"));
  }

  void structuralErrors() {
    Err e = errorOf("{\"a\": 1, \"a\": 2}");
    QCOMPARE(e.col, 10);
    QVERIFY(e.msg.contains("duplicate key \"a\""));
    e = errorOf("{\"a\": 1} x");
    QCOMPARE(e.col, 10);
    QVERIFY(e.msg.contains("after the end of the JSON document"));
    QVERIFY(errorOf("[1, 2,]").msg.contains("trailing comma"));
    QVERIFY(errorOf("{\"a\": 1,}").msg.contains("trailing comma"));
    QVERIFY(errorOf("{'a': 1}").msg.contains("double quotes"));
    QVERIFY(errorOf("{\"a\" 1}").msg.contains("expected ':'"));
    QVERIFY(errorOf("[1 2]").msg.contains("expected ',' or ']'"));
    QVERIFY(errorOf("[tru]").msg.contains("unexpected word 'tru'"));
    QVERIFY(errorOf("").msg.contains("empty"));
    QVERIFY(errorOf("  // only a comment\n").msg.contains("empty"));
    QVERIFY(errorOf("{\"a\": ").msg.contains("unexpected end of input"));
    // Literals.
    const auto v = json::parse("\xEF\xBB\xBF[true, false, null]");  // a byte-order mark is skipped
    QVERIFY(v.items[0].boolean);
    QCOMPARE(v.items[1].kind, json::Kind::Bool);
    QVERIFY(v.items[2].isNull());
  }

  void depthLimitBoundsRecursion() {
    // 64 levels parse; the 65th is refused at its bracket.
    QCOMPARE(json::parse(std::string(64, '[') + std::string(64, ']')).kind, json::Kind::Array);
    Err e = errorOf(std::string(65, '[') + std::string(65, ']'));
    QCOMPARE(e.col, 65);
    QVERIFY(e.msg.contains("nesting is too deep"));
    // A million brackets (or objects) fail fast without exhausting the stack.
    QElapsedTimer timer;
    timer.start();
    e = errorOf(std::string(1000000, '['));
    QVERIFY(e.msg.contains("nesting is too deep"));
    std::string objs;
    for (int i = 0; i < 200000; ++i) objs += "{\"a\":";
    QVERIFY(errorOf(objs).msg.contains("nesting is too deep"));
    QVERIFY(timer.elapsed() < 2000);
  }

  void sizeLimit() {
    json::ParseLimits small;
    small.maxBytes = 16;
    const Err e = errorOf("[1, 2, 3, 4, 5, 6, 7, 8]", small);
    QCOMPARE(e.line, 1);
    QCOMPARE(e.col, 1);
    QVERIFY(e.msg.contains("too large"));
    // The number of values is bounded too (memory of the tree).
    json::ParseLimits few;
    few.maxValues = 5;
    QVERIFY(json::parse("[1, 2, 3, 4]", few).isArray());  // 5 values with the array itself
    const Err m = errorOf("[1, 2, 3, 4, 5]", few);
    QCOMPARE(m.col, 14);
    QVERIFY(m.msg.contains("too many values"));
    // The default limit is 64 MiB.
    const std::string huge((std::size_t(64) << 20) + 1, ' ');
    QVERIFY(errorOf(huge).msg.contains("64 MiB"));
  }
};

QTEST_APPLESS_MAIN(TestJsonValue)
#include "test_json_value.moc"
