// core/io/subprocess.cpp — runSubprocess: posix_spawn with stdout and stderr on pipes, a poll loop
// that reads both until they close or the time limit passes, then waitpid.
#include "core/io/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <thread>

extern char** environ;

namespace mechsim::io {

namespace {

using Clock = std::chrono::steady_clock;

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

bool executable(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::string& helperDirectory() {
  static std::string dir;
  return dir;
}

}  // namespace

void setHelperDirectory(std::string dir) { helperDirectory() = std::move(dir); }

std::string findHelperProgram(const char* name, const char* envVar) {
  if (const char* env = std::getenv(envVar); env && *env)
    return std::string(env) == "off" ? std::string() : std::string(env);
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const std::string beside = (self.parent_path() / name).string();
    if (executable(beside)) return beside;
  }
  if (!helperDirectory().empty()) {
    const std::string there = helperDirectory() + "/" + name;
    if (executable(there)) return there;
  }
#ifdef MECHSIM_HELPER_BUILD_DIR
  const std::string built = std::string(MECHSIM_HELPER_BUILD_DIR) + "/" + name;
  if (executable(built)) return built;
#endif
  return {};
}

SubprocessResult runSubprocess(const std::vector<std::string>& argv, double timeoutSeconds, std::size_t maxOut,
                               std::size_t maxErr, const std::atomic<bool>* cancel) {
  SubprocessResult r;
  if (argv.empty()) {
    r.startError = "no program named";
    return r;
  }
  int outPipe[2] = {-1, -1}, errPipe[2] = {-1, -1};
  // Close-on-exec here, so that a program another thread starts meanwhile does not hold our pipes
  // open; dup2 onto 1 and 2 in the child clears the flag on the copies it keeps.
  if (::pipe2(outPipe, O_CLOEXEC) != 0 || ::pipe2(errPipe, O_CLOEXEC) != 0) {
    r.startError = std::string("cannot make a pipe: ") + std::strerror(errno);
    for (int* p : {outPipe, errPipe}) {
      closeFd(p[0]);
      closeFd(p[1]);
    }
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
  // The child starts with default signal handling and nothing blocked, whatever this process does
  // (a GUI may ignore SIGPIPE; a blocked SIGTERM would outlive exec).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, argv[0].c_str(), &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  closeFd(outPipe[1]);
  closeFd(errPipe[1]);
  if (spawned != 0) {
    r.startError = std::strerror(spawned);
    closeFd(outPipe[0]);
    closeFd(errPipe[0]);
    return r;
  }
  r.started = true;

  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(std::max(0.0, timeoutSeconds)));
  int fds[2] = {outPipe[0], errPipe[0]};
  std::string* sinks[2] = {&r.out, &r.err};
  const std::size_t bounds[2] = {maxOut, maxErr};
  std::vector<char> buf(1 << 16);
  bool kill = false;
  while (fds[0] >= 0 || fds[1] >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      r.timedOut = kill = true;
      break;
    }
    if (cancel && cancel->load()) {
      r.cancelled = kill = true;
      break;
    }
    pollfd p[2];
    int n = 0, which[2];
    for (int k = 0; k < 2; ++k)
      if (fds[k] >= 0) {
        p[n] = {fds[k], POLLIN, 0};
        which[n++] = k;
      }
    const long long wait = std::min<long long>(left, cancel ? 20 : INT_MAX);
    const int ready = ::poll(p, static_cast<nfds_t>(n), static_cast<int>(wait));
    if (ready < 0 && errno != EINTR) {
      kill = true;  // cannot wait on the pipes: stop it rather than block
      break;
    }
    for (int i = 0; i < n && ready > 0; ++i) {
      if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) continue;
      const int k = which[i];
      const ssize_t got = ::read(fds[k], buf.data(), buf.size());
      if (got > 0) {
        std::string& sink = *sinks[k];
        const std::size_t room = bounds[k] > sink.size() ? bounds[k] - sink.size() : 0;
        sink.append(buf.data(), std::min(room, static_cast<std::size_t>(got)));
        if (k == 0 && static_cast<std::size_t>(got) > room) r.outputTooLarge = kill = true;
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        closeFd(fds[k]);
      }
    }
    if (kill) break;
  }
  closeFd(fds[0]);
  closeFd(fds[1]);
  // Its output is closed: wait for it to exit, within what is left of the time limit.
  int status = 0;
  bool reaped = false;
  for (int pause = 1;;) {
    if (kill) {
      ::kill(pid, SIGKILL);
      reaped = ::waitpid(pid, &status, 0) == pid;
      break;
    }
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      reaped = true;
      break;
    }
    if (w < 0 && errno != EINTR) break;  // ECHILD: reaped elsewhere (SIGCHLD ignored); how it ended is unknown
    if (Clock::now() >= deadline) {
      r.timedOut = kill = true;
      continue;
    }
    if (cancel && cancel->load()) {
      r.cancelled = kill = true;
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(pause));
    pause = std::min(pause * 2, 20);
  }
  if (reaped && WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
  if (reaped && WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

std::string describeEnd(const SubprocessResult& r, double timeoutSeconds) {
  if (!r.started) return "could not be started (" + r.startError + ")";
  if (r.timedOut) {
    std::string s = std::to_string(timeoutSeconds);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return "was stopped after " + s + " s";
  }
  if (r.outputTooLarge) return "wrote more than expected and was stopped";
  if (r.cancelled) return "was cancelled";
  if (r.signal != 0) return "crashed (signal " + std::to_string(r.signal) + ", " + ::strsignal(r.signal) + ")";
  if (r.exitCode >= 0) return "exited with status " + std::to_string(r.exitCode);
  return "ended in an unknown way";
}

namespace {

/// A helper's one-line message: the first line of its stderr, printable, at most 1000 bytes.
std::string firstLine(std::string text) {
  text = text.substr(0, text.find('\n'));
  if (text.size() > 1000) text.resize(1000);
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

}  // namespace

HelperEnd helperEnd(const SubprocessResult& r, const std::string& role, const std::string& program,
                    double timeoutSeconds, const std::string& tooLong, const char* timeoutEnv) {
  HelperEnd end;
  if (r.cancelled) {
    end.text = "cancelled";
    return end;
  }
  const bool exited = r.started && !r.timedOut && !r.outputTooLarge && r.signal == 0;  // on its own, with a status
  // Exit status unknown (-1): reaped elsewhere (a program that ignores SIGCHLD); its answer decides.
  if (exited && (r.exitCode == 0 || (r.exitCode < 0 && !r.out.empty()))) {
    end.answered = true;
    return end;
  }
  const std::string said = firstLine(r.err);
  if (exited && r.exitCode == kHelperRefused && !said.empty()) {
    end.whole = true;
    end.text = said;
    return end;
  }
  // It could not start, or ended some other way on its own (a usage error, a sanitizer's report).
  if (!r.started || (exited && r.exitCode > 0)) {
    end.text = role + " " + program + " " + describeEnd(r, timeoutSeconds) + (said.empty() ? "" : ": " + said);
    return end;
  }
  end.text = role + " " + describeEnd(r, timeoutSeconds) + "; " +
             (r.timedOut ? tooLong + " (" + timeoutEnv + " sets the limit, in seconds)"
                         : std::string("the file is probably corrupt"));
  return end;
}

double timeoutFromEnv(const char* name, double fallback) {
  if (const char* env = std::getenv(name); env && *env) {
    char* end = nullptr;
    const double s = std::strtod(env, &end);
    if (end && *end == '\0' && s > 0 && s < 1e6) return s;
  }
  return fallback;
}

}  // namespace mechsim::io
