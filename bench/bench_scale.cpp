// bench/bench_scale.cpp — `mechsim-cli bench scale [--csv] [--quick]`: cost against size.
//
// Generated mechanisms (reference/scale/large_mechanisms.h) of N = 100, 300, 1 000, 3 000 and
// 10 000 moving bodies (--quick: up to 1 000):
//   chain-driven  a spatial serial chain with every joint driven (0 DOF left)
//   chain-free    the same chain without drivers (N DOF): an N-link pendulum
//   ladder        a row of four-bar cells (IFToMM A02 at scale): 3 redundant equations per cell
// Each (mechanism, N) runs in a child process, so that its peak memory is its own: the parent
// writes the file's text, the child times
//   load      parsing the native file (io::parseMechanism)
//   check     compile + the mobility analysis at the file's configuration (`mechsim-cli check`)
//   engine    the engine's model as `kinematics` builds it (DOF analysis, assembly at t = 0)
//   kin/step  one sample of `kinematics` (positions, velocities, accelerations), mean of 10
//   dyn/step  one step of `simulate` (forward dynamics at h = 1 ms), mean of 10
//   peak MB   the child's peak resident memory (getrusage of the child)
// and the growth exponent between successive sizes, log(t₂/t₁) / log(N₂/N₁), is printed beside
// each time: 1 is linear, 2 quadratic. A child past 600 s (--quick: 120 s) is stopped and its row
// says so.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "bench/bench.h"
#include "core/data.h"
#include "core/io/engine.h"
#include "core/io/load.h"
#include "core/io/runs.h"
#include "core/io/write.h"
#include "core/kinematics/kinematics.h"
#include "reference/scale/large_mechanisms.h"

namespace mechsim::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kStages = 5;  // load, check, engine, kin/step, dyn/step
const char* const kStageNames[kStages] = {"load", "check", "engine", "kin/step", "dyn/step"};

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

MechanismSpec generate(const std::string& family, int n) {
  if (family == "ladder") return reference::ladderMechanism((n - 1) / 2);
  return reference::chainMechanism(n, family == "chain-driven");
}

/// The child's work: the stage times in seconds (NaN: not run), or throws.
std::vector<double> measure(const std::string& family, const std::string& text) {
  std::vector<double> t(kStages, std::nan(""));
  auto t0 = Clock::now();
  const auto spec = std::make_shared<const MechanismSpec>(io::parseMechanism(text, family + ".json", "."));
  t[0] = since(t0);

  t0 = Clock::now();
  const Model model = io::compileSpec(*spec);
  Data data = makeData(model);
  const MobilityReport r = analyseMobility(model, data);
  t[1] = since(t0);
  (void)r;

  if (family != "chain-free") {  // 10 000 sliders of a free chain are not a kinematics run
    t0 = Clock::now();
    const sim::Model engine = io::compileEngine(spec, io::kinematicsOptions());
    t[2] = since(t0);
    io::runKinematics(engine, 0.0, 0.001);  // the first sample (assembled start): not timed
    t0 = Clock::now();
    const io::RunResult run = io::runKinematics(engine, 0.01, 0.001);
    if (!run.failure.empty()) throw std::runtime_error("kinematics: " + run.failure);
    t[3] = since(t0) / 10.0;  // 11 samples at 1 ms, the first as above: ≈ 10 solved samples
  }
  if (family != "chain-driven") {  // a chain with every joint driven has no dynamics to speak of
    const sim::Model engine = io::compileEngine(spec, io::simulateOptions());
    t0 = Clock::now();
    const io::RunResult run = io::runSimulate(engine, 0.01, 0.001);
    if (!run.failure.empty()) throw std::runtime_error("dynamics: " + run.failure);
    t[4] = since(t0) / 10.0;
  }
  return t;
}

struct Row {
  std::string family;
  int n = 0;
  std::vector<double> t;
  double peakMB = 0;
  std::string failure;
};

Row runChild(const std::string& family, int n, int limitSeconds) {
  Row row{family, n, std::vector<double>(kStages, std::nan("")), 0, ""};
  const std::string text = io::writeMechanism(generate(family, n));
  int fd[2];
  if (pipe(fd) != 0) {
    row.failure = "pipe failed";
    return row;
  }
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    alarm(static_cast<unsigned>(limitSeconds));
    std::string line;
    try {
      for (double v : measure(family, text)) line += std::to_string(v) + " ";
    } catch (const std::exception& e) {
      line = std::string("! ") + e.what();
    }
    line += "\n";
    (void)!write(fd[1], line.data(), line.size());
    _exit(0);
  }
  close(fd[1]);
  std::string got;
  char buf[4096];
  for (ssize_t k; (k = read(fd[0], buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(k));
  close(fd[0]);
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  row.peakMB = ru.ru_maxrss / 1024.0;
  if (WIFSIGNALED(status)) {
    row.failure = WTERMSIG(status) == SIGALRM ? "stopped after " + std::to_string(limitSeconds) + " s"
                                              : "killed by signal " + std::to_string(WTERMSIG(status));
  } else if (got.rfind("!", 0) == 0) {
    row.failure = got.substr(2, got.size() - 3);
  } else {
    std::size_t pos = 0;
    for (int s = 0; s < kStages; ++s) {
      std::size_t used = 0;
      try {
        row.t[s] = std::stod(got.substr(pos), &used);
      } catch (const std::exception&) {
        break;
      }
      pos += used;
    }
  }
  return row;
}

/// log(t₂/t₁) / log(n₂/n₁), or NaN.
double exponent(double t1, double t2, int n1, int n2) {
  if (!(t1 > 0) || !(t2 > 0)) return std::nan("");
  return std::log(t2 / t1) / std::log(static_cast<double>(n2) / n1);
}

std::string cell(double seconds) {
  if (std::isnan(seconds)) return "—";
  char b[32];
  std::snprintf(b, sizeof b, "%.3g ms", seconds * 1e3);
  return b;
}

std::string growth(double e) {
  if (std::isnan(e)) return "";
  char b[16];
  std::snprintf(b, sizeof b, "(^%.2f)", e);
  return b;
}

}  // namespace

int runScale(std::ostream& out, bool csv, bool quick, const std::string& writeDir) {
  const std::vector<int> sizes = quick ? std::vector<int>{100, 300, 1000} : std::vector<int>{100, 300, 1000, 3000, 10000};
  const std::vector<std::string> families{"chain-driven", "chain-free", "ladder"};
  if (!writeDir.empty()) {  // the mechanisms as files, for the GUI and the other commands
    for (const std::string& family : families)
      for (int n : sizes) {
        const std::string path = writeDir + "/" + family + "-" + std::to_string(n) + ".json";
        io::writeMechanismFile(generate(family, n), path);
        out << path << "\n";
      }
    return 0;
  }
  if (csv) out << "mechanism,bodies,load_s,check_s,engine_s,kin_step_s,dyn_step_s,peak_mb,failure\n";
  else {
    out << "Cost against size (moving bodies N), each in its own process; (^e): growth exponent from the\n"
           "size before, log(t2/t1)/log(N2/N1) — 1 linear, 2 quadratic.\n\n";
    char head[256];
    std::snprintf(head, sizeof head, "%-13s %6s  %-18s %-18s %-18s %-18s %-18s %8s\n", "mechanism", "N", "load", "check",
                  "engine", "kin/step", "dyn/step", "peak MB");
    out << head;
  }
  int status = 0;
  for (const std::string& family : families) {
    Row prev;
    for (int n : sizes) {
      const Row row = runChild(family, n, quick ? 120 : 600);
      if (!row.failure.empty()) status = 1;
      if (csv) {
        out << family << "," << n;
        for (double v : row.t) out << "," << (std::isnan(v) ? std::string() : std::to_string(v));
        out << "," << row.peakMB << ",\"" << row.failure << "\"\n";
      } else {
        char line[512];
        std::string cells[kStages];
        for (int s = 0; s < kStages; ++s)
          cells[s] = cell(row.t[s]) + " " + (prev.n ? growth(exponent(prev.t[s], row.t[s], prev.n, n)) : "");
        std::snprintf(line, sizeof line, "%-13s %6d  %-18s %-18s %-18s %-18s %-18s %8.0f%s%s\n", family.c_str(), n,
                      cells[0].c_str(), cells[1].c_str(), cells[2].c_str(), cells[3].c_str(), cells[4].c_str(), row.peakMB,
                      row.failure.empty() ? "" : "  ", row.failure.c_str());
        out << line;
      }
      out.flush();
      prev = row;
      if (!row.failure.empty()) break;  // larger sizes would only take longer
    }
  }
  return status;
}

}  // namespace mechsim::bench
