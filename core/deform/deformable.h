#pragma once
// core/deform/deformable.h — a deformable part: its constant model (mesh, material, lumped masses,
// rest shape data, prescribed vertices) and the implicit-Euler incremental potential of one step
// (JGS2 Eq. 1):
//
//   E(x) = 1/(2h²) ‖M^{1/2}(x − z)‖² + Σ_e V_e Ψ(F_e(x)),   z = x̂ + h v̂ + h² g,
//
// with M the lumped (diagonal) mass matrix (each tet gives ρV_e/4 to each of its vertices), x̂, v̂ the
// positions and velocities at the start of the step and g gravity. Prescribed vertices (pinned, or
// attached to a rigid body and moved with it) are removed from the unknowns: their positions are
// set before the step and never changed by a solver.
#include <functional>
#include <vector>

#include "core/deform/handle.h"
#include "core/deform/hd/element.h"
#include "core/deform/tet_mesh.h"
#include "core/types.h"

namespace mechsim::deform {

struct Material {
  hd::MaterialKind kind = hd::kStableNeoHookean;
  double youngs = 1e6;   // Pa
  double poisson = 0.4;  // −
  double density = 1000; // kg/m³
  /// Shear modulus μ = E / (2(1 + ν)), the μ of both energies.
  double mu() const { return youngs / (2 * (1 + poisson)); }
  /// Lamé's λ of linear elasticity, Eν / ((1 + ν)(1 − 2ν)).
  double lameLambda() const { return youngs * poisson / ((1 + poisson) * (1 - 2 * poisson)); }
  /// The λ of the stable neo-Hookean energy Ψ = μ/2 (I_C − 3) − μ(J − 1) + λ/2 (J − 1)²
  /// (hd::materialEval). Linearised at rest its stress is P ≈ μ(δF + δFᵀ) + (λ − μ) tr(δF) I, i.e.
  /// linear elasticity with Lamé's λ − μ; λ = lameLambda() + μ therefore gives the material the
  /// file's E and ν at small strain (the reparameterisation Smith, de Goes & Kim 2018 make for the
  /// variant of their energy with the log term: there λ + 5/6 μ and 4/3 μ). ARAP has no λ.
  double lambda() const { return lameLambda() + mu(); }
};

/// A vertex that moves with a rigid body: its position is pose(body).apply(local) each step.
struct Attachment {
  int vertex = 0;
  int body = 0;               // index into the pose array handed to stepImplicitEuler
  Vec3 local = Vec3::Zero();  // the vertex in the body frame
};

struct DeformableModel {
  TetMesh mesh;
  Material material;
  double h = 0.01;                       // time step (s); baked into JGS2's precomputation
  Vec3 gravity = Vec3(0, 0, -9.81);
  std::vector<double> Bm;                // (9 nt) inverse rest edge matrices Dm⁻¹, row-major
  std::vector<double> volume;            // (nt) rest volumes
  std::vector<double> mass;              // (nv) lumped vertex masses
  std::vector<char> prescribed;          // (nv) 1: pinned or attached
  std::vector<int> freeIndex;            // (nv) index among the free vertices, −1 when prescribed
  std::vector<int> freeVertices;         // (nfree) the free vertices in order
  std::vector<Attachment> attachments;
  VertexTets incidence;                  // vertex → incident tets
  std::vector<int> colour;               // (nv) Gauss–Seidel colour
  int colourCount = 0;
  double extent = 1;                     // bounding-box extent (convergence normalisation)
  /// Soft handles (handle.h): zero-length springs added to E; may change between steps.
  std::vector<VertexHandle> handles;

  int vertexCount() const { return mesh.vertexCount(); }
  int tetCount() const { return mesh.tetCount(); }
  int freeCount() const { return static_cast<int>(freeVertices.size()); }
  double mu() const { return material.mu(); }
  double lambda() const { return material.lambda(); }
};

/// Builds the model. `pinned` lists vertices held at their rest positions; attachments are also
/// prescribed. Throws std::invalid_argument on bad input (h ≤ 0, bad material, bad indices).
DeformableModel makeDeformableModel(TetMesh mesh, const Material& material, double h, const Vec3& gravity,
                                    const std::vector<int>& pinned, const std::vector<Attachment>& attachments = {});

/// Rest positions stacked (3 nv).
VecX restPositions(const DeformableModel& m);

/// Per-element gradients (12 nt) and Hessians (144 nt, projected PSD) of the elastic energy at x.
struct ElementCache {
  std::vector<double> g;    // (12 nt)
  std::vector<double> H;    // (144 nt)
  double elasticEnergy = 0;
};
/// Evaluates the tets in [begin, end) (all when end < 0); with `hessian` false only g.
void evalElements(const DeformableModel& m, const VecX& x, ElementCache& c, bool hessian, bool project = true,
                  int begin = 0, int end = -1);
/// Re-evaluates only the listed tets.
void evalElementList(const DeformableModel& m, const VecX& x, ElementCache& c, const std::vector<int>& tets,
                     bool hessian, bool project = true);

/// E(x) for inertia target z (with the handles' springs, handle.h).
double incrementalEnergy(const DeformableModel& m, const VecX& z, const VecX& x);
/// ∇E (3 nv) from the element cache; zero at prescribed vertices.
VecX assembleGradient(const DeformableModel& m, const VecX& z, const VecX& x, const ElementCache& c);
/// ∇²E restricted to the free vertices (3 nfree square, free-vertex order), from the cache.
SpMat assembleHessian(const DeformableModel& m, const ElementCache& c);
/// Full ∇²E (3 nv square, prescribed rows included) — for tests.
SpMat assembleFullHessian(const DeformableModel& m, const ElementCache& c);

/// Max over vertices of ‖Δx_v‖ divided by the model extent: the convergence measure ‖Δx‖ on the
/// unit-cube-normalised scene (JGS2 §8.1; the paper leaves the norm open, we take the max norm).
double normalisedStep(const DeformableModel& m, const VecX& dx);

/// Per-vertex rotations R_j (9 nv, row-major): the rotation of the polar decomposition of the
/// volume-weighted mean deformation gradient of the tets around j (JGS2 Eq. 14; the paper leaves
/// the per-vertex F open — ambiguity (e) of the notes).
void vertexRotations(const DeformableModel& m, const VecX& x, std::vector<double>& R);

}  // namespace mechsim::deform
