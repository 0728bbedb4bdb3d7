#pragma once
// core/io/runs.h — the command line's time runs as functions: `mechsim-cli kinematics`,
// `simulate` and `deform` compute their tables here and write them, and so does the Python
// package (python/, docs/python.md), so that a script gets the command's numbers and CSV byte for
// byte. Each run makes its own sim::Data of the given sim::Model, so runs of one Model may go on
// several threads at once.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/deform/solver.h"
#include "core/io/trajectory.h"
#include "core/model.h"
#include "core/sim/model.h"
#include "core/sim/options.h"

namespace mechsim::io {

/// A run's table — one row per output time (deform: per time and part) — and how it ended.
struct RunResult {
  std::string command;                      // "kinematics", "simulate" or "deform"
  std::vector<std::string> columns;         // the CSV's columns, in order
  std::vector<std::vector<double>> values;  // (columns) each column's values, one per row; the text column's is empty
  int textColumn = -1;                      // deform: the "part" column (1); else −1
  std::vector<std::string> text;            // its values, one per row
  std::string failure;                      // why the run stopped before its end; "" when it ran to the end
  bool interrupted = false;                 // RunControl::stop asked it to stop (failure says so too)
  std::vector<std::string> warnings;        // what the command prints on stderr before the run (deform)
  std::string summary;                      // the command's summary line, without a newline

  long rows() const { return values.empty() ? 0 : static_cast<long>(values[0].size()); }
  /// Index of a column, or −1.
  int column(const std::string& name) const;
  /// The command's CSV text, byte for byte (FORMAT.md §3; deform: its per-part table).
  std::string csv() const;
  /// The command's .json output (kinematics, simulate: io::trajectoryJson); deform throws
  /// std::invalid_argument.
  std::string json() const;

  // What csv() and json() write from (kinematics, simulate).
  std::shared_ptr<const Model> model;
  std::vector<TrajectoryFrame> frames;
  std::vector<std::string> extraColumns;
};

/// Asked between a run's rows: true stops it (Ctrl-C in Python, a cancelled study run); the rows
/// until then are kept and RunResult::interrupted says so.
using RunStop = std::function<bool()>;

/// The engine options each command compiles its model with (io::compileEngine / loadEngine):
/// kinematics — no slider range search, no deformable parts; simulate — neither the DOF analysis
/// (dynamics runs on the file model); deform — parts stepped once per dt with `settings`.
sim::Options kinematicsOptions();
sim::Options simulateOptions();

/// Settings of a deform run; empty / 0: each part's own (the file's).
struct DeformSettings {
  std::optional<deform::Method> method;        // --method
  std::optional<deform::Acceleration> control; // --step-control
  int modes = 0;                               // --modes (64 … 1024)
  sim::Backend backend = sim::Backend::Auto;   // --backend
  std::string vtkDir;                          // --vtk: also write the parts' motion there (core/io/vtk.h)
  long vtkEvery = 1;                           // --vtk-every
};
/// Options for a deform run at steps of dt: kinematicsOptions() with the parts on. The caller adds
/// the services it has (a JGS2 cache: cachedJgs2; a device: gpu::engineDevice()).
sim::Options deformOptions(double dt, const DeformSettings& settings);

/// The number of steps ⌊T/dt⌋ of `command`'s run ("kinematics", "simulate", "deform"), or
/// std::invalid_argument with the message the command prints: T < 0, dt ≤ 0, or more steps than
/// it takes (10⁷, 10⁸, 10⁶). The runs check it first; the command line checks it before loading.
long runSteps(const std::string& command, double tEnd, double dt);

/// The position, velocity and acceleration analyses at t_k = k dt, k = 0 … ⌊T/dt⌋, from the
/// assembled start (`mechsim-cli kinematics`): columns io::trajectoryColumns(rates). A failed
/// analysis ends the table there (RunResult::failure). Throws std::invalid_argument for T < 0,
/// dt ≤ 0 or more than 10⁷ rows.
RunResult runKinematics(const sim::Model& m, double tEnd, double dt, const RunStop& stop = {});

/// Forward dynamics from the file's state (sim::startFromFile), one sim::stepDynamics of dt per row
/// (no dt: the file's solver.timestep), `mechsim-cli simulate`: the trajectory columns with rates,
/// per joint its reaction <joint>.Fx … Tz, then energy.kinetic, energy.potential, energy.total.
/// Throws std::invalid_argument for T < 0 or more than 10⁸ steps.
RunResult runSimulate(const sim::Model& m, double tEnd, std::optional<double> dt, const RunStop& stop = {});

/// The kinematic run with every deformable part stepped once per dt (`mechsim-cli deform`):
/// t, part, iterations, converged, centroid_x … z, max_speed, attach_error. m must have been
/// compiled with deformOptions(dt, settings) (else std::invalid_argument, as for T < 0, dt ≤ 0,
/// more than 10⁶ steps, or no parts); std::runtime_error when --backend cuda cannot upload a part
/// or a --vtk folder cannot be made.
RunResult runDeform(const sim::Model& m, double tEnd, double dt, const DeformSettings& settings = {},
                    const RunStop& stop = {});

}  // namespace mechsim::io
