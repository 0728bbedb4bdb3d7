#pragma once
// core/io/engine.h — the engine (core/sim) fed from files: the services core/sim takes through its
// interfaces (core/sim/services.h) — driver expressions by muparser, JGS2 precomputations kept in
// the on-disk cache (core/io/jgs2_cache.h) — and the one call that reads a mechanism file and
// compiles its engine model, with FILE:LINE:COL errors.
#include <memory>
#include <string>
#include <vector>

#include "core/sim/model.h"
#include "core/sim/options.h"
#include "core/spec.h"

namespace mechsim::io {

/// A sim::Jgs2Source that reads JGS2 precomputations from the cache folder `dir` and saves new ones
/// there (io::precomputeJgs2Cached); an empty dir computes every time.
std::shared_ptr<sim::Jgs2Source> cachedJgs2(std::string dir);

/// `options` with the file services filled in where they are empty: the driver expressions
/// (io::driverFunctions) and the JGS2 cache at `cacheDir` (default io::defaultJgs2CacheDir();
/// "" for none).
sim::Options engineOptions(sim::Options options = {});
sim::Options engineOptions(sim::Options options, const std::string& cacheDir);

/// The engine's model of a spec: io::compileSpec (errors as FILE:LINE:COL, io::LoadError), then
/// sim::compile with engineOptions(options).
sim::Model compileEngine(std::shared_ptr<const MechanismSpec> spec, const sim::Options& options = {});

/// readMechanismFile + compileEngine. Import warnings (if asked for) go to `warnings`.
sim::Model loadEngine(const std::string& path, const sim::Options& options = {},
                      std::vector<std::string>* warnings = nullptr);

}  // namespace mechsim::io
