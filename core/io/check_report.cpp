// core/io/check_report.cpp — `check --json` (core/io/check_report.h).
#include "core/io/check_report.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/data.h"
#include "core/io/pose_limits.h"
#include "core/kinematics/kinematics.h"

namespace mechsim::io {

std::string checkReportJson(const std::string& file, const MechanismSpec& spec, const Model& model) {
  // Mobility at the file's configuration, t = 0.
  Data data = makeData(model);
  const MobilityReport r = analyseMobility(model, data);
  nlohmann::json j;
  j["file"] = file;
  j["name"] = model.name;
  // The reader's warnings and a starting pose outside the joint limits (pose_limits.h), once each.
  std::vector<std::string> warnings = spec.warnings;
  for (std::string& w : poseLimitWarnings(spec, model))
    if (std::find(warnings.begin(), warnings.end(), w) == warnings.end()) warnings.push_back(std::move(w));
  j["warnings"] = warnings;
  j["bodies"] = static_cast<int>(model.bodies.size());
  j["moving_bodies"] = model.nMoving;
  j["joints"] = static_cast<int>(model.joints.size());
  j["drivers"] = static_cast<int>(model.drivers.size());
  j["couplings"] = static_cast<int>(model.couplings.size());  // one equation each, in "equations"
  j["coordinates"] = r.coordinates;
  j["equations"] = r.equations;
  j["driver_equations"] = static_cast<int>(model.drivers.size());
  j["grubler_dof"] = r.grubler;
  j["rank"] = r.rank;
  j["dof"] = r.dof;
  j["dof_driven"] = r.dofDriven;
  j["redundant"] = r.redundant;
  j["residual"] = r.residual;
  j["singular"] = r.singular;
  j["parameters"] = nlohmann::json::array();
  for (const ParameterSpec& p : spec.parameters) {
    nlohmann::json e{{"name", p.name}, {"value", p.value}, {"unit", p.unit}};
    if (!p.expression.empty()) e["expression"] = p.expression;
    j["parameters"].push_back(e);
  }
  j["deformables"] = nlohmann::json::array();
  for (const DeformableSpec& d : spec.deformables) {
    nlohmann::json part{{"name", d.name},
                        {"tets", d.tets.size()},
                        {"vertices", d.vertices.size()},
                        {"material", d.material},
                        {"solver", d.solver.empty() ? std::string("newton") : d.solver}};
    if (d.maxIterations > 0) part["maxIterations"] = d.maxIterations;  // the file's, when it gives them
    if (d.tolerance > 0) part["tolerance"] = d.tolerance;
    if (d.modes > 0) part["modes"] = d.modes;
    j["deformables"].push_back(part);
  }
  return j.dump(2);
}

}  // namespace mechsim::io
