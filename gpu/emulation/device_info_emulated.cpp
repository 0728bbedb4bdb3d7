// gpu/emulation/device_info_emulated.cpp — device discovery for the CPU emulation of the CUDA backend
// (gpu/emulation/cuda_emulation.h): one "device", the emulation itself.
#include "gpu/device_info.h"

namespace mechsim::gpu {

int deviceCount() { return 1; }

std::string deviceDescription() { return "CPU emulation of gpu/deform_kernels.cu (gpu/emulation/cuda_emulation.h)"; }

}  // namespace mechsim::gpu
