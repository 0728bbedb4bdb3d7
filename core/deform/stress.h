#pragma once
// core/deform/stress.h — stresses of a deformable part for display and checks: the Cauchy stress of
// each tetrahedron and its von Mises equivalent, and their volume-weighted averages at the vertices.
//
// With P = ∂Ψ/∂F the first Piola–Kirchhoff stress of the material (hd/element.h) and J = det F,
//   Cauchy         σ = P Fᵀ / J                          (true stress, force per deformed area)
//   von Mises      σ_vM = √(3/2 s:s),  s = σ − (tr σ / 3) I  (the deviator)
// For the stable neo-Hookean material P = μF + (λ(J−1) − μ) cof F and cof F Fᵀ = J I, so
//   σ = (μ/J) F Fᵀ + (λ(J−1) − μ) I;
// uniaxial stretch F = diag(a, 1, 1) gives σ_vM = μ (a − 1/a), simple shear F = I + γ e₁e₂ᵀ gives
// σ_vM = μ γ √(γ² + 3) (both checked in tests/core/test_deform_stress.cpp).
// An inverted tet (J ≤ 0) has no Cauchy stress; there the Kirchhoff stress τ = P Fᵀ (= J σ where J > 0)
// is used, so that a display always gets a finite value.
#include <vector>

#include "core/deform/deformable.h"
#include "core/types.h"

namespace mechsim::deform {

/// First Piola–Kirchhoff stress P(F) of `material` (Pa).
Mat3 firstPiolaStress(const Material& material, const Mat3& F);
/// Cauchy stress σ = P Fᵀ / J (Pa); the Kirchhoff stress P Fᵀ when J ≤ 0 (see above).
Mat3 cauchyStress(const Material& material, const Mat3& F);
/// von Mises equivalent stress of a (symmetric) stress tensor: √(3/2 s:s), s its deviator.
double vonMises(const Mat3& sigma);

/// Deformation gradient of tet t at positions x (3 nv).
Mat3 tetDeformationGradient(const DeformableModel& m, const VecX& x, int t);
/// von Mises stress of the Cauchy stress of every tet at x (nt values, Pa).
std::vector<double> tetVonMises(const DeformableModel& m, const VecX& x);
/// Per vertex: the average of the incident tets' von Mises stresses weighted by their rest volumes
/// (nv values, Pa).
std::vector<double> vertexVonMises(const DeformableModel& m, const VecX& x);
/// The same from the tets' values already computed (tetVonMises).
std::vector<double> vertexVonMises(const DeformableModel& m, const std::vector<double>& tet);

}  // namespace mechsim::deform
