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
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "core/deform/stress.h"
#include "core/deform/solver.h"
#include "core/io/engine.h"
#include "core/io/jgs2_cache.h"
#include "core/io/load.h"
#include "core/io/vtk.h"
#include "core/io/write.h"
#include "core/kinematics/kinematics.h"
#include "core/sim/stages.h"
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

/// Seconds with two decimals, for the summary line.
std::string formatSeconds(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", s);
  return b;
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
  const int modesArg = static_cast<int>(modes);
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
  if (tEnd < 0 || dt <= 0) {
    std::fprintf(stderr, "mechsim-cli: deform: need --t-end ≥ 0 and --dt > 0\n");
    return 2;
  }
  const double steps = std::floor(tEnd / dt + 1e-9);
  if (steps > 1e6) {
    std::fprintf(stderr, "mechsim-cli: deform: %.0f steps is too many (at most 1e6)\n", steps);
    return 2;
  }

  // The engine with the command's settings: the parts stepped once per --dt, the options' solver
  // for every part when given, the JGS2 cache, the device when asked for or present (auto).
  sim::Options options;
  options.rangeBudgetSeconds = 0;  // no sliders here
  options.deformStep = dt;
  options.deformMethod = methodArg;
  options.deformControl = controlArg;
  options.deformModes = modesArg;
  options.backend = backendS == "cpu" ? sim::Backend::Cpu : backendS == "cuda" ? sim::Backend::Cuda : sim::Backend::Auto;
#ifdef MECHSIM_HAVE_CUDA
  options.device = gpu::engineDevice();
#endif
  options.jgs2 = io::cachedJgs2(cacheDir);
  sim::Model m;
  std::shared_ptr<const MechanismSpec> spec;
  try {
    spec = std::make_shared<const MechanismSpec>(io::readMechanismFile(run.file));
    if (spec->deformables.empty()) {
      std::fprintf(stderr, "mechsim-cli: deform: %s has no deformable parts (\"deformables\")\n", run.file.c_str());
      return 2;
    }
    m = io::compileEngine(spec, options);
  } catch (const io::LoadError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mechsim-cli: deform: %s%s\n", options.backend == sim::Backend::Cuda ? "--backend cuda: " : "",
                 e.what());
    return 2;
  }
  if (m.parts.size() != spec->deformables.size()) {
    std::fprintf(stderr, "mechsim-cli: deform: %s\n", m.message.c_str());
    return 2;
  }
  sim::Data d = sim::makeData(m);
  std::string methods, backends;  // the parts' methods and backends, for the summary line
  std::string precomputed;         // the JGS2 parts' precomputations: read or computed, for the summary line
  for (std::size_t k = 0; k < m.parts.size(); ++k) {
    const sim::PartModel& p = m.parts[k];
    if (!methods.empty()) methods += ", ";
    methods += deform::toString(p.solve.method);
    if (p.jgs2) {
      if (!p.precomputation.warning.empty())
        std::fprintf(stderr, "mechsim-cli: deform: part \"%s\": %s\n", p.name.c_str(), p.precomputation.warning.c_str());
      if (!precomputed.empty()) precomputed += ", ";
      precomputed += p.precomputation.fromCache
                         ? std::string("read from the cache")
                         : "computed in " + formatSeconds(p.precomputation.seconds) + " s" + (p.precomputation.saved ? ", saved" : "");
    }
    if (!p.cpuReason.empty())
      std::fprintf(stderr, "mechsim-cli: deform: part \"%s\" runs on the CPU: %s\n", p.name.c_str(), p.cpuReason.c_str());
    if (p.device && !d.parts[k].device) {  // the upload failed (device memory)
      if (options.backend == sim::Backend::Cuda) {
        std::fprintf(stderr, "mechsim-cli: deform: part \"%s\": --backend cuda: %s\n", p.name.c_str(), d.message.c_str());
        return 2;
      }
      std::fprintf(stderr, "mechsim-cli: deform: %s\n", d.message.c_str());
    }
    if (!backends.empty()) backends += ", ";
    backends += d.parts[k].device ? "cuda" : "cpu";
  }

  struct Output {
    std::string stem;                                      // --vtk: the files' stem
    std::vector<std::pair<double, std::string>> vtkSteps;  // --vtk: (t, file) written
  };
  std::vector<Output> outputs(m.parts.size());
  if (!vtkDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(vtkDir, ec);
    if (!std::filesystem::is_directory(vtkDir, ec)) {
      std::fprintf(stderr, "mechsim-cli: deform: --vtk: cannot make the folder '%s'\n", vtkDir.c_str());
      return 2;
    }
    std::vector<std::string> names;
    for (const sim::PartModel& p : m.parts) names.push_back(p.name);
    const std::vector<std::string> stems = io::fileStems(names);
    for (std::size_t k = 0; k < m.parts.size(); ++k) outputs[k].stem = stems[k];
  }
  // --vtk: part k's state at t_i as DIR/<stem>_<i>.vtu (atomically; a state that is not finite is
  // not written, the run ends there anyway).
  auto writeVtk = [&](std::size_t k, long i, double t) {
    const sim::PartModel& p = m.parts[k];
    const sim::PartState& s = d.parts[k];
    if (!s.x.allFinite() || !s.v.allFinite()) return;
    char number[32];
    std::snprintf(number, sizeof number, "_%06ld.vtu", i);
    const std::string file = outputs[k].stem + number;
    const VecX disp = s.x - p.rest;
    std::vector<io::VtkField> cellData = {{"von_mises", 1, deform::tetVonMises(*p.model, s.x)}};
    std::vector<io::VtkField> pointData = {{"displacement", 3, {disp.data(), disp.data() + disp.size()}},
                                           {"velocity", 3, {s.v.data(), s.v.data() + s.v.size()}},
                                           {"von_mises", 1, deform::vertexVonMises(*p.model, cellData[0].values)}};
    io::writeFileAtomically((std::filesystem::path(vtkDir) / file).string(),
                            io::vtuText(p.model->mesh.tets, s.x, pointData, cellData));
    outputs[k].vtkSteps.emplace_back(t, file);
  };
  auto writeSeries = [&]() {
    for (const Output& o : outputs)
      io::writeFileAtomically((std::filesystem::path(vtkDir) / (o.stem + ".pvd")).string(), io::pvdText(o.vtkSteps));
  };

  std::ostringstream csv;
  csv.precision(9);
  csv << "t,part,iterations,converged,centroid_x,centroid_y,centroid_z,max_speed,attach_error\n";
  long totalIterations = 0, solves = 0, capped = 0, stepsDone = 0;  // stepsDone: every part stepped
  double maxAttach = 0;
  std::string failure;
  const auto wall0 = std::chrono::steady_clock::now();
  for (long i = 0; i <= static_cast<long>(steps) && failure.empty(); ++i) {
    const double t = i * dt;
    // The bodies at t_i (t = 0: the assembly makeData solved), then one step of every part.
    if (!(i == 0 ? d.rigid.stats.converged : sim::advanceTo(m, d, t))) {
      failure = "position analysis failed at t = " + std::to_string(t) + " s: " + d.rigid.stats.message;
      break;
    }
    if (i > 0) sim::stepDeformables(m, d);
    for (std::size_t k = 0; k < m.parts.size(); ++k) {
      const sim::PartModel& p = m.parts[k];
      const sim::PartState& s = d.parts[k];
      deform::SolveStats st;
      if (i > 0) {
        st = s.last;
        totalIterations += st.iterations;
        ++solves;
      } else {
        st.converged = true;
      }
      double attach = 0, speed = 0;
      for (const deform::Attachment& a : p.model->attachments) {
        const int b = m.partBodies[a.body];
        attach = std::max(attach, (s.x.segment<3>(3 * a.vertex) - bodyPose(*m.file, d.rigid.q, b).apply(a.local)).norm());
      }
      Vec3 centroid = Vec3::Zero();
      const int nv = p.model->vertexCount();
      for (int v = 0; v < nv; ++v) {
        centroid += s.x.segment<3>(3 * v) / nv;
        speed = std::max(speed, s.v.segment<3>(3 * v).norm());
      }
      maxAttach = std::max(maxAttach, attach);
      if (!vtkDir.empty() && i % vtkEvery == 0) {
        try {
          writeVtk(k, i, t);
        } catch (const std::exception& e) {
          failure = std::string("--vtk: ") + e.what();
        }
      }
      csv << t << ',' << p.name << ',' << st.iterations << ',' << int(st.converged) << ',' << centroid.x() << ','
          << centroid.y() << ',' << centroid.z() << ',' << speed << ',' << attach << '\n';
      if (!st.diverged && !st.cancelled && !st.converged && p.fileBudget) {
        ++capped;  // on the file's iteration budget: the reached state is kept
      } else if (st.diverged || !st.converged) {
        failure = "part \"" + p.name + "\" did not converge at t = " + std::to_string(t) + " s (" +
                  std::to_string(st.iterations) + " iterations)";
        if (!d.message.empty()) failure += ": " + d.message;
        break;
      }
    }
    if (i > 0 && failure.empty()) ++stepsDone;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  try {
    io::writeFileAtomically(run.out, csv.str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mechsim-cli: deform: cannot write '%s': %s\n", run.out.c_str(), e.what());
    return 2;
  }
  if (!vtkDir.empty()) try {
      writeSeries();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "mechsim-cli: deform: --vtk: %s\n", e.what());
      return 2;
    }
  std::printf("deform: %zu part(s), %ld steps, method %s, backend %s, wall %.3f s, %.2f iterations per step, max "
              "attachment error %.3g m",
              m.parts.size(), stepsDone, methods.c_str(), backends.c_str(), wall,
              solves ? double(totalIterations) / solves : 0.0, maxAttach);
  if (!precomputed.empty()) std::printf(", JGS2 precomputation %s", precomputed.c_str());
  if (capped > 0) std::printf(", %ld part step(s) stopped at the file's maxIterations", capped);
  if (!vtkDir.empty())
    std::printf(", VTK series %s (%zu states)",
                (std::filesystem::path(vtkDir) / (outputs.front().stem + ".pvd")).lexically_normal().c_str(),
                outputs.front().vtkSteps.size());
  std::printf("\n");
  if (!failure.empty()) {
    // The rows written: every time up to the failed step, whose row (if the part got one) says
    // converged 0 with the state the solve stopped at.
    std::fprintf(stderr, "mechsim-cli: deform: %s after %ld of %ld steps; wrote the rows up to it to %s\n",
                 failure.c_str(), stepsDone, static_cast<long>(steps), run.out.c_str());
    return 2;
  }
  return 0;
}

}  // namespace mechsim::cli
