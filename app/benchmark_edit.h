#pragma once
// app/benchmark_edit.h — `mechsim FILE --benchmark-edit`: how long an edit takes from the request
// to the re-solved mechanism on the screen (issue goal: ≤ 50 ms on car-full.json).
namespace mechsim::ui {
class MainWindow;

/// Runs `rounds` inspector edits (the first moving body's mass and the first joint's point,
/// changed and changed back) and, when the file has parameters, as many parameter moves, each
/// waited for until the new mechanism's frame is painted; prints per kind the median and the
/// largest time and where it goes (the GUI thread's spec edit and compile, the worker's engine
/// compile and assembly, the frame's way to the paint), beside the baseline of File → Reload (what
/// a change cost before the editor: the file edited elsewhere and read again, 5 times), then the
/// ratio and `edit_ms_median M` and `edit_ms_max M` over all edits. Returns 0, or 1 when an edit is refused or the window never draws.
int benchmarkEdit(MainWindow& window, int rounds);
}  // namespace mechsim::ui
