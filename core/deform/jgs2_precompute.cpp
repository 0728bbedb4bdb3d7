// core/deform/jgs2_precompute.cpp — JGS2 rest-shape precomputation (Lan et al. 2025, §5–6).
//
// 1. Rest Hessian H̄ = M/h² + ∇²Ψ(x̄) over the free vertices (SPD: the inertia term makes it so
//    even with nothing pinned), factorised once (CHOLMOD supernodal Cholesky).
// 2. Full-coordinate subspaces (Eq. 19–23): for every free vertex i, three solves give
//    Y_i = H̄⁻¹ S_iᵀ; then Ḡ_i = −(S_i Y_i)⁻¹ (Eq. 21) and Ū_i = −Y_i Ḡ_i = Y_i (S_i Y_i)⁻¹ (Eq. 23):
//    S_i Ū_i = I and (H̄ Ū_i)_C = 0, i.e. the complement's static response to a unit move of i
//    (Eq. 8: Ū_{i,C} = −H̄_CC⁻¹ H̄_iCᵀ). The rest Schur complement is Sc̄_i = −Ḡ_i.
//    For a large part (Jgs2Basis) Y_i is read instead from the selected inverse — the entries of
//    H̄⁻¹ on the factor's pattern (selected_inverse.h) — on the vertices where it is known.
// 3. Training poses: the lowest eigenvectors φ_t of H̄ (block Krylov–Schur, shift-and-invert at
//    σ = 0 through the same factorisation; low_modes.h), with residuals g(t) = H̄ φ_t of the
//    linearised problem.
//    Jgs2Options::modalModes > trainingModes computes more modes in the same run for the modal
//    split; the cubature is trained on the lowest trainingModes.
// 4. Cubature (Eq. 17–18; greedy NNLS of An et al. 2008): the target of pose t is the exact
//    complement gradient g̃_i(t) = Σ_{a≠i} Ū_{i,a}ᵀ g_a(t), each element's column its share
//    c_e(t) = Σ_{a∈e, a≠i} Ū_{i,a}ᵀ g_a(t)/val_a (summing to the target with all w_e = 1), both
//    divided by ‖g̃_i(t)‖. Each round draws random candidates among the elements not incident to i
//    ("remote", §8.1) and not yet chosen, adds the one with the largest projection on the
//    residual (unnormalised, so elements that carry much of the sum — and need moderate weights —
//    are preferred: the stabiliser of the right-hand side, notes §10), and re-solves the NNLS;
//    it stops at |𝒮_i| elements or a relative residual below the tolerance (paper: 1 %).
#include <dlfcn.h>

#include <Eigen/CholmodSupport>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <stdexcept>

#include "core/deform/low_modes.h"
#include "core/deform/nnls.h"
#include "core/deform/parallel.h"
#include "core/deform/selected_inverse.h"
#include "core/deform/solver.h"

namespace mechsim::deform {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// Throws Cancelled when the options ask to stop (Jgs2Options::cancelRequested).
void checkCancel(const Jgs2Options& opt) {
  if (opt.cancelRequested && opt.cancelRequested()) throw Cancelled();
}

void report(const Jgs2Options& opt, Jgs2Stage stage, double fraction = -1) {
  if (opt.progress) opt.progress(stage, fraction);
}

/// The rest Hessian's factor with its CHOLMOD handle exposed, so that several threads can solve
/// with it at once (ThreadSolve).
class RestFactor : public Eigen::CholmodSupernodalLLT<SpMat> {
 public:
  /// Throws std::runtime_error when A is not positive definite.
  explicit RestFactor(const SpMat& A) : Eigen::CholmodSupernodalLLT<SpMat>(A) {
    if (info() != Eigen::Success) throw std::runtime_error("JGS2: rest Hessian is not positive definite");
  }
  cholmod_factor* factor() const { return m_cholmodFactor; }
};

/// One thread's solves X = H̄⁻¹ B with the shared factor: the same CHOLMOD solve as
/// CholmodSupernodalLLT::solve (permutation, L, Lᵀ), with this thread's own cholmod_common and
/// workspace — CHOLMOD keeps its scratch there, and a solve only reads the factor.
class ThreadSolve {
 public:
  explicit ThreadSolve(cholmod_factor* L) : L_(L) { cholmod_start(&cc_); }
  ~ThreadSolve() {
    for (cholmod_dense** w : {&X_, &Y_, &E_})
      if (*w) cholmod_free_dense(w, &cc_);
    cholmod_finish(&cc_);
  }
  ThreadSolve(const ThreadSolve&) = delete;
  ThreadSolve& operator=(const ThreadSolve&) = delete;
  /// The solution for B (n × k), valid until the next call.
  Eigen::Map<const MatX, 0, Eigen::OuterStride<>> solve(MatX& B) {
    cholmod_dense b{};
    b.nrow = b.d = static_cast<std::size_t>(B.rows());
    b.ncol = static_cast<std::size_t>(B.cols());
    b.nzmax = b.nrow * b.ncol;
    b.x = B.data();
    b.xtype = CHOLMOD_REAL;
    b.dtype = CHOLMOD_DOUBLE;
    if (!cholmod_solve2(CHOLMOD_A, L_, &b, nullptr, &X_, nullptr, &Y_, &E_, &cc_))
      throw std::runtime_error("JGS2: the rest factor's solve failed");
    return {static_cast<const double*>(X_->x), static_cast<Eigen::Index>(X_->nrow),
            static_cast<Eigen::Index>(X_->ncol), Eigen::OuterStride<>(static_cast<Eigen::Index>(X_->d))};
  }

 private:
  cholmod_factor* L_;
  cholmod_common cc_;
  cholmod_dense *X_ = nullptr, *Y_ = nullptr, *E_ = nullptr;
};

/// While alive, OpenBLAS (where it is the BLAS that CHOLMOD calls) runs single-threaded; then its
/// thread count is restored. Concurrent solves each asking OpenBLAS for its threads wait on its
/// thread server: the block solves of a 2k-vertex beam on two threads took 58 s so, 6 s with
/// OpenBLAS on one thread. Found at run time: another BLAS has no such switch and needs none.
class SerialBlas {
 public:
  SerialBlas() {
    set_ = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    const auto get = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
    if (!set_ || !get) {
      set_ = nullptr;
      return;
    }
    previous_ = get();
    set_(1);
  }
  ~SerialBlas() {
    if (set_) set_(previous_);
  }
  SerialBlas(const SerialBlas&) = delete;
  SerialBlas& operator=(const SerialBlas&) = delete;

 private:
  void (*set_)(int) = nullptr;
  int previous_ = 1;
};

/// The k lowest eigenpairs of H̄ through its factor (low_modes.h). A = H̄⁻¹ on a block of b
/// vectors is one CHOLMOD solve with b right-hand sides (supernodal: BLAS-3 on the threads of
/// OpenBLAS); a cancel request is checked per block. Splitting the columns among OpenMP threads,
/// each solving its share with OpenBLAS on one thread as the subspaces' solves do, was slower:
/// 0.53 s against 0.31 s for 64 modes of the 12k-tet beam (`bench_deform --modes`), the two
/// thread pools yielding to each other between the solves and the basis's products.
LowModes modesThroughFactor(const RestFactor& llt, const SpMat& Hbar, int k, const Jgs2Options& opt,
                            const LowModesOptions& lo = {}) {
  const BlockInverse inverse = [&](const MatX& in, MatX& out) {
    checkCancel(opt);
    out = llt.solve(in);
  };
  return lowestModes(Hbar, k, inverse, lo);
}

/// The rest Hessian H̄ = M/h² + ∇²Ψ(x̄) over the free vertices, with the rest elements in `c`.
SpMat restHessian(const DeformableModel& m, ElementCache& c) {
  evalElements(m, restPositions(m), c, true);
  return assembleHessian(m, c);
}
}  // namespace

LowModes restModes(const DeformableModel& m, int k, const LowModesOptions& options, double* factorSeconds) {
  const auto t = Clock::now();
  ElementCache c;
  const SpMat Hbar = restHessian(m, c);
  const RestFactor llt(Hbar);
  if (factorSeconds) *factorSeconds = since(t);
  return modesThroughFactor(llt, Hbar, k, Jgs2Options{}, options);
}

Jgs2Data precomputeJgs2(const DeformableModel& m, const Jgs2Options& opt) {
  const auto tAll = Clock::now();
  Jgs2Data d;
  const int nv = m.vertexCount(), nf = m.freeCount(), nt = m.tetCount();
  if (nf == 0) throw std::invalid_argument("JGS2: no free vertex");

  // 1. Rest Hessian and its factorisation.
  report(opt, Jgs2Stage::Factor);
  auto t = Clock::now();
  ElementCache c;
  const SpMat Hbar = restHessian(m, c);
  auto lltOwner = std::make_unique<RestFactor>(Hbar);  // freed once the subspaces no longer need it
  RestFactor& llt = *lltOwner;
  d.factorSeconds = since(t);
  checkCancel(opt);
  report(opt, Jgs2Stage::Modes);

  // 3. Low-frequency modes (done first: the training targets need them for every vertex).
  t = Clock::now();
  const int n = 3 * nf;
  // Modes computed: the training modes, or more when the modal split keeps more (Jgs2Options::modalModes).
  int nModes = std::min(std::max(opt.trainingModes, opt.modalModes), n - 2);
  MatX modes;
  if (nModes >= 1) {
    modes = modesThroughFactor(llt, Hbar, nModes, opt).vectors;
  } else {
    modes = MatX::Identity(n, std::min(n, 3));
  }
  MatX residuals = Hbar * modes;  // g(t) = H̄ φ_t  (n × T)
  {  // ascending eigenvalue order, so that the first columns are the lowest modes
    const int cols = static_cast<int>(modes.cols());
    VecX lambda(cols);
    for (int p = 0; p < cols; ++p) lambda[p] = modes.col(p).dot(residuals.col(p)) / modes.col(p).squaredNorm();
    std::vector<int> order(cols);
    for (int p = 0; p < cols; ++p) order[p] = p;
    std::sort(order.begin(), order.end(), [&](int a, int b) { return lambda[a] < lambda[b]; });
    const MatX m0 = modes, r0 = residuals;
    for (int p = 0; p < cols; ++p) {
      modes.col(p) = m0.col(order[p]);
      residuals.col(p) = r0.col(order[p]);
    }
  }
  const int allModes = static_cast<int>(modes.cols());
  // The cubature is trained on the lowest trainingModes of them (all when none is asked for).
  nModes = opt.trainingModes >= 1 ? std::min(opt.trainingModes, allModes) : allModes;
  d.modesSeconds = since(t);

  // Per-vertex valence (number of incident tets) for the residual shares.
  std::vector<double> invVal(nv);
  for (int v = 0; v < nv; ++v) invVal[v] = 1.0 / std::max(1, m.incidence.offset[v + 1] - m.incidence.offset[v]);

  d.offset.assign(nv + 1, 0);
  d.modes = MatX::Zero(3 * nv, allModes);
  d.modeValues.resize(allModes);
  for (int p = 0; p < allModes; ++p) {
    const VecX& ph = modes.col(p);
    d.modeValues[p] = ph.dot(residuals.col(p)) / ph.squaredNorm();  // Rayleigh quotient = λ_t
    const double norm = ph.norm();  // once per mode: per vertex it cost O(T·nv·n), 12 min at 1M tets
    for (int a = 0; a < nv; ++a)
      if (m.freeIndex[a] >= 0) d.modes.block(3 * a, p, 3, 1) = ph.segment<3>(3 * m.freeIndex[a]) / norm;
  }
  d.restSchur.assign(9 * std::size_t(nv), 0.0);
  if (opt.denseBasis) d.dense.assign(nv, MatX());
  double basisTime = 0, trainTime = 0;
  const bool elementTraining = opt.rhsForm != Jgs2RhsForm::Residual;
  // One vertex's cubature: its elements, their weights and rest-frame blocks [Ū_i]_e (12 × 3,
  // row-major by vertex of e), and the relative training residual.
  struct VertexCubature {
    std::vector<int> tet;
    std::vector<double> weight, basis;
    double residual = 0;
  };
  std::vector<int> count(nv, 0);
  double residualSum = 0;  // of the vertices' relative training residuals, in vertex order

  // 4 for the free vertex with free index k, given its subspace Ū_i — `block(ka)` is its 3 × 3 block
  // at the free vertex ka, null where it is not known (SelectedInverse) —, its rest Schur complement
  // Sc = Ū_iᵀH̄Ū_i, full = Ū_iᵀ H̄ φ_t (3 × T, the training modes) and the remote elements the
  // cubature may draw (null: every element not incident to i).
  auto vertexSubspace = [&](int k, const std::function<const Mat3*(int)>& block, const Mat3& Sc, const MatX& full,
                            const std::vector<int>* pool, VertexCubature& out) {
    const int v = m.freeVertices[k];
    for (int r = 0; r < 3; ++r)
      for (int col = 0; col < 3; ++col) d.restSchur[9 * std::size_t(v) + 3 * r + col] = Sc(r, col);
    auto Ublock = [&](int a) -> Mat3 {  // Ū_{i,a} (zero for prescribed vertices and for i itself)
      const int ka = m.freeIndex[a];
      if (ka < 0 || a == v) return Mat3::Zero();
      return *block(ka);  // known: the pool holds only elements whose blocks are
    };
    if (opt.denseBasis) {
      MatX U = MatX::Zero(3 * nv, 3);
      for (int a = 0; a < nv; ++a)
        if (m.freeIndex[a] >= 0) U.block<3, 3>(3 * a, 0) = *block(m.freeIndex[a]);
      d.dense[v] = std::move(U);
    }

    // 4. Cubature training (Eq. 18).
    // Targets g̃_i(t) = Ū_iᵀ g(t) − g_i(t), normalised per pose (full = Ū_iᵀ g(t), from the caller).
    VecX target(3 * nModes), scale(nModes);
    for (int p = 0; p < nModes; ++p) {
      const Vec3 y = full.col(p) - residuals.block(3 * k, p, 3, 1);
      scale[p] = y.norm() > 1e-300 ? 1.0 / y.norm() : 0.0;
      target.segment<3>(3 * p) = y * scale[p];
    }
    // Element form: the target is the remote elements' share Σ_{e∌i} [Ū_i]_eᵀ (H̄_e + share I)[φ_t]_e.
    auto elementColumn = [&](int tet) {
      VecX col = VecX::Zero(3 * nModes);
      const auto& e = m.mesh.tets[tet];
      Eigen::Matrix<double, 12, 3> Ue;
      for (int a = 0; a < 4; ++a) Ue.block<3, 3>(3 * a, 0) = Ublock(e[a]);
      const Eigen::Map<const Eigen::Matrix<double, 12, 12, Eigen::RowMajor>> He(&c.H[144 * std::size_t(tet)]);
      const double sh = m.material.density * m.volume[tet] / 4.0 / (m.h * m.h);
      for (int p = 0; p < nModes; ++p) {
        Eigen::Matrix<double, 12, 1> phi = Eigen::Matrix<double, 12, 1>::Zero();
        for (int a = 0; a < 4; ++a)
          if (m.freeIndex[e[a]] >= 0) phi.segment<3>(3 * a) = modes.block(3 * m.freeIndex[e[a]], p, 3, 1);
        col.segment<3>(3 * p) = scale[p] * (Ue.transpose() * (He * phi + sh * phi));
      }
      return col;
    };
    if (elementTraining) {
      // Remote share of the exact complement gradient: the total minus the incident elements.
      VecX incident = VecX::Zero(3 * nModes);
      for (int p = 0; p < nModes; ++p) scale[p] = 1.0;
      for (int q = m.incidence.offset[v]; q < m.incidence.offset[v + 1]; ++q)
        incident += elementColumn(m.incidence.tet[q]);
      for (int p = 0; p < nModes; ++p) {
        const Vec3 y = full.col(p) - residuals.block(3 * k, p, 3, 1) - incident.segment<3>(3 * p);
        scale[p] = y.norm() > 1e-300 ? 1.0 / y.norm() : 0.0;
        target.segment<3>(3 * p) = y * scale[p];
      }
    }
    auto column = [&](int tet) {
      if (elementTraining) return elementColumn(tet);
      VecX col = VecX::Zero(3 * nModes);
      for (int a : m.mesh.tets[tet]) {
        const int ka = m.freeIndex[a];
        if (ka < 0 || a == v) continue;
        const Mat3 Ua = *block(ka);
        for (int p = 0; p < nModes; ++p)
          col.segment<3>(3 * p) += invVal[a] * scale[p] * (Ua.transpose() * residuals.block(3 * ka, p, 3, 1));
      }
      return col;
    };
    auto incidentToV = [&](int e) {
      for (int q = m.incidence.offset[v]; q < m.incidence.offset[v + 1]; ++q)
        if (m.incidence.tet[q] == e) return true;
      return false;
    };
    // The candidates are drawn from a generator seeded by the vertex: the same cubature for any
    // thread count.
    std::mt19937 rng(opt.seed * 7919u + static_cast<unsigned>(v));
    std::uniform_int_distribution<int> pick(0, nt - 1);
    std::uniform_int_distribution<int> pickPool(0, pool ? std::max(0, static_cast<int>(pool->size()) - 1) : 0);
    std::vector<int> chosen;
    MatX A(3 * nModes, 0);
    VecX w;
    VecX r = target;
    const double bnorm = target.norm();
    const int nonIncident = pool ? static_cast<int>(pool->size()) : nt - (m.incidence.offset[v + 1] - m.incidence.offset[v]);
    while (static_cast<int>(chosen.size()) < std::min(opt.cubatureElements, nonIncident) &&
           r.norm() > opt.cubatureTolerance * bnorm) {
      int best = -1;
      double bestScore = 0;
      VecX bestCol;
      for (int tries = 0; tries < opt.candidatesPerRound; ++tries) {
        const int e = pool ? (*pool)[pickPool(rng)] : pick(rng);
        if (incidentToV(e) || std::find(chosen.begin(), chosen.end(), e) != chosen.end()) continue;
        const VecX col = column(e);
        const double score = col.dot(r);
        if (score > bestScore) {
          bestScore = score;
          best = e;
          bestCol = col;
        }
      }
      if (best < 0) break;  // no candidate reduces the residual
      chosen.push_back(best);
      A.conservativeResize(Eigen::NoChange, A.cols() + 1);
      A.col(A.cols() - 1) = bestCol;
      w = nnls(A, target);
      r = target - A * w;
    }
    out.residual = bnorm > 0 ? r.norm() / bnorm : 0.0;
    if (elementTraining)  // incident elements enter exactly (weight 1)
      for (int q = m.incidence.offset[v]; q < m.incidence.offset[v + 1]; ++q) {
        chosen.push_back(m.incidence.tet[q]);
        w.conservativeResize(w.size() + 1);
        w[w.size() - 1] = 1.0;
      }
    for (std::size_t q = 0; q < chosen.size(); ++q) {
      if (!(w[static_cast<Eigen::Index>(q)] > 0)) continue;
      const int e = chosen[q];
      out.tet.push_back(e);
      out.weight.push_back(w[static_cast<Eigen::Index>(q)]);
      for (int a = 0; a < 4; ++a) {
        const Mat3 Ua = Ublock(m.mesh.tets[e][a]);
        for (int rr = 0; rr < 3; ++rr)
          for (int col = 0; col < 3; ++col) out.basis.push_back(Ua(rr, col));
      }
    }
  };

  // The solves are done for a block of free vertices at once: one supernodal solve with 3B
  // right-hand sides runs as matrix–matrix products (BLAS 3): with OpenBLAS, 4× faster than one
  // solve per vertex on the 12k-tet beam (2.8 s against 11.3 s). B is capped so that the block's
  // n × 3B doubles stay near 32 MB. The blocks run on all threads, each thread solving with its own
  // CHOLMOD workspace (ThreadSolve) and training its block's vertices; a vertex's subspace and
  // cubature depend on its block alone, so the result is the same for every thread count. (One
  // solve at a time with the vertices trained in parallel left the solves — most of the time on a
  // large part — on one core: 1.13× from one thread to two on the 12k-tet beam.) The cubatures are
  // appended in vertex order at the end (free indices follow vertex order).
  //
  // With the selected inverse (Jgs2Basis) the solves are replaced by one pass of Takahashi's
  // recurrence over the factor, after which the rest factor is freed; each vertex then gathers
  // its blocks Y_{ai} = (H̄⁻¹)_{ai} from its three columns of the selected inverse, in the same
  // blocks of vertices on all threads.
  const bool selected = opt.subspaces == Jgs2Subspaces::Vertex &&
                        (opt.basisFrom == Jgs2Basis::SelectedInverse ||
                         (opt.basisFrom == Jgs2Basis::Auto && nf >= kSelectedInverseVertices));
  if (selected && opt.denseBasis)
    throw std::invalid_argument("JGS2: the selected inverse does not give the whole subspaces (denseBasis)");
  d.basisFrom = selected ? Jgs2Basis::SelectedInverse : Jgs2Basis::Solves;
  const int block = selected ? 64 : std::max(1, std::min(64, static_cast<int>(32e6 / 8 / 3 / std::max(1, n))));
  std::vector<VertexCubature> all(nf);
  if (opt.subspaces == Jgs2Subspaces::Vertex) {
    const int blocks = (nf + block - 1) / block;
    std::unique_ptr<SelectedInverse> Zsel;
    if (selected) {
      report(opt, Jgs2Stage::Subspaces, 0.0);
      Zsel = std::make_unique<SelectedInverse>(llt.factor(), [&] { checkCancel(opt); });
      basisTime += Zsel->seconds();
      lltOwner.reset();
      checkCancel(opt);
    }
    // One thread's gathering of a vertex's blocks (selected inverse): Y[slot[ka]] is the block of
    // free vertex ka, whole when mask[·] has its nine bits; tetMark flags the elements seen.
    struct Gather {
      std::vector<int> slot, mask, verts, tetMark, pool;
      std::vector<Mat3> Y;
      int mark = 0;
    };
    std::vector<Gather> gathers(selected ? static_cast<std::size_t>(threadCount()) : 0);
    // The free vertices blockFirst … blockEnd−1 from the selected inverse Z: their blocks gathered
    // from the three columns of Z (the time goes to the basis), then Eq. (21), (23) on them and the
    // cubature, drawn from the remote elements whose vertices all have a whole block.
    auto selectedBlock = [&](const SelectedInverse& Z, Gather& g, int blockFirst, int blockEnd, double& basisT,
                             double& trainT) {
      constexpr int kWhole = 0x1FF;
      if (g.slot.empty()) {
        g.slot.assign(nf, -1);
        g.tetMark.assign(nt, 0);
      }
      for (int k = blockFirst; k < blockEnd; ++k) {
        auto ts = Clock::now();
        const int v = m.freeVertices[k];
        g.verts.clear();
        g.Y.clear();
        g.mask.clear();
        for (int c = 0; c < 3; ++c)
          Z.forEachInColumn(3 * k + c, [&](int r, double value) {
            const int ka = r / 3;
            int& sl = g.slot[ka];
            if (sl < 0) {
              sl = static_cast<int>(g.verts.size());
              g.verts.push_back(ka);
              g.Y.push_back(Mat3::Zero());
              g.mask.push_back(0);
            }
            g.Y[sl](r % 3, c) = value;
            g.mask[sl] |= 1 << (3 * (r % 3) + c);
          });
        const int self = g.slot[k];
        if (self < 0 || g.mask[self] != kWhole) throw std::logic_error("JGS2: a diagonal block is not in the selected inverse");
        // Eq. (21), (23): Sc̄_i = (S_i H̄⁻¹ S_iᵀ)⁻¹ and Ū_{i,a} = (H̄⁻¹)_{ai} Sc̄_i.
        const Mat3 Sc = g.Y[self].inverse();
        for (std::size_t q = 0; q < g.Y.size(); ++q)
          if (g.mask[q] == kWhole) g.Y[q] = g.Y[q] * Sc;
        auto known = [&](int a) {
          const int ka = m.freeIndex[a];
          return ka < 0 || (g.slot[ka] >= 0 && g.mask[g.slot[ka]] == kWhole);
        };
        ++g.mark;  // i's own elements first, so that they are left out
        for (int q = m.incidence.offset[v]; q < m.incidence.offset[v + 1]; ++q) g.tetMark[m.incidence.tet[q]] = g.mark;
        g.pool.clear();
        for (std::size_t q = 0; q < g.verts.size(); ++q) {
          if (g.mask[q] != kWhole) continue;
          const int a = m.freeVertices[g.verts[q]];
          for (int p = m.incidence.offset[a]; p < m.incidence.offset[a + 1]; ++p) {
            const int e = m.incidence.tet[p];
            if (g.tetMark[e] == g.mark) continue;
            g.tetMark[e] = g.mark;
            const auto& tv = m.mesh.tets[e];
            if (known(tv[0]) && known(tv[1]) && known(tv[2]) && known(tv[3])) g.pool.push_back(e);
          }
        }
        const MatX full = Sc * modes.block(3 * k, 0, 3, nModes);
        basisT += since(ts);
        ts = Clock::now();
        vertexSubspace(
            k,
            [&](int ka) -> const Mat3* {
              const int sl = g.slot[ka];
              if (sl < 0 || g.mask[sl] != kWhole) throw std::logic_error("JGS2: a neighbour's block is not in the selected inverse");
              return &g.Y[sl];
            },
            Sc, full, &g.pool, all[k]);
        for (int ka : g.verts) g.slot[ka] = -1;
        trainT += since(ts);
      }
    };
    std::vector<std::unique_ptr<ThreadSolve>> solvers(static_cast<std::size_t>(threadCount()));
    std::vector<double> solveTime(solvers.size(), 0.0), trainTimes(solvers.size(), 0.0);
    std::atomic<int> done{0};
    std::atomic<bool> stop{false}, cancelled{false};
    std::exception_ptr failure;
    std::mutex failureLock;
    const SerialBlas serialBlas;
    t = Clock::now();
    detail::parallelForUneven(blocks, 2, [&](int b) {
      if (stop) return;
      const auto th = static_cast<std::size_t>(threadIndex());
      try {
        // Cancel requests and progress reports from the thread that started the loop (the GUI's
        // worker), as everywhere else in the precomputation.
        if (th == 0 && opt.cancelRequested && opt.cancelRequested()) {
          cancelled = true;
          stop = true;
          return;
        }
        if (th == 0) report(opt, Jgs2Stage::Subspaces, std::min(1.0, double(done) * block / nf));
        const int blockFirst = b * block, blockEnd = std::min(nf, blockFirst + block), size = blockEnd - blockFirst;
        if (selected) {
          selectedBlock(*Zsel, gathers[th], blockFirst, blockEnd, solveTime[th], trainTimes[th]);
          ++done;
          return;
        }
        if (!solvers[th]) solvers[th] = std::make_unique<ThreadSolve>(llt.factor());
        auto ts = Clock::now();
        MatX St = MatX::Zero(n, 3 * size);
        for (int j = blockFirst; j < blockEnd; ++j) St.block<3, 3>(3 * j, 3 * (j - blockFirst)).setIdentity();
        const auto Yblock = solvers[th]->solve(St);  // Y_i = H̄⁻¹ S_iᵀ
        solveTime[th] += since(ts);
        ts = Clock::now();
        for (int q = 0; q < size; ++q) {
          const int k = blockFirst + q;
          const auto Y = Yblock.middleCols(3 * q, 3);
          // 2. Eq. (23): Ū_i = Y (S_i Y)⁻¹; Sc̄_i = (S_i H̄⁻¹ S_iᵀ)⁻¹ = −Ḡ_i (Eq. 21).
          const Mat3 Sc = Mat3(Y.block<3, 3>(3 * k, 0)).inverse();
          const MatX Uf = Y * Sc;
          // Ū_iᵀ H̄ φ_t = Sc̄_i S_i φ_t, since H̄ Ū_i = S_iᵀ Sc̄_i (Eq. 23): O(T) instead of O(nT).
          const MatX full = Sc * modes.block(3 * k, 0, 3, nModes);
          Mat3 Ua;
          vertexSubspace(k, [&](int ka) { return &(Ua = Uf.block<3, 3>(3 * ka, 0)); }, Sc, full, nullptr, all[k]);
        }
        trainTimes[th] += since(ts);
        ++done;
      } catch (...) {
        const std::lock_guard<std::mutex> hold(failureLock);
        if (!failure) failure = std::current_exception();
        stop = true;
      }
    });
    if (failure) std::rethrow_exception(failure);
    if (cancelled) throw Cancelled();
    // Wall time of the stage, split between the solves and the training as the threads spent it.
    const double wall = since(t), s = std::accumulate(solveTime.begin(), solveTime.end(), 0.0),
                 tr = std::accumulate(trainTimes.begin(), trainTimes.end(), 0.0);
    basisTime += s + tr > 0 ? wall * s / (s + tr) : 0.0;
    trainTime += s + tr > 0 ? wall * tr / (s + tr) : 0.0;
  } else {
    // 2′. Colour subspaces (§6): for colour c, C′ = the free DOFs of the other colours; H̄_C′C′ is
    // factorised once and each vertex i of c solves H̄_C′C′ Ū_{i,C′} = −H̄_C′i (3 right-hand sides,
    // nonzero only at i's neighbours, none of which is of colour c). Then H̄Ū_i vanishes on C′ and
    // is the reaction ρ_k = (H̄Ū_i)_k on the vertices k of colour c (ρ_i = Sc̄_i), so
    // Ū_iᵀ H̄ φ_t = Σ_{k∈c} ρ_kᵀ φ_t,k: O(|c| T) per vertex.
    std::vector<int> reduced(n);
    int done = 0;  // vertices whose subspace is made (progress)
    for (int c = 0; c < m.colourCount; ++c) {
      t = Clock::now();
      std::vector<int> members;  // free indices of colour c
      for (int k = 0; k < nf; ++k)
        if (m.colour[m.freeVertices[k]] == c) members.push_back(k);
      if (members.empty()) continue;
      int np = 0;
      for (int k = 0; k < nf; ++k)
        for (int j = 0; j < 3; ++j) reduced[3 * k + j] = m.colour[m.freeVertices[k]] == c ? -1 : np++;
      std::vector<Eigen::Triplet<double>> trip, tripRows;
      std::vector<int> rowOf(n, -1);  // row of a colour-c DOF in the reaction matrix
      for (std::size_t q = 0; q < members.size(); ++q)
        for (int j = 0; j < 3; ++j) rowOf[3 * members[q] + j] = static_cast<int>(3 * q + j);
      for (int col = 0; col < n; ++col)
        for (SpMat::InnerIterator it(Hbar, col); it; ++it) {
          const int row = static_cast<int>(it.row());
          if (reduced[row] >= 0 && reduced[col] >= 0) trip.emplace_back(reduced[row], reduced[col], it.value());
          if (rowOf[row] >= 0) tripRows.emplace_back(rowOf[row], col, it.value());
        }
      SpMat Hp(np, np);
      Hp.setFromTriplets(trip.begin(), trip.end());
      const SpMat Hc = [&] {  // the colour's rows of H̄ (3|c| × n)
        SpMat h(3 * static_cast<int>(members.size()), n);
        h.setFromTriplets(tripRows.begin(), tripRows.end());
        return h;
      }();
      MatX Mc(3 * members.size(), nModes);  // the training modes on the colour's DOFs
      for (std::size_t q = 0; q < members.size(); ++q) Mc.middleRows(3 * q, 3) = modes.block(3 * members[q], 0, 3, nModes);
      // np = 0 when every other free vertex is of this colour: nothing responds, Ū_{i,C′} is empty.
      Eigen::CholmodSupernodalLLT<SpMat> lltc;
      checkCancel(opt);
      if (np > 0) {
        lltc.compute(Hp);
        if (lltc.info() != Eigen::Success) throw std::runtime_error("JGS2: a colour's complement Hessian is not positive definite");
      }
      d.factorSeconds += since(t);
      MatX Z;
      for (std::size_t first = 0; first < members.size(); first += block) {
        checkCancel(opt);
        report(opt, Jgs2Stage::Subspaces, double(done) / nf);
        const int size = static_cast<int>(std::min<std::size_t>(block, members.size() - first));
        t = Clock::now();
        MatX B = MatX::Zero(np, 3 * size);
        for (int q = 0; q < size; ++q)
          for (int j = 0; j < 3; ++j)
            for (SpMat::InnerIterator it(Hbar, 3 * members[first + q] + j); it; ++it)
              if (reduced[it.row()] >= 0) B(reduced[it.row()], 3 * q + j) = -it.value();
        if (np > 0) Z = lltc.solve(B);
        else Z = B;
        basisTime += since(t);
        t = Clock::now();
        detail::parallelForUneven(size, 2, [&](int q) {
          const int k = members[first + q];
          MatX Uf = MatX::Zero(n, 3);
          for (int row = 0; row < n; ++row)
            if (reduced[row] >= 0) Uf.row(row) = Z.block(reduced[row], 3 * q, 1, 3);
          Uf.block<3, 3>(3 * k, 0).setIdentity();
          const MatX rho = Hc * Uf;  // 3|c| × 3
          const Mat3 Sc = rho.middleRows(3 * (first + q), 3);
          Mat3 Ua;
          vertexSubspace(k, [&](int ka) { return &(Ua = Uf.block<3, 3>(3 * ka, 0)); }, Sc, rho.transpose() * Mc,
                         nullptr, all[k]);
        });
        trainTime += since(t);
        done += size;
      }
    }
  }
  report(opt, Jgs2Stage::Subspaces, 1.0);
  for (int k = 0; k < nf; ++k) {
    const VertexCubature& o = all[k];
    residualSum += o.residual;
    count[m.freeVertices[k]] = static_cast<int>(o.tet.size());
    d.tet.insert(d.tet.end(), o.tet.begin(), o.tet.end());
    d.weight.insert(d.weight.end(), o.weight.begin(), o.weight.end());
    d.basis.insert(d.basis.end(), o.basis.begin(), o.basis.end());
  }
  for (int v = 0; v < nv; ++v) d.offset[v + 1] = d.offset[v] + count[v];
  d.rhsForm = opt.rhsForm;
  d.subspaces = opt.subspaces;
  d.basisSeconds = basisTime;
  d.trainSeconds = trainTime;
  d.trainingResidual = residualSum / nf;
  d.totalSeconds = since(tAll);
  return d;
}

}  // namespace mechsim::deform
