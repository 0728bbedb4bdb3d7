// app/data_root.cpp — see data_root.h.
#include "data_root.h"

#include <filesystem>
#include <system_error>
#include <vector>

#ifndef MECHSIM_SOURCE_DIR
#define MECHSIM_SOURCE_DIR ""
#endif

namespace mechsim::app {

std::string dataRoot() {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> candidates;
  if (*MECHSIM_SOURCE_DIR) candidates.emplace_back(MECHSIM_SOURCE_DIR);
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec).parent_path();
  if (!ec)
    for (const char* up : {".", "..", "../..", "../share/mechsim"}) candidates.push_back(exe / up);
  for (const fs::path& c : candidates)
    if (fs::is_directory(c / "mechanisms", ec)) {
      const fs::path canonical = fs::weakly_canonical(c, ec);
      return (ec ? c : canonical).string();
    }
  return {};
}

}  // namespace mechsim::app
