// tests/core/test_deform_attach.cpp — a deformable part as a flexible link between rigid bodies
// (mechanisms/deform-flexible-link.json): vertices attached to a body follow the body's pose
// exactly while the mechanism is driven (Dirichlet conditions updated every step, as
// `mechsim-cli deform` runs them), the rest of the mesh stays finite, and with the bodies held
// still the part settles to static equilibrium under gravity (∇Ψ(x) = M g at the free vertices).
#include <QtTest>

#include "core/data.h"
#include "core/deform/from_spec.h"
#include "core/deform/solver.h"
#include "core/io/load.h"
#include "core/kinematics/kinematics.h"

using namespace mechsim;
using namespace mechsim::deform;

namespace {

const std::string kFile = std::string(MECHSIM_SOURCE_DIR) + "/mechanisms/deform-flexible-link.json";

/// Poses of spec.bodies (the attachments' body indices) at the model's coordinates q.
std::vector<Pose> specPoses(const MechanismSpec& spec, const Model& model, const VecX& q) {
  std::vector<Pose> poses;
  for (const BodySpec& b : spec.bodies) poses.push_back(bodyPose(model, q, model.findBody(b.name)));
  return poses;
}

/// Static residual ∇Ψ(x) − M g at the free vertices, relative to ‖M g‖.
double staticResidual(const DeformableModel& m, const VecX& x) {
  ElementCache c;
  evalElements(m, x, c, false);
  // With z = x + h² g the inertia term m/h² (x − z) is −m g.
  VecX z = x;
  for (int v = 0; v < m.vertexCount(); ++v) z.segment<3>(3 * v) += m.h * m.h * m.gravity;
  const VecX r = assembleGradient(m, z, x, c);
  double load = 0;
  for (int v : m.freeVertices) load += std::pow(m.mass[v] * m.gravity.norm(), 2);
  return r.norm() / std::sqrt(load);
}

}  // namespace

class TestDeformAttach : public QObject {
  Q_OBJECT
 private slots:
  void attachedVerticesFollowTheDrivenBody() {
    const MechanismSpec spec = io::readMechanismFile(kFile);
    const Model model = io::compileSpec(spec);
    QCOMPARE(int(spec.deformables.size()), 1);
    const double h = 0.01;
    const DeformableModel m = makeDeformableFromSpec(spec.deformables[0], spec, h);
    // The crank end is attached (moves), the post end pinned (fixed body).
    QVERIFY(!m.attachments.empty());
    QVERIFY(m.freeCount() < m.vertexCount() - int(m.attachments.size()));
    const int crank = model.findBody("crank");
    for (const Attachment& a : m.attachments) QCOMPARE(spec.bodies[a.body].name, std::string("crank"));
    Data d = makeData(model);
    VecX x = restPositions(m), v = VecX::Zero(x.size());
    SolveOptions o;
    o.maxIterations = 100;
    double maxMove = 0;
    for (int k = 1; k <= 12; ++k) {
      QVERIFY(solvePositions(model, d, k * h));
      const std::vector<Pose> poses = specPoses(spec, model, d.q);
      const SolveStats st = stepImplicitEuler(m, nullptr, o, x, v, poses);
      QVERIFY2(st.converged, qPrintable(QString("step %1: %2 iterations").arg(k).arg(st.iterations)));
      QVERIFY(x.allFinite() && v.allFinite());
      for (const Attachment& a : m.attachments) {
        const Vec3 target = bodyPose(model, d.q, crank).apply(a.local);
        QVERIFY((x.segment<3>(3 * a.vertex) - target).norm() < 1e-12);
        maxMove = std::max(maxMove, (target - m.mesh.vertices[a.vertex]).norm());
      }
      for (int w = 0; w < m.vertexCount(); ++w)
        if (m.prescribed[w] && !std::any_of(m.attachments.begin(), m.attachments.end(),
                                            [&](const Attachment& a) { return a.vertex == w; }))
          QVERIFY(x.segment<3>(3 * w) == m.mesh.vertices[w]);  // pinned to the post
    }
    QVERIFY2(maxMove > 5e-3, qPrintable(QString::number(maxMove)));  // the crank really moved them
    // Every tet keeps a positive volume (no inversion).
    for (int t = 0; t < m.tetCount(); ++t) {
      Mat3 D;
      const auto& e = m.mesh.tets[t];
      for (int k = 0; k < 3; ++k) D.col(k) = x.segment<3>(3 * e[k + 1]) - x.segment<3>(3 * e[0]);
      QVERIFY(D.determinant() > 0);
    }
  }

  void settlesToStaticEquilibriumUnderGravity() {
    const MechanismSpec spec = io::readMechanismFile(kFile);
    const Model model = io::compileSpec(spec);
    // Bodies held at the file's configuration; implicit Euler's numerical damping settles the
    // strap (a larger step damps faster; the equilibrium does not depend on h).
    const DeformableModel m = makeDeformableFromSpec(spec.deformables[0], spec, 0.05);
    const std::vector<Pose> poses = specPoses(spec, model, model.q0);
    VecX x = restPositions(m), v = VecX::Zero(x.size());
    const double atRest = staticResidual(m, x);
    SolveOptions o;
    o.tolerance = 1e-9;
    o.maxIterations = 100;
    for (int k = 0; k < 40; ++k) QVERIFY(stepImplicitEuler(m, nullptr, o, x, v, poses).converged);
    const double settled = staticResidual(m, x);
    qInfo("static residual |grad Psi - M g| / |M g|: %.3e at rest, %.3e after 2 s", atRest, settled);
    QVERIFY(std::abs(atRest - 1) < 1e-9);  // the undeformed strap carries no load
    QVERIFY2(settled < 1e-3, qPrintable(QString::number(settled)));
    // It sags: the middle of the strap is below its rest height, and stays finite.
    double sag = 0;
    for (int w = 0; w < m.vertexCount(); ++w) sag = std::min(sag, x[3 * w + 2] - m.mesh.vertices[w].z());
    QVERIFY(x.allFinite());
    QVERIFY(sag < -1e-6);
    for (const Attachment& a : m.attachments) QVERIFY((x.segment<3>(3 * a.vertex) - poses[a.body].apply(a.local)).norm() < 1e-12);
  }

  void badAttachmentsAreRejected() {
    MechanismSpec spec = io::readMechanismFile(kFile);
    DeformableSpec d = spec.deformables[0];
    d.attachments[0].body = "no-such-body";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeDeformableFromSpec(d, spec, 0.01));
    d = spec.deformables[0];
    d.attachments[0].vertices.push_back(int(d.vertices.size()));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeDeformableFromSpec(d, spec, 0.01));
    // Stepping without a pose for the attached body is an error, not a crash.
    const DeformableModel m = makeDeformableFromSpec(spec.deformables[0], spec, 0.01);
    VecX x = restPositions(m), v = VecX::Zero(x.size());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, stepImplicitEuler(m, nullptr, SolveOptions{}, x, v, {}));
  }
};

QTEST_APPLESS_MAIN(TestDeformAttach)
#include "test_deform_attach.moc"
