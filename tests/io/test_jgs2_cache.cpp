// tests/io/test_jgs2_cache.cpp — JGS2's precomputation kept on disk (core/io/jgs2_cache.h): what is
// read back is bit for bit what precomputeJgs2 computes, a file is used only for the inputs it was
// made from, damaged or hostile files are refused and replaced, the folder stays within its budget.
#include <QtTest>

#include <QTemporaryDir>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/deform/solver.h"
#include "core/io/jgs2_cache.h"
#include "tests/core/deform_fixture.h"

using namespace mechsim;
using deform::Jgs2Data;
using deform::Jgs2Options;
namespace fs = std::filesystem;

namespace {

Jgs2Options smallOptions() {
  Jgs2Options o = deform::jgs2OptionsFor(deform::Method::Jgs2Jacobi, 64);
  o.trainingModes = 16;
  o.modalModes = 32;
  return o;
}

bool sameData(const Jgs2Data& a, const Jgs2Data& b) {
  return a.offset == b.offset && a.tet == b.tet && a.weight == b.weight && a.basis == b.basis &&
         a.restSchur == b.restSchur && a.rhsForm == b.rhsForm && a.subspaces == b.subspaces && a.basisFrom == b.basisFrom &&
         a.modes.rows() == b.modes.rows() && a.modes.cols() == b.modes.cols() &&
         std::memcmp(a.modes.data(), b.modes.data(), sizeof(double) * a.modes.size()) == 0 &&
         a.modeValues.size() == b.modeValues.size() &&
         std::memcmp(a.modeValues.data(), b.modeValues.data(), sizeof(double) * a.modeValues.size()) == 0 &&
         a.trainingResidual == b.trainingResidual && a.totalSeconds == b.totalSeconds;
}

void writeAll(const fs::path& p, const std::string& s) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(s.data(), static_cast<std::streamsize>(s.size()));
}

/// Three sparse 0.9 GiB stand-in cache files in `cache` (written as next to nothing), the first the
/// least recently used, and a file that is not a cache file beside them, the oldest of all.
std::vector<fs::path> standIns(const fs::path& cache) {
  fs::create_directories(cache);
  const auto now = fs::file_time_type::clock::now();
  std::vector<fs::path> stand;
  for (int k = 0; k < 3; ++k) {
    stand.push_back(cache / ("jgs2-000000000000000" + std::to_string(k + 1) + ".bin"));
    writeAll(stand.back(), "x");
    fs::resize_file(stand.back(), std::uintmax_t(900) << 20);
    fs::last_write_time(stand.back(), now - std::chrono::hours(10 - k));  // 1 oldest, 3 newest
  }
  writeAll(cache / "notes.txt", "not a cache file");
  fs::last_write_time(cache / "notes.txt", now - std::chrono::hours(100));
  return stand;
}

/// The bytes with their last 8 replaced by the right checksum: forged files, so that the decoder's
/// checks behind the checksum are tested on their own.
std::string withChecksum(std::string bytes) {
  bytes.resize(bytes.size() - 8);
  const std::uint64_t sum = io::jgs2CacheChecksum(bytes);
  bytes.append(reinterpret_cast<const char*>(&sum), 8);
  return bytes;
}

}  // namespace

class TestJgs2Cache : public QObject {
  Q_OBJECT

  deform::DeformableModel model_ = deform::testing::cantilever(2e6, 6, 2);

 private slots:
  // The budget the tests expect is the default one, whatever the environment running them says.
  void initTestCase() { qunsetenv("MECHSIM_CACHE_MAX"); }

  // First use computes and saves; the second reads, without running any stage of the
  // precomputation, data equal bit for bit to a fresh precomputeJgs2.
  void readBackIsTheComputation() {
    QTemporaryDir dir;
    const std::string cache = dir.filePath("jgs2").toStdString();
    Jgs2Options o = smallOptions();
    int stages = 0;
    o.progress = [&](deform::Jgs2Stage, double) { ++stages; };
    io::Jgs2CacheUse use;
    const Jgs2Data computed = io::precomputeJgs2Cached(model_, o, cache, &use);
    QVERIFY(use.result == io::Jgs2CacheUse::Result::Computed);
    QVERIFY2(use.warning.empty(), use.warning.c_str());
    QVERIFY(fs::is_regular_file(use.path));
    QCOMPARE(fs::path(use.path).parent_path().string(), cache);
    QVERIFY(stages > 0);
    const int stagesComputing = stages;
    stages = 0;
    const Jgs2Data read = io::precomputeJgs2Cached(model_, o, cache, &use);
    QVERIFY(use.result == io::Jgs2CacheUse::Result::Read);
    QCOMPARE(stages, 0);
    QVERIFY(sameData(read, computed));
    QVERIFY(!read.tet.empty() && read.modes.cols() == 32);
    // The precomputation is deterministic: a fresh one equals what was saved.
    const Jgs2Data fresh = deform::precomputeJgs2(model_, o);
    QCOMPARE(fresh.offset, read.offset);
    QVERIFY(fresh.weight == read.weight && fresh.basis == read.basis && fresh.restSchur == read.restSchur);
    QVERIFY(fresh.modes == read.modes && fresh.modeValues == read.modeValues);
    QVERIFY(stagesComputing >= 3);
    // The subspaces' source is kept: a precomputation from the selected inverse reads back as one.
    Jgs2Options os = smallOptions();
    os.basisFrom = deform::Jgs2Basis::SelectedInverse;
    const Jgs2Data sel = io::precomputeJgs2Cached(model_, os, cache, &use);
    QVERIFY(use.result == io::Jgs2CacheUse::Result::Computed);
    QCOMPARE(sel.basisFrom, deform::Jgs2Basis::SelectedInverse);
    const Jgs2Data selRead = io::precomputeJgs2Cached(model_, os, cache, &use);
    QVERIFY(use.result == io::Jgs2CacheUse::Result::Read);
    QVERIFY(sameData(selRead, sel));
    // An empty folder bypasses the cache; so do dense subspaces.
    io::precomputeJgs2Cached(model_, o, "", &use);
    QVERIFY(use.result == io::Jgs2CacheUse::Result::Off && use.path.empty());
    Jgs2Options dense = o;
    dense.denseBasis = true;
    const Jgs2Data withDense = io::precomputeJgs2Cached(model_, dense, cache, &use);
    QVERIFY(use.result == io::Jgs2CacheUse::Result::Off);
    QCOMPARE(static_cast<int>(withDense.dense.size()), model_.vertexCount());
  }

  // Every input the precomputation reads is in the key; the callbacks are not.
  void keyCoversEveryInput() {
    const Jgs2Options o = smallOptions();
    const std::string base = io::jgs2CacheKey(model_, o);
    QCOMPARE(io::jgs2CacheKey(model_, o), base);
    Jgs2Options withCallbacks = o;
    withCallbacks.progress = [](deform::Jgs2Stage, double) {};
    withCallbacks.cancelRequested = [] { return false; };
    QCOMPARE(io::jgs2CacheKey(model_, withCallbacks), base);
    QCOMPARE(io::jgs2CacheFileName(base), io::jgs2CacheFileName(io::jgs2CacheKey(model_, withCallbacks)));

    std::vector<std::pair<const char*, std::function<void(deform::DeformableModel&, Jgs2Options&)>>> changes = {
        {"h", [](auto& m, auto&) { m.h = 0.005; }},
        {"E", [](auto& m, auto&) { m.material.youngs *= 1.0000001; }},
        {"nu", [](auto& m, auto&) { m.material.poisson = 0.35; }},
        {"density", [](auto& m, auto&) { m.material.density = 1100; }},
        {"material", [](auto& m, auto&) { m.material.kind = deform::hd::kArap; }},
        {"vertex", [](auto& m, auto&) { m.mesh.vertices[7].x() += 1e-12; }},
        {"tet", [](auto& m, auto&) { std::swap(m.mesh.tets[3][1], m.mesh.tets[3][2]); }},
        {"prescribed", [](auto& m, auto&) { m.prescribed.back() = 1; }},
        {"elements", [](auto&, auto& j) { j.cubatureElements = 4; }},
        {"tolerance", [](auto&, auto& j) { j.cubatureTolerance = 0.02; }},
        {"training", [](auto&, auto& j) { j.trainingModes = 24; }},
        {"modal", [](auto&, auto& j) { j.modalModes = 48; }},
        {"candidates", [](auto&, auto& j) { j.candidatesPerRound = 32; }},
        {"rhs", [](auto&, auto& j) { j.rhsForm = deform::Jgs2RhsForm::Element; }},
        {"subspaces", [](auto&, auto& j) { j.subspaces = deform::Jgs2Subspaces::Colour; }},
        {"basis", [](auto&, auto& j) { j.basisFrom = deform::Jgs2Basis::SelectedInverse; }},
        {"seed", [](auto&, auto& j) { j.seed = 2; }},
    };
    for (auto& [name, change] : changes) {
      deform::DeformableModel m = model_;
      Jgs2Options j = o;
      change(m, j);
      const std::string key = io::jgs2CacheKey(m, j);
      QVERIFY2(key != base, name);
      QVERIFY2(io::jgs2CacheFileName(key) != io::jgs2CacheFileName(base), name);
    }
    // A file made from other inputs is refused even under the same name.
    const Jgs2Data d = deform::precomputeJgs2(model_, o);
    const std::string bytes = io::encodeJgs2Cache(base, d);
    deform::DeformableModel other = model_;
    other.h = 0.02;
    std::string why;
    QVERIFY(!io::decodeJgs2Cache(bytes, io::jgs2CacheKey(other, o), other, &why));
    QVERIFY2(why.find("other inputs") != std::string::npos, why.c_str());
    QVERIFY(io::decodeJgs2Cache(bytes, base, model_, &why).has_value());
  }

  // Damaged, foreign and forged files are refused with a reason (nothing thrown, no huge
  // allocation); the cached call then recomputes and replaces the file.
  void badFilesAreRefusedAndReplaced() {
    const Jgs2Options o = smallOptions();
    const std::string key = io::jgs2CacheKey(model_, o);
    const Jgs2Data d = deform::precomputeJgs2(model_, o);
    const std::string good = io::encodeJgs2Cache(key, d);
    std::string why;
    QVERIFY(io::decodeJgs2Cache(good, key, model_, &why).has_value());

    // Where the data start: after the key's length and the key.
    const std::size_t data = 8 + key.size();
    auto setU64 = [](std::string s, std::size_t at, std::uint64_t v) {
      std::memcpy(s.data() + at, &v, 8);
      return s;
    };
    const std::size_t offsets = (model_.vertexCount() + 1) * sizeof(int);
    const std::size_t entriesAt = data + 8 + offsets;
    std::uint64_t entries;
    std::memcpy(&entries, good.data() + entriesAt, 8);
    const std::size_t tetsAt = entriesAt + 8, weightsAt = tetsAt + 4 * entries;
    const std::size_t basisAt = weightsAt + 8 * entries;

    std::string flipped = good;
    flipped[basisAt + 100] ^= 0x10;
    std::string badTet = good;
    const int tooBig = model_.tetCount();
    std::memcpy(badTet.data() + tetsAt, &tooBig, 4);
    std::string nanWeight = good;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::memcpy(nanWeight.data() + weightsAt, &nan, 8);
    std::string negative = good;
    const double minus = -1;
    std::memcpy(negative.data() + weightsAt, &minus, 8);
    std::string offsetsBack = good;  // offsets that go backwards
    const int beyond = static_cast<int>(entries) + 1;  // above the last offset
    std::memcpy(offsetsBack.data() + data + 8 + 4, &beyond, 4);
    const std::size_t colsAt = basisAt + 36 * 8 * entries + 8 + 72 * model_.vertexCount() + 4 + 4 + 4 + 8;
    std::uint64_t cols;
    std::memcpy(&cols, good.data() + colsAt, 8);
    QCOMPARE(cols, std::uint64_t(32));  // where the mode count is
    std::string hugeEntries = setU64(good, entriesAt, 0x7fffffff);  // and the last offset with it
    const int most = 0x7fffffff;
    std::memcpy(hugeEntries.data() + data + 8 + offsets - 4, &most, 4);
    struct Case {
      const char* name;
      std::string bytes;
      const char* reason;
    };
    const std::vector<Case> cases = {
        {"empty", "", "too short"},
        {"text", "not a cache file at all, just some words", "not a cache file"},
        {"half", good.substr(0, good.size() / 2), "checksum"},
        {"truncated by 8", good.substr(0, good.size() - 8), "checksum"},
        {"flipped", flipped, "checksum"},
        {"key length huge", withChecksum(setU64(good, 0, std::uint64_t(1) << 62)), "other inputs"},
        {"entries huge", withChecksum(setU64(good, entriesAt, std::uint64_t(1) << 60)), "inconsistent"},
        {"offsets count", withChecksum(setU64(good, data, 5)), "offsets"},
        {"tet out of range", withChecksum(badTet), "not a tet"},
        {"NaN weight", withChecksum(nanWeight), "weight"},
        {"negative weight", withChecksum(negative), "weight"},
        {"offsets backwards", withChecksum(offsetsBack), "offsets inconsistent"},
        {"trailing", withChecksum(good + std::string(8, '\0')), "trailing"},
        {"entries huge, offsets agreeing", withChecksum(hugeEntries), "truncated in the cubature"},
        {"no modes", withChecksum(setU64(good, colsAt, 0)), "modes do not fit"},  // (found by fuzz_jgs2_cache)
        {"modes huge", withChecksum(setU64(good, colsAt, 3 * model_.vertexCount())), "truncated in the modes"},
    };
    for (const Case& c : cases) {
      why.clear();
      QVERIFY2(!io::decodeJgs2Cache(c.bytes, key, model_, &why), c.name);
      QVERIFY2(why.find(c.reason) != std::string::npos, (std::string(c.name) + ": " + why).c_str());
    }

    // Through the cached call: said, recomputed, replaced by a good file.
    QTemporaryDir dir;
    const fs::path cache = dir.filePath("c").toStdString();
    fs::create_directories(cache);
    const fs::path file = cache / io::jgs2CacheFileName(key);
    for (const Case& c : {cases[2], cases[8]}) {
      writeAll(file, c.bytes);
      io::Jgs2CacheUse use;
      const Jgs2Data got = io::precomputeJgs2Cached(model_, o, cache.string(), &use);
      QVERIFY(use.result == io::Jgs2CacheUse::Result::Computed);
      QVERIFY2(use.warning.find("ignored the cache file") != std::string::npos, use.warning.c_str());
      QVERIFY(got.basis == d.basis && got.modes == d.modes);
      io::precomputeJgs2Cached(model_, o, cache.string(), &use);
      QVERIFY(use.result == io::Jgs2CacheUse::Result::Read);
    }
    // A folder where the cache file's name is a folder: refused, computed, not saved.
    fs::remove(file);
    fs::create_directories(file);
    io::Jgs2CacheUse use;
    const Jgs2Data got = io::precomputeJgs2Cached(model_, o, cache.string(), &use);
    QVERIFY(use.result == io::Jgs2CacheUse::Result::Computed && use.path.empty());
    QVERIFY2(use.warning.find("not saved") != std::string::npos, use.warning.c_str());
    QVERIFY(got.basis == d.basis);
  }

  // A cancelled precomputation saves nothing.
  void cancelledSavesNothing() {
    QTemporaryDir dir;
    const std::string cache = dir.filePath("c").toStdString();
    Jgs2Options o = smallOptions();
    o.cancelRequested = [] { return true; };
    QVERIFY_THROWS_EXCEPTION(deform::Cancelled, io::precomputeJgs2Cached(model_, o, cache));
    QVERIFY(!fs::exists(cache) || fs::is_empty(cache));
  }

  // The folder keeps within kJgs2CacheBudget: after a save the least recently used cache files go
  // (sparse stand-ins of 0.9 GiB each, so the test writes next to nothing); other files and the new
  // one stay, and a file read is "used": it outlives older ones.
  void budgetRemovesLeastRecentlyUsed() {
    QTemporaryDir dir;
    const fs::path cache = dir.filePath("c").toStdString();
    const std::vector<fs::path> names = standIns(cache);
    const auto now = fs::file_time_type::clock::now();
    const std::uintmax_t big = fs::file_size(names[0]);
    QVERIFY(3 * big > io::kJgs2CacheBudget && 2 * big <= io::kJgs2CacheBudget);
    io::Jgs2CacheUse use;
    io::precomputeJgs2Cached(model_, smallOptions(), cache.string(), &use);
    QVERIFY(use.result == io::Jgs2CacheUse::Result::Computed && fs::exists(use.path));
    // 3 × 0.9 GiB + the new file > 2 GiB: the oldest goes, 1.8 GiB + the new file remain.
    QVERIFY(!fs::exists(names[0]));
    QVERIFY(fs::exists(names[1]));
    QVERIFY(fs::exists(names[2]));
    QVERIFY(fs::exists(cache / "notes.txt"));
    // Reading marks the file used: make it the oldest, read it, then a save of another part must
    // remove 2.9 GiB — the stand-ins, now older than it — and keeps it (unread, it would go first).
    fs::last_write_time(use.path, now - std::chrono::hours(20));
    io::precomputeJgs2Cached(model_, smallOptions(), cache.string(), &use);
    QVERIFY(use.result == io::Jgs2CacheUse::Result::Read);
    const std::string first = use.path;
    fs::resize_file(names[2], std::uintmax_t(2) << 30);  // over the budget alone
    fs::last_write_time(names[2], now - std::chrono::hours(8));  // (resizing made it new)
    Jgs2Options other = smallOptions();
    other.seed = 9;
    io::precomputeJgs2Cached(model_, other, cache.string(), &use);
    QVERIFY(use.result == io::Jgs2CacheUse::Result::Computed && use.path != first);
    QVERIFY(!fs::exists(names[1]));
    QVERIFY(!fs::exists(names[2]));
    QVERIFY2(fs::exists(first), first.c_str());
    QVERIFY2(fs::exists(use.path), use.path.c_str());
  }

  // MECHSIM_CACHE_MAX sets the budget: large enough, the three 0.9 GiB stand-ins all stay; "0"
  // keeps only the file just saved (the note beside it stays); a value that is not a size keeps
  // the 2 GiB default — the oldest stand-in goes — and the warning says so.
  void budgetFromTheEnvironment() {
    io::Jgs2CacheUse use;
    {
      QTemporaryDir dir;
      const fs::path cache = dir.filePath("c").toStdString();
      const auto stand = standIns(cache);
      qputenv("MECHSIM_CACHE_MAX", "3G");
      QCOMPARE(io::jgs2CacheBudget(), std::uintmax_t(3) << 30);
      io::precomputeJgs2Cached(model_, smallOptions(), cache.string(), &use);
      QVERIFY(use.result == io::Jgs2CacheUse::Result::Computed && use.warning.empty());
      for (const fs::path& p : stand) QVERIFY2(fs::exists(p), p.c_str());
    }
    {
      QTemporaryDir dir;
      const fs::path cache = dir.filePath("c").toStdString();
      const auto stand = standIns(cache);
      qputenv("MECHSIM_CACHE_MAX", "0");
      io::precomputeJgs2Cached(model_, smallOptions(), cache.string(), &use);
      QVERIFY(use.result == io::Jgs2CacheUse::Result::Computed && use.warning.empty());
      for (const fs::path& p : stand) QVERIFY2(!fs::exists(p), p.c_str());
      QVERIFY(fs::exists(use.path) && fs::exists(cache / "notes.txt"));
    }
    {
      QTemporaryDir dir;
      const fs::path cache = dir.filePath("c").toStdString();
      const auto stand = standIns(cache);
      qputenv("MECHSIM_CACHE_MAX", "lots");
      std::string warning;
      QCOMPARE(io::jgs2CacheBudget(&warning), io::kJgs2CacheBudget);
      QCOMPARE(warning, std::string("MECHSIM_CACHE_MAX=\"lots\" is not a size (such as 8G or 500M); the cache keeps at most 2 GiB"));
      io::precomputeJgs2Cached(model_, smallOptions(), cache.string(), &use);
      QVERIFY(use.result == io::Jgs2CacheUse::Result::Computed);
      QCOMPARE(use.warning, warning);
      QVERIFY(!fs::exists(stand[0]) && fs::exists(stand[1]) && fs::exists(stand[2]) && fs::exists(use.path));
    }
    qunsetenv("MECHSIM_CACHE_MAX");  // as initTestCase left it
    QCOMPARE(io::jgs2CacheBudget(), io::kJgs2CacheBudget);
  }

  // Where the cache is: MECHSIM_CACHE_DIR ("off" / empty: none), XDG_CACHE_HOME, HOME.
  void defaultFolder() {
    const QByteArray own = qgetenv("MECHSIM_CACHE_DIR"), xdg = qgetenv("XDG_CACHE_HOME"), home = qgetenv("HOME");
    const bool hadOwn = qEnvironmentVariableIsSet("MECHSIM_CACHE_DIR"), hadXdg = qEnvironmentVariableIsSet("XDG_CACHE_HOME");
    qputenv("MECHSIM_CACHE_DIR", "off");
    QCOMPARE(io::defaultJgs2CacheDir(), std::string());
    qputenv("MECHSIM_CACHE_DIR", "");
    QCOMPARE(io::defaultJgs2CacheDir(), std::string());
    qputenv("MECHSIM_CACHE_DIR", "/tmp/own");
    QCOMPARE(io::defaultJgs2CacheDir(), std::string("/tmp/own/jgs2"));
    qunsetenv("MECHSIM_CACHE_DIR");
    qputenv("XDG_CACHE_HOME", "/tmp/xdg");
    QCOMPARE(io::defaultJgs2CacheDir(), std::string("/tmp/xdg/mechsim/jgs2"));
    qputenv("XDG_CACHE_HOME", "relative");  // not absolute: ignored (XDG base directory rules)
    qputenv("HOME", "/tmp/home");
    QCOMPARE(io::defaultJgs2CacheDir(), std::string("/tmp/home/.cache/mechsim/jgs2"));
    qunsetenv("XDG_CACHE_HOME");
    qunsetenv("HOME");
    QCOMPARE(io::defaultJgs2CacheDir(), std::string());
    qputenv("HOME", home);
    if (hadXdg) qputenv("XDG_CACHE_HOME", xdg);
    if (hadOwn) qputenv("MECHSIM_CACHE_DIR", own);
  }
};

QTEST_GUILESS_MAIN(TestJgs2Cache)
#include "test_jgs2_cache.moc"
