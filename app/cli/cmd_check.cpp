// app/cli/cmd_check.cpp — `mechsim-cli check FILE [--json] [--floating-base]`: load a mechanism
// (a URDF with its root link free when asked) and analyse it.
//
// Prints the counts (bodies, joints, coordinates, equations), the Grübler–Kutzbach estimate, the
// true mobility from the rank of the constraint Jacobian (paper 003: rank from the pivots of the
// rectangular LU), the redundant equations by name, the constraint residual at the file's
// configuration and whether that configuration is singular; then the deformable parts (tets,
// vertices, material, solver), whose meshes the load has already read and validated.
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "core/data.h"
#include "core/io/check_report.h"
#include "core/io/load.h"
#include "core/io/pose_limits.h"
#include "core/kinematics/kinematics.h"

namespace mechsim::cli {

int cmdCheck(const Args& args) {
  const auto pos = positionals(args, {});
  for (const auto& a : args)
    if (a.rfind("--", 0) == 0 && a != "--json" && a != "--floating-base") {
      std::fprintf(stderr, "mechsim-cli: check: unknown option '%s'\n", a.c_str());
      return 2;
    }
  if (pos.size() != 1) {
    std::fprintf(stderr, "usage: %s\n", commandUsage("check"));
    return 2;
  }
  const bool json = hasFlag(args, "--json");

  MechanismSpec spec;
  Model model;
  try {
    io::ImportOptions import;
    import.floatingBase = hasFlag(args, "--floating-base");
    spec = io::readMechanismFile(pos[0], import);
    model = io::compileSpec(spec);
    io::addPoseLimitWarnings(spec, model);  // a starting pose outside a joint's limits
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  // What the reader replaced or left out (an imported robot's unreadable mesh drawn as a box, ...).
  for (const std::string& w : spec.warnings) std::fprintf(stderr, "%s\n", w.c_str());
  auto solverOf = [](const DeformableSpec& d) { return d.solver.empty() ? std::string("newton") : d.solver; };

  if (json) {
    std::cout << io::checkReportJson(pos[0], spec, model) << "\n";
    return 0;
  }

  // Mobility at the file's configuration, t = 0.
  Data data = makeData(model);
  const MobilityReport r = analyseMobility(model, data);
  const int moving = model.nMoving;

  std::printf("%s: %s\n", pos[0].c_str(), model.name.empty() ? "(unnamed)" : model.name.c_str());
  std::printf("  bodies        %d (%d moving)\n", static_cast<int>(model.bodies.size()), moving);
  std::printf("  joints        %d\n", static_cast<int>(model.joints.size()));
  std::printf("  drivers       %d\n", static_cast<int>(model.drivers.size()));
  if (!model.couplings.empty())
    std::printf("  couplings     %d (one equation each, counted below)\n", static_cast<int>(model.couplings.size()));
  std::printf("  coordinates   %d (7 per moving body: position + unit quaternion)\n", r.coordinates);
  std::printf("  equations     %d (+ %d driver equations)\n", r.equations, static_cast<int>(model.drivers.size()));
  std::printf("  Grübler DOF   %d\n", r.grubler);
  std::printf("  rank of Φ_q   %d\n", r.rank);
  std::printf("  mobility      %d (true DOF from the rank of the constraint Jacobian)\n", r.dof);
  std::printf("  with drivers  %d DOF left free\n", r.dofDriven);
  std::printf("  redundant     %d equation%s", static_cast<int>(r.redundant.size()), r.redundant.size() == 1 ? "" : "s");
  // The first 30 by name (a large redundant mechanism has thousands; --json lists them all).
  constexpr size_t kNamed = 30;
  for (size_t i = 0; i < r.redundant.size() && i < kNamed; ++i) std::printf("%s%s", i ? ", " : ": ", r.redundant[i].c_str());
  if (r.redundant.size() > kNamed) std::printf(" and %zu more (--json lists them all)", r.redundant.size() - kNamed);
  std::printf("\n");
  std::printf("  residual      %.3g\n", r.residual);
  std::printf("  singular      %s\n", r.singular ? "yes" : "no");
  if (!spec.parameters.empty()) {
    std::printf("  parameters    %d\n", static_cast<int>(spec.parameters.size()));
    for (const ParameterSpec& p : spec.parameters) {
      const char* unit = p.unit == "length" ? spec.units.length.c_str() : p.unit == "angle" ? spec.units.angle.c_str()
                         : p.unit == "mass" ? "kg" : "";
      std::printf("    %s = %.12g%s%s (%s)", p.name.c_str(), p.value, *unit ? " " : "", unit, p.unit.c_str());
      if (!p.expression.empty()) std::printf(" = %s", p.expression.c_str());
      std::printf("\n");
    }
  }
  if (!spec.deformables.empty()) {
    std::printf("  deformables   %d\n", static_cast<int>(spec.deformables.size()));
    for (const DeformableSpec& d : spec.deformables) {
      std::printf("    %s: %zu tets, %zu vertices, %s, solver %s", d.name.c_str(), d.tets.size(), d.vertices.size(),
                  d.material.c_str(), solverOf(d).c_str());
      if (d.maxIterations > 0) std::printf(", at most %d iterations per step", d.maxIterations);
      if (d.tolerance > 0) std::printf(", tolerance %g", d.tolerance);
      if (d.modes > 0) std::printf(", %d coarse modes", d.modes);
      std::printf("\n");
    }
  }
  return 0;
}

}  // namespace mechsim::cli
