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
      p.faces = deform::boundaryFaces(p.model.mesh);
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
  const int nv = p.model.vertexCount();
  // Only the vertices on the surface, renumbered; normals are the area-weighted sums of the
  // incident triangles' normals (smooth shading).
  std::vector<int> index(static_cast<size_t>(nv), -1);
  for (const auto& f : p.faces)
    for (int v : f)
      if (index[static_cast<size_t>(v)] < 0) {
        index[static_cast<size_t>(v)] = static_cast<int>(mesh->vertices.size());
        mesh->vertices.push_back(p.x.segment<3>(3 * v).cast<float>());
      }
  mesh->normals.assign(mesh->vertices.size(), Eigen::Vector3f::Zero());
  mesh->indices.reserve(3 * p.faces.size());
  for (const auto& f : p.faces) {
    const unsigned a = static_cast<unsigned>(index[static_cast<size_t>(f[0])]);
    const unsigned b = static_cast<unsigned>(index[static_cast<size_t>(f[1])]);
    const unsigned c = static_cast<unsigned>(index[static_cast<size_t>(f[2])]);
    const Eigen::Vector3f n = (mesh->vertices[b] - mesh->vertices[a]).cross(mesh->vertices[c] - mesh->vertices[a]);
    for (unsigned i : {a, b, c}) mesh->normals[i] += n;
    mesh->indices.insert(mesh->indices.end(), {a, b, c});
  }
  for (Eigen::Vector3f& n : mesh->normals) {
    const float l = n.norm();
    n = l > 0 ? Eigen::Vector3f(n / l) : Eigen::Vector3f::UnitZ();
  }
  return mesh;
}

}  // namespace mechsim::ui
