#pragma once
// gpu/emulation/cuda_emulation.h — for the emulated test and benchmark programs only
// (mechsim_gpu_emulated, gpu/CMakeLists.txt): what deform_kernels.cu uses of the CUDA runtime, on
// the CPU, when a C++ compiler builds it instead of nvcc (deform_kernels_emulated.cpp here). It
// lets a machine without a GPU run the device code's logic — the kernels' formulas and indexing,
// their sequence, the host decisions between them — against the CPU twin. It does not check races,
// timing, or what nvcc makes of the source: the parity test on a real device (test_deform_gpu) does.
//
// A launch of `grid` blocks of `block` threads runs the kernel once per thread index, one at a time,
// as grid·block blocks of ONE thread (blockDim.x = 1): a block reduction through shared memory then
// reduces the one thread's value and adds it with the emulated atomics — the same sum as on the
// device, in another order. Device memory is host memory; copies are memcpy; events read a clock.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

struct dim3 {
  unsigned x = 0, y = 0, z = 0;
};
// The launch's indices, set by mechsim::gpu::emulation::run before each call of the kernel.
inline dim3 threadIdx, blockIdx, blockDim;

#define __global__
#define __device__
#define __host__
#define __shared__ static

inline void __syncthreads() {}

inline double atomicAdd(double* address, double value) {
  const double old = *address;
  *address = old + value;
  return old;
}
inline unsigned long long atomicMax(unsigned long long* address, unsigned long long value) {
  const unsigned long long old = *address;
  if (value > old) *address = value;
  return old;
}
inline long long __double_as_longlong(double v) {
  long long bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

enum cudaError_t { cudaSuccess = 0, cudaErrorMemoryAllocation = 2 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };

inline cudaError_t cudaMalloc(void** p, std::size_t bytes) {
  *p = std::malloc(bytes > 0 ? bytes : 1);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
inline cudaError_t cudaFree(void* p) {
  std::free(p);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind) {
  std::memcpy(dst, src, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaMemset(void* p, int value, std::size_t bytes) {
  std::memset(p, value, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void* p, int value, std::size_t bytes) {
  std::memset(p, value, bytes);
  return cudaSuccess;
}
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline const char* cudaGetErrorString(cudaError_t e) { return e == cudaSuccess ? "no error" : "out of memory"; }

using cudaEvent_t = std::chrono::steady_clock::time_point*;
inline cudaError_t cudaEventCreate(cudaEvent_t* e) {
  *e = new std::chrono::steady_clock::time_point();
  return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t e) {
  *e = std::chrono::steady_clock::now();
  return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = std::chrono::duration<float, std::milli>(*b - *a).count();
  return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete e;
  return cudaSuccess;
}

namespace mechsim::gpu::emulation {

/// Runs kernel(args...) for every thread index of `threads` (blocks of one thread).
template <class... P, class... A>
void run(long long threads, void (*kernel)(P...), A... args) {
  blockDim.x = 1;
  threadIdx.x = 0;
  for (long long k = 0; k < threads; ++k) {
    blockIdx.x = static_cast<unsigned>(k);
    kernel(args...);
  }
}

}  // namespace mechsim::gpu::emulation
