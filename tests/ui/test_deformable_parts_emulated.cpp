// tests/ui/test_deformable_parts_emulated.cpp — the GUI's deformable parts (ui/deformable_parts.cpp,
// the simulation worker's side) with the CUDA backend's CPU emulation as their device
// (gpu/emulation/): a part whose solver the device runs is made resident there when it is built,
// and stays there while the user drags it (a soft handle). Runs everywhere, GPU or not; the same
// code with a real device is what the GUI runs on a machine that has one.
#include <QtTest>

#include "core/io/load.h"
#include "core/kinematics/kinematics.h"
#include "tests/ui/strap_handle_run.h"
#include "ui/deformable_parts.h"

using namespace mechsim;
using namespace mechsim::test;
using namespace mechsim::ui;

class TestDeformablePartsEmulated : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    // The JGS2 precomputation is never read from, or written to, the user's cache here.
    qputenv("MECHSIM_CACHE_DIR", "off");
  }

  void devicePartFollowsNewtonWithAHandle_data() {
    QTest::addColumn<QString>("solver");
    QTest::newRow("jgs2-jacobi") << "jgs2-jacobi";
    QTest::newRow("jgs2-gs") << "jgs2-gs";
  }
  void devicePartFollowsNewtonWithAHandle() {
    // The flexible-link strap solved on the (emulated) device against projected Newton on the CPU:
    // 20 frames of the crank's swing with a handle pulling a middle surface vertex 3 cm up, as
    // test_ui_deformable_gui's jgs2PartFollowsNewtonWithAHandle does on the CPU. The part must be
    // resident on the device ("(cuda)" in its solver's name), every step must converge there with
    // the handle held, and the pulled vertex must agree with Newton's to a small fraction of its
    // motion.
    QFETCH(QString, solver);
    MechanismSpec spec = io::readMechanismFile(MECHSIM_SOURCE_DIR "/mechanisms/deform-flexible-link.json");
    const Model model = io::compileSpec(spec);
    DeformableParts newton;
    newton.setCacheDir("");
    QVERIFY2(newton.build(spec, model, 1.0 / 60), newton.message().c_str());
    QCOMPARE(newton.solverName(0), std::string("newton"));  // Newton stays on the CPU
    spec.deformables[0].solver = solver.toStdString();
    DeformableParts device;
    device.setCacheDir("");
    QVERIFY2(device.build(spec, model, 1.0 / 60), device.message().c_str());
    QCOMPARE(device.solverName(0), solver.toStdString() + " (cuda)");
    StrapHandleRun run;
    runStrapHandle(newton, device, model, true, run);
    if (QTest::currentTestFailed()) return;
    qInfo("%s on the emulated device, handle held 20 frames: %d iterations (newton %d); vertex moved %.2f mm, "
          "%.3f mm from Newton's",
          qPrintable(solver), run.otherIterations, run.referenceIterations, 1e3 * run.moved, 1e3 * run.apart);
    QVERIFY2(run.moved > 0.01, qPrintable(QString::number(run.moved)));
    QVERIFY2(run.apart < 0.03 * run.moved, qPrintable(QString::number(run.apart)));
    // Let go: the part springs back on the device, still converging.
    device.clearHandle();
    Data d = makeData(model);
    QVERIFY(solvePositions(model, d, 21 / 60.0));
    QVERIFY2(device.step(model, d.q), device.message().c_str());
    QCOMPARE(device.unconverged(), 0);
  }
};

QTEST_APPLESS_MAIN(TestDeformablePartsEmulated)
#include "test_deformable_parts_emulated.moc"
