// core/deform/from_spec.cpp — DeformableSpec → DeformableModel (see the header).
#include "core/deform/from_spec.h"

#include <stdexcept>

namespace mechsim::deform {

DeformableModel makeDeformableFromSpec(const DeformableSpec& d, const MechanismSpec& spec, double h) {
  TetMesh mesh;
  mesh.vertices = d.vertices;
  mesh.tets = d.tets;
  Material mat;
  mat.kind = d.material == "arap" ? hd::kArap : hd::kStableNeoHookean;
  mat.youngs = d.youngs;
  mat.poisson = d.poisson;
  mat.density = d.density;
  std::vector<int> pinned = d.pinned;
  std::vector<Attachment> att;
  for (const DeformableAttachmentSpec& a : d.attachments) {
    int b = -1;
    for (int k = 0; k < static_cast<int>(spec.bodies.size()); ++k)
      if (spec.bodies[k].name == a.body) b = k;
    if (b < 0) throw std::invalid_argument("deformable \"" + d.name + "\": unknown body \"" + a.body + "\"");
    const BodySpec& body = spec.bodies[b];
    for (int v : a.vertices) {
      if (v < 0 || v >= static_cast<int>(d.vertices.size()))
        throw std::invalid_argument("deformable \"" + d.name + "\": attached vertex out of range");
      if (body.fixed) {
        pinned.push_back(v);
        continue;
      }
      att.push_back({v, b, body.orientation.conjugate() * (d.vertices[v] - body.position)});
    }
  }
  return makeDeformableModel(std::move(mesh), mat, h, spec.gravity, pinned, att);
}

}  // namespace mechsim::deform
