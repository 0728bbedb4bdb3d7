// app/cli/cmd_deform.cpp — `mechsim-cli deform FILE --t-end T --dt H --out OUT.csv [--method M]`.
//
// Kinematic run of a mechanism with deformable parts ("deformables", docs/deform.md): at every
// time t_k = k·H the rigid bodies are placed by the position analysis driven by the file's drivers
// (as `mechsim-cli kinematics`), then every deformable part takes one implicit-Euler step of
// length H (core/deform) with its attached vertices moved to their bodies' poses at t_k (Dirichlet
// conditions updated each step) and its pinned vertices held. M is the solver: newton, vbd, jacobi,
// jgs2-jacobi or jgs2-gs (JGS2, cubature variant, precomputed once per part); the per-vertex methods
// use the global step control `--step-control` (solver.h Acceleration; none = the sweeps as the
// paper writes them); `--modes N` sets JGS2's coarse space (64–1024 rest modes, default 256).
// Without these options each part uses its file's "solver", "stepControl" and "modes" (default
// newton, subspace, 256); with them every part uses the options. `--backend` (default auto)
// steps a part on the CUDA backend (gpu/) when it is built, a device is present and the device
// runs the part's solver (the per-vertex sweeps, gpu::unsupportedReason); `cuda` insists (exit 2 when
// it cannot), `cpu` never uses it. The summary line names each part's backend.
//
// Writes, atomically, one CSV row per part and time:
//   t,part,iterations,converged,centroid_x,centroid_y,centroid_z,max_speed,attach_error
// (attach_error: largest distance of an attached vertex from its body point, m). Exit status 2
// when a step does not converge to a finite state (rows until then are written) — except that a
// part whose file sets "maxIterations" runs on that budget: a step stopped at the cap keeps its
// (finite) state, its row says converged 0, and the summary line counts such steps.
//
// `--vtk DIR` also writes the parts' motion for ParaView and other VTK readers (core/io/vtk.h):
// DIR/<part>_<k>.vtu for every `--vtk-every`-th time t_k (default every one, t = 0 included) —
// the tet mesh at its positions, point fields displacement (from rest, m), velocity (m/s) and
// von_mises (Pa, the rest-volume-weighted mean of the vertex's tets), cell field von_mises (Pa) —
// and DIR/<part>.pvd, the series with its times, written last (also after a failure, listing the
// states written).
// <part> is the part's name made safe as a file name (and numbered when two names meet).
//
// A JGS2 part's precomputation is read from the cache (core/io/jgs2_cache.h) when an earlier run
// made it from the same inputs, and saved there otherwise; `--cache DIR` names the folder, `--cache
// off` bypasses it (default: io::defaultJgs2CacheDir()). The summary line says which.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "cli/commands.h"
#include "core/deform/solver.h"
#include "core/io/engine.h"
#include "core/io/jgs2_cache.h"
#include "core/io/load.h"
#include "core/io/runs.h"
#ifdef MECHSIM_HAVE_CUDA
#include "gpu/engine_device.h"
#endif

namespace mechsim::cli {

namespace {

/// An integer from lo to hi given to `option`; false (having said why) otherwise.
bool parseInteger(const std::string& s, const char* option, long lo, long hi, long& out) {
  double v = 0;
  if (!parseNumber(s, option, v)) return false;
  if (v != std::floor(v) || v < double(lo) || v > double(hi)) {
    std::fprintf(stderr, "mechsim-cli: deform: %s: expected an integer from %ld to %ld, got '%s'\n", option, lo, hi,
                 s.c_str());
    return false;
  }
  out = static_cast<long>(v);
  return true;
}

}  // namespace

int cmdDeform(const Args& argsIn) {
  const char* usage = commandUsage("deform");
  // --method, --step-control, --modes, --backend, --vtk, --vtk-every and --cache are ours; the rest
  // are the common run options.
  Args args;
  std::string methodS, controlS, modesS, backendS = "auto";  // empty: each part's own (the file's)
  std::string vtkDir, vtkEveryS, cacheS;
  for (std::size_t i = 0; i < argsIn.size(); ++i) {
    std::string* target = nullptr;
    std::string name;
    for (auto [opt, dst] : {std::pair<const char*, std::string*>{"--method", &methodS}, {"--step-control", &controlS},
                            {"--modes", &modesS}, {"--backend", &backendS}, {"--vtk", &vtkDir},
                            {"--vtk-every", &vtkEveryS}, {"--cache", &cacheS}})
      if (argsIn[i] == opt || argsIn[i].rfind(std::string(opt) + "=", 0) == 0) {
        target = dst;
        name = opt;
      }
    if (!target) {
      args.push_back(argsIn[i]);
    } else if (argsIn[i].size() > name.size()) {
      *target = argsIn[i].substr(name.size() + 1);
    } else if (i + 1 < argsIn.size()) {
      *target = argsIn[++i];
    } else {
      std::fprintf(stderr, "usage: %s\n", usage);
      return 2;
    }
  }
  const std::optional<deform::Method> methodArg = deform::methodFromString(methodS);
  if (!methodS.empty() && !methodArg) {
    std::fprintf(stderr, "mechsim-cli: deform: unknown method '%s' (newton, vbd, jacobi, jgs2-jacobi, jgs2-gs)\n",
                 methodS.c_str());
    return 2;
  }
  const std::optional<deform::Acceleration> controlArg = deform::accelerationFromString(controlS);
  if (!controlS.empty() && !controlArg) {
    std::fprintf(stderr, "mechsim-cli: deform: unknown step control '%s' (none, line-search, subspace)\n",
                 controlS.c_str());
    return 2;
  }
  long modes = 0;  // JGS2 coarse modes for every part (the file's "modes"): 64 … 1024
  if (!modesS.empty() && !parseInteger(modesS, "--modes", 64, 1024, modes)) return 2;
  long vtkEvery = 1;
  if (!vtkEveryS.empty()) {
    if (!parseInteger(vtkEveryS, "--vtk-every", 1, 1000000, vtkEvery)) return 2;
    if (vtkDir.empty()) {
      std::fprintf(stderr, "mechsim-cli: deform: --vtk-every needs --vtk DIR\n");
      return 2;
    }
  }
  if (backendS != "auto" && backendS != "cpu" && backendS != "cuda") {
    std::fprintf(stderr, "mechsim-cli: deform: unknown backend '%s' (auto, cpu, cuda)\n", backendS.c_str());
    return 2;
  }
#ifndef MECHSIM_HAVE_CUDA
  if (backendS == "cuda") {
    std::fprintf(stderr, "mechsim-cli: deform: --backend cuda: the CUDA backend is not built (no nvcc at configure "
                         "time)\n");
    return 2;
  }
#endif
  // The JGS2 cache folder: --cache's, "" when off, else the default.
  const std::string cacheDir = cacheS == "off" ? std::string() : cacheS.empty() ? io::defaultJgs2CacheDir() : cacheS;
  RunArgs run;
  if (!parseRunArgs(args, "deform", true, usage, run)) return 2;
  double tEnd = 0, dt = 0;
  if (!parseNumber(run.tEnd, "--t-end", tEnd) || !parseNumber(run.dt, "--dt", dt)) return 2;

  // The engine with the command's settings (io::deformOptions): the parts stepped once per --dt, the
  // options' solver for every part when given, the JGS2 cache, the device when asked for or present.
  io::DeformSettings settings;
  settings.method = methodArg;
  settings.control = controlArg;
  settings.modes = static_cast<int>(modes);
  settings.backend = backendS == "cpu" ? sim::Backend::Cpu : backendS == "cuda" ? sim::Backend::Cuda : sim::Backend::Auto;
  settings.vtkDir = vtkDir;
  settings.vtkEvery = vtkEvery;
  sim::Options options = io::deformOptions(dt, settings);
#ifdef MECHSIM_HAVE_CUDA
  options.device = gpu::engineDevice();
#endif
  options.jgs2 = io::cachedJgs2(cacheDir);
  io::RunResult r;
  try {
    io::runSteps("deform", tEnd, dt);
    auto spec = std::make_shared<const MechanismSpec>(io::readMechanismFile(run.file, run.import));
    if (spec->deformables.empty()) {
      std::fprintf(stderr, "mechsim-cli: deform: %s has no deformable parts (\"deformables\")\n", run.file.c_str());
      return 2;
    }
    sim::Model m;
    try {
      m = io::compileEngine(spec, options);
    } catch (const io::LoadError&) {
      throw;
    } catch (const std::exception& e) {  // a part the device refuses under --backend cuda
      throw std::runtime_error((settings.backend == sim::Backend::Cuda ? "--backend cuda: " : "") + std::string(e.what()));
    }
    r = io::runDeform(m, tEnd, dt, settings);
  } catch (const io::LoadError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mechsim-cli: deform: %s\n", e.what());
    return 2;
  }
  return writeRun("deform", run.out, r);
}

}  // namespace mechsim::cli
