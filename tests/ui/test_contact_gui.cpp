// tests/ui/test_contact_gui.cpp — contact in the main window as a person would use it: open a
// mechanism with a "contact" section, switch View → Show Contacts and the dynamic mode on, play.
// A 2 kg box dropped 5 mm onto the ground plane comes to rest on its bottom face: the frames report
// the contacts (at least the four corners, every point on the plane z = 0 with normal +z), the
// contact solve's RES and the penetration, the box stays at its resting height, the viewport draws
// a marker per contact and the ground plane, the plot list offers the contact quantities, and the
// status bar counts the contacts. The screenshot (contact_box.png) is looked at.
#include <QtTest>

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QStatusBar>
#include <QTreeWidget>

#include <cmath>

#include "ui/main_window.h"
#include "ui/plot_dock.h"
#include "ui/viewport.h"
#include "tests/ui/window_test_util.h"

using namespace mechsim;
using namespace mechsim::ui;
using namespace mechsim::test;

class TestContactGui : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    useFreshSettings("test_contact_gui");
  }

  void boxComesToRestOnThePlane() {
    MainWindow w;
    w.setErrorHandler([](const QString& m) { QFAIL(qPrintable(m)); });
    w.resize(1100, 760);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndWait(w, mechanism("contact/box-on-plane.json")));
    const Model& m = *w.model();
    QVERIFY(m.contact.enabled);
    const int box = m.findBody("box");
    QVERIFY(box >= 0);
    // The ground plane is drawn (a slab under z = 0), though it has no extent of its own.
    int planes = 0;
    for (const DrawItem& it : w.viewport()->scene().items) planes += it.role == ItemRole::GroundPlane;
    QCOMPARE(planes, 1);

    auto* contacts = w.findChild<QAction*>("contacts");
    QVERIFY(contacts);
    QVERIFY(!contacts->isChecked());  // on demand
    contacts->trigger();
    QVERIFY(contacts->isChecked());
    auto* dynamic = w.findChild<QAction*>("dynamicModeAction");
    QVERIFY(dynamic);
    dynamic->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().dynamic, 10000);
    waitIdle(w);
    QAction* play = findAction(&w, "Play");
    QVERIFY(play);
    const double t0 = w.currentFrame().t;
    play->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentFrame().t > t0 + 0.6, 60000);
    play->trigger();
    waitIdle(w);
    QVERIFY(!w.currentFrame().playing);

    const Frame& f = w.currentFrame();
    QVERIFY(f.hasContact);
    QVERIFY2(f.contacts.size() >= 4, qPrintable(QString::number(f.contacts.size())));
    double impulse = 0;
    for (const Frame::ContactMark& c : f.contacts) {
      QVERIFY2(std::abs(c.point.z()) < 2e-3, qPrintable(QString::number(c.point.z())));
      QVERIFY((c.normal - Vec3::UnitZ()).norm() < 1e-9 || (c.normal + Vec3::UnitZ()).norm() < 1e-9);
      impulse += c.normalImpulse;
    }
    // At rest the normal impulses of one step carry the weight: Σλ_n = m g h.
    const double mgh = m.bodies[box].mass * m.gravity.norm() * m.dynamics.timestep;
    QVERIFY2(std::abs(impulse - mgh) < 0.05 * mgh, qPrintable(QString("sum %1, m g h %2").arg(impulse).arg(mgh)));
    QVERIFY(std::isfinite(f.contactResidual) && f.contactResidual < 1e-4);
    QVERIFY(f.maxPenetration < 2e-3);
    // Resting height: half the box (0.1 m) above the plane, within the penetration slop.
    QVERIFY2(std::abs(f.poses[box].position.z() - 0.1) < 2e-3, qPrintable(QString::number(f.poses[box].position.z())));

    // The viewport draws one marker per contact; the status bar counts them.
    int markers = 0;
    for (const DrawItem& it : w.viewport()->scene().items) markers += it.role == ItemRole::ContactMarker;
    QCOMPARE(markers, static_cast<int>(f.contacts.size()));
    QVERIFY2(w.statusBar()->findChildren<QLabel*>().size() > 0, "status bar labels");
    bool counted = false;
    for (QLabel* l : w.statusBar()->findChildren<QLabel*>()) counted = counted || l->text().contains("contact");
    QVERIFY(counted);
    // The plots offer the contact quantities.
    bool plotted = false;
    for (const PlotQuantity& q : plotQuantities(m)) plotted = plotted || q.name.contains("RES");
    QVERIFY(plotted);

    QVERIFY(QDir().mkpath(MECHSIM_SCREENSHOT_DIR));
    QVERIFY(w.grab().save(QStringLiteral(MECHSIM_SCREENSHOT_DIR "/contact_box.png"), "PNG"));
    // Off again: no markers.
    contacts->trigger();
    waitIdle(w);
    markers = 0;
    for (const DrawItem& it : w.viewport()->scene().items) markers += it.role == ItemRole::ContactMarker;
    QCOMPARE(markers, 0);
  }
};

QTEST_MAIN(TestContactGui)
#include "test_contact_gui.moc"
