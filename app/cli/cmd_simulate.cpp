// app/cli/cmd_simulate.cpp — `mechsim-cli simulate FILE --t-end T [--dt H] --out OUT.csv`.
//
// Forward dynamics (core/dynamics/dynamics.h) from the file's configuration and initial
// velocities, t = 0 to T with steps of H (the output times; default the file's solver.timestep),
// run by the engine (io::runSimulate, core/io/runs.h: sim::startFromFile, then one
// sim::stepDynamics per output time). Writes the trajectory CSV of FORMAT.md §3 with the rate
// columns, then per joint its reaction force and torque on body2 (world axes, torque about the
// joint point, mean over the step) `<joint>.Fx,Fy,Fz,Tx,Ty,Tz`, then
// `energy.kinetic,energy.potential,energy.total`, atomically (.json output when OUT ends in .json:
// without the extra columns). Prints a summary: steps, CPU time, energy drift, maximum constraint
// residual, Riley iterations. If a step fails, the rows before it are written and the exit
// status is 2.
#include <optional>

#include "cli/commands.h"
#include "core/io/runs.h"

namespace mechsim::cli {

int cmdSimulate(const Args& args) {
  RunArgs run;
  if (!parseRunArgs(args, "simulate", false, commandUsage("simulate"), run)) return 2;
  double tEnd = 0, dt = 0;
  if (!parseNumber(run.tEnd, "--t-end", tEnd)) return 2;
  const bool dtGiven = !run.dt.empty();  // else the file's time step
  if (dtGiven && !parseNumber(run.dt, "--dt", dt)) return 2;
  return runAndWrite("simulate", run, tEnd, dt, dtGiven, io::simulateOptions(), [&](const sim::Model& m) {
    return io::runSimulate(m, tEnd, dtGiven ? std::optional<double>(dt) : std::nullopt);
  });
}

}  // namespace mechsim::cli
