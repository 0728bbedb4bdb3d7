#pragma once
// core/mass_properties.h — mass, centre of mass and inertia of shapes (uniform density).
//
// Each shape's properties are computed in its own frame and moved to the body frame (rotation
// I' = Q I Qᵀ, then the parallel-axis theorem about the combined centre of mass):
//   box a×b×c         m = ρabc,          I = m/12 diag(b²+c², a²+c², a²+b²)
//   cylinder r, h (z) m = ρπr²h,         Izz = m r²/2,  Ixx = Iyy = m (3r² + h²)/12
//   sphere r          m = ρ 4/3 π r³,    I = 2/5 m r²
//   capsule r, h (z)  cylinder m_c = ρπr²h plus two hemispherical caps (together a sphere m_s):
//                     Izz = m_c r²/2 + 2/5 m_s r²,
//                     Ixx = m_c (3r² + h²)/12 + m_s (2r²/5 + h²/4 + 3hr/8)
//   mesh              closed triangle mesh (outward or consistently inward winding), vertices
//                     scaled by `scale`; volume integrals by the divergence theorem as a sum of
//                     signed tetrahedra (origin, a, b, c), det = a·(b×c):
//                     V = Σ det/6,  ∫x = Σ det/24 (a+b+c),
//                     ∫x xᵀ = Σ det/120 (aaᵀ + bbᵀ + ccᵀ + (a+b+c)(a+b+c)ᵀ),
//                     I_origin = tr(∫xxᵀ) I − ∫xxᵀ (times ρ).
#include <vector>

#include "core/spec.h"
#include "core/types.h"

namespace mechsim {

struct MassProperties {
  double mass = 0;            // kg
  Vec3 com = Vec3::Zero();    // centre of mass in the frame the properties are expressed in
  Mat3 inertia = Mat3::Zero();  // about the com (kg·m²)
};

/// The pose of a shape in its body frame: orientation, then z turned onto `axis` for
/// cylinders and capsules (so the shape's local z is the axis in the body frame).
Pose shapeLocalPose(const ShapeSpec& s);

/// Mass properties of one shape with density rho, in the BODY frame. Throws std::invalid_argument
/// for a mesh without triangles.
MassProperties shapeMassProperties(const ShapeSpec& s, double rho);

/// Combined properties of several parts (com and inertia about the combined com).
MassProperties combine(const std::vector<MassProperties>& parts);

/// Inertia of mass properties `mp` about another point c (parallel-axis theorem).
Mat3 inertiaAbout(const MassProperties& mp, const Vec3& c);

/// The symmetric tensor of (Ixx Iyy Izz Ixy Ixz Iyz).
Mat3 inertiaFromVector(const Eigen::Matrix<double, 6, 1>& v);

}  // namespace mechsim
