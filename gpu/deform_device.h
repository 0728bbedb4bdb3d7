#pragma once
// gpu/deform_device.h — the plain-data boundary between deform_gpu.cpp (host C++, Eigen) and
// deform_kernels.cu (nvcc): host arrays in, a handle to the resident device problem out.
// No Eigen and no CUDA types here, so both compilers read it.

namespace mechsim::gpu::detail {

struct DeviceInputs {
  int nv = 0, nt = 0;
  int method = 0;  // the local solve: 0 per-vertex Newton, 1 JGS2 cubature + modal split
  int gaussSeidel = 0;  // 0: Jacobi sweeps; 1: colour by colour (vbd, jgs2-gs), the lists below
  int kind = 0;    // hd::MaterialKind
  double mu = 0, lambda = 0, invH2 = 0;
  const int* tets = nullptr;           // (4 nt)
  const double* Bm = nullptr;          // (9 nt)
  const double* volume = nullptr;      // (nt)
  const double* share = nullptr;       // (nt) ρV/(4h²)
  const double* mass = nullptr;        // (nv)
  const unsigned char* prescribed = nullptr;  // (nv)
  const int* incOffset = nullptr;      // (nv + 1)
  const int* incTet = nullptr;         // (4 nt)
  const int* incLocal = nullptr;       // (4 nt)
  // JGS2 (method 1)
  const int* cubOffset = nullptr;      // (nv + 1)
  const int* cubTet = nullptr;
  const double* cubWeight = nullptr;
  const double* cubBasis = nullptr;    // 36 per entry
  int T = 0;
  const double* modes = nullptr;       // (3 nv × T), column-major (mode t at [t * 3nv])
  const double* modeValues = nullptr;  // (T)
  // Gauss–Seidel: per colour (CSR, colours + 1 offsets) its free vertices, the tets they touch and
  // the vertices of those tets (whose residuals its moves change): core/deform/sweep.h ColourPlan.
  int colours = 0;
  const int *colourVertexOffset = nullptr, *colourVertex = nullptr;
  const int *colourTetOffset = nullptr, *colourTet = nullptr;
  const int *colourTouchedOffset = nullptr, *colourTouched = nullptr;
};

/// Uploads the problem; returns an opaque handle (nullptr with `error` set on failure).
void* create(const DeviceInputs& in, const char** error);
void destroy(void* handle);
/// Sets positions x and inertia target z (3 nv each).
bool setState(void* handle, const double* x, const double* z);
/// Sets the soft handles (core/deform/handle.h) the sweeps and the model include: `count` vertices,
/// their targets (3 each) and stiffnesses; count 0 removes them. They stay until set again.
bool setHandles(void* handle, int count, const int* vertices, const double* targets, const double* stiffness);
/// One iteration of a solve with global step control (core/deform/step_control.h), in three calls:
/// sweepStep computes the sweep's step d at the device's x without applying it (and, when
/// `proposalMax` is not null, its max ‖d_i‖ — the stopping rule of core/deform/sweep.h needs it); modelSums returns
/// the sums of the quadratic model with the previous step p, {gᵀd, dᵀHd, gᵀp, dᵀHp, pᵀHp, pᵀp}
/// (H = M/h² + Σ_e H_e with the element Hessians of the sweep); applyStep sets s = αd + βp,
/// x += s, p = s and returns max ‖s_i‖ in `stepMax`. setState clears p. false on a CUDA error.
/// Gauss–Seidel: sweepStep moves x colour by colour to x_s + d (JGS2's coarse step line searched
/// when stepControl); modelSums takes g at x_s and dᵀHd measured, max(0, (g(x_s + d) − g(x_s))ᵀd);
/// applyStep sets x = x_s + s. Without step control the host applies α = 1, β = 0.
bool sweepStep(void* handle, bool stepControl, double* proposalMax);
bool modelSums(void* handle, double sums[6]);
bool applyStep(void* handle, double alpha, double beta, double* stepMax);
/// JGS2 with step control and the coarse part first (SolveOptions::coarseFirst, core/deform/sweep.h),
/// before sweepStep: computes the modal coarse step d_c at x, takes α_c d_c with α_c the model's
/// minimiser along it clamped to [0, 1], and recomputes the gradients at the moved x. The next
/// sweepStep then solves the local systems alone (no modal part; rotations and element Hessians of
/// x^k), and applyStep counts d_c in the step taken (p and `stepMax` are the whole step). Does
/// nothing for per-vertex Newton, without modes, or for Gauss–Seidel (its sweep takes the coarse
/// step itself). false on a CUDA error.
bool coarseStep(void* handle);
/// Copies x (3 nv) to the host.
bool getPositions(void* handle, double* x);
/// Runs `sweeps` sweeps (Jacobi, or Gauss–Seidel colour by colour) on the device, without step
/// control; afterwards copies x (3 nv) and the last sweep's δx (3 nv) to the host when non-null.
/// Returns the device time in milliseconds (CUDA events), or a negative value on failure;
/// `lastStepMax` gets the last sweep's max vertex ‖δx‖.
double sweeps(void* handle, int sweeps, double* xOut, double* dxOut, double* lastStepMax);

}  // namespace mechsim::gpu::detail
