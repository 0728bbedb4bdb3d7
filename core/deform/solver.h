#pragma once
// core/deform/solver.h — the solvers of one implicit-Euler step of a deformable part, behind one
// interface: minimise E(x) (deformable.h) from a start x until the normalised step ‖Δx‖ (max norm
// over vertices / model extent) falls below a tolerance.
//
//   Newton           projected Newton, sparse Cholesky (CHOLMOD) per iteration, backtracking line
//                    search on E — the reference (newton.cpp)
//   Jacobi, Vbd      per-vertex Newton δx_i = −H_ii⁻¹ g_i, all vertices at once (Jacobi) or colour
//                    by colour (Gauss–Seidel, the VBD-style baseline) (vertex_descent.cpp)
//   Jgs2Jacobi/Gs    JGS2 (Lan et al. 2025) local solves Eq. (15): Jacobi or coloured Gauss–Seidel,
//                    in one of three variants (jgs2.cpp):
//                      ExactSchur — oracle: U_i from the CURRENT Hessian (Eq. 8), local matrix the
//                                   Schur complement U_iᵀ H U_i, right-hand side −U_iᵀ g; one Jacobi
//                                   sweep equals one Newton step (Eq. 12–13). Small meshes only.
//                      ExactSum   — co-rotated rest subspaces (Eq. 14, 19–23) with H̃, g̃ of Eq. (16)
//                                   summed over ALL elements / vertices. Small meshes only.
//                      Cubature   — H̃ estimated on 𝒮_i (Eq. 17) trained by greedy NNLS (Eq. 18)
//                                   on low-frequency modes of H̄; right-hand side by the modal split
//                                   (Jgs2RhsForm::Modal) or, for the ablation, sampled on 𝒮_i.
//                                   The modal split's coarse space: Jgs2Options::modalModes
//                                   modes, solved with λ_t or the current Hessian (Jgs2Coarse).
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/deform/deformable.h"
#include "core/deform/low_modes.h"
#include "core/types.h"

namespace mechsim::deform {

enum class Method { Newton, Jacobi, Vbd, Jgs2Jacobi, Jgs2GaussSeidel };
/// The JGS2 methods (they need precomputeJgs2's data).
constexpr bool isJgs2(Method m) { return m == Method::Jgs2Jacobi || m == Method::Jgs2GaussSeidel; }
/// The graph-coloured Gauss–Seidel sweeps.
constexpr bool isGaussSeidel(Method m) { return m == Method::Vbd || m == Method::Jgs2GaussSeidel; }
enum class Jgs2Variant { ExactSchur, ExactSum, Cubature };
/// Global step control of the per-vertex sweeps (VBD-style and JGS2), applied after each sweep on
/// the quadratic model q(d) = gᵀd + ½ dᵀHd of E at x^k (g, H: the sweep's own gradient and
/// projected element Hessians, so it costs one pass of 12×12 products and a few global sums):
///   None       x^{k+1} = x^k + d (the paper's sweeps as written)
///   LineSearch x^{k+1} = x^k + α d, α = −gᵀd / dᵀHd: the exact line search of the quadratic model
///              along the sweep's direction — the cure of overshoot the paper calls expensive (§2),
///              here two dot products (notes §10: stagnation instead of divergence without it)
///   Subspace   x^{k+1} = x^k + α d + β p, p the previous step: the model minimised over the plane
///              of the sweep and the last step (a 2×2 solve; a locally optimal, CG-like
///              momentum that needs no tuned parameter, unlike VBD's Chebyshev ρ)
enum class Acceleration { None, LineSearch, Subspace };

const char* toString(Method m);
const char* toString(Jgs2Variant v);
const char* toString(Acceleration a);
/// The inverses of toString (the names the file format and the command line use); nullopt for an
/// unknown name.
std::optional<Method> methodFromString(const std::string& s);
std::optional<Acceleration> accelerationFromString(const std::string& s);

/// Right-hand side g̃_i of the Cubature variant.
///   Residual — Σ_{e∈𝒮_i} w_e Σ_{a∈e} U_{i,a}ᵀ g_a/val_a: samples of the assembled residual (Eq. 17
///              with [∇E_Ci]_e the residual at e's vertices).
///   Element  — incident elements exactly plus Σ_{e∈𝒮_i} w_e [U_i]_eᵀ [∇E]_e with the element's own
///              gradient and inertia share (Eq. 17 read literally).
///   Modal    — the stabiliser this project uses (default). Both sampled forms amplify the
///              high-frequency part of the residual by the NNLS weights and make the sweeps diverge
///              (notes §10; reproduced here). Instead the residual is split on the T training
///              modes φ_t of H̄ (H̄φ_t = λ_t φ_t, low_modes.h): a_t = φ_tᵀ(Rᵀg)/λ_t (T global dot
///              products per sweep), g_low = R Σ a_t λ_t φ_t. For g_low the subspace solve of
///              Eq. (12) is exact at rest (U_iᵀ H̄ φ_t = Sc̄_i φ_t,i, so Sc̄_i⁻¹ U_iᵀ g_low = Σ a_t φ_t,i):
///              δx_i = −R_i Σ_t a_t φ_t,i. The remainder g − g_low is solved with the cubature
///              local matrix H_ii + H̃_ii (Eq. 15–17) as the damper of §8.1:
///              δx_i = −(H_ii + H̃_ii)⁻¹ (g_i − g_low,i) − R_i Σ_t a_t φ_t,i.
///              The fixed point is g = 0 (unbiased).
enum class Jgs2RhsForm { Residual, Element, Modal };
const char* toString(Jgs2RhsForm f);

/// Coarse (modal) part of the modal split (Jgs2RhsForm::Modal).
///   Rest     — a_t = φ_tᵀ(Rᵀg)/λ_t: the rest eigenvalues stand for the coarse operator (above).
///   Galerkin — the co-rotated modes Φ_R with the CURRENT projected Hessian, K = Φ_Rᵀ H Φ_R formed
///              once per solve (T Hessian–vector products with the cached element Hessians, one
///              T × T Cholesky); per sweep c = K⁻¹Φ_Rᵀg, coarse step −Φ_R c, and the local solves
///              smooth the remaining residual g − HΦ_R c: a two-level multiplicative Schwarz
///              iteration whose fine level is Eq. (15) (jgs2_coarse.h).
enum class Jgs2Coarse { Rest, Galerkin };
const char* toString(Jgs2Coarse c);

/// The sub-problem whose rest response Ū_i the precomputation builds (Eq. 19–23; paper §4.1, §6):
///   Vertex — vertex i alone: every other free vertex is the complement, in equilibrium
///            (Ū_{i,C} = −H̄_CC⁻¹ H̄_iCᵀ, Eq. 8). The Jacobi sub-problem; needed by `jgs2-jacobi`,
///            whose modal split relies on H̄Ū_i = S_iᵀSc̄_i.
///   Colour — the Gauss–Seidel "generalised sub-problem" of §6: the vertices of one colour are solved
///            together, so vertex i's unit move holds the other vertices of its colour still and
///            only the free vertices of other colours (C′) respond: Ū_{i,C′} = −H̄_C′C′⁻¹ H̄_C′i.
///            One factorisation of H̄_C′C′ per colour, the same number of solves as Vertex.
///            `jgs2-gs` only.
enum class Jgs2Subspaces { Vertex, Colour };
const char* toString(Jgs2Subspaces s);

/// Where the Vertex subspaces Ū_i = H̄⁻¹S_iᵀ(S_iH̄⁻¹S_iᵀ)⁻¹ (Eq. 19–23) come from.
///   Solves          — three solves per vertex with the rest factor (blocks of vertices at once):
///                     Ū_i whole, so the cubature draws its candidates among all remote elements.
///                     O(n · nnz(L)): hours at 1M tets.
///   SelectedInverse — the entries of H̄⁻¹ on the factor's pattern (Takahashi's recurrence,
///                     selected_inverse.h), in about a factorisation's time: the blocks
///                     (H̄⁻¹)_{ai} of the vertices a on i's row and column of the factor — its
///                     neighbours and the separators the elimination fills in. Sc̄_i and those
///                     blocks of Ū_i are the same as Solves'; the cubature draws its candidates
///                     among the remote elements whose vertices all have their block.
///   Auto            — SelectedInverse from kSelectedInverseVertices free vertices up, else Solves.
/// Colour subspaces are made by their own solves whatever this says.
enum class Jgs2Basis { Solves, SelectedInverse, Auto };
const char* toString(Jgs2Basis b);
/// Jgs2Basis::Auto's threshold (free vertices). Below it the solves take seconds (12k tets, 2.5k
/// vertices: 2.4 s on two cores) and the cubature has every remote element to choose from; the
/// 98k-tet cantilever (18.8k vertices) is above it: 105 s of solves there, 6 s of selected inverse.
constexpr int kSelectedInverseVertices = 10000;

/// The stages of JGS2's precomputation, as Jgs2Options::progress reports them.
enum class Jgs2Stage { Factor, Modes, Subspaces };

/// Options of JGS2's rest-shape precomputation (jgs2_precompute.cpp).
struct Jgs2Options {
  int cubatureElements = 6;       // |𝒮_i| (paper: 4 or 6)
  double cubatureTolerance = 0.01;  // stop adding elements at this relative training residual (Eq. 18)
  int trainingModes = 64;         // low-frequency eigenvectors of H̄: training poses and modal split
  /// Modes of the modal split when more than trainingModes (the cubature is still trained on the
  /// lowest trainingModes): the coarse space grows, the training cost does not. 0: trainingModes.
  int modalModes = 0;
  int candidatesPerRound = 48;    // random candidates tried per greedy round
  bool denseBasis = false;        // keep every Ū_i whole (needed by ExactSum; O(nv²) memory)
  /// How the Cubature variant forms its right-hand side (see Jgs2RhsForm).
  Jgs2RhsForm rhsForm = Jgs2RhsForm::Modal;
  Jgs2Subspaces subspaces = Jgs2Subspaces::Vertex;
  Jgs2Basis basisFrom = Jgs2Basis::Auto;  // where the Vertex subspaces come from
  unsigned seed = 1;
  /// Asked between the precomputation's stages, its blocks of solves and the mode solver's
  /// iterations; returning true abandons it with Cancelled (the GUI's worker, when the part is
  /// replaced or the window closes). Empty: never.
  std::function<bool()> cancelRequested;
  /// Told where the precomputation is: the rest Hessian's factorisation, its rest modes, then the
  /// vertices' subspaces and cubature with the fraction of them done (−1 for the first two, whose
  /// length is not known in advance). The GUI shows it in the status bar. Empty: not told.
  std::function<void(Jgs2Stage, double)> progress;
};

/// What precomputeJgs2 throws when Jgs2Options::cancelRequested asks it to stop.
struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled") {}
};

/// JGS2 precomputed data: for each vertex i its cubature elements, weights and rest-frame basis
/// blocks [Ū_i]_e (12×3, rows of i zero), and optionally the whole Ū_i (3 nv × 3).
struct Jgs2Data {
  std::vector<int> offset;        // (nv + 1) into the arrays below
  std::vector<int> tet;           // cubature element ids
  std::vector<double> weight;     // w_e ≥ 0
  std::vector<double> basis;      // 36 per entry: [Ū_i]_e row-major 12×3
  std::vector<MatX> dense;        // (nv) Ū_i, 3 nv × 3 (empty unless Jgs2Options::denseBasis)
  std::vector<double> restSchur;  // (9 nv) Sc̄_i = Ū_iᵀH̄Ū_i (Vertex: (S_i H̄⁻¹ S_iᵀ)⁻¹, Eq. 21: −Ḡ_i)
  Jgs2RhsForm rhsForm = Jgs2RhsForm::Modal;  // Jgs2Options::rhsForm used in training
  Jgs2Subspaces subspaces = Jgs2Subspaces::Vertex;  // Jgs2Options::subspaces used
  Jgs2Basis basisFrom = Jgs2Basis::Solves;  // how the subspaces were made (never Auto)
  // Modal right-hand side: modes (3 nv × T, rest frame, unit norm, prescribed rows zero) and
  // their eigenvalues λ_t.
  MatX modes;
  VecX modeValues;
  double trainingResidual = 0;    // mean relative NNLS residual over vertices
  double factorSeconds = 0, basisSeconds = 0, modesSeconds = 0, trainSeconds = 0, totalSeconds = 0;
};

/// Precomputes JGS2's subspaces from one factorisation of the rest Hessian H̄ (Eq. 19–23) and trains
/// the cubature (Eq. 17–18) on low-frequency modes of H̄ (block Krylov, shift-invert).
Jgs2Data precomputeJgs2(const DeformableModel& m, const Jgs2Options& opt = {});
/// The k lowest eigenpairs of m's rest Hessian H̄ as precomputeJgs2 computes them (its stage 3:
/// block Krylov–Schur through H̄'s factor, the solves on all threads), for the benchmark of that
/// stage. `factorSeconds`, when given, receives the assembly and factorisation time.
LowModes restModes(const DeformableModel& m, int k, const LowModesOptions& options = {},
                   double* factorSeconds = nullptr);
/// Rest modes in the modal split's coarse space of the parts the command line and the GUI step
/// with JGS2, unless the file gives `"modes"`. 256 rather than the 64 training modes: on the
/// benchmark's 12k-tet scenes at 20× this takes JGS2 from 11–23 to 5–7 iterations to the error
/// 1e-3 for ~4 s more precomputation, and the 1920-tet and 12k-tet flexible links run in
/// 0.58–0.69× the wall time, precomputation included (docs/deform.md, "The coarse space").
constexpr int kDefaultModalModes = 256;
/// The precomputation a part stepped by `method` gets (the command line's and the GUI's): the
/// defaults, a coarse space of `modes` rest modes (Jgs2Options::modalModes; at least the training
/// modes; 0: kDefaultModalModes), and the colour sub-problems' subspaces for jgs2-gs (paper §6) —
/// unless the part has kSelectedInverseVertices free vertices or more (`freeVertices`): the colour
/// subspaces are made by solves, three per vertex, and such a part gets the vertex subspaces from
/// the selected inverse instead (Jgs2Basis), in seconds rather than minutes.
Jgs2Options jgs2OptionsFor(Method method, int modes = 0, int freeVertices = 0);

struct SolveOptions {
  Method method = Method::Newton;
  Jgs2Variant variant = Jgs2Variant::Cubature;
  double tolerance = 1e-4;        // on normalisedStep
  int maxIterations = 200;
  int minIterations = 1;
  /// JGS2: scales g̃ (1 = Eq. 15 as written). Below 1 damps the cubature right-hand side.
  double rhsScale = 1.0;
  /// JGS2: local matrix H_ii − H̃_ii (the sign of the exact Schur complement, Eq. 12, with
  /// H̃ = U_Cᵀ H_CC U_C = −H_iC U_C) instead of the paper's PSD "damper" H_ii + H̃_ii; falls back to
  /// the damper form at a vertex where H_ii − H̃_ii is not positive definite.
  bool schurHessian = false;
  /// JGS2 Cubature: false drops the cubature terms of the local solve (H̃_ii, and g̃_i in the
  /// sampled forms). With the modal right-hand side what remains is the modal coarse correction
  /// followed by plain per-vertex Newton smoothing — the two-level baseline of the benchmark,
  /// which measures what the damper H̃_ii adds (docs/deform.md).
  bool cubatureTerms = true;
  /// JGS2 Cubature with the modal right-hand side: how its coarse part is solved (Jgs2Coarse).
  Jgs2Coarse coarse = Jgs2Coarse::Rest;
  /// Per-vertex sweeps only (Jacobi, Vbd, JGS2 except the oracle): global step control.
  Acceleration acceleration = Acceleration::None;
  /// jgs2-jacobi with the modal right-hand side and a step control: the modal (coarse) part of the
  /// sweep is taken first, as jgs2-gs does — its own quadratic-model line search clamped to [0, 1],
  /// the residuals recomputed at the moved x — and the step control then scales the local solves
  /// alone. false: one step control scales the coarse and local parts together (the CUDA
  /// backend's form). On a violent step the rest modes applied whole overshoot, and the shared
  /// scale cut the local part with them: on the 12k-tet struck bar at 20× jgs2-jacobi modal256 +
  /// subspace needed 152 iterations to the error 1e-3 with false, 17 with true; gentle steps
  /// gain or lose one (docs/deform.md, "Coarse part first").
  bool coarseFirst = true;
  /// Called with x after every iteration; returning true stops the solve as converged (the
  /// benchmark stops on the error against a reference solution this way). Empty: not used.
  std::function<bool(const VecX&)> monitor;
  /// Divergence guard: stop when the normalised step exceeds this.
  double divergenceStep = 10.0;
  /// Asked after every iteration; returning true stops the solve, not converged, with
  /// SolveStats::cancelled (the GUI's worker abandons a step this way). Empty: never.
  std::function<bool()> cancelRequested;
};

struct SolveStats {
  int iterations = 0;
  bool converged = false;
  bool diverged = false;
  bool cancelled = false;    // stopped by SolveOptions::cancelRequested
  double lastStep = 0;       // final normalised ‖Δx‖
  double seconds = 0;        // wall time of the whole solve
  double finalEnergy = 0;
};

/// Records iteration `it` (0-based) with normalised step `step` in st and applies opt's stopping
/// rules: diverged when the step is not finite or exceeds divergenceStep; converged when the step
/// is below tolerance after minIterations, or when the monitor accepts x; else cancelled when
/// cancelRequested says so. Returns true to stop.
bool recordIteration(const SolveOptions& opt, int it, double step, const VecX& x, SolveStats& st);

/// Minimises E for inertia target z, starting from and overwriting x (prescribed vertices are left
/// as they are). `jgs2` is required for the JGS2 methods with ExactSum / Cubature.
SolveStats minimise(const DeformableModel& m, const Jgs2Data* jgs2, const SolveOptions& opt, const VecX& z, VecX& x);

/// One implicit-Euler step: z = x̂ + h v̂ + h² g, prescribed vertices moved to their targets
/// (pinned: rest position; attached: bodyPoses[body].apply(local)), minimise E, v = (x − x̂)/h.
SolveStats stepImplicitEuler(const DeformableModel& m, const Jgs2Data* jgs2, const SolveOptions& opt, VecX& x,
                             VecX& v, const std::vector<Pose>& bodyPoses = {});
/// The same step with another minimiser of E for z (the CUDA backend's, gpu/deform_gpu.h):
/// `solve(z, x)` minimises from and overwrites x.
using Minimiser = std::function<SolveStats(const VecX& z, VecX& x)>;
SolveStats stepImplicitEuler(const DeformableModel& m, const Minimiser& solve, VecX& x, VecX& v,
                             const std::vector<Pose>& bodyPoses = {});

// Solver entry points (one per file), used by minimise().
SolveStats solveNewton(const DeformableModel& m, const SolveOptions& opt, const VecX& z, VecX& x);
SolveStats solveVertexDescent(const DeformableModel& m, const SolveOptions& opt, const VecX& z, VecX& x);
SolveStats solveJgs2(const DeformableModel& m, const Jgs2Data* jgs2, const SolveOptions& opt, const VecX& z, VecX& x);

/// One exact-Schur (oracle) Jacobi sweep from x: returns δx with δx_i = −(U_iᵀ H U_i)⁻¹ U_iᵀ g,
/// U_i = [I; −H_CC⁻¹ H_iCᵀ] from the current projected Hessian (Eq. 8–12). For tests.
VecX jgs2OracleSweep(const DeformableModel& m, const VecX& z, const VecX& x);
/// The projected Newton direction −H⁻¹ g at x (prescribed entries zero). For tests.
VecX newtonDirection(const DeformableModel& m, const VecX& z, const VecX& x);

}  // namespace mechsim::deform
