// fuzz/replay_main.cpp — the harnesses without libFuzzer: runs LLVMFuzzerTestOneInput once on each
// file named on the command line (folders: every file in them, sorted). ctest replays the fuzzing
// regressions (fuzz/regressions/) and the project's own files this way in the ordinary build, so
// that every input that once broke a reader stays a test; a failed check aborts, as under libFuzzer.
#include <stdlib.h>  // setenv

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const fs::path p(argv[i]);
    if (fs::is_directory(p)) {
      std::vector<fs::path> in;
      for (const auto& e : fs::directory_iterator(p))
        if (e.is_regular_file()) in.push_back(e.path());
      std::sort(in.begin(), in.end());
      files.insert(files.end(), in.begin(), in.end());
    } else if (fs::is_regular_file(p)) {
      files.push_back(p);
    } else {
      std::fprintf(stderr, "replay: no such file or folder: %s\n", argv[i]);
      return 2;
    }
  }
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replay: %s\n", f.string().c_str());
    // Relative mesh paths in the input resolve beside it, as when the file is opened.
    ::setenv("MECHSIM_FUZZ_BASE_DIR", fs::absolute(f).parent_path().c_str(), 1);
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("replay: %zu inputs, no failure\n", files.size());
  return 0;
}
