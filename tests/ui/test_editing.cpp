// tests/ui/test_editing.cpp — editing the mechanism in the window as a person does it (issue:
// inspector, parameters, build from nothing): selecting in the tree and in the view selects in
// both and highlights; inspector fields typed into with keys re-solve the mechanism, bad values
// show an inline error and change nothing, every edit undoes and redoes; the parameters panel
// re-assembles the parametric four-bar live and refuses a length it cannot assemble at (the pose
// kept); Save keeps the file's comments and parameter expressions; and the crank-rocker four-bar
// is built from File → New with the Add Body / Add Joint tools, clicks in the view and typed
// fields, then checked for its mobility, its motion against the closed-form four-bar, and by
// mechsim-cli on the saved file. Screenshots (editing_*.png) go to <build>/screenshots/.
#include <cmath>

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QSlider>
#include <QStatusBar>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTreeWidget>
#include <QUndoStack>
#include <QtTest>

#include "scene/picking.h"
#include "ui/dof_panel.h"
#include "ui/inspector.h"
#include "ui/main_window.h"
#include "ui/parameter_panel.h"
#include "ui/viewport.h"
#include "window_test_util.h"

using namespace mechsim;
using namespace mechsim::ui;
using namespace mechsim::test;

namespace {
constexpr double kPi = 3.14159265358979323846;

/// Waits until the window's last edit was answered, then until the worker is idle.
bool waitEdit(MainWindow& w) {
  const bool ok = QTest::qWaitFor([&] { return !w.editPending(); }, 20000);
  waitIdle(w);
  return ok;
}

/// Types `text` into a line edit as a user does: click, select all, type, Return.
void typeInto(QWidget* field, const QString& text) {
  QVERIFY(field);
  auto* e = qobject_cast<QLineEdit*>(field);
  QVERIFY(e);
  QTest::mouseClick(e, Qt::LeftButton);
  QTest::keyClick(e, Qt::Key_A, Qt::ControlModifier);
  QTest::keyClicks(e, text);
  QTest::keyClick(e, Qt::Key_Return);
}

QTreeWidgetItem* treeItem(QTreeWidget* tree, const QString& name) {
  for (int g = 0; g < tree->topLevelItemCount(); ++g)
    for (int c = 0; c < tree->topLevelItem(g)->childCount(); ++c)
      if (tree->topLevelItem(g)->child(c)->text(0) == name) return tree->topLevelItem(g)->child(c);
  return nullptr;
}

/// The pixel of world point p in the view.
QPoint pixelOf(MainWindow& w, const Eigen::Vector3d& p) {
  Viewport* v = w.viewport();
  const auto px = projectToPixel(v->camera(), p, v->width(), v->height());
  return px ? QPoint(int(std::lround(px->x())), int(std::lround(px->y()))) : QPoint(-1, -1);
}

void clickView(MainWindow& w, const QPoint& at) {
  QTest::mouseClick(w.viewport(), Qt::LeftButton, Qt::NoModifier, at);
  QApplication::processEvents();
}

const JointSpec* joint(const MechanismSpec& s, const std::string& name) {
  for (const JointSpec& j : s.joints)
    if (j.name == name) return &j;
  return nullptr;
}

const ParameterSpec* parameter(const MechanismSpec& s, const std::string& name) {
  for (const ParameterSpec& p : s.parameters)
    if (p.name == name) return &p;
  return nullptr;
}

/// Rocker angle (from the ground line) of the open crank-rocker with ground a, crank b, coupler c,
/// rocker d at crank angle θ: the circle intersection C of |C − B| = c, |C − D| = d (closed form).
double rockerAngle(double a, double b, double c, double d, double theta) {
  const Eigen::Vector2d B(b * std::cos(theta), b * std::sin(theta)), D(a, 0);
  const Eigen::Vector2d e = D - B;
  const double dd = e.norm(), x = (c * c - d * d + dd * dd) / (2 * dd), h = std::sqrt(c * c - x * x);
  const Eigen::Vector2d C = B + x * e / dd + h * Eigen::Vector2d(-e.y(), e.x()) / dd;
  return std::atan2(C.y(), C.x() - a);
}

QString screenshotDir() {
  QDir().mkpath(QStringLiteral(MECHSIM_SCREENSHOT_DIR));
  return QStringLiteral(MECHSIM_SCREENSHOT_DIR);
}
}  // namespace

class TestEditing : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { useFreshSettings("test_ui_editing"); }
  void selectionIsSharedByTreeViewAndInspector();
  void inspectorEditsResolveAndUndo();
  void badValuesShowAnErrorAndChangeNothing();
  void parametersMoveTheMechanismLive();
  void parameterTheMechanismCannotTakeIsRefused();
  void springsAndMotorsAreEditedToo();
  void saveKeepsCommentsAndParameters();
  void buildCrankRockerFromNothing();
};

void TestEditing::selectionIsSharedByTreeViewAndInspector() {
  MainWindow w;
  w.resize(1400, 900);
  w.show();
  w.activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(&w));
  QVERIFY(openAndWait(w, mechanism("fourbar.json")));
  // A click on joint B in the tree: selected, its fields in the inspector, its glyph highlighted.
  QTreeWidget* tree = w.modelTree();
  QTreeWidgetItem* b = treeItem(tree, "B");
  QVERIFY(b);
  tree->scrollToItem(b);
  QTest::mouseClick(tree->viewport(), Qt::LeftButton, Qt::NoModifier, tree->visualItemRect(b).center());
  QVERIFY(w.selection());
  QCOMPARE(w.selection()->kind, SpecKind::Joint);
  QCOMPARE(QString::fromStdString(w.selection()->name), QStringLiteral("B"));
  QVERIFY(w.inspector()->field("joints.B.point"));
  QVERIFY(w.inspector()->field("joints.B.axis"));
  int highlighted = 0;
  for (const DrawItem& it : w.viewport()->scene().items)
    if (it.role == ItemRole::JointGlyph && it.joint == 1) highlighted += it.color.isApprox(kSelectedGlyphColor);
  QVERIFY(highlighted > 0);
  QTest::qWait(100);  // the inspector's new fields laid out and painted
  QVERIFY(w.viewport()->grabFramebuffer().save(screenshotDir() + "/editing_inspector_joint.png", "PNG"));
  QVERIFY(w.grab().save(screenshotDir() + "/editing_inspector.png", "PNG"));

  // A click on the rocker in the view: selected in the tree and the inspector, highlighted.
  const int rocker = w.model()->findBody("rocker");
  const Pose& pose = w.currentFrame().poses[rocker];
  clickView(w, pixelOf(w, pose.apply(Eigen::Vector3d(0.15, 0, 0.012))));
  waitIdle(w);
  QVERIFY(w.selection());
  QCOMPARE(w.selection()->kind, SpecKind::Body);
  QCOMPARE(QString::fromStdString(w.selection()->name), QStringLiteral("rocker"));
  QVERIFY(treeItem(tree, "rocker")->isSelected());
  QVERIFY(!treeItem(tree, "B")->isSelected());
  QVERIFY(w.inspector()->field("bodies.rocker.position"));
  QCOMPARE(w.selectedBody(), rocker);
}

void TestEditing::inspectorEditsResolveAndUndo() {
  MainWindow w;
  w.resize(1400, 900);
  w.show();
  w.activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(&w));
  QVERIFY(openAndWait(w, mechanism("fourbar.json")));
  w.select(SpecItem{SpecKind::Joint, "B"});
  const Vec3 before = joint(*w.spec(), "B")->point;
  QSignalSpy done(&w, &MainWindow::editFinished);
  typeInto(w.inspector()->field("joints.B.point"), "0.05, 0.09, 0");
  QVERIFY(waitEdit(w));
  QCOMPARE(done.count(), 1);
  QCOMPARE(done.first().at(0).toBool(), true);
  QVERIFY((joint(*w.spec(), "B")->point - Vec3(0.05, 0.09, 0)).norm() < 1e-15);
  QVERIFY(w.isWindowModified());
  QCOMPARE(w.modelInfo().mobility.dof, 1);           // still a four-bar
  QVERIFY(w.currentFrame().maxResidual() < 1e-9);    // re-assembled
  // Edit → Undo puts the point back, Redo sets it again (with the focus out of the field, whose
  // own Ctrl+Z undoes its text).
  QCOMPARE(w.undoStack()->count(), 1);
  w.viewport()->setFocus();
  QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
  QVERIFY(waitEdit(w));
  QVERIFY((joint(*w.spec(), "B")->point - before).norm() < 1e-15);
  auto* e = qobject_cast<QLineEdit*>(w.inspector()->field("joints.B.point"));
  QVERIFY(e && e->text().startsWith("0.05, 0.08660254"));
  QTest::keyClick(&w, Qt::Key_Y, Qt::ControlModifier);
  QVERIFY(waitEdit(w));
  QVERIFY((joint(*w.spec(), "B")->point - Vec3(0.05, 0.09, 0)).norm() < 1e-15);

  // A body's mass and a driver's expression: the model follows.
  w.select(SpecItem{SpecKind::Body, "crank"});
  typeInto(w.inspector()->field("bodies.crank.mass"), "2.5");
  QVERIFY(waitEdit(w));
  QCOMPARE(w.model()->bodies[w.model()->findBody("crank")].mass, 2.5);
  w.select(SpecItem{SpecKind::Driver, "crank"});
  typeInto(w.inspector()->field("drivers.crank.expression"), "180 * t");
  QVERIFY(waitEdit(w));
  QCOMPARE(QString::fromStdString(w.model()->drivers[0].expression), QStringLiteral("180 * t"));
  // A rename follows everywhere: the tree, the selection, the driver's joint.
  w.select(SpecItem{SpecKind::Joint, "A"});
  typeInto(w.inspector()->field("joints.A.name"), "base");
  QVERIFY(waitEdit(w));
  QVERIFY(treeItem(w.modelTree(), "base"));
  QVERIFY(!treeItem(w.modelTree(), "A"));
  QCOMPARE(QString::fromStdString(w.selection()->name), QStringLiteral("base"));
  QCOMPARE(QString::fromStdString(w.spec()->drivers[0].joint), QStringLiteral("base"));
  QVERIFY(w.inspector()->field("joints.base.point"));
  QCOMPARE(w.undoStack()->count(), 4);
}

void TestEditing::badValuesShowAnErrorAndChangeNothing() {
  MainWindow w;
  w.resize(1400, 900);
  w.show();
  w.activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(&w));
  QVERIFY(openAndWait(w, mechanism("fourbar.json")));
  const auto spec = w.spec();
  const auto model = w.model();
  w.select(SpecItem{SpecKind::Joint, "B"});
  struct Case {
    const char* path;
    const char* text;
    const char* error;  // part of the inline message
  };
  const Case cases[] = {
      {"joints.B.point", "abc", "not a number"},
      {"joints.B.point", "1, 2", "expected 3 numbers"},
      {"joints.B.axis", "0, 0, 0", "axis"},
      {"joints.B.body2", nullptr, nullptr},  // (a choice: nothing to type)
  };
  for (const Case& c : cases) {
    if (!c.text) continue;
    typeInto(w.inspector()->field(c.path), c.text);
    QTest::qWait(50);
    waitIdle(w);
    QVERIFY2(w.inspector()->fieldError(c.path).contains(c.error, Qt::CaseInsensitive),
             qPrintable(QStringLiteral("%1 = %2: '%3'").arg(c.path, c.text, w.inspector()->fieldError(c.path))));
    QCOMPARE(w.spec(), spec);
    QCOMPARE(w.model(), model);
  }
  // Errors the compiler finds (a negative mass, an expression that does not parse) and one the
  // controller finds: each inline, nothing changed.
  w.select(SpecItem{SpecKind::Body, "coupler"});
  typeInto(w.inspector()->field("bodies.coupler.mass"), "-1");
  QVERIFY(waitEdit(w));
  QVERIFY(!w.inspector()->fieldError("bodies.coupler.mass").isEmpty());
  QCOMPARE(w.spec(), spec);
  w.select(SpecItem{SpecKind::Driver, "crank"});
  typeInto(w.inspector()->field("drivers.crank.expression"), "360 * t +");
  QVERIFY(waitEdit(w));
  QVERIFY(!w.inspector()->fieldError("drivers.crank.expression").isEmpty());
  QCOMPARE(w.spec(), spec);
  QCOMPARE(w.model(), model);
  QCOMPARE(w.undoStack()->count(), 0);
  QVERIFY(!w.isWindowModified());
  // The error goes once a good value is entered.
  typeInto(w.inspector()->field("drivers.crank.expression"), "90 * t");
  QVERIFY(waitEdit(w));
  QVERIFY(w.inspector()->fieldError("drivers.crank.expression").isEmpty());
  QVERIFY(w.spec() != spec);
}

void TestEditing::parametersMoveTheMechanismLive() {
  MainWindow w;
  w.resize(1400, 900);
  w.show();
  w.activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(&w));
  QVERIFY(openAndWait(w, mechanism("fourbar-parametric.json")));
  ParameterPanel* panel = w.parameterPanel();
  QCOMPARE(panel->count(), static_cast<int>(w.spec()->parameters.size()));
  QVERIFY(panel->spinBox("L2")->isEnabled());
  QVERIFY(!panel->spinBox("Bx")->isEnabled());  // derived: follows L2 and theta0
  // Dragging the slider of L2: every move re-assembles (live), one undo command for the gesture.
  QSlider* s = panel->slider("L2");
  const int start = s->value();
  s->setSliderDown(true);
  int shown = 0;
  for (int k = 1; k <= 8; ++k) {
    s->setValue(start + 10 * k);
    QTest::qWait(40);
    shown += w.currentFrame().serial > 0;
  }
  s->setSliderDown(false);
  QVERIFY(waitEdit(w));
  const double L2 = parameter(*w.spec(), "L2")->value;
  QVERIFY2(std::abs(L2 - panel->spinBox("L2")->value()) < 1e-12, qPrintable(QString::number(L2)));
  QVERIFY(L2 > 0.1 + 1e-3);
  // The mechanism follows: the crank's capsule is L2 long and the pose is assembled.
  const int crank = w.model()->findBody("crank");
  QVERIFY(std::abs(w.spec()->bodies[crank].shapes[0].length - L2) < 1e-12);
  QVERIFY(std::abs(joint(*w.spec(), "B")->point.head<2>().norm() - L2) < 1e-12);
  QVERIFY(w.currentFrame().maxResidual() < 1e-9);
  QCOMPARE(w.undoStack()->count(), 1);
  QVERIFY(w.grab().save(screenshotDir() + "/editing_parameters.png", "PNG"));
  // Typing a value in the spin box.
  QDoubleSpinBox* box = panel->spinBox("L3");
  QTest::mouseClick(box, Qt::LeftButton);
  QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
  QTest::keyClicks(box, "0.38");
  QTest::keyClick(box, Qt::Key_Return);
  QVERIFY(waitEdit(w));
  QVERIFY(std::abs(parameter(*w.spec(), "L3")->value - 0.38) < 1e-12);
  QCOMPARE(w.undoStack()->count(), 2);
  // Undo twice: the file's lengths again.
  w.undoStack()->undo();
  QVERIFY(waitEdit(w));
  w.undoStack()->undo();
  QVERIFY(waitEdit(w));
  QVERIFY(std::abs(parameter(*w.spec(), "L2")->value - 0.1) < 1e-12);
  QVERIFY(std::abs(parameter(*w.spec(), "L3")->value - 0.35) < 1e-12);
  QVERIFY(std::abs(panel->spinBox("L2")->value() - 0.1) < 1e-12);
}

void TestEditing::parameterTheMechanismCannotTakeIsRefused() {
  MainWindow w;
  w.resize(1400, 900);
  w.show();
  w.activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(&w));
  QVERIFY(openAndWait(w, mechanism("fourbar-parametric.json")));
  const auto spec = w.spec();
  // L3 = 0.05: no open assembly at all (the circles about B and D do not meet): refused by the
  // reader at the expression that has no value, the value shown goes back to 0.35.
  QVERIFY(!w.setParameter("L3", 0.05));
  QVERIFY(!w.parameterPanel()->error("L3").isEmpty());
  QCOMPARE(w.spec(), spec);
  QCOMPARE(w.parameterPanel()->spinBox("L3")->value(), 0.35);
  // The crank turned by 120° from the file's 60° (at 180°), then L2 = 0.3: the four-bar assembles
  // at 60° but not at 180° (|BD| = 0.7 > L3 + L4): refused by the controller, the pose reached kept.
  QVERIFY(w.dofPanel()->count() >= 1);
  w.dofPanel()->spinBox(0)->setValue(120);
  waitIdle(w);
  const double crankAt = w.currentFrame().dofValues[0];
  QVERIFY(std::abs(crankAt - 2 * kPi / 3) < 1e-9);
  QSignalSpy done(&w, &MainWindow::editFinished);
  QVERIFY(w.setParameter("L2", 0.3));
  QVERIFY(waitEdit(w));
  QCOMPARE(done.count(), 1);
  QCOMPARE(done.first().at(0).toBool(), false);
  const QString why = done.first().at(1).toString();
  QVERIFY2(why.contains("cannot assemble at the pose reached"), qPrintable(why));
  QVERIFY2(w.parameterPanel()->error("L2").contains("cannot assemble"), qPrintable(w.parameterPanel()->error("L2")));
  QCOMPARE(w.spec(), spec);
  QVERIFY(std::abs(w.currentFrame().dofValues[0] - 2 * kPi / 3) < 1e-9);
  QVERIFY(w.currentFrame().maxResidual() < 1e-9);
  QCOMPARE(w.parameterPanel()->spinBox("L2")->value(), 0.1);
  QVERIFY(w.statusBar()->currentMessage().contains("cannot assemble"));
}

void TestEditing::springsAndMotorsAreEditedToo() {
  // Andrews' squeezer (IFToMM A03): a spring and a motor of constant torque, in the tree and the
  // inspector; the motor's effort expression and the spring's stiffness edited, a bad expression refused.
  MainWindow w;
  w.resize(1400, 900);
  w.show();
  w.activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(&w));
  QVERIFY(openAndWait(w, mechanism("dynamics/a03-andrews-squeezer.json")));
  QTreeWidgetItem* motor = treeItem(w.modelTree(), "mom");
  QTreeWidgetItem* spring = treeItem(w.modelTree(), "c0");
  QVERIFY(motor && spring);
  auto click = [&](QTreeWidgetItem* it) {
    w.modelTree()->scrollToItem(it);
    QTest::mouseClick(w.modelTree()->viewport(), Qt::LeftButton, Qt::NoModifier, w.modelTree()->visualItemRect(it).center());
  };
  click(motor);
  QVERIFY(w.selection());
  QCOMPARE(w.selection()->kind, SpecKind::Motor);
  typeInto(w.inspector()->field("dynamics.motors.mom.effort"), "0.033 * (1 + t)");
  QVERIFY(waitEdit(w));
  QCOMPARE(QString::fromStdString(w.spec()->dynamics.motors[0].effort), QStringLiteral("0.033 * (1 + t)"));
  const auto spec = w.spec();
  typeInto(w.inspector()->field("dynamics.motors.mom.effort"), "0.033 *");
  QVERIFY(waitEdit(w));
  QVERIFY(!w.inspector()->fieldError("dynamics.motors.mom.effort").isEmpty());
  QCOMPARE(w.spec(), spec);
  click(treeItem(w.modelTree(), "c0"));
  QVERIFY(w.selection());
  QCOMPARE(w.selection()->kind, SpecKind::Spring);
  typeInto(w.inspector()->field("dynamics.springs.c0.stiffness"), "5000");
  QVERIFY(waitEdit(w));
  QCOMPARE(w.spec()->dynamics.springs[0].stiffness, 5000.0);
  // Renamed: the tree and the selection follow.
  typeInto(w.inspector()->field("dynamics.springs.c0.name"), "c1");
  QVERIFY(waitEdit(w));
  QVERIFY(treeItem(w.modelTree(), "c1"));
  QCOMPARE(QString::fromStdString(w.selection()->name), QStringLiteral("c1"));
  QCOMPARE(w.undoStack()->count(), 3);
}

void TestEditing::saveKeepsCommentsAndParameters() {
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  const QString path = dir.filePath("fourbar-parametric.json");
  QVERIFY(QFile::copy(mechanism("fourbar-parametric.json"), path));
  QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
  MainWindow w;
  w.resize(1400, 900);
  w.show();
  w.activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(&w));
  QVERIFY(openAndWait(w, path));
  QVERIFY(w.setParameter("L2", 0.12));
  QVERIFY(waitEdit(w));
  QVERIFY(w.isWindowModified());
  QTest::keyClick(&w, Qt::Key_S, Qt::ControlModifier);  // File → Save: the same file
  QVERIFY(!w.isWindowModified());
  QFile f(path);
  QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
  const QString text = QTextStream(&f).readAll();
  QVERIFY(text.contains("// The crank-rocker four-bar of fourbar.json written with parameters"));
  QVERIFY(text.contains("C is the open"));
  QVERIFY(text.contains("\"=L2/2\""));
  QVERIFY(text.contains("\"=Bx\""));
  QVERIFY(text.contains("\"=L2*cos(theta0*pi/180)\""));
  QVERIFY2(text.contains(QRegularExpression("\"L2\": \\{\\s*\"value\": 0.12")), qPrintable(text.left(1500)));
  // It opens again with the new length, here and in mechsim-cli.
  QVERIFY(openAndWait(w, path));
  QVERIFY(std::abs(parameter(*w.spec(), "L2")->value - 0.12) < 1e-12);
  QProcess cli;
  cli.start(QStringLiteral(MECHSIM_CLI_EXE), {"check", path});
  QVERIFY(cli.waitForFinished(30000));
  QCOMPARE(cli.exitCode(), 0);
  QVERIFY(QString::fromUtf8(cli.readAllStandardOutput()).contains(QRegularExpression("mobility\\s+1")));
}

void TestEditing::buildCrankRockerFromNothing() {
  // The crank-rocker of mechanisms/fourbar.json: ground 0.4 m, crank 0.1 m at 60°, coupler 0.35 m,
  // rocker 0.3 m, built as a user would: File → New, four bars laid out by typing their fields,
  // the joints placed by clicking in the view, a driver on the crank, a handle on the coupler.
  const double a = 0.4, b = 0.1, c = 0.35, d = 0.3, theta0 = 60 * kPi / 180;
  const Eigen::Vector2d B(b * std::cos(theta0), b * std::sin(theta0));
  const double phi4 = rockerAngle(a, b, c, d, theta0);
  const Eigen::Vector2d C(a + d * std::cos(phi4), d * std::sin(phi4));
  const double phi3 = std::atan2(C.y() - B.y(), C.x() - B.x());

  MainWindow w;
  w.resize(1400, 900);
  w.show();
  w.activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(&w));
  QTest::keyClick(&w, Qt::Key_N, Qt::ControlModifier);  // File → New
  QVERIFY(QTest::qWaitFor([&] { return w.currentFrame().serial > 0 && w.spec(); }, 10000));
  waitIdle(w);
  QCOMPARE(static_cast<int>(w.spec()->bodies.size()), 1);  // the ground
  QVERIFY(w.windowTitle().contains("not saved"));

  // Bars as boxes 0.02 m wide, 0.01 m thick, 0.03 m longer than the link so that the joints lie
  // inside their ends; the coupler one level up (z = 0.015) so that the clicks tell them apart.
  struct Bar {
    const char* name;
    Eigen::Vector3d at;
    double angle, length;
  };
  const Bar bars[] = {{"crank", {0, 0, 0}, theta0, b},
                      {"coupler", {B.x(), B.y(), 0.015}, phi3, c},
                      {"rocker", {a, 0, 0}, phi4, d}};
  QAction* addBox = w.findChild<QAction*>("addBody-box");
  QVERIFY(addBox);
  auto num = [](double x) { return QString::number(x, 'g', 15); };
  for (const Bar& bar : bars) {
    addBox->trigger();  // Mechanism → Add Body → Box
    QVERIFY(waitEdit(w));
    QVERIFY(w.selection() && w.selection()->kind == SpecKind::Body);
    const QString n = QString::fromStdString(w.selection()->name);
    typeInto(w.inspector()->field("bodies." + n + ".name"), bar.name);
    QVERIFY(waitEdit(w));
    const QString p = QStringLiteral("bodies.%1.").arg(bar.name);
    typeInto(w.inspector()->field(p + "position"), QStringLiteral("%1, %2, %3").arg(num(bar.at.x()), num(bar.at.y()), num(bar.at.z())));
    QVERIFY(waitEdit(w));
    typeInto(w.inspector()->field(p + "orientation"), QStringLiteral("0, 0, 1, %1").arg(num(bar.angle * 180 / kPi)));
    QVERIFY(waitEdit(w));
    typeInto(w.inspector()->field(p + "shapes.0.size"), QStringLiteral("%1, 0.02, 0.01").arg(num(bar.length + 0.03)));
    QVERIFY(waitEdit(w));
    typeInto(w.inspector()->field(p + "shapes.0.position"), QStringLiteral("%1, 0, 0").arg(num(bar.length / 2)));
    QVERIFY(waitEdit(w));
    QVERIFY2(w.lastEditMessage().isEmpty(), qPrintable(w.lastEditMessage()));
  }
  QCOMPARE(static_cast<int>(w.spec()->bodies.size()), 4);
  // Looking down the z axis at the layout.
  w.viewport()->camera().elevation = kPi / 2 - 0.01;
  w.viewport()->camera().azimuth = -kPi / 2;
  QTest::keyClick(w.viewport(), Qt::Key_F);  // View → Fit
  w.viewport()->update();
  QTest::qWait(100);
  QVERIFY(w.grab().save(screenshotDir() + "/editing_bars_laid_out.png", "PNG"));

  // The joints: Ctrl+J (Add Joint → Revolute), click the first body (empty space: the ground),
  // then the second at the joint's place; the clicked top faces give the axis z.
  auto top = [&](const Eigen::Vector2d& xy, double z) { return Eigen::Vector3d(xy.x(), xy.y(), z); };
  const QPoint empty(5, 5);
  auto mid = [&](const char* body, double along) {  // a point on the bar's top face
    const int k = w.model()->findBody(body);
    const Pose& pose = w.currentFrame().poses[k];
    return pixelOf(w, pose.apply(Eigen::Vector3d(along, 0, 0.005)));
  };
  const int before = static_cast<int>(w.spec()->joints.size());
  const std::pair<QPoint, Eigen::Vector3d> joints[] = {
      {empty, top({0, 0}, 0.005)},                  // A: ground–crank at the origin
      {mid("crank", 0.5 * b), top(B, 0.02)},  // B: crank–coupler
      {mid("coupler", 0.5 * c), top(C, 0.005)},  // C: coupler–rocker
      {empty, top({a, 0}, 0.005)}};                 // D: ground–rocker
  int made = 0;
  for (const auto& [first, at] : joints) {
    QTest::keyClick(&w, Qt::Key_J, Qt::ControlModifier);
    QVERIFY(w.toolActive());
    clickView(w, first);
    clickView(w, pixelOf(w, at));
    QVERIFY(waitEdit(w));
    QVERIFY2(!w.toolActive(), qPrintable(w.statusBar()->currentMessage() + QStringLiteral(" click at %1,%2 view %3x%4")
                                                                           .arg(pixelOf(w, at).x()).arg(pixelOf(w, at).y())
                                                                           .arg(w.viewport()->width()).arg(w.viewport()->height())));
    QVERIFY2(w.lastEditMessage().isEmpty(), qPrintable(w.lastEditMessage()));
    QCOMPARE(static_cast<int>(w.spec()->joints.size()), before + ++made);
    const JointSpec& j = w.spec()->joints.back();
    QVERIFY2((j.point.head<2>() - at.head<2>()).norm() < 3e-3, qPrintable(QString::number((j.point.head<2>() - at.head<2>()).norm())));
    QVERIFY(j.axis.isApprox(Vec3::UnitZ()) || j.axis.isApprox(-Vec3::UnitZ()));
    if (made == 2) {
      QVERIFY(w.grab().save(screenshotDir() + "/editing_half_built.png", "PNG"));
    }
  }
  const std::vector<JointSpec> js = w.spec()->joints;
  QCOMPARE(js[0].body1, std::string("ground"));
  QCOMPARE(js[0].body2, std::string("crank"));
  QCOMPARE(js[1].body1, std::string("crank"));
  QCOMPARE(js[1].body2, std::string("coupler"));
  QCOMPARE(js[2].body1, std::string("coupler"));
  QCOMPARE(js[2].body2, std::string("rocker"));
  QCOMPARE(js[3].body1, std::string("ground"));
  QCOMPARE(js[3].body2, std::string("rocker"));
  QCOMPARE(w.modelInfo().mobility.dof, 1);  // a four-bar: one DOF, 3 redundant equations

  // A driver on the first joint: selected in the tree, Mechanism → Add Driver to Joint.
  QTreeWidgetItem* ja = treeItem(w.modelTree(), QString::fromStdString(js[0].name));
  QVERIFY(ja);
  w.modelTree()->scrollToItem(ja);
  QTest::mouseClick(w.modelTree()->viewport(), Qt::LeftButton, Qt::NoModifier, w.modelTree()->visualItemRect(ja).center());
  QVERIFY(w.selection());
  QCOMPARE(w.selection()->kind, SpecKind::Joint);
  w.findChild<QAction*>("addDriver")->trigger();
  QVERIFY(waitEdit(w));
  QCOMPARE(static_cast<int>(w.spec()->drivers.size()), 1);
  QCOMPARE(QString::fromStdString(w.spec()->drivers[0].expression), QStringLiteral("360 * t"));
  QCOMPARE(w.modelInfo().mobility.dofDriven, 0);
  // A handle on the coupler.
  w.findChild<QAction*>("addHandle")->trigger();
  clickView(w, mid("coupler", 0.3 * c));
  QVERIFY(waitEdit(w));
  QCOMPARE(static_cast<int>(w.spec()->handles.size()), 1);
  QCOMPARE(w.spec()->handles[0].body, std::string("coupler"));

  // The motion: step time (".") and compare the rocker's turn with the closed form of the links
  // as built (the clicked joint points, within a few tenths of a millimetre of the intended ones).
  const Eigen::Vector2d A2 = js[0].point.head<2>(), B2 = js[1].point.head<2>(), C2 = js[2].point.head<2>(),
                        D2 = js[3].point.head<2>();
  const double ab = (B2 - A2).norm(), bc = (C2 - B2).norm(), cd = (D2 - C2).norm(), ad = (D2 - A2).norm();
  const double th0 = std::atan2(B2.y() - A2.y(), B2.x() - A2.x()) - std::atan2(D2.y() - A2.y(), D2.x() - A2.x());
  const double rk0 = rockerAngle(ad, ab, bc, cd, th0);
  const int rockerCoord = w.model()->joints[3].firstCoord;
  const int crankCoord = w.model()->joints[0].firstCoord;
  for (int k = 1; k <= 30; ++k) QTest::keyClick(&w, Qt::Key_Period);
  waitIdle(w);
  const Frame& f = w.currentFrame();
  QVERIFY(std::abs(f.t - 0.5) < 1e-9);  // 30 ticks of 1/60 s
  const double turned = std::remainder(f.coords[crankCoord], 2 * kPi);
  const double sign = js[0].axis.z() > 0 ? 1 : -1;  // the coordinate turns about the joint's axis
  QVERIFY2(std::abs(std::abs(turned) - kPi) < 1e-6, qPrintable(QString::number(turned)));  // 360°/s · 0.5 s
  const double expected = rockerAngle(ad, ab, bc, cd, th0 + sign * turned) - rk0;
  const double got = sign * (js[3].axis.z() > 0 ? 1 : -1) * f.coords[rockerCoord];
  QVERIFY2(std::abs(std::remainder(got - expected, 2 * kPi)) < 1e-6,
           qPrintable(QStringLiteral("rocker %1, closed form %2").arg(got).arg(expected)));
  QVERIFY(f.maxResidual() < 1e-9);

  // Saved, it opens in mechsim-cli as the same four-bar.
  QTemporaryDir dir;
  const QString path = dir.filePath("built-fourbar.json");
  QVERIFY(w.saveAs(path));
  QVERIFY(w.windowTitle().contains("built-fourbar.json"));
  QProcess cli;
  cli.start(QStringLiteral(MECHSIM_CLI_EXE), {"check", path});
  QVERIFY(cli.waitForFinished(30000));
  const QString out = QString::fromUtf8(cli.readAllStandardOutput());
  QCOMPARE(cli.exitCode(), 0);
  QVERIFY2(out.contains(QRegularExpression("mobility\\s+1")), qPrintable(out));
  QVERIFY2(out.contains(QRegularExpression("drivers\\s+1")), qPrintable(out));
  QVERIFY(w.grab().save(screenshotDir() + "/editing_built_fourbar.png", "PNG"));
}

int main(int argc, char** argv) {
  QSurfaceFormat::setDefaultFormat(Viewport::requiredFormat());
  QApplication app(argc, argv);
  TestEditing t;
  return QTest::qExec(&t, argc, argv);
}
#include "test_editing.moc"
