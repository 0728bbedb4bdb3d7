// core/sim/deformables.cpp — the deformable parts' stages (core/sim/stages.h): one implicit-Euler
// step per call (paper 001; the solvers: core/deform/solver.h), soft handles, and the default
// JGS2 source.
//
// The step of part k minimises the incremental potential
//   E(x) = 1/(2h²) ‖x − z‖²_M + Ψ(x) + Σ_handles ½ k_h ‖x_v − t‖²,   z = x_n + h v_n + h² g,
// over the free vertices, with the attached vertices placed at their bodies' poses now (Dirichlet
// conditions updated each step) and the pinned ones at rest; then v = (x − x_n)/h. The coupling is
// one way: the parts do not push back on the bodies.
#include <algorithm>
#include <chrono>
#include <numeric>

#include "core/deform/handle.h"
#include "core/kinematics/kinematics.h"
#include "core/sim/stages.h"

namespace mechsim::sim {
namespace {

class ComputeJgs2 : public Jgs2Source {
 public:
  deform::Jgs2Data precompute(const deform::DeformableModel& m, const deform::Jgs2Options& o,
                              Jgs2Report& report) override {
    deform::Jgs2Data data = deform::precomputeJgs2(m, o);
    report = Jgs2Report{};
    report.seconds = data.totalSeconds;
    return data;
  }
};

/// The model part k steps on: its handled copy while a soft handle pulls it.
const deform::DeformableModel& stepModel(const Model& m, const Data& d, std::size_t k) {
  return d.parts[k].handled ? *d.parts[k].handled : *m.parts[k].model;
}

}  // namespace

std::shared_ptr<Jgs2Source> computeJgs2() { return std::make_shared<ComputeJgs2>(); }

bool stepDeformables(const Model& m, Data& d) {
  if (m.parts.empty()) return true;
  const auto t0 = std::chrono::steady_clock::now();
  // The bodies' poses, in spec body order (the attachments index spec.bodies).
  std::vector<Pose> poses(m.partBodies.size());
  for (std::size_t k = 0; k < m.partBodies.size(); ++k) {
    const int b = m.partBodies[k];
    poses[k] = b >= 0 && b < static_cast<int>(m.file->bodies.size()) ? bodyPose(*m.file, d.rigid.q, b) : Pose{};
  }
  bool ok = true;
  std::string message;
  d.attachError = 0;
  d.deformIterations = 0;
  d.deformUnconverged = 0;
  for (std::size_t k = 0; k < m.parts.size(); ++k) {
    const PartModel& p = m.parts[k];
    PartState& s = d.parts[k];
    const deform::DeformableModel& pm = stepModel(m, d, k);
    VecX x = s.x, v = s.v;
    try {
      deform::SolveStats st;
      if (s.device)
        st = deform::stepImplicitEuler(
            pm, [&](const VecX& z, VecX& xs) { return s.device->minimise(pm, p.solve, z, xs); }, x, v, poses);
      else
        st = deform::stepImplicitEuler(pm, p.jgs2.get(), p.solve, x, v, poses);
      d.deformIterations += st.iterations;
      s.last = st;
      if (st.cancelled) {
        message = "deformable part \"" + p.name + "\": the step was abandoned; its last state is kept";
        ok = false;
        continue;
      }
      if (st.diverged || !x.allFinite() || !v.allFinite()) {
        message = "deformable part \"" + p.name + "\": the step did not converge; its last state is kept";
        ok = false;
        continue;
      }
      if (!st.converged) ++d.deformUnconverged;
    } catch (const std::exception& e) {
      message = "deformable part \"" + p.name + "\": " + e.what();
      s.last = deform::SolveStats{};
      s.last.diverged = true;
      ok = false;
      continue;
    }
    s.x = std::move(x);
    s.v = std::move(v);
    s.stepped = true;
    for (const deform::Attachment& a : pm.attachments)
      d.attachError = std::max(d.attachError, (s.x.segment<3>(3 * a.vertex) - poses[a.body].apply(a.local)).norm());
  }
  d.message = message;
  d.times.deformables = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return ok;
}

void resetDeformables(const Model& m, Data& d) {
  for (std::size_t k = 0; k < m.parts.size() && k < d.parts.size(); ++k) {
    d.parts[k].x = m.parts[k].rest;
    d.parts[k].v.setZero();
    d.parts[k].stepped = false;
    d.parts[k].last = deform::SolveStats{};
  }
  d.deformIterations = d.deformUnconverged = 0;  // no step taken since
  d.attachError = 0;
}

bool setDeformHandle(const Model& m, Data& d, int part, int surfaceVertex, const Vec3& target) {
  clearDeformHandle(m, d);
  if (part < 0 || part >= static_cast<int>(m.parts.size()) || !target.allFinite()) return false;
  const PartModel& p = m.parts[static_cast<std::size_t>(part)];
  if (surfaceVertex < 0 || surfaceVertex >= static_cast<int>(p.surfaceVertices.size())) return false;
  deform::VertexHandle h;
  h.vertex = p.surfaceVertices[static_cast<std::size_t>(surfaceVertex)];
  h.target = target;
  // The part's mean vertex mass, not the grabbed vertex's own: an edge or corner vertex of a box
  // carries a quarter to a half of a face vertex's mass and would be pulled as much weaker.
  const double meanMass = std::accumulate(p.model->mass.begin(), p.model->mass.end(), 0.0) / p.model->vertexCount();
  h.stiffness = deform::handleStiffness(meanMass, p.model->h, kDeformHandleStiffness);
  auto handled = std::make_shared<deform::DeformableModel>(*p.model);
  handled->handles = {h};
  d.parts[static_cast<std::size_t>(part)].handled = std::move(handled);
  d.handlePart = part;
  d.handleVertex = surfaceVertex;
  return true;
}

void moveDeformHandle(const Model& m, Data& d, const Vec3& target) {
  if (d.handlePart < 0 || !target.allFinite()) return;
  d.parts[static_cast<std::size_t>(d.handlePart)].handled->handles.front().target = target;
}

void clearDeformHandle(const Model& m, Data& d) {
  if (d.handlePart >= 0 && d.handlePart < static_cast<int>(d.parts.size()))
    d.parts[static_cast<std::size_t>(d.handlePart)].handled.reset();
  d.handlePart = d.handleVertex = -1;
}

Vec3 partSurfacePoint(const Model& m, const Data& d, int part, int surfaceVertex) {
  if (part < 0 || part >= static_cast<int>(m.parts.size())) return Vec3::Zero();
  const PartModel& p = m.parts[static_cast<std::size_t>(part)];
  if (surfaceVertex < 0 || surfaceVertex >= static_cast<int>(p.surfaceVertices.size())) return Vec3::Zero();
  return d.parts[static_cast<std::size_t>(part)].x.segment<3>(3 * p.surfaceVertices[static_cast<std::size_t>(surfaceVertex)]);
}

double deformMaxSpeed(const Data& d) {
  double s = 0;
  for (const PartState& p : d.parts)
    for (int v = 0; 3 * v < p.v.size(); ++v) s = std::max(s, p.v.segment<3>(3 * v).norm());
  return s;
}

}  // namespace mechsim::sim
