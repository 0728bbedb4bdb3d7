// app/cli/cmd_kinematics.cpp — `mechsim-cli kinematics FILE --t-end T --dt H --out OUT.csv`.
//
// Kinematic analysis driven by the file's drivers from t = 0 to T, run by the engine as the GUI runs
// it (io::runKinematics, core/io/runs.h: sim::advanceTo on the working model, whose DOFs the drivers
// leave free hold their assembled values): at each output time the position analysis (Newton with
// least-squares / minimum-norm steps, paper 003) starts from a second-order prediction
// q + q̇Δt + ½q̈Δt² of the previous solution (which keeps the assembly branch through singular
// positions), then velocities and accelerations follow from the same Jacobian. Writes the
// trajectory CSV of FORMAT.md §3 with velocity and acceleration columns after the positions
// (.json output when OUT ends in .json), atomically. If the position analysis fails at some time,
// the rows computed until then are written, the failure is reported and the exit status is 2.
#include "cli/commands.h"

namespace mechsim::cli {

int cmdKinematics(const Args& args) {
  RunArgs run;
  if (!parseRunArgs(args, "kinematics", true, commandUsage("kinematics"), run)) return 2;
  double tEnd = 0, dt = 0;
  if (!parseNumber(run.tEnd, "--t-end", tEnd) || !parseNumber(run.dt, "--dt", dt)) return 2;
  return runAndWrite("kinematics", run, tEnd, dt, true, io::kinematicsOptions(),
                     [&](const sim::Model& m) { return io::runKinematics(m, tEnd, dt); });
}

}  // namespace mechsim::cli
