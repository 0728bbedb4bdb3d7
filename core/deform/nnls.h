#pragma once
// core/deform/nnls.h — non-negative least squares min ‖A w − b‖₂ subject to w ≥ 0 (Lawson & Hanson
// 1974, ch. 23 active-set algorithm), for the greedy cubature training of JGS2 Eq. (18) (An et al.
// 2008). A is small and dense (a handful of columns).
#include "core/types.h"

namespace mechsim::deform {

/// Returns w ≥ 0 minimising ‖A w − b‖; `iterations` caps the outer loop (3 × columns by default).
VecX nnls(const MatX& A, const VecX& b, int maxIterations = -1);

}  // namespace mechsim::deform
