#pragma once
// gpu/deform_gpu.h — CUDA twin of the per-vertex deformable solvers of core/deform: Jacobi sweeps
// of per-vertex Newton (the VBD-style baseline in its Jacobi form) and of JGS2 (cubature local
// matrix, modal split right-hand side). The element, rotation and vertex formulas are the same
// __host__ __device__ functions the CPU runs (core/deform/hd/*.h); this header is plain C++ (Eigen),
// the kernels are in deform_kernels.cu. Chosen only when gpu::deviceCount() > 0.
#include <vector>

#include "core/deform/solver.h"

namespace mechsim::gpu {

/// One Jacobi sweep on the device from x for inertia target z: returns δx (3 nv), the update
/// the CPU sweep of the same method computes (Method::Jacobi or Method::Jgs2Jacobi with the
/// Cubature variant and the modal right-hand side). Throws std::runtime_error without a device.
VecX sweepOnce(const deform::DeformableModel& m, const deform::Jgs2Data* jgs2, deform::Method method, const VecX& z,
               const VecX& x);

struct GpuBenchResult {
  int iterations = 0;
  double secondsPerIteration = 0;  // device time per sweep (events), data already resident
  double lastStep = 0;             // normalised ‖Δx‖ of the last sweep
};

/// Runs `iterations` Jacobi sweeps of one implicit-Euler step from (x, v) on the device and times
/// them (after one warm-up sweep).
GpuBenchResult benchSweeps(const deform::DeformableModel& m, const deform::Jgs2Data* jgs2, deform::Method method,
                           const VecX& x, const VecX& v, const std::vector<Pose>& bodyPoses, int iterations);

}  // namespace mechsim::gpu
