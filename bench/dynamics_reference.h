#pragma once
// bench/dynamics_reference.h — independent reference solutions of the dynamics benchmark problems
// (IFToMM A01-A03), used by `bench dynamics` and by tests/core/test_dynamics_benchmarks.cpp.
//
//  * A01 (pendulum) and A02 (N-four-bar) are one-degree-of-freedom systems. Written in the angle φ
//    of the rod(s) from +x (every rod of the N-four-bar turns alike: the cells stay parallelograms,
//    the couplers translate), energy gives J φ̈ = −g K cos φ with
//      A01: J = m L² + I_bob, K = m L;       A02: J = (N+1)(1/12 + 1/4) + N, K = (N+1)/2 + N
//    (rods and couplers 1 m, 1 kg, uniform). Integrated with classical RK4 at a step far below the
//    simulation's — an algorithm that shares nothing with the multibody stepper.
//  * A03 (Andrews' squeezer): the published reference solution at t = 0.03 s of the IVP test set,
//    problem "andrews" (F. Mazzia, C. Magherini, F. Iavernaro, "Test Set for Initial Value Problem
//    Solvers", release 2.4, University of Bari, subroutine SOLN of andrews.f; computed with PSIDE at
//    tolerances 1e-14), the seven angles β, Θ, γ, Φ, δ, Ω, ε (file order y(1..7)).
#include <array>
#include <cmath>

namespace mechsim::bench {

/// φ(t) of J φ̈ = −g K cos φ from (φ0, ω0), RK4 with `steps` steps; also returns ω(t).
inline void oneDofReference(double J, double gK, double phi0, double w0, double t, int steps, double& phi, double& w) {
  phi = phi0;
  w = w0;
  const double h = t / steps;
  auto acc = [&](double p) { return -gK * std::cos(p) / J; };
  for (int i = 0; i < steps; ++i) {
    const double k1p = w, k1w = acc(phi);
    const double k2p = w + 0.5 * h * k1w, k2w = acc(phi + 0.5 * h * k1p);
    const double k3p = w + 0.5 * h * k2w, k3w = acc(phi + 0.5 * h * k2p);
    const double k4p = w + h * k3w, k4w = acc(phi + h * k3p);
    phi += h / 6 * (k1p + 2 * k2p + 2 * k3p + k4p);
    w += h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
  }
}

/// A02 constants for N cells (g = 9.81).
inline double nFourBarInertia(int N) { return (N + 1) * (1.0 / 12 + 0.25) + N; }
inline double nFourBarGK(int N) { return 9.81 * ((N + 1) * 0.5 + N); }

/// IVP test set, andrews, y(1..7) at t = 0.03 (SOLN in andrews.f).
inline constexpr std::array<double, 7> kAndrewsReference003 = {
    0.1581077119629904e+2,  -0.1575637105984298e+2, 0.4082224013073101e-1, -0.5347301163226948e+0,
    0.5244099658805304e+0,  0.5347301163226948e+0,  0.1048080741042263e+1};
/// The consistent initial angles of the test set (y(1..7) at t = 0).
inline constexpr std::array<double, 7> kAndrewsInitial = {
    -0.0617138900142764496358948458001, 0.0, 0.455279819163070380255912382449, 0.222668390165885884674473185609,
    0.487364979543842550225598953530, -0.222668390165885884674473185609, 1.23054744454982119249735015568};
/// The joints of mechanisms/dynamics/a03-andrews-squeezer.json whose coordinates (zero in the file's
/// configuration) are y(k) − y(k, t=0): O (β, K1 on the ground), P (Θ, K2 on K1), B (γ), E (Φ, K4 on
/// K5), A5 (δ), G (Ω, K6 on K7), A7 (ε) — scripts/gen/gen_planar.py builds the bodies that way.
inline constexpr std::array<const char*, 7> kAndrewsJoints = {"O", "P", "B", "E", "A5", "G", "A7"};

}  // namespace mechsim::bench
