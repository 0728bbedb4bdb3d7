// core/sim/model.cpp — sim::compile: the DOF analysis, the working and drag models, the assembled
// start, the sliders' ranges and the deformable parts with their precomputation (see model.h).
#include "core/sim/model.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <tuple>

#include "core/deform/from_spec.h"
#include "core/sim/data.h"
#include "core/sim/part_surface.h"

namespace mechsim::sim {
namespace {

/// Jgs2Options::progress for part `name`: lines for Options::progress, at most about five a second
/// and at every change of stage.
std::function<void(deform::Jgs2Stage, double)> progressReporter(const std::function<void(const std::string&)>& progress,
                                                               const std::string& name) {
  using Clock = std::chrono::steady_clock;
  const std::string head = "JGS2 \"" + name + "\": ";  // short: the status bar's permanent widgets take its right half
  return [progress, head, stage = -1, last = Clock::time_point()](deform::Jgs2Stage s, double fraction) mutable {
    const auto now = Clock::now();
    if (static_cast<int>(s) == stage && fraction < 1 && now - last < std::chrono::milliseconds(200)) return;
    stage = static_cast<int>(s);
    last = now;
    switch (s) {
      case deform::Jgs2Stage::Factor: progress(head + "factorising"); break;
      case deform::Jgs2Stage::Modes: progress(head + "rest modes"); break;
      case deform::Jgs2Stage::Subspaces:
        progress(head + "subspaces " + std::to_string(static_cast<int>(100 * fraction)) + " %");
        break;
    }
  };
}

/// Part `ds` compiled: its model with time step Options::deformStep, its surface, its solver (the
/// options' override, else the file's, else projected Newton with the subspace step control; the
/// iteration cap the file's, else the engine's per method), its JGS2 precomputation and backend.
PartModel compilePart(const DeformableSpec& ds, const MechanismSpec& spec, const Options& o) {
  PartModel p;
  p.name = ds.name;
  auto model = std::make_shared<deform::DeformableModel>(deform::makeDeformableFromSpec(ds, spec, o.deformStep));
  boundarySurface(model->mesh, p.surfaceVertices, p.surfaceIndices);
  p.solve.method = o.deformMethod ? *o.deformMethod : deform::methodFromString(ds.solver).value_or(deform::Method::Newton);
  p.solve.acceleration = o.deformControl ? *o.deformControl
                                         : deform::accelerationFromString(ds.stepControl).value_or(deform::Acceleration::Subspace);
  p.fileBudget = ds.maxIterations > 0;
  p.solve.maxIterations = p.fileBudget ? ds.maxIterations
                          : p.solve.method == deform::Method::Newton ? o.newtonMaxIterations
                                                                     : o.sweepMaxIterations;
  if (ds.tolerance > 0) p.solve.tolerance = ds.tolerance;
  p.solve.cancelRequested = o.cancel;
  if (deform::isJgs2(p.solve.method)) {
    deform::Jgs2Options jo =
        deform::jgs2OptionsFor(p.solve.method, o.deformModes > 0 ? o.deformModes : ds.modes, model->freeCount());
    jo.cancelRequested = o.cancel;
    if (o.progress) jo.progress = progressReporter(o.progress, ds.name);
    const std::shared_ptr<Jgs2Source> source = o.jgs2 ? o.jgs2 : computeJgs2();
    p.jgs2 = std::make_shared<deform::Jgs2Data>(source->precompute(*model, jo, p.precomputation));
    if (o.progress && !p.precomputation.warning.empty()) o.progress("JGS2 \"" + ds.name + "\": " + p.precomputation.warning);
    else if (o.progress && p.precomputation.fromCache) o.progress("JGS2 \"" + ds.name + "\": read from the cache");
  }
  // The device when one is present, allowed, and it runs the part's solver (the per-vertex sweeps).
  if (o.backend != Backend::Cpu && o.device) {
    const std::string why = !o.device->present() ? o.device->description()
                                                 : o.device->unsupportedReason(*model, p.jgs2.get(), p.solve);
    p.device = why.empty();
    if (!p.device && o.device->present()) p.cpuReason = why;
    if (!p.device && o.backend == Backend::Cuda)
      throw std::invalid_argument("part \"" + ds.name + "\": the device cannot step it: " + why);
  } else if (o.backend == Backend::Cuda) {
    throw std::invalid_argument("part \"" + ds.name + "\": no device backend (the CUDA backend is not built)");
  }
  p.rest = deform::restPositions(*model);
  p.model = std::move(model);
  return p;
}

}  // namespace

int Model::findDof(const std::string& name) const {
  for (int i = 0; i < dofCount(); ++i)
    if (dofs[i].name == name) return i;
  return -1;
}

int Model::findHandle(const std::string& name) const {
  if (!file) return -1;
  for (int i = 0; i < static_cast<int>(file->handles.size()); ++i)
    if (file->handles[i].name == name) return i;
  return -1;
}

int Model::findPart(const std::string& name) const {
  for (int i = 0; i < static_cast<int>(parts.size()); ++i)
    if (parts[i].name == name) return i;
  return -1;
}

Model compile(std::shared_ptr<const MechanismSpec> spec, std::shared_ptr<const mechsim::Model> file, const Options& o) {
  if (!file) throw std::invalid_argument("sim::compile: no model");
  Model m;
  m.file = std::move(file);
  m.spec = std::move(spec);
  m.options = o;
  const mechsim::Model& fm = *m.file;

  // Assemble the file's configuration with its drivers at t = 0, then the mobility analysis.
  mechsim::Data assembled = makeData(fm);
  solvePositions(fm, assembled, 0.0);
  if (o.sliders) m.mobility = analyseMobility(fm, assembled);

  // The working model: the file's drivers plus the coordinates that complete them; the drag model
  // without drivers. A spec the analysis cannot extend runs with its own drivers only.
  auto inputs = std::make_shared<DriverInputs>();
  const std::vector<std::function<double(double)>> expressions =
      m.spec && o.expressions ? o.expressions(*m.spec) : std::vector<std::function<double(double)>>{};
  try {
    if (m.spec && o.sliders)
      m.addedCoordinates = independentCoordinates(*m.spec, fm, assembled.q, m.mobility.dofDriven);
    m.work = buildWorkModel(m.spec.get(), fm, m.addedCoordinates, expressions, inputs);
    if (auto free = buildFreeModel(m.spec.get())) m.free = std::move(free);
  } catch (const std::exception& e) {
    m.message = e.what();
    m.addedCoordinates.clear();
    m.work = buildWorkModel(nullptr, fm, {}, expressions, inputs);
    m.free.reset();
  }

  // The sliders: one per driver of the working model, starting where the mechanism is.
  mechsim::Data d = makeData(m.work);
  d.q = assembled.q;
  updateJointCoordinates(m.work, d);
  const int nFile = static_cast<int>(fm.drivers.size());
  for (int i = 0; i < static_cast<int>(m.work.drivers.size()); ++i) {
    const Driver& drv = m.work.drivers[i];
    const Joint& jt = m.work.joints[drv.joint];
    DofInfo dof;
    dof.kind = i < nFile ? DofKind::Driver : DofKind::Coordinate;
    dof.driver = i;
    dof.joint = drv.joint;
    dof.coordinate = drv.coordinate;
    dof.coordIndex = jt.firstCoord + drv.coordinate;
    dof.angular = isAngularCoordinate(jt, drv.coordinate);
    dof.name = dof.kind == DofKind::Driver ? drv.name : m.work.coordNames[dof.coordIndex];
    dof.expression = dof.kind == DofKind::Driver ? drv.expression : std::string();
    inputs->value[i] = dof.kind == DofKind::Driver ? inputs->at(i, 0.0) : d.coords[dof.coordIndex];
    m.dofs.push_back(dof);
  }
  solvePositions(m.work, d, 0.0);
  m.q0 = d.q;

  // Slider ranges: the file's limits, else what the position analysis can reach.
  constexpr double kPi = 3.14159265358979323846;
  for (DofInfo& dof : m.dofs) {
    const double v = inputs->value[dof.driver];
    const Joint& jt = m.work.joints[dof.joint];
    if (jt.limits && (jt.nCoords == 1 || dof.coordinate == 0)) {
      dof.lower = jt.limits->first;
      dof.upper = jt.limits->second;
      dof.limitsFromFile = true;
    } else if (o.rangeBudgetSeconds > 0) {
      std::tie(dof.lower, dof.upper) = reachableRange(m.work, d, *inputs, dof, o.rangeBudgetSeconds);
    } else {
      const double reach = dof.angular ? kPi : 2.0 * m.work.lengthScale;
      dof.lower = v - reach;
      dof.upper = v + reach;
    }
    dof.lower = std::min(dof.lower, v);
    dof.upper = std::max(dof.upper, v);
    m.dofValues0.push_back(v);
  }

  // Deformable parts. A part that cannot be built leaves the mechanism without parts (said in
  // message); an abandoned precomputation (Options::cancel) is thrown on.
  if (o.deformables && m.spec && !m.spec->deformables.empty()) {
    for (const BodySpec& b : m.spec->bodies) m.partBodies.push_back(fm.findBody(b.name));
    std::string current;
    try {
      for (const DeformableSpec& ds : m.spec->deformables) {
        current = ds.name;
        m.parts.push_back(compilePart(ds, *m.spec, o));
      }
    } catch (const deform::Cancelled&) {
      throw;
    } catch (const std::exception& e) {
      if (o.backend == Backend::Cuda && dynamic_cast<const std::invalid_argument*>(&e)) throw;
      m.parts.clear();
      m.message += (m.message.empty() ? "" : "; ") + ("deformable part \"" + current + "\": " + e.what() +
                                                      " (no deformable part is simulated)");
    }
  }
  return m;
}

}  // namespace mechsim::sim
