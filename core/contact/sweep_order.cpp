// core/contact/sweep_order.cpp — contacts ordered by a greedy colouring of the contact graph
// (sweep_order.h).
#include "core/contact/sweep_order.h"

#include <algorithm>
#include <bit>
#include <cstdint>

namespace mechsim::contact {

void sweepOrder(const LcpProblem& p, std::vector<int>& order) {
  const int m = p.rows();
  // colours of the contacts each body has, as a bit set (64 colours; more fall into the last one)
  constexpr int kColours = 64;
  std::vector<std::uint64_t> taken(static_cast<std::size_t>(p.bodies), 0);
  std::vector<int> colour(static_cast<std::size_t>(m), -1), count(kColours + 1, 0);
  for (int i = 0; i < m; ++i) {
    if (p.frictionOf[i] >= 0) continue;  // coloured with its contact
    const int a = p.bodyA[i], b = p.bodyB[i];
    const std::uint64_t used = (a >= 0 ? taken[a] : 0) | (b >= 0 ? taken[b] : 0);
    const int c = std::min(std::countr_one(used), kColours - 1);  // the lowest colour not taken
    const std::uint64_t bit = std::uint64_t{1} << c;
    if (a >= 0) taken[a] |= bit;
    if (b >= 0) taken[b] |= bit;
    colour[i] = c;
  }
  for (int i = 0; i < m; ++i) {
    const int parent = p.frictionOf[i];
    if (parent >= 0) colour[i] = parent < m && colour[parent] >= 0 ? colour[parent] : kColours - 1;
    ++count[colour[i] + 1];
  }
  for (int c = 0; c < kColours; ++c) count[c + 1] += count[c];
  // stable counting sort by colour; a friction row follows its normal row when it did in p
  order.resize(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) order[count[colour[i]]++] = i;
}

}  // namespace mechsim::contact
