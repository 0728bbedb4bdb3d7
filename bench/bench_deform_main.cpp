// bench/bench_deform_main.cpp — the deformable-part benchmark as its own program:
//   bench_deform [--csv] [--quick] [--gpu] [--large[=98k|1m|strap]]
// the same run as `mechsim-cli bench deform` (bench/bench.h), linked without the file readers and
// Qt, so that it and a few libraries can be copied to a machine with a GPU (scripts/device-check.sh).
#include <cstring>
#include <iostream>
#include <string>

#include "bench/bench.h"

int main(int argc, char** argv) {
  bool csv = false, quick = false, gpu = false, large = false;
  std::string which;  // --large=98k / --large=1m / --large=strap: one of the large cases
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--csv") == 0) csv = true;
    else if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--gpu") == 0) gpu = true;
    else if (std::strcmp(argv[i], "--large") == 0) large = true;
    else if (std::strncmp(argv[i], "--large=", 8) == 0 && mechsim::bench::isLargeCase(argv[i] + 8)) {
      large = true;
      which = argv[i] + 8;
    } else {
      std::cerr << "bench_deform: unknown option '" << argv[i]
                << "'\nusage: bench_deform [--csv] [--quick] [--gpu] [--large[=98k|1m|strap]]\n";
      return 2;
    }
  }
  if (large) return mechsim::bench::runDeformLarge(std::cout, csv, which);
  return gpu ? mechsim::bench::runDeformGpu(std::cout, csv, quick) : mechsim::bench::runDeform(std::cout, csv, quick);
}
