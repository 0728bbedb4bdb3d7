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
#include <string_view>

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

/// A size as a user writes it: digits, then optionally K, M, G or T (powers of 1024; "KiB", "GB",
/// "g" and a space before the unit are accepted too), or a plain number of bytes ("0" is zero).
/// Nothing when it is not such a size or does not fit in 64 bits.
std::optional<std::uintmax_t> parseByteSize(std::string_view text);

}  // namespace mechsim::io
