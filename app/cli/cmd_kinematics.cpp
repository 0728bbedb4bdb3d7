// app/cli/cmd_kinematics.cpp — `mechsim-cli kinematics FILE --t-end T --dt H --out OUT.csv`.
//
// Kinematic analysis driven by the file's drivers from t = 0 to T, run by the engine as the GUI runs
// it (core/sim: sim::advanceTo on the working model, whose DOFs the drivers leave free hold their
// assembled values): at each output time the position analysis (Newton with least-squares /
// minimum-norm steps, paper 003) starts from a second-order prediction q + q̇Δt + ½q̈Δt² of the
// previous solution (which keeps the assembly branch through singular positions), then velocities
// and accelerations follow from the same Jacobian. Writes the
// trajectory CSV of FORMAT.md §3 with velocity and acceleration columns after the positions
// (.json output when OUT ends in .json), atomically. If the position analysis fails at some time,
// the rows computed until then are written, the failure is reported and the exit status is 2.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "core/io/trajectory.h"
#include "core/io/write.h"
#include "core/sim/stages.h"

namespace mechsim::cli {

int cmdKinematics(const Args& args) {
  RunArgs run;
  if (!parseRunArgs(args, "kinematics", true, commandUsage("kinematics"), run)) return 2;
  const std::string &tEndS = run.tEnd, &dtS = run.dt, &out = run.out;
  double tEnd = 0, dt = 0;
  if (!parseNumber(tEndS, "--t-end", tEnd) || !parseNumber(dtS, "--dt", dt)) return 2;
  if (tEnd < 0 || dt <= 0) {
    std::fprintf(stderr, "mechsim-cli: kinematics: need --t-end ≥ 0 and --dt > 0\n");
    return 2;
  }
  const double steps = std::floor(tEnd / dt + 1e-9);
  if (steps > 1e7) {
    std::fprintf(stderr, "mechsim-cli: kinematics: %.0f output times is too many (at most 1e7)\n", steps);
    return 2;
  }

  sim::Options options;
  options.rangeBudgetSeconds = 0;  // no sliders here: their ranges are not searched
  options.deformables = false;     // the rigid mechanism (`deform` runs the parts)
  sim::Model m;
  if (!loadEngineOrReport(run.file, options, m)) return 1;
  const Model& model = *m.file;

  const auto wall0 = std::chrono::steady_clock::now();
  sim::Data d = sim::makeData(m);
  std::vector<io::TrajectoryFrame> frames;
  frames.reserve(static_cast<size_t>(steps) + 1);
  double maxResidual = 0;
  long totalIterations = 0;
  int singularCount = 0;
  double firstSingular = -1;
  std::string failure;

  for (long k = 0; k <= static_cast<long>(steps); ++k) {
    const double t = k * dt;
    // Position, velocity and acceleration analysis at t (t = 0: the assembly makeData solved),
    // starting from the previous solution.
    const bool ok = k == 0 ? d.rigid.stats.converged : sim::advanceTo(m, d, t);
    if (!ok) {
      char buf[512];
      std::snprintf(buf, sizeof buf, "position analysis failed at t = %.9g s: %s", t, d.rigid.stats.message.c_str());
      failure = buf;
      break;
    }
    const mechsim::Data& r = d.rigid;
    if (!r.q.allFinite() || !r.qd.allFinite() || !r.qdd.allFinite()) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "non-finite state at t = %.9g s (a driver expression may be undefined there)", t);
      failure = buf;
      break;
    }
    maxResidual = std::max(maxResidual, r.stats.residual);
    totalIterations += r.stats.iterations;
    if (r.stats.singular) {
      if (singularCount++ == 0) firstSingular = t;
    }
    frames.push_back({t, r.q, r.qd, r.qdd, r.coords, r.coordVel, r.coordAcc, {}});
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

  // Write what was computed, atomically.
  try {
    const bool json = out.size() >= 5 && out.compare(out.size() - 5, 5, ".json") == 0;
    io::writeFileAtomically(out, json ? io::trajectoryJson(model, frames, true) : io::trajectoryCsv(model, frames, true));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mechsim-cli: kinematics: cannot write '%s': %s\n", out.c_str(), e.what());
    return 2;
  }

  std::printf("kinematics: %zu steps, wall %.3f s, %.2f Newton iterations per step, max residual %.3g",
              frames.size(), wall, frames.empty() ? 0.0 : double(totalIterations) / frames.size(), maxResidual);
  if (singularCount) std::printf(", singular at %d steps (first at t = %.6g s)", singularCount, firstSingular);
  std::printf("\n");
  if (!failure.empty()) {
    std::fprintf(stderr, "mechsim-cli: kinematics: %s; wrote the %zu rows before it to %s\n", failure.c_str(),
                 frames.size(), out.c_str());
    return 2;
  }
  return 0;
}

}  // namespace mechsim::cli
