// tests/io/test_expressions.cpp — tests core/io/expressions.cpp: driver expressions (muparser),
// their functions, unit scaling per joint coordinate, and errors.
#include <QtTest>

#include <cmath>

#include "core/io/expressions.h"
#include "core/io/load.h"

using namespace mechsim;
using namespace mechsim::io;

namespace {
constexpr double kPi = 3.14159265358979323846;
double at(const std::string& expr, double t) { return compileExpression(expr)(t); }
bool near(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b)); }

// A spec with one joint of `type` and one driver on its coordinate `coord`.
MechanismSpec oneDriver(JointType type, int coord, const std::string& expr, const std::string& len,
                        const std::string& ang) {
  MechanismSpec s;
  s.units.length = len;
  s.units.angle = ang;
  // Names are assigned from std::string values: GCC 12 at -O3 warns falsely (-Wrestrict,
  // bug 105329) when short literals are assigned to these members.
  const std::string g = "g", b = "b", jn = "J";
  s.bodies.resize(2);
  s.bodies[0].name = g;
  s.bodies[0].fixed = true;
  s.bodies[1].name = b;
  JointSpec j;
  j.name = jn;
  j.type = type;
  j.body1 = g;
  j.body2 = b;
  s.joints.push_back(j);
  s.drivers.push_back(DriverSpec{"d", "J", expr, coord});
  return s;
}
}  // namespace

class TestExpressions : public QObject {
  Q_OBJECT
 private slots:
  void functionsAndConstants() {
    QVERIFY(near(at("2 * t", 1.5), 3));
    QVERIFY(near(at("t^2 + 1", 3), 10));
    QVERIFY(near(at("pi", 0), kPi));
    QVERIFY(near(at("sin(pi / 2)", 0), 1));
    QVERIFY(near(at("cos(t)", 0.3), std::cos(0.3)));
    QVERIFY(near(at("tan(t)", 0.3), std::tan(0.3)));
    QVERIFY(near(at("asin(t)", 0.3), std::asin(0.3)));
    QVERIFY(near(at("acos(t)", 0.3), std::acos(0.3)));
    QVERIFY(near(at("atan(t)", 0.3), std::atan(0.3)));
    QVERIFY(near(at("atan2(1, -1)", 0), std::atan2(1, -1)));
    QVERIFY(near(at("atan2(t, 2)", 3), std::atan2(3, 2)));
    QVERIFY(near(at("sqrt(t)", 2), std::sqrt(2.0)));
    QVERIFY(near(at("exp(t)", 1.25), std::exp(1.25)));
    QVERIFY(near(at("log(t)", 10), std::log(10.0)));  // natural logarithm
    QVERIFY(near(at("abs(-t)", 2), 2));
    QVERIFY(near(at("min(t, 2)", 3), 2));
    QVERIFY(near(at("max(t, 2)", 3), 3));
    QVERIFY(near(at("t < 1 ? t : 2 - t", 1.5), 0.5));  // muparser's ternary
  }

  void nonFiniteIsNaN() {
    QVERIFY(std::isnan(at("log(t)", 0)));    // −inf
    QVERIFY(std::isnan(at("1 / t", 0)));     // inf
    QVERIFY(std::isnan(at("sqrt(t)", -1)));  // NaN
    QVERIFY(std::isfinite(at("log(t)", 1)));
  }

  void badExpressions() {
    auto message = [](const std::string& expr) -> QString {
      try {
        compileExpression(expr);
      } catch (const ExpressionError& e) {
        return QString::fromStdString(e.what());
      }
      return {};
    };
    QVERIFY(!message("360 * (t").isEmpty());
    QVERIFY(!message("360 * x").isEmpty());       // unknown variable
    QVERIFY(!message("foo(t)").isEmpty());        // unknown function
    QVERIFY(!message("t +").isEmpty());
    QVERIFY(message("").contains("empty"));
    QVERIFY(message("  ").contains("empty"));
    QVERIFY(message("1, 2").contains("exactly one"));
    try {
      compileExpression("t + y");
      QFAIL("no error");
    } catch (const ExpressionError& e) {
      QCOMPARE(e.position(), 4);  // 0-based offset of "y"
    }
  }

  void unitScalingPerCoordinate() {
    const double deg = kPi / 180;
    struct Case {
      JointType type;
      int coord;
      double scale;  // for units mm / deg
    } cases[] = {
        {JointType::Revolute, 0, deg},     {JointType::Prismatic, 0, 1e-3},  {JointType::Cylindrical, 0, deg},
        {JointType::Cylindrical, 1, 1e-3}, {JointType::Spherical, 0, deg},   {JointType::Spherical, 2, deg},
        {JointType::Universal, 1, deg},    {JointType::Planar, 0, 1e-3},     {JointType::Planar, 1, 1e-3},
        {JointType::Planar, 2, deg},       {JointType::Distance, 0, 1e-3},
    };
    for (const Case& c : cases) {
      const auto f = driverFunctions(oneDriver(c.type, c.coord, "360 * t", "mm", "deg"));
      QCOMPARE(int(f.size()), 1);
      QVERIFY2(near(f[0](0.5), 180 * c.scale), toString(c.type));
    }
    // cm and rad.
    QVERIFY(near(driverFunctions(oneDriver(JointType::Prismatic, 0, "t", "cm", "rad"))[0](2), 0.02));
    QVERIFY(near(driverFunctions(oneDriver(JointType::Revolute, 0, "t", "cm", "rad"))[0](2), 2));
    QVERIFY(near(driverFunctions(oneDriver(JointType::Revolute, 0, "360 * t", "m", "deg"))[0](1), 2 * kPi));
  }

  void driverErrorsAreLocated() {
    MechanismSpec s = oneDriver(JointType::Revolute, 0, "2 * (t", "m", "rad");
    s.sourceFile = "x.json";
    s.locations["drivers[0]"] = {7, 5};
    s.locations["drivers[0].value"] = {7, 33};
    try {
      driverFunctions(s);
      QFAIL("no error");
    } catch (const LoadError& e) {
      QCOMPARE(e.diagnostic().line, 7);
      QCOMPARE(e.diagnostic().col, 33);
      QVERIFY(QString(e.what()).startsWith("x.json:7:33: error: drivers[0].value: invalid expression \"2 * (t\""));
    }
    // A long expression is quoted by its start (LoadError keeps every quoted part to 80 bytes),
    // not cut inside a UTF-8 character; muparser's message quoting the rest is cut too.
    s = oneDriver(JointType::Revolute, 0, std::string(79, '(') + "\u03b8" + std::string(5000, '+'), "m", "rad");
    try {
      driverFunctions(s);
      QFAIL("no error");
    } catch (const LoadError& e) {
      const std::string what = e.what();
      QVERIFY2(what.find("invalid expression \"" + std::string(79, '(') + "...\": ") != std::string::npos, e.what());
      QVERIFY2(what.size() < 600, e.what());  // the expression is over 5000 bytes
    }
    s = oneDriver(JointType::Revolute, 3, "t", "m", "rad");
    try {
      driverFunctions(s);
      QFAIL("no error");
    } catch (const LoadError& e) {
      QVERIFY(QString(e.what()).contains("out of range"));
    }
    s = oneDriver(JointType::Revolute, 0, "t", "m", "rad");
    s.drivers[0].joint = "nope";
    try {
      driverFunctions(s);
      QFAIL("no error");
    } catch (const LoadError& e) {
      QVERIFY(QString(e.what()).contains("unknown joint \"nope\""));
    }
  }

  void functionsAreIndependent() {
    // Each function owns its parser: evaluating one does not disturb another, and a copy of a
    // function keeps its parser alive after the original is gone.
    auto f = compileExpression("2 * t");
    auto g = compileExpression("3 * t");
    std::function<double(double)> h;
    {
      auto tmp = compileExpression("t + 1");
      h = tmp;
    }
    QVERIFY(near(f(1), 2));
    QVERIFY(near(g(1), 3));
    QVERIFY(near(f(2), 4));
    QVERIFY(near(h(1), 2));
    // The whole spec's functions (all four drivers of the all-features file).
    const MechanismSpec s = readMechanismFile(MECHSIM_SOURCE_DIR "/tests/data/good/all_features.json");
    const auto fs = driverFunctions(s);
    QCOMPARE(int(fs.size()), 4);
    QVERIFY(near(fs[0](0.25), kPi / 2));
    QVERIFY(near(fs[1](0.5), std::sin(0.5)));
    QVERIFY(near(fs[2](2), 0.4));
    QVERIFY(near(fs[3](0.5), std::atan2(1, 1)));
  }
};

QTEST_APPLESS_MAIN(TestExpressions)
#include "test_expressions.moc"
