// bench/bench_startup.cpp — `mechsim-cli bench startup`: what a short command costs beyond its work.
// A run of `mechsim-cli check FILE` as a new process (fork + exec, the dynamic loader, the
// libraries' initialisers, reading and compiling the file, the mobility analysis, printing),
// timed from the parent, beside the same work done in-process (read, compile, mobility analysis)
// and beside a process that does nothing (`mechsim-cli help`): the difference is what loading
// the program costs. Median of 15 runs after one warm-up each (the machine is shared: ratios, not
// absolute times). The parameter studies start a process per run, so this is their overhead.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "bench/bench.h"
#include "core/data.h"
#include "core/io/load.h"
#include "core/kinematics/kinematics.h"

extern char** environ;

namespace mechsim::bench {
namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Wall time of running `args` as a process with its output thrown away; < 0 when it failed.
double runProcess(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  const auto t0 = Clock::now();
  pid_t pid = 0;
  const int err = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

int runStartup(std::ostream& out, bool csv, const std::string& sourceDir, const std::string& self) {
  const std::string file = sourceDir + "/mechanisms/fourbar.json";
  constexpr int kRuns = 15;
  std::vector<double> check, help, work;
  for (int k = 0; k <= kRuns; ++k) {
    const double c = runProcess({self, "check", file});
    const double v = runProcess({self, "help"});
    if (c < 0 || v < 0) {
      out << "bench startup: '" << self << " check " << file << "' did not run\n";
      return 2;
    }
    // The check's own work in this process: read, compile, assemble, mobility analysis.
    const auto t0 = Clock::now();
    const Model m = io::loadModel(file);
    Data d = makeData(m);
    const MobilityReport r = analyseMobility(m, d);
    const double w = std::chrono::duration<double>(Clock::now() - t0).count();
    if (r.dof != 1) return 2;
    if (k == 0) continue;  // warm-up: the files in the page cache
    check.push_back(c), help.push_back(v), work.push_back(w);
  }
  const double c = median(check), v = median(help), w = median(work);
  if (csv) {
    out << "case,process_check_ms,process_help_ms,in_process_check_ms,loading_ms\n";
    out << "fourbar," << 1e3 * c << ',' << 1e3 * v << ',' << 1e3 * w << ',' << 1e3 * (c - w) << '\n';
    return 0;
  }
  char line[256];
  out << "start-up of `mechsim-cli check` on the four-bar (median of " << kRuns << " runs)\n";
  std::snprintf(line, sizeof line, "  check as a process            %8.1f ms\n", 1e3 * c);
  out << line;
  std::snprintf(line, sizeof line, "  help as a process             %8.1f ms   (start-up alone)\n", 1e3 * v);
  out << line;
  std::snprintf(line, sizeof line, "  the check's work in-process   %8.2f ms   (read, compile, mobility)\n", 1e3 * w);
  out << line;
  std::snprintf(line, sizeof line, "  start-up / work               %8.1f x\n", (c - w) / w);
  out << line;
  std::snprintf(line, sizeof line, "  goal: check under 60 ms       %s\n", c < 0.060 ? "met" : "NOT met");
  out << line;
  return 0;
}

}  // namespace mechsim::bench
