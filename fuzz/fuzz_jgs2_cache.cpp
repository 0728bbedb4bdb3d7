// fuzz/fuzz_jgs2_cache.cpp — the JGS2 cache file decoder (core/io/jgs2_cache.h) on arbitrary bytes,
// for a fixed 12-tet part. The first byte picks the form: odd → the rest is the whole file; even →
// the rest is the data section, wrapped in the part's own key and given the right checksum, so
// that the checks behind the key and the checksum (counts, offsets, indices, finite values) are
// what the fuzzer reaches.
// Checked beyond "no crash, no sanitizer report, no hang": the decoder never throws, and data it
// accepts are consistent with the part (offsets, tet indices, sizes, finite values).
// MECHSIM_FUZZ_WRITE_SEED=FILE writes a valid input (the even form of the part's real
// precomputation, checked to decode) to FILE first: fuzz/regressions/jgs2_cache/valid-12-tets was
// made so, and scripts/fuzz.sh starts the corpus from the regressions.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>

#include "core/deform/deformable.h"
#include "core/deform/solver.h"
#include "core/io/jgs2_cache.h"

namespace {
using namespace mechsim;

struct Setup {
  deform::DeformableModel model;
  std::string key;
};

const Setup& setup() {
  static const Setup s = [] {
    Setup r;
    deform::TetMesh mesh = deform::makeBoxMesh(Vec3(1, 0.5, 0.5), 2, 1, 1);
    std::vector<int> pinned;
    for (int v = 0; v < mesh.vertexCount(); ++v)
      if (mesh.vertices[v].x() < 1e-9) pinned.push_back(v);
    r.model = deform::makeDeformableModel(mesh, deform::Material{}, 0.01, Vec3(0, 0, -9.81), pinned);
    r.key = io::jgs2CacheKey(r.model, deform::Jgs2Options{});
    if (const char* seed = std::getenv("MECHSIM_FUZZ_WRITE_SEED")) {
      const std::string file = io::encodeJgs2Cache(r.key, deform::precomputeJgs2(r.model, deform::Jgs2Options{}));
      std::string why;
      if (!io::decodeJgs2Cache(file, r.key, r.model, &why)) {
        std::fprintf(stderr, "fuzz_jgs2_cache: the seed is refused: %s\n", why.c_str());
        std::abort();
      }
      std::ofstream out(seed, std::ios::binary);
      out.put('\0');
      const std::size_t data = 8 + r.key.size();
      out.write(file.data() + data, static_cast<std::streamsize>(file.size() - data - 8));
    }
    return r;
  }();
  return s;
}

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_jgs2_cache: %s\n", what);
  std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Setup& s = setup();
  if (size == 0) return 0;
  std::string bytes;
  if (data[0] % 2 == 1) {
    bytes.assign(reinterpret_cast<const char*>(data) + 1, size - 1);
  } else {
    const std::uint64_t n = s.key.size();
    bytes.append(reinterpret_cast<const char*>(&n), 8);
    bytes += s.key;
    bytes.append(reinterpret_cast<const char*>(data) + 1, size - 1);
    const std::uint64_t sum = io::jgs2CacheChecksum(bytes);
    bytes.append(reinterpret_cast<const char*>(&sum), 8);
  }
  std::optional<deform::Jgs2Data> d;
  try {
    d = io::decodeJgs2Cache(bytes, s.key, s.model);
  } catch (const std::exception& e) {
    fail(e.what());
  }
  if (!d) return 0;
  const int nv = s.model.vertexCount(), nt = s.model.tetCount();
  if (int(d->offset.size()) != nv + 1 || d->offset.front() != 0) fail("offsets");
  for (int v = 0; v < nv; ++v)
    if (d->offset[v + 1] < d->offset[v]) fail("offsets decrease");
  const std::size_t entries = static_cast<std::size_t>(d->offset.back());
  if (d->tet.size() != entries || d->weight.size() != entries || d->basis.size() != 36 * entries) fail("sizes");
  for (int t : d->tet)
    if (t < 0 || t >= nt) fail("tet index");
  for (double w : d->weight)
    if (!(w >= 0) || !std::isfinite(w)) fail("weight");
  if (d->restSchur.size() != std::size_t(9 * nv) || d->modes.rows() != 3 * nv ||
      d->modeValues.size() != d->modes.cols())
    fail("sizes");
  if (!d->modes.allFinite() || !d->modeValues.allFinite()) fail("modes");
  return 0;
}
