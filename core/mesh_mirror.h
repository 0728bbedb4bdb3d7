#pragma once
// core/mesh_mirror.h — a mesh reflected in some of its file axes: what a negative mesh scale
// means (URDF <mesh scale="1 -1 1">, MJCF <mesh scale>, SDFormat <scale>, the native "scale":
// [1, -1, 1]); robots draw a right-hand part from the left-hand part's file so. Header-only
// (Eigen alone), for the native reader and the importers alike.
//
// The reflection D = diag(m), m ∈ {±1}³, maps a vertex v to D v and a normal n to D⁻ᵀ n = D n. A
// reflection with det D = m_x m_y m_z = −1 also turns the orientation of every triangle over:
//   (D b − D a) × (D c − D a) = det D · D⁻ᵀ ((b − a) × (c − a)) = −D ((b − a) × (c − a)),
// so a triangle's winding would give the inward normal, and the signed volume ⅙ Σ a · (b × c)
// of a closed mesh would change sign (mass properties, contact and the drawing's face culling read
// them). Swapping two corners of every triangle restores the winding: outward stays outward.
#include <Eigen/Core>

#include <utility>

#include "core/spec.h"

namespace mechsim {

/// `mesh` reflected by diag(signs) (each ±1), triangles rewound when the reflection turns them
/// over (an odd number of −1), normals reflected with the vertices.
inline MeshData mirroredMesh(const MeshData& mesh, const Vec3& signs) {
  const Eigen::Vector3f m = signs.cast<float>();
  MeshData out = mesh;
  for (Eigen::Vector3f& v : out.vertices) v = v.cwiseProduct(m);
  for (Eigen::Vector3f& n : out.normals) n = n.cwiseProduct(m);
  if (m.prod() < 0)
    for (std::size_t t = 0; t + 2 < out.indices.size(); t += 3) std::swap(out.indices[t + 1], out.indices[t + 2]);
  return out;
}

/// True when `signs` reflects anything (a component below zero).
inline bool mirrors(const Vec3& signs) { return signs.minCoeff() < 0; }

}  // namespace mechsim
