#pragma once
// gpu/engine_device.h — the CUDA backend as the engine's accelerator (core/sim/services.h): the
// programs put it in sim::Options::device when the backend is built (MECHSIM_HAVE_CUDA); in the
// emulated programs it is the CPU emulation of the same device code (gpu/emulation/).
#include <memory>

#include "core/sim/services.h"

namespace mechsim::gpu {

/// The backend over gpu::DeviceSolver; present() when a device is there (deviceCount() > 0).
std::shared_ptr<sim::DeviceBackend> engineDevice();

}  // namespace mechsim::gpu
