#pragma once
// core/deform/handle.h — soft handles: a vertex pulled towards a target point by a stiff zero-length
// spring, the way a user drags a deformable part (the GUI's handle drag). Each handle adds
//
//   E_h(x) = ½ k ‖x_v − t‖²,   ∇E_h = k (x_v − t) at v,   ∇²E_h = k I₃ on v's diagonal block
//
// to the incremental potential of the step (deformable.h, JGS2 Eq. 1 plus this term), so the implicit
// step stays a minimisation and the handle's force is implicit (no stiffness limit on h). The
// stiffness is scaled to the vertex's own inertia term: k = c m_v / h² with c = kHandleStiffnessFactor
// (100): in one step the spring outweighs the vertex's inertia c : 1, so a free vertex reaches
// c/(1+c) ≈ 99 % of the way to the target; the elastic forces of the part then decide how far it
// really gets. Removing the handle leaves the part to spring back dynamically.
//
// Handles live in DeformableModel::handles (they may change between steps); incrementalEnergy,
// assembleGradient and the assembled Hessians include them, and so do the per-vertex sweeps' local
// blocks and step control (sweep.h addVertexHandles, hessianForm): every solver honours them.
// Handles on prescribed vertices have no effect.
#include <vector>

#include "core/types.h"

namespace mechsim::deform {

struct VertexHandle {
  int vertex = 0;
  Vec3 target = Vec3::Zero();  // world position the vertex is pulled to (m)
  double stiffness = 0;        // k (N/m), ≥ 0
};

/// c in k = c m_v / h².
constexpr double kHandleStiffnessFactor = 100.0;

/// k = factor · vertexMass / h².
double handleStiffness(double vertexMass, double h, double factor = kHandleStiffnessFactor);

/// Throws std::invalid_argument for a vertex out of [0, vertexCount), a target that is not finite or
/// a stiffness that is negative or not finite.
void validateHandles(const std::vector<VertexHandle>& handles, int vertexCount);

/// Σ ½ k ‖x_v − t‖² over the handles (x: 3 nv stacked positions).
double handleEnergy(const std::vector<VertexHandle>& handles, const VecX& x);
/// g_v += k (x_v − t) for every handle.
void addHandleGradient(const std::vector<VertexHandle>& handles, const VecX& x, VecX& g);
/// k I₃ on the diagonal block of each handle's vertex, as triplets of a 3n × 3n matrix whose block
/// of vertex v is dofOf[v] (skipped when −1); dofOf null: block v.
void addHandleHessian(const std::vector<VertexHandle>& handles, const std::vector<int>* dofOf,
                      std::vector<Triplet>& triplets);

}  // namespace mechsim::deform
