// scene/primitives.cpp — unit box, cylinder, sphere and cone meshes; MeshData → drawable mesh.
#include "scene/primitives.h"

#include <cmath>

#include <Eigen/Geometry>

namespace mechsim::ui {
namespace {

constexpr float kPi = 3.14159265358979323846f;

/// Appends a vertex and returns its index.
unsigned addVertex(TriangleMesh& m, const Eigen::Vector3f& p, const Eigen::Vector3f& n) {
  m.positions.push_back(p);
  m.normals.push_back(n);
  return static_cast<unsigned>(m.positions.size() - 1);
}

void addTriangle(TriangleMesh& m, unsigned a, unsigned b, unsigned c) {
  m.indices.insert(m.indices.end(), {a, b, c});
}

TriangleMesh makeBox() {
  TriangleMesh m;
  // Six faces, four vertices each, so every face has its own flat normal.
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign = -1; sign <= 1; sign += 2) {
      Eigen::Vector3f n = Eigen::Vector3f::Zero();
      n[axis] = static_cast<float>(sign);
      // Two in-face directions u, v with u × v = n (counter-clockwise seen from outside).
      Eigen::Vector3f u = Eigen::Vector3f::Zero(), v;
      u[(axis + 1) % 3] = 1.0f;
      v = n.cross(u);
      const Eigen::Vector3f c = 0.5f * n;
      const unsigned i0 = addVertex(m, c - 0.5f * u - 0.5f * v, n);
      const unsigned i1 = addVertex(m, c + 0.5f * u - 0.5f * v, n);
      const unsigned i2 = addVertex(m, c + 0.5f * u + 0.5f * v, n);
      const unsigned i3 = addVertex(m, c - 0.5f * u + 0.5f * v, n);
      addTriangle(m, i0, i1, i2);
      addTriangle(m, i0, i2, i3);
    }
  }
  return m;
}

/// A flat disc of radius 1 at height z facing ±z.
void addDisc(TriangleMesh& m, float z, float facing, int segments) {
  const Eigen::Vector3f n(0, 0, facing);
  const unsigned centre = addVertex(m, Eigen::Vector3f(0, 0, z), n);
  const unsigned first = static_cast<unsigned>(m.positions.size());
  for (int i = 0; i <= segments; ++i) {
    const float a = 2 * kPi * i / segments;
    addVertex(m, Eigen::Vector3f(std::cos(a), std::sin(a), z), n);
  }
  for (int i = 0; i < segments; ++i) {
    if (facing > 0) addTriangle(m, centre, first + i, first + i + 1);
    else addTriangle(m, centre, first + i + 1, first + i);
  }
}

TriangleMesh makeCylinder(int segments) {
  TriangleMesh m;
  // Side: a ring of vertices at each end with radial normals.
  const unsigned first = static_cast<unsigned>(m.positions.size());
  for (int i = 0; i <= segments; ++i) {
    const float a = 2 * kPi * i / segments;
    const Eigen::Vector3f n(std::cos(a), std::sin(a), 0);
    addVertex(m, Eigen::Vector3f(n.x(), n.y(), -0.5f), n);
    addVertex(m, Eigen::Vector3f(n.x(), n.y(), 0.5f), n);
  }
  for (int i = 0; i < segments; ++i) {
    const unsigned b0 = first + 2 * i, t0 = b0 + 1, b1 = b0 + 2, t1 = b0 + 3;
    addTriangle(m, b0, b1, t1);
    addTriangle(m, b0, t1, t0);
  }
  // Caps.
  addDisc(m, 0.5f, 1.0f, segments);
  addDisc(m, -0.5f, -1.0f, segments);
  return m;
}

TriangleMesh makeSphere(int segments) {
  TriangleMesh m;
  // Latitude/longitude grid; the normal of a unit sphere is its position.
  const int rings = std::max(4, segments / 2);
  for (int r = 0; r <= rings; ++r) {
    const float theta = kPi * r / rings;  // from the +z pole
    for (int s = 0; s <= segments; ++s) {
      const float phi = 2 * kPi * s / segments;
      const Eigen::Vector3f p(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta));
      addVertex(m, p, p);
    }
  }
  const int row = segments + 1;
  for (int r = 0; r < rings; ++r) {
    for (int s = 0; s < segments; ++s) {
      const unsigned a = r * row + s, b = a + row, c = b + 1, d = a + 1;
      if (r != 0) addTriangle(m, a, b, d);
      if (r != rings - 1) addTriangle(m, d, b, c);
    }
  }
  return m;
}

TriangleMesh makeCone(int segments) {
  TriangleMesh m;
  // Side: normals tilted by the half-angle (45° for radius 1, height 1), apex split per facet.
  const float k = 1.0f / std::sqrt(2.0f);
  for (int i = 0; i < segments; ++i) {
    const float a0 = 2 * kPi * i / segments, a1 = 2 * kPi * (i + 1) / segments, am = 0.5f * (a0 + a1);
    const unsigned v0 = addVertex(m, Eigen::Vector3f(std::cos(a0), std::sin(a0), 0),
                                  Eigen::Vector3f(k * std::cos(a0), k * std::sin(a0), k));
    const unsigned v1 = addVertex(m, Eigen::Vector3f(std::cos(a1), std::sin(a1), 0),
                                  Eigen::Vector3f(k * std::cos(a1), k * std::sin(a1), k));
    const unsigned apex = addVertex(m, Eigen::Vector3f(0, 0, 1),
                                    Eigen::Vector3f(k * std::cos(am), k * std::sin(am), k));
    addTriangle(m, v0, v1, apex);
  }
  addDisc(m, 0.0f, -1.0f, segments);
  return m;
}

}  // namespace

TriangleMesh unitPrimitive(Primitive p, int segments) {
  segments = std::max(segments, 3);
  switch (p) {
    case Primitive::Box: return makeBox();
    case Primitive::Cylinder: return makeCylinder(segments);
    case Primitive::Sphere: return makeSphere(segments);
    case Primitive::Cone: return makeCone(segments);
    case Primitive::Mesh: break;
  }
  return {};
}

TriangleMesh meshFromData(const MeshData& data) {
  TriangleMesh m;
  const size_t nv = data.vertices.size();
  const bool haveNormals = data.normals.size() == nv && nv > 0;
  if (haveNormals) {
    // The file's own smooth or split normals.
    m.positions = data.vertices;
    m.normals.reserve(nv);
    for (const auto& n : data.normals) {
      const float len = n.norm();
      m.normals.push_back(len > 0 ? Eigen::Vector3f(n / len) : Eigen::Vector3f::UnitZ());
    }
    for (unsigned i : data.indices)
      if (i < nv) m.indices.push_back(i);
    m.indices.resize(m.indices.size() / 3 * 3);
    return m;
  }
  // No normals: one flat normal per triangle, vertices duplicated.
  for (size_t t = 0; t + 2 < data.indices.size(); t += 3) {
    const unsigned i0 = data.indices[t], i1 = data.indices[t + 1], i2 = data.indices[t + 2];
    if (i0 >= nv || i1 >= nv || i2 >= nv) continue;
    const Eigen::Vector3f &a = data.vertices[i0], &b = data.vertices[i1], &c = data.vertices[i2];
    Eigen::Vector3f n = (b - a).cross(c - a);
    const float len = n.norm();
    n = len > 0 ? Eigen::Vector3f(n / len) : Eigen::Vector3f::UnitZ();
    const unsigned j0 = addVertex(m, a, n), j1 = addVertex(m, b, n), j2 = addVertex(m, c, n);
    addTriangle(m, j0, j1, j2);
  }
  return m;
}

Eigen::AlignedBox3f primitiveBounds(Primitive p, const MeshData* data) {
  switch (p) {
    case Primitive::Box:
      return {Eigen::Vector3f::Constant(-0.5f), Eigen::Vector3f::Constant(0.5f)};
    case Primitive::Cylinder:
      return {Eigen::Vector3f(-1, -1, -0.5f), Eigen::Vector3f(1, 1, 0.5f)};
    case Primitive::Sphere:
      return {Eigen::Vector3f::Constant(-1), Eigen::Vector3f::Constant(1)};
    case Primitive::Cone:
      return {Eigen::Vector3f(-1, -1, 0), Eigen::Vector3f(1, 1, 1)};
    case Primitive::Mesh: {
      Eigen::AlignedBox3f box;  // empty
      if (data)
        for (const auto& v : data->vertices) box.extend(v);
      return box;
    }
  }
  return {};
}

}  // namespace mechsim::ui
