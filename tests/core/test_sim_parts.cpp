// tests/core/test_sim_parts.cpp — the engine's deformable parts (core/sim/deformables.cpp,
// core/sim/part_surface.cpp): attached vertices follow their bodies, the boundary surface is closed,
// sharp at the rest shape's creases and smooth elsewhere, and a JGS2 part under a soft handle
// follows projected Newton's.
#include <QtTest>

#include <array>
#include <cmath>
#include <map>

#include "core/deform/tet_mesh.h"
#include "core/sim/part_surface.h"
#include "tests/closed_surface.h"
#include "tests/core/strap_handle_run.h"

using namespace mechsim;
using namespace mechsim::test;


class TestSimParts : public QObject {
  Q_OBJECT
 private slots:
  void partsFollowTheirBodies() {
    // The parts on their own: attached vertices on their body points after each step.
    const sim::Model m = strapModel("");
    QVERIFY2(m.message.empty(), m.message.c_str());
    QCOMPARE(int(m.parts.size()), 1);
    sim::Data d = sim::makeData(m);
    int iterations = 0;
    for (int k = 1; k <= 20; ++k) {
      QVERIFY(sim::advanceTo(m, d, k / 60.0));
      QVERIFY2(sim::stepDeformables(m, d), d.message.c_str());
      QVERIFY2(d.attachError < 1e-9, qPrintable(QString::number(d.attachError)));
      iterations += d.deformIterations;
    }
    qInfo("flexible link: 20 frames, %d Newton iterations in all", iterations);
    const auto s = sim::frame(m, d).deformables[0];
    QVERIFY(s->vertices.size() > 100);
    QVERIFY(closedSurface(*s));
    for (const auto& v : s->vertices) QVERIFY(v.allFinite());
  }

  void surfaceSharpAtCreasesSmoothElsewhere() {
    // A box's faces meet at 90°: each face has its own vertices along the edges, and at rest every
    // normal is its face's. A cylinder (nr = 3, 30° between side facets) is smooth around its side
    // (normals radial, not the facets') and sharp at its rims (cap normals ±z).
    const int nx = 4, ny = 3, nz = 2;
    deform::TetMesh box = deform::makeBoxMesh(Vec3(2, 1.5, 1), nx, ny, nz);
    std::vector<int> vertices;
    std::vector<unsigned> indices;
    sim::boundarySurface(box, vertices, indices);
    QCOMPARE(int(vertices.size()), 2 * ((nx + 1) * (ny + 1) + (ny + 1) * (nz + 1) + (nx + 1) * (nz + 1)));
    VecX rest(3 * box.vertexCount());
    for (int v = 0; v < box.vertexCount(); ++v) rest.segment<3>(3 * v) = box.vertices[size_t(v)];
    auto s = sim::surfaceMesh(vertices, indices, rest);
    QVERIFY(closedSurface(*s));
    const Eigen::Vector3f centre(1, 0.75, 0.5), half(1, 0.75, 0.5);
    for (size_t t = 0; t < s->indices.size(); t += 3) {
      // The triangle's face: the axis along which its three vertices sit on the box's side.
      const Eigen::Vector3f& p = s->vertices[s->indices[t]];
      const Eigen::Vector3f n = (s->vertices[s->indices[t + 1]] - p).cross(s->vertices[s->indices[t + 2]] - p).normalized();
      for (int c = 0; c < 3; ++c) QVERIFY2((s->normals[s->indices[t + c]] - n).norm() < 1e-5, "box normal not its face's");
      int axis;
      n.cwiseAbs().maxCoeff(&axis);
      QVERIFY(std::abs(std::abs(p[axis] - centre[axis]) - half[axis]) < 1e-6);
      QVERIFY2(n[axis] * (p[axis] - centre[axis]) > 0, "box triangle facing inward");
    }
    const int nr = 3, nzc = 4;
    const double radius = 0.4, length = 1.5;
    deform::TetMesh cyl = deform::makeCylinderMesh(radius, length, nr, nzc);
    sim::boundarySurface(cyl, vertices, indices);
    QCOMPARE(int(vertices.size()), 4 * nr * (nzc + 1) + 2 * (nr + 1) * (nr + 1));
    rest.resize(3 * cyl.vertexCount());
    for (int v = 0; v < cyl.vertexCount(); ++v) rest.segment<3>(3 * v) = cyl.vertices[size_t(v)];
    s = sim::surfaceMesh(vertices, indices, rest);
    QVERIFY(closedSurface(*s));
    int side = 0, caps = 0;
    for (size_t k = 0; k < s->vertices.size(); ++k) {
      const Eigen::Vector3f& p = s->vertices[k];
      const Eigen::Vector3f& n = s->normals[k];
      const bool onRim = std::abs(Eigen::Vector2f(p.x(), p.y()).norm() - float(radius)) < 1e-5f;
      if (std::abs(n.z()) > 0.999f) {  // a cap's side of the vertex
        QVERIFY(std::abs(p.z()) < 1e-6f || std::abs(p.z() - float(length)) < 1e-6f);
        QCOMPARE(n.z() > 0, p.z() > 0.5f * float(length));
        ++caps;
      } else {  // the side's: radial within 10° (a facet's own normal is 15° off at its edges)
        QVERIFY(onRim);
        const Eigen::Vector3f radial = Eigen::Vector3f(p.x(), p.y(), 0).normalized();
        QVERIFY2(n.dot(radial) > std::cos(10 * 3.14159265f / 180), qPrintable(QString::number(n.dot(radial))));
        ++side;
      }
    }
    QCOMPARE(side, 4 * nr * (nzc + 1));
    // Smooth, not flat: a side vertex's normal is no side triangle's own.
    for (size_t t = 0; t < s->indices.size(); t += 3) {
      const Eigen::Vector3f& p = s->vertices[s->indices[t]];
      const Eigen::Vector3f f = (s->vertices[s->indices[t + 1]] - p).cross(s->vertices[s->indices[t + 2]] - p).normalized();
      if (std::abs(f.z()) > 0.5f) continue;  // a cap's
      for (int c = 0; c < 3; ++c) QVERIFY(s->normals[s->indices[t + c]].dot(f) < std::cos(2 * 3.14159265f / 180));
    }
    QCOMPARE(caps, 2 * (nr + 1) * (nr + 1));
  }

  void jgs2PartFollowsNewtonWithAHandle() {
    // The strap solved by "jgs2-jacobi" (precomputed by sim::compile) against the default projected
    // Newton: 20 frames of the crank's swing with a handle pulling a middle surface vertex 3 cm up.
    // Both solve every step to ‖Δx‖ < 1e-4 of the extent, so the pulled vertex agrees to a small
    // fraction of its motion.
    const sim::Model newton = strapModel("");
    sim::Data nd = sim::makeData(newton);
    QCOMPARE(solverName(newton, nd), std::string("newton"));
    const sim::Model jgs2 = strapModel("jgs2-jacobi");
    sim::Data jd = sim::makeData(jgs2);
    QVERIFY2(jgs2.message.empty(), jgs2.message.c_str());
    QCOMPARE(solverName(jgs2, jd), std::string("jgs2-jacobi"));  // no device given: the CPU
    StrapHandleRun run;
    runStrapHandle(newton, nd, jgs2, jd, false, run);
    if (QTest::currentTestFailed()) return;
    qInfo("handle on the strap, 20 frames: newton %d iterations, jgs2-jacobi %d; vertex moved %.2f mm, the two %.3f mm apart",
          run.referenceIterations, run.otherIterations, 1e3 * run.moved, 1e3 * run.apart);
    QVERIFY2(run.moved > 0.01, qPrintable(QString::number(run.moved)));
    QVERIFY2(run.apart < 0.03 * run.moved, qPrintable(QString::number(run.apart)));
    sim::clearDeformHandle(jgs2, jd);
    QCOMPARE(jd.handlePart, -1);
    QVERIFY(!sim::frame(jgs2, jd).deformDragging);
  }
};

QTEST_APPLESS_MAIN(TestSimParts)
#include "test_sim_parts.moc"
