#pragma once
// core/deform/step_control.h — the coefficients of the global step control (solver.h,
// Acceleration) from the sums that define the quadratic model q(s) = gᵀs + ½ sᵀHs of E at x^k:
// given the sweep's step d and the previous step p,
//   LineSearch  s = α d,        α = −gᵀd / dᵀHd                       (q minimised along d)
//   Subspace    s = α d + β p,  [dᵀHd dᵀHp; dᵀHp pᵀHp] [α; β] = −[gᵀd; gᵀp]  (q minimised on the plane)
// falling back to the line search when p is zero or the 2×2 system is near singular, and to the
// plain step (α = 1) when dᵀHd is not positive. Plain scalars, so the CPU sweeps (sweep.h) and the
// CUDA backend (gpu/, whose sums come from device reductions) take the same decision.
#include "core/deform/solver.h"

namespace mechsim::deform {

struct StepCoefficients {
  double alpha = 1, beta = 0;
};

/// The sums of the model: gd = gᵀd, dHd = dᵀHd, and for Subspace gp = gᵀp, dHp = dᵀHp, pHp = pᵀHp
/// (ignored unless havePrevious, i.e. p ≠ 0).
inline StepCoefficients stepCoefficients(Acceleration acc, double gd, double dHd, bool havePrevious, double gp,
                                         double dHp, double pHp) {
  StepCoefficients c;
  if (acc == Acceleration::None || !(dHd > 0)) return c;
  if (acc == Acceleration::Subspace && havePrevious) {
    const double det = dHd * pHp - dHp * dHp;
    if (pHp > 0 && det > 1e-10 * dHd * pHp) {
      c.alpha = (-gd * pHp + gp * dHp) / det;
      c.beta = (-gp * dHd + gd * dHp) / det;
      return c;
    }
  }
  c.alpha = -gd / dHd;
  return c;
}

}  // namespace mechsim::deform
