#pragma once
// core/dynamics/coordinate_rows.h — a joint coordinate as a twist-space row (internal).
//
// A joint coordinate θ(q) (angle or slide, kinematics/coordinates.cpp) has the q-gradient ∇θ from
// kin::coordinateGradient; its twist row ∇θ T (twist.h) gives θ̇ = row · ν, and a joint effort τ on
// the coordinate is the generalised force rowᵀ τ (virtual work τ δθ). Used by joint springs,
// motors, servos and joint limits.
#include "core/dynamics/twist.h"
#include "core/model.h"

namespace mechsim::dyn {

struct CoordinateRow {
  double value = 0;           // θ, unwrapped against `reference` for angles (SI)
  int moving[2] = {-1, -1};   // moving index of body1 / body2 (−1: fixed)
  Vec6 row[2];                // twist rows of the two sides
  double rate(const VecX& nu) const {
    double r = 0;
    for (int s = 0; s < 2; ++s)
      if (moving[s] >= 0) r += row[s].dot(nu.segment<6>(6 * moving[s]));
    return r;
  }
  /// f += rowᵀ τ
  void addEffort(double tau, VecX& f) const {
    for (int s = 0; s < 2; ++s)
      if (moving[s] >= 0) f.segment<6>(6 * moving[s]) += tau * row[s];
  }
};

/// Coordinate k of joint j at q; `reference` is the previous (unwrapped) value of an angle.
CoordinateRow coordinateRow(const Model& m, const VecX& q, const std::vector<BodyInertia>& bi, int j, int k,
                            double reference);

}  // namespace mechsim::dyn
