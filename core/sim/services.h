#pragma once
// core/sim/services.h — what the engine gets from the layers around core, behind interfaces, so
// that core parses no text, reads no files and calls no CUDA (DESIGN.md, STYLE.md §1, §7):
//   ExpressionFactory  fresh evaluators of a spec's driver expressions (core/io: muparser,
//                      io::engineOptions fills it in);
//   EffortFactory      fresh evaluators of its motors' effort expressions (the same);
//   Jgs2Source         JGS2's precomputation of a deformable part (core/io: the on-disk cache of
//                      core/io/jgs2_cache.h; computeJgs2() here computes it every time);
//   DeviceBackend      an accelerator that steps deformable parts (gpu/: the CUDA backend, or its
//                      CPU emulation in the emulated programs; gpu::engineDevice()).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/deform/deformable.h"
#include "core/deform/solver.h"
#include "core/spec.h"
#include "core/types.h"

namespace mechsim::sim {

/// Makes fresh evaluators of spec's driver expressions, one per driver in spec order (t [s] →
/// coordinate value, SI). An evaluator serves one thread at a time, so every Data binds its own.
using ExpressionFactory = std::function<std::vector<std::function<double(double)>>(const MechanismSpec&)>;

/// Makes fresh evaluators of spec's motor efforts, one per motor in spec order (t [s] → effort,
/// SI; an empty function for a servo). The dynamic run of every Data steps its own copy of the
/// file model with them (core/sim/dynamic_mode.cpp), so that Datas of one Model simulate on
/// several threads at once.
using EffortFactory = std::function<std::vector<std::function<double(double)>>(const MechanismSpec&)>;

/// What a JGS2 precomputation did, for the status line and the command's summary.
struct Jgs2Report {
  bool fromCache = false;   // read back instead of computed
  bool saved = false;       // computed and kept for the next run
  double seconds = 0;       // time of the computation (0 when read)
  std::string warning;      // a cache file not used or not written, and why; empty when all went well
};

/// Where JGS2's rest-shape precomputation of a part comes from (paper 001 §4: subspaces and
/// cubature, computed once per part and time step).
class Jgs2Source {
 public:
  virtual ~Jgs2Source() = default;
  /// The precomputation of part m with options o. Throws what deform::precomputeJgs2 throws
  /// (deform::Cancelled when o.cancelRequested asks).
  virtual deform::Jgs2Data precompute(const deform::DeformableModel& m, const deform::Jgs2Options& o,
                                      Jgs2Report& report) = 0;
};

/// A Jgs2Source that computes every time (deform::precomputeJgs2); the engine's default.
std::shared_ptr<Jgs2Source> computeJgs2();

/// One deformable part resident on an accelerator.
class DeviceSolver {
 public:
  virtual ~DeviceSolver() = default;
  /// deform::minimise for the part uploaded (m: that part, with the step's soft handles), from
  /// and into x. Throws std::runtime_error on a device error.
  virtual deform::SolveStats minimise(const deform::DeformableModel& m, const deform::SolveOptions& opt, const VecX& z,
                                      VecX& x) = 0;
};

/// An accelerator that can step deformable parts.
class DeviceBackend {
 public:
  virtual ~DeviceBackend() = default;
  /// A device is present.
  virtual bool present() const = 0;
  /// What the device is, or why there is none.
  virtual std::string description() const = 0;
  /// Why the device cannot run part m with these options (empty: it can).
  virtual std::string unsupportedReason(const deform::DeformableModel& m, const deform::Jgs2Data* jgs2,
                                        const deform::SolveOptions& opt) const = 0;
  /// Uploads part m (and JGS2's data for the JGS2 methods). Throws when the device cannot take it.
  virtual std::unique_ptr<DeviceSolver> upload(const deform::DeformableModel& m, const deform::Jgs2Data* jgs2,
                                               deform::Method method) const = 0;
};

}  // namespace mechsim::sim
