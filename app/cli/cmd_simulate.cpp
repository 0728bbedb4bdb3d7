// app/cli/cmd_simulate.cpp — `mechsim-cli simulate FILE --t-end T --dt H --out OUT.csv`.
//
// Forward dynamics (core/dynamics/dynamics.h) from the file's configuration and initial
// velocities, t = 0 to T with steps of H (the output times), run by the engine (core/sim:
// sim::startFromFile, then one sim::stepDynamics per output time). Writes the trajectory CSV of FORMAT.md
// §3 with the rate columns, then per joint its reaction force and torque on body2 (world axes,
// torque about the joint point, mean over the step) `<joint>.Fx,Fy,Fz,Tx,Ty,Tz`, then
// `energy.kinetic,energy.potential,energy.total`, atomically (.json output when OUT ends in .json:
// without the extra columns). Prints a summary: steps, CPU time, energy drift, maximum constraint
// residual, Riley iterations. If a step fails, the rows before it are written and the exit
// status is 2.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "core/dynamics/dynamics.h"
#include "core/io/trajectory.h"
#include "core/io/write.h"
#include "core/sim/stages.h"

namespace mechsim::cli {

int cmdSimulate(const Args& args) {
  RunArgs run;
  if (!parseRunArgs(args, "simulate", false, commandUsage("simulate"), run)) return 2;
  const std::string &tEndS = run.tEnd, &dtS = run.dt, &out = run.out;
  double tEnd = 0, dt = 0;
  if (!parseNumber(tEndS, "--t-end", tEnd)) return 2;
  if (!dtS.empty() && !parseNumber(dtS, "--dt", dt)) return 2;
  if (tEnd < 0 || (!dtS.empty() && dt <= 0)) {
    std::fprintf(stderr, "mechsim-cli: simulate: need --t-end ≥ 0 and --dt > 0\n");
    return 2;
  }

  sim::Options options;
  options.sliders = false;         // the dynamics runs on the file model: no DOF analysis
  options.rangeBudgetSeconds = 0;
  options.deformables = false;     // the rigid mechanism
  sim::Model m;
  if (!loadEngineOrReport(run.file, options, m)) return 1;
  const Model& model = *m.file;
  if (dtS.empty()) dt = model.dynamics.timestep;  // the file's solver.timestep (default 1e-3 s)
  const double steps = std::floor(tEnd / dt + 1e-9);
  if (steps > 1e8) {
    std::fprintf(stderr, "mechsim-cli: simulate: %.0f steps is too many (at most 1e8)\n", steps);
    return 2;
  }

  sim::Data sd = sim::makeData(m);
  const auto wall0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();
  std::string failure;
  if (!sim::startFromFile(m, sd)) failure = "initial state: " + sd.message;

  std::vector<std::string> extra;
  for (const Joint& j : model.joints)
    for (const char* s : {".Fx", ".Fy", ".Fz", ".Tx", ".Ty", ".Tz"}) extra.push_back(j.name + s);
  for (const char* s : {"energy.kinetic", "energy.potential", "energy.total"}) extra.push_back(s);
  // A row: the dynamics' own state (of the file model), its reactions and energy.
  auto frame = [&]() {
    const Data& d = sd.dynamics->data();
    io::TrajectoryFrame f{d.t, d.q, d.qd, d.qdd, d.coords, d.coordVel, d.coordAcc, {}};
    for (const JointReaction& r : sd.dynamics->reactions()) {
      for (int k = 0; k < 3; ++k) f.extra.push_back(r.force(k));
      for (int k = 0; k < 3; ++k) f.extra.push_back(r.torque(k));
    }
    const EnergyReport e = sd.dynamics->energy();
    f.extra.insert(f.extra.end(), {e.kinetic, e.potential, e.total()});
    return f;
  };

  std::vector<io::TrajectoryFrame> frames;
  double e0 = 0, maxDrift = 0;
  long totalRiley = 0;
  if (failure.empty()) {
    frames.reserve(static_cast<size_t>(std::min(steps, 1e6)) + 1);
    frames.push_back(frame());
    e0 = frames.back().extra.back();
    for (long k = 1; k <= static_cast<long>(steps); ++k) {
      if (!sim::stepDynamics(m, sd, dt)) {
        char buf[512];
        std::snprintf(buf, sizeof buf, "step failed at t = %.9g s: %s", sd.dynamics->data().t,
                      sd.dynamics->stats().message.c_str());
        failure = buf;
        break;
      }
      totalRiley += sd.dynamics->stats().rileyIterations;
      frames.push_back(frame());
      maxDrift = std::max(maxDrift, std::abs(frames.back().extra.back() - e0));
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  const double cpu = double(std::clock() - cpu0) / CLOCKS_PER_SEC;

  try {
    const bool json = out.size() >= 5 && out.compare(out.size() - 5, 5, ".json") == 0;
    io::writeFileAtomically(out, json ? io::trajectoryJson(model, frames, true) : io::trajectoryCsv(model, frames, true, extra));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mechsim-cli: simulate: cannot write '%s': %s\n", out.c_str(), e.what());
    return 2;
  }
  const double eEnd = frames.empty() ? 0.0 : frames.back().extra.back();
  const DynamicsStats stats = sd.dynamics ? sd.dynamics->stats() : DynamicsStats{};
  std::printf(
      "simulate: %zu steps of %.3g s, CPU %.3f s (wall %.3f s), energy %.9g -> %.9g J (drift %.3g J, max |E - E0| %.3g J), "
      "max constraint residual %.3g, %.1f Riley iterations per step (mu %.3g, s %.3g)\n",
      frames.empty() ? size_t(0) : frames.size() - 1, dt, cpu, wall, e0, eEnd, eEnd - e0, maxDrift,
      stats.maxResidual, frames.size() > 1 ? double(totalRiley) / double(frames.size() - 1) : 0.0, stats.mu,
      stats.s);
  if (!failure.empty()) {
    std::fprintf(stderr, "mechsim-cli: simulate: %s; wrote the %zu rows before it to %s\n", failure.c_str(), frames.size(),
                 out.c_str());
    return 2;
  }
  return 0;
}

}  // namespace mechsim::cli
