// core/io/engine.cpp — the engine's file services and loading (see the header).
#include "core/io/engine.h"

#include "core/io/jgs2_cache.h"
#include "core/io/load.h"
#include "core/io/load_dynamics.h"
#include "core/io/pose_limits.h"

namespace mechsim::io {
namespace {

class CachedJgs2 : public sim::Jgs2Source {
 public:
  explicit CachedJgs2(std::string dir) : dir_(std::move(dir)) {}
  deform::Jgs2Data precompute(const deform::DeformableModel& m, const deform::Jgs2Options& o,
                              sim::Jgs2Report& report) override {
    Jgs2CacheUse use;
    deform::Jgs2Data data = precomputeJgs2Cached(m, o, dir_, &use);
    report = sim::Jgs2Report{};
    report.fromCache = use.result == Jgs2CacheUse::Result::Read;
    report.saved = use.result == Jgs2CacheUse::Result::Computed && !use.path.empty();
    report.seconds = report.fromCache ? 0.0 : data.totalSeconds;
    report.warning = use.warning;
    return data;
  }

 private:
  std::string dir_;
};

}  // namespace

std::shared_ptr<sim::Jgs2Source> cachedJgs2(std::string dir) { return std::make_shared<CachedJgs2>(std::move(dir)); }

sim::Options engineOptions(sim::Options options) { return engineOptions(std::move(options), defaultJgs2CacheDir()); }

sim::Options engineOptions(sim::Options options, const std::string& cacheDir) {
  if (!options.expressions) options.expressions = [](const MechanismSpec& s) { return driverFunctions(s); };
  if (!options.efforts) options.efforts = [](const MechanismSpec& s) { return motorEffortFunctions(s); };
  if (!options.jgs2) options.jgs2 = cachedJgs2(cacheDir);
  return options;
}

sim::Model compileEngine(std::shared_ptr<const MechanismSpec> spec, const sim::Options& options) {
  auto file = std::make_shared<const Model>(compileSpec(*spec));
  return sim::compile(std::move(spec), std::move(file), engineOptions(options));
}

sim::Model loadEngine(const std::string& path, const sim::Options& options, std::vector<std::string>* warnings) {
  auto spec = std::make_shared<const MechanismSpec>(readMechanismFile(path));
  if (warnings) *warnings = spec->warnings;
  const std::shared_ptr<const MechanismSpec> keep = spec;
  sim::Model m = compileEngine(std::move(spec), options);
  // A starting pose outside a joint's limits (pose_limits.h).
  if (warnings && m.file)
    for (std::string& w : poseLimitWarnings(*keep, *m.file)) warnings->push_back(std::move(w));
  return m;
}

}  // namespace mechsim::io
