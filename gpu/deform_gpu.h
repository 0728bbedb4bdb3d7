#pragma once
// gpu/deform_gpu.h — CUDA twin of the per-vertex deformable solvers of core/deform: Jacobi and
// graph-coloured Gauss–Seidel sweeps of per-vertex Newton (jacobi; vbd, the VBD-style baseline) and
// of JGS2 (cubature local matrix, modal split right-hand side; jgs2-jacobi, jgs2-gs). The element,
// rotation and vertex formulas are the same __host__ __device__ functions the CPU runs
// (core/deform/hd/*.h); this header is plain C++ (Eigen), the kernels are in deform_kernels.cu.
// Chosen only when gpu::deviceCount() > 0: by the `deform` command and the GUI for the parts whose
// options the device runs (unsupportedReason), and by the benchmark.
#include <string>
#include <vector>

#include "core/deform/solver.h"

namespace mechsim::gpu {

/// One sweep on the device from x for inertia target z: returns δx (3 nv), the update the CPU
/// sweep of the same method computes (any method but Newton; JGS2 with the Cubature variant and
/// the modal right-hand side). Throws std::runtime_error without a device.
VecX sweepOnce(const deform::DeformableModel& m, const deform::Jgs2Data* jgs2, deform::Method method, const VecX& z,
               const VecX& x);

/// Why the device cannot run `opt` on m (empty when it can, device presence aside): it runs the
/// per-vertex sweeps, Jacobi and Gauss–Seidel — per-vertex Newton (jacobi, vbd) and JGS2 with the
/// cubature variant and the modal right-hand side on the rest coarse part (jgs2-jacobi with vertex
/// subspaces, jgs2-gs with vertex or colour subspaces) — with any step control, jgs2-jacobi's
/// with its coarse part first or not (SolveOptions::coarseFirst); not Newton, the exact variants,
/// the Galerkin coarse part, a scaled or Schur-signed local system, the two-level baseline or a
/// monitor. Soft handles (a dragged vertex) run on the device too.
std::string unsupportedReason(const deform::DeformableModel& m, const deform::Jgs2Data* jgs2,
                              const deform::SolveOptions& opt);

/// A deformable part resident on the device: uploaded once, then minimise() runs whole solves
/// there — the sweeps of core/deform (sweep.h) with the same step control (step_control.h: the
/// model's sums are device reductions, the 2×2 decision is the same host function) and the same
/// stopping rules (recordIteration on the max vertex step / extent). Only x and z cross the bus,
/// plus a few scalars per iteration.
class DeviceSolver {
 public:
  /// Uploads m (and JGS2's data for the JGS2 methods). Throws std::runtime_error without a
  /// device, std::invalid_argument for a method the device does not run.
  DeviceSolver(const deform::DeformableModel& m, const deform::Jgs2Data* jgs2, deform::Method method);
  ~DeviceSolver();
  DeviceSolver(const DeviceSolver&) = delete;
  DeviceSolver& operator=(const DeviceSolver&) = delete;

  /// minimise() of solver.h on the device, for the model given to the constructor; opt must pass
  /// unsupportedReason. Throws std::runtime_error on a CUDA error.
  deform::SolveStats minimise(const deform::DeformableModel& m, const deform::SolveOptions& opt, const VecX& z,
                              VecX& x);

 private:
  void* handle_ = nullptr;
  deform::Method method_;
  int vertices_ = 0;
};

struct GpuBenchResult {
  int iterations = 0;
  double secondsPerIteration = 0;  // device time per sweep (events), data already resident
  double lastStep = 0;             // normalised ‖Δx‖ of the last sweep
};

/// Runs `iterations` sweeps (no step control) of one implicit-Euler step from (x, v) on the device and times
/// them (after one warm-up sweep).
GpuBenchResult benchSweeps(const deform::DeformableModel& m, const deform::Jgs2Data* jgs2, deform::Method method,
                           const VecX& x, const VecX& v, const std::vector<Pose>& bodyPoses, int iterations);

}  // namespace mechsim::gpu
