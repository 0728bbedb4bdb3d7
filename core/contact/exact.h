#pragma once
// core/contact/exact.h — exact solutions of small (boxed) LCPs, the references of the iterative
// solvers' tests: Lemke's complementary pivoting and enumeration of complementary index sets.
#include "core/types.h"

namespace mechsim::contact {

/// Lemke's algorithm (covering vector e = 1, Gauss-Jordan tableau pivots, minimum-ratio test with
/// z₀ preferred on ties) for LCP(q, A): w = A z + q ≥ 0, z ≥ 0, wᵀz = 0. Terminates for A
/// positive definite (and for all P-matrices). Returns false on a secondary ray or when
/// maxPivots is exceeded (then z is unspecified). Dense, O(m²) per pivot: small problems only.
bool lemke(const MatX& A, const VecX& q, VecX& z, int maxPivots = 0);

/// Exact BLCP(q, l, u, A) with fixed bounds by enumeration: every row is at l, at u or free (rows
/// with l = 0, u = ∞: at 0 or free), the free block A_FF z_F = −q_F − A_FB z_B is solved by a
/// dense LU, and the first assignment whose z lies in the box and whose w = Az + q has the right
/// signs (w ≥ 0 at l, ≤ 0 at u, any where l = u, |w| ≤ tol on free rows) is returned. 3^m (2^m) systems: m ≤ 10.
/// Throws std::invalid_argument for m > 12. Returns false when no assignment passes.
bool enumerateBoxed(const MatX& A, const VecX& q, const VecX& lo, const VecX& hi, VecX& z, double tol = 1e-10);

}  // namespace mechsim::contact
