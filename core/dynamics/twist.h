#pragma once
// core/dynamics/twist.h — body twists and the block-diagonal mass matrix (internal to dynamics).
//
// Dynamics runs on TWISTS ν (6 per moving body k, at 6k): v, the velocity of the centre of mass,
// then ω, the angular velocity, both in world axes — the form of paper 000 eq. 2, where the mass
// matrix is block-diagonal, M = diag(m_k E₃, I_k) with I_k = R_k Ī_k R_kᵀ the world inertia about
// the com. Positions stay the kinematic q (origin r and quaternion p per body, core/model.h), so
// the position solver projects them. The map q̇ = T(q) ν per body (c = R c̄ the com offset):
//   ṙ = v − ω × c = v + c × ω,     ṗ = ½ (0, ω) ⊗ p  =  G(p) ω,  G = ½ [ −xᵀ ; w E₃ − [x]× ],
// so a row g = (g_r, g_p) of Φ_q (or a coordinate gradient) becomes the twist row
//   g T = ( g_r ,  g_r × c + Gᵀ g_p ).
// The inverse (ν from q̇): ω = 2 vec(ṗ ⊗ p̄)/|p|², v = ṙ + ω × c.
#include <vector>

#include "core/model.h"
#include "core/types.h"

namespace mechsim::dyn {

/// 6-vector blocks of a twist.
using Vec6 = Eigen::Matrix<double, 6, 1>;

/// Per moving body: world com offset c = R c̄, world inertia and its inverse, mass (at some q).
struct BodyInertia {
  int body = -1;              // index into Model::bodies
  int qIndex = -1;            // its first coordinate in q
  double mass = 0, invMass = 0;
  Vec3 comOffset = Vec3::Zero();  // R c̄ (world)
  Mat3 inertia = Mat3::Zero();    // R Ī Rᵀ about the com (world)
  Mat3 invInertia = Mat3::Zero();
  Mat3 R = Mat3::Identity();
};

/// Moving bodies in q order (moving index k ↔ Model::bodies index).
std::vector<int> movingBodies(const Model& m);

/// The inertia blocks at q (size: moving bodies).
void bodyInertias(const Model& m, const VecX& q, std::vector<BodyInertia>& out);

/// Twist row of a q-row: for side s with moving index k, out[12 s + 0..5] = (g_r, g_r × c + Gᵀ g_p).
/// qblock: the body's 7 coordinates (r, p); g: its 7 gradient entries.
Vec6 twistRow(const Eigen::Matrix<double, 1, 7>& g, const Eigen::Matrix<double, 7, 1>& qblock, const Vec3& comOffset);

/// q̇ = T ν (nq from 6 · moving).
void twistToQdot(const Model& m, const VecX& q, const std::vector<BodyInertia>& bi, const VecX& nu, VecX& qd);
/// ν from q̇ (the inverse of twistToQdot on consistent quaternion rates).
void qdotToTwist(const Model& m, const VecX& q, const std::vector<BodyInertia>& bi, const VecX& qd, VecX& nu);

/// Moves q by the twist displacement Δ = h ν (per body: com += h v, orientation ← exp(h ω) · orientation,
/// quaternion renormalised; the origin follows the com).
void displace(const Model& m, const std::vector<BodyInertia>& bi, const VecX& delta, VecX& q);

/// y = M⁻¹ x and y = M x (block-diagonal).
void applyInverseMass(const std::vector<BodyInertia>& bi, const VecX& x, VecX& y);
void applyMass(const std::vector<BodyInertia>& bi, const VecX& x, VecX& y);

/// Kinetic energy ½ νᵀ M ν.
double kineticEnergy(const std::vector<BodyInertia>& bi, const VecX& nu);

}  // namespace mechsim::dyn
