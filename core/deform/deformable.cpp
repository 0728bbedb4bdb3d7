// core/deform/deformable.cpp — model construction and the incremental potential (see the header).
#include "core/deform/deformable.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/deform/parallel.h"

namespace mechsim::deform {

DeformableModel makeDeformableModel(TetMesh mesh, const Material& material, double h, const Vec3& gravity,
                                    const std::vector<int>& pinned, const std::vector<Attachment>& attachments) {
  if (!(h > 0) || !std::isfinite(h)) throw std::invalid_argument("time step must be positive");
  if (!(material.youngs > 0) || !std::isfinite(material.youngs))
    throw std::invalid_argument("Young's modulus must be positive");
  if (!(material.poisson > -1 && material.poisson < 0.5))
    throw std::invalid_argument("Poisson ratio must lie in (-1, 0.5)");
  if (!(material.density > 0) || !std::isfinite(material.density))
    throw std::invalid_argument("density must be positive");
  if (mesh.tetCount() == 0) throw std::invalid_argument("mesh has no tetrahedra");
  validateAndOrient(mesh);

  DeformableModel m;
  m.mesh = std::move(mesh);
  m.material = material;
  m.h = h;
  m.gravity = gravity;
  const int nv = m.vertexCount(), nt = m.tetCount();
  m.Bm.resize(9 * nt);
  m.volume.resize(nt);
  m.mass.assign(nv, 0.0);
  for (int t = 0; t < nt; ++t) {
    const auto& e = m.mesh.tets[t];
    Mat3 Dm;
    for (int k = 0; k < 3; ++k) Dm.col(k) = m.mesh.vertices[e[k + 1]] - m.mesh.vertices[e[0]];
    const Mat3 B = Dm.inverse();
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) m.Bm[9 * t + 3 * r + c] = B(r, c);
    m.volume[t] = Dm.determinant() / 6.0;
    for (int v : e) m.mass[v] += material.density * m.volume[t] / 4.0;
  }
  m.prescribed.assign(nv, 0);
  for (int v : pinned) {
    if (v < 0 || v >= nv) throw std::invalid_argument("pinned vertex " + std::to_string(v) + " out of range");
    m.prescribed[v] = 1;
  }
  for (const Attachment& a : attachments) {
    if (a.vertex < 0 || a.vertex >= nv)
      throw std::invalid_argument("attached vertex " + std::to_string(a.vertex) + " out of range");
    if (a.body < 0) throw std::invalid_argument("attachment body index must be ≥ 0");
    m.prescribed[a.vertex] = 1;
  }
  m.attachments = attachments;
  m.freeIndex.assign(nv, -1);
  for (int v = 0; v < nv; ++v)
    if (!m.prescribed[v]) {
      m.freeIndex[v] = static_cast<int>(m.freeVertices.size());
      m.freeVertices.push_back(v);
    }
  m.incidence = vertexTets(m.mesh);
  m.colour = colourVertices(m.mesh, &m.colourCount);
  m.extent = boundingBoxExtent(m.mesh);
  return m;
}

VecX restPositions(const DeformableModel& m) {
  VecX x(3 * m.vertexCount());
  for (int v = 0; v < m.vertexCount(); ++v) x.segment<3>(3 * v) = m.mesh.vertices[v];
  return x;
}

namespace {
inline void gatherTet(const DeformableModel& m, const VecX& x, int t, double* xe) {
  const auto& e = m.mesh.tets[t];
  for (int a = 0; a < 4; ++a)
    for (int r = 0; r < 3; ++r) xe[3 * a + r] = x[3 * e[a] + r];
}
}  // namespace

void evalElements(const DeformableModel& m, const VecX& x, ElementCache& c, bool hessian, bool project, int begin,
                  int end) {
  const int nt = m.tetCount();
  if (end < 0) end = nt;
  c.g.resize(12 * std::size_t(nt));
  if (hessian) c.H.resize(144 * std::size_t(nt));
  const int kind = m.material.kind;
  const double mu = m.mu(), lam = m.lambda();
  c.elasticEnergy = detail::parallelSum(end - begin, detail::kParallelTets, [&](int k) {
    const int t = begin + k;
    double xe[12];
    gatherTet(m, x, t, xe);
    return hd::elementEval(kind, mu, lam, m.volume[t], &m.Bm[9 * t], xe, &c.g[12 * std::size_t(t)],
                           hessian ? &c.H[144 * std::size_t(t)] : nullptr, project);
  });
}

void evalElementList(const DeformableModel& m, const VecX& x, ElementCache& c, const std::vector<int>& tets,
                     bool hessian, bool project) {
  const int kind = m.material.kind;
  const double mu = m.mu(), lam = m.lambda();
  detail::parallelFor(static_cast<int>(tets.size()), detail::kParallelTets, [&](int k) {
    const int t = tets[k];
    double xe[12];
    gatherTet(m, x, t, xe);
    hd::elementEval(kind, mu, lam, m.volume[t], &m.Bm[9 * t], xe, &c.g[12 * std::size_t(t)],
                    hessian ? &c.H[144 * std::size_t(t)] : nullptr, project);
  });
}

double incrementalEnergy(const DeformableModel& m, const VecX& z, const VecX& x) {
  const double invH2 = 1.0 / (m.h * m.h);
  double e = 0;
  for (int v = 0; v < m.vertexCount(); ++v) e += 0.5 * invH2 * m.mass[v] * (x.segment<3>(3 * v) - z.segment<3>(3 * v)).squaredNorm();
  const int kind = m.material.kind;
  const double mu = m.mu(), lam = m.lambda();
  e += detail::parallelSum(m.tetCount(), detail::kParallelTets, [&](int t) {
    double xe[12], g[12];
    gatherTet(m, x, t, xe);
    return hd::elementEval(kind, mu, lam, m.volume[t], &m.Bm[9 * t], xe, g, nullptr, false);
  });
  return e + handleEnergy(m.handles, x);
}

VecX assembleGradient(const DeformableModel& m, const VecX& z, const VecX& x, const ElementCache& c) {
  const double invH2 = 1.0 / (m.h * m.h);
  VecX g(3 * m.vertexCount());
  for (int v = 0; v < m.vertexCount(); ++v) g.segment<3>(3 * v) = invH2 * m.mass[v] * (x.segment<3>(3 * v) - z.segment<3>(3 * v));
  for (int t = 0; t < m.tetCount(); ++t)
    for (int a = 0; a < 4; ++a)
      for (int r = 0; r < 3; ++r) g[3 * m.mesh.tets[t][a] + r] += c.g[12 * std::size_t(t) + 3 * a + r];
  addHandleGradient(m.handles, x, g);
  for (int v = 0; v < m.vertexCount(); ++v)
    if (m.prescribed[v]) g.segment<3>(3 * v).setZero();
  return g;
}

namespace {
SpMat assemble(const DeformableModel& m, const ElementCache& c, bool freeOnly) {
  const double invH2 = 1.0 / (m.h * m.h);
  auto dof = [&](int v) { return freeOnly ? m.freeIndex[v] : v; };
  const int n = freeOnly ? m.freeCount() : m.vertexCount();
  std::vector<Triplet> trip;
  trip.reserve(144 * std::size_t(m.tetCount()) + 3 * n);
  for (int v = 0; v < m.vertexCount(); ++v)
    if (dof(v) >= 0)
      for (int r = 0; r < 3; ++r) trip.emplace_back(3 * dof(v) + r, 3 * dof(v) + r, invH2 * m.mass[v]);
  for (int t = 0; t < m.tetCount(); ++t) {
    const auto& e = m.mesh.tets[t];
    const double* He = &c.H[144 * std::size_t(t)];
    for (int a = 0; a < 4; ++a) {
      const int da = dof(e[a]);
      if (da < 0) continue;
      for (int b = 0; b < 4; ++b) {
        const int db = dof(e[b]);
        if (db < 0) continue;
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s) trip.emplace_back(3 * da + r, 3 * db + s, He[12 * (3 * a + r) + 3 * b + s]);
      }
    }
  }
  addHandleHessian(m.handles, freeOnly ? &m.freeIndex : nullptr, trip);
  SpMat H(3 * n, 3 * n);
  H.setFromTriplets(trip.begin(), trip.end());
  return H;
}
}  // namespace

SpMat assembleHessian(const DeformableModel& m, const ElementCache& c) { return assemble(m, c, true); }
SpMat assembleFullHessian(const DeformableModel& m, const ElementCache& c) { return assemble(m, c, false); }

double normalisedStep(const DeformableModel& m, const VecX& dx) {
  double mx = 0;
  for (int v = 0; v < m.vertexCount(); ++v) mx = std::max(mx, dx.segment<3>(3 * v).norm());
  if (!std::isfinite(mx)) return std::numeric_limits<double>::infinity();
  return mx / m.extent;
}

void vertexRotations(const DeformableModel& m, const VecX& x, std::vector<double>& R) {
  const int nv = m.vertexCount();
  R.resize(9 * std::size_t(nv));
  detail::parallelFor(nv, detail::kParallelLight / 8, [&](int v) {
    double Fsum[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int k = m.incidence.offset[v]; k < m.incidence.offset[v + 1]; ++k) {
      const int t = m.incidence.tet[k];
      double xe[12], b[12], F[9];
      gatherTet(m, x, t, xe);
      hd::shapeGradients(&m.Bm[9 * t], b);
      hd::deformationGradient(xe, b, F);
      for (int q = 0; q < 9; ++q) Fsum[q] += m.volume[t] * F[q];
    }
    hd::polarRotation(Fsum, &R[9 * std::size_t(v)]);
  });
}

}  // namespace mechsim::deform
