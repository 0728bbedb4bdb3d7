#pragma once
// core/contact/sweep_order.h — the order in which the Gauss-Seidel solvers visit the rows.
//
// A sweep through v̂ (eq. 16) is a chain of read-modify-write steps on the velocity blocks of the
// two bodies of each row: when consecutive rows share a body, row i + 1 waits for the store of
// row i. Rows as a contact generator emits them (body by body) share a body most of the time.
// Ordering the contacts by a greedy colouring of the contact graph (no two contacts of one colour
// share a body) lets consecutive rows run overlapped. Gauss-Seidel in any fixed order is the same
// method with another splitting (A = D − L − U with L, U taken in that order); all the solvers use
// this one order, so Methods 2.2 and 3.1 still give the same iterates and Ω = D/γ is still PGS.
//
// A contact is a row without a friction parent and the friction rows that read its impulse; they
// stay together, normal row first, so a tangent row reads the bound of the same sweep.
#include <vector>

#include "core/contact/lcp.h"

namespace mechsim::contact {

/// The rows of p in sweep order (a permutation of 0..m−1): contacts grouped by colour (greedy, in
/// the order given, each contact takes the lowest colour neither of its bodies has yet; fixed
/// sides do not count), the order given kept within a colour. O(m).
void sweepOrder(const LcpProblem& p, std::vector<int>& order);

}  // namespace mechsim::contact
