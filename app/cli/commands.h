#pragma once
// app/cli/commands.h — the subcommands of mechsim-cli (FORMAT.md §2). Each returns the exit code:
// 0 success, 1 file error (message FILE:LINE:COL: error: ... on stderr), 2 usage or solver failure.
#include <functional>
#include <string>
#include <vector>

#include "core/io/load.h"
#include "core/io/runs.h"
#include "core/model.h"
#include "core/sim/model.h"
#include "core/sim/options.h"

namespace mechsim::cli {

using Args = std::vector<std::string>;

int cmdCheck(const Args& args);
int cmdKinematics(const Args& args);
int cmdBench(const Args& args);
int cmdInfo(const Args& args);
int cmdSimulate(const Args& args);  // cmd_simulate.cpp: forward dynamics
int cmdDeform(const Args& args);    // cmd_deform.cpp: kinematic run with deformable parts
int cmdStudy(const Args& args);     // cmd_study.cpp: a parameter study on threads or a Dask cluster

/// The one-line usage of a command ("mechsim-cli check FILE [--json]"), or nullptr for an unknown
/// command. `COMMAND --help` prints it; the commands print it on a usage error.
const char* commandUsage(const std::string& command);
/// Small argument helpers shared by the subcommands.
bool hasFlag(const Args& args, const std::string& flag);
/// Value after `--name`, or empty when absent. Sets `missing` when the flag has no value.
std::string optionValue(const Args& args, const std::string& name, bool* missing = nullptr);
/// The positional arguments (those not starting with "--" and not an option's value).
std::vector<std::string> positionals(const Args& args, const std::vector<std::string>& optionsWithValue);
/// io::loadModel(path) into `model`; on a file error prints FILE:LINE:COL: error: ... to stderr
/// and returns false (the caller exits 1).
bool loadModelOrReport(const std::string& path, Model& model);
/// The engine's model of the file (io::loadEngine with `options`; a robot description read with
/// `import`): import warnings and errors on stderr; false on an error.
bool loadEngineOrReport(const std::string& path, const sim::Options& options, sim::Model& model,
                        const io::ImportOptions& import = {});
/// The options of the time-run commands (kinematics, simulate): FILE --t-end T --dt H --out OUT
/// [--floating-base].
struct RunArgs {
  std::string file, tEnd, dt, out;  // as given ("" when absent)
  io::ImportOptions import;         // --floating-base: a URDF's root link free
};
/// Parses them. Unknown options print `mechsim-cli: COMMAND: unknown option '...'`; a missing FILE,
/// --t-end, --out (or --dt when dtRequired) prints `usage`. Returns false then (the caller exits 2).
bool parseRunArgs(const Args& args, const char* command, bool dtRequired, const char* usage, RunArgs& out);
/// Writes a run's table to `out` (CSV, or JSON when out ends in .json) atomically, prints its
/// warnings (stderr) and summary line (stdout) and, when it stopped early, why and which rows were
/// written. Returns the exit status: 0, or 2 after a failure or a write error.
int writeRun(const char* command, const std::string& out, const io::RunResult& r);
/// The time-run commands: checks --t-end / --dt (io::runSteps: `dt` ≤ 0 with `dtGiven` false skips
/// it, for simulate without --dt), loads the engine model with `options`, runs `run` on it and
/// writeRun()s the result. Exit status 1 for a file error, 2 for a refused run.
int runAndWrite(const char* command, const RunArgs& args, double tEnd, double dt, bool dtGiven,
                const sim::Options& options, const std::function<io::RunResult(const sim::Model&)>& run);
/// Runs `python3 ARGS...` (Debian's, or $MECHSIM_PYTHON) in place of this program with the
/// Python package beside it on PYTHONPATH (the build tree's python/, an installed
/// lib/python3*/dist-packages). Returns only when it cannot (exit status 2, said why).
int execPythonPackage(const std::vector<std::string>& args);
/// Parses a finite number; prints `mechsim-cli: <what>: expected a number, got '<s>'` and returns false.
bool parseNumber(const std::string& s, const std::string& what, double& out);

}  // namespace mechsim::cli
