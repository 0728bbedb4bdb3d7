// core/io/study.cpp — parameter studies (core/io/study.h).
//
// Random draws: a run's generator is splitmix64 seeded from (seed, run) alone, and the normal
// draws are Box–Muller by hand, so that a run's values are the same bits on every machine and in
// every order the runs are taken in (std::normal_distribution's algorithm is the library's own
// choice, and one shared generator would make a run's values depend on the runs before it).
#include "core/io/study.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "core/io/engine.h"
#include "core/io/jgs2_cache.h"
#include "core/io/json_section.h"
#include "core/io/load.h"
#include "core/io/read_file.h"
#include "core/io/write.h"
#include "core/spec_path.h"

namespace mechsim::io {

namespace {

namespace fs = std::filesystem;
using json::Kind;

int handleIndex(const Model& m, const std::string& name) {
  for (std::size_t i = 0; i < m.handles.size(); ++i)
    if (m.handles[i].name == name) return static_cast<int>(i);
  return -1;
}
using json::Value;

constexpr double kPi = 3.14159265358979323846;

std::uint64_t splitmix64(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
/// Uniform in [0, 1) with 53 random bits.
double uniform01(std::uint64_t& s) { return double(splitmix64(s) >> 11) * 0x1.0p-53; }

std::string number17(double x) {
  char b[40];
  const auto r = std::to_chars(b, b + sizeof b, x, std::chars_format::general, 17);
  return std::string(b, r.ptr);
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

const char* reduceName(StudyOutput::Reduce r) {
  switch (r) {
    case StudyOutput::Reduce::Min: return "min";
    case StudyOutput::Reduce::Max: return "max";
    case StudyOutput::Reduce::Rms: return "rms";
    case StudyOutput::Reduce::Mean: return "mean";
    case StudyOutput::Reduce::Final: return "final";
    case StudyOutput::Reduce::ValueAt: return "value";
    case StudyOutput::Reduce::MaxDeviation: return "max-deviation";
  }
  return "";
}

/// The study file's reader: JsonSection's checked, located access (errors FILE:LINE:COL).
class StudyReader : JsonSection {
 public:
  StudyReader(MechanismSpec& scratch, const std::string& file) : JsonSection(scratch, file) {}

  struct Parsed {
    std::string mechanism, analysis;
    double tEnd = 0;
    std::optional<double> dt;
    DeformSettings deform;
    std::vector<StudyVariable> variables;
    std::vector<StudyOutput> outputs;
    std::vector<SourceLoc> variableLocs, outputLocs;
    long draws = 0;  // 0: not given
    std::uint64_t seed = 1;
  };

  Parsed read(const std::string& text, const std::string& dir) {
    Value root;
    try {
      root = json::parse(text, json::ParseLimits{16u << 20, 32});
    } catch (const json::ParseError& e) {
      throw LoadError(Diagnostic{file_, e.loc().line, e.loc().col, e.what()});
    }
    expectKind(root, "", Kind::Object, "a study object {\"mechsim-study\": 1, ...}");
    const Value* ver = opt(root, "", "mechsim-study");
    if (!ver) fail(root, "", "not a study file: missing the format version key \"mechsim-study\": 1");
    if (integer(*ver, "mechsim-study") != 1) fail(*ver, "mechsim-study", "unsupported study format version (this program reads 1)");
    checkKeys(root, "", {"mechsim-study", "mechanism", "analysis", "vary", "runs", "seed", "outputs"}, "a study");
    Parsed p;
    const Value& mech = req(root, "", "mechanism", "the mechanism file (relative to the study file)");
    p.mechanism = name(mech, "mechanism");
    if (fs::path(p.mechanism).is_relative()) p.mechanism = (fs::path(dir) / p.mechanism).lexically_normal().string();
    analysis(req(root, "", "analysis", "{\"kind\": \"kinematics\", \"t-end\": T, \"dt\": H}"), p);
    const Value& vary = req(root, "", "vary", "what to vary");
    items(vary, "vary", "an array of variables", [&](const Value& v, const std::string& path) {
      p.variables.push_back(variable(v, path));
      p.variableLocs.push_back(v.loc);
    });
    if (p.variables.empty()) fail(vary, "vary", "nothing to vary");
    if (const Value* r = opt(root, "", "runs")) p.draws = integer(*r, "runs", 1, 100000000);
    if (const Value* s = opt(root, "", "seed")) p.seed = static_cast<std::uint64_t>(integer(*s, "seed", 0, 1000000000));
    const Value& outs = req(root, "", "outputs", "what each run reports");
    items(outs, "outputs", "an array of outputs", [&](const Value& v, const std::string& path) {
      p.outputs.push_back(output(v, path));
      p.outputLocs.push_back(v.loc);
    });
    if (p.outputs.empty()) fail(outs, "outputs", "no outputs");
    // Random draws need "runs"; lists must agree in length.
    bool random = false;
    std::size_t listLength = 0;
    for (std::size_t k = 0; k < p.variables.size(); ++k) {
      const StudyVariable& v = p.variables[k];
      random = random || v.kind == StudyVariable::Kind::Uniform || v.kind == StudyVariable::Kind::Normal;
      if (v.kind == StudyVariable::Kind::List) {
        if (listLength && v.values.size() != listLength)
          fail(p.variableLocs[k], index("vary", k), "every \"list\" must have as many values as the first (" +
                                                        std::to_string(listLength) + ")");
        listLength = v.values.size();
      }
    }
    if (random && !p.draws) fail(root, "", "random draws (\"uniform\", \"normal\") need \"runs\": how many to draw");
    if (!random && p.draws > 1) fail(*root.find("runs"), "runs", "\"runs\" counts random draws: this study has none");
    return p;
  }

 private:
  void analysis(const Value& v, Parsed& p) {
    expectKind(v, "analysis", Kind::Object, "{\"kind\": \"kinematics\", \"t-end\": T, \"dt\": H}");
    checkKeys(v, "analysis", {"kind", "t-end", "dt", "method"}, "an analysis");
    const Value& k = req(v, "analysis", "kind", "kinematics, simulate or deform");
    p.analysis = string(k, "analysis.kind");
    if (p.analysis != "kinematics" && p.analysis != "simulate" && p.analysis != "deform")
      fail(k, "analysis.kind", "unknown analysis \"" + p.analysis + "\" (kinematics, simulate or deform)");
    const Value& te = req(v, "analysis", "t-end", "the run's end time [s]");
    p.tEnd = number(te, "analysis.t-end");
    if (const Value* d = opt(v, "analysis", "dt")) p.dt = positive(*d, "analysis.dt", "dt");
    else if (p.analysis != "simulate") fail(v, "analysis", "missing required key \"dt\" (the output step [s])");
    try {
      runSteps(p.analysis, p.tEnd, p.dt ? *p.dt : 1e-3);
    } catch (const std::invalid_argument& e) {
      fail(te, "analysis.t-end", e.what());
    }
    if (const Value* m = opt(v, "analysis", "method")) {
      if (p.analysis != "deform") fail(*m, "analysis.method", "\"method\" is a deform analysis's");
      const std::string s = string(*m, "analysis.method");
      p.deform.method = deform::methodFromString(s);
      if (!p.deform.method) fail(*m, "analysis.method", "unknown method \"" + s + "\" (newton, vbd, jacobi, jgs2-jacobi, jgs2-gs)");
    }
  }

  StudyVariable variable(const Value& v, const std::string& path) {
    expectKind(v, path, Kind::Object, "{\"parameter\": NAME, \"grid\": [...]} or {\"path\": PATH, ...}");
    checkKeys(v, path, {"parameter", "path", "grid", "list", "uniform", "normal"}, "a variable");
    StudyVariable x;
    const Value* pn = opt(v, path, "parameter");
    const Value* pp = opt(v, path, "path");
    if (!pn == !pp) fail(v, path, "give exactly one of \"parameter\" (a name of the file's parameters) or \"path\" (a spec path)");
    x.isParameter = pn != nullptr;
    x.name = name(pn ? *pn : *pp, child(path, pn ? "parameter" : "path"));
    int forms = 0;
    if (const Value* g = opt(v, path, "grid")) {
      ++forms;
      x.kind = StudyVariable::Kind::Grid;
      if (g->kind == Kind::Object) {  // {"from", "to", "count"}
        checkKeys(*g, child(path, "grid"), {"from", "to", "count"}, "a grid");
        const double a = number(req(*g, child(path, "grid"), "from", "the first value"), child(child(path, "grid"), "from"));
        const double b = number(req(*g, child(path, "grid"), "to", "the last value"), child(child(path, "grid"), "to"));
        const int n = integer(req(*g, child(path, "grid"), "count", "how many values"), child(child(path, "grid"), "count"), 1, 1000000);
        for (int i = 0; i < n; ++i) x.values.push_back(n == 1 ? a : a + (b - a) * i / (n - 1));
      } else {
        x.values = valueList(*g, child(path, "grid"));
      }
    }
    if (const Value* l = opt(v, path, "list")) {
      ++forms;
      x.kind = StudyVariable::Kind::List;
      x.values = valueList(*l, child(path, "list"));
    }
    if (const Value* u = opt(v, path, "uniform")) {
      ++forms;
      x.kind = StudyVariable::Kind::Uniform;
      const auto r = numbers(*u, child(path, "uniform"), 2, 1.0, "[low, high]");
      if (!(r[1] >= r[0])) fail(*u, child(path, "uniform"), "expected [low, high] with high ≥ low");
      x.lo = r[0];
      x.hi = r[1];
    }
    if (const Value* n = opt(v, path, "normal")) {
      ++forms;
      x.kind = StudyVariable::Kind::Normal;
      const std::string np = child(path, "normal");
      expectKind(*n, np, Kind::Object, "{\"mean\": M, \"sd\": S} or {\"mean\": M, \"tolerance\": T} (T = 3 sd)");
      checkKeys(*n, np, {"mean", "sd", "tolerance"}, "a normal distribution");
      x.mean = number(req(*n, np, "mean", "the mean"), child(np, "mean"));
      const Value* sd = opt(*n, np, "sd");
      const Value* tol = opt(*n, np, "tolerance");
      if (!sd == !tol) fail(*n, np, "give exactly one of \"sd\" or \"tolerance\" (± tolerance = 3 standard deviations)");
      x.sd = sd ? number(*sd, child(np, "sd")) : number(*tol, child(np, "tolerance")) / 3;
      if (!(x.sd >= 0)) fail(sd ? *sd : *tol, child(np, sd ? "sd" : "tolerance"), "must not be negative");
    }
    if (forms != 1) fail(v, path, "give exactly one of \"grid\", \"list\", \"uniform\" or \"normal\"");
    return x;
  }

  std::vector<double> valueList(const Value& a, const std::string& path) {
    std::vector<double> out;
    items(a, path, "an array of numbers", [&](const Value& x, const std::string& p) { out.push_back(number(x, p)); });
    if (out.empty()) fail(a, path, "no values");
    return out;
  }

  StudyOutput output(const Value& v, const std::string& path) {
    expectKind(v, path, Kind::Object, "{\"column\": NAME, \"reduce\": \"max\"} or {\"handle\": NAME, \"reduce\": \"max-deviation\"}");
    checkKeys(v, path, {"name", "column", "handle", "body", "point", "reduce", "at"}, "an output");
    StudyOutput o;
    const Value& r = req(v, path, "reduce", "min, max, rms, mean, final, value or max-deviation");
    const std::string rs = string(r, child(path, "reduce"));
    using R = StudyOutput::Reduce;
    const std::vector<std::pair<const char*, R>> reduces{{"min", R::Min},     {"max", R::Max},     {"rms", R::Rms},
                                                         {"mean", R::Mean},   {"final", R::Final}, {"value", R::ValueAt},
                                                         {"max-deviation", R::MaxDeviation}};
    bool known = false;
    for (const auto& [n, k] : reduces)
      if (rs == n) {
        o.reduce = k;
        known = true;
      }
    if (!known) fail(r, child(path, "reduce"), "unknown reduction \"" + rs + "\" (min, max, rms, mean, final, value, max-deviation)");
    if (o.reduce == R::MaxDeviation) {
      const Value* h = opt(v, path, "handle");
      const Value* b = opt(v, path, "body");
      if (!h == !b) fail(v, path, "max-deviation needs a \"handle\", or a \"body\" and a \"point\" in its frame");
      if (h) o.handle = name(*h, child(path, "handle"));
      if (b) {
        o.body = name(*b, child(path, "body"));
        o.local = vec3(req(v, path, "point", "the point in the body's frame [m]"), child(path, "point"), 1.0);
      }
    } else {
      o.column = name(req(v, path, "column", "a column of the run's table"), child(path, "column"));
      if (o.reduce == R::ValueAt) o.at = number(req(v, path, "at", "the time t [s]"), child(path, "at"));
    }
    if (const Value* n = opt(v, path, "name")) o.name = name(*n, child(path, "name"));
    else if (o.reduce == R::MaxDeviation) o.name = "max-deviation(" + (o.handle.empty() ? o.body : o.handle) + ")";
    else if (o.reduce == R::ValueAt) o.name = "value(" + o.column + "@" + number17(o.at) + ")";
    else o.name = std::string(reduceName(o.reduce)) + "(" + o.column + ")";
    return o;
  }
};

}  // namespace

// ---- the plan ----

StudyPlan::StudyPlan(const std::string& path) : path_(path) {
  const FileText file = readMechanismText(path, 16u << 20);
  MechanismSpec scratch;
  const StudyReader::Parsed p = StudyReader(scratch, path).read(file.text, file.dir);
  mechanism_ = p.mechanism;
  analysis_ = p.analysis;
  tEnd_ = p.tEnd;
  dt_ = p.dt;
  deform_ = p.deform;
  variables_ = p.variables;
  outputs_ = p.outputs;
  seed_ = p.seed;
  // The design's size: grids × the lists' length × draws.
  bool lists = false;
  for (const StudyVariable& v : variables_) {
    if (v.kind == StudyVariable::Kind::Grid) grid_ *= static_cast<long>(v.values.size());
    if (v.kind == StudyVariable::Kind::List && !lists) {
      list_ = static_cast<long>(v.values.size());
      lists = true;
    }
    if (grid_ > 100000000) break;
  }
  draws_ = p.draws ? p.draws : 1;
  const double total = double(grid_) * double(list_) * double(draws_);
  if (total > 1e8) throw LoadError(Diagnostic{path, 1, 1, "the study has " + number17(total) + " runs (at most 1e8)"});
  runs_ = static_cast<long>(total);

  // Check the names against the mechanism once: a study that names a parameter, a path, a handle
  // or a column the mechanism lacks says so now, at its place in the study file.
  const MechanismSpec spec = readMechanismFile(mechanism_);
  auto failAt = [&](SourceLoc loc, const std::string& where, const std::string& msg) {
    throw LoadError(Diagnostic{path, loc.line, loc.col, where + ": " + msg});
  };
  for (std::size_t k = 0; k < variables_.size(); ++k) {
    const StudyVariable& v = variables_[k];
    const std::string where = "vary[" + std::to_string(k) + "]";
    if (v.isParameter) {
      bool found = false;
      for (const ParameterSpec& q : spec.parameters) found = found || q.name == v.name;
      if (!found) failAt(p.variableLocs[k], where, "the mechanism has no parameter \"" + v.name + "\"");
    } else {
      try {
        const SpecValue sv = getSpecValue(spec, v.name);
        if (sv.text) failAt(p.variableLocs[k], where, "\"" + v.name + "\" is a text, not a number");
        if (sv.count != 1) failAt(p.variableLocs[k], where, "\"" + v.name + "\" holds " + std::to_string(sv.count) +
                                                                " numbers: vary one of them (" + v.name + "[0])");
      } catch (const std::invalid_argument& e) {
        failAt(p.variableLocs[k], where, e.what());
      }
    }
  }
  const Model model = compileSpec(spec);
  std::vector<std::string> columns;
  if (analysis_ == "deform") {
    columns = {"t", "iterations", "converged", "centroid_x", "centroid_y", "centroid_z", "max_speed", "attach_error"};
  } else {
    columns = trajectoryColumns(model, true);
    if (analysis_ == "simulate") {
      for (const Joint& j : model.joints)
        for (const char* s : {".Fx", ".Fy", ".Fz", ".Tx", ".Ty", ".Tz"}) columns.push_back(j.name + s);
      for (const char* s : {"energy.kinetic", "energy.potential", "energy.total"}) columns.push_back(s);
    }
  }
  for (std::size_t k = 0; k < outputs_.size(); ++k) {
    const StudyOutput& o = outputs_[k];
    const std::string where = "outputs[" + std::to_string(k) + "]";
    if (o.reduce == StudyOutput::Reduce::MaxDeviation) {
      if (analysis_ == "deform") failAt(p.outputLocs[k], where, "a point's path is not in a deform analysis's table");
      if (!o.handle.empty() && handleIndex(model, o.handle) < 0)
        failAt(p.outputLocs[k], where, "the mechanism has no handle \"" + o.handle + "\"");
      if (!o.body.empty() && model.findBody(o.body) < 0)
        failAt(p.outputLocs[k], where, "the mechanism has no body \"" + o.body + "\"");
    } else if (std::find(columns.begin(), columns.end(), o.column) == columns.end()) {
      failAt(p.outputLocs[k], where, "the " + analysis_ + " table has no column \"" + o.column + "\"");
    }
  }
}

std::vector<std::string> StudyPlan::columns() const {
  std::vector<std::string> c{"run"};
  for (const StudyVariable& v : variables_) c.push_back(v.name);
  for (const StudyOutput& o : outputs_) c.push_back(o.name);
  c.push_back("status");
  c.push_back("error");
  return c;
}

std::vector<double> StudyPlan::values(long i) const {
  if (i < 0 || i >= runs_) throw std::out_of_range("run " + std::to_string(i) + " is not in the study");
  // i = (grid index × lists + list index) × draws + draw; the draw is the generator's seed below.
  long rest = i / draws_;
  const long listIndex = rest % list_;
  rest /= list_;
  std::uint64_t state = seed_ * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(i) + 1;
  std::vector<double> out(variables_.size());
  // Grid axes: the last varies fastest.
  for (int k = static_cast<int>(variables_.size()) - 1; k >= 0; --k) {
    const StudyVariable& v = variables_[k];
    if (v.kind != StudyVariable::Kind::Grid) continue;
    const long n = static_cast<long>(v.values.size());
    out[k] = v.values[rest % n];
    rest /= n;
  }
  for (std::size_t k = 0; k < variables_.size(); ++k) {
    const StudyVariable& v = variables_[k];
    switch (v.kind) {
      case StudyVariable::Kind::Grid: break;
      case StudyVariable::Kind::List: out[k] = v.values[listIndex]; break;
      case StudyVariable::Kind::Uniform: out[k] = v.lo + (v.hi - v.lo) * uniform01(state); break;
      case StudyVariable::Kind::Normal: {
        // Box–Muller: u1 in (0, 1] so that log(u1) is finite.
        const double u1 = 1.0 - uniform01(state), u2 = uniform01(state);
        out[k] = v.mean + v.sd * std::sqrt(-2 * std::log(u1)) * std::cos(2 * kPi * u2);
        break;
      }
    }
  }
  return out;
}

RunResult StudyPlan::analyse(const std::map<std::string, double>& parameters,
                             const std::vector<std::pair<std::string, double>>& paths, const RunStop& stop) const {
  MechanismSpec spec = readMechanismFile(mechanism_, parameters);
  for (const auto& [p, x] : paths) setSpecValue(spec, p, SpecValue{{x}, {}, 1});
  auto shared = std::make_shared<const MechanismSpec>(std::move(spec));
  if (analysis_ == "kinematics") return runKinematics(compileEngine(shared, kinematicsOptions()), tEnd_, *dt_, stop);
  if (analysis_ == "simulate") return runSimulate(compileEngine(shared, simulateOptions()), tEnd_, dt_, stop);
  sim::Options o = deformOptions(*dt_, deform_);
  o.jgs2 = cachedJgs2(defaultJgs2CacheDir());
  return runDeform(compileEngine(shared, o), tEnd_, *dt_, deform_, stop);
}

std::vector<std::vector<Vec3>> StudyPlan::pointPaths(const RunResult& r) const {
  std::vector<std::vector<Vec3>> out(outputs_.size());
  for (std::size_t k = 0; k < outputs_.size(); ++k) {
    const StudyOutput& o = outputs_[k];
    if (o.reduce != StudyOutput::Reduce::MaxDeviation) continue;
    int body = -1;
    Vec3 local = o.local;
    if (!o.handle.empty()) {
      const int h = handleIndex(*r.model, o.handle);
      if (h < 0) throw std::runtime_error("no handle \"" + o.handle + "\"");
      body = r.model->handles[h].body;
      local = r.model->handles[h].local;
    } else {
      body = r.model->findBody(o.body);
      if (body < 0) throw std::runtime_error("no body \"" + o.body + "\"");
    }
    for (const TrajectoryFrame& f : r.frames) out[k].push_back(bodyPose(*r.model, f.q, body).apply(local));
  }
  return out;
}

const std::vector<std::vector<Vec3>>& StudyPlan::nominalPaths() const {
  std::call_once(nominalOnce_, [&] {
    try {
      const RunResult r = analyse({}, {}, {});
      if (!r.failure.empty()) nominalError_ = "the nominal run failed: " + r.failure;
      else nominal_ = pointPaths(r);
    } catch (const std::exception& e) {
      nominalError_ = std::string("the nominal run failed: ") + e.what();
    }
  });
  if (!nominalError_.empty()) throw std::runtime_error(nominalError_);
  return nominal_;
}

StudyRow StudyPlan::run(long i, const RunStop& stop) const {
  StudyRow row;
  row.run = i;
  row.values = values(i);
  try {
    std::map<std::string, double> parameters;
    std::vector<std::pair<std::string, double>> paths;
    for (std::size_t k = 0; k < variables_.size(); ++k) {
      if (variables_[k].isParameter) parameters[variables_[k].name] = row.values[k];
      else paths.emplace_back(variables_[k].name, row.values[k]);
    }
    bool deviations = false;
    for (const StudyOutput& o : outputs_) deviations = deviations || o.reduce == StudyOutput::Reduce::MaxDeviation;
    const std::vector<std::vector<Vec3>>* nominal = deviations ? &nominalPaths() : nullptr;
    const RunResult r = analyse(parameters, paths, stop);
    if (r.interrupted) {
      row.error = "interrupted";
      return row;
    }
    if (!r.failure.empty()) {
      row.error = r.failure;
      return row;
    }
    const std::vector<std::vector<Vec3>> mine = deviations ? pointPaths(r) : std::vector<std::vector<Vec3>>{};
    for (std::size_t k = 0; k < outputs_.size(); ++k) {
      const StudyOutput& o = outputs_[k];
      using R = StudyOutput::Reduce;
      double x = 0;
      if (o.reduce == R::MaxDeviation) {
        const std::vector<Vec3>& a = mine[k];
        const std::vector<Vec3>& b = (*nominal)[k];
        if (a.size() != b.size()) throw std::runtime_error("the run has " + std::to_string(a.size()) + " rows, the nominal run " + std::to_string(b.size()));
        for (std::size_t j = 0; j < a.size(); ++j) x = std::max(x, (a[j] - b[j]).norm());
      } else {
        const int c = r.column(o.column);
        if (c < 0 || c == r.textColumn) throw std::runtime_error("no column \"" + o.column + "\"");
        const std::vector<double>& v = r.values[c];
        if (v.empty()) throw std::runtime_error("the run has no rows");
        switch (o.reduce) {
          case R::Min: x = *std::min_element(v.begin(), v.end()); break;
          case R::Max: x = *std::max_element(v.begin(), v.end()); break;
          case R::Mean:
          case R::Rms: {
            double s = 0;
            for (double y : v) s += o.reduce == R::Rms ? y * y : y;
            x = o.reduce == R::Rms ? std::sqrt(s / v.size()) : s / v.size();
            break;
          }
          case R::Final: x = v.back(); break;
          case R::ValueAt: {
            const std::vector<double>& t = r.values[0];
            if (o.at < t.front() || o.at > t.back())
              throw std::runtime_error("t = " + number17(o.at) + " s is outside the run (0 … " + number17(t.back()) + " s)");
            const auto it = std::lower_bound(t.begin(), t.end(), o.at);
            const std::size_t j = static_cast<std::size_t>(it - t.begin());
            if (*it == o.at || j == 0) x = v[j];
            else x = v[j - 1] + (v[j] - v[j - 1]) * (o.at - t[j - 1]) / (t[j] - t[j - 1]);
            break;
          }
          case R::MaxDeviation: break;
        }
      }
      if (!std::isfinite(x)) throw std::runtime_error("output \"" + o.name + "\" is not finite");
      row.outputs.push_back(x);
    }
    row.ok = true;
  } catch (const std::exception& e) {
    row.outputs.clear();
    row.error = e.what();
  }
  return row;
}

// ---- the results table ----

std::string studyRowText(const StudyRow& row, std::size_t outputs) {
  std::string s = std::to_string(row.run);
  for (double v : row.values) s += "," + number17(v);
  if (row.ok) {
    for (double v : row.outputs) s += "," + number17(v);
    return s + ",ok,";
  }
  return s + std::string(outputs, ',') + ",failed," + csvField(row.error);  // the outputs' columns empty
}

StudyTable::StudyTable(const std::string& path, const StudyPlan& plan, bool resume, bool overwrite)
    : path_(path), header_(plan.columns()), done_(static_cast<std::size_t>(plan.runs()), 0) {
  std::string header;
  for (std::size_t i = 0; i < header_.size(); ++i) header += (i ? "," : "") + csvField(header_[i]);
  std::error_code ec;
  const bool exists = fs::exists(path, ec);
  if (exists && !resume && !overwrite)
    throw std::runtime_error("'" + path + "' exists: --resume continues that study, --force starts it again");
  if (exists && resume) {
    std::string text;
    {
      const int fd = ::open(path.c_str(), O_RDONLY);
      if (fd < 0) throw std::runtime_error("cannot read '" + path + "': " + std::strerror(errno));
      char buf[1 << 16];
      ssize_t n;
      while ((n = ::read(fd, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
      ::close(fd);
    }
    // Only whole lines count: a line cut short by a kill is dropped (and truncated away).
    const std::size_t end = text.rfind('\n');
    const std::size_t keep = end == std::string::npos ? 0 : end + 1;
    std::size_t pos = text.find('\n');
    if (pos == std::string::npos || text.substr(0, pos) != header)
      throw std::runtime_error("'" + path + "' is not this study's table (its header differs): remove it or use another --out");
    pos += 1;
    while (pos < keep) {
      const std::size_t nl = text.find('\n', pos);
      const std::string line = text.substr(pos, nl - pos);
      pos = nl + 1;
      const long run = std::strtol(line.c_str(), nullptr, 10);
      if (run < 0 || run >= plan.runs() || done_[run]) continue;
      done_[run] = 1;
      ++doneCount_;
      lines_[run] = line;
    }
    if (::truncate(path.c_str(), static_cast<off_t>(keep)) != 0)
      throw std::runtime_error("cannot truncate '" + path + "': " + std::strerror(errno));
    fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND);
  } else {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd_ >= 0) {
      const std::string h = header + "\n";
      if (::write(fd_, h.data(), h.size()) != static_cast<ssize_t>(h.size()))
        throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
    }
  }
  if (fd_ < 0) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
}

StudyTable::~StudyTable() {
  if (fd_ >= 0) ::close(fd_);
}

bool StudyTable::done(long i) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return i >= 0 && i < static_cast<long>(done_.size()) && done_[i];
}

long StudyTable::doneCount() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return doneCount_;
}

void StudyTable::append(const StudyRow& row) {
  const std::string line = studyRowText(row, header_.size() - 3 - row.values.size());
  std::lock_guard<std::mutex> lock(mutex_);
  if (row.run < 0 || row.run >= static_cast<long>(done_.size()) || done_[row.run]) return;
  if (fd_ < 0) throw std::runtime_error("the table '" + path_ + "' was finished");
  const std::string text = line + "\n";
  // One write per row: a kill leaves whole rows and at most one cut line (dropped on --resume).
  if (::write(fd_, text.data(), text.size()) != static_cast<ssize_t>(text.size()))
    throw std::runtime_error("cannot write '" + path_ + "': " + std::strerror(errno));
  done_[row.run] = 1;
  ++doneCount_;
  lines_[row.run] = line;
}

void StudyTable::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string text;
  for (std::size_t i = 0; i < header_.size(); ++i) text += (i ? "," : "") + csvField(header_[i]);
  text += '\n';
  for (const auto& [run, line] : lines_) text += line + "\n";
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  writeFileAtomically(path_, text);
}

// ---- the runner ----

StudyRunner::StudyRunner(const StudyPlan& plan, StudyTable& table, int jobs) : plan_(plan), table_(table) {
  jobs = std::max(1, jobs);
  alive_ = jobs;
  for (int k = 0; k < jobs; ++k) threads_.emplace_back([this] { work(); });
}

StudyRunner::~StudyRunner() {
  stop();
  join();
}

void StudyRunner::join() {
  for (std::thread& t : threads_)
    if (t.joinable()) t.join();
}

void StudyRunner::work() {
  const RunStop stop = [this] { return stop_.load(); };
  for (;;) {
    const long i = next_++;
    if (stop_ || i >= plan_.runs()) break;
    if (table_.done(i)) continue;
    const StudyRow row = plan_.run(i, stop);
    if (!row.ok && row.error == "interrupted") break;  // not recorded: a resumed study runs it
    if (!row.ok) ++failed_;
    try {
      table_.append(row);
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(errorMutex_);
      error_ = e.what();
      stop_ = true;
    }
  }
  --alive_;
}

}  // namespace mechsim::io
