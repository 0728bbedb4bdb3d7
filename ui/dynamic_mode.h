#pragma once
// ui/dynamic_mode.h — the GUI's side of the dynamic mode (the mode itself is the engine's:
// sim::setDynamic, core/sim/dynamic_run.h): the action's state and the status bar's messages, the
// plot sources of energies, contact and reactions, and the export columns of dynamic frames.
#include <memory>
#include <string>
#include <vector>

#include "core/data.h"
#include "core/io/trajectory.h"
#include "core/model.h"

class QAction;
class QMainWindow;

namespace mechsim::ui {

class History;
struct Frame;
struct PlotQuantity;

/// Keeps the dynamic-mode action's check state in step with the frames (a new model, a refusal
/// turn it off) and shows the mode's messages (entered, not available, a failed step) in the
/// window's status bar, each once.
void showDynamicModeStatus(QMainWindow* window, QAction* dynamicAction, const Frame& frame);

/// Plot sources of the dynamic mode (energy: kinetic, potential, total; per joint its reaction
/// force x, y, z, |F| and torque |τ|). Kinematic frames have none (NaN, not drawn).
void appendDynamicPlotQuantities(const Model& m, std::vector<PlotQuantity>& out);

/// Extra CSV columns of a recorded history with dynamic frames: "dynamic" (1: the row's
/// reactions come from the dynamic mode; 0: a kinematic row, reactions written as 0),
/// "energy.kinetic", "energy.potential", "energy.total" (J; kinematic rows: the mechanical energy
/// of their q, q̇), then per joint "<joint>.Fx/Fy/Fz" (N) and "<joint>.Tx/Ty/Tz" (N·m). Fills the
/// `extra` values of `rows` (one per history frame, same order). No frame dynamic: no columns.
std::vector<std::string> addDynamicColumns(const Model& m, const History& history, std::vector<io::TrajectoryFrame>& rows);

/// writeTrajectory with extra columns (CSV only; .json paths get the plain table). Atomic; throws.
void writeTrajectoryWithColumns(const std::string& path, const Model& m, const std::vector<io::TrajectoryFrame>& rows,
                                const std::vector<std::string>& extraColumns);

}  // namespace mechsim::ui
