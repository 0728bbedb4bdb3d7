// core/kinematics/coordinates.cpp — joint coordinates (angles, slides) and their rates.
//
// Each coordinate is read from its CoordExpr (terms.h; definitions in each joint's file):
//   Angle  θ = atan2(S, C),  θ̇ = (C Ṡ − S Ċ)/ρ²,
//          θ̈ = (C S̈ − S C̈)/ρ² − 2 (C Ṡ − S Ċ)(C Ċ + S Ṡ)/ρ⁴,  ρ² = S² + C²
//   Sine   θ = asin S,  θ̇ = Ṡ/c,  θ̈ = S̈/c + S Ṡ²/c³,  c = √(1 − S²)
//   Linear s = S, ṡ = Ṡ, s̈ = S̈
// with Ṡ = ∇S·q̇ and S̈ = ∇S·q̈ + (∇S·q̇)_q q̇ from the jets. Angles are unwrapped against the
// previous value in d.coords, so they stay continuous across ±π (a crank turning many times
// reads 0 … 2π … 4π).
#include <cmath>

#include "core/kinematics/assembly.h"
#include "core/kinematics/kinematics.h"

namespace mechsim {

void updateJointCoordinates(const Model& m, Data& d) {
  if (d.coords.size() != m.nCoords) d.coords = VecX::Zero(m.nCoords);
  d.coordVel.resize(m.nCoords);
  d.coordAcc.resize(m.nCoords);
  const VecX* qd = d.qd.size() == m.nq ? &d.qd : nullptr;
  const bool haveAcc = d.qdd.size() == m.nq;
  kin::CoordExpr e[3];
  for (int j = 0; j < static_cast<int>(m.joints.size()); ++j) {
    const Joint& joint = m.joints[j];
    if (joint.nCoords == 0) continue;
    kin::jointCoordinates(m, d.q, qd, j, e);
    const int bodies[2] = {joint.body1, joint.body2};
    for (int k = 0; k < joint.nCoords; ++k) {
      // ∇S·q̈ and ∇C·q̈ from the bodies' blocks.
      double qddS = 0, qddC = 0;
      for (int s = 0; s < 2 && haveAcc; ++s) {
        const int qi = m.bodies[bodies[s]].qIndex;
        if (qi < 0) continue;
        qddS += e[k].s.g[s].dot(d.qdd.segment<7>(qi).transpose());
        qddC += e[k].c.g[s].dot(d.qdd.segment<7>(qi).transpose());
      }
      double value, rate, acc;
      kin::coordinateValue(e[k], qddS, qddC, value, rate, acc);
      const int idx = joint.firstCoord + k;
      // Continuous angles: the 2π-branch nearest to the previous value.
      if (e[k].kind == kin::CoordExpr::Kind::Angle) value = d.coords(idx) + std::remainder(value - d.coords(idx), 2.0 * M_PI);
      d.coords(idx) = value;
      d.coordVel(idx) = rate;
      d.coordAcc(idx) = acc;
    }
  }
}

namespace kin {

void unwrapCoordinates(const Model& m, Data& d) {
  if (d.coords.size() != m.nCoords) d.coords = VecX::Zero(m.nCoords);
  CoordExpr e[3];
  for (int j = 0; j < static_cast<int>(m.joints.size()); ++j) {
    const Joint& joint = m.joints[j];
    if (joint.nCoords == 0) continue;
    jointCoordinates(m, d.q, nullptr, j, e);
    for (int k = 0; k < joint.nCoords; ++k) {
      double value, rate, acc;
      coordinateValue(e[k], 0, 0, value, rate, acc);
      const int idx = joint.firstCoord + k;
      if (e[k].kind == CoordKind::Angle) value = d.coords(idx) + std::remainder(value - d.coords(idx), 2.0 * M_PI);
      d.coords(idx) = value;
    }
  }
}

}  // namespace kin

}  // namespace mechsim
