#pragma once
// tests/core/files.h — the example mechanisms of mechanisms/ loaded as mechsim-cli loads them, the
// kinematic pipeline exactly as `mechsim-cli kinematics` runs it, and joint geometry read back from
// a loaded Model (tests link mechsim_io for these).
#include <QtTest>

#include <cmath>
#include <string>

#include "core/data.h"
#include "core/io/load.h"
#include "core/kinematics/kinematics.h"
#include "core/model.h"

namespace mechsim::test {

/// mechanisms/<name> of the source tree (MECHSIM_SOURCE_DIR), loaded by io::loadModel.
inline Model loadExample(const std::string& name) {
  return io::loadModel(std::string(MECHSIM_SOURCE_DIR) + "/mechanisms/" + name);
}

/// World position of joint `name` at the file's configuration (the point on its body1).
inline Vec3 jointPoint(const Model& m, const std::string& name) {
  const Joint& j = m.joints[m.findJoint(name)];
  return bodyPose(m, m.q0, j.body1).apply(j.point1);
}

/// Angle of v about +z measured from direction e (both in the xy plane).
inline double planarAngle(const Vec3& e, const Vec3& v) {
  return std::atan2(e.x() * v.y() - e.y() * v.x(), e.x() * v.x() + e.y() * v.y());
}

/// The pipeline of `mechsim-cli kinematics` (cmd_kinematics.cpp): at t = k·dt, k = 0 … ⌊tEnd/dt⌋,
/// solvePositions → solveVelocities → solveAccelerations → updateJointCoordinates on one Data,
/// then check(k, t, d). Fails the test (QVERIFY) when the position analysis fails or the state is
/// not finite; returns the number of steps done.
template <class F>
long runLikeCli(const Model& m, double tEnd, double dt, F&& check) {
  Data d = makeData(m);
  const long steps = static_cast<long>(std::floor(tEnd / dt + 1e-9));
  for (long k = 0; k <= steps; ++k) {
    const double t = k * dt;
    if (!solvePositions(m, d, t)) {
      QTest::qFail(qPrintable(QString("dt %1: position analysis failed at t = %2: %3")
                                  .arg(dt).arg(t).arg(d.stats.message.c_str())),
                   __FILE__, __LINE__);
      return k;
    }
    solveVelocities(m, d);
    solveAccelerations(m, d);
    updateJointCoordinates(m, d);
    if (!d.q.allFinite() || !d.qd.allFinite() || !d.qdd.allFinite()) {
      QTest::qFail(qPrintable(QString("dt %1: non-finite state at t = %2").arg(dt).arg(t)), __FILE__, __LINE__);
      return k;
    }
    check(k, t, d);
    if (QTest::currentTestFailed()) return k;
  }
  return steps + 1;
}

}  // namespace mechsim::test
