#pragma once
// core/deform/low_modes.h — the lowest eigenpairs of a sparse SPD matrix H through its factor:
// block Krylov–Schur on A = H⁻¹ (shift-and-invert at σ = 0), the training poses and coarse space
// of JGS2 (paper 001, Eq. 17–18; jgs2_precompute.cpp).
//
// The wanted λ of H are the largest θ = 1/λ of A. The basis V (n × p, orthonormal) is a block
// Krylov space of A grown b columns at a time: the next block Q is A V_last made orthogonal to V
// (classical Gram–Schmidt, twice) and orthonormal (Gram–Schmidt within the block, twice:
// A V_last − V C = Q R), so that
//     A V = V T + Q R E_lastᵀ,        T = Vᵀ A V   (p × p; block Arnoldi),
// with T's new columns Vᵀ (A Q) formed as each block is applied. Every few blocks (about four
// times per fill of V), Rayleigh–Ritz: T Y = Y Θ, Ritz vectors Φ = V Y. The residual of a Ritz pair needs no other product:
//     ‖A φ − θ φ‖ = ‖(I − V Vᵀ) A V y‖ = ‖R y_last‖,
// and a pair has converged when it is below tol · θ (Spectra's test). Until the k largest have,
// and V is full, the basis restarts thick (Stewart's Krylov–Schur): V = [Φ_keep, Q] with T = [Θ_keep, ·; ·, ·]
// — A Φ_keep = Φ_keep Θ_keep + Q R E_lastᵀ Y_keep stays within the new basis, so the space keeps
// its Krylov structure and continues from A Q.
//
// One step applies A to b vectors at once (one multi-right-hand-side solve, BLAS-3 in a
// supernodal factor) and orthogonalises them against V with matrix–matrix products, where a
// single-vector Lanczos (Spectra's SymEigsShiftSolver) makes matrix–vector passes over V per
// vector: the same flops, b times the memory traffic, which is what bounds it on large parts. A
// block space needs more applications than a single-vector one for the same modes (a lower
// polynomial degree per dimension; 1.4–2.6× here), each far cheaper (docs/deform.md, "The rest
// modes").
//
// A repeated eigenvalue has at most b independent directions in a block Krylov space (the start
// block's components in its eigenspace), so one repeated more than b times may be returned fewer
// times than it occurs — as any Krylov method's, Spectra's single-vector Lanczos's at b = 1. The
// repetitions of an elastic part come from its symmetry (2 for a square beam's bending pairs),
// well below the default b = 16. Where a new block is rank-deficient — an invariant subspace
// found — its missing columns are random vectors orthogonalised against V, and the iteration
// goes on.
#include <cstdint>
#include <functional>

#include "core/deform/deformable.h"

namespace mechsim::deform {

struct LowModesOptions {
  int blockSize = 16;        // b: columns per application of A
  int basisSize = 0;         // p at most before a restart; 0: max(2k + b, k + 3b), at most n
  double tolerance = 1e-8;   // ‖A φ − θ φ‖ ≤ tolerance · θ
  int maxRestarts = 1000;    // then std::runtime_error
  std::uint64_t seed = 1;    // start block (normal entries): the same modes on every run
  /// Below this n the eigenpairs come from a dense decomposition of H (also when the basis would
  /// not be smaller than n).
  int denseBelow = 600;
};

struct LowModes {
  VecX values;   // λ_1 ≤ … ≤ λ_k of H
  MatX vectors;  // n × k, orthonormal; H φ_t ≈ λ_t φ_t
  int applications = 0;  // columns A was applied to (solves with the factor)
  int restarts = 0;
  double applySeconds = 0;     // wall time in `inverse` (the rest is the basis's dense algebra)
  double largestResidual = 0;  // max_t ‖A φ_t − θ_t φ_t‖ / θ_t at the end (0 for the dense path)
  bool dense = false;          // computed by the dense decomposition
};

/// Applies A = H⁻¹ to a block: out = A in (n × b each; out is sized by the call).
using BlockInverse = std::function<void(const MatX& in, MatX& out)>;

/// The k lowest eigenpairs of the SPD matrix H, given A = H⁻¹ on blocks (1 ≤ k < n). H itself is
/// used only by the dense path. Throws std::invalid_argument for a bad k and std::runtime_error
/// when maxRestarts pass without convergence; exceptions from `inverse` pass through (a cancel).
LowModes lowestModes(const SpMat& H, int k, const BlockInverse& inverse, const LowModesOptions& options = {});

}  // namespace mechsim::deform
