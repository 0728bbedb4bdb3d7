// app/cli/cmd_bench.cpp — `mechsim-cli bench NAME [--csv] [--quick]` (deform also `--gpu`, `--large`,
// `--modes`): the benchmark programs.
#include <unistd.h>

#include <filesystem>
#include <cstdio>
#include <iostream>
#include <string>

#include "bench/bench.h"  // isLargeCase, isModesCase (inline) in every build; the run* functions with MECHSIM_HAVE_BENCH
#include "cli/commands.h"
#include "data_root.h"

namespace mechsim::cli {

#ifdef MECHSIM_HAVE_BENCH
namespace {

/// Where the examples the benchmarks load lie (data_root.h); the source tree when none is found,
/// the benchmark then names the file it cannot open.
std::string examplesRoot() {
  const std::string root = app::dataRoot();
  return root.empty() ? MECHSIM_SOURCE_DIR : root;
}

/// This program's path (the startup benchmark runs it again).
std::string selfPath() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("mechsim-cli");
}

}  // namespace
#endif

int cmdBench(const Args& args) {
  const auto pos = positionals(args, {});
  if (pos.size() != 1) {
    std::fprintf(stderr, "usage: %s\n", commandUsage("bench"));
    return 2;
  }
  // --quick shortens the two long benchmarks only; any other option is a usage error (not ignored:
  // a misspelt flag must not start a quarter-hour run).
  const bool hasQuick = pos[0] == "deform" || pos[0] == "contact" || pos[0] == "scale";
  // deform: --large, or --large=CASE for one case (bench::isLargeCase: 98k, 1m; strap, the thin
  // strap study, not part of --large).
  // deform --modes, or --modes=CASE (bench::isModesCase: 12k, 98k; 1m, not part of --modes): JGS2's
  // rest-mode stage, block Krylov–Schur beside Spectra's Lanczos.
  std::string largeCase, modesCase;
  bool large = false, modes = false;
  for (const auto& a : args)
    if (pos[0] == "deform" && a.rfind("--large=", 0) == 0) {
      large = true;
      largeCase = a.substr(8);
    } else if (pos[0] == "deform" && a.rfind("--modes=", 0) == 0) {
      modes = true;
      modesCase = a.substr(8);
    }
  for (const auto& a : args)
    if (a.rfind("--", 0) == 0 && a != "--csv" && !(hasQuick && a == "--quick") &&
        !(pos[0] == "scale" && a.rfind("--write=", 0) == 0 && a.size() > 8) &&
        !(pos[0] == "deform" && (a == "--gpu" || a == "--large" || a == "--modes" ||
                                  (a.size() > 8 && a.rfind("--large=", 0) == 0 && bench::isLargeCase(a.substr(8))) ||
                                  (a.size() > 8 && a.rfind("--modes=", 0) == 0 && bench::isModesCase(a.substr(8)))))) {
      std::fprintf(stderr, "mechsim-cli: bench %s: unknown option '%s'\nusage: %s\n", pos[0].c_str(), a.c_str(),
                   commandUsage("bench"));
      return 2;
    }
  const bool csv = hasFlag(args, "--csv");
  if (pos[0] == "study") {
    // Studies run through the Python package (its Dask row needs it): python/bench/bench_study.py.
    // In the source tree or the installed share/mechsim/, as the examples (app/data_root.h).
    const std::string root = app::dataRoot();
    const std::string script = root + "/python/bench/bench_study.py";
    if (root.empty() || !std::filesystem::exists(script)) {
      std::fprintf(stderr, "mechsim-cli: bench study: python/bench/bench_study.py not found\n");
      return 2;
    }
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    std::vector<std::string> argv{script, "--cli", n > 0 ? std::string(self, static_cast<std::size_t>(n)) : "mechsim-cli"};
    if (csv) argv.push_back("--csv");
    return execPythonPackage(argv);
  }
#ifdef MECHSIM_HAVE_BENCH
  if (pos[0] == "kinematics") return bench::runKinematics(std::cout, csv, examplesRoot());
  if (pos[0] == "dynamics") return bench::runDynamics(std::cout, csv, examplesRoot());
  if (pos[0] == "anm") return bench::runAnm(std::cout, csv, examplesRoot());
  if (pos[0] == "deform")
    return hasFlag(args, "--modes") || modes  ? bench::runDeformModes(std::cout, csv, modesCase)
           : hasFlag(args, "--large") || large ? bench::runDeformLarge(std::cout, csv, largeCase)
           : hasFlag(args, "--gpu")   ? bench::runDeformGpu(std::cout, csv, hasFlag(args, "--quick"))
                                      : bench::runDeform(std::cout, csv, hasFlag(args, "--quick"));
  if (pos[0] == "contact") return bench::runContact(std::cout, csv, hasFlag(args, "--quick"));
  if (pos[0] == "startup") return bench::runStartup(std::cout, csv, examplesRoot(), selfPath());
  if (pos[0] == "scale") {
    std::string dir;
    for (const auto& a : args)
      if (a.rfind("--write=", 0) == 0) dir = a.substr(8);
    return bench::runScale(std::cout, csv, hasFlag(args, "--quick"), dir);
  }
#else
  (void)csv, (void)large, (void)modes;
  std::fprintf(stderr, "mechsim-cli: bench: this build has no benchmark programs\n");
  return 2;
#endif
  std::fprintf(stderr, "mechsim-cli: bench: unknown benchmark '%s' (available: kinematics, dynamics, anm, deform, contact, startup, scale, study)\n", pos[0].c_str());
  return 2;
}

}  // namespace mechsim::cli
