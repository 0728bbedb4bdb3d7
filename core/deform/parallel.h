#pragma once
// core/deform/parallel.h — the CPU solvers' loops over tets and vertices on all cores (OpenMP).
//
// Every loop parallelised here writes one slot per item (a tet's gradient and Hessian, a vertex's
// step, residual or rotation), so its result does not depend on the thread count. Sums are made
// deterministic too: items are summed in fixed chunks of kSumChunk and the chunk sums added in
// order, so a solve gives the same bits on 1 thread as on 16 (test_deform_threads).
//
// Jacobi sweeps are parallel over all free vertices; Gauss–Seidel sweeps over the vertices of one
// colour (they share no tet). Loops below a size threshold stay serial: a parallel region costs a
// few microseconds, more than a small mesh's whole loop.
#include <algorithm>
#include <vector>

namespace mechsim::deform {

/// Threads the deformable solvers' loops use (1 when built without OpenMP).
int threadCount();
/// Sets that number; n ≤ 0 restores the default (OMP_NUM_THREADS, else every core).
void setThreadCount(int n);
/// Index of the calling thread within the loop running it, in [0, threadCount()); 0 outside a
/// parallel loop, and for the thread that started the loop.
int threadIndex();

namespace detail {

/// Size thresholds: parallel from this many items up, by the cost of one item.
constexpr int kParallelHeavy = 32;    // a vertex's local solve (JGS2: cubature elements' 12×12 products)
constexpr int kParallelTets = 128;    // a tet's energy, gradient and projected Hessian
constexpr int kParallelLight = 2048;  // a vertex's residual or rotation, a tet's quadratic form
constexpr int kSumChunk = 256;        // items per partial sum in parallelSum / parallelSumVector

/// f(k) for k in [0, n), on all threads when n ≥ minParallel. f must only write slots of its own k.
template <class F>
void parallelFor(int n, int minParallel, F&& f) {
#pragma omp parallel for schedule(static) if (n >= minParallel)
  for (int k = 0; k < n; ++k) f(k);
}

/// parallelFor for items of uneven cost (JGS2's cubature training: the greedy rounds stop early
/// for some vertices): the threads take the next item as they finish one.
template <class F>
void parallelForUneven(int n, int minParallel, F&& f) {
#pragma omp parallel for schedule(dynamic, 1) if (n >= minParallel)
  for (int k = 0; k < n; ++k) f(k);
}

/// Σ_k f(k) over [0, n) in fixed chunks summed in order: the same result for every thread count.
template <class F>
double parallelSum(int n, int minParallel, F&& f) {
  const int chunks = (n + kSumChunk - 1) / kSumChunk;
  std::vector<double> part(static_cast<std::size_t>(chunks), 0.0);
  parallelFor(chunks, std::max(2, minParallel / kSumChunk), [&](int c) {
    double s = 0;
    for (int k = c * kSumChunk, e = std::min(n, k + kSumChunk); k < e; ++k) s += f(k);
    part[static_cast<std::size_t>(c)] = s;
  });
  double s = 0;
  for (double p : part) s += p;
  return s;
}

/// out[0..len) = Σ_k of f(k, acc) accumulating into a len-vector, in fixed chunks summed in order
/// (the modal coefficients of JGS2: T sums over the vertices).
template <class F>
void parallelSumVector(int n, int len, int minParallel, std::vector<double>& out, F&& f) {
  const int chunks = (n + kSumChunk - 1) / kSumChunk;
  std::vector<double> part(static_cast<std::size_t>(chunks) * len, 0.0);
  parallelFor(chunks, std::max(2, minParallel / kSumChunk), [&](int c) {
    double* acc = part.data() + static_cast<std::size_t>(c) * len;
    for (int k = c * kSumChunk, e = std::min(n, k + kSumChunk); k < e; ++k) f(k, acc);
  });
  out.assign(static_cast<std::size_t>(len), 0.0);
  for (int c = 0; c < chunks; ++c)
    for (int t = 0; t < len; ++t) out[t] += part[static_cast<std::size_t>(c) * len + t];
}

}  // namespace detail
}  // namespace mechsim::deform
