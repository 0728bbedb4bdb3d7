#pragma once
// gpu/device_info.h — asks the CUDA runtime whether a device is present.
// The deformable solvers choose the GPU backend only when this says yes.
#include <string>

namespace mechsim::gpu {

/// Number of CUDA devices visible to this process (0 when there is no driver or no device).
int deviceCount();

/// A one-line description of device 0, or the reason there is none.
std::string deviceDescription();

}  // namespace mechsim::gpu
