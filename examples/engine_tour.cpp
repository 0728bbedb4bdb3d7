// examples/engine_tour.cpp — the engine's API in one page (docs/engine.md): load a mechanism, drive
// a DOF, drag a handle, run its dynamics and print a column. Built with the project; run:
//   build/examples/engine_tour [FILE]        (default mechanisms/fourbar.json)
#include <cstdio>
#include <exception>
#include <string>

#include "core/io/engine.h"
#include "core/sim/frame.h"
#include "core/sim/stages.h"

int main(int argc, char** argv) {
  using namespace mechsim;
  const std::string file = argc > 1 ? argv[1] : MECHSIM_SOURCE_DIR "/mechanisms/fourbar.json";

  // 1. File → spec → sim::Model (compiled once) → sim::Data (all that changes).
  sim::Model m;
  try {
    m = io::loadEngine(file);
  } catch (const std::exception& e) {  // FILE:LINE:COL: error: ...
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  sim::Data d = sim::makeData(m);
  const MobilityReport mob = sim::analyse(m, d);
  std::printf("%s: mobility %d (Grübler %d), %zu redundant equations, %d DOF slider(s)\n", file.c_str(), mob.dof,
              mob.grubler, mob.redundant.size(), m.dofCount());

  // 2. Drive the first DOF half a radian (or 5 cm) on: a slider move, continued step by step.
  if (m.dofCount() > 0) {
    const sim::DofInfo& dof = m.dofs[0];
    const double to = d.inputs->value[dof.driver] + (dof.angular ? 0.5 : 0.05);
    if (!sim::setDof(m, d, 0, to)) std::printf("  %s\n", d.message.c_str());
    std::printf("DOF %s at %.4f: residual %.2e after %d Newton iterations\n", dof.name.c_str(),
                d.inputs->value[dof.driver], d.rigid.stats.residual, d.rigid.stats.iterations);
  }

  // 3. Drag the file's first handle 2 cm up in ten frames; the drivers then hold the new pose.
  if (!m.file->handles.empty() && sim::beginDrag(m, d, m.file->handles[0].name)) {
    const Vec3 start = d.dragTarget;
    for (int k = 1; k <= 10; ++k) sim::dragTo(m, d, start + Vec3(0, 0.002 * k, 0));
    sim::endDrag(m, d);
    std::printf("handle %s dragged to y = %.4f m (%s)\n", m.file->handles[0].name.c_str(), d.dragTarget.y(),
                d.message.empty() ? "reached" : d.message.c_str());
  }

  // 4. Dynamics (the file's drivers stay imposed): 0.5 s, printing the first joint's coordinate and
  //    the torque about its axis that the driver must supply (its reaction on body2, world z).
  if (!sim::setDynamic(m, d, true)) {
    std::printf("no dynamics: %s\n", d.message.c_str());
    return 0;
  }
  const std::string joint = m.file->joints.empty() ? "-" : m.file->joints[0].name;
  std::printf("%8s  %12s  %14s\n", "t [s]", (joint + " [rad]").c_str(), (joint + ".Tz [N m]").c_str());
  for (int k = 1; k <= 10; ++k) {
    if (!sim::advance(m, d, 0.05)) {
      std::printf("%s\n", d.message.c_str());
      return 2;
    }
    const sim::Frame f = sim::frame(m, d, sim::FrameOptions{false, false});
    std::printf("%8.3f  %12.6f  %14.6f\n", d.t(), f.coords.size() ? f.coords[0] : 0.0,
                f.reactionTorque.empty() ? 0.0 : f.reactionTorque[0].z());
  }
  return 0;
}
