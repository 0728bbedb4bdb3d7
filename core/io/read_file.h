#pragma once
// core/io/read_file.h — the whole text of a mechanism file, read with the checks every reader
// makes first (regular_file.h: exists, not a folder, device or pipe, size limit, complete read),
// each failure a LoadError.
#include <cstdint>
#include <string>

namespace mechsim::io {

/// The text of `path` and the absolute folder it lies in (relative mesh paths resolve there).
struct FileText {
  std::string text;
  std::string dir;
};

/// Reads `path` whole. Errors (LoadError, FILE:0:0 unless said): no such file, a folder, not a
/// regular file (a device or pipe: /dev/zero, a FIFO), cannot read or open, larger than
/// `maxBytes` (FILE:1:1, "the limit is 64 MiB"), a short read.
FileText readMechanismText(const std::string& path, std::uintmax_t maxBytes);

}  // namespace mechsim::io
