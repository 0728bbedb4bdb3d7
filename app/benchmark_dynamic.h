#pragma once
// app/benchmark_dynamic.h — `mechsim FILE --benchmark-dynamic`: does the dynamic mode keep up with
// the clock (issue goal: real-time factor ≥ 1 on car-full.json and humanoid.json)?
namespace mechsim::ui {
class MainWindow;

/// Switches the window to dynamic mode (Simulation → Dynamic mode), presses Play at speed 1× and
/// lets the real event loop run for `seconds` of wall time; then prints the simulated time the
/// frames advanced, the wall time, the frames painted, the mean dynamics time per painted frame
/// and, as its last lines, `real_time_factor R` (simulated seconds per wall second; play at 1× can
/// show at most 1: the clock paces it, so R < 1 means the dynamics or the drawing fall behind) and
/// `fps N`. Returns 0, or 1 when the mechanism does not come up or the dynamics fail.
int benchmarkDynamic(MainWindow& window, double seconds);
}  // namespace mechsim::ui
