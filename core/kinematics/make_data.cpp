// core/kinematics/make_data.cpp — makeData: a Data sized for a model, at its file configuration,
// with the constraint residual, its Jacobian and the joint coordinates evaluated there.
#include "core/data.h"
#include "core/kinematics/kinematics.h"

namespace mechsim {

Data makeData(const Model& m) {
  Data d;
  d.t = 0;
  d.q = m.q0;
  d.qd = VecX::Zero(m.nq);
  d.qdd = VecX::Zero(m.nq);
  d.Jq = m.jacobianPattern;
  d.coords = VecX::Zero(m.nCoords);
  d.coordVel = VecX::Zero(m.nCoords);
  d.coordAcc = VecX::Zero(m.nCoords);
  // Φ and Φ_q at the file configuration, and its joint coordinates (0 there, except the
  // extension of a distance joint whose length differs from the file's distance).
  constraintResidual(m, d);
  constraintJacobian(m, d);
  updateJointCoordinates(m, d);
  return d;
}

}  // namespace mechsim
