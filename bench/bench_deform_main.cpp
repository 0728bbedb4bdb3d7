// bench/bench_deform_main.cpp — the deformable-part benchmark as its own program:
//   bench_deform [--csv] [--quick] [--gpu] [--large[=98k|1m|strap]] [--modes[=12k|98k|1m]]
// the same run as `mechsim-cli bench deform` (bench/bench.h), linked without the file readers and
// Qt, so that it and a few libraries can be copied to a machine with a GPU (scripts/device-check.sh).
#include <cstring>
#include <iostream>
#include <string>

#include "bench/bench.h"

int main(int argc, char** argv) {
  bool csv = false, quick = false, gpu = false, large = false, modes = false;
  std::string which;  // --large=98k / --large=1m / --large=strap: one of the large cases; --modes=CASE
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--csv") == 0) csv = true;
    else if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--gpu") == 0) gpu = true;
    else if (std::strcmp(argv[i], "--large") == 0) large = true;
    else if (std::strncmp(argv[i], "--large=", 8) == 0 && mechsim::bench::isLargeCase(argv[i] + 8)) {
      large = true;
      which = argv[i] + 8;
    } else if (std::strcmp(argv[i], "--modes") == 0) {
      modes = true;
    } else if (std::strncmp(argv[i], "--modes=", 8) == 0 && mechsim::bench::isModesCase(argv[i] + 8)) {
      modes = true;
      which = argv[i] + 8;
    } else {
      std::cerr << "bench_deform: unknown option '" << argv[i]
                << "'\nusage: bench_deform [--csv] [--quick] [--gpu] [--large[=98k|1m|strap]] [--modes[=12k|98k|1m]]\n";
      return 2;
    }
  }
  if (modes) return mechsim::bench::runDeformModes(std::cout, csv, which);
  if (large) return mechsim::bench::runDeformLarge(std::cout, csv, which);
  return gpu ? mechsim::bench::runDeformGpu(std::cout, csv, quick) : mechsim::bench::runDeform(std::cout, csv, quick);
}
