#pragma once
// core/io/jgs2_cache.h — JGS2's rest-shape precomputation kept on disk between runs.
//
// precomputeJgs2 (Eq. 19–23 subspaces, Spectra modes, greedy-NNLS cubature) takes seconds for a
// 12k-tet part and minutes for a 100k-tet one (docs/deform.md); it depends only on the part's rest
// mesh, material, time step, prescribed vertices and the precomputation options. Opening the same
// mechanism again — the GUI's Reload, the next `mechsim-cli deform` run — reads the result from a
// cache file instead. A file is used only when the inputs it was made from equal the part's byte for
// byte (they are stored in it, not only hashed) and it was written by the same precomputation code
// (a fingerprint of core/deform's sources, made at build time); the data read are bit for bit what
// precomputeJgs2 would return. A damaged, truncated or foreign file is ignored with a warning and
// replaced; a folder that cannot be written costs only the saving.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/deform/solver.h"

namespace mechsim::io {

/// The cache folder: $MECHSIM_CACHE_DIR when set ("off" or empty: no cache), else
/// $XDG_CACHE_HOME/mechsim, else $HOME/.cache/mechsim; with "jgs2" inside. Empty: no cache.
std::string defaultJgs2CacheDir();

/// At most this many bytes of cache files are kept in the folder unless $MECHSIM_CACHE_MAX says
/// otherwise: after a save the least recently used files go first (the newest always stays).
constexpr std::uintmax_t kJgs2CacheBudget = std::uintmax_t(2) << 30;  // 2 GiB

/// The folder's budget: $MECHSIM_CACHE_MAX as parseByteSize reads it ("8G", "500M"; "0" keeps only
/// the file just saved), else kJgs2CacheBudget. A value that is not a size leaves the default and
/// says so in *warning (a 1M-tet part's file is about 2.7 GB, over the default on its own).
std::uintmax_t jgs2CacheBudget(std::string* warning = nullptr);

/// What precomputeJgs2Cached did.
struct Jgs2CacheUse {
  enum class Result { Off, Read, Computed };
  Result result = Result::Off;
  std::string path;     // the cache file read, or written (Computed: empty when it could not be)
  std::string warning;  // a file not used, or not written, and why; empty when all went well
};

/// JGS2's precomputation for `m` with `opt`: read from the cache folder `dir` when it holds a file
/// made from exactly these inputs, else precomputeJgs2(m, opt) saved there (atomically). An empty
/// `dir`, or opt.denseBasis (the dense subspaces are O(nv²)), bypasses the cache. Throws what
/// precomputeJgs2 throws (Cancelled included; nothing is saved then).
deform::Jgs2Data precomputeJgs2Cached(const deform::DeformableModel& m, const deform::Jgs2Options& opt,
                                      const std::string& dir, Jgs2CacheUse* use = nullptr);

// The parts of it, for the tests.

/// Everything the precomputation reads, as bytes: the format and code fingerprint, the rest mesh,
/// material, time step, prescribed vertices and the options that change the result.
std::string jgs2CacheKey(const deform::DeformableModel& m, const deform::Jgs2Options& opt);
/// The cache file's name for a key: "jgs2-" + 16 hex digits of its hash + ".bin".
std::string jgs2CacheFileName(std::string_view key);
/// A cache file's bytes: the key, the data, a checksum.
std::string encodeJgs2Cache(std::string_view key, const deform::Jgs2Data& d);
/// The checksum that ends a cache file: FNV-1a over the bytes before it, 8 bytes at a time.
std::uint64_t jgs2CacheChecksum(std::string_view bytes);
/// The data of a cache file made from `key` for model `m`; nothing, with the reason in *why, when
/// the bytes are not such a file (another key, another format, damaged, truncated, inconsistent).
std::optional<deform::Jgs2Data> decodeJgs2Cache(std::string_view bytes, std::string_view key,
                                                const deform::DeformableModel& m, std::string* why = nullptr);

}  // namespace mechsim::io
