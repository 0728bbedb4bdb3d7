// core/deform/jgs2.cpp — JGS2 runtime local solves (Lan et al. 2025, §4–5).
//
// Every free vertex i solves the 3×3 system of Eq. (15)
//   (H_ii + H̃_ii) δx_i = −(g_i + g̃_i),
// H̃_ii and g̃_i being the complement energy's Hessian and gradient projected on the co-rotated
// subspace U_i = R Ū_i R_iᵀ (Eq. 14, 16). Variants (solver.h):
//   ExactSchur: U_i = [I; −H_CC⁻¹ H_iCᵀ] from the current Hessian through Eq. (23) with H in place
//               of H̄ (U_i = H⁻¹S_iᵀ (S_i H⁻¹ S_iᵀ)⁻¹), local matrix U_iᵀ H U_i = Sc_i (Eq. 12) and
//               right-hand side −U_iᵀ g: one Jacobi sweep is one Newton step (Eq. 13).
//   ExactSum:   H̃_ii = U_{i,C}ᵀ ∇²E_C U_{i,C} summed over every element (the paper's PSD "damper"
//               reading of Eq. 16, ambiguity (b) of the notes) and g̃_i = Σ_{a≠i} U_{i,a}ᵀ g_a.
//   Cubature:   the same two sums over the trained elements 𝒮_i with weights w_e (Eq. 17).
// The shared per-element formula is hd::cubatureAccumulate (core/deform/hd/vertex.h), which the
// CUDA backend runs too.
#include <Eigen/CholmodSupport>
#include <chrono>
#include <stdexcept>

#include "core/deform/jgs2_coarse.h"
#include "core/deform/sweep.h"

namespace mechsim::deform {

VecX jgs2OracleSweep(const DeformableModel& m, const VecX& z, const VecX& x) {
  ElementCache c;
  evalElements(m, x, c, true);
  const VecX g = assembleGradient(m, z, x, c);
  const SpMat H = assembleHessian(m, c);
  Eigen::CholmodSupernodalLLT<SpMat> llt(H);
  if (llt.info() != Eigen::Success) throw std::runtime_error("JGS2 oracle: Hessian factorisation failed");
  const int nf = m.freeCount();
  VecX gf(3 * nf);
  for (int k = 0; k < nf; ++k) gf.segment<3>(3 * k) = g.segment<3>(3 * m.freeVertices[k]);
  VecX dx = VecX::Zero(x.size());
  MatX St = MatX::Zero(3 * nf, 3);
  for (int k = 0; k < nf; ++k) {
    // Eq. (23) with the current H: U_i = H⁻¹ S_iᵀ (S_i H⁻¹ S_iᵀ)⁻¹, so S_i U_i = I and the rows of
    // H U_i outside i vanish (the complement is in equilibrium, Eq. 7).
    St.block<3, 3>(3 * k, 0).setIdentity();
    const MatX Y = llt.solve(St);
    St.block<3, 3>(3 * k, 0).setZero();
    const Mat3 SY = Y.block<3, 3>(3 * k, 0);
    const MatX U = Y * SY.inverse();
    // Local system U_iᵀ H U_i δx_i = −U_iᵀ g (Eq. 6 with ∂φ/∂δx_i = U_i, ∂²φ = 0).
    const Mat3 Sc = U.transpose() * (H * U);
    const Vec3 rhs = -(U.transpose() * gf);
    dx.segment<3>(3 * m.freeVertices[k]) = Sc.ldlt().solve(rhs);
  }
  return dx;
}

namespace {

SolveStats solveOracle(const DeformableModel& m, const SolveOptions& opt, const VecX& z, VecX& x) {
  const auto t0 = std::chrono::steady_clock::now();
  SolveStats st;
  for (int it = 0; it < opt.maxIterations; ++it) {
    const VecX dx = jgs2OracleSweep(m, z, x);
    x += dx;
    if (recordIteration(opt, it, normalisedStep(m, dx), x, st)) break;
  }
  st.finalEnergy = incrementalEnergy(m, z, x);
  st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return st;
}

}  // namespace

SolveStats solveJgs2(const DeformableModel& m, const Jgs2Data* jgs2, const SolveOptions& opt, const VecX& z, VecX& x) {
  if (opt.variant == Jgs2Variant::ExactSchur) return solveOracle(m, opt, z, x);
  if (!jgs2) throw std::invalid_argument("JGS2: precomputed data required");
  const bool exactSum = opt.variant == Jgs2Variant::ExactSum;
  if (exactSum && static_cast<int>(jgs2->dense.size()) != m.vertexCount())
    throw std::invalid_argument("JGS2 exact-sum variant needs the dense basis (Jgs2Options::denseBasis)");
  if (jgs2->subspaces == Jgs2Subspaces::Colour && opt.method != Method::Jgs2GaussSeidel)
    throw std::invalid_argument("JGS2: colour subspaces are the Gauss-Seidel sub-problem (jgs2-gs); jgs2-jacobi needs vertex subspaces");
  const Jgs2RhsForm form = exactSum ? Jgs2RhsForm::Residual : jgs2->rhsForm;
  const double invH2 = 1.0 / (m.h * m.h);
  const int nt = m.tetCount(), nv = m.vertexCount();
  const int T = static_cast<int>(jgs2->modeValues.size());
  std::vector<double> R;  // per-vertex rotations (9 nv)
  std::vector<double> invVal(nv);
  for (int v = 0; v < nv; ++v) invVal[v] = 1.0 / std::max(1, m.incidence.offset[v + 1] - m.incidence.offset[v]);
  std::vector<double> share(nt);
  for (int t = 0; t < nt; ++t) share[t] = m.material.density * m.volume[t] / 4.0 * invH2;
  std::vector<double> modal(T);  // a_t = φ_tᵀ (Rᵀ g) / λ_t
  bool modalApplied = false;     // Gauss–Seidel: the modal part was applied before the colours
  // The modes by vertex (row-major copy: a vertex's three rows contiguous), for the O(T) per-vertex
  // sums of the modal split.
  using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const RowMat modesByVertex = form == Jgs2RhsForm::Modal ? RowMat(jgs2->modes) : RowMat();
  auto modeRow = [&](int a, int r) { return modesByVertex.data() + (3 * std::size_t(a) + r) * std::size_t(T); };
  // Galerkin coarse space (Jgs2Coarse::Galerkin): built at the first sweep of this solve from the
  // rotations and element Hessians there; coefficients c = K⁻¹ Φ_Rᵀ g every sweep.
  const bool galerkin = form == Jgs2RhsForm::Modal && opt.coarse == Jgs2Coarse::Galerkin && T > 0;
  detail::ModalGalerkin coarseSpace;
  bool coarseTried = false, coarseActive = false;
  VecX coarseCoef;

  // Modal coefficients of the current residual, in the rest frame (Rᵀ g).
  auto modalCoefficients = [&](const std::vector<double>& G) {
    if (form != Jgs2RhsForm::Modal) return;
    detail::parallelSumVector(nv, T, detail::kParallelLight / 16, modal, [&](int a, double* acc) {
      if (m.prescribed[a]) return;
      double gr[3];
      hd::matTVec(&R[9 * std::size_t(a)], &G[3 * std::size_t(a)], gr);
      const double *p0 = modeRow(a, 0), *p1 = modeRow(a, 1), *p2 = modeRow(a, 2);
      for (int t = 0; t < T; ++t) acc[t] += p0[t] * gr[0] + p1[t] * gr[1] + p2[t] * gr[2];
    });
    for (int t = 0; t < T; ++t) modal[t] /= jgs2->modeValues[t];
  };
  auto prepare = [&](const VecX& xc, const ElementCache& c, const std::vector<double>& G) {
    vertexRotations(m, xc, R);
    if (galerkin && !coarseTried) {
      coarseTried = true;
      coarseActive = coarseSpace.build(m, *jgs2, R, c);  // not SPD (never seen): rest split
    }
    if (coarseActive) {
      coarseSpace.coefficients(G.data(), coarseCoef);
      return;
    }
    modalCoefficients(G);
    modalApplied = false;
  };
  auto refresh = [](const VecX&, const ElementCache&, const std::vector<double>&) {};
  // Gauss–Seidel with the modal split: the modal (low-frequency) part of the step, −R Σ_t a_t φ_t,
  // is one global correction, so it is applied to every vertex at once before the colours; the
  // colours then solve the remaining residual (recomputed at the moved x) with the cubature-damped
  // local matrix. (Splitting the correction over the colours with the sweep's stale coefficients
  // overshot and diverged on the 1000× cantilever.)
  auto coarse = [&](VecX& xc, const ElementCache&, const std::vector<double>&) {
    if (form != Jgs2RhsForm::Modal || T == 0) return false;
    if (coarseActive) {
      detail::parallelFor(m.freeCount(), detail::kParallelHeavy, [&](int q) {
        const int i = m.freeVertices[q];
        double s[3], r[3];
        coarseSpace.vertexStep(i, coarseCoef, s, r);
        for (int k = 0; k < 3; ++k) xc[3 * i + k] -= s[k];
      });
      coarseCoef.setZero();  // the colours see no coarse part any more
      return true;
    }
    detail::parallelFor(m.freeCount(), detail::kParallelHeavy, [&](int q) {
      const int i = m.freeVertices[q];
      double nlow[3] = {0, 0, 0}, nl[3];
      for (int t = 0; t < T; ++t)
        for (int r = 0; r < 3; ++r) nlow[r] += modal[t] * modeRow(i, r)[t];
      hd::matVec(&R[9 * std::size_t(i)], nlow, nl);
      for (int r = 0; r < 3; ++r) xc[3 * i + r] -= nl[r];
    });
    modalApplied = true;  // the colours see no modal part any more
    return true;
  };

  // One element's contribution to vertex i's local system (A: H̃_ii, b: g̃_i unless modal).
  auto addElement = [&](int i, int t, double w, const double* Ubar, const VecX& xc, const ElementCache& c,
                        const std::vector<double>& G, double* A, double* b) {
    const auto& e = m.mesh.tets[t];
    const double* Rv[4];
    const double* Ga[4];
    double iv[4];
    bool skip[4];
    for (int a = 0; a < 4; ++a) {
      Rv[a] = &R[9 * std::size_t(e[a])];
      Ga[a] = &G[3 * std::size_t(e[a])];
      iv[a] = invVal[e[a]];
      skip[a] = e[a] == i || m.prescribed[e[a]];
    }
    double Ue[36];
    hd::cubatureAccumulate(w, Ubar, Rv, &R[9 * std::size_t(i)], &c.H[144 * std::size_t(t)], share[t],
                           form == Jgs2RhsForm::Residual ? Ga : nullptr, iv, skip, A, b, Ue);
    if (form == Jgs2RhsForm::Element) {
      double xe[12], ze[12];
      for (int a = 0; a < 4; ++a)
        for (int r = 0; r < 3; ++r) {
          xe[3 * a + r] = xc[3 * e[a] + r];
          ze[3 * a + r] = z[3 * e[a] + r];
        }
      hd::cubatureRhsElement(w, Ue, &c.g[12 * std::size_t(t)], share[t], xe, ze, b);
    }
  };

  auto local = [&](int i, const VecX& xc, const ElementCache& c, const std::vector<double>& G, double* d) {
    double g[3], H[9];
    hd::vertexBlock(i, m.mass[i] * invH2, xc.data(), z.data(), m.incidence.tet.data(), m.incidence.local.data(),
                    m.incidence.offset[i], m.incidence.offset[i + 1], c.g.data(), c.H.data(), g, H);
    detail::addVertexHandles(m, i, xc.data(), g, H);
    double A[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, b[3] = {0, 0, 0};
    if (!opt.cubatureTerms) {
      // no H̃_ii, no g̃_i: the two-level baseline (solver.h)
    } else if (exactSum) {
      const MatX& U = jgs2->dense[i];
      double Ubar[36];
      for (int t = 0; t < nt; ++t) {
        const auto& e = m.mesh.tets[t];
        for (int a = 0; a < 4; ++a)
          for (int r = 0; r < 3; ++r)
            for (int col = 0; col < 3; ++col) Ubar[9 * a + 3 * r + col] = U(3 * e[a] + r, col);
        addElement(i, t, 1.0, Ubar, xc, c, G, A, b);
      }
    } else {
      for (int k = jgs2->offset[i]; k < jgs2->offset[i + 1]; ++k)
        addElement(i, jgs2->tet[k], jgs2->weight[k], &jgs2->basis[36 * std::size_t(k)], xc, c, G, A, b);
    }
    // Eq. (15): (H_ii ± H̃_ii) δx_i = −(g_i + g̃_i).
    double M[9], rhs[3], sol[3];
    const double sign = opt.schurHessian ? -1.0 : 1.0;
    for (int k = 0; k < 9; ++k) M[k] = H[k] + sign * A[k];
    if (opt.schurHessian && !hd::positiveDefinite3(M))  // H_ii − H̃_ii lost definiteness: damper form
      for (int k = 0; k < 9; ++k) M[k] = H[k] + A[k];
    if (form == Jgs2RhsForm::Modal) {
      // Modal split (solver.h, Jgs2RhsForm::Modal): the residual's component on the training modes,
      // g_low = R Σ_t a_t λ_t φ_t, is solved along the exact subspace — its Newton step is
      // −R Σ_t a_t φ_t, which is what Eq. (12) gives for it since U_iᵀ H̄ φ_t = Sc̄_i φ_t,i — and the
      // remainder by the cubature-damped local matrix.
      // Galerkin coarse space: the same with Φ_R c and W c = H Φ_R c (jgs2_coarse.h).
      double glow[3] = {0, 0, 0}, nlow[3] = {0, 0, 0}, gl[3], nl[3];
      if (coarseActive) {
        coarseSpace.vertexStep(i, coarseCoef, nl, gl);
      } else if (modalApplied) {
        for (int r = 0; r < 3; ++r) gl[r] = nl[r] = 0;
      } else {
        for (int r = 0; r < 3; ++r) {
          const double* phi = modeRow(i, r);
          for (int t = 0; t < T; ++t) {
            glow[r] += modal[t] * jgs2->modeValues[t] * phi[t];
            nlow[r] += modal[t] * phi[t];
          }
        }
        hd::matVec(&R[9 * std::size_t(i)], glow, gl);
        hd::matVec(&R[9 * std::size_t(i)], nlow, nl);
      }
      for (int r = 0; r < 3; ++r) rhs[r] = g[r] - gl[r];
      if (!hd::solve3(M, rhs, sol)) return false;
      for (int r = 0; r < 3; ++r) d[r] = -sol[r] - nl[r];
      return true;
    }
    for (int r = 0; r < 3; ++r) rhs[r] = g[r] + opt.rhsScale * b[r];
    if (!hd::solve3(M, rhs, sol)) return false;
    for (int r = 0; r < 3; ++r) d[r] = -sol[r];
    return true;
  };
  return detail::runSweeps(m, opt, z, x, opt.method == Method::Jgs2GaussSeidel, prepare, local, refresh, coarse);
}

}  // namespace mechsim::deform
