// core/io/read_file.cpp — see read_file.h.
#include "core/io/read_file.h"

#include <filesystem>
#include <fstream>

#include "core/io/load.h"

namespace fs = std::filesystem;

namespace mechsim::io {

FileText readMechanismText(const std::string& path, std::uintmax_t maxBytes) {
  std::error_code ec;
  const fs::path p(path);
  auto ioError = [&](const std::string& msg) { return LoadError(Diagnostic{path, 0, 0, msg}); };
  if (!fs::exists(p, ec)) throw ioError("no such file");
  if (fs::is_directory(p, ec)) throw ioError("is a folder, not a mechanism file");
  // A device, pipe or socket (/dev/zero, a FIFO) has no size to check and might never end.
  if (!fs::is_regular_file(p, ec)) throw ioError("not a regular file (a device, pipe or socket)");
  const auto size = fs::file_size(p, ec);
  if (ec) throw ioError("cannot read: " + ec.message());
  if (size > maxBytes)
    throw LoadError(Diagnostic{path, 1, 1,
                               "the file is too large (" + std::to_string(size) + " bytes; the limit is " +
                                   std::to_string(maxBytes >> 20) + " MiB)"});
  std::ifstream in(p, std::ios::binary);
  if (!in) throw ioError("cannot open the file for reading");
  FileText out;
  out.text.assign(static_cast<std::size_t>(size), '\0');
  in.read(out.text.data(), static_cast<std::streamsize>(size));
  if (static_cast<std::uintmax_t>(in.gcount()) != size) throw ioError("read error");
  out.dir = fs::absolute(p, ec).parent_path().string();
  return out;
}

}  // namespace mechsim::io
