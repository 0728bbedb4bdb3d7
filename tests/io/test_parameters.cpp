// tests/io/test_parameters.cpp — tests core/io/parameters.cpp: the "parameters" section of the
// native format on mechanisms/fourbar-parametric.json (every pose and joint point from five named
// numbers): it assembles as fourbar.json does; written back, every "=EXPR" field stays an
// expression and reading the text again gives the same spec (write → read → write: the same text);
// a parameter set by a study's override moves what depends on it (the coupler's length follows L3
// exactly); a field changed in the spec since is written as its number; driver expressions see
// the parameters. The bad-file corpus (tests/data/bad/param_*.json, test_io_load) has the errors.
#include <QtTest>

#include <cmath>

#include "core/io/expressions.h"
#include "core/io/load.h"
#include "core/io/parameters.h"
#include "core/io/write.h"
#include "core/spec_path.h"

using namespace mechsim;
using namespace mechsim::io;

namespace {
const std::string kFile = MECHSIM_SOURCE_DIR "/mechanisms/fourbar-parametric.json";

const JointSpec& joint(const MechanismSpec& s, const std::string& n) {
  for (const JointSpec& j : s.joints)
    if (j.name == n) return j;
  throw std::runtime_error("no joint " + n);
}
const ParameterSpec& parameter(const MechanismSpec& s, const std::string& n) {
  for (const ParameterSpec& p : s.parameters)
    if (p.name == n) return p;
  throw std::runtime_error("no parameter " + n);
}
}  // namespace

class TestParameters : public QObject {
  Q_OBJECT
 private slots:
  void fieldsFollowTheParameters();
  void writeBackKeepsTheExpressions();
  void overridesMoveWhatDependsOnThem();
  void changedFieldsAreWrittenAsNumbers();
  void expressionsSeeParameters();
  void namesInExpressions();
};

void TestParameters::fieldsFollowTheParameters() {
  const MechanismSpec p = readMechanismFile(kFile);
  const MechanismSpec f = readMechanismFile(MECHSIM_SOURCE_DIR "/mechanisms/fourbar.json");
  QCOMPARE(p.parameters.size(), size_t(16));
  QCOMPARE(parameter(p, "L1").unit, std::string("length"));
  QCOMPARE(parameter(p, "Bx").expression, std::string("L2*cos(theta0*pi/180)"));
  for (const char* n : {"A", "B", "C", "D"})
    QVERIFY2((joint(p, n).point - joint(f, n).point).norm() < 1e-12, n);
  QVERIFY((p.handles[0].point - f.handles[0].point).norm() < 1e-9);
  QCOMPARE(p.parameterFields.at("joints[2].point[0]"), std::string("Cx"));
  QCOMPARE(p.parameterFields.at("bodies[1].orientation.angle"), std::string("theta0"));
}

void TestParameters::writeBackKeepsTheExpressions() {
  const MechanismSpec p = readMechanismFile(kFile);
  const std::string text = writeMechanism(p);
  QVERIFY2(text.find("\"parameters\"") != std::string::npos, text.c_str());
  QVERIFY(text.find("\"=L2*cos(theta0*pi/180)\"") != std::string::npos);
  QVERIFY(text.find("[\"=Cx\", \"=Cy\", 0]") != std::string::npos || text.find("\"=Cx\"") != std::string::npos);
  QVERIFY(text.find("\"=L1\"") != std::string::npos);
  const MechanismSpec again = parseMechanism(text, "again.json", MECHSIM_SOURCE_DIR "/mechanisms");
  QCOMPARE(again.parameters.size(), p.parameters.size());
  QCOMPARE(again.parameterFields, p.parameterFields);
  for (const char* n : {"A", "B", "C", "D"}) QVERIFY((joint(again, n).point - joint(p, n).point).norm() < 1e-15);
  QCOMPARE(writeMechanism(again), text);
}

void TestParameters::overridesMoveWhatDependsOnThem() {
  const MechanismSpec s = readMechanismFile(kFile, ParameterOverrides{{"L3", 0.36}, {"L2", 0.105}});
  QCOMPARE(parameter(s, "L3").value, 0.36);
  QVERIFY(parameter(s, "L3").expression.empty());
  const Vec3 B = joint(s, "B").point, C = joint(s, "C").point, D = joint(s, "D").point;
  QVERIFY(std::abs((C - B).norm() - 0.36) < 1e-12);
  QVERIFY(std::abs((C - D).norm() - 0.3) < 1e-12);
  QVERIFY(std::abs(B.norm() - 0.105) < 1e-12);
  // An override of a name the file does not have is an error.
  bool threw = false;
  try {
    readMechanismFile(kFile, ParameterOverrides{{"L9", 1}});
  } catch (const LoadError& e) {
    threw = std::string(e.what()).find("parameter \"L9\"") != std::string::npos;
  }
  QVERIFY(threw);
}

void TestParameters::changedFieldsAreWrittenAsNumbers() {
  MechanismSpec s = readMechanismFile(kFile);
  setSpecValue(s, "joints.B.point[0]", SpecValue{{0.051}, {}});
  const std::string text = writeMechanism(s);
  const MechanismSpec again = parseMechanism(text, "again.json", MECHSIM_SOURCE_DIR "/mechanisms");
  QCOMPARE(joint(again, "B").point.x(), 0.051);
  QVERIFY(!again.parameterFields.count("joints[1].point[0]"));
  QCOMPARE(again.parameterFields.at("joints[1].point[1]"), std::string("By"));
}

void TestParameters::expressionsSeeParameters() {
  const std::vector<ParameterSpec> ps{{"omega", "angle", 90, ""}, {"k", "none", 2, ""}};
  QCOMPARE(compileExpression("omega * t + k", 1.0, &ps)(2.0), 182.0);
  QCOMPARE(evaluateParameterExpression("k^3 + omega/90", ps), 9.0);
  bool threw = false;
  try {
    evaluateParameterExpression("2 * t", ps);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  QVERIFY(threw);
}

void TestParameters::namesInExpressions() {
  QCOMPARE(expressionNames("L2*cos(theta0*pi/180) + 1e-3*e2 + sqrt (x)"),
           (std::vector<std::string>{"L2", "theta0", "e2", "x"}));
  QCOMPARE(expressionNames("2.5e+3 * t"), std::vector<std::string>{"t"});
}

QTEST_APPLESS_MAIN(TestParameters)
#include "test_parameters.moc"
