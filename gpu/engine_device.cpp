// gpu/engine_device.cpp — gpu::DeviceSolver behind the engine's DeviceBackend interface.
#include "gpu/engine_device.h"

#include "gpu/deform_gpu.h"
#include "gpu/device_info.h"

namespace mechsim::gpu {
namespace {

class Resident : public sim::DeviceSolver {
 public:
  Resident(const deform::DeformableModel& m, const deform::Jgs2Data* jgs2, deform::Method method)
      : solver_(m, jgs2, method) {}
  deform::SolveStats minimise(const deform::DeformableModel& m, const deform::SolveOptions& opt, const VecX& z,
                              VecX& x) override {
    return solver_.minimise(m, opt, z, x);
  }

 private:
  gpu::DeviceSolver solver_;
};

class Backend : public sim::DeviceBackend {
 public:
  bool present() const override { return deviceCount() > 0; }
  std::string description() const override { return deviceDescription(); }
  std::string unsupportedReason(const deform::DeformableModel& m, const deform::Jgs2Data* jgs2,
                                const deform::SolveOptions& opt) const override {
    return gpu::unsupportedReason(m, jgs2, opt);
  }
  std::unique_ptr<sim::DeviceSolver> upload(const deform::DeformableModel& m, const deform::Jgs2Data* jgs2,
                                            deform::Method method) const override {
    return std::make_unique<Resident>(m, jgs2, method);
  }
};

}  // namespace

std::shared_ptr<sim::DeviceBackend> engineDevice() { return std::make_shared<Backend>(); }

}  // namespace mechsim::gpu
