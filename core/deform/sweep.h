#pragma once
// core/deform/sweep.h — the sweep driver shared by the per-vertex solvers (VBD-style and JGS2):
// Jacobi (every vertex from x^k, then all updates at once) or graph-coloured Gauss–Seidel (colour by
// colour; vertices of one colour share no tet, so they are independent and could run in parallel).
// Internal to core/deform.
#include <chrono>
#include <cmath>
#include <vector>

#include "core/deform/hd/vertex.h"
#include "core/deform/solver.h"

namespace mechsim::deform::detail {

/// Residual g_a (3 nv) of every vertex from the element cache (hd::vertexBlock without H).
inline void vertexResiduals(const DeformableModel& m, const VecX& z, const VecX& x, const ElementCache& c,
                            std::vector<double>& G, const std::vector<int>* only = nullptr) {
  const double invH2 = 1.0 / (m.h * m.h);
  G.resize(3 * std::size_t(m.vertexCount()));
  auto one = [&](int v) {
    hd::vertexBlock(v, m.mass[v] * invH2, x.data(), z.data(), m.incidence.tet.data(), m.incidence.local.data(),
                    m.incidence.offset[v], m.incidence.offset[v + 1], c.g.data(), nullptr, &G[3 * std::size_t(v)],
                    nullptr);
    if (m.prescribed[v]) G[3 * v] = G[3 * v + 1] = G[3 * v + 2] = 0;
  };
  if (only)
    for (int v : *only) one(v);
  else
    for (int v = 0; v < m.vertexCount(); ++v) one(v);
}

/// Per-colour lists: the free vertices of each colour, the tets they touch and the vertices of
/// those tets (whose residuals change when the colour moves).
struct ColourPlan {
  std::vector<std::vector<int>> vertices, tets, touched;
};
inline ColourPlan makeColourPlan(const DeformableModel& m) {
  ColourPlan p;
  p.vertices.resize(m.colourCount);
  p.tets.resize(m.colourCount);
  p.touched.resize(m.colourCount);
  std::vector<int> mark(m.vertexCount(), -1);
  for (int v : m.freeVertices) p.vertices[m.colour[v]].push_back(v);
  for (int c = 0; c < m.colourCount; ++c) {
    for (int v : p.vertices[c])
      for (int k = m.incidence.offset[v]; k < m.incidence.offset[v + 1]; ++k) {
        const int t = m.incidence.tet[k];
        p.tets[c].push_back(t);  // a tet has one vertex per colour at most: no duplicates
        for (int w : m.mesh.tets[t])
          if (mark[w] != c) {
            mark[w] = c;
            p.touched[c].push_back(w);
          }
      }
  }
  return p;
}

/// Runs sweeps until the normalised step is below the tolerance. `prepare(x, cache, G)` runs at
/// the start of each sweep (after the element pass); `local(i, x, cache, G, delta)` returns the
/// update of free vertex i (false: singular local system → no move).
/// `refresh(x, cache, G)` runs in Gauss–Seidel after each colour, once the residuals it changed
/// are updated.
template <class Prepare, class Local, class Refresh>
SolveStats runSweeps(const DeformableModel& m, const SolveOptions& opt, const VecX& z, VecX& x, bool gaussSeidel,
                     Prepare&& prepare, Local&& local, Refresh&& refresh) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  SolveStats st;
  ElementCache c;
  std::vector<double> G;
  ColourPlan plan;
  if (gaussSeidel) plan = makeColourPlan(m);
  VecX dx = VecX::Zero(x.size());
  for (int it = 0; it < opt.maxIterations; ++it) {
    evalElements(m, x, c, true);
    vertexResiduals(m, z, x, c, G);
    prepare(x, c, G);
    if (!gaussSeidel) {
      for (int i : m.freeVertices) {
        double d[3] = {0, 0, 0};
        local(i, x, c, G, d);
        for (int r = 0; r < 3; ++r) dx[3 * i + r] = d[r];
      }
      x += dx;
    } else {
      const VecX xs = x;
      for (int col = 0; col < m.colourCount; ++col) {
        for (int i : plan.vertices[col]) {
          double d[3] = {0, 0, 0};
          local(i, x, c, G, d);
          for (int r = 0; r < 3; ++r) x[3 * i + r] += d[r];
        }
        evalElementList(m, x, c, plan.tets[col], true);
        vertexResiduals(m, z, x, c, G, &plan.touched[col]);
        refresh(x, c, G);
      }
      dx = x - xs;
    }
    if (recordIteration(opt, it, normalisedStep(m, dx), x, st)) break;
  }
  st.finalEnergy = incrementalEnergy(m, z, x);
  st.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return st;
}

}  // namespace mechsim::deform::detail
