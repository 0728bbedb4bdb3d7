// ui/deformable_parts.cpp — deformable parts stepped on the simulation worker (see the header).
#include "ui/deformable_parts.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <numeric>

#include "core/deform/from_spec.h"
#include "core/deform/handle.h"
#include "core/deform/stress.h"
#include "core/deform/tet_mesh.h"
#include "core/kinematics/kinematics.h"
#include "core/mesh_normals.h"
#ifdef MECHSIM_HAVE_CUDA
#include "gpu/deform_gpu.h"
#include "gpu/device_info.h"
#endif

namespace mechsim::ui {

void DeformableParts::clear() {
  parts_.clear();
  bodyOf_.clear();
  poses_.clear();
  attachError_ = 0;
  iterations_ = 0;
  handlePart_ = -1;
}

std::function<void(deform::Jgs2Stage, double)> DeformableParts::progressReporter(const std::string& part) const {
  using Clock = std::chrono::steady_clock;
  const std::string head = "JGS2 \"" + part + "\": ";  // short: the status bar's permanent widgets take its right half
  return [this, head, stage = -1, last = Clock::time_point()](deform::Jgs2Stage s, double fraction) mutable {
    const auto now = Clock::now();
    if (static_cast<int>(s) == stage && fraction < 1 && now - last < std::chrono::milliseconds(200)) return;
    stage = static_cast<int>(s);
    last = now;
    switch (s) {
      case deform::Jgs2Stage::Factor: progress_(head + "factorising"); break;
      case deform::Jgs2Stage::Modes: progress_(head + "rest modes"); break;
      case deform::Jgs2Stage::Subspaces:
        progress_(head + "subspaces " + std::to_string(static_cast<int>(100 * fraction)) + " %");
        break;
    }
  };
}

bool DeformableParts::build(const MechanismSpec& spec, const Model& model, double h) {
  clear();
  message_.clear();
  std::string current;  // the part being built, for the message
  try {
    // Attachments index spec.bodies; the step is handed those bodies' poses in that order.
    for (const BodySpec& b : spec.bodies) bodyOf_.push_back(model.findBody(b.name));
    for (const DeformableSpec& ds : spec.deformables) {
      current = ds.name;
      Part p;
      p.name = ds.name;
      p.model = deform::makeDeformableFromSpec(ds, spec, h);
      boundarySurface(p.model.mesh, p.surfaceVertices, p.surfaceIndices);
      // The part's solver: the file's, else projected Newton; per-vertex methods with the file's
      // step control, else the subspace control. Iteration caps per shown frame, unless the file
      // gives one: Newton converges in a few iterations; the sweeps need tens (docs/deform.md).
      p.opt.method = deform::methodFromString(ds.solver).value_or(deform::Method::Newton);
      p.opt.acceleration = deform::accelerationFromString(ds.stepControl).value_or(deform::Acceleration::Subspace);
      p.opt.maxIterations = ds.maxIterations > 0 ? ds.maxIterations : p.opt.method == deform::Method::Newton ? 30 : 300;
      if (ds.tolerance > 0) p.opt.tolerance = ds.tolerance;
      p.opt.cancelRequested = cancel_;
      if (deform::isJgs2(p.opt.method)) {
        deform::Jgs2Options jo = deform::jgs2OptionsFor(p.opt.method, ds.modes, p.model.freeCount());
        jo.cancelRequested = cancel_;
        if (progress_) jo.progress = progressReporter(ds.name);
        io::Jgs2CacheUse use;
        p.jgs2 = std::make_unique<deform::Jgs2Data>(io::precomputeJgs2Cached(p.model, jo, cacheDir_, &use));
        if (progress_ && !use.warning.empty()) progress_("JGS2 \"" + ds.name + "\": " + use.warning);
        else if (progress_ && use.result == io::Jgs2CacheUse::Result::Read)
          progress_("JGS2 \"" + ds.name + "\": read from the cache");
      }
#ifdef MECHSIM_HAVE_CUDA
      // The CUDA backend when a device is present and runs the part's solver (the per-vertex sweeps);
      // a failed upload (device memory) leaves the part on the CPU.
      if (gpu::deviceCount() > 0 && gpu::unsupportedReason(p.model, p.jgs2.get(), p.opt).empty()) {
        try {
          p.device = std::make_shared<gpu::DeviceSolver>(p.model, p.jgs2.get(), p.opt.method);
        } catch (const std::exception&) {  // p.device stays null: the CPU steps the part
        }
      }
#endif
      p.rest = deform::restPositions(p.model);
      p.x = p.rest;
      p.v = VecX::Zero(p.x.size());
      parts_.push_back(std::move(p));
    }
  } catch (const std::exception& e) {
    message_ = "deformable part \"" + current + "\": " + e.what() + " (no deformable part is simulated)";
    clear();
    return false;
  }
  poses_.resize(spec.bodies.size());
  return true;
}

void DeformableParts::reset() {
  for (Part& p : parts_) {
    p.x = p.rest;
    p.v.setZero();
  }
  iterations_ = unconverged_ = 0;  // no step taken since
  attachError_ = 0;
}

bool DeformableParts::step(const Model& model, const VecX& q) {
  if (parts_.empty()) return true;
  for (size_t k = 0; k < bodyOf_.size(); ++k) {
    const int b = bodyOf_[k];
    poses_[k] = b >= 0 && b < static_cast<int>(model.bodies.size()) ? bodyPose(model, q, b) : Pose{};
  }
  bool ok = true;
  attachError_ = 0;
  iterations_ = 0;
  unconverged_ = 0;
  for (Part& p : parts_) {
    VecX x = p.x, v = p.v;
    try {
      deform::SolveStats st;
#ifdef MECHSIM_HAVE_CUDA
      if (p.device)
        st = deform::stepImplicitEuler(
            p.model, [&p](const VecX& z, VecX& xs) { return p.device->minimise(p.model, p.opt, z, xs); }, x, v,
            poses_);
      else
#endif
        st = deform::stepImplicitEuler(p.model, p.jgs2.get(), p.opt, x, v, poses_);
      iterations_ += st.iterations;
      if (st.cancelled) {
        message_ = "deformable part \"" + p.name + "\": the step was abandoned; its last state is kept";
        ok = false;
        continue;
      }
      if (st.diverged || !x.allFinite() || !v.allFinite()) {
        message_ = "deformable part \"" + p.name + "\": the step did not converge; its last state is kept";
        ok = false;
        continue;
      }
      if (!st.converged) ++unconverged_;
    } catch (const std::exception& e) {
      message_ = "deformable part \"" + p.name + "\": " + e.what();
      ok = false;
      continue;
    }
    p.x = std::move(x);
    p.v = std::move(v);
    for (const deform::Attachment& a : p.model.attachments)
      attachError_ = std::max(attachError_, (p.x.segment<3>(3 * a.vertex) - poses_[a.body].apply(a.local)).norm());
  }
  if (ok) message_.clear();
  return ok;
}

std::string DeformableParts::solverName(int k) const {
  if (k < 0 || k >= count()) return {};
  const Part& p = parts_[static_cast<size_t>(k)];
  return std::string(deform::toString(p.opt.method)) + (p.device ? " (cuda)" : "");
}

std::shared_ptr<const MeshData> DeformableParts::surface(int k) const {
  if (k < 0 || k >= count()) return std::make_shared<MeshData>();
  const Part& p = parts_[static_cast<size_t>(k)];
  return surfaceMesh(p.surfaceVertices, p.surfaceIndices, p.x);
}

std::vector<std::shared_ptr<const MeshData>> restSurfaces(const MechanismSpec& spec) {
  std::vector<std::shared_ptr<const MeshData>> out;
  try {
    for (const DeformableSpec& ds : spec.deformables) {
      // The spec's mesh is the part's rest shape, placed when the file was read; oriented as
      // makeDeformableModel orients it, so that its boundary faces outward the same way. Only the
      // mesh: the masses, incidence and colouring are the worker's to build.
      deform::TetMesh mesh;
      mesh.vertices = ds.vertices;
      mesh.tets = ds.tets;
      deform::validateAndOrient(mesh);
      VecX rest(3 * mesh.vertexCount());
      for (int v = 0; v < mesh.vertexCount(); ++v) rest.segment<3>(3 * v) = mesh.vertices[v];
      std::vector<int> vertices;
      std::vector<unsigned> indices;
      boundarySurface(mesh, vertices, indices);
      out.push_back(surfaceMesh(vertices, indices, rest));
    }
  } catch (const std::exception&) {
    return {};  // the worker's build says why
  }
  return out;
}

void boundarySurface(const deform::TetMesh& mesh, std::vector<int>& vertices, std::vector<unsigned>& indices) {
  // The boundary triangles over the mesh's vertices, split at the creases of the rest shape
  // (core/mesh_normals.h): decided at rest, so the surface's topology never changes while the part
  // deforms.
  std::vector<unsigned> corners;
  for (const auto& f : deform::boundaryFaces(mesh))
    for (int v : f) corners.push_back(static_cast<unsigned>(v));
  std::vector<unsigned> groupPoint;
  indices = creaseGroups(mesh.vertices, corners, kCreaseDegrees, groupPoint);
  vertices.assign(groupPoint.begin(), groupPoint.end());
}

std::shared_ptr<const MeshData> surfaceMesh(const std::vector<int>& vertices, const std::vector<unsigned>& indices,
                                            const VecX& x) {
  auto mesh = std::make_shared<MeshData>();
  mesh->vertices.reserve(vertices.size());
  for (int v : vertices) mesh->vertices.push_back(x.segment<3>(3 * v).cast<float>());
  mesh->indices = indices;
  mesh->normals = areaWeightedNormals(mesh->vertices, mesh->indices);
  return mesh;
}

std::shared_ptr<const std::vector<float>> DeformableParts::surfaceStress(int k) const {
  auto out = std::make_shared<std::vector<float>>();
  if (k < 0 || k >= count()) return out;
  const Part& p = parts_[static_cast<size_t>(k)];
  const std::vector<double> s = deform::vertexVonMises(p.model, p.x);
  out->reserve(p.surfaceVertices.size());
  for (int v : p.surfaceVertices) out->push_back(static_cast<float>(s[static_cast<size_t>(v)]));
  return out;
}

Vec3 DeformableParts::surfacePoint(int k, int surfaceVertex) const {
  if (k < 0 || k >= count()) return Vec3::Zero();
  const Part& p = parts_[static_cast<size_t>(k)];
  if (surfaceVertex < 0 || surfaceVertex >= static_cast<int>(p.surfaceVertices.size())) return Vec3::Zero();
  return p.x.segment<3>(3 * p.surfaceVertices[static_cast<size_t>(surfaceVertex)]);
}

bool DeformableParts::setHandle(int part, int surfaceVertex, const Vec3& target) {
  clearHandle();
  if (part < 0 || part >= count() || !target.allFinite()) return false;
  Part& p = parts_[static_cast<size_t>(part)];
  if (surfaceVertex < 0 || surfaceVertex >= static_cast<int>(p.surfaceVertices.size())) return false;
  deform::VertexHandle h;
  h.vertex = p.surfaceVertices[static_cast<size_t>(surfaceVertex)];
  h.target = target;
  // The part's mean vertex mass, not the grabbed vertex's own: an edge or corner vertex of a box
  // carries a quarter to a half of a face vertex's mass and would be pulled as much weaker.
  const double meanMass = std::accumulate(p.model.mass.begin(), p.model.mass.end(), 0.0) / p.model.vertexCount();
  h.stiffness = deform::handleStiffness(meanMass, p.model.h, kDragStiffnessFactor);
  p.model.handles = {h};
  handlePart_ = part;
  return true;
}

void DeformableParts::setHandleTarget(const Vec3& target) {
  if (handlePart_ < 0 || !target.allFinite()) return;
  parts_[static_cast<size_t>(handlePart_)].model.handles.front().target = target;
}

void DeformableParts::clearHandle() {
  if (handlePart_ >= 0 && handlePart_ < count()) parts_[static_cast<size_t>(handlePart_)].model.handles.clear();
  handlePart_ = -1;
}

Vec3 DeformableParts::handlePoint() const {
  if (handlePart_ < 0) return Vec3::Zero();
  const Part& p = parts_[static_cast<size_t>(handlePart_)];
  return p.x.segment<3>(3 * p.model.handles.front().vertex);
}

Vec3 DeformableParts::handleTarget() const {
  return handlePart_ < 0 ? Vec3::Zero() : parts_[static_cast<size_t>(handlePart_)].model.handles.front().target;
}

double DeformableParts::maxSpeed() const {
  double m = 0;
  for (const Part& p : parts_)
    for (int v = 0; v < p.model.vertexCount(); ++v) m = std::max(m, p.v.segment<3>(3 * v).norm());
  return m;
}

}  // namespace mechsim::ui
