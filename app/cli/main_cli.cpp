// app/cli/main_cli.cpp — mechsim-cli: the core, headless (FORMAT.md §2).
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <utility>

#include "cli/commands.h"
#include "core/io/engine.h"
#include "core/io/load.h"
#include "core/io/pose_limits.h"
#include "core/io/write.h"

namespace {

void usage(std::FILE* to) {
  std::fprintf(to,
               "usage: mechsim-cli COMMAND [ARGS]          (mechsim-cli COMMAND --help: that command's options)\n"
               "\n"
               "commands:\n"
               "  check FILE [--json] [--floating-base]             load and analyse a mechanism (a URDF's root free)\n"
               "  kinematics FILE --t-end T --dt H --out OUT.csv    kinematic analysis driven by the file's drivers\n"
               "  simulate FILE --t-end T --dt H --out OUT.csv      forward dynamics (reactions and energy columns)\n"
               "  deform FILE --t-end T --dt H --out OUT.csv        kinematic run with deformable parts (--method M, --vtk DIR)\n"
               "  bench NAME [--csv]                                benchmark programs (kinematics, dynamics, anm, deform, contact, scale)\n"
               "  info                                              version, build options, compute devices\n"
               "\n"
               "exit status: 0 success, 1 file error, 2 usage error or solver failure\n");
}

bool isHelp(const std::string& a) { return a == "--help" || a == "-h"; }

}  // namespace

int main(int argc, char** argv) {
  using namespace mechsim::cli;
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const std::string cmd = argv[1];
  Args args(argv + 2, argv + argc);
  try {
    // `COMMAND --help` (anywhere among its arguments) and `help COMMAND`: that command's usage, exit 0.
    const bool helpCmd = cmd == "help" || isHelp(cmd);
    const std::string about = helpCmd ? (args.empty() ? "" : args[0]) : cmd;
    if (helpCmd || std::any_of(args.begin(), args.end(), isHelp)) {
      if (about.empty()) {
        usage(stdout);
        return 0;
      }
      if (const char* u = commandUsage(about)) {
        std::printf("usage: %s\n", u);
        return 0;
      }
    }
    if (cmd == "check") return cmdCheck(args);
    if (cmd == "kinematics") return cmdKinematics(args);
    if (cmd == "bench") return cmdBench(args);
    if (cmd == "info") return cmdInfo(args);
    if (cmd == "simulate") return cmdSimulate(args);
    if (cmd == "deform") return cmdDeform(args);
    if (cmd == "study") return cmdStudy(args);
    std::fprintf(stderr, "mechsim-cli: unknown command '%s'\n", about.c_str());
    usage(stderr);
    return 2;
  } catch (const std::exception& e) {
    // Last line of defence: no exception escapes as a crash.
    std::fprintf(stderr, "mechsim-cli: error: %s\n", e.what());
    return 2;
  }
}

namespace mechsim::cli {

const char* commandUsage(const std::string& command) {
  static const std::pair<const char*, const char*> table[] = {
      {"check", "mechsim-cli check FILE [--json] [--floating-base]   (--floating-base: a URDF's root link free, 6 DOF)"},
      {"kinematics", "mechsim-cli kinematics FILE --t-end T --dt H --out OUT.csv [--floating-base]"},
      {"simulate", "mechsim-cli simulate FILE --t-end T [--dt H] --out OUT.csv [--floating-base]"},
      {"deform",
       "mechsim-cli deform FILE --t-end T --dt H --out OUT.csv [--method newton|vbd|jacobi|jgs2-jacobi|jgs2-gs] "
       "[--step-control none|line-search|subspace] [--modes 64..1024] [--backend auto|cpu|cuda] "
       "[--vtk DIR [--vtk-every N]] [--cache DIR|off] [--floating-base]"},
      {"bench", "mechsim-cli bench kinematics|dynamics|anm|deform|contact|startup|scale|study [--csv] [--quick] [--gpu] [--large[=98k|1m|strap]] [--modes[=12k|98k|1m]] [--write=DIR]   (--quick: deform, "
                "contact and scale only, a shorter run; --gpu: deform only, the CUDA backend against its CPU twin; --large: "
                "deform only, the 98k- and 1M-tet cases alone, or one of them; =strap: the 123k-tet thin strap, "
                "JGS2 with the selected inverse against the solves; --modes: deform only, JGS2's rest modes by block "
                "Krylov-Schur against Spectra's Lanczos; scale --write=DIR: write the generated chains and ladders as files)"},
      {"study", "mechsim-cli study FILE --out RESULTS.csv [--jobs N] [--resume | --force] [--scheduler tcp://HOST:PORT] [--quiet]"},
      {"info", "mechsim-cli info"},
  };
  for (const auto& [name, text] : table)
    if (command == name) return text;
  return nullptr;
}

bool hasFlag(const Args& args, const std::string& flag) {
  for (const auto& a : args)
    if (a == flag) return true;
  return false;
}

std::string optionValue(const Args& args, const std::string& name, bool* missing) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == name) {
      if (i + 1 < args.size()) return args[i + 1];
      if (missing) *missing = true;
      return {};
    }
    const std::string prefix = name + "=";
    if (args[i].rfind(prefix, 0) == 0) return args[i].substr(prefix.size());
  }
  return {};
}

std::vector<std::string> positionals(const Args& args, const std::vector<std::string>& optionsWithValue) {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) == 0) {
      for (const auto& o : optionsWithValue)
        if (a == o) {
          ++i;  // skip its value
          break;
        }
      continue;
    }
    out.push_back(a);
  }
  return out;
}

bool loadModelOrReport(const std::string& path, Model& model) {
  try {
    model = io::loadModel(path);
    return true;
  } catch (const io::LoadError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return false;
  }
}

bool loadEngineOrReport(const std::string& path, const sim::Options& options, sim::Model& model,
                        const io::ImportOptions& import) {
  try {
    auto spec = std::make_shared<const MechanismSpec>(io::readMechanismFile(path, import));
    for (const std::string& w : spec->warnings) std::cerr << w << '\n';
    const std::shared_ptr<const MechanismSpec> read = spec;
    model = io::compileEngine(std::move(spec), options);
    // A starting pose outside a joint's limits (core/io/pose_limits.h).
    if (model.file)
      for (const std::string& w : io::poseLimitWarnings(*read, *model.file)) std::cerr << w << '\n';
    return true;
  } catch (const io::LoadError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return false;
  }
}

int writeRun(const char* command, const std::string& out, const io::RunResult& r) {
  for (const std::string& w : r.warnings) std::fprintf(stderr, "mechsim-cli: %s: %s\n", command, w.c_str());
  try {
    const bool json = out.size() >= 5 && out.compare(out.size() - 5, 5, ".json") == 0;
    io::writeFileAtomically(out, json ? r.json() : r.csv());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mechsim-cli: %s: cannot write '%s': %s\n", command, out.c_str(), e.what());
    return 2;
  }
  std::printf("%s\n", r.summary.c_str());
  if (r.failure.empty()) return 0;
  if (r.textColumn >= 0)  // deform: the rows up to the failed step, whose row says converged 0
    std::fprintf(stderr, "mechsim-cli: %s: %s; wrote the rows up to it to %s\n", command, r.failure.c_str(), out.c_str());
  else
    std::fprintf(stderr, "mechsim-cli: %s: %s; wrote the %ld rows before it to %s\n", command, r.failure.c_str(),
                 r.rows(), out.c_str());
  return 2;
}

int runAndWrite(const char* command, const RunArgs& args, double tEnd, double dt, bool dtGiven,
                const sim::Options& options, const std::function<io::RunResult(const sim::Model&)>& run) {
  io::RunResult r;
  try {
    if (dtGiven || dt > 0) io::runSteps(command, tEnd, dt);
    else if (!(tEnd >= 0)) io::runSteps(command, tEnd, 1);  // the message for a negative --t-end
    sim::Model m;
    if (!loadEngineOrReport(args.file, options, m, args.import)) return 1;
    r = run(m);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mechsim-cli: %s: %s\n", command, e.what());
    return 2;
  }
  return writeRun(command, args.out, r);
}

bool parseNumber(const std::string& s, const std::string& what, double& out) {
  try {
    size_t used = 0;
    out = std::stod(s, &used);
    if (used == s.size() && std::isfinite(out)) return true;
  } catch (const std::exception&) {
  }
  std::fprintf(stderr, "mechsim-cli: %s: expected a number, got '%s'\n", what.c_str(), s.c_str());
  return false;
}

bool parseRunArgs(const Args& args, const char* command, bool dtRequired, const char* usage, RunArgs& out) {
  const std::vector<std::string> valued = {"--t-end", "--dt", "--out"};
  for (const auto& a : args) {
    if (a.rfind("--", 0) != 0) continue;
    const std::string name = a.substr(0, a.find('='));
    if (a == "--floating-base") continue;
    if (std::find(valued.begin(), valued.end(), name) == valued.end()) {
      std::fprintf(stderr, "mechsim-cli: %s: unknown option '%s'\n", command, a.c_str());
      return false;
    }
  }
  const auto pos = positionals(args, valued);
  bool missing = false;
  out.tEnd = optionValue(args, "--t-end", &missing);
  out.dt = optionValue(args, "--dt", &missing);
  out.out = optionValue(args, "--out", &missing);
  out.file = pos.size() == 1 ? pos[0] : "";
  out.import.floatingBase = hasFlag(args, "--floating-base");
  if (pos.size() != 1 || missing || out.tEnd.empty() || out.out.empty() || (dtRequired && out.dt.empty())) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return false;
  }
  return true;
}

}  // namespace mechsim::cli
