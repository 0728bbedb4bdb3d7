// core/io/load_contact.cpp — the "contact" section of the native format:
//   "contact": {
//     "enabled": true, "solver": "amgs-3.2" | "pgs", "friction": μ, "restitution": e,
//     "restitutionVelocity": m/s, "alpha": α, "iterations": n, "tolerance": RES,
//     "erp": β, "slop": length, "margin": length, "jointedCollide": false,
//     "exclude": [["bodyA", "bodyB"], ...]
//   }
// slop and margin are in the file's length unit; the rest is SI or dimensionless. Every error names
// FILE:LINE:COL and the value's path, unknown keys get a did-you-mean hint, as in load.cpp.
#include "core/io/load_contact.h"

#include <algorithm>
#include <cstdio>

#include "core/io/load.h"
#include "core/io/suggest.h"

namespace mechsim::io {
namespace {

using json::Kind;
using json::Value;

std::string fmt(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

const std::vector<std::string> kKeys{"enabled",    "solver", "friction", "restitution", "restitutionVelocity",
                                     "alpha",      "iterations", "tolerance", "erp",     "slop",
                                     "margin",     "jointedCollide", "exclude"};

class ContactReader {
 public:
  ContactReader(MechanismSpec& spec, std::string file, double L) : spec_(spec), file_(std::move(file)), L_(L) {}

  void section(const Value& v) {
    const std::string path = "contact";
    record(path, v);
    if (v.kind != Kind::Object) fail(v, path, "expected an object {\"friction\": 0.5, ...}, got " + std::string(json::describe(v.kind)));
    for (const json::Member& m : v.members) {
      if (std::find(kKeys.begin(), kKeys.end(), m.key) != kKeys.end()) continue;
      const std::string h = didYouMean(m.key, kKeys);
      std::string all;
      for (const auto& k : kKeys) all += (all.empty() ? "" : ", ") + k;
      fail(m.keyLoc, path + "." + m.key, "unknown key \"" + m.key + "\" in the contact section" + (h.empty() ? " (allowed: " + all + ")" : h));
    }
    ContactSpec& c = spec_.contact;
    c.present = true;
    if (const Value* x = opt(v, "enabled")) c.enabled = boolean(*x, "contact.enabled");
    if (const Value* x = opt(v, "jointedCollide")) c.jointedCollide = boolean(*x, "contact.jointedCollide");
    if (const Value* x = opt(v, "solver")) {
      if (x->kind != Kind::String) fail(*x, "contact.solver", "expected a string, got " + std::string(json::describe(x->kind)));
      if (x->string != "amgs-3.2" && x->string != "pgs")
        fail(*x, "contact.solver", "unknown contact solver \"" + x->string + "\" (expected \"amgs-3.2\" or \"pgs\")" +
                                       didYouMean(x->string, {"amgs-3.2", "pgs"}));
      c.solver = x->string;
    }
    if (const Value* x = opt(v, "friction")) c.friction = ranged(*x, "contact.friction", 0, 1e6, "friction coefficient", true);
    if (const Value* x = opt(v, "restitution")) c.restitution = ranged(*x, "contact.restitution", 0, 1, "restitution", true);
    if (const Value* x = opt(v, "restitutionVelocity"))
      c.restitutionVelocity = ranged(*x, "contact.restitutionVelocity", 0, 1e6, "restitution velocity", true);
    if (const Value* x = opt(v, "alpha")) c.alpha = ranged(*x, "contact.alpha", 0, 1e6, "alpha", false);
    if (const Value* x = opt(v, "tolerance")) c.tolerance = ranged(*x, "contact.tolerance", 0, 1e6, "tolerance", true);
    if (const Value* x = opt(v, "erp")) c.erp = ranged(*x, "contact.erp", 0, 1, "erp (β)", true);
    if (const Value* x = opt(v, "slop")) c.slop = ranged(*x, "contact.slop", 0, 1e6, "slop", true) * L_;
    if (const Value* x = opt(v, "margin")) c.margin = ranged(*x, "contact.margin", 0, 1e6, "margin", true) * L_;
    if (const Value* x = opt(v, "iterations")) {
      const double n = number(*x, "contact.iterations");
      if (!(n >= 1) || n != static_cast<int>(n) || n > 1e7)
        fail(*x, "contact.iterations", "expected a whole number of sweeps ≥ 1");
      c.iterations = static_cast<int>(n);
    }
    if (const Value* x = opt(v, "exclude")) {
      const std::string p = "contact.exclude";
      if (x->kind != Kind::Array) fail(*x, p, "expected an array of body pairs [[\"a\", \"b\"], ...]");
      std::vector<std::string> bodies;
      for (const BodySpec& b : spec_.bodies) bodies.push_back(b.name);
      for (std::size_t i = 0; i < x->items.size(); ++i) {
        const Value& pr = x->items[i];
        const std::string pi = p + "[" + std::to_string(i) + "]";
        record(pi, pr);
        if (pr.kind != Kind::Array || pr.items.size() != 2) fail(pr, pi, "expected a pair of body names [\"a\", \"b\"]");
        std::string names[2];
        for (int k = 0; k < 2; ++k) {
          const Value& nv = pr.items[k];
          const std::string pk = pi + "[" + std::to_string(k) + "]";
          if (nv.kind != Kind::String) fail(nv, pk, "expected a body name, got " + std::string(json::describe(nv.kind)));
          if (std::find(bodies.begin(), bodies.end(), nv.string) == bodies.end())
            fail(nv, pk, "unknown body \"" + nv.string + "\"" + didYouMean(nv.string, bodies));
          names[k] = nv.string;
        }
        if (names[0] == names[1]) fail(pr, pi, "a body is never in contact with itself; name two different bodies");
        c.exclude.emplace_back(names[0], names[1]);
      }
    }
  }

 private:
  MechanismSpec& spec_;
  std::string file_;
  double L_;

  [[noreturn]] void fail(SourceLoc loc, const std::string& path, const std::string& msg) const {
    throw LoadError(Diagnostic{file_, loc.line, loc.col, path + ": " + msg});
  }
  [[noreturn]] void fail(const Value& v, const std::string& path, const std::string& msg) const { fail(v.loc, path, msg); }
  void record(const std::string& path, const Value& v) { spec_.locations[path] = v.loc; }
  const Value* opt(const Value& obj, const char* key) {
    const Value* v = obj.find(key);
    if (v) record(std::string("contact.") + key, *v);
    return v;
  }
  bool boolean(const Value& v, const std::string& path) const {
    if (v.kind != Kind::Bool) fail(v, path, "expected true or false, got " + std::string(json::describe(v.kind)));
    return v.boolean;
  }
  double number(const Value& v, const std::string& path) const {
    if (v.kind == Kind::String) fail(v, path, "expected a number, got a string (write numbers without quotes)");
    if (v.kind != Kind::Number) fail(v, path, "expected a number, got " + std::string(json::describe(v.kind)));
    return v.number;
  }
  /// A number in [lo, hi] (lo itself excluded when !closedLow).
  double ranged(const Value& v, const std::string& path, double lo, double hi, const char* what, bool closedLow) const {
    const double x = number(v, path);
    if (!(closedLow ? x >= lo : x > lo) || !(x <= hi))
      fail(v, path, std::string(what) + " must be " + (closedLow ? "≥ " : "> ") + fmt(lo) +
                        (hi < 1e6 ? " and ≤ " + fmt(hi) : "") + ", got " + fmt(x));
    return x;
  }
};

}  // namespace

void readContactSection(const json::Value& v, MechanismSpec& spec, const std::string& file, double lengthScale) {
  ContactReader(spec, file, lengthScale).section(v);
}

nlohmann::ordered_json contactSectionJson(const MechanismSpec& spec) {
  const ContactSpec& c = spec.contact;
  const double L = spec.units.lengthScale();
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (c.enabled) j["enabled"] = *c.enabled;
  if (c.solver) j["solver"] = *c.solver;
  if (c.friction) j["friction"] = *c.friction;
  if (c.restitution) j["restitution"] = *c.restitution;
  if (c.restitutionVelocity) j["restitutionVelocity"] = *c.restitutionVelocity;
  if (c.alpha) j["alpha"] = *c.alpha;
  if (c.iterations) j["iterations"] = *c.iterations;
  if (c.tolerance) j["tolerance"] = *c.tolerance;
  if (c.erp) j["erp"] = *c.erp;
  if (c.slop) j["slop"] = *c.slop / L;
  if (c.margin) j["margin"] = *c.margin / L;
  if (c.jointedCollide) j["jointedCollide"] = *c.jointedCollide;
  if (!c.exclude.empty()) {
    auto a = nlohmann::ordered_json::array();
    for (const auto& p : c.exclude) a.push_back({p.first, p.second});
    j["exclude"] = a;
  }
  return j;
}

}  // namespace mechsim::io
