// app/mesh_reader_main.cpp — mechsim-mesh-reader -- FILE: reads one mesh file through Assimp
// (core/io/mesh.h, loadMeshFileInProcess) and writes the mesh to stdout (core/io/mesh_wire.h).
// Exit status 0: the mesh; 65 (kHelperRefused): a one-line error on stderr; 2: usage. Every
// program of this project that loads a mesh file runs this one to do it (loadMeshFile), so that a
// crash or an endless loop inside the importer ends this process only.
//
// Its address space is limited to 4 GiB + 64 bytes per byte of the file, and never more than the
// machine's memory (not under AddressSanitizer, which reserves terabytes): a file that makes the
// importer allocate without end is refused with a message instead of taking the machine's memory.
// Files read well within that: a binary STL of 10^7 triangles (500 MB) needs 1.8 GB, 2.2 GB when
// no two of its triangles share a corner (docs/format.md, "Limits").
//
// MECHSIM_MESH_READER_FAULT=crash|hang|flood|garbage|hog makes it fail on purpose, after reading
// the file, so that the tests can check how the program that runs it copes (tests/io/test_mesh.cpp).
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define MECHSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MECHSIM_ASAN 1
#endif
#endif

#include "core/io/mesh.h"
#include "core/io/mesh_wire.h"
#include "core/io/subprocess.h"  // kHelperRefused

namespace {

bool writeAll(const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(1, bytes.data() + done, bytes.size() - done);
    if (n < 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || std::strcmp(argv[1], "--") != 0) {
    std::fprintf(stderr, "usage: mechsim-mesh-reader -- FILE\n");
    return 2;
  }
  const std::string path = argv[2];
  double limitGiB = 0;
  const char* limitWhy = "for a file of its size";
#ifndef MECHSIM_ASAN
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && st.st_size >= 0) {
    rlim_t limit = (rlim_t(4) << 30) + 64 * rlim_t(st.st_size);
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0 && rlim_t(pages) * rlim_t(pageSize) < limit) {
      limit = rlim_t(pages) * rlim_t(pageSize);
      limitWhy = "(all of this machine's memory)";
    }
    rlimit rl{};
    rl.rlim_cur = rl.rlim_max = limit;
    if (::setrlimit(RLIMIT_AS, &rl) != 0 && ::getrlimit(RLIMIT_AS, &rl) == 0) limitWhy = "by this process's limit (ulimit -v)";
    if (rl.rlim_cur != RLIM_INFINITY) limitGiB = double(rl.rlim_cur) / (1 << 30);
  }
#endif
  const char* fault = std::getenv("MECHSIM_MESH_READER_FAULT");
  const std::string f = fault ? fault : "";
  std::string wire;
  try {
    wire = mechsim::io::encodeMeshWire(*mechsim::io::loadMeshFileInProcess(path));
    if (f == "hog") {  // allocate without end, as a runaway importer would (address space only)
      std::vector<std::unique_ptr<char[]>> held;
      for (;;) {
        held.emplace_back(new char[64 << 20]);
        *static_cast<volatile char*>(held.back().get()) = 1;
      }
    }
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "cannot read mesh file %s: reading it needs more memory than the %.1f GiB allowed %s; the file "
                 "is corrupt, or too large for this machine\n", path.c_str(), limitGiB, limitWhy);
    return mechsim::io::kHelperRefused;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return mechsim::io::kHelperRefused;
  }
  if (!f.empty()) {
    // A crash as the kernel delivers it, whatever the build: the default action of SIGSEGV (under
    // AddressSanitizer its handler would report and exit, or abort, instead).
    if (f == "crash") {
      ::signal(SIGSEGV, SIG_DFL);
      ::raise(SIGSEGV);
    }
    if (f == "hang")
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    if (f == "flood")
      for (;;)
        if (!writeAll(wire)) return 3;
    if (f == "garbage") wire[wire.size() / 2] ^= 0x5a, wire.resize(wire.size() - 1);
  }
  return writeAll(wire) ? 0 : 3;
}
