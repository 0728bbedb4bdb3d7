#pragma once
// core/io/trajectory.h — trajectory exports: CSV exactly as FORMAT.md §3, and JSON.
#include <string>
#include <vector>

#include "core/model.h"

namespace mechsim::io {

/// One output time of a trajectory. Sizes: q, qd, qdd (Model::nq); coords, coordVel,
/// coordAcc (Model::nCoords). Rates (qd, qdd, coordVel, coordAcc) may be empty when not exported.
struct TrajectoryFrame {
  double t = 0;   // s
  VecX q;         // (nq) body origins and quaternions
  VecX qd;        // (nq) their time derivatives
  VecX qdd;       // (nq) second derivatives
  VecX coords;    // (nCoords) joint coordinates, SI (rad, m)
  VecX coordVel;  // (nCoords)
  VecX coordAcc;  // (nCoords)
  std::vector<double> extra;  // values of the extra columns (trajectoryCsv with extraColumns), in order
};

/// The column names, in order: t; Model::coordNames; per moving body B: B.x B.y B.z B.qw B.qx
/// B.qy B.qz; then with `rates`: <coord>.vel for each coordinate, <coord>.acc for each
/// coordinate, per moving body B.vx B.vy B.vz, per moving body B.ax B.ay B.az.
std::vector<std::string> trajectoryColumns(const Model& m, bool rates);

/// The values of one row, in trajectoryColumns order. Throws std::invalid_argument when a
/// vector has the wrong size or a value is not finite.
std::vector<double> trajectoryRow(const Model& m, const TrajectoryFrame& f, bool rates);

/// CSV text (FORMAT.md §3): the header, then one row per frame; numbers with 17 significant
/// digits; SI units and radians. Throws std::invalid_argument on a non-finite value (never NaN).
std::string trajectoryCsv(const Model& m, const std::vector<TrajectoryFrame>& frames, bool rates);

/// CSV text with `extraColumns` appended after the columns above (reaction forces, energies, ...);
/// every frame's `extra` must have one value per extra column. Same rules as trajectoryCsv.
std::string trajectoryCsv(const Model& m, const std::vector<TrajectoryFrame>& frames, bool rates,
                          const std::vector<std::string>& extraColumns);

/// JSON text: {"format": "mechsim-trajectory", "version": 1, "model": NAME, "units": {...},
/// "columns": [names as in the CSV], "rows": [[values], ...]} — the CSV table with its header
/// as an array; same numbers, same ordering. Throws as trajectoryCsv.
std::string trajectoryJson(const Model& m, const std::vector<TrajectoryFrame>& frames, bool rates);

/// The two above written atomically (writeFileAtomically). Throw std::runtime_error /
/// std::invalid_argument.
void writeTrajectoryCsvFile(const std::string& path, const Model& m, const std::vector<TrajectoryFrame>& frames,
                            bool rates);
void writeTrajectoryJsonFile(const std::string& path, const Model& m, const std::vector<TrajectoryFrame>& frames,
                             bool rates);

}  // namespace mechsim::io
