#pragma once
// ui/trajectory_export.h — the work behind File → Export trajectory… (no Qt, no GL, so it runs
// on a worker thread and in tests): the engine's kinematic run over a chosen time range
// (sim::kinematicRun: the file's drivers, as `mechsim-cli kinematics` runs them) as trajectory rows,
// and the atomic write as CSV (FORMAT.md §3) or JSON (chosen by the file name's extension).
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "core/io/trajectory.h"
#include "core/model.h"
#include "core/sim/model.h"

namespace mechsim::ui {

struct KinematicRunRange {
  double t0 = 0, t1 = 1, dt = 0.01;  // [s]: rows at t0 + k dt, k = 0 … ⌊(t1 − t0)/dt⌋
  /// Output times, or −1 when the range is invalid (t1 < t0, dt ≤ 0, not finite, 1e6 rows or more:
  /// the rows are held in memory before the atomic write).
  long rows() const;
};

/// sim::kinematicRun of m at every time of `range` from qStart, as trajectory rows. `progress` gets
/// the fraction done; `cancel` stops it between rows. Returns the rows computed; `error` says why it
/// stopped early (empty when it ran to the end or was cancelled).
std::vector<io::TrajectoryFrame> kinematicRun(const sim::Model& m, const VecX& qStart, const KinematicRunRange& range,
                                              const std::atomic<bool>* cancel,
                                              const std::function<void(double)>& progress, std::string* error);

/// True when `path` ends in .json (JSON export), false for CSV.
bool isJsonPath(const std::string& path);

/// Writes the rows atomically, JSON or CSV by extension, rates included. Throws std::exception
/// (the message names the problem).
void writeTrajectory(const std::string& path, const Model& m, const std::vector<io::TrajectoryFrame>& frames);

}  // namespace mechsim::ui
