// gpu/device_info.cu — device discovery. No device is not an error: the CPU twin runs instead.
#include "gpu/device_info.h"
#include <cuda_runtime.h>

namespace mechsim::gpu {

int deviceCount() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error left by a missing driver
    return 0;
  }
  return n;
}

std::string deviceDescription() {
  int n = 0;
  cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    cudaGetLastError();
    return std::string("no CUDA device: ") + cudaGetErrorString(err);
  }
  if (n == 0) return "no CUDA device";
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  return std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ")";
}

}  // namespace mechsim::gpu
