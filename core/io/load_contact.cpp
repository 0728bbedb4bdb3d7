// core/io/load_contact.cpp — the "contact" section of the native format:
//   "contact": {
//     "enabled": true, "solver": "amgs-3.2" | "pgs", "friction": μ, "torsionalFriction": length,
//     "rollingFriction": length, "restitution": e,
//     "restitutionVelocity": m/s, "alpha": α, "iterations": n, "tolerance": RES,
//     "erp": β, "slop": length, "margin": length, "jointedCollide": false,
//     "exclude": [["bodyA", "bodyB"], ...]
//   }
// slop, margin and the torsional and rolling friction lengths are in the file's length unit; the rest is SI or dimensionless. Every error names
// FILE:LINE:COL and the value's path, unknown keys get a did-you-mean hint, as in load.cpp.
#include "core/io/load_contact.h"

#include "core/io/json_section.h"
#include "core/io/suggest.h"

namespace mechsim::io {
namespace {

using json::Kind;
using json::Value;

const std::vector<std::string> kKeys{"enabled",    "solver", "friction", "torsionalFriction", "rollingFriction",
                                     "restitution", "restitutionVelocity",
                                     "alpha",      "iterations", "tolerance", "erp",     "slop",
                                     "margin",     "jointedCollide", "exclude"};

class ContactReader : JsonSection {
 public:
  ContactReader(MechanismSpec& spec, std::string file, double L) : JsonSection(spec, std::move(file)), L_(L) {}

  void section(const Value& v) {
    const std::string path = "contact";
    record(path, v);
    expectKind(v, path, Kind::Object, "an object {\"friction\": 0.5, ...}");
    checkKeys(v, path, kKeys, "the contact section");
    ContactSpec& c = spec_.contact;
    c.present = true;
    if (const Value* x = opt(v, path, "enabled")) c.enabled = boolean(*x, "contact.enabled");
    if (const Value* x = opt(v, path, "jointedCollide")) c.jointedCollide = boolean(*x, "contact.jointedCollide");
    if (const Value* x = opt(v, path, "solver")) {
      const std::string s = string(*x, "contact.solver");
      if (s != "amgs-3.2" && s != "pgs")
        fail(*x, "contact.solver", "unknown contact solver \"" + s + "\" (expected \"amgs-3.2\" or \"pgs\")" +
                                       didYouMean(s, {"amgs-3.2", "pgs"}));
      c.solver = s;
    }
    if (const Value* x = opt(v, path, "friction")) c.friction = ranged(*x, "contact.friction", 0, 1e6, "friction coefficient", true);
    if (const Value* x = opt(v, path, "torsionalFriction"))
      c.torsionalFriction = ranged(*x, "contact.torsionalFriction", 0, 1e6, "torsional friction", true) * L_;
    if (const Value* x = opt(v, path, "rollingFriction"))
      c.rollingFriction = ranged(*x, "contact.rollingFriction", 0, 1e6, "rolling friction", true) * L_;
    if (const Value* x = opt(v, path, "restitution")) c.restitution = ranged(*x, "contact.restitution", 0, 1, "restitution", true);
    if (const Value* x = opt(v, path, "restitutionVelocity"))
      c.restitutionVelocity = ranged(*x, "contact.restitutionVelocity", 0, 1e6, "restitution velocity", true);
    if (const Value* x = opt(v, path, "alpha")) c.alpha = ranged(*x, "contact.alpha", 0, 1e6, "alpha", false);
    if (const Value* x = opt(v, path, "tolerance")) c.tolerance = ranged(*x, "contact.tolerance", 0, 1e6, "tolerance", true);
    if (const Value* x = opt(v, path, "erp")) c.erp = ranged(*x, "contact.erp", 0, 1, "erp (β)", true);
    if (const Value* x = opt(v, path, "slop")) c.slop = ranged(*x, "contact.slop", 0, 1e6, "slop", true) * L_;
    if (const Value* x = opt(v, path, "margin")) c.margin = ranged(*x, "contact.margin", 0, 1e6, "margin", true) * L_;
    if (const Value* x = opt(v, path, "iterations"))
      c.iterations = integer(*x, "contact.iterations", 1, 10'000'000, "expected a whole number of sweeps ≥ 1");
    if (const Value* x = opt(v, path, "exclude")) exclude(*x, "contact.exclude");
  }

 private:
  double L_;

  /// [["a", "b"], ...]: pairs of two different declared bodies.
  void exclude(const Value& x, const std::string& p) {
    if (x.kind != Kind::Array) fail(x, p, "expected an array of body pairs [[\"a\", \"b\"], ...]");
    for (std::size_t i = 0; i < x.items.size(); ++i) {
      const Value& pr = x.items[i];
      const std::string pi = index(p, i);
      record(pi, pr);
      if (pr.kind != Kind::Array || pr.items.size() != 2) fail(pr, pi, "expected a pair of body names [\"a\", \"b\"]");
      std::string names[2];
      for (int k = 0; k < 2; ++k) {
        const Value& nv = pr.items[k];
        const std::string pk = index(pi, k);
        expectKind(nv, pk, Kind::String, "a body name");
        bodyRef(nv.string, nv, pk);
        names[k] = nv.string;
      }
      if (names[0] == names[1]) fail(pr, pi, "a body is never in contact with itself; name two different bodies");
      spec_.contact.exclude.emplace_back(names[0], names[1]);
    }
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
  if (c.torsionalFriction) j["torsionalFriction"] = *c.torsionalFriction / L;
  if (c.rollingFriction) j["rollingFriction"] = *c.rollingFriction / L;
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
