#pragma once
// bench/bench.h — the benchmark programs behind `mechsim-cli bench NAME [--csv]` (FORMAT.md §2).
#include <iosfwd>
#include <string>

namespace mechsim::bench {

/// `bench kinematics`: on the paper-003 Table 4.1 mechanisms (Stewart platform, full car, humanoid,
/// deployable antenna, antenna + satellite) the time per Newton-step linear solve and the Newton
/// iterations and time per full position analysis, for lu-nullspace, normal-equations, sparse-qr
/// and dense-cod, side by side in one run. Returns the exit status.
int runKinematics(std::ostream& out, bool csv, const std::string& sourceDir);

}  // namespace mechsim::bench
