#pragma once
// core/io/subprocess.h — runs a program with a time limit and a bound on what it prints, and says
// how it ended. Used to read untrusted files in a separate process (mesh.h), so that a library
// fault on a hostile file — a crash, an endless loop, runaway output — ends that process and not
// the program the user is working in.
#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

namespace mechsim::io {

struct SubprocessResult {
  bool started = false;       // false: the program could not be run (startError says why)
  std::string startError;
  std::string out, err;       // what it wrote to stdout and stderr (each cut at its bound)
  int exitCode = -1;          // its exit status when it exited
  int signal = 0;             // the signal that ended it, when one did (SIGKILL after a time-out)
  bool timedOut = false;      // it ran past the time limit and was killed
  bool outputTooLarge = false;  // it wrote more than maxOut to stdout and was killed
  bool cancelled = false;     // *cancel turned true and it was killed
};

/// Runs argv[0] (a path; no PATH search) with the arguments argv[1...], this process's environment,
/// stdin from /dev/null. Collects its stdout (at most maxOut bytes) and stderr (at most maxErr;
/// the rest is read and dropped) until it exits, or kills it (SIGKILL) once timeoutSeconds have
/// passed, stdout outgrows maxOut, or *cancel (when given) turns true (looked at every 20 ms).
/// Never throws for anything the program does; safe to call from any thread (posix_spawn; the
/// pipes are close-on-exec in this process).
SubprocessResult runSubprocess(const std::vector<std::string>& argv, double timeoutSeconds, std::size_t maxOut,
                               std::size_t maxErr = 64 * 1024, const std::atomic<bool>* cancel = nullptr);

/// One line on how a program that did not exit with status 0 ended: "crashed (signal 11,
/// Segmentation fault)", "was stopped after 10 s", "was cancelled", "exited with status 3", ...
std::string describeEnd(const SubprocessResult& r, double timeoutSeconds);

}  // namespace mechsim::io
