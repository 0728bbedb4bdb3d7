// ui/deformable_parts.cpp — deformable parts stepped on the simulation worker (see the header).
#include "ui/deformable_parts.h"

#include <exception>

#include "core/deform/from_spec.h"
#include "core/deform/solver.h"
#include "core/kinematics/kinematics.h"

namespace mechsim::ui {

void DeformableParts::clear() {
  parts_.clear();
  bodyOf_.clear();
  poses_.clear();
  attachError_ = 0;
  iterations_ = 0;
}

bool DeformableParts::build(const MechanismSpec& spec, const Model& model, double h) {
  clear();
  message_.clear();
  try {
    // Attachments index spec.bodies; the step is handed those bodies' poses in that order.
    for (const BodySpec& b : spec.bodies) bodyOf_.push_back(model.findBody(b.name));
    for (const DeformableSpec& ds : spec.deformables) {
      Part p;
      p.name = ds.name;
      p.model = deform::makeDeformableFromSpec(ds, spec, h);
      // The boundary surface's vertices, renumbered once; each frame only moves them.
      std::vector<int> index(static_cast<size_t>(p.model.vertexCount()), -1);
      for (const auto& f : deform::boundaryFaces(p.model.mesh))
        for (int v : f) {
          int& k = index[static_cast<size_t>(v)];
          if (k < 0) {
            k = static_cast<int>(p.surfaceVertices.size());
            p.surfaceVertices.push_back(v);
          }
          p.surfaceIndices.push_back(static_cast<unsigned>(k));
        }
      p.rest = deform::restPositions(p.model);
      p.x = p.rest;
      p.v = VecX::Zero(p.x.size());
      parts_.push_back(std::move(p));
    }
  } catch (const std::exception& e) {
    message_ = std::string("deformable parts: ") + e.what();
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
}

bool DeformableParts::step(const Model& model, const VecX& q) {
  if (parts_.empty()) return true;
  for (size_t k = 0; k < bodyOf_.size(); ++k) {
    const int b = bodyOf_[k];
    poses_[k] = b >= 0 && b < static_cast<int>(model.bodies.size()) ? bodyPose(model, q, b) : Pose{};
  }
  deform::SolveOptions opt;  // projected Newton, ‖Δx‖ < 1e-4 (normalised)
  opt.maxIterations = 30;
  bool ok = true;
  attachError_ = 0;
  iterations_ = 0;
  for (Part& p : parts_) {
    VecX x = p.x, v = p.v;
    try {
      const deform::SolveStats st = deform::stepImplicitEuler(p.model, nullptr, opt, x, v, poses_);
      iterations_ += st.iterations;
      if (st.diverged || !x.allFinite() || !v.allFinite()) {
        message_ = "deformable part \"" + p.name + "\": the step did not converge; its last state is kept";
        ok = false;
        continue;
      }
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

std::shared_ptr<const MeshData> DeformableParts::surface(int k) const {
  auto mesh = std::make_shared<MeshData>();
  if (k < 0 || k >= count()) return mesh;
  const Part& p = parts_[static_cast<size_t>(k)];
  // Normals: the area-weighted sums of the incident triangles' normals (smooth shading).
  mesh->vertices.reserve(p.surfaceVertices.size());
  for (int v : p.surfaceVertices) mesh->vertices.push_back(p.x.segment<3>(3 * v).cast<float>());
  mesh->indices = p.surfaceIndices;
  mesh->normals.assign(mesh->vertices.size(), Eigen::Vector3f::Zero());
  for (size_t t = 0; t + 2 < mesh->indices.size(); t += 3) {
    const unsigned a = mesh->indices[t], b = mesh->indices[t + 1], c = mesh->indices[t + 2];
    const Eigen::Vector3f n = (mesh->vertices[b] - mesh->vertices[a]).cross(mesh->vertices[c] - mesh->vertices[a]);
    for (unsigned i : {a, b, c}) mesh->normals[i] += n;
  }
  for (Eigen::Vector3f& n : mesh->normals) {
    const float l = n.norm();
    n = l > 0 ? Eigen::Vector3f(n / l) : Eigen::Vector3f::UnitZ();
  }
  return mesh;
}

}  // namespace mechsim::ui
