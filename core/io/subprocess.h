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

/// A helper program's exit status when it refuses its input; its stderr then holds the whole
/// one-line message. (EX_DATAERR of sysexits.h: not 1, which crashes report under the sanitizers.)
constexpr int kHelperRefused = 65;

/// How a helper program's run ended, for its caller's error message.
struct HelperEnd {
  bool answered = false;  // its stdout holds its answer (exit status 0, or unknown with output)
  bool whole = false;     // text is the helper's own whole message (its refusal)
  std::string text;       // else the reason, to follow "cannot read FILE: "
};

/// `role` names the helper in messages ("the mesh reader"), `program` is its path, `tooLong` says
/// what a run past the limit means ("the file is corrupt, or too large to read in that time"),
/// `timeoutEnv` names the variable that sets the limit.
HelperEnd helperEnd(const SubprocessResult& r, const std::string& role, const std::string& program,
                    double timeoutSeconds, const std::string& tooLong, const char* timeoutEnv);

/// A time limit in seconds from the environment variable `name`, else `fallback`.
double timeoutFromEnv(const char* name, double fallback);

/// One of this project's helper programs (mechsim-mesh-reader, mechsim-surface-mesher): $envVar
/// when set ("off": none), else `name` beside the running program, else in the folder
/// setHelperDirectory named, else in the build tree's app/ folder (tests, fuzz replays) when it is
/// there; "" when there is none.
std::string findHelperProgram(const char* name, const char* envVar);
/// Where a program that is not installed beside the helpers finds them (the Python module, whose
/// program is python3: the installed bin/ folder). Call before any file is read.
void setHelperDirectory(std::string dir);

/// One line on how a program that did not exit with status 0 ended: "crashed (signal 11,
/// Segmentation fault)", "was stopped after 10 s", "was cancelled", "exited with status 3", ...
std::string describeEnd(const SubprocessResult& r, double timeoutSeconds);

}  // namespace mechsim::io
