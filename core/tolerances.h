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
