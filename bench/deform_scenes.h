#pragma once
// bench/deform_scenes.h — the cantilever of the deformable-part benchmarks (bench_deform.cpp,
// bench_modes.cpp), at every size they use.
#include "core/deform/deformable.h"

namespace mechsim::bench {

/// A 1 × 0.25 × 0.25 m beam on an nx × ny × nz box grid (6 tets per cell), pinned at x = 0, under
/// gravity; stable neo-Hookean with Young's modulus `youngs`, ν = 0.3, ρ = 1000, h = 1/100 s.
deform::DeformableModel cantileverModel(double youngs, int nx, int ny, int nz);

}  // namespace mechsim::bench
