// tests/core/test_sim_parts_emulated.cpp — the engine's deformable parts (core/sim/deformables.cpp)
// with the CUDA backend's CPU emulation as their device (gpu/emulation/, gpu/engine_device.h): a
// part whose solver the device runs is made resident there by makeData, and stays there while a
// soft handle pulls it. Runs everywhere, GPU or not; the same code with a real device is what the
// GUI and `mechsim-cli deform` run on a machine that has one.
#include <QtTest>

#include "gpu/engine_device.h"
#include "tests/core/strap_handle_run.h"

using namespace mechsim;
using namespace mechsim::test;

class TestSimPartsEmulated : public QObject {
  Q_OBJECT
 private slots:
  void devicePartFollowsNewtonWithAHandle_data() {
    QTest::addColumn<QString>("solver");
    QTest::newRow("jgs2-jacobi") << "jgs2-jacobi";
    QTest::newRow("jgs2-gs") << "jgs2-gs";
  }
  void devicePartFollowsNewtonWithAHandle() {
    // The flexible-link strap solved on the (emulated) device against projected Newton on the CPU:
    // 20 frames of the crank's swing with a handle pulling a middle surface vertex 3 cm up, as
    // test_sim_parts's jgs2PartFollowsNewtonWithAHandle does on the CPU. The part must be resident
    // on the device ("(cuda)" in its solver's name), every step must converge there with the handle
    // held, and the pulled vertex must agree with Newton's to a small fraction of its motion.
    QFETCH(QString, solver);
    sim::Options o;
    o.device = gpu::engineDevice();
    const sim::Model newton = strapModel("", o);
    sim::Data nd = sim::makeData(newton);
    QCOMPARE(solverName(newton, nd), std::string("newton"));  // Newton stays on the CPU
    const sim::Model device = strapModel(solver.toStdString(), o);
    sim::Data dd = sim::makeData(device);
    QVERIFY2(dd.message.empty(), dd.message.c_str());
    QCOMPARE(solverName(device, dd), solver.toStdString() + " (cuda)");
    StrapHandleRun run;
    runStrapHandle(newton, nd, device, dd, true, run);
    if (QTest::currentTestFailed()) return;
    qInfo("%s on the emulated device, handle held 20 frames: %d iterations (newton %d); vertex moved %.2f mm, "
          "%.3f mm from Newton's",
          qPrintable(solver), run.otherIterations, run.referenceIterations, 1e3 * run.moved, 1e3 * run.apart);
    QVERIFY2(run.moved > 0.01, qPrintable(QString::number(run.moved)));
    QVERIFY2(run.apart < 0.03 * run.moved, qPrintable(QString::number(run.apart)));
    // Let go: the part springs back on the device, still converging.
    sim::clearDeformHandle(device, dd);
    QVERIFY(sim::advanceTo(device, dd, 21 / 60.0));
    QVERIFY2(sim::stepDeformables(device, dd), dd.message.c_str());
    QCOMPARE(dd.deformUnconverged, 0);
  }
};

QTEST_APPLESS_MAIN(TestSimPartsEmulated)
#include "test_sim_parts_emulated.moc"
