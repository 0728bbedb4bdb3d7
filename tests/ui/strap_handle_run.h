#pragma once
// tests/ui/strap_handle_run.h — the handle run shared by the deformable-parts tests: the flexible-
// link strap's parts `reference` (projected Newton) and `other` (another solver, on the CPU or the
// device), built from the same file, 20 frames of the crank's swing with a handle pulling a middle
// surface vertex 3 cm up.
#include <QtTest>

#include "core/kinematics/kinematics.h"
#include "ui/deformable_parts.h"

namespace mechsim::test {

struct StrapHandleRun {
  int referenceIterations = 0, otherIterations = 0;
  double moved = 0;  // how far the pulled vertex moved under Newton (m)
  double apart = 0;  // its distance between the two parts at the end (m)
};

/// Runs the 20 frames. QVERIFY failures (a step that fails, an attachment off its body point,
/// with `checkConverged` a step of `other` that did not converge) return early; the caller follows
/// with QTest::currentTestFailed() as usual.
inline void runStrapHandle(ui::DeformableParts& reference, ui::DeformableParts& other, const Model& model,
                           bool checkConverged, StrapHandleRun& out) {
  const MeshData rest = *reference.surface(0);
  const Eigen::Vector3f near(0.3f, 0.02f, 0.01f);
  int mid = 0;
  for (size_t i = 0; i < rest.vertices.size(); ++i)
    if ((rest.vertices[i] - near).norm() < (rest.vertices[size_t(mid)] - near).norm()) mid = int(i);
  const Vec3 anchor = reference.surfacePoint(0, mid), target = anchor + Vec3(0, 0, 0.03);
  QVERIFY(reference.setHandle(0, mid, target) && other.setHandle(0, mid, target));
  Data d = makeData(model);
  for (int k = 1; k <= 20; ++k) {
    QVERIFY(solvePositions(model, d, k / 60.0));
    QVERIFY2(reference.step(model, d.q), reference.message().c_str());
    QVERIFY2(other.step(model, d.q), other.message().c_str());
    if (checkConverged) QCOMPARE(other.unconverged(), 0);
    out.referenceIterations += reference.iterations();
    out.otherIterations += other.iterations();
    QVERIFY2(other.attachmentError() < 1e-9, qPrintable(QString::number(other.attachmentError())));
  }
  out.moved = (reference.handlePoint() - anchor).norm();
  out.apart = (other.handlePoint() - reference.handlePoint()).norm();
}

}  // namespace mechsim::test
