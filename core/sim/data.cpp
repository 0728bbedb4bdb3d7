// core/sim/data.cpp — sim::makeData: a Data for a Model, at its assembled file configuration.
#include "core/sim/data.h"

#include "core/kinematics/kinematics.h"
#include "core/sim/internal.h"

namespace mechsim::sim {

Data makeData(const Model& m) {
  Data d;
  // The working model bound to this Data's inputs: a copy of Model::work whose driver functions
  // read `inputs` — file drivers following fresh evaluators of their expressions (one Data, one
  // thread), added coordinate drivers holding their start values.
  d.inputs = std::make_shared<DriverInputs>();
  const std::vector<std::function<double(double)>> expressions =
      m.spec && m.options.expressions ? m.options.expressions(*m.spec) : std::vector<std::function<double(double)>>{};
  const std::vector<std::function<double(double)>> fns =
      bindDriverInputs(*m.file, m.work.drivers.size(), expressions, d.inputs);
  for (const DofInfo& dof : m.dofs)
    if (dof.kind == DofKind::Coordinate) d.inputs->value[dof.driver] = m.dofValues0[&dof - m.dofs.data()];
  d.work = std::make_unique<mechsim::Model>(m.work);
  for (std::size_t i = 0; i < fns.size(); ++i) d.work->drivers[i].value = fns[i];

  // The assembled configuration, solved on the bound model (no iteration: it is the solution), and
  // its rates.
  d.rigid = mechsim::makeData(*d.work);
  d.rigid.q = m.q0;
  solvePositions(*d.work, d.rigid, 0.0);
  detail::finishPositions(d);
  if (m.free) d.freeData = mechsim::makeData(*m.free);
  d.dragMethod = m.options.drag;
  d.anmPath = std::make_unique<AnmSliderPath>();

  // The deformable parts at rest; a part the Model puts on the device is uploaded (a failed upload,
  // device memory, leaves it on the CPU).
  d.parts.resize(m.parts.size());
  for (std::size_t k = 0; k < m.parts.size(); ++k) {
    const PartModel& p = m.parts[k];
    d.parts[k].x = p.rest;
    d.parts[k].v = VecX::Zero(p.rest.size());
    if (p.device && m.options.device) {
      try {
        d.parts[k].device = m.options.device->upload(*p.model, p.jgs2.get(), p.solve.method);
      } catch (const std::exception& e) {
        d.message = "deformable part \"" + p.name + "\" runs on the CPU: " + e.what();
      }
    }
  }
  return d;
}

}  // namespace mechsim::sim
