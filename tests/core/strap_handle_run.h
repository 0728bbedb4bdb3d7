#pragma once
// tests/core/strap_handle_run.h — the handle run shared by the deformable-parts tests of the engine
// (test_sim_parts, test_sim_parts_emulated): the flexible-link strap compiled twice by the engine,
// `reference` (projected Newton) and `other` (another solver, on the CPU or the device), 20 frames
// of the crank's swing with a soft handle pulling a middle surface vertex 3 cm up.
#include <QtTest>

#include <memory>
#include <string>

#include "core/io/engine.h"
#include "core/io/load.h"
#include "core/sim/frame.h"
#include "core/sim/stages.h"

namespace mechsim::test {

/// The flexible-link example compiled by the engine with its part solved by `solver` ("" keeps the
/// file's, projected Newton), the JGS2 precomputation never cached, at the GUI's step of 1/60 s.
inline sim::Model strapModel(const std::string& solver, sim::Options o = {}) {
  MechanismSpec spec = io::readMechanismFile(MECHSIM_SOURCE_DIR "/mechanisms/deform-flexible-link.json");
  if (!solver.empty()) spec.deformables[0].solver = solver;
  o.rangeBudgetSeconds = 0;
  o.jgs2 = sim::computeJgs2();
  return io::compileEngine(std::make_shared<const MechanismSpec>(std::move(spec)), o);
}

/// The solver's name as the frames say it ("jgs2-jacobi", "jgs2-jacobi (cuda)").
inline std::string solverName(const sim::Model& m, const sim::Data& d) {
  return sim::frame(m, d, sim::FrameOptions{false, false}).deformSolvers;
}

struct StrapHandleRun {
  int referenceIterations = 0, otherIterations = 0;
  double moved = 0;  // how far the pulled vertex moved under Newton (m)
  double apart = 0;  // its distance between the two parts at the end (m)
};

/// Runs the 20 frames. QVERIFY failures (a step that fails, an attachment off its body point,
/// with `checkConverged` a step of `other` that did not converge) return early; the caller follows
/// with QTest::currentTestFailed() as usual.
inline void runStrapHandle(const sim::Model& rm, sim::Data& rd, const sim::Model& om, sim::Data& od,
                           bool checkConverged, StrapHandleRun& out) {
  const MeshData rest = *sim::frame(rm, rd).deformables[0];
  const Eigen::Vector3f near(0.3f, 0.02f, 0.01f);
  int mid = 0;
  for (size_t i = 0; i < rest.vertices.size(); ++i)
    if ((rest.vertices[i] - near).norm() < (rest.vertices[size_t(mid)] - near).norm()) mid = int(i);
  const Vec3 anchor = sim::partSurfacePoint(rm, rd, 0, mid), target = anchor + Vec3(0, 0, 0.03);
  QVERIFY(sim::setDeformHandle(rm, rd, 0, mid, target) && sim::setDeformHandle(om, od, 0, mid, target));
  for (int k = 1; k <= 20; ++k) {
    QVERIFY(sim::advanceTo(rm, rd, k / 60.0) && sim::advanceTo(om, od, k / 60.0));
    QVERIFY2(sim::stepDeformables(rm, rd), rd.message.c_str());
    QVERIFY2(sim::stepDeformables(om, od), od.message.c_str());
    if (checkConverged) QCOMPARE(od.deformUnconverged, 0);
    out.referenceIterations += rd.deformIterations;
    out.otherIterations += od.deformIterations;
    QVERIFY2(od.attachError < 1e-9, qPrintable(QString::number(od.attachError)));
  }
  out.moved = (sim::partSurfacePoint(rm, rd, 0, mid) - anchor).norm();
  out.apart = (sim::partSurfacePoint(om, od, 0, mid) - sim::partSurfacePoint(rm, rd, 0, mid)).norm();
}

}  // namespace mechsim::test
