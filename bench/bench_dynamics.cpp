// bench/bench_dynamics.cpp — `mechsim-cli bench dynamics [--csv]`: the IFToMM multibody benchmark
// problems A01-A05 (mechanisms/dynamics/) simulated by the forward-dynamics stepper, every method
// in the same run (STYLE.md §14). Methods differ only in how the bilateral impulses are chosen:
//   riley-mass      weighted minimum-norm impulses by Riley's iteration, D = diag(J M⁻¹ Jᵀ) (default)
//   riley-identity  the same with D = I (plain minimum norm)
//   tikhonov        one regularised solve (N + sD) λ = r with s = 1e-6 μ: the compliant / "soft
//                   constraint" formulation of paper 002 eq. 2 at a stiff setting (no iteration)
// Every case runs with its file's solver settings (time step, Riley tolerance; A02's are chosen in
// its file by a measured sweep); the methods set only the weights, the reduction f and the cap.
// Per (case, method): CPU seconds, CPU seconds per simulated second, Riley iterations per step,
// and the error: A01, A02 the largest distance of the tracked point from the 1-DOF reference
// (bench/dynamics_reference.h) over 400 output times (the A02 benchmark's measure), A03 the largest
// angle error at t = 0.03 s against the IVP test set's published solution, A04 and A05 (no reference
// solution) the largest |E(t) − E(0)| in J.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "bench/bench.h"
#include "bench/dynamics_reference.h"
#include "core/data.h"
#include "core/dynamics/dynamics.h"
#include "core/io/load.h"
#include "core/kinematics/kinematics.h"

namespace mechsim::bench {
namespace {

struct Case {
  const char* name;
  const char* file;
  double tEnd;
  int kind;  // 1 A01, 2 A02, 3 A03, 0 energy drift
};

struct Method {
  const char* name;
  ConstraintWeights weights;
  double reduction;
  int maxIterations;
};

struct Result {
  double cpu = 0, error = 0, itersPerStep = 0;
  long steps = 0;
  bool ok = true;
  std::string message;
};

Result run(const Model& base, const Case& c, const Method& me) {
  Model m = base;
  m.dynamics.weights = me.weights;
  m.dynamics.reduction = me.reduction;
  m.dynamics.maxIterations = me.maxIterations;
  const double h = m.dynamics.timestep;
  const long steps = std::lround(c.tEnd / h);
  Result r;
  Data d = makeData(m);
  DynamicsStepper sim(m);
  const std::clock_t c0 = std::clock();
  if (!sim.initialize(d)) {
    r.ok = false;
    r.message = sim.stats().message;
    return r;
  }
  const double e0 = sim.energy(d).total();
  // Tracked point for A01 / A02: the bob's centre / B0, the top of rod0.
  const int tracked = c.kind == 1 ? m.findBody("bob") : m.findBody("rod0");
  const Vec3 local = c.kind == 1 ? Vec3::Zero() : Vec3(1, 0, 0);
  const long every = std::max<long>(1, steps / 400);
  long iters = 0;
  std::vector<std::pair<double, Vec3>> samples;
  for (long k = 1; k <= steps; ++k) {
    if (!sim.step(d, h)) {
      r.ok = false;
      r.message = sim.stats().message;
      break;
    }
    iters += sim.stats().rileyIterations;
    if (c.kind == 0) r.error = std::max(r.error, std::abs(sim.energy(d).total() - e0));
    if ((c.kind == 1 || c.kind == 2) && k % every == 0) samples.emplace_back(d.t, bodyPose(m, d.q, tracked).apply(local));
  }
  r.cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  r.steps = steps;
  r.itersPerStep = double(iters) / double(std::max<long>(1, steps));
  // Errors against the references (outside the timed loop's CPU budget? no: after it).
  if (c.kind == 1 || c.kind == 2) {
    const int N = 40;
    const double J = c.kind == 1 ? 1.0 + 1e-6 : nFourBarInertia(N);
    const double gK = c.kind == 1 ? 9.81 : nFourBarGK(N);
    const double phi0 = c.kind == 1 ? 0.0 : M_PI / 2, w0 = c.kind == 1 ? 0.0 : -1.0;
    double phi = phi0, w = w0, t = 0;
    for (const auto& [ts, x] : samples) {
      double p2, w2;
      oneDofReference(J, gK, phi, w, ts - t, std::max(1, int(std::lround((ts - t) / 1e-5))), p2, w2);
      phi = p2, w = w2, t = ts;
      r.error = std::max(r.error, (x - Vec3(std::cos(phi), std::sin(phi), 0)).norm());
    }
  } else if (c.kind == 3 && r.ok) {
    for (int k = 0; k < 7; ++k) {
      const int j = m.findJoint(kAndrewsJoints[k]);
      const double y = kAndrewsInitial[k] + d.coords(m.joints[j].firstCoord);
      r.error = std::max(r.error, std::abs(y - kAndrewsReference003[k]));
    }
  }
  return r;
}

}  // namespace

int runDynamics(std::ostream& out, bool csv, const std::string& sourceDir) {
  const std::vector<Case> cases = {
      {"A01-pendulum", "a01-pendulum.json", 10.0, 1},       {"A02-nfourbar-40", "a02-nfourbar-40.json", 20.0, 2},
      {"A03-andrews", "a03-andrews-squeezer.json", 0.03, 3}, {"A04-bricard", "a04-bricard.json", 10.0, 0},
      {"A05-governor", "a05-governor.json", 10.0, 0}};
  const std::vector<Method> methods = {{"riley-mass", ConstraintWeights::Mass, 0.1, 40},
                                       {"riley-identity", ConstraintWeights::Identity, 0.1, 40},
                                       {"tikhonov", ConstraintWeights::Mass, 1e-6, 1}};
  if (csv) out << "case,method,iterations,time_s,error,cpu_per_simulated_s,steps,ok\n";
  else
    out << "dynamics benchmark (IFToMM A01-A05): CPU time, CPU per simulated second, Riley iterations per step, error\n"
        << "  error: A01/A02 max position error [m] vs the 1-DOF reference, A03 max angle error [rad] vs the IVP\n"
        << "  test set at t = 0.03 s, A04/A05 max |E - E0| [J]\n";
  for (const Case& c : cases) {
    Model m;
    try {
      m = io::loadModel(sourceDir + "/mechanisms/dynamics/" + c.file);
    } catch (const std::exception& e) {
      std::cerr << "bench dynamics: " << e.what() << "\n";
      return 1;
    }
    std::vector<Result> results;
    for (const Method& me : methods) results.push_back(run(m, c, me));
    if (!csv) out << c.name << "  (h = " << m.dynamics.timestep << " s, " << c.tEnd << " s simulated)\n";
    for (size_t i = 0; i < methods.size(); ++i) {
      const Result& r = results[i];
      const double perSim = r.cpu / c.tEnd;
      if (csv) {
        out << c.name << ',' << methods[i].name << ',' << r.itersPerStep << ',' << r.cpu << ',' << r.error << ',' << perSim
            << ',' << r.steps << ',' << (r.ok ? 1 : 0) << '\n';
      } else {
        char buf[256];
        std::snprintf(buf, sizeof buf, "  %-15s CPU %8.3f s  (%7.3f s per simulated s, x%5.2f of riley-mass)  %6.1f it/step  error %.3g%s",
                      methods[i].name, r.cpu, perSim, results[0].cpu > 0 ? r.cpu / results[0].cpu : 0.0, r.itersPerStep,
                      r.error, r.ok ? "" : "  FAILED");
        out << buf << (r.ok ? "" : (": " + r.message)) << '\n';
      }
    }
  }
  return 0;
}

}  // namespace mechsim::bench
