#pragma once
// core/max_abs.h — the max-norm of a residual that cannot hide a NaN.
//
// Eigen's lpNorm<Infinity>() and cwiseAbs().maxCoeff() may skip NaN entries (the vectorised max
// keeps the other operand): a Φ with a NaN past its first entry reads as converged. Every residual
// that decides convergence goes through maxAbs, whose NaN then fails the solver's finiteness check.
#include <Eigen/Core>

namespace mechsim {

/// max_i |v_i|; NaN when any entry is NaN; 0 for an empty vector.
template <class Derived>
double maxAbs(const Eigen::DenseBase<Derived>& v) {
  if (v.size() == 0) return 0.0;
  return v.derived().cwiseAbs().template maxCoeff<Eigen::PropagateNaN>();
}

}  // namespace mechsim
