// gpu/deform_kernels.cu — CUDA kernels of the per-vertex deformable solvers: one thread per tet for
// the element pass, one thread per vertex for rotations, residuals and the local 3×3 solves. Every
// formula is the __host__ __device__ code of core/deform/hd/ that the CPU twin runs (elementEval,
// polarRotation, vertexBlock, cubatureAccumulate, solve3), in the same order, so the two agree to
// round-off (summation order of the modal reduction aside); tests/core/test_deform_gpu.cpp checks it,
// on a device and, built by the C++ compiler with the runtime emulated (gpu/emulation/cuda_emulation.h), on
// the CPU. Kernels are launched through launch() below, which is where the two builds differ.
//
// A Jacobi sweep (JGS2 §8.1, the kernel sequence of notes §6):
//   1. element pass: g_e (12), H_e (144, projected PSD) per tet
//   2. per-vertex rotation R_j (polar part of the volume-weighted mean F)   [JGS2 only]
//   3. per-vertex residual g_j
//   4. modal coefficients a_t = φ_tᵀ(Rᵀg)/λ_t (block reduction + atomics)     [JGS2 only]
//   5. per-vertex local solve → δx_i;  6. x += δx, max ‖δx_i‖ (atomicMax on the bit pattern)
// With global step control (core/deform/step_control.h) step 6 is replaced by the sums of the
// quadratic model (per-tet dᵀH_e d, dᵀH_e p, pᵀH_e p and per-vertex mass and gradient terms, block
// reductions + atomics), the 2×2 decision on the host, and x += αd + βp.
// JGS2 with step control and SolveOptions::coarseFirst (core/deform/sweep.h) first takes the modal
// coarse step d_c = −R Σ_t a_t φ_t alone, line searched on the same model (α_c = −gᵀd_c / d_cᵀHd_c
// clamped to [0, 1]), recomputes the gradients at the moved x (the element Hessians of x^k kept),
// and then solves the local systems without the modal part (coarseStep below).
// A Gauss–Seidel sweep (vbd, jgs2-gs; gaussSeidelSweep below) runs steps 1–4 at x^k, JGS2's modal
// coarse step on every vertex, then per colour: the colour's local solves (step 5 on its vertex
// list), their moves, its tets' element pass and the residuals of the vertices they touch. Its
// step control takes g at x^k and the measured curvature (g(x^k + d) − g(x^k))ᵀd for dᵀHd.
#if defined(__CUDACC__)
#include <cuda_runtime.h>
#else  // the tests' CPU emulation of this file (test_deform_gpu_emulated)
#include "gpu/emulation/cuda_emulation.h"
#endif

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/deform/hd/element.h"
#include "core/deform/hd/vertex.h"
#include "gpu/deform_device.h"

namespace mechsim::gpu::detail {

namespace hd = mechsim::deform::hd;

namespace {

constexpr int kBlock = 128;

struct Device {
  DeviceInputs in;  // sizes and scalars; pointers below are device copies
  int* tets = nullptr;
  double *Bm = nullptr, *volume = nullptr, *share = nullptr, *mass = nullptr;
  unsigned char* prescribed = nullptr;
  int *incOffset = nullptr, *incTet = nullptr, *incLocal = nullptr;
  int *cubOffset = nullptr, *cubTet = nullptr;
  double *cubWeight = nullptr, *cubBasis = nullptr, *modes = nullptr, *modeValues = nullptr;
  double *x = nullptr, *z = nullptr, *dx = nullptr, *gE = nullptr, *HE = nullptr, *R = nullptr, *G = nullptr;
  double* prev = nullptr;                  // (3 nv) previous step p of the step control
  double* sums = nullptr;                  // (9) model sums: 6 vertex terms, then 3 element terms
  double* modal = nullptr;                 // (T)
  double* dc = nullptr;                    // (3 nv) the coarse step taken this iteration (coarse first)
  // Gauss–Seidel (in.gaussSeidel): the colours' lists (host offsets, device entries), x and g at
  // the sweep's start, and the measured curvature.
  std::vector<int> colourVertexOffset, colourTetOffset, colourTouchedOffset;
  int *colourVertex = nullptr, *colourTet = nullptr, *colourTouched = nullptr;
  double *xs = nullptr, *G0 = nullptr, *secant = nullptr;
  // Soft handles (setHandles), reallocated when there are more than the capacity.
  int handles = 0, handleCapacity = 0;
  int* hv = nullptr;
  double *ht = nullptr, *hk = nullptr;
  bool coarseTaken = false;                // coarseStep moved x; sweepStep and applyStep follow it
  unsigned long long* stepMax = nullptr;   // bit pattern of a non-negative double
  unsigned long long* proposalMax = nullptr;  // the same for the sweep's own step d
  std::vector<void*> owned;
};

template <class T>
bool upload(Device& d, T*& dst, const T* src, size_t n) {
  if (n == 0 || !src) return true;
  if (cudaMalloc(reinterpret_cast<void**>(&dst), n * sizeof(T)) != cudaSuccess) return false;
  d.owned.push_back(dst);
  return cudaMemcpy(dst, src, n * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess;
}
template <class T>
bool alloc(Device& d, T*& dst, size_t n) {
  if (cudaMalloc(reinterpret_cast<void**>(&dst), n * sizeof(T)) != cudaSuccess) return false;
  d.owned.push_back(dst);
  return true;
}

/// The soft handles (core/deform/handle.h; a dragged vertex) on vertex i added to its gradient g
/// and, when H is not null, its 3×3 block: g += k (x_i − t), H += k I — sweep.h's addVertexHandles,
/// in the same order. nh is small (one per grabbed vertex).
__device__ void addHandles(int nh, const int* hv, const double* ht, const double* hk, int i, const double* x, double* g,
                           double* H) {
  for (int h = 0; h < nh; ++h) {
    if (hv[h] != i) continue;
    for (int r = 0; r < 3; ++r) g[r] += hk[h] * (x[3 * i + r] - ht[3 * h + r]);
    if (H)
      for (int r = 0; r < 3; ++r) H[4 * r] += hk[h];
  }
}

/// Every tet, or (list not null) the nt tets list[0..nt) (a Gauss–Seidel colour's); HE null:
/// gradients only.
__global__ void elementKernel(int nt, const int* list, int kind, double mu, double lambda, const int* tets,
                              const double* Bm, const double* volume, const double* x, double* gE, double* HE) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nt) return;
  const int t = list ? list[k] : k;
  double xe[12];
  for (int a = 0; a < 4; ++a)
    for (int r = 0; r < 3; ++r) xe[3 * a + r] = x[3 * tets[4 * t + a] + r];
  hd::elementEval(kind, mu, lambda, volume[t], Bm + 9 * t, xe, gE + 12 * size_t(t), HE ? HE + 144 * size_t(t) : nullptr,
                  true);
}

__global__ void rotationKernel(int nv, const int* tets, const double* Bm, const double* volume, const int* incOffset,
                               const int* incTet, const double* x, double* R) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv) return;
  double Fsum[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (int k = incOffset[v]; k < incOffset[v + 1]; ++k) {
    const int t = incTet[k];
    double xe[12], b[12], F[9];
    for (int a = 0; a < 4; ++a)
      for (int r = 0; r < 3; ++r) xe[3 * a + r] = x[3 * tets[4 * t + a] + r];
    hd::shapeGradients(Bm + 9 * t, b);
    hd::deformationGradient(xe, b, F);
    for (int q = 0; q < 9; ++q) Fsum[q] += volume[t] * F[q];
  }
  hd::polarRotation(Fsum, R + 9 * size_t(v));
}

/// Every vertex, or (list not null) the nv vertices list[0..nv).
__global__ void residualKernel(int nv, const int* list, double invH2, const double* mass,
                               const unsigned char* prescribed, const int* incOffset, const int* incTet,
                               const int* incLocal, const double* x, const double* z, const double* gE, double* G,
                               int nh, const int* hv, const double* ht, const double* hk) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nv) return;
  const int v = list ? list[k] : k;
  double* g = G + 3 * size_t(v);
  hd::vertexBlock(v, mass[v] * invH2, x, z, incTet, incLocal, incOffset[v], incOffset[v + 1], gE, nullptr, g, nullptr);
  addHandles(nh, hv, ht, hk, v, x, g, nullptr);
  if (prescribed[v]) g[0] = g[1] = g[2] = 0;
}

__global__ void modalKernel(int nv, int T, const unsigned char* prescribed, const double* R, const double* G,
                            const double* modes, double* modal) {
  __shared__ double part[kBlock];
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  double gr[3] = {0, 0, 0};
  if (v < nv && !prescribed[v]) hd::matTVec(R + 9 * size_t(v), G + 3 * size_t(v), gr);
  for (int t = 0; t < T; ++t) {
    const double* ph = modes + size_t(t) * 3 * nv;
    part[threadIdx.x] = v < nv ? ph[3 * v] * gr[0] + ph[3 * v + 1] * gr[1] + ph[3 * v + 2] * gr[2] : 0.0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
      __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(modal + t, part[0]);
    __syncthreads();
  }
}

struct VertexArgs {
  int nv, method, T;
  const int* list;  // not null: solve the `count` vertices list[0..count) (a colour) instead of all
  int count;
  int modalOff;  // 1: the modal part was taken before (coarse first): the local solves see none
  double invH2;
  const double *mass, *share, *invVal_unused;
  const unsigned char* prescribed;
  const int *tets, *incOffset, *incTet, *incLocal;
  const int *cubOffset, *cubTet;
  const double *cubWeight, *cubBasis, *modes, *modeValues, *modal;
  const double *x, *z, *gE, *HE, *R;
  double* dx;
  int nh;  // soft handles: vertex, target (3 each), stiffness
  const int* hv;
  const double *ht, *hk;
};

__global__ void vertexKernel(VertexArgs a) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= (a.list ? a.count : a.nv)) return;
  const int i = a.list ? a.list[k] : k;
  double* d = a.dx + 3 * size_t(i);
  d[0] = d[1] = d[2] = 0;
  if (a.prescribed[i]) return;
  double g[3], H[9];
  hd::vertexBlock(i, a.mass[i] * a.invH2, a.x, a.z, a.incTet, a.incLocal, a.incOffset[i], a.incOffset[i + 1], a.gE,
                  a.HE, g, H);
  addHandles(a.nh, a.hv, a.ht, a.hk, i, a.x, g, H);
  double sol[3];
  if (a.method == 0) {  // per-vertex Newton
    if (!hd::solve3(H, g, sol)) return;
    for (int r = 0; r < 3; ++r) d[r] = -sol[r];
    return;
  }
  // JGS2: H̃_ii from the cubature elements (Eq. 17), modal split of the right-hand side.
  double A[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, b[3] = {0, 0, 0};
  for (int k = a.cubOffset[i]; k < a.cubOffset[i + 1]; ++k) {
    const int t = a.cubTet[k];
    const double* Rv[4];
    double iv[4] = {0, 0, 0, 0};
    bool skip[4];
    for (int q = 0; q < 4; ++q) {
      const int vq = a.tets[4 * t + q];
      Rv[q] = a.R + 9 * size_t(vq);
      skip[q] = vq == i || a.prescribed[vq];
    }
    hd::cubatureAccumulate(a.cubWeight[k], a.cubBasis + 36 * size_t(k), Rv, a.R + 9 * size_t(i),
                           a.HE + 144 * size_t(t), a.share[t], nullptr, iv, skip, A, b);
  }
  double glow[3] = {0, 0, 0}, nlow[3] = {0, 0, 0}, gl[3], nl[3];
  for (int t = 0; t < (a.modalOff ? 0 : a.T); ++t) {
    const double c = a.modal[t] / a.modeValues[t];
    const double* ph = a.modes + size_t(t) * 3 * a.nv;
    for (int r = 0; r < 3; ++r) {
      glow[r] += c * a.modeValues[t] * ph[3 * i + r];
      nlow[r] += c * ph[3 * i + r];
    }
  }
  hd::matVec(a.R + 9 * size_t(i), glow, gl);
  hd::matVec(a.R + 9 * size_t(i), nlow, nl);
  double M[9], rhs[3];
  for (int k = 0; k < 9; ++k) M[k] = H[k] + A[k];
  for (int r = 0; r < 3; ++r) rhs[r] = g[r] - gl[r];
  if (!hd::solve3(M, rhs, sol)) return;
  for (int r = 0; r < 3; ++r) d[r] = -sol[r] - nl[r];
}

/// The modal coarse step d_c,i = −R_i Σ_t (a_t/λ_t) φ_t,i of every free vertex (0 at prescribed
/// ones): the modal part of vertexKernel's step alone, in the same order of summation.
__global__ void coarseKernel(int nv, int T, const unsigned char* prescribed, const double* R, const double* modes,
                             const double* modeValues, const double* modal, double* dc) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nv) return;
  double* d = dc + 3 * size_t(i);
  d[0] = d[1] = d[2] = 0;
  if (prescribed[i]) return;
  double nlow[3] = {0, 0, 0}, nl[3];
  for (int t = 0; t < T; ++t) {
    const double c = modal[t] / modeValues[t];
    const double* ph = modes + size_t(t) * 3 * nv;
    for (int r = 0; r < 3; ++r) nlow[r] += c * ph[3 * i + r];
  }
  hd::matVec(R + 9 * size_t(i), nlow, nl);
  for (int r = 0; r < 3; ++r) d[r] = -nl[r];
}

/// d_c *= α, x += d_c: the coarse step taken.
__global__ void takeCoarseKernel(int nv, double alpha, double* x, double* dc) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv) return;
  for (int r = 0; r < 3; ++r) {
    dc[3 * v + r] *= alpha;
    x[3 * v + r] += dc[3 * v + r];
  }
}

/// x_i += δx_i for the n vertices list[0..n) (a colour's moves, once all of them are solved).
__global__ void applyListKernel(int n, const int* list, double* x, const double* dx) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int i = list[k];
  for (int r = 0; r < 3; ++r) x[3 * i + r] += dx[3 * i + r];
}

/// d = x − x_s (a Gauss–Seidel sweep's step) and max ‖d_i‖.
__global__ void differenceKernel(int nv, const double* x, const double* xs, double* d, unsigned long long* stepMax) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv) return;
  double n2 = 0;
  for (int r = 0; r < 3; ++r) {
    d[3 * v + r] = x[3 * v + r] - xs[3 * v + r];
    n2 += d[3 * v + r] * d[3 * v + r];
  }
  atomicMax(stepMax, static_cast<unsigned long long>(__double_as_longlong(sqrt(n2))));
}

__global__ void applyKernel(int nv, double* x, const double* dx, unsigned long long* stepMax) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv) return;
  double n2 = 0;
  for (int r = 0; r < 3; ++r) {
    x[3 * v + r] += dx[3 * v + r];
    n2 += dx[3 * v + r] * dx[3 * v + r];
  }
  const double n = sqrt(n2);
  atomicMax(stepMax, static_cast<unsigned long long>(__double_as_longlong(n)));
}

/// Block sum of K values per thread into out[0..K) (atomicAdd of each block's total). Every thread
/// of the block calls it.
template <int K>
__device__ void blockSumAtomic(const double (&v)[K], double* out) {
  __shared__ double part[K][kBlock];
  for (int q = 0; q < K; ++q) part[q][threadIdx.x] = v[q];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      for (int q = 0; q < K; ++q) part[q][threadIdx.x] += part[q][threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    for (int q = 0; q < K; ++q) atomicAdd(out + q, part[q][0]);
}

/// Element part of the model: dᵀH_e d, dᵀH_e p, pᵀH_e p summed over the tets into sums[0..3).
__global__ void modelElementKernel(int nt, const int* tets, const double* HE, const double* d, const double* p,
                                   double* sums) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  double v[3] = {0, 0, 0};
  if (t < nt) {
    double de[12], pe[12];
    for (int a = 0; a < 4; ++a)
      for (int r = 0; r < 3; ++r) {
        de[3 * a + r] = d[3 * tets[4 * t + a] + r];
        pe[3 * a + r] = p[3 * tets[4 * t + a] + r];
      }
    const double* He = HE + 144 * size_t(t);
    for (int r = 0; r < 12; ++r) {
      double hd = 0, hp = 0;
      for (int k = 0; k < 12; ++k) {
        hd += He[12 * r + k] * de[k];
        hp += He[12 * r + k] * pe[k];
      }
      v[0] += de[r] * hd;
      v[1] += de[r] * hp;
      v[2] += pe[r] * hp;
    }
  }
  blockSumAtomic<3>(v, sums);
}

/// Vertex part into sums[0..6): gᵀd, m/h² dᵀd, gᵀp, m/h² dᵀp, m/h² pᵀp, pᵀp.
__global__ void modelVertexKernel(int nv, double invH2, const double* mass, const double* G, const double* d,
                                  const double* p, double* sums) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v[6] = {0, 0, 0, 0, 0, 0};
  if (i < nv) {
    const double w = mass[i] * invH2;
    for (int r = 0; r < 3; ++r) {
      const double di = d[3 * i + r], pi = p[3 * i + r], gi = G[3 * i + r];
      v[0] += gi * di;
      v[1] += w * di * di;
      v[2] += gi * pi;
      v[3] += w * di * pi;
      v[4] += w * pi * pi;
      v[5] += pi * pi;
    }
  }
  blockSumAtomic<6>(v, sums);
}

/// The measured curvature of a Gauss–Seidel sweep, (g(x^k + d) − g(x^k))ᵀ d, into *out.
__global__ void secantKernel(int nv, const double* G, const double* G0, const double* d, double* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v[1] = {0};
  if (i < nv)
    for (int r = 0; r < 3; ++r) v[0] += (G[3 * i + r] - G0[3 * i + r]) * d[3 * i + r];
  blockSumAtomic<1>(v, out);
}

/// The handles' part of the model, k d_vᵀd_v, k d_vᵀp_v, k p_vᵀp_v, into sums[1], [3], [4] (one
/// thread: there are a few).
__global__ void modelHandleKernel(int nh, const int* hv, const double* hk, const double* d, const double* p,
                                  double* sums) {
  if (blockIdx.x * blockDim.x + threadIdx.x != 0) return;
  for (int h = 0; h < nh; ++h) {
    double dd = 0, dp = 0, pp = 0;
    for (int r = 0; r < 3; ++r) {
      const double dv = d[3 * hv[h] + r], pv = p[3 * hv[h] + r];
      dd += dv * dv;
      dp += dv * pv;
      pp += pv * pv;
    }
    sums[1] += hk[h] * dd;
    sums[3] += hk[h] * dp;
    sums[4] += hk[h] * pp;
  }
}

/// max ‖d_i‖ of the sweep's step (before the step control).
__global__ void stepNormKernel(int nv, const double* d, unsigned long long* out) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv) return;
  const double n = sqrt(d[3 * v] * d[3 * v] + d[3 * v + 1] * d[3 * v + 1] + d[3 * v + 2] * d[3 * v + 2]);
  atomicMax(out, static_cast<unsigned long long>(__double_as_longlong(n)));
}

/// s = αd + βp, x += s (x = x_s + s when xs is not null: a Gauss–Seidel sweep has moved x to
/// x_s + d), p = s (+ the coarse step d_c taken before it this iteration, when not null: p is then
/// the whole step), max ‖p_i‖.
__global__ void combineKernel(int nv, double alpha, double beta, double* x, const double* xs, const double* d,
                              double* p, const double* coarse, unsigned long long* stepMax) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nv) return;
  double n2 = 0;
  for (int r = 0; r < 3; ++r) {
    const double sr = beta != 0 ? alpha * d[3 * v + r] + beta * p[3 * v + r] : alpha * d[3 * v + r];
    if (xs)
      x[3 * v + r] = xs[3 * v + r] + sr;
    else
      x[3 * v + r] += sr;
    const double whole = coarse ? sr + coarse[3 * v + r] : sr;
    p[3 * v + r] = whole;
    n2 += whole * whole;
  }
  atomicMax(stepMax, static_cast<unsigned long long>(__double_as_longlong(sqrt(n2))));
}

inline int blocks(int n) { return (n + kBlock - 1) / kBlock; }

/// Frees the handle arrays of setHandles (not in `owned`: they are reallocated as they grow).
void freeHandles(Device* d) {
  for (void* p : {static_cast<void*>(d->hv), static_cast<void*>(d->ht), static_cast<void*>(d->hk)})
    if (p) cudaFree(p);
  d->hv = nullptr;
  d->ht = d->hk = nullptr;
  d->handleCapacity = 0;
}

/// kernel<<<grid, kBlock>>>(args...), or its CPU emulation where a C++ compiler builds this file
/// (gpu/emulation/cuda_emulation.h). Nothing for an empty grid (a launch of 0 blocks is an error
/// on a device).
template <class... P, class... A>
void launch(int grid, void (*kernel)(P...), A... args) {
  if (grid <= 0) return;
#if defined(__CUDACC__)
  kernel<<<grid, kBlock>>>(args...);
#else
  emulation::run(static_cast<long long>(grid) * kBlock, kernel, args...);
#endif
}

}  // namespace

void* create(const DeviceInputs& in, const char** error) {
  *error = nullptr;
  auto* d = new Device;
  d->in = in;
  const size_t nv = in.nv, nt = in.nt;
  bool ok = upload(*d, d->tets, in.tets, 4 * nt) && upload(*d, d->Bm, in.Bm, 9 * nt) &&
            upload(*d, d->volume, in.volume, nt) && upload(*d, d->share, in.share, nt) &&
            upload(*d, d->mass, in.mass, nv) && upload(*d, d->prescribed, in.prescribed, nv) &&
            upload(*d, d->incOffset, in.incOffset, nv + 1) && upload(*d, d->incTet, in.incTet, 4 * nt) &&
            upload(*d, d->incLocal, in.incLocal, 4 * nt) && alloc(*d, d->x, 3 * nv) && alloc(*d, d->z, 3 * nv) &&
            alloc(*d, d->dx, 3 * nv) && alloc(*d, d->gE, 12 * nt) && alloc(*d, d->HE, 144 * nt) &&
            alloc(*d, d->G, 3 * nv) && alloc(*d, d->prev, 3 * nv) && alloc(*d, d->sums, 9) &&
            alloc(*d, d->stepMax, 1) && alloc(*d, d->proposalMax, 1);
  if (ok && in.method == 1) {
    const size_t nc = in.cubOffset[nv];
    ok = upload(*d, d->cubOffset, in.cubOffset, nv + 1) && upload(*d, d->cubTet, in.cubTet, nc) &&
         upload(*d, d->cubWeight, in.cubWeight, nc) && upload(*d, d->cubBasis, in.cubBasis, 36 * nc) &&
         upload(*d, d->modes, in.modes, 3 * nv * in.T) && upload(*d, d->modeValues, in.modeValues, in.T) &&
         alloc(*d, d->R, 9 * nv) && alloc(*d, d->modal, in.T > 0 ? in.T : 1) && alloc(*d, d->dc, 3 * nv);
  }
  if (ok && in.gaussSeidel) {
    const int nc = in.colours;
    d->colourVertexOffset.assign(in.colourVertexOffset, in.colourVertexOffset + nc + 1);
    d->colourTetOffset.assign(in.colourTetOffset, in.colourTetOffset + nc + 1);
    d->colourTouchedOffset.assign(in.colourTouchedOffset, in.colourTouchedOffset + nc + 1);
    ok = upload(*d, d->colourVertex, in.colourVertex, size_t(in.colourVertexOffset[nc])) &&
         upload(*d, d->colourTet, in.colourTet, size_t(in.colourTetOffset[nc])) &&
         upload(*d, d->colourTouched, in.colourTouched, size_t(in.colourTouchedOffset[nc])) &&
         alloc(*d, d->xs, 3 * nv) && alloc(*d, d->G0, 3 * nv) && alloc(*d, d->secant, 1);
  }
  if (!ok) {
    *error = cudaGetErrorString(cudaGetLastError());
    destroy(d);
    return nullptr;
  }
  return d;
}

void destroy(void* handle) {
  auto* d = static_cast<Device*>(handle);
  if (!d) return;
  freeHandles(d);
  for (void* p : d->owned) cudaFree(p);
  delete d;
}

bool setState(void* handle, const double* x, const double* z) {
  auto* d = static_cast<Device*>(handle);
  const size_t n = 3 * size_t(d->in.nv);
  d->coarseTaken = false;
  return cudaMemcpy(d->x, x, n * sizeof(double), cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(d->z, z, n * sizeof(double), cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemset(d->prev, 0, n * sizeof(double)) == cudaSuccess;
}

namespace {

/// Element gradients (and, withHessian, projected Hessians) of the n tets list[0..n) at x, or of
/// every tet when list is null (n = nt).
void elementPass(Device* d, const int* list, int n, bool withHessian) {
  const DeviceInputs& in = d->in;
  launch(blocks(n), elementKernel, n, list, in.kind, in.mu, in.lambda, d->tets, d->Bm, d->volume, d->x, d->gE,
         withHessian ? d->HE : nullptr);
}

/// Residuals of the n vertices list[0..n) at x, or of every vertex (list null, n = nv).
void residualPass(Device* d, const int* list, int n) {
  const DeviceInputs& in = d->in;
  launch(blocks(n), residualKernel, n, list, in.invH2, d->mass, d->prescribed, d->incOffset, d->incTet, d->incLocal,
         d->x, d->z, d->gE, d->G, d->handles, d->hv, d->ht, d->hk);
}

/// Steps 1–4 of a sweep at the device's x: element gradients and Hessians, residuals and, for
/// JGS2, the rotations and the modal coefficients.
void launchGradients(Device* d) {
  const DeviceInputs& in = d->in;
  elementPass(d, nullptr, in.nt, true);
  residualPass(d, nullptr, in.nv);
  if (in.method == 1) {
    launch(blocks(in.nv), rotationKernel, in.nv, d->tets, d->Bm, d->volume, d->incOffset, d->incTet, d->x, d->R);
    cudaMemsetAsync(d->modal, 0, (in.T > 0 ? in.T : 1) * sizeof(double));
    launch(blocks(in.nv), modalKernel, in.nv, in.T, d->prescribed, d->R, d->G, d->modes, d->modal);
  }
}

/// Step 5: the local solves into d->dx (x unchanged) of every vertex, or of the n vertices
/// list[0..n); modalOff: without the modal part.
void launchLocal(Device* d, bool modalOff, const int* list = nullptr, int n = 0) {
  const DeviceInputs& in = d->in;
  VertexArgs va{in.nv, in.method, in.T, list, n, modalOff ? 1 : 0, in.invH2, d->mass, d->share, nullptr, d->prescribed,
                d->tets, d->incOffset, d->incTet, d->incLocal, d->cubOffset, d->cubTet, d->cubWeight, d->cubBasis,
                d->modes, d->modeValues, d->modal, d->x, d->z, d->gE, d->HE, d->R, d->dx, d->handles, d->hv, d->ht,
                d->hk};
  launch(blocks(list ? n : in.nv), vertexKernel, va);
}

/// Steps 1–5 of a sweep: the sweep's step d at x into d->dx (x unchanged).
void launchSweep(Device* d) {
  launchGradients(d);
  launchLocal(d, false);
}

/// The model's sums for the step d and the previous step p (modelSums' order, below), with the
/// gradient g (d->G unless given).
bool readModelSums(Device* d, const double* step, double sums[6], const double* g = nullptr) {
  const DeviceInputs& in = d->in;
  cudaMemsetAsync(d->sums, 0, 9 * sizeof(double));
  launch(blocks(in.nv), modelVertexKernel, in.nv, in.invH2, d->mass, g ? g : d->G, step, d->prev, d->sums);
  launch(blocks(in.nt), modelElementKernel, in.nt, d->tets, d->HE, step, d->prev, d->sums + 6);
  if (d->handles > 0) launch(1, modelHandleKernel, d->handles, d->hv, d->hk, step, d->prev, d->sums);
  double h[9];
  if (cudaGetLastError() != cudaSuccess ||
      cudaMemcpy(h, d->sums, sizeof(h), cudaMemcpyDeviceToHost) != cudaSuccess)
    return false;
  sums[0] = h[0];         // gᵀd
  sums[1] = h[1] + h[6];  // dᵀHd
  sums[2] = h[2];         // gᵀp
  sums[3] = h[3] + h[7];  // dᵀHp
  sums[4] = h[4] + h[8];  // pᵀHp
  sums[5] = h[5];         // pᵀp
  return true;
}

bool readStepMax(const unsigned long long* src, double* out) {
  unsigned long long bits = 0;
  if (cudaMemcpy(&bits, src, sizeof(bits), cudaMemcpyDeviceToHost) != cudaSuccess) return false;
  static_assert(sizeof(double) == sizeof(bits));
  memcpy(out, &bits, sizeof(double));
  return true;
}

/// The modal coarse step at x (launchGradients done): d_c = −R Σ_t a_t φ_t, taken as α_c d_c with
/// α_c the model's minimiser along it clamped to [0, 1] (g and H at x^k) when lineSearch and the
/// curvature is positive, else whole (sweep.h's coarse stage); then the gradients and residuals at
/// the moved x, the element Hessians of x^k kept. false on a CUDA error.
bool takeCoarse(Device* d, bool lineSearch) {
  const DeviceInputs& in = d->in;
  launch(blocks(in.nv), coarseKernel, in.nv, in.T, d->prescribed, d->R, d->modes, d->modeValues, d->modal, d->dc);
  double alpha = 1;
  if (lineSearch) {
    double s[6];
    if (!readModelSums(d, d->dc, s)) return false;
    if (s[1] > 0) alpha = std::clamp(-s[0] / s[1], 0.0, 1.0);
  }
  launch(blocks(in.nv), takeCoarseKernel, in.nv, alpha, d->x, d->dc);
  elementPass(d, nullptr, in.nt, false);
  residualPass(d, nullptr, in.nv);
  return cudaGetLastError() == cudaSuccess;
}

/// A Gauss–Seidel sweep (sweep.h): the gradients at x^k, JGS2's modal coarse step on every vertex,
/// then colour by colour the colour's local solves, their moves, its tets' gradients and Hessians
/// and the residuals they change. Leaves x = x_s + d, d in d->dx and max ‖d_i‖ in *stepMax.
bool gaussSeidelSweep(Device* d, bool stepControl, unsigned long long* stepMax) {
  const DeviceInputs& in = d->in;
  const size_t bytes = 3 * size_t(in.nv) * sizeof(double);
  launchGradients(d);
  if (cudaMemcpy(d->xs, d->x, bytes, cudaMemcpyDeviceToDevice) != cudaSuccess ||
      cudaMemcpy(d->G0, d->G, bytes, cudaMemcpyDeviceToDevice) != cudaSuccess)
    return false;
  const bool coarse = in.method == 1 && in.T > 0;
  if (coarse && !takeCoarse(d, stepControl)) return false;
  for (int c = 0; c < in.colours; ++c) {
    const int v0 = d->colourVertexOffset[c], nv = d->colourVertexOffset[c + 1] - v0;
    const int t0 = d->colourTetOffset[c], nt = d->colourTetOffset[c + 1] - t0;
    const int w0 = d->colourTouchedOffset[c], nw = d->colourTouchedOffset[c + 1] - w0;
    if (nv == 0) continue;
    launchLocal(d, coarse, d->colourVertex + v0, nv);
    launch(blocks(nv), applyListKernel, nv, d->colourVertex + v0, d->x, d->dx);
    elementPass(d, d->colourTet + t0, nt, true);
    residualPass(d, d->colourTouched + w0, nw);
  }
  cudaMemsetAsync(stepMax, 0, sizeof(unsigned long long));
  launch(blocks(in.nv), differenceKernel, in.nv, d->x, d->xs, d->dx, stepMax);
  return cudaGetLastError() == cudaSuccess;
}

}  // namespace

bool setHandles(void* handle, int count, const int* vertices, const double* targets, const double* stiffness) {
  auto* d = static_cast<Device*>(handle);
  if (count > d->handleCapacity) {
    freeHandles(d);
    if (cudaMalloc(reinterpret_cast<void**>(&d->hv), count * sizeof(int)) != cudaSuccess ||
        cudaMalloc(reinterpret_cast<void**>(&d->ht), 3 * count * sizeof(double)) != cudaSuccess ||
        cudaMalloc(reinterpret_cast<void**>(&d->hk), count * sizeof(double)) != cudaSuccess) {
      d->handles = 0;
      return false;
    }
    d->handleCapacity = count;
  }
  d->handles = count;
  if (count == 0) return true;
  return cudaMemcpy(d->hv, vertices, count * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(d->ht, targets, 3 * count * sizeof(double), cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMemcpy(d->hk, stiffness, count * sizeof(double), cudaMemcpyHostToDevice) == cudaSuccess;
}

bool coarseStep(void* handle) {
  auto* d = static_cast<Device*>(handle);
  const DeviceInputs& in = d->in;
  d->coarseTaken = false;
  if (in.method != 1 || in.T == 0 || in.gaussSeidel) return true;  // no modal part, or the sweep's own
  launchGradients(d);
  if (!takeCoarse(d, true)) return false;
  d->coarseTaken = true;
  return true;
}

bool sweepStep(void* handle, bool stepControl, double* proposalMax) {
  auto* d = static_cast<Device*>(handle);
  if (d->in.gaussSeidel)
    return gaussSeidelSweep(d, stepControl, d->proposalMax) &&
           (!proposalMax || readStepMax(d->proposalMax, proposalMax));
  if (d->coarseTaken)
    launchLocal(d, true);  // the rotations, residuals and Hessians coarseStep left
  else
    launchSweep(d);
  if (proposalMax) {
    cudaMemsetAsync(d->proposalMax, 0, sizeof(unsigned long long));
    launch(blocks(d->in.nv), stepNormKernel, d->in.nv, d->dx, d->proposalMax);
  }
  return cudaGetLastError() == cudaSuccess && (!proposalMax || readStepMax(d->proposalMax, proposalMax));
}

bool modelSums(void* handle, double sums[6]) {
  auto* d = static_cast<Device*>(handle);
  if (!d->in.gaussSeidel) return readModelSums(d, d->dx, sums);
  // Gauss–Seidel: g at x^k, and dᵀHd measured, max(0, (g(x^k + d) − g(x^k))ᵀd) — the element
  // Hessians were updated colour by colour and no longer describe x^k (sweep.h).
  if (!readModelSums(d, d->dx, sums, d->G0)) return false;
  cudaMemsetAsync(d->secant, 0, sizeof(double));
  launch(blocks(d->in.nv), secantKernel, d->in.nv, d->G, d->G0, d->dx, d->secant);
  double curvature = 0;
  if (cudaGetLastError() != cudaSuccess ||
      cudaMemcpy(&curvature, d->secant, sizeof(double), cudaMemcpyDeviceToHost) != cudaSuccess)
    return false;
  sums[1] = std::max(0.0, curvature);
  return true;
}

bool applyStep(void* handle, double alpha, double beta, double* stepMax) {
  auto* d = static_cast<Device*>(handle);
  cudaMemsetAsync(d->stepMax, 0, sizeof(unsigned long long));
  launch(blocks(d->in.nv), combineKernel, d->in.nv, alpha, beta, d->x, d->in.gaussSeidel ? d->xs : nullptr, d->dx,
         d->prev, d->coarseTaken ? d->dc : nullptr, d->stepMax);
  d->coarseTaken = false;
  return cudaGetLastError() == cudaSuccess && readStepMax(d->stepMax, stepMax);
}

bool getPositions(void* handle, double* x) {
  auto* d = static_cast<Device*>(handle);
  return cudaMemcpy(x, d->x, 3 * size_t(d->in.nv) * sizeof(double), cudaMemcpyDeviceToHost) == cudaSuccess;
}

double sweeps(void* handle, int count, double* xOut, double* dxOut, double* lastStepMax) {
  auto* d = static_cast<Device*>(handle);
  const DeviceInputs& in = d->in;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventRecord(e0);
  bool ok = true;
  for (int s = 0; s < count && ok; ++s) {
    if (in.gaussSeidel) {  // the sweep moves x itself
      ok = gaussSeidelSweep(d, false, d->stepMax);
      continue;
    }
    cudaMemsetAsync(d->stepMax, 0, sizeof(unsigned long long));
    launchSweep(d);
    launch(blocks(in.nv), applyKernel, in.nv, d->x, d->dx, d->stepMax);
  }
  cudaEventRecord(e1);
  cudaEventSynchronize(e1);
  float ms = 0;
  cudaEventElapsedTime(&ms, e0, e1);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  if (!ok || cudaGetLastError() != cudaSuccess) return -1;
  const size_t n = 3 * size_t(in.nv);
  if (xOut && cudaMemcpy(xOut, d->x, n * sizeof(double), cudaMemcpyDeviceToHost) != cudaSuccess) return -1;
  if (dxOut && cudaMemcpy(dxOut, d->dx, n * sizeof(double), cudaMemcpyDeviceToHost) != cudaSuccess) return -1;
  if (lastStepMax && !readStepMax(d->stepMax, lastStepMax)) return -1;
  return ms;
}

}  // namespace mechsim::gpu::detail
