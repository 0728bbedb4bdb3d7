// core/deform/handle.cpp — the soft handle term of the incremental potential (see the header).
#include "core/deform/handle.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace mechsim::deform {

double handleStiffness(double vertexMass, double h, double factor) {
  if (!(h > 0) || !std::isfinite(h)) throw std::invalid_argument("handleStiffness: time step must be positive");
  if (!(vertexMass >= 0) || !std::isfinite(vertexMass)) throw std::invalid_argument("handleStiffness: bad vertex mass");
  return factor * vertexMass / (h * h);
}

void validateHandles(const std::vector<VertexHandle>& handles, int vertexCount) {
  for (const VertexHandle& hd : handles) {
    if (hd.vertex < 0 || hd.vertex >= vertexCount)
      throw std::invalid_argument("handle vertex " + std::to_string(hd.vertex) + " out of range");
    if (!hd.target.allFinite()) throw std::invalid_argument("handle target is not finite");
    if (!(hd.stiffness >= 0) || !std::isfinite(hd.stiffness))
      throw std::invalid_argument("handle stiffness must be finite and non-negative");
  }
}

double handleEnergy(const std::vector<VertexHandle>& handles, const VecX& x) {
  double e = 0;
  for (const VertexHandle& hd : handles) e += 0.5 * hd.stiffness * (x.segment<3>(3 * hd.vertex) - hd.target).squaredNorm();
  return e;
}

void addHandleGradient(const std::vector<VertexHandle>& handles, const VecX& x, VecX& g) {
  for (const VertexHandle& hd : handles) g.segment<3>(3 * hd.vertex) += hd.stiffness * (x.segment<3>(3 * hd.vertex) - hd.target);
}

void addHandleHessian(const std::vector<VertexHandle>& handles, const std::vector<int>* dofOf,
                      std::vector<Triplet>& triplets) {
  for (const VertexHandle& hd : handles) {
    const int d = dofOf ? (*dofOf)[static_cast<size_t>(hd.vertex)] : hd.vertex;
    if (d < 0) continue;
    for (int r = 0; r < 3; ++r) triplets.emplace_back(3 * d + r, 3 * d + r, hd.stiffness);
  }
}

}  // namespace mechsim::deform
