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
#include "core/data.h"
#include "core/deform/from_spec.h"
#include "core/deform/stress.h"
#include "core/deform/solver.h"
#include "core/io/jgs2_cache.h"
#include "core/io/load.h"
#include "core/io/vtk.h"
#include "core/io/write.h"
#include "core/kinematics/kinematics.h"
#ifdef MECHSIM_HAVE_CUDA
#include "gpu/deform_gpu.h"
#include "gpu/device_info.h"
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

  MechanismSpec spec;
  Model model;
  try {
    spec = io::readMechanismFile(run.file);
    model = io::compileSpec(spec);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  if (spec.deformables.empty()) {
    std::fprintf(stderr, "mechsim-cli: deform: %s has no deformable parts (\"deformables\")\n", run.file.c_str());
    return 2;
  }
  // Spec body k → model body (the attachments index spec.bodies).
  std::vector<int> bodyOf(spec.bodies.size());
  for (std::size_t k = 0; k < spec.bodies.size(); ++k) bodyOf[k] = model.findBody(spec.bodies[k].name);

  struct Part {
    std::string name;
    deform::DeformableModel m;
    std::unique_ptr<deform::Jgs2Data> jgs2;
    deform::SolveOptions opt;
    bool budget = false;  // the file caps the iterations: a step at the cap is not a failure
    VecX rest, x, v;  // rest: the positions at t = 0 (--vtk's displacement is from them)
    std::string stem;  // --vtk: the files' stem
    std::vector<std::pair<double, std::string>> vtkSteps;  // --vtk: (t, file) written
#ifdef MECHSIM_HAVE_CUDA
    std::unique_ptr<gpu::DeviceSolver> device;  // set: the part is stepped on the device
#endif
  };
  std::vector<Part> parts;
  std::string methods, backends;  // the parts' methods and backends, for the summary line
  std::string precomputed;         // the JGS2 parts' precomputations: read or computed, for the summary line
  try {
    for (const DeformableSpec& ds : spec.deformables) {
      Part p;
      p.name = ds.name;
      p.m = deform::makeDeformableFromSpec(ds, spec, dt);
      p.rest = deform::restPositions(p.m);
      p.x = p.rest;
      p.v = VecX::Zero(p.x.size());
      // The part's solver: the command line's, else the file's, else newton / subspace.
      p.opt.method = methodArg ? *methodArg : deform::methodFromString(ds.solver).value_or(deform::Method::Newton);
      p.opt.acceleration =
          controlArg ? *controlArg : deform::accelerationFromString(ds.stepControl).value_or(deform::Acceleration::Subspace);
      if (ds.maxIterations > 0) p.opt.maxIterations = ds.maxIterations;  // the file's cap and tolerance
      if (ds.tolerance > 0) p.opt.tolerance = ds.tolerance;
      p.budget = ds.maxIterations > 0;
      if (!methods.empty()) methods += ", ";
      methods += deform::toString(p.opt.method);
      if (deform::isJgs2(p.opt.method)) {
        io::Jgs2CacheUse use;
        p.jgs2 = std::make_unique<deform::Jgs2Data>(io::precomputeJgs2Cached(
            p.m, deform::jgs2OptionsFor(p.opt.method, modesArg > 0 ? modesArg : ds.modes, p.m.freeCount()), cacheDir,
            &use));
        if (!use.warning.empty())
          std::fprintf(stderr, "mechsim-cli: deform: part \"%s\": %s\n", p.name.c_str(), use.warning.c_str());
        if (!precomputed.empty()) precomputed += ", ";
        precomputed += use.result == io::Jgs2CacheUse::Result::Read
                           ? std::string("read from the cache")
                           : "computed in " + formatSeconds(p.jgs2->totalSeconds) + " s" + (use.path.empty() ? "" : ", saved");
      }
      // Backend: the device when asked for or (auto) when present and it runs the part's options.
      std::string backend = "cpu";
#ifdef MECHSIM_HAVE_CUDA
      if (backendS != "cpu") {
        std::string why = gpu::deviceCount() == 0 ? gpu::deviceDescription()
                                                  : gpu::unsupportedReason(p.m, p.jgs2.get(), p.opt);
        if (why.empty()) {
          try {  // an upload that fails (device memory) leaves the part on the CPU under auto
            p.device = std::make_unique<gpu::DeviceSolver>(p.m, p.jgs2.get(), p.opt.method);
            backend = "cuda";
          } catch (const std::exception& e) {
            why = e.what();
          }
        }
        if (!why.empty() && backendS == "cuda") {
          throw std::runtime_error("part \"" + p.name + "\": --backend cuda: " + why);
        } else if (!why.empty() && gpu::deviceCount() > 0) {
          std::fprintf(stderr, "mechsim-cli: deform: part \"%s\" runs on the CPU: %s\n", p.name.c_str(), why.c_str());
        }
      }
#endif
      if (!backends.empty()) backends += ", ";
      backends += backend;
      parts.push_back(std::move(p));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mechsim-cli: deform: %s\n", e.what());
    return 2;
  }

  if (!vtkDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(vtkDir, ec);
    if (!std::filesystem::is_directory(vtkDir, ec)) {
      std::fprintf(stderr, "mechsim-cli: deform: --vtk: cannot make the folder '%s'\n", vtkDir.c_str());
      return 2;
    }
    std::vector<std::string> names;
    for (const Part& p : parts) names.push_back(p.name);
    const std::vector<std::string> stems = io::fileStems(names);
    for (std::size_t k = 0; k < parts.size(); ++k) parts[k].stem = stems[k];
  }
  // --vtk: part p's state at t_k as DIR/<stem>_<k>.vtu (atomically; a state that is not finite is
  // not written, the run ends there anyway).
  auto writeVtk = [&](Part& p, long k, double t) {
    if (!p.x.allFinite() || !p.v.allFinite()) return;
    char number[32];
    std::snprintf(number, sizeof number, "_%06ld.vtu", k);
    const std::string file = p.stem + number;
    const VecX disp = p.x - p.rest;
    std::vector<io::VtkField> cellData = {{"von_mises", 1, deform::tetVonMises(p.m, p.x)}};
    std::vector<io::VtkField> pointData = {{"displacement", 3, {disp.data(), disp.data() + disp.size()}},
                                           {"velocity", 3, {p.v.data(), p.v.data() + p.v.size()}},
                                           {"von_mises", 1, deform::vertexVonMises(p.m, cellData[0].values)}};
    io::writeFileAtomically((std::filesystem::path(vtkDir) / file).string(),
                            io::vtuText(p.m.mesh.tets, p.x, pointData, cellData));
    p.vtkSteps.emplace_back(t, file);
  };
  auto writeSeries = [&]() {
    for (const Part& p : parts)
      io::writeFileAtomically((std::filesystem::path(vtkDir) / (p.stem + ".pvd")).string(), io::pvdText(p.vtkSteps));
  };

  Data d = makeData(model);
  std::ostringstream csv;
  csv.precision(9);
  csv << "t,part,iterations,converged,centroid_x,centroid_y,centroid_z,max_speed,attach_error\n";
  std::vector<Pose> poses(spec.bodies.size());
  long totalIterations = 0, solves = 0, capped = 0, stepsDone = 0;  // stepsDone: every part stepped
  double maxAttach = 0;
  std::string failure;
  const auto wall0 = std::chrono::steady_clock::now();
  for (long k = 0; k <= static_cast<long>(steps) && failure.empty(); ++k) {
    const double t = k * dt;
    if (!solvePositions(model, d, t)) {
      failure = "position analysis failed at t = " + std::to_string(t) + " s: " + d.stats.message;
      break;
    }
    for (std::size_t b = 0; b < spec.bodies.size(); ++b) poses[b] = bodyPose(model, d.q, bodyOf[b]);
    for (Part& p : parts) {
      deform::SolveStats st;
      if (k > 0) {
        try {
#ifdef MECHSIM_HAVE_CUDA
          if (p.device)
            st = deform::stepImplicitEuler(
                p.m, [&p](const VecX& z, VecX& x) { return p.device->minimise(p.m, p.opt, z, x); }, p.x, p.v, poses);
          else
#endif
            st = deform::stepImplicitEuler(p.m, p.jgs2.get(), p.opt, p.x, p.v, poses);
        } catch (const std::exception& e) {
          failure = std::string("part \"") + p.name + "\": " + e.what();
          break;
        }
        totalIterations += st.iterations;
        ++solves;
      } else {
        st.converged = true;
      }
      double attach = 0, speed = 0;
      for (const deform::Attachment& a : p.m.attachments)
        attach = std::max(attach, (p.x.segment<3>(3 * a.vertex) - poses[a.body].apply(a.local)).norm());
      Vec3 centroid = Vec3::Zero();
      for (int i = 0; i < p.m.vertexCount(); ++i) {
        centroid += p.x.segment<3>(3 * i) / p.m.vertexCount();
        speed = std::max(speed, p.v.segment<3>(3 * i).norm());
      }
      maxAttach = std::max(maxAttach, attach);
      if (!vtkDir.empty() && k % vtkEvery == 0) {
        try {
          writeVtk(p, k, t);
        } catch (const std::exception& e) {
          failure = std::string("--vtk: ") + e.what();
        }
      }
      csv << t << ',' << p.name << ',' << st.iterations << ',' << int(st.converged) << ',' << centroid.x() << ','
          << centroid.y() << ',' << centroid.z() << ',' << speed << ',' << attach << '\n';
      if (p.x.allFinite() && !st.diverged && !st.converged && p.budget) {
        ++capped;  // on the file's iteration budget: the reached state is kept
      } else if (!p.x.allFinite() || !st.converged) {
        failure = "part \"" + p.name + "\" did not converge at t = " + std::to_string(t) + " s (" +
                  std::to_string(st.iterations) + " iterations)";
        break;
      }
    }
    if (k > 0 && failure.empty()) ++stepsDone;
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
              parts.size(), stepsDone, methods.c_str(), backends.c_str(), wall,
              solves ? double(totalIterations) / solves : 0.0, maxAttach);
  if (!precomputed.empty()) std::printf(", JGS2 precomputation %s", precomputed.c_str());
  if (capped > 0) std::printf(", %ld part step(s) stopped at the file's maxIterations", capped);
  if (!vtkDir.empty())
    std::printf(", VTK series %s (%zu states)",
                (std::filesystem::path(vtkDir) / (parts.front().stem + ".pvd")).lexically_normal().c_str(),
                parts.front().vtkSteps.size());
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
