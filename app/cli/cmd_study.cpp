// app/cli/cmd_study.cpp — `mechsim-cli study FILE --out results.csv [--jobs N] [--resume | --force]
// [--scheduler tcp://HOST:PORT] [--quiet]`: a parameter study (docs/studies.md; the study file:
// docs/format.md, "Study files").
//
// Locally the runs go to N threads over the engine (default: every core), each run its own
// sim::Model and Data (io::StudyPlan::run), and every finished run is appended to the results
// table at once (io::StudyTable: a kill loses no finished run, `--resume` redoes none). A run that
// fails is a row with status "failed" and its error; the study goes on. Ctrl-C stops handing out
// runs and interrupts those under way (they are not recorded, so `--resume` runs them); exit 130.
// Progress on stderr: a bar (done/total, runs/s, ETA) on a terminal, a plain line every 10 % or
// 10 s otherwise.
//
// `--scheduler ADDRESS` sends the runs to a Dask cluster instead: the command hands the study to
// the Python package (python3 -m mechsim.study, the same StudyPlan on the workers, the same table).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cli/commands.h"
#include "core/io/load.h"
#include "core/io/study.h"

namespace mechsim::cli {

namespace {

std::atomic<bool> gInterrupted{false};
void onInterrupt(int) { gInterrupted = true; }

/// The Python package next to this program: the build tree's python/, or an installed
/// lib/python3*/dist-packages; "" when there is none.
std::string pythonPackageDir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path root = exe.parent_path().parent_path();
  std::vector<fs::path> candidates{root / "python", root / "lib" / "python3" / "dist-packages"};
  for (const auto& e : fs::directory_iterator(root / "lib", ec))
    if (e.path().filename().string().rfind("python3.", 0) == 0) candidates.push_back(e.path() / "dist-packages");
  for (const fs::path& c : candidates)
    if (fs::exists(c / "mechsim" / "__init__.py", ec)) return c.string();
  return {};
}

std::string formatDuration(double s) {
  char b[32];
  if (s < 100) std::snprintf(b, sizeof b, "%.0f s", s);
  else if (s < 6000) std::snprintf(b, sizeof b, "%.0f min", s / 60);
  else std::snprintf(b, sizeof b, "%.1f h", s / 3600);
  return b;
}

}  // namespace

int execPythonPackage(const std::vector<std::string>& args) {
  const std::string dir = pythonPackageDir();
  if (dir.empty()) {
    std::fprintf(stderr, "mechsim-cli: this needs the Python package mechsim (built with MECHSIM_PYTHON, beside "
                         "this program)\n");
    return 2;
  }
  const char* py = std::getenv("MECHSIM_PYTHON");
  const std::string python = py && *py ? py : "/usr/bin/python3";
  const char* old = std::getenv("PYTHONPATH");
  const std::string path = dir + (old && *old ? ":" + std::string(old) : std::string());
  ::setenv("PYTHONPATH", path.c_str(), 1);
  std::vector<std::string> argv{python};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::fflush(nullptr);
  ::execv(python.c_str(), cargv.data());
  std::fprintf(stderr, "mechsim-cli: cannot run %s: %s\n", python.c_str(), std::strerror(errno));
  return 2;
}

int cmdStudy(const Args& args) {
  const char* usage = commandUsage("study");
  const auto pos = positionals(args, {"--out", "--jobs", "--scheduler"});
  for (const auto& a : args)
    if (a.rfind("--", 0) == 0 && a != "--out" && a != "--jobs" && a != "--scheduler" && a != "--resume" &&
        a != "--force" && a != "--quiet") {
      std::fprintf(stderr, "mechsim-cli: study: unknown option '%s'\n", a.c_str());
      return 2;
    }
  bool missing = false;
  const std::string out = optionValue(args, "--out", &missing);
  const std::string jobsS = optionValue(args, "--jobs", &missing);
  const std::string scheduler = optionValue(args, "--scheduler", &missing);
  if (pos.size() != 1 || out.empty() || missing) {
    std::fprintf(stderr, "usage: %s\n", usage);
    return 2;
  }
  const bool resume = hasFlag(args, "--resume"), force = hasFlag(args, "--force"), quiet = hasFlag(args, "--quiet");
  if (resume && force) {
    std::fprintf(stderr, "mechsim-cli: study: --resume and --force exclude each other\n");
    return 2;
  }
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (!jobsS.empty()) {
    double j = 0;
    if (!parseNumber(jobsS, "--jobs", j)) return 2;
    if (j < 1 || j > 1024 || j != static_cast<int>(j)) {
      std::fprintf(stderr, "mechsim-cli: study: --jobs: expected an integer from 1 to 1024, got '%s'\n", jobsS.c_str());
      return 2;
    }
    jobs = static_cast<int>(j);
  }

  if (!scheduler.empty()) {
    // The cluster: the Python package's runner (the same StudyPlan on the workers, the same table).
    std::vector<std::string> argv{"-m", "mechsim.study", pos[0], "--out", out, "--scheduler", scheduler};
    if (resume) argv.push_back("--resume");
    if (force) argv.push_back("--force");
    if (quiet) argv.push_back("--quiet");
    return execPythonPackage(argv);
  }

  std::unique_ptr<io::StudyPlan> plan;
  std::unique_ptr<io::StudyTable> table;
  try {
    plan = std::make_unique<io::StudyPlan>(pos[0]);
    table = std::make_unique<io::StudyTable>(out, *plan, resume, force);
  } catch (const io::LoadError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mechsim-cli: study: %s\n", e.what());
    return 2;
  }
  const long total = plan->runs();
  const long before = table->doneCount();
  if (resume && before > 0 && !quiet)
    std::fprintf(stderr, "study: %ld of %ld runs already in %s\n", before, total, out.c_str());

  gInterrupted = false;
  struct sigaction sa {}, oldInt {}, oldTerm {};
  sa.sa_handler = onInterrupt;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, &oldInt);
  ::sigaction(SIGTERM, &sa, &oldTerm);

  const auto t0 = std::chrono::steady_clock::now();
  io::StudyRunner runner(*plan, *table, jobs);

  // Progress, from this thread, until the workers are done.
  const bool tty = ::isatty(2);
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  long lastReported = before;
  double lastTime = 0;
  auto report = [&](bool final) {
    const long done = table->doneCount();
    const double t = elapsed();
    const double rate = t > 0 ? (done - before) / t : 0;
    const double eta = rate > 0 ? (total - done) / rate : 0;
    if (quiet) return;
    if (tty) {
      const int width = 30;
      const int filled = total ? static_cast<int>(double(done) / total * width) : width;
      std::fprintf(stderr, "\r[%s%s] %ld/%ld runs  %.1f runs/s  ETA %s   ", std::string(filled, '#').c_str(),
                   std::string(width - filled, '.').c_str(), done, total, rate, formatDuration(eta).c_str());
      if (final) std::fprintf(stderr, "\n");
    } else if (final || (done < total && (done - lastReported >= std::max(1L, total / 10) || t - lastTime >= 10))) {
      std::fprintf(stderr, "study: %ld/%ld runs, %.1f runs/s, ETA %s\n", done, total, rate, formatDuration(eta).c_str());
      lastReported = done;
      lastTime = t;
    }
  };
  while (!runner.finished()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (gInterrupted) runner.stop();  // Ctrl-C: the runs under way stop, unrecorded
    report(false);
  }
  runner.join();
  report(true);
  ::sigaction(SIGINT, &oldInt, nullptr);
  ::sigaction(SIGTERM, &oldTerm, nullptr);

  const long done = table->doneCount();
  if (!runner.error().empty()) {
    std::fprintf(stderr, "mechsim-cli: study: %s\n", runner.error().c_str());
    return 2;
  }
  if (done < total) {
    std::fprintf(stderr, "study: interrupted with %ld of %ld runs in %s; `--resume` runs the rest\n", done, total,
                 out.c_str());
    return 130;
  }
  try {
    table->finish();  // sorted by run
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mechsim-cli: study: %s\n", e.what());
    return 2;
  }
  const double t = elapsed();
  std::printf("study: %ld runs (%ld failed) in %.3f s on %d threads, %.1f runs/s, table %s\n", total - before,
              runner.failed(), t, jobs, t > 0 ? (total - before) / t : 0.0, out.c_str());
  return 0;
}

}  // namespace mechsim::cli
