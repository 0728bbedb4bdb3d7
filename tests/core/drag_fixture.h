#pragma once
// tests/core/drag_fixture.h — what the ANM drag tests (test_anm_drag.cpp, test_anm_branch.cpp)
// share: example mechanisms with their drivers left out (so a handle can be dragged through their
// free coordinates), the assembly-branch indicators of the four-bar and the Stewart platform, and
// the Stewart platform ready to be dragged.
#include <cmath>
#include <string>
#include <vector>

#include "core/data.h"
#include "core/io/load.h"
#include "core/kinematics/drag.h"
#include "core/kinematics/kinematics.h"
#include "core/model.h"

namespace mechsim::test {

/// mechanisms/NAME compiled without its drivers.
inline Model withoutDrivers(const std::string& name) {
  MechanismSpec s = io::readMechanismFile(std::string(MECHSIM_SOURCE_DIR) + "/mechanisms/" + name);
  s.drivers.clear();
  return io::compileSpec(s);
}

/// World position of joint `joint`'s point on its body1 at q.
inline Vec3 jointWorld(const Model& m, const VecX& q, const std::string& joint) {
  const Joint& j = m.joints[m.findJoint(joint)];
  return bodyPose(m, q, j.body1).apply(j.point1);
}

/// Assembly mode of a four-bar with joints B, C, D: the sign of z·((C − B) × (D − C)) (coupler
/// and rocker never align on a circuit of a Grashof crank-rocker, so the sign is constant on a
/// circuit).
inline int fourBarBranch(const Model& m, const VecX& q) {
  const Vec3 B = jointWorld(m, q, "B"), C = jointWorld(m, q, "C"), D = jointWorld(m, q, "D");
  return (C - B).cross(D - C).z() > 0 ? 1 : -1;
}

/// Stewart branch indicators (mechanisms/stewart.json): per leg, the sign of the leg axis along
/// (S − U) and of cos θ1 of its universal joint; and whether the platform's z axis points up.
inline std::vector<int> stewartBranch(const Model& m, const VecX& q) {
  std::vector<int> b;
  Data d = makeData(m);
  d.q = q;
  updateJointCoordinates(m, d);
  for (int i = 1; i <= 6; ++i) {
    const std::string k = std::to_string(i);
    const Joint& P = m.joints[m.findJoint("P" + k)];
    const Vec3 axis = bodyPose(m, q, P.body1).rotate(P.frame1.col(2));
    const Vec3 leg = jointWorld(m, q, "S" + k) - jointWorld(m, q, "U" + k);
    b.push_back(axis.dot(leg) > 0 ? 1 : -1);
    const Joint& U = m.joints[m.findJoint("U" + k)];
    b.push_back(std::cos(d.coords(U.firstCoord)) > 0 ? 1 : -1);
  }
  const int plat = m.findBody("platform");
  b.push_back(bodyPose(m, q, plat).rotate(Vec3::UnitZ()).z() > 0 ? 1 : -1);
  return b;
}

/// The Stewart platform without its leg drivers (6 DOF) assembled at t = 0 (`assembled` says
/// whether the position analysis converged), its handle as the drag point, with the branch
/// indicators and the point's position there.
struct StewartDrag {
  Model m = withoutDrivers("stewart.json");
  Data d = makeData(m);
  bool assembled = solvePositions(m, d, 0.0);
  DragPoint pt{m.handles.at(0).body, m.handles.at(0).local};
  std::vector<int> branch = stewartBranch(m, d.q);
  Vec3 start = dragPointPosition(m, d.q, pt);
};

}  // namespace mechsim::test
