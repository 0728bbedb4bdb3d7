// core/io/jgs2_cache.cpp — JGS2's precomputation kept on disk (jgs2_cache.h).
//
// File layout (native byte order; a cache is read on the machine that wrote it):
//   u64 key length, the key (jgs2CacheKey: format, code fingerprint, inputs),
//   the data (Jgs2Data without the optional dense subspaces), u64 checksum of all that precedes it.
// The key is compared whole, so a file is used only for exactly the inputs it was made from; the
// checksum catches a damaged or truncated file; every count is checked against the model and the
// bytes left before anything is allocated, so a hostile file costs a warning and nothing else.
#include "core/io/jgs2_cache.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <type_traits>
#include <vector>

#include "core/io/regular_file.h"
#include "core/io/write.h"
#include "jgs2_fingerprint.h"  // MECHSIM_JGS2_FINGERPRINT, generated from core/deform's sources

namespace mechsim::io {

namespace fs = std::filesystem;
using deform::Jgs2Data;

namespace {

constexpr std::uint32_t kFormat = 2;  // 2: the subspaces' source (Jgs2Data::basisFrom)
constexpr char kMagic[] = "mechsim jgs2 cache";
// Largest cache file read: a 1M-tet part with 256 modes is about 2.7 GB (1.1 GB of modes, about
// 28 cubature entries of 300 bytes per vertex).
constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t(16) << 30;

template <class T>
void put(std::string& s, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  s.append(reinterpret_cast<const char*>(&v), sizeof(T));
}
template <class T>
void putArray(std::string& s, const T* p, std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (n > 0) s.append(reinterpret_cast<const char*>(p), n * sizeof(T));
}

/// FNV-1a over 8-byte words (the tail bytewise): the file name's hash and the checksum.
std::uint64_t fnv1aWords(std::string_view b) {
  std::uint64_t h = 1469598103934665603ull;
  constexpr std::uint64_t prime = 1099511628211ull;
  std::size_t i = 0;
  for (; i + 8 <= b.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, b.data() + i, 8);
    h = (h ^ w) * prime;
  }
  for (; i < b.size(); ++i) h = (h ^ static_cast<unsigned char>(b[i])) * prime;
  return h;
}

/// Reads a cache file's bytes front to back; every take is bounds checked.
struct Reader {
  std::string_view b;
  std::size_t at = 0;
  std::string error;

  bool fail(const std::string& why) {
    if (error.empty()) error = why;
    return false;
  }
  std::size_t left() const { return b.size() - at; }
  template <class T>
  bool take(T& v, const char* what) {
    if (left() < sizeof(T)) return fail(std::string("truncated in ") + what);
    std::memcpy(&v, b.data() + at, sizeof(T));
    at += sizeof(T);
    return true;
  }
  /// Whether the file holds n more values of T.
  template <class T>
  bool holds(std::uint64_t n, const char* what) {
    return n <= left() / sizeof(T) || fail(std::string("truncated in ") + what);
  }
  /// n values into out, which has room for them; holds<T>(n) checked first.
  template <class T>
  void copyTo(T* out, std::uint64_t n) {
    if (n > 0) std::memcpy(out, b.data() + at, static_cast<std::size_t>(n) * sizeof(T));
    at += static_cast<std::size_t>(n) * sizeof(T);
  }
  /// n values into out, after checking that the file holds them (no allocation before).
  template <class T>
  bool takeArray(std::vector<T>& out, std::uint64_t n, const char* what) {
    if (!holds<T>(n, what)) return false;
    out.resize(static_cast<std::size_t>(n));
    copyTo(out.data(), n);
    return true;
  }
};

bool allFinite(const double* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(p[i])) return false;
  return true;
}

/// Keeps the folder's cache files within `budget` bytes, least recently used first; `keep` stays.
void evict(const fs::path& dir, const fs::path& keep, std::uintmax_t budget) {
  struct Entry {
    fs::file_time_type time;
    std::uintmax_t size;
    fs::path path;
  };
  std::vector<Entry> files;
  std::uintmax_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("jgs2-", 0) != 0 || name.size() < 9 || name.substr(name.size() - 4) != ".bin") continue;
    std::error_code e1, e2, e3;
    if (!it->is_regular_file(e1)) continue;
    const auto size = it->file_size(e2);
    const auto time = it->last_write_time(e3);
    if (e1 || e2 || e3) continue;
    files.push_back({time, size, it->path()});
    total += size;
  }
  std::sort(files.begin(), files.end(), [](const Entry& a, const Entry& b) { return a.time < b.time; });
  for (const Entry& f : files) {
    if (total <= budget) break;
    if (f.path == keep) continue;
    std::error_code e;
    if (fs::remove(f.path, e)) total -= f.size;
  }
}

}  // namespace

std::uintmax_t jgs2CacheBudget(std::string* warning) {
  const char* env = std::getenv("MECHSIM_CACHE_MAX");
  if (!env || !*env) return kJgs2CacheBudget;
  if (const auto bytes = parseByteSize(env)) return *bytes;
  if (warning)
    *warning = std::string("MECHSIM_CACHE_MAX=\"") + env + "\" is not a size (such as 8G or 500M); the cache keeps at most " +
               byteLimitText(kJgs2CacheBudget);
  return kJgs2CacheBudget;
}

std::string defaultJgs2CacheDir() {
  fs::path base;
  if (const char* own = std::getenv("MECHSIM_CACHE_DIR")) {
    const std::string s(own);
    if (s.empty() || s == "off") return {};
    base = s;
  } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') {
    base = fs::path(xdg) / "mechsim";
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    base = fs::path(home) / ".cache" / "mechsim";
  } else {
    return {};
  }
  return (base / "jgs2").string();
}

std::string jgs2CacheKey(const deform::DeformableModel& m, const deform::Jgs2Options& opt) {
  std::string k;
  k.append(kMagic, sizeof(kMagic));
  put(k, kFormat);
  const std::string code = MECHSIM_JGS2_FINGERPRINT;
  put(k, std::uint64_t(code.size()));
  k += code;
  const std::int32_t eigen[3] = {EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION};
  putArray(k, eigen, 3);
  // The rest mesh: what the masses, volumes, Dm⁻¹, incidence and colouring are made from.
  const std::uint64_t nv = m.vertexCount(), nt = m.tetCount();
  put(k, nv);
  put(k, nt);
  for (const Vec3& p : m.mesh.vertices) putArray(k, p.data(), 3);
  for (const auto& t : m.mesh.tets) putArray(k, t.data(), 4);
  // Material and time step: H̄ = M/h² + ∇²Ψ(x̄).
  put(k, std::int32_t(m.material.kind));
  put(k, m.material.youngs);
  put(k, m.material.poisson);
  put(k, m.material.density);
  put(k, m.h);
  putArray(k, m.prescribed.data(), m.prescribed.size());  // pinned or attached: not unknowns
  // The options that change the result (not the callbacks).
  put(k, std::int32_t(opt.cubatureElements));
  put(k, opt.cubatureTolerance);
  put(k, std::int32_t(opt.trainingModes));
  put(k, std::int32_t(opt.modalModes));
  put(k, std::int32_t(opt.candidatesPerRound));
  put(k, std::int32_t(opt.rhsForm));
  put(k, std::int32_t(opt.subspaces));
  put(k, std::int32_t(opt.basisFrom));
  put(k, std::uint32_t(opt.seed));
  return k;
}

std::uint64_t jgs2CacheChecksum(std::string_view bytes) { return fnv1aWords(bytes); }

std::string jgs2CacheFileName(std::string_view key) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1aWords(key)));
  return std::string("jgs2-") + hex + ".bin";
}

std::string encodeJgs2Cache(std::string_view key, const Jgs2Data& d) {
  std::string s;
  const std::size_t entries = d.tet.size();
  s.reserve(key.size() + 64 + d.offset.size() * 4 + entries * (4 + 8 + 36 * 8) + d.restSchur.size() * 8 +
            std::size_t(d.modes.size() + d.modeValues.size()) * 8 + 128);
  put(s, std::uint64_t(key.size()));
  s.append(key);
  put(s, std::uint64_t(d.offset.size()));
  putArray(s, d.offset.data(), d.offset.size());
  put(s, std::uint64_t(entries));
  putArray(s, d.tet.data(), entries);
  putArray(s, d.weight.data(), entries);
  putArray(s, d.basis.data(), 36 * entries);
  put(s, std::uint64_t(d.restSchur.size()));
  putArray(s, d.restSchur.data(), d.restSchur.size());
  put(s, std::int32_t(d.rhsForm));
  put(s, std::int32_t(d.subspaces));
  put(s, std::int32_t(d.basisFrom));
  put(s, std::uint64_t(d.modes.rows()));
  put(s, std::uint64_t(d.modes.cols()));
  putArray(s, d.modes.data(), static_cast<std::size_t>(d.modes.size()));
  putArray(s, d.modeValues.data(), static_cast<std::size_t>(d.modeValues.size()));
  const double figures[6] = {d.trainingResidual, d.factorSeconds, d.basisSeconds,
                             d.modesSeconds,     d.trainSeconds,  d.totalSeconds};
  putArray(s, figures, 6);
  put(s, fnv1aWords(s));
  return s;
}

std::optional<Jgs2Data> decodeJgs2Cache(std::string_view bytes, std::string_view key,
                                        const deform::DeformableModel& m, std::string* why) {
  auto no = [&](const std::string& reason) -> std::optional<Jgs2Data> {
    if (why) *why = reason;
    return std::nullopt;
  };
  if (bytes.size() < 16) return no("not a cache file (too short)");
  std::uint64_t sum;
  std::memcpy(&sum, bytes.data() + bytes.size() - 8, 8);
  const std::string_view body = bytes.substr(0, bytes.size() - 8);
  Reader r{body, 0, {}};
  std::uint64_t keyLength = 0;
  r.take(keyLength, "the key");
  if (keyLength != key.size() || r.left() < keyLength || body.substr(8, keyLength) != key) {
    // Another format, another code version or other inputs (a hash collision of the file name).
    if (r.left() < sizeof(kMagic) || body.substr(8, sizeof(kMagic)) != std::string_view(kMagic, sizeof(kMagic)))
      return no("not a cache file");
    return no("made from other inputs or by another version");
  }
  if (fnv1aWords(body) != sum) return no("damaged (checksum)");
  r.at += keyLength;

  const std::size_t nv = m.vertexCount(), nt = m.tetCount();
  Jgs2Data d;
  std::uint64_t n = 0;
  if (!r.take(n, "offsets") || n != nv + 1) return no(r.error.empty() ? "offsets do not fit the mesh" : r.error);
  if (!r.takeArray(d.offset, n, "offsets")) return no(r.error);
  std::uint64_t entries = 0;
  if (!r.take(entries, "cubature")) return no(r.error);
  if (d.offset.front() != 0 || std::uint64_t(d.offset.back()) != entries) return no("cubature offsets inconsistent");
  for (std::size_t v = 0; v < nv; ++v)
    if (d.offset[v + 1] < d.offset[v]) return no("cubature offsets inconsistent");
  if (entries > r.left() / (4 + 8 + 36 * 8)) return no("truncated in the cubature");
  if (!r.takeArray(d.tet, entries, "cubature elements") || !r.takeArray(d.weight, entries, "cubature weights") ||
      !r.takeArray(d.basis, 36 * entries, "cubature blocks"))
    return no(r.error);
  for (int t : d.tet)
    if (t < 0 || std::size_t(t) >= nt) return no("a cubature element is not a tet of the part");
  for (double w : d.weight)
    if (!(w >= 0) || !std::isfinite(w)) return no("a cubature weight is negative or not finite");
  if (!allFinite(d.basis.data(), d.basis.size())) return no("a subspace block is not finite");
  if (!r.take(n, "Schur complements") || n != 9 * nv) return no(r.error.empty() ? "Schur complements do not fit" : r.error);
  if (!r.takeArray(d.restSchur, n, "Schur complements")) return no(r.error);
  if (!allFinite(d.restSchur.data(), d.restSchur.size())) return no("a Schur complement is not finite");
  std::int32_t rhs = 0, subspaces = 0, basisFrom = 0;
  if (!r.take(rhs, "the variant") || !r.take(subspaces, "the variant") || !r.take(basisFrom, "the variant"))
    return no(r.error);
  if (rhs < 0 || rhs > int(deform::Jgs2RhsForm::Modal) || subspaces < 0 ||
      subspaces > int(deform::Jgs2Subspaces::Colour) || basisFrom < 0 ||
      basisFrom > int(deform::Jgs2Basis::SelectedInverse))
    return no("unknown variant");
  d.rhsForm = deform::Jgs2RhsForm(rhs);
  d.subspaces = deform::Jgs2Subspaces(subspaces);
  d.basisFrom = deform::Jgs2Basis(basisFrom);
  std::uint64_t rows = 0, cols = 0;
  if (!r.take(rows, "modes") || !r.take(cols, "modes")) return no(r.error);
  // The precomputation always keeps at least one mode (the modal split needs them).
  if (rows != 3 * nv || cols < 1 || cols > 3 * nv) return no("modes do not fit the mesh");
  if (!r.holds<double>(rows * cols + cols, "the modes")) return no(r.error);
  d.modes.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  d.modeValues.resize(static_cast<Eigen::Index>(cols));
  r.copyTo(d.modes.data(), rows * cols);
  r.copyTo(d.modeValues.data(), cols);
  if (!allFinite(d.modes.data(), static_cast<std::size_t>(d.modes.size())) ||
      !allFinite(d.modeValues.data(), static_cast<std::size_t>(d.modeValues.size())))
    return no("a mode is not finite");
  for (Eigen::Index p = 0; p < d.modeValues.size(); ++p)
    if (!(d.modeValues[p] > 0)) return no("a mode's eigenvalue is not positive");
  double figures[6];
  for (double& f : figures)
    if (!r.take(f, "the figures")) return no(r.error);
  d.trainingResidual = figures[0];
  d.factorSeconds = figures[1];
  d.basisSeconds = figures[2];
  d.modesSeconds = figures[3];
  d.trainSeconds = figures[4];
  d.totalSeconds = figures[5];
  if (r.left() != 0) return no("trailing bytes");
  return d;
}

Jgs2Data precomputeJgs2Cached(const deform::DeformableModel& m, const deform::Jgs2Options& opt, const std::string& dir,
                              Jgs2CacheUse* use) {
  Jgs2CacheUse local;
  Jgs2CacheUse& u = use ? *use : local;
  u = {};
  if (dir.empty() || opt.denseBasis) return deform::precomputeJgs2(m, opt);

  const std::string key = jgs2CacheKey(m, opt);
  const fs::path path = fs::path(dir) / jgs2CacheFileName(key);
  std::string bytes;
  if (const auto failure = readRegularFile(path.string(), kMaxFileBytes, bytes)) {
    if (failure->kind != ReadFailure::Kind::Missing)
      u.warning = "ignored the cache file " + path.string() + ": " + failure->reason;
  } else {
    std::string why;
    if (auto d = decodeJgs2Cache(bytes, key, m, &why)) {
      std::error_code ec;  // most recently used: the last the budget removes
      fs::last_write_time(path, fs::file_time_type::clock::now(), ec);
      u.result = Jgs2CacheUse::Result::Read;
      u.path = path.string();
      return std::move(*d);
    }
    u.warning = "ignored the cache file " + path.string() + ": " + why;
  }
  bytes.clear();
  bytes.shrink_to_fit();

  Jgs2Data d = deform::precomputeJgs2(m, opt);  // Cancelled and failures pass through: nothing saved
  u.result = Jgs2CacheUse::Result::Computed;
  auto warn = [&u](const std::string& w) { u.warning += (u.warning.empty() ? "" : "; ") + w; };
  try {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw std::runtime_error("cannot make the folder '" + dir + "': " + ec.message());
    writeFileAtomically(path.string(), encodeJgs2Cache(key, d));
    u.path = path.string();
    std::string budgetWarning;
    evict(dir, path, jgs2CacheBudget(&budgetWarning));
    if (!budgetWarning.empty()) warn(budgetWarning);
  } catch (const std::exception& e) {
    warn(std::string("the precomputation was not saved: ") + e.what());
  }
  return d;
}

}  // namespace mechsim::io
