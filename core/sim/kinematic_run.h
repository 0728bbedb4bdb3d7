#pragma once
// core/sim/kinematic_run.h — a kinematic run over a range of time from a given configuration: what
// the GUI's File → Export trajectory… computes (ui/trajectory_export.h writes it), and what
// `mechsim-cli kinematics` computes from the file's start.
#include <atomic>
#include <functional>
#include <string>

#include "core/data.h"
#include "core/sim/model.h"

namespace mechsim::sim {

/// The position, velocity and acceleration analyses of m at t0 + k·dt, k = 0 … rows − 1, from the
/// configuration qStart (nq; empty: the assembled start): the file's drivers follow their
/// expressions, the coordinates the mechanism's sliders added hold their values at qStart, and each
/// analysis starts from the previous solution (the assembly branch the user sees). `row` gets each
/// solved state (the bound working model's rigid Data); `progress` the fraction done; `cancel`
/// stops the run between rows. Returns false with `error` when an analysis fails or a state is
/// not finite (the rows before it were handed out); true when it ran to the end or was cancelled.
bool kinematicRun(const Model& m, const VecX& qStart, double t0, double dt, long rows,
                  const std::function<void(const mechsim::Data&)>& row, const std::atomic<bool>* cancel,
                  const std::function<void(double)>& progress, std::string* error);

}  // namespace mechsim::sim
