// tests/io/test_pose_limits.cpp — tests core/io/pose_limits.cpp: a starting pose outside a joint's
// limits is a located load warning with the amount in the file's units; in range, or without
// limits, nothing; the Panda descriptions (joint 4's range [−3.0718, −0.0698] rad excludes its file
// pose 0) warn through loadModel(path, &warnings) and `check --json`'s report, once each.
#include <QtTest>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/io/check_report.h"
#include "core/io/load.h"
#include "core/io/pose_limits.h"

using namespace mechsim;

namespace {

std::string source(const char* path) { return std::string(MECHSIM_SOURCE_DIR) + "/" + path; }

/// A pendulum in degrees whose revolute has `limits` (text, line 7 of the file).
std::string pendulumText(const std::string& limits) {
  return "{\n"
         "  \"mechsim\": 1, \"units\": {\"length\": \"m\", \"angle\": \"deg\"},\n"
         "  \"bodies\": [\n"
         "    {\"name\": \"ground\", \"fixed\": true},\n"
         "    {\"name\": \"bob\", \"position\": [1, 0, 0], \"mass\": 1, \"inertia\": [1e-3, 1e-3, 1e-3, 0, 0, 0]}],\n"
         "  \"joints\": [\n"
         "    {\"name\": \"pivot\", \"type\": \"revolute\", \"body1\": \"ground\", \"body2\": \"bob\", \"point\": [0, 0, 0], \"axis\": [0, 0, 1]" +
         (limits.empty() ? std::string() : ", \"limits\": " + limits) +
         "}]\n"
         "}\n";
}

std::vector<std::string> warningsOf(const std::string& text) {
  const MechanismSpec s = io::parseMechanism(text, "pendulum.json", ".");
  return io::poseLimitWarnings(s, io::compileSpec(s));
}

}  // namespace

class TestPoseLimits : public QObject {
  Q_OBJECT
 private slots:
  void outsideIsLocatedInFileUnits() {
    const auto w = warningsOf(pendulumText("[20, 90]"));
    QCOMPARE(w.size(), size_t(1));
    QVERIFY2(w[0].rfind("pendulum.json:7:", 0) == 0 && w[0].find(": warning: joint \"pivot\"") != std::string::npos, w[0].c_str());
    QVERIFY2(w[0].find("angle at 0 deg, 20 deg below its lower limit 20 deg (limits [20, 90] deg)") != std::string::npos, w[0].c_str());
    const auto above = warningsOf(pendulumText("[-90, -12.5]"));
    QCOMPARE(above.size(), size_t(1));
    QVERIFY2(above[0].find("12.5 deg above its upper limit -12.5 deg") != std::string::npos, above[0].c_str());
  }
  void inRangeOrUnlimitedIsQuiet() {
    QVERIFY(warningsOf(pendulumText("[-90, 90]")).empty());
    QVERIFY(warningsOf(pendulumText("[0, 90]")).empty());  // on the bound is in range
    QVERIFY(warningsOf(pendulumText("")).empty());
  }
  void pandaWarnsOnceEverywhere() {
    for (const char* f : {"mechanisms/mjcf/panda.xml", "mechanisms/urdf/panda.urdf", "mechanisms/sdf/panda.sdf"}) {
      std::vector<std::string> w;
      io::loadModel(source(f), &w);
      const auto n = std::count_if(w.begin(), w.end(), [](const std::string& x) {
        return x.find("joint \"panda_joint4\": the starting pose") != std::string::npos;
      });
      QVERIFY2(n == 1, f);
      // check: added to the spec's warnings and to the report, once.
      MechanismSpec s = io::readMechanismFile(source(f));
      const Model m = io::compileSpec(s);
      io::addPoseLimitWarnings(s, m);
      io::addPoseLimitWarnings(s, m);
      const auto json = nlohmann::json::parse(io::checkReportJson(f, s, m));
      int inReport = 0;
      for (const auto& x : json["warnings"]) inReport += x.get<std::string>().find("panda_joint4") != std::string::npos;
      QCOMPARE(inReport, 1);
    }
    // MJCF: located at the joint's range attribute.
    std::vector<std::string> w;
    io::loadModel(source("mechanisms/mjcf/panda.xml"), &w);
    QVERIFY(std::any_of(w.begin(), w.end(), [](const std::string& x) {
      return x.find("panda.xml:34:66: warning: joint \"panda_joint4\"") != std::string::npos &&
             x.find("0.0698 rad above its upper limit -0.0698 rad") != std::string::npos;
    }));
  }
};

QTEST_APPLESS_MAIN(TestPoseLimits)
#include "test_pose_limits.moc"
