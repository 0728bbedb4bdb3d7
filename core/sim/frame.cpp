// core/sim/frame.cpp — sim::frame: a snapshot of a running mechanism for drawing and export.
#include "core/sim/frame.h"

#include <algorithm>

#include "core/deform/stress.h"
#include "core/kinematics/kinematics.h"
#include "core/sim/part_surface.h"

namespace mechsim::sim {

std::vector<Pose> bodyPoses(const mechsim::Model& m, const VecX& q) {
  std::vector<Pose> poses;
  poses.reserve(m.bodies.size());
  for (int b = 0; b < static_cast<int>(m.bodies.size()); ++b) poses.push_back(bodyPose(m, q, b));
  return poses;
}

Frame frame(const Model& m, const Data& d, const FrameOptions& opt) {
  Frame f;
  const mechsim::Data& r = d.rigid;
  f.model = m.file;
  f.t = r.t;
  f.poses = bodyPoses(*m.file, r.q);
  f.stats = r.stats;
  f.q = r.q;
  f.qd = r.qd;
  f.qdd = r.qdd;
  f.coords = r.coords;
  f.coordVel = r.coordVel;
  f.coordAcc = r.coordAcc;
  // Φ of the model being solved: the drag model's during a kinematic drag, else the working model's.
  mechsim::Data scratch;
  const bool freeDrag = d.dragging && !d.dynamics && m.free;
  scratch.q = freeDrag ? d.freeData.q : r.q;
  scratch.t = freeDrag ? d.freeData.t : r.t;
  constraintResidual(freeDrag ? *m.free : *d.work, scratch);
  f.phi = std::move(scratch.phi);
  for (const DofInfo& dof : m.dofs) {
    f.dofValues.push_back(d.inputs->value[dof.driver]);
    f.dofFollows.push_back(d.inputs->follow[dof.driver]);
  }
  f.dragging = d.dragging;
  if (d.dragging) {
    f.dragPoint = d.dynamics ? d.dynamics->grabbedPoint() : dragPointPosition(*d.work, r.q, d.dragPoint);
    f.dragTarget = d.dynamics ? d.dynamics->target() : d.dragTarget;
  }
  // Dynamic mode: energies, reactions, contact.
  if (d.dynamics) {
    const DynamicRun& run = *d.dynamics;
    f.dynamic = true;
    const EnergyReport e = run.energy();
    f.kinetic = e.kinetic;
    f.potential = e.potential;
    f.perturbationWork = run.perturbationWork();
    for (const JointReaction& jr : run.reactions()) {
      f.reactionForce.push_back(jr.force);
      f.reactionTorque.push_back(jr.torque);
    }
    f.hasContact = run.hasContact();
    if (f.hasContact) {
      const DynamicsStats& st = run.stats();
      f.contactIterations = st.contactIterations;
      f.contactResidual = st.contactResidual;
      f.maxPenetration = st.maxPenetration;
      f.contacts.reserve(run.contacts().size());
      for (const ContactReport& c : run.contacts()) f.contacts.push_back({c.point, c.normal, c.normalImpulse});
    }
  }
  // Deformable parts: each part's surface (and its stress) now; the solvers named once each.
  if (!m.parts.empty()) {
    f.deformIterations = d.deformIterations;
    f.deformUnconverged = d.deformUnconverged;
    std::vector<std::string> solvers;
    for (std::size_t k = 0; k < m.parts.size(); ++k) {
      const PartModel& p = m.parts[k];
      const PartState& s = d.parts[k];
      const std::string name = std::string(deform::toString(p.solve.method)) + (s.device ? " (cuda)" : "");
      if (std::find(solvers.begin(), solvers.end(), name) == solvers.end()) {
        f.deformSolvers += (solvers.empty() ? "" : ", ") + name;
        solvers.push_back(name);
      }
      if (opt.surfaces) f.deformables.push_back(surfaceMesh(p.surfaceVertices, p.surfaceIndices, s.x));
      if (opt.stress) {
        auto out = std::make_shared<std::vector<float>>();
        const std::vector<double> vm = deform::vertexVonMises(*p.model, s.x);
        out->reserve(p.surfaceVertices.size());
        for (int v : p.surfaceVertices) out->push_back(static_cast<float>(vm[static_cast<std::size_t>(v)]));
        f.deformableStress.push_back(std::move(out));
      }
    }
    if (d.handlePart >= 0) {
      const deform::DeformableModel& hm = *d.parts[static_cast<std::size_t>(d.handlePart)].handled;
      f.deformDragging = true;
      f.deformPoint = d.parts[static_cast<std::size_t>(d.handlePart)].x.segment<3>(3 * hm.handles.front().vertex);
      f.deformTarget = hm.handles.front().target;
    }
  }
  f.times = d.times;
  return f;
}

}  // namespace mechsim::sim
