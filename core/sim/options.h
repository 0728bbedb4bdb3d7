#pragma once
// core/sim/options.h — the engine's options: one set of defaults for the GUI, the command line,
// the examples and scripts. sim::compile takes them; a client changes only what it must (the
// command line's --dt becomes deformStep, its --method deformMethod).
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/deform/solver.h"
#include "core/sim/services.h"

namespace mechsim::sim {

/// The solver that moves a handle (and, with Anm, the sliders too) in kinematic mode.
enum class DragMethod { Newton, Anm };

/// Where deformable parts are stepped: a device when present and it runs the part's solver
/// (Auto), never (Cpu), or insist (Cuda: compile throws when a part cannot run there).
enum class Backend { Auto, Cpu, Cuda };

struct Options {
  // ---- kinematics (the position analysis itself keeps core/kinematics' PositionOptions) ----
  /// A slider move is split into steps no larger than these, each solved from the last
  /// (continuation: Newton starts close to its solution and stays on the assembly branch):
  /// angles 5°, lengths 2 % of Model::lengthScale.
  double sliderStepAngle = 5.0 * 3.14159265358979323846 / 180.0;  // rad
  double sliderStepLength = 0.02;                                   // × lengthScale
  /// Bisections towards the last reachable value when a slider asks for a pose out of reach.
  int sliderBisections = 8;
  /// Complete the file's drivers with a slider per coordinate they leave free (the DOF analysis,
  /// core/sim/dofs.h), so that every DOF holds its value until moved; off: the working model has
  /// the file's drivers only (`mechsim-cli simulate`, whose dynamics runs on the file model, skips
  /// the analysis: it costs a mobility analysis per free coordinate).
  bool sliders = true;
  /// Time the reachable-range search may take per DOF when the model is compiled [s]; 0 skips the
  /// search (a DOF without file limits then gets ±180° or ±2 lengthScale around its value).
  double rangeBudgetSeconds = 0.25;
  /// Handle drags by Newton on the stacked system or by ANM continuation (paper 004); with Anm the
  /// slider moves follow the ANM path too (core/sim/anm_slider.h).
  DragMethod drag = DragMethod::Newton;

  // ---- deformable parts (paper 001 and its baselines, core/deform) ----
  /// Build the spec's deformable parts (off: the rigid mechanism alone, as `kinematics` and
  /// `simulate` run it).
  bool deformables = true;
  /// Time step of every part's implicit-Euler step [s] (baked into JGS2's precomputation). The GUI
  /// steps once per display tick; `mechsim-cli deform` once per --dt.
  double deformStep = 1.0 / 60.0;
  /// Iterations a step may take unless the file gives "maxIterations": Newton converges in a few;
  /// the per-vertex sweeps need tens to hundreds (docs/deform.md).
  int newtonMaxIterations = 30;
  int sweepMaxIterations = 300;
  /// Overrides of every part's file settings (the command line's --method, --step-control, --modes).
  std::optional<deform::Method> deformMethod;
  std::optional<deform::Acceleration> deformControl;
  int deformModes = 0;  // JGS2 coarse modes, 64 … 1024; 0: the file's
  Backend backend = Backend::Auto;

  // ---- services from the layers around core (core/sim/services.h) ----
  ExpressionFactory expressions;       // null: the file model's own driver functions (one thread)
  EffortFactory efforts;               // null: the file model's own motor efforts (one thread)
  std::shared_ptr<Jgs2Source> jgs2;    // null: computeJgs2() (no cache)
  std::shared_ptr<DeviceBackend> device;  // null: no accelerator

  // ---- long work ----
  /// Asked during the JGS2 precomputation and after every solver iteration of a deformable step:
  /// true abandons the work (the GUI's worker when its model is replaced or the window closes).
  std::function<bool()> cancel;
  /// Told where a JGS2 precomputation is ("JGS2 \"strap\": subspaces 40 %"), at most about five
  /// times a second and at every change of stage.
  std::function<void(const std::string&)> progress;
};

}  // namespace mechsim::sim
