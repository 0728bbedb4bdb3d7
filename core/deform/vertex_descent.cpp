// core/deform/vertex_descent.cpp — per-vertex Newton (the VBD-style baseline of JGS2 §3):
//
//   E_i(x_i) = m_i/(2h²)‖x_i − z_i‖² + Σ_{e∋i} V_e Ψ_e  (other vertices held),
//   δx_i = −H_ii⁻¹ g_i,   H_ii = m_i/h² I + Σ_{e∋i} [H_e]_ii (element Hessians projected PSD).
//
// Jacobi applies all δx_i from x^k at once; Vbd sweeps colour by colour (Gauss–Seidel, Chen et al.
// 2024 "Vertex Block Descent"). Neither looks beyond the vertex's own tets: the overshoot JGS2 cures.
#include "core/deform/sweep.h"

namespace mechsim::deform {

SolveStats solveVertexDescent(const DeformableModel& m, const SolveOptions& opt, const VecX& z, VecX& x) {
  const double invH2 = 1.0 / (m.h * m.h);
  auto prepare = [](const VecX&, const ElementCache&, const std::vector<double>&) {};
  auto local = [&](int i, const VecX& xc, const ElementCache& c, const std::vector<double>&, double* d) {
    double g[3], H[9];
    hd::vertexBlock(i, m.mass[i] * invH2, xc.data(), z.data(), m.incidence.tet.data(), m.incidence.local.data(),
                    m.incidence.offset[i], m.incidence.offset[i + 1], c.g.data(), c.H.data(), g, H);
    detail::addVertexHandles(m, i, xc.data(), g, H);
    double y[3];
    if (!hd::solve3(H, g, y)) return false;
    for (int r = 0; r < 3; ++r) d[r] = -y[r];
    return true;
  };
  auto noCoarse = [](VecX&, const ElementCache&, const std::vector<double>&) { return false; };
  return detail::runSweeps(m, opt, z, x, opt.method == Method::Vbd, prepare, local, prepare, noCoarse);
}

}  // namespace mechsim::deform
