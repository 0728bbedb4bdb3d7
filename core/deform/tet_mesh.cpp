// core/deform/tet_mesh.cpp — grid generators, validation, boundary, adjacency, colouring.
#include "core/deform/tet_mesh.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace mechsim::deform {

namespace {

/// Six tets of the unit cube with corners c[0..7] (bit 0 = x, bit 1 = y, bit 2 = z), all sharing the
/// main diagonal 0–7 (Kuhn subdivision: one tet per permutation of the axes). Neighbouring cells
/// split their common face along the same diagonal, so the mesh is conforming.
void addCellTets(TetMesh& m, const int c[8]) {
  static const int paths[6][3] = {{1, 2, 4}, {1, 4, 2}, {2, 1, 4}, {2, 4, 1}, {4, 1, 2}, {4, 2, 1}};
  for (const auto& p : paths) {
    const int a = p[0], b = p[0] | p[1];
    std::array<int, 4> t{c[0], c[a], c[b], c[7]};
    m.tets.push_back(t);
  }
}

}  // namespace

TetMesh makeBoxMesh(const Vec3& size, int nx, int ny, int nz, const Vec3& origin) {
  if (nx < 1 || ny < 1 || nz < 1) throw std::invalid_argument("box mesh: cell counts must be ≥ 1");
  if (!(size.minCoeff() > 0)) throw std::invalid_argument("box mesh: size must be positive");
  TetMesh m;
  m.vertices.reserve(std::size_t(nx + 1) * (ny + 1) * (nz + 1));
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        m.vertices.push_back(origin + Vec3(size.x() * i / nx, size.y() * j / ny, size.z() * k / nz));
  auto id = [&](int i, int j, int k) { return i + (nx + 1) * (j + (ny + 1) * k); };
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        int c[8];
        for (int b = 0; b < 8; ++b) c[b] = id(i + (b & 1), j + ((b >> 1) & 1), k + ((b >> 2) & 1));
        addCellTets(m, c);
      }
  validateAndOrient(m);
  return m;
}

TetMesh makeCylinderMesh(double radius, double length, int nr, int nz, const Vec3& origin) {
  if (!(radius > 0) || !(length > 0)) throw std::invalid_argument("cylinder mesh: radius and length must be positive");
  TetMesh m = makeBoxMesh(Vec3(2, 2, length), nr, nr, nz, Vec3(-1, -1, 0));
  for (Vec3& p : m.vertices) {
    const double u = p.x(), v = p.y();
    p.x() = radius * u * std::sqrt(1 - 0.5 * v * v);
    p.y() = radius * v * std::sqrt(1 - 0.5 * u * u);
    p += origin;
  }
  validateAndOrient(m);
  return m;
}

double tetVolume(const TetMesh& mesh, int t) {
  const auto& e = mesh.tets[t];
  const Vec3& x0 = mesh.vertices[e[0]];
  return (mesh.vertices[e[1]] - x0).dot((mesh.vertices[e[2]] - x0).cross(mesh.vertices[e[3]] - x0)) / 6.0;
}

int validateAndOrient(TetMesh& mesh, double minVolume) {
  const int nv = mesh.vertexCount();
  for (int v = 0; v < nv; ++v)
    if (!mesh.vertices[v].allFinite()) throw std::invalid_argument("vertex " + std::to_string(v) + " is not finite");
  double scale = 0;
  if (nv > 0) scale = boundingBoxExtent(mesh);
  const double tiny = std::max(minVolume, 1e-14 * scale * scale * scale);
  int flipped = 0;
  for (int t = 0; t < mesh.tetCount(); ++t) {
    auto& e = mesh.tets[t];
    for (int a = 0; a < 4; ++a)
      if (e[a] < 0 || e[a] >= nv)
        throw std::invalid_argument("tet " + std::to_string(t) + " refers to vertex " + std::to_string(e[a]) +
                                    " (mesh has " + std::to_string(nv) + ")");
    const double vol = tetVolume(mesh, t);
    if (!std::isfinite(vol) || !std::isfinite(tiny))
      throw std::invalid_argument("tet " + std::to_string(t) + " has no finite volume (coordinates too large)");
    if (!(std::abs(vol) > tiny)) throw std::invalid_argument("tet " + std::to_string(t) + " is degenerate (zero volume)");
    if (vol < 0) {
      std::swap(e[2], e[3]);
      ++flipped;
    }
  }
  return flipped;
}

std::vector<std::array<int, 3>> boundaryFaces(const TetMesh& mesh) {
  // Faces opposite each vertex, oriented outward for a positive tet: with 6V = det[x1−x0, x2−x0,
  // x3−x0] > 0, the normal (x2−x0)×(x1−x0) of face (0, 2, 1) has (x3−x0)·n = −6V, pointing away
  // from vertex 3; the other three are the same face of the tet's even renumberings.
  static const int f[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  std::map<std::array<int, 3>, std::pair<int, std::array<int, 3>>> count;
  for (const auto& t : mesh.tets)
    for (const auto& fi : f) {
      std::array<int, 3> face{t[fi[0]], t[fi[1]], t[fi[2]]};
      std::array<int, 3> key = face;
      std::sort(key.begin(), key.end());
      auto& c = count[key];
      ++c.first;
      c.second = face;
    }
  std::vector<std::array<int, 3>> out;
  for (const auto& [key, c] : count)
    if (c.first == 1) out.push_back(c.second);
  return out;
}

VertexTets vertexTets(const TetMesh& mesh) {
  VertexTets vt;
  const int nv = mesh.vertexCount();
  vt.offset.assign(nv + 1, 0);
  for (const auto& t : mesh.tets)
    for (int v : t) ++vt.offset[v + 1];
  for (int v = 0; v < nv; ++v) vt.offset[v + 1] += vt.offset[v];
  vt.tet.resize(vt.offset[nv]);
  vt.local.resize(vt.offset[nv]);
  std::vector<int> fill(vt.offset.begin(), vt.offset.end() - 1);
  for (int t = 0; t < mesh.tetCount(); ++t)
    for (int a = 0; a < 4; ++a) {
      const int v = mesh.tets[t][a];
      vt.tet[fill[v]] = t;
      vt.local[fill[v]] = a;
      ++fill[v];
    }
  return vt;
}

std::vector<int> colourVertices(const TetMesh& mesh, int* colourCount) {
  const VertexTets vt = vertexTets(mesh);
  const int nv = mesh.vertexCount();
  std::vector<int> colour(nv, -1);
  std::vector<int> usedBy;  // usedBy[c] == v: colour c taken by a neighbour of v
  int ncol = 0;
  for (int v = 0; v < nv; ++v) {
    for (int k = vt.offset[v]; k < vt.offset[v + 1]; ++k)
      for (int w : mesh.tets[vt.tet[k]])
        if (w != v && colour[w] >= 0) {
          if (static_cast<int>(usedBy.size()) <= colour[w]) usedBy.resize(colour[w] + 1, -1);
          usedBy[colour[w]] = v;
        }
    int c = 0;
    while (c < static_cast<int>(usedBy.size()) && usedBy[c] == v) ++c;
    colour[v] = c;
    ncol = std::max(ncol, c + 1);
  }
  if (colourCount) *colourCount = ncol;
  return colour;
}

double boundingBoxExtent(const TetMesh& mesh) {
  if (mesh.vertices.empty()) return 0;
  Vec3 lo = mesh.vertices[0], hi = lo;
  for (const Vec3& p : mesh.vertices) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  return (hi - lo).maxCoeff();
}

}  // namespace mechsim::deform
