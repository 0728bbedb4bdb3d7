// core/deform/newton.cpp — projected Newton on the incremental potential (the reference solver).
//
//   H^k d = −g^k                 (JGS2 Eq. 2–3; H assembled from PSD-projected element Hessians
//                                 plus M/h², so it is SPD once one vertex is prescribed or h > 0)
//   x^{k+1} = x^k + α d,         α from backtracking (Armijo, c = 1e-4, halving) on E.
// The linear system is solved by CHOLMOD's supernodal Cholesky (a fresh numeric factorisation per
// iteration, the symbolic analysis reused); the per-iteration time therefore includes assembly,
// factorisation and the solve, as the paper's PARDISO baseline does.
#include <chrono>
#include <cmath>
#include <stdexcept>

#include <Eigen/CholmodSupport>

#include "core/deform/solver.h"

namespace mechsim::deform {

namespace {
using Clock = std::chrono::steady_clock;

VecX scatterFree(const DeformableModel& m, const VecX& dFree) {
  VecX d = VecX::Zero(3 * m.vertexCount());
  for (int i = 0; i < m.freeCount(); ++i) d.segment<3>(3 * m.freeVertices[i]) = dFree.segment<3>(3 * i);
  return d;
}
VecX gatherFree(const DeformableModel& m, const VecX& g) {
  VecX gf(3 * m.freeCount());
  for (int i = 0; i < m.freeCount(); ++i) gf.segment<3>(3 * i) = g.segment<3>(3 * m.freeVertices[i]);
  return gf;
}
}  // namespace

VecX newtonDirection(const DeformableModel& m, const VecX& z, const VecX& x) {
  ElementCache c;
  evalElements(m, x, c, true);
  const VecX g = assembleGradient(m, z, x, c);
  const SpMat H = assembleHessian(m, c);
  Eigen::CholmodSupernodalLLT<SpMat> llt(H);
  if (llt.info() != Eigen::Success) throw std::runtime_error("Newton: Hessian factorisation failed");
  return scatterFree(m, -llt.solve(gatherFree(m, g)));
}

SolveStats solveNewton(const DeformableModel& m, const SolveOptions& opt, const VecX& z, VecX& x) {
  const auto t0 = Clock::now();
  SolveStats st;
  ElementCache c;
  Eigen::CholmodSupernodalLLT<SpMat> llt;
  bool analysed = false;
  double E = incrementalEnergy(m, z, x);
  for (int it = 0; it < opt.maxIterations; ++it) {
    evalElements(m, x, c, true);
    const VecX g = assembleGradient(m, z, x, c);
    const SpMat H = assembleHessian(m, c);
    // A cancel request is heard between the long calls too (the ordering and the factorisation
    // take minutes on a million tets): the iteration is dropped, x stays at the last iterate.
    const auto cancelled = [&] { return opt.cancelRequested && opt.cancelRequested() && (st.cancelled = true); };
    if (!analysed) {
      llt.analyzePattern(H);
      analysed = true;
      if (cancelled()) break;
    }
    llt.factorize(H);
    if (llt.info() != Eigen::Success) {
      st.diverged = true;
      break;
    }
    if (cancelled()) break;
    const VecX d = scatterFree(m, -llt.solve(gatherFree(m, g)));
    // Backtracking line search on E.
    const double slope = g.dot(d);
    double alpha = 1;
    VecX xn = x + d;
    double En = incrementalEnergy(m, z, xn);
    for (int k = 0; k < 30 && !(En <= E + 1e-4 * alpha * slope) ; ++k) {
      alpha *= 0.5;
      xn = x + alpha * d;
      En = incrementalEnergy(m, z, xn);
    }
    const double step = normalisedStep(m, alpha * d);
    x = xn;
    E = En;
    if (recordIteration(opt, it, step, x, st)) break;
  }
  st.finalEnergy = E;
  st.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return st;
}

}  // namespace mechsim::deform
