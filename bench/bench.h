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

/// `bench dynamics`: the IFToMM benchmark problems A01-A05 (mechanisms/dynamics/) simulated with
/// the weighted minimum-norm impulses (Riley, mass weights), the unweighted ones and a one-shot
/// regularised solve, side by side: CPU time, CPU per simulated second, error against the reference
/// (or energy drift). bench_dynamics.cpp. Returns the exit status.
int runDynamics(std::ostream& out, bool csv, const std::string& sourceDir);

/// `bench anm`: handle drags of several lengths on the four-bar, the Stewart platform and the car
/// suspension by ANM continuation (paper 004), fixed-step Newton continuation and one Newton jump:
/// factorisations, solves, time, final residual, branch kept. bench_anm.cpp. Returns the exit status.
int runAnm(std::ostream& out, bool csv, const std::string& sourceDir);

/// `bench deform`: deformable-part solvers (paper 001, JGS2) on a cantilever and a twisted bar of
/// ≥ 10k tets at 1×, 20× and 1000× stiffness: newton, vbd, jacobi, jgs2-jacobi, jgs2-gs — iterations
/// per step, time per iteration, precomputation; plus a small-mesh ablation of the JGS2 variants.
/// `quick` uses 3k-tet meshes. bench_deform.cpp. Returns the exit status.
int runDeform(std::ostream& out, bool csv, bool quick);

/// `bench deform --gpu`: the CUDA backend against its CPU twin on the same machine — every case of
/// `bench deform` with the methods the device runs (jacobi, vbd, jgs2-jacobi, jgs2-gs; subspace step control):
/// iterations per step and ms per iteration on each, the solutions' difference, device time per
/// bare sweep; then a ≥ 1M-tet cantilever: 20 Jacobi sweeps on both (parity and ms per sweep), the
/// device's iterations per step, JGS2's, and the CPU's VBD and Newton per iteration. Not `quick`: the
/// large cases of runDeformLarge too. Returns 1 without a device. bench_deform.cpp.
int runDeformGpu(std::ostream& out, bool csv, bool quick);

/// `bench deform --large`: the large cases of the device table alone — a ≈100k-tet cantilever
/// (precomputation, then every method's iterations per step and ms per iteration, the device's
/// beside its CPU twin; JGS2's subspaces from the selected inverse and from the solves) and the
/// ≥ 1M-tet one (JGS2 from the selected inverse only: the solves would take hours).
/// Without a device, the CPU rows only. `which`: "" both, "98k" or "1m" one of them (a device
/// session runs them in separate calls, each within its time limit); "strap" a CPU study apart, not
/// among "" — a 123k-tet thin strap twisted about its axis, JGS2's subspaces from the selected
/// inverse beside those from the solves, with vbd and newton. bench_deform.cpp.
int runDeformLarge(std::ostream& out, bool csv, const std::string& which = "");
/// Whether `--large=WHICH` names a case of runDeformLarge ("", "98k", "1m", "strap"); inline, so
/// that the command line checks its options with it in builds without the benchmarks too.
inline bool isLargeCase(const std::string& which) {
  return which.empty() || which == "98k" || which == "1m" || which == "strap";
}

/// `bench deform --modes`: the rest-mode stage of JGS2's precomputation — block Krylov–Schur
/// (core/deform/low_modes.h) at block sizes 1, 8, 16 and 32 beside Spectra's shift-invert Lanczos
/// with the same factorisation: solves, restarts, seconds, ratio, eigenvalue difference and residual. `which`:
/// "" the 12k- and 98k-tet cantilevers (64 and 256 modes), "12k" or "98k" one of them, "1m" the
/// 1M-tet one (64 modes; not among ""). bench_modes.cpp.
int runDeformModes(std::ostream& out, bool csv, const std::string& which = "");
/// Whether `--modes=WHICH` names a case of runDeformModes ("", "12k", "98k", "1m"); inline, as
/// isLargeCase.
inline bool isModesCase(const std::string& which) {
  return which.empty() || which == "12k" || which == "98k" || which == "1m";
}

/// `bench contact`: paper 000 Table 1 (sweeps and time to RES < 1e-4 at step 100, frictionless) and
/// Table 2 (1000 steps × 200 sweeps with friction; `quick`: 100 steps) on Pool 1, Pool 2 and
/// Stacking for PGS, AMGS Method 2.2, Method 3.1 [ω̄E], [D/γ] and [αD], α = 0.1 … 0.6, with
/// ratios to PGS. bench_contact.cpp. Returns the exit status.
int runContact(std::ostream& out, bool csv, bool quick);

/// `bench startup` (bench_startup.cpp): `check` of the four-bar as a process (`self` is the
/// mechsim-cli program) beside `help` as a process and beside the check's work in-process.
int runStartup(std::ostream& out, bool csv, const std::string& sourceDir, const std::string& self);

/// `bench scale` (bench_scale.cpp): load, check, engine build, a kinematics sample and a dynamics
/// step of generated chains and ladders of N = 100 … 10 000 bodies (`quick`: ≤ 1 000), each in a
/// child process with its peak memory, and the growth exponent between sizes. A `writeDir` writes
/// the mechanisms there as native files instead (FAMILY-N.json). Returns the exit status.
int runScale(std::ostream& out, bool csv, bool quick, const std::string& writeDir = "");

}  // namespace mechsim::bench
