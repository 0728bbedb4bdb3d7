// tests/io/test_mesh_colours.cpp — the colours mesh files give their own triangles
// (core/io/mesh.cpp materialColor, MeshData::colors) and their way through the reader program's
// answer (core/io/mesh_wire.cpp, version 2). Hand-written files, each read in this process and
// through mechsim-mesh-reader: an OBJ whose .mtl gives two materials (Kd), a Collada file with one mesh in two materials (<diffuse><color>), a glTF file with two
// primitives (baseColorFactor). The reference is the files' own numbers: every triangle's colour
// is found by where it lies, not by the order Assimp gives the meshes. Files without materials
// (STL, PLY, OBJ without .mtl, glTF without materials) give no colour. The UR5 visuals (Collada
// from Blender, tests/data/import/real/ur5_meshes) give exactly their effects' diffuse colours.
#include <QtTest>

#include <cmath>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "core/io/mesh.h"
#include "core/io/mesh_wire.h"

namespace {

const std::string kSource = MECHSIM_SOURCE_DIR;
using Colour = Eigen::Vector3f;

/// The colour run holding triangle t (its first index 3t), if any.
std::optional<Colour> colourOfTriangle(const mechsim::MeshData& m, std::size_t t) {
  for (const auto& run : m.colors)
    if (3 * t >= run.first && 3 * t < std::size_t(run.first) + run.count) return run.rgb;
  return std::nullopt;
}

/// The colour of the one triangle whose centroid lies within 1e-4 of c (QFAIL-style: a miss or
/// two hits throw).
std::optional<Colour> colourAt(const mechsim::MeshData& m, const Eigen::Vector3f& c) {
  std::optional<std::size_t> hit;
  for (std::size_t t = 0; 3 * t + 2 < m.indices.size(); ++t) {
    const Eigen::Vector3f g = (m.vertices[m.indices[3 * t]] + m.vertices[m.indices[3 * t + 1]] + m.vertices[m.indices[3 * t + 2]]) / 3;
    if ((g - c).norm() < 1e-4f) {
      if (hit) throw std::runtime_error("two triangles at one centroid");
      hit = t;
    }
  }
  if (!hit) throw std::runtime_error("no triangle at the centroid");
  return colourOfTriangle(m, *hit);
}

bool near(const std::optional<Colour>& a, const Colour& b) { return a && (*a - b).norm() < 1e-6f; }

/// Both readings of a file: this process's and the reader program's; they must be the same.
std::vector<std::shared_ptr<const mechsim::MeshData>> bothReadings(const std::string& path) {
  return {mechsim::io::loadMeshFileInProcess(path), mechsim::io::loadMeshFile(path)};
}

bool sameColours(const mechsim::MeshData& a, const mechsim::MeshData& b) {
  if (a.colors.size() != b.colors.size()) return false;
  for (std::size_t k = 0; k < a.colors.size(); ++k)
    if (a.colors[k].first != b.colors[k].first || a.colors[k].count != b.colors[k].count || a.colors[k].rgb != b.colors[k].rgb)
      return false;
  return true;
}

/// Runs are whole triangles, ascending and apart, inside the indices (what the wire checks).
bool wellFormedRuns(const mechsim::MeshData& m) {
  std::size_t end = 0;
  for (const auto& run : m.colors) {
    if (run.first % 3 || run.count % 3 || !run.count || run.first < end || run.first + std::size_t(run.count) > m.indices.size()) return false;
    end = run.first + std::size_t(run.count);
  }
  return true;
}

}  // namespace

class TestMeshColours : public QObject {
  Q_OBJECT
 private slots:
  // OBJ + MTL: Kd of "red" and "blue" (red, blue, red again: three runs).
  void objWithMtl() {
    for (const auto& m : bothReadings(kSource + "/tests/data/meshes/two_colours.obj")) {
      QCOMPARE(m->indices.size(), std::size_t(9));
      QVERIFY(wellFormedRuns(*m));
      QCOMPARE(m->colors.size(), std::size_t(3));
      QVERIFY(near(colourAt(*m, {4.0f / 3, 1.0f / 3, 0}), {0.8f, 0.1f, 0.1f}));
      QVERIFY(near(colourAt(*m, {2.0f / 3, 1.0f / 3, 0}), {0.8f, 0.1f, 0.1f}));
      QVERIFY(near(colourAt(*m, {1.0f / 3, 2.0f / 3, 0}), {0.1f, 0.2f, 0.9f}));
    }
  }

  // Collada: one <mesh> with two <triangles> elements in two materials.
  void colladaTwoMaterials() {
    const auto both = bothReadings(kSource + "/tests/data/meshes/two_materials.dae");
    QVERIFY(sameColours(*both[0], *both[1]));
    for (const auto& m : both) {
      QCOMPARE(m->indices.size(), std::size_t(6));
      QCOMPARE(m->colors.size(), std::size_t(2));
      QVERIFY(near(colourAt(*m, {2.0f / 3, 1.0f / 3, 0}), {0.2f, 0.7f, 0.3f}));
      QVERIFY(near(colourAt(*m, {1.0f / 3, 2.0f / 3, 0}), {0.9f, 0.8f, 0.1f}));
    }
  }

  // glTF: two primitives, pbrMetallicRoughness.baseColorFactor each.
  void gltfBaseColour() {
    for (const auto& m : bothReadings(kSource + "/tests/data/meshes/two_materials.gltf")) {
      QCOMPARE(m->indices.size(), std::size_t(6));
      QVERIFY(near(colourAt(*m, {2.0f / 3, 1.0f / 3, 0}), {0.9f, 0.4f, 0.1f}));
      QVERIFY(near(colourAt(*m, {1.0f / 3, 2.0f / 3, 0}), {0.5f, 0.2f, 0.8f}));
    }
  }

  // No materials in the file: no colours (the shape's colour or the body's palette colour draws).
  void noMaterialsNoColours() {
    for (const std::string f : {"/tests/data/meshes/cube.obj", "/tests/data/meshes/tetra.stl", "/tests/data/meshes/triangle.ply",
                                "/models/crank.stl", "/models/rocker.gltf", "/models/coupler.obj"})
      for (const auto& m : bothReadings(kSource + f)) QVERIFY2(m->colors.empty(), f.c_str());
  }

  // The UR5 visuals (Blender's Collada): every triangle in a colour, and the colours are the
  // files' effects' <diffuse><color> values (read from the files by hand, NOTICE there).
  void ur5VisualColours() {
    struct Case {
      const char* file;
      std::vector<Colour> colours;
    };
    const Case cases[] = {
        {"base", {{0.5248f, 0.5248f, 0.5248f}, {0.064f, 0.064f, 0.064f}}},
        {"shoulder", {{0.1784f, 0.1784f, 0.1784f}, {0.064f, 0.064f, 0.064f}, {0.3136f, 0.4344f, 0.512f}}},
        {"wrist2", {{0.0512f, 0.0512f, 0.0512f}, {0.14272f, 0.14272f, 0.14272f}, {0.25088f, 0.34752f, 0.4096f}}},
        {"wrist3", {{0.2149581f, 0.2149581f, 0.2149581f}, {0.0995892f, 0.103444f, 0.1085843f}}},
    };
    for (const Case& c : cases) {
      const auto m = mechsim::io::loadMeshFile(kSource + "/tests/data/import/real/ur5_meshes/visual/" + c.file + ".dae");
      QVERIFY2(wellFormedRuns(*m), c.file);
      std::size_t covered = 0;
      std::vector<bool> seen(c.colours.size(), false);
      for (const auto& run : m->colors) {
        covered += run.count;
        std::size_t match = c.colours.size();
        for (std::size_t k = 0; k < c.colours.size(); ++k)
          if ((run.rgb - c.colours[k]).norm() < 1e-6f) match = k;
        QVERIFY2(match < c.colours.size(), c.file);
        seen[match] = true;
      }
      QVERIFY2(covered == m->indices.size(), c.file);
      for (bool s : seen) QVERIFY2(s, c.file);
    }
  }

  // The reader's answer keeps the runs; a run that is not whole triangles, runs out of order or
  // overlapping, past the indices, a colour outside [0, 1] or not a number are refused.
  void wireCarriesAndChecksColours() {
    using mechsim::io::decodeMeshWire;
    using mechsim::io::encodeMeshWire;
    const auto mesh = mechsim::io::loadMeshFileInProcess(kSource + "/tests/data/meshes/two_colours.obj");
    QCOMPARE(mesh->colors.size(), std::size_t(3));
    const mechsim::MeshData back = decodeMeshWire(encodeMeshWire(*mesh));
    QVERIFY(sameColours(back, *mesh) && back.indices == mesh->indices && back.vertices == mesh->vertices);
    auto refused = [&](const mechsim::MeshData& bad) {
      try {
        decodeMeshWire(encodeMeshWire(bad));
      } catch (const std::runtime_error& e) {
        return std::string(e.what()).rfind("malformed mesh data: ", 0) == 0;
      }
      return false;
    };
    using Edit = void (*)(mechsim::MeshData&);
    const Edit edits[] = {
        [](mechsim::MeshData& m) { m.colors[0].count = 4; },
        [](mechsim::MeshData& m) { m.colors[0].first = 1; },
        [](mechsim::MeshData& m) { m.colors[0].count = 0; },
        [](mechsim::MeshData& m) { std::swap(m.colors[0], m.colors[1]); },
        [](mechsim::MeshData& m) { m.colors[1].first = m.colors[0].first; },
        [](mechsim::MeshData& m) { m.colors[1].count = 0xfffffff0u; },
        [](mechsim::MeshData& m) { m.colors[1].first = 0xfffffffcu; },
        [](mechsim::MeshData& m) { m.colors[0].rgb.y() = 1.01f; },
        [](mechsim::MeshData& m) { m.colors[0].rgb.x() = -0.0001f; },
        [](mechsim::MeshData& m) { m.colors[1].rgb.z() = std::nanf(""); },
    };
    for (Edit edit : edits) {
      mechsim::MeshData bad = *mesh;
      edit(bad);
      QVERIFY(refused(bad));
    }
    // The run count beyond the data, and every truncation of a message with runs.
    const std::string w = encodeMeshWire(*mesh);
    std::string huge = w;
    huge[8 + 3 * 8 + 7] = 0x40;
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, decodeMeshWire(huge));
    for (std::size_t n = 0; n < w.size(); ++n) QVERIFY_THROWS_EXCEPTION(std::runtime_error, decodeMeshWire(w.substr(0, n)));
    // Version 1 (no runs) is not taken for version 2.
    std::string v1 = w;
    v1[7] = '1';
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, decodeMeshWire(v1));
  }
};

QTEST_APPLESS_MAIN(TestMeshColours)
#include "test_mesh_colours.moc"
