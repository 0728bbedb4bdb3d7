// ui/trajectory_export.cpp — the export dialog's kinematic run (the engine's, core/sim/kinematic_run.h)
// and its trajectory files.
#include "ui/trajectory_export.h"

#include <cmath>

#include "core/sim/kinematic_run.h"

namespace mechsim::ui {

long KinematicRunRange::rows() const {
  if (!std::isfinite(t0) || !std::isfinite(t1) || !std::isfinite(dt) || dt <= 0 || t1 < t0) return -1;
  const double steps = std::floor((t1 - t0) / dt + 1e-9);
  if (steps >= 1e6) return -1;
  return static_cast<long>(steps) + 1;
}

std::vector<io::TrajectoryFrame> kinematicRun(const sim::Model& m, const VecX& qStart, const KinematicRunRange& range,
                                              const std::atomic<bool>* cancel,
                                              const std::function<void(double)>& progress, std::string* error) {
  std::vector<io::TrajectoryFrame> frames;
  const long n = range.rows();
  if (n < 0) {
    if (error) *error = "invalid time range (need t1 ≥ t0 and dt > 0)";
    return frames;
  }
  frames.reserve(static_cast<size_t>(n));
  sim::kinematicRun(
      m, qStart, range.t0, range.dt, n,
      [&](const Data& d) { frames.push_back({d.t, d.q, d.qd, d.qdd, d.coords, d.coordVel, d.coordAcc, {}}); }, cancel,
      progress, error);
  return frames;
}

bool isJsonPath(const std::string& path) {
  if (path.size() < 5) return false;
  std::string ext = path.substr(path.size() - 5);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".json";
}

void writeTrajectory(const std::string& path, const Model& m, const std::vector<io::TrajectoryFrame>& frames) {
  if (isJsonPath(path)) io::writeTrajectoryJsonFile(path, m, frames, true);
  else io::writeTrajectoryCsvFile(path, m, frames, true);
}

}  // namespace mechsim::ui
