// core/io/read_file.cpp — see read_file.h; the checks themselves are regular_file.cpp's.
#include "core/io/read_file.h"

#include <filesystem>

#include "core/io/load.h"
#include "core/io/regular_file.h"

namespace fs = std::filesystem;

namespace mechsim::io {

FileText readMechanismText(const std::string& path, std::uintmax_t maxBytes) {
  auto ioError = [&](const std::string& msg) { return LoadError(Diagnostic{path, 0, 0, msg}); };
  FileText out;
  if (const auto failure = readRegularFile(path, maxBytes, out.text)) {
    using Kind = ReadFailure::Kind;
    switch (failure->kind) {
      case Kind::Missing: throw ioError("no such file");
      case Kind::Folder: throw ioError("is a folder, not a mechanism file");
      case Kind::TooLarge: throw LoadError(Diagnostic{path, 1, 1, "the file is " + failure->reason});
      case Kind::NotRegular:
      case Kind::Unreadable: throw ioError(failure->reason);
    }
  }
  std::error_code ec;
  out.dir = fs::absolute(fs::path(path), ec).parent_path().string();
  return out;
}

}  // namespace mechsim::io
