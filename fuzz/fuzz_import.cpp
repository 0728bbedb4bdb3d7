// fuzz/fuzz_import.cpp — the URDF, MJCF and SDFormat importers (core/io/import/import.h) on
// arbitrary bytes. The first byte picks the importer (modulo 3), the rest is the file's text.
// Checked beyond "no crash, no sanitizer report, no hang": an importer throws only LoadError, and
// a spec it returns compiles or is refused with LoadError.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/io/import/import.h"
#include "core/io/load.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mechsim;
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const char* base = std::getenv("MECHSIM_FUZZ_BASE_DIR");
  const std::string dir = base ? base : ".";
  MechanismSpec spec;
  try {
    switch (data[0] % 3) {
      case 0: spec = io::parseUrdf(text, "fuzz.urdf", dir); break;
      case 1: spec = io::parseMjcf(text, "fuzz.xml", dir); break;
      default: spec = io::parseSdf(text, "fuzz.sdf", dir); break;
    }
  } catch (const io::LoadError&) {
    return 0;
  }
  try {
    (void)io::compileSpec(spec);
  } catch (const io::LoadError&) {
  }
  return 0;
}
