// core/io/load_coupling.cpp — the "couplings" section of the native format:
//   "couplings": [
//     { "name": "gear", "joint": "B", "leader": "A", "ratio": -2, "offset": 0 },
//     { "name": "cam", "joint": "C", "coordinate": 0, "leader": "A", "leaderCoordinate": 0,
//       "polynomial": [c0, c1, c2, c3, c4] },
//     { "name": "lock", "joint": "D", "offset": 10 }            // no leader: D held at 10
//   ]
// The follower b (coordinate `coordinate` of `joint`) is held at b = offset + ratio · a, or at the
// polynomial c0 + c1 a + … + c4 a⁴ (1 to 5 coefficients, the missing ones 0), of the leader a
// (coordinate `leaderCoordinate` of `leader`). Both in the file's units as drivers are: angles in
// units.angle, slides in units.length, so that offset has b's unit and c_k has b's unit per a's
// unit to the k. In SI (spec.h): c_k,SI = c_k s_b / s_a^k, s the unit's size in rad or m.
// Every error names FILE:LINE:COL and the value's path, unknown keys get a did-you-mean hint.
#include "core/io/load_coupling.h"

#include <cmath>

#include "core/io/expressions.h"
#include "core/io/json_section.h"

namespace mechsim::io {
namespace {

using json::Kind;
using json::Value;

const std::vector<std::string> kKeys{"name", "joint", "coordinate", "leader", "leaderCoordinate",
                                     "ratio", "offset", "polynomial"};

/// The unit size (rad or m per file unit) of coordinate k of joint type t.
double unitOf(const MechanismSpec& spec, JointType t, int k) {
  return coordinateIsAngle(t, k) ? spec.units.angleScale() : spec.units.lengthScale();
}

class CouplingReader : JsonSection {
 public:
  CouplingReader(MechanismSpec& spec, std::string file) : JsonSection(spec, std::move(file)) {}

  void section(const Value& v) {
    items(v, "couplings", "an array of couplings", [&](const Value& x, const std::string& p) { coupling(x, p); });
  }

 private:
  NameIndex names_;

  /// The coordinate index under `key` (default 0) of joint `j`, checked against its count.
  int coordinate(const Value& v, const std::string& path, const char* key, const JointSpec& j) {
    const int n = jointCoordinateCount(j.type);
    const Value* c = opt(v, path, key);
    if (!c) return 0;
    const int k = integer(*c, child(path, key));
    if (k < 0 || k >= n)
      fail(*c, child(path, key), "coordinate " + std::to_string(k) + " is out of range: " + toString(j.type) +
                                     " joint \"" + j.name + "\" has " +
                                     (n == 1 ? std::string("1 coordinate (0)") : std::to_string(n) + " coordinates (0.." + std::to_string(n - 1) + ")"));
    return k;
  }

  /// The joint named at `key` (a joint with a coordinate that can be coupled).
  const JointSpec& coupledJoint(const Value& jv, const std::string& p) {
    const std::string n = name(jv, p);
    const JointSpec& j = jointRef(n, jv, p);
    if (jointCoordinateCount(j.type) == 0 || j.type == JointType::Distance)
      fail(jv, p, std::string(toString(j.type)) + " joint \"" + n + "\" has no coordinate to couple");
    return j;
  }

  void coupling(const Value& v, const std::string& path) {
    record(path, v);
    expectKind(v, path, Kind::Object, "a coupling object");
    checkKeys(v, path, kKeys, "a coupling", [](const std::string& k) -> std::string {
      if (k == "multiplier" || k == "gear" || k == "gearRatio") return "the coupling's factor goes in key \"ratio\"";
      if (k == "polycoef" || k == "coefficients") return "the polynomial's coefficients go in key \"polynomial\"";
      return "";
    });
    CouplingSpec c;
    c.name = name(req(v, path, "name", "the coupling's name"), child(path, "name"));
    if (names_.find(spec_.couplings, c.name)) fail(*v.find("name"), child(path, "name"), "duplicate coupling name \"" + c.name + "\"");
    const Value& jv = req(v, path, "joint", "the coupled (follower) joint's name");
    const JointSpec& follower = coupledJoint(jv, child(path, "joint"));
    c.joint = follower.name;
    c.coordinate = coordinate(v, path, "coordinate", follower);
    for (const CouplingSpec& o : spec_.couplings)
      if (o.joint == c.joint && o.coordinate == c.coordinate)
        fail(jv, child(path, "joint"), "coordinate " + std::to_string(c.coordinate) + " of joint \"" + c.joint +
                                           "\" is already coupled by coupling \"" + o.name + "\"");
    const double sb = unitOf(spec_, follower.type, c.coordinate);
    double sa = 1.0;
    const Value* lv = opt(v, path, "leader");
    if (lv) {
      const JointSpec& leader = coupledJoint(*lv, child(path, "leader"));
      c.leader = leader.name;
      c.leaderCoordinate = coordinate(v, path, "leaderCoordinate", leader);
      if (c.leader == c.joint && c.leaderCoordinate == c.coordinate)
        fail(*lv, child(path, "leader"), "a coordinate cannot be coupled to itself");
      sa = unitOf(spec_, leader.type, c.leaderCoordinate);
    } else if (const Value* x = opt(v, path, "leaderCoordinate")) {
      fail(*x, child(path, "leaderCoordinate"), "\"leaderCoordinate\" needs a \"leader\"");
    }
    std::array<double, 5> file = {0, 1, 0, 0, 0};
    const Value* poly = opt(v, path, "polynomial");
    const Value* ratio = opt(v, path, "ratio");
    const Value* offset = opt(v, path, "offset");
    if (poly) {
      if (ratio || offset)
        fail(ratio ? *ratio : *offset, child(path, ratio ? "ratio" : "offset"),
             "give either \"polynomial\" or \"ratio\" / \"offset\", not both");
      const std::string pp = child(path, "polynomial");
      if (poly->kind != Kind::Array || poly->items.empty() || poly->items.size() > 5)
        fail(*poly, pp, "expected an array of 1 to 5 numbers [c0, c1, c2, c3, c4]");
      file.fill(0.0);
      for (std::size_t k = 0; k < poly->items.size(); ++k) file[k] = number(poly->items[k], index(pp, k));
      c.polynomialForm = true;
    } else {
      if (ratio) file[1] = number(*ratio, child(path, "ratio"));
      if (offset) file[0] = number(*offset, child(path, "offset"));
    }
    if (!lv) {
      // No leader: b = c0; a ratio or higher coefficients would multiply nothing.
      for (int k = 1; k < 5; ++k)
        if (file[k] != 0 && (poly || ratio))
          fail(poly ? *poly : *ratio, child(path, poly ? "polynomial" : "ratio"),
               "a coupling without a \"leader\" holds the coordinate at its offset: give \"leader\" or only \"offset\"");
      file[1] = 0;
    }
    for (int k = 0; k < 5; ++k) {
      c.polynomial[k] = file[k] * sb / std::pow(sa, k);
      if (!std::isfinite(c.polynomial[k])) fail(poly ? *poly : v, poly ? child(path, "polynomial") : path, "the coefficients overflow in SI units");
    }
    spec_.couplings.push_back(std::move(c));
  }
};

}  // namespace

void readCouplingsSection(const json::Value& v, MechanismSpec& spec, const std::string& file) {
  CouplingReader(spec, file).section(v);
}

std::array<double, 5> couplingFileCoefficients(const MechanismSpec& spec, const CouplingSpec& c) {
  double sb = 1.0, sa = 1.0;
  for (const JointSpec& j : spec.joints) {
    if (j.name == c.joint) sb = unitOf(spec, j.type, c.coordinate);
    if (!c.leader.empty() && j.name == c.leader) sa = unitOf(spec, j.type, c.leaderCoordinate);
  }
  std::array<double, 5> out{};
  for (int k = 0; k < 5; ++k) out[k] = c.polynomial[k] * std::pow(sa, k) / sb;
  return out;
}

nlohmann::ordered_json couplingsSectionJson(const MechanismSpec& spec) {
  auto a = nlohmann::ordered_json::array();
  for (const CouplingSpec& c : spec.couplings) {
    const std::array<double, 5> f = couplingFileCoefficients(spec, c);
    nlohmann::ordered_json j;
    j["name"] = c.name;
    j["joint"] = c.joint;
    if (c.coordinate != 0) j["coordinate"] = c.coordinate;
    if (!c.leader.empty()) {
      j["leader"] = c.leader;
      if (c.leaderCoordinate != 0) j["leaderCoordinate"] = c.leaderCoordinate;
    }
    const bool higher = f[2] != 0 || f[3] != 0 || f[4] != 0;
    if (c.polynomialForm || higher) {
      int n = 5;
      while (n > 1 && f[n - 1] == 0) --n;
      auto p = nlohmann::ordered_json::array();
      for (int k = 0; k < n; ++k) p.push_back(f[k]);
      j["polynomial"] = p;
    } else {
      if (!c.leader.empty()) j["ratio"] = f[1];
      if (f[0] != 0 || c.leader.empty()) j["offset"] = f[0];
    }
    a.push_back(j);
  }
  return a;
}

}  // namespace mechsim::io
