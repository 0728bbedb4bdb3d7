#pragma once
// tests/core/deform_fixture.h — the cantilever the deformable-solver tests share: a 1 × 0.2 × 0.2 m
// beam along x, pinned at x = 0, bending under gravity (h = 0.01 s, ν = 0.3, ρ = 1000 kg/m³).
#include <vector>

#include "core/deform/deformable.h"

namespace mechsim::deform::testing {

inline DeformableModel cantilever(double youngs, int nx = 6, int nyz = 2,
                                  hd::MaterialKind kind = hd::kStableNeoHookean) {
  TetMesh mesh = makeBoxMesh(Vec3(1, 0.2, 0.2), nx, nyz, nyz);
  std::vector<int> pinned;
  for (int v = 0; v < mesh.vertexCount(); ++v)
    if (mesh.vertices[v].x() < 1e-9) pinned.push_back(v);
  Material mat;
  mat.kind = kind;
  mat.youngs = youngs;
  mat.poisson = 0.3;
  mat.density = 1000;
  return makeDeformableModel(mesh, mat, 0.01, Vec3(0, 0, -9.81), pinned);
}

}  // namespace mechsim::deform::testing
