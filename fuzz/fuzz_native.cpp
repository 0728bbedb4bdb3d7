// fuzz/fuzz_native.cpp — the native mechanism format (core/io/load.h) on arbitrary bytes.
//
// Checked on every input, beyond "no crash, no sanitizer report, no hang":
//   * the reader either returns a spec or throws LoadError (never another exception);
//   * a spec it accepts compiles or is refused with LoadError;
//   * the writer's text of an accepted spec reads back, and writing that again gives the same
//     text (write.h: "writing then reading back reproduces the spec").
// Relative mesh paths resolve in MECHSIM_FUZZ_BASE_DIR (scripts/fuzz.sh points it at
// tests/data/meshes; the ctest replay at each file's own folder), so that mesh and tet-mesh
// references can name real files.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/io/load.h"
#include "core/io/write.h"

namespace {

std::string baseDir() {
  const char* d = std::getenv("MECHSIM_FUZZ_BASE_DIR");
  return d ? d : ".";
}

[[noreturn]] void failure(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_native: %s\n%s\n", what, detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mechsim;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string base = baseDir();
  MechanismSpec spec;
  try {
    spec = io::parseMechanism(text, "fuzz.json", base);
  } catch (const io::LoadError&) {
    return 0;
  }
  try {
    (void)io::compileSpec(spec);
  } catch (const io::LoadError&) {
  }
  const std::string written = io::writeMechanism(spec);
  MechanismSpec again;
  try {
    again = io::parseMechanism(written, "written.json", base);
  } catch (const io::LoadError& e) {
    failure("the written text of an accepted spec does not read back", std::string(e.what()) + "\n" + written);
  }
  const std::string rewritten = io::writeMechanism(again);
  if (rewritten != written) failure("writing the read-back spec changes the text", written + "\n----\n" + rewritten);
  return 0;
}
