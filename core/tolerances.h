#pragma once
// core/tolerances.h — every named tolerance of mechsim, with the reason for its value.
// Never compare doubles with bare equality; use one of these (STYLE.md §12).

namespace mechsim::tol {

/// Length below which two points coincide / an axis is zero-length (metres). Mechanisms are
/// modelled from millimetres to tens of metres; 1e-12 m is far below any modelling precision
/// and far above double round-off at those scales.
inline constexpr double kLengthEps = 1e-12;

/// Norm below which a direction vector given in a file is rejected as zero-length.
inline constexpr double kAxisNormMin = 1e-9;

/// Newton position analysis converges when the max-norm of Φ is below this (SI units).
/// 1e-10 is the figure the kinematics issue asks for; it is ~1e6 ulp of a 1 m coordinate.
inline constexpr double kPositionResidual = 1e-10;

/// Relative pivot threshold for rank decisions in the LU null-space solver: a pivot smaller
/// than this times the largest column entry counts as zero (rank loss / singular position).
inline constexpr double kRankRelative = 1e-9;

/// Relative pivot threshold below which a configuration is reported SINGULAR (kinematics.h,
/// mobility.cpp), applied to the scaled Jacobian R Φ_q C (translation columns × length scale, rows
/// to unit max-norm) and to the same matrix at the generic configuration, so neither the units of
/// a file nor a well-conditioned mechanism's small pivots matter. Looser than kRankRelative on
/// purpose: at a bifurcation / lock-up point Newton converges only linearly, and
/// max|Φ| < kPositionResidual leaves the position ~√kPositionResidual = 1e-5 (relative) away from
/// the exact singular point, where the smallest pivot is of that size. A configuration within
/// ~1e-4 of a rank drop is therefore reported singular (a crank 1e-4 rad from a dead centre); the
/// rates there are minimum-norm solutions at this threshold (velocity.cpp).
inline constexpr double kSingularRelative = 1e-4;

/// Threshold-pivoting parameter u of the sparse LU (a pivot must be ≥ u × the largest entry
/// of its column among the candidate rows); 0.1 is the usual MA48 / UMFPACK default.
inline constexpr double kPivotThreshold = 0.1;

/// Finite-difference step for derivative checks (Pinocchio uses 1e-8 with tolerance √step).
inline constexpr double kFdStep = 1e-7;

/// Step of the 5-point stencil that differentiates driver expressions of t (seconds):
/// truncation ~h⁴·f⁽⁵⁾/30 ≈ 1e-12, round-off ~ε·|f|/h² ≈ 2e-10 for the second derivative.
inline constexpr double kDriverDiffStep = 1e-3;

/// Density used for a body that gives neither mass nor density (kg/m³, steel-like) — only
/// applied when the body has shapes; see compile.cpp.
inline constexpr double kDefaultDensity = 1000.0;

}  // namespace mechsim::tol
