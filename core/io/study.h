#pragma once
// core/io/study.h — parameter studies (docs/studies.md; the study file: docs/format.md, "Study
// files"): a mechanism, what to vary (its parameters or spec paths, as grids, lists or seeded
// random draws), the analysis each run makes, and the outputs reduced from each run's table. A
// StudyPlan is the whole design, run by run: `mechsim-cli study` runs it on threads, the Python
// package on threads or on a Dask cluster (mechsim.study), each run computed by StudyPlan::run, so
// that a run's outputs do not depend on where it ran. StudyTable is the results file every runner
// appends to and resumes from.
#include <cstdint>
#include <map>
#include <memory>
#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/io/runs.h"
#include "core/spec.h"

namespace mechsim::io {

/// One thing a study varies: a parameter of the file ("parameters", its file units) or a spec path
/// (core/spec_path.h, SI), and how.
struct StudyVariable {
  std::string name;        // the parameter's name or the path, as the results table's column
  bool isParameter = true;
  enum class Kind { Grid, List, Uniform, Normal } kind = Kind::Grid;
  std::vector<double> values;  // Grid, List
  double lo = 0, hi = 0;       // Uniform
  double mean = 0, sd = 0;     // Normal
};

/// One output: a reduction of a table column or of a point's path.
struct StudyOutput {
  std::string name;    // the results table's column
  std::string column;  // a column of the run's table ("" for a path)
  enum class Reduce { Min, Max, Rms, Mean, Final, ValueAt, MaxDeviation } reduce = Reduce::Max;
  double at = 0;       // ValueAt: t [s] (linear between rows)
  // MaxDeviation: the largest distance [m] of the point from where the nominal run has it at the
  // same output time: a handle, or a body and a point in its frame.
  std::string handle, body;
  Vec3 local = Vec3::Zero();
};

/// A run's row of the results table.
struct StudyRow {
  long run = 0;
  std::vector<double> values;   // (variables)
  std::vector<double> outputs;  // (outputs); empty when the run failed
  bool ok = false;
  std::string error;            // why it failed
};

class StudyPlan {
 public:
  /// Reads a study file. Throws LoadError (FILE:LINE:COL) for a bad study file, and for a
  /// mechanism file that does not read (checked once here).
  explicit StudyPlan(const std::string& path);

  const std::string& path() const { return path_; }
  const std::string& mechanism() const { return mechanism_; }
  const std::string& analysis() const { return analysis_; }  // "kinematics", "simulate" or "deform"
  const std::vector<StudyVariable>& variables() const { return variables_; }
  const std::vector<StudyOutput>& outputs() const { return outputs_; }
  long runs() const { return runs_; }
  std::uint64_t seed() const { return seed_; }
  /// The results table's header: run, the variables, the outputs, status, error.
  std::vector<std::string> columns() const;

  /// The variables' values of run i (0 ≤ i < runs()): grids in order (the last fastest), then the
  /// lists' index, then the random draw; draws from a generator seeded by (seed, i) alone.
  std::vector<double> values(long i) const;
  /// Runs run i: the mechanism read with its values, compiled, the analysis run, the outputs
  /// reduced. A run that fails (does not assemble, diverges, a bad value) is a row with ok false
  /// and the error; `stop` (Ctrl-C, a cancelled study) gives a row with error "interrupted",
  /// which a runner does not record. Safe to call from several threads at once.
  StudyRow run(long i, const RunStop& stop = {}) const;

  /// The nominal run's point paths (the mechanism as the file has it), computed once, for the
  /// MaxDeviation outputs. Throws std::runtime_error when the nominal run fails.
  const std::vector<std::vector<Vec3>>& nominalPaths() const;

 private:
  RunResult analyse(const std::map<std::string, double>& parameters,
                    const std::vector<std::pair<std::string, double>>& paths, const RunStop& stop) const;
  std::vector<std::vector<Vec3>> pointPaths(const RunResult& r) const;

  std::string path_, mechanism_, analysis_;
  double tEnd_ = 0;
  std::optional<double> dt_;
  DeformSettings deform_;
  std::vector<StudyVariable> variables_;
  std::vector<StudyOutput> outputs_;
  long runs_ = 0, grid_ = 1, list_ = 1, draws_ = 1;
  std::uint64_t seed_ = 1;
  mutable std::once_flag nominalOnce_;
  mutable std::vector<std::vector<Vec3>> nominal_;
  mutable std::string nominalError_;
};

/// The results file: a CSV with StudyPlan::columns() as its header and one row per finished run,
/// appended (and flushed) as each run finishes, so that a study killed at any moment loses no
/// finished run; reopened with `resume`, the runs in it are not run again (a last line cut short
/// by the kill is dropped), and no run is written twice. finish() rewrites it sorted by run.
class StudyTable {
 public:
  /// Opens `path` for `plan`. Without resume an existing file is an error unless `overwrite`;
  /// with resume its header must be the plan's. Throws std::runtime_error.
  StudyTable(const std::string& path, const StudyPlan& plan, bool resume, bool overwrite = false);
  ~StudyTable();
  StudyTable(const StudyTable&) = delete;
  StudyTable& operator=(const StudyTable&) = delete;

  /// Whether run i is in the table.
  bool done(long i) const;
  long doneCount() const;
  /// Appends a finished run (thread-safe). A run already in the table is not written again.
  void append(const StudyRow& row);
  /// The table sorted by run, written atomically (when every run is in it, or at any time).
  void finish();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::vector<std::string> header_;
  std::vector<char> done_;
  std::map<long, std::string> lines_;  // run → its line, for finish()
  long doneCount_ = 0;
  int fd_ = -1;
  mutable std::mutex mutex_;
};

/// The runs of `plan` not yet in `table`, on `jobs` threads (started by the constructor), each
/// appended as it finishes: the runner of `mechsim-cli study` and of File → Run Study…. stop()
/// asks the threads to end: the runs under way are interrupted and not recorded (a resumed study
/// runs them). A table write that fails stops every thread; error() says why.
class StudyRunner {
 public:
  StudyRunner(const StudyPlan& plan, StudyTable& table, int jobs);
  ~StudyRunner();  // stop() and join()
  StudyRunner(const StudyRunner&) = delete;
  StudyRunner& operator=(const StudyRunner&) = delete;

  void stop() { stop_ = true; }
  /// Every thread has ended (all runs done, stopped, or a write failed).
  bool finished() const { return alive_ == 0; }
  void join();
  /// Runs that failed (recorded with status "failed") since the start.
  long failed() const { return failed_; }
  /// Why a table write failed ("" when none did); read after join().
  const std::string& error() const { return error_; }

 private:
  void work();
  const StudyPlan& plan_;
  StudyTable& table_;
  std::vector<std::thread> threads_;
  std::atomic<long> next_{0}, failed_{0};
  std::atomic<bool> stop_{false};
  std::atomic<int> alive_{0};
  std::string error_;
  std::mutex errorMutex_;
};

/// A row as the table writes it (numbers with 17 significant digits; a failed run's `outputs`
/// columns empty, its error quoted as CSV).
std::string studyRowText(const StudyRow& row, std::size_t outputs);

}  // namespace mechsim::io
