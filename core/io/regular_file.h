#pragma once
// core/io/regular_file.h — the whole of a regular file, read with the checks every reader of an
// untrusted path makes first: it exists, is not a folder, not a device, pipe or socket (/dev/zero
// never ends, a FIFO blocks), not larger than a limit, and is read completely. The file is opened
// first (without blocking) and checked on the open descriptor, so the file checked is the file
// read. The readers (mechanism files, MJCF includes, tet meshes) wrap a failure in their own error
// type and location.
#include <cstdint>
#include <optional>
#include <string>

namespace mechsim::io {

struct ReadFailure {
  enum class Kind { Missing, Folder, NotRegular, TooLarge, Unreadable } kind;
  std::string reason;  // to follow "cannot read FILE: ": "no such file", "too large (N bytes; the limit is 64 MiB)", ...
  std::uintmax_t size = 0;  // TooLarge: the file's size
};

/// Reads the regular file at `path`, at most maxBytes, into `text`. Returns the failure, or nothing.
std::optional<ReadFailure> readRegularFile(const std::string& path, std::uintmax_t maxBytes, std::string& text);

/// "64 MiB", "1 GiB", "1000 bytes": a limit as the messages give it.
std::string byteLimitText(std::uintmax_t bytes);

}  // namespace mechsim::io
