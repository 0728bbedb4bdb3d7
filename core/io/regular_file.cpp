// core/io/regular_file.cpp — readRegularFile: open(O_NONBLOCK), fstat, read to the end.
#include "core/io/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace mechsim::io {

std::string byteLimitText(std::uintmax_t bytes) {
  if (bytes >= (std::uintmax_t(1) << 30) && bytes % (std::uintmax_t(1) << 30) == 0)
    return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (std::uintmax_t(1) << 20) && bytes % (std::uintmax_t(1) << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

std::optional<std::uintmax_t> parseByteSize(std::string_view t) {
  auto space = [](char c) { return c == ' ' || c == '\t'; };
  while (!t.empty() && space(t.front())) t.remove_prefix(1);
  while (!t.empty() && space(t.back())) t.remove_suffix(1);
  std::uintmax_t n = 0;  // from_chars: decimal digits only (no sign, no "0x"), overflow an error
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  if (ec != std::errc()) return std::nullopt;
  std::size_t i = std::size_t(end - t.data());
  while (i < t.size() && space(t[i])) ++i;
  std::string unit;
  for (; i < t.size(); ++i) unit += char(t[i] >= 'a' && t[i] <= 'z' ? t[i] - 'a' + 'A' : t[i]);
  int shift = 0;
  if (unit.empty() || unit == "B") shift = 0;
  else if (unit == "K" || unit == "KB" || unit == "KIB") shift = 10;
  else if (unit == "M" || unit == "MB" || unit == "MIB") shift = 20;
  else if (unit == "G" || unit == "GB" || unit == "GIB") shift = 30;
  else if (unit == "T" || unit == "TB" || unit == "TIB") shift = 40;
  else return std::nullopt;
  if (shift > 0 && n > (UINTMAX_MAX >> shift)) return std::nullopt;
  return n << shift;
}

std::optional<ReadFailure> readRegularFile(const std::string& path, std::uintmax_t maxBytes, std::string& text) {
  using Kind = ReadFailure::Kind;
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) return ReadFailure{Kind::Missing, "no such file"};
    if (err == EISDIR) return ReadFailure{Kind::Folder, "it is a folder"};
    return ReadFailure{Kind::Unreadable, std::string("cannot open it (") + std::strerror(err) + ")"};
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return ReadFailure{Kind::Unreadable, std::string("cannot read it (") + std::strerror(errno) + ")"};
  if (S_ISDIR(st.st_mode)) return ReadFailure{Kind::Folder, "it is a folder"};
  if (!S_ISREG(st.st_mode)) return ReadFailure{Kind::NotRegular, "not a regular file (a device, pipe or socket)"};
  const auto size = static_cast<std::uintmax_t>(st.st_size);
  if (size > maxBytes)
    return ReadFailure{Kind::TooLarge,
                       "too large (" + std::to_string(size) + " bytes; the limit is " + byteLimitText(maxBytes) + ")",
                       size};
  // A regular file never blocks; read to the end, which may come before or after the size seen
  // (a file being written meanwhile), but never past the limit. The buffer grows only when a byte
  // is found past the size seen, so a file read whole costs one buffer of its size.
  text.assign(static_cast<std::size_t>(size), '\0');
  std::size_t got = 0;
  for (;;) {
    if (got == text.size()) {  // full: is there more?
      char probe;
      const ssize_t more = ::read(fd, &probe, 1);
      if (more == 0) break;
      if (more < 0) {
        if (errno == EINTR) continue;
        return ReadFailure{Kind::Unreadable, std::string("read error (") + std::strerror(errno) + ")"};
      }
      if (got >= maxBytes)
        return ReadFailure{Kind::TooLarge, "too large (it grew past the limit of " + byteLimitText(maxBytes) +
                                               " while being read)", maxBytes + 1};
      text.resize(std::min<std::uintmax_t>(maxBytes, std::max<std::uintmax_t>(2 * text.size(), 4096)));
      text[got++] = probe;
      continue;
    }
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n > 0) {
      got += static_cast<std::size_t>(n);
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      return ReadFailure{Kind::Unreadable, std::string("read error (") + std::strerror(errno) + ")"};
    }
  }
  text.resize(got);
  return std::nullopt;
}

}  // namespace mechsim::io
