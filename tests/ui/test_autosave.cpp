// tests/ui/test_autosave.cpp — no lost work (ui/autosave.h): a GUI session (autosave_session) is
// killed with SIGKILL in the middle of editing the four-bar; the next window finds the copy it
// left, offers it, and opening it shows the edited mechanism with the original file as the
// document, modified; declining removes the copy. In one session: the copy is written only while
// the mechanism is modified, Save removes it, and closing a modified window asks first (Cancel
// keeps the window, Discard closes it and removes the copy).
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QtTest>

#include "core/io/load.h"
#include "ui/autosave.h"
#include "ui/main_window.h"
#include "ui/viewport.h"
#include "window_test_util.h"

using namespace mechsim;
using namespace mechsim::ui;
using namespace mechsim::test;

namespace {
/// Runs autosave_session on `file` until it has autosaved, then kills it (SIGKILL).
bool killedMidEdit(const QString& file) {
  QProcess child;
  child.setProgram(QStringLiteral(MECHSIM_AUTOSAVE_SESSION));
  child.setArguments({file});
  child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
  child.start();
  if (!child.waitForStarted(10000)) return false;
  QByteArray out;
  QElapsedTimer clock;
  clock.start();
  while (!out.contains("autosaved") && clock.elapsed() < 60000 && child.state() == QProcess::Running) {
    child.waitForReadyRead(200);
    out += child.readAllStandardOutput();
  }
  QTest::qWait(300);  // more edits and copies: killed in the middle of them
  child.kill();       // SIGKILL
  child.waitForFinished(10000);
  return out.contains("autosaved");
}

const JointSpec* joint(const MechanismSpec& s, const std::string& name) {
  for (const JointSpec& j : s.joints)
    if (j.name == name) return &j;
  return nullptr;
}
}  // namespace

class TestAutosave : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    useFreshSettings("test_ui_autosave");
    QDir(Autosave::autosaveDir()).removeRecursively();
    QVERIFY(dir_.isValid());
    file_ = dir_.filePath("fourbar.json");
    QVERIFY(QFile::copy(mechanism("fourbar.json"), file_));
    QFile::setPermissions(file_, QFile::ReadOwner | QFile::WriteOwner);
  }
  void killedSessionIsOfferedAndOpens();
  void declinedCopyIsRemoved();
  void copyFollowsTheSession();

 private:
  QTemporaryDir dir_;
  QString file_;
};

void TestAutosave::killedSessionIsOfferedAndOpens() {
  QVERIFY(killedMidEdit(file_));
  const auto copies = Autosave::orphans();
  QCOMPARE(copies.size(), std::size_t(1));
  QCOMPARE(copies[0].original, QFileInfo(file_).absoluteFilePath());
  MainWindow w;
  w.resize(1200, 800);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  int asked = 0;
  w.setRecoveryHandler([&](const AutosavedCopy& c) {
    ++asked;
    return c.original == QFileInfo(file_).absoluteFilePath();
  });
  QVERIFY(w.offerRecovery());
  QCOMPARE(asked, 1);
  QVERIFY(QTest::qWaitFor([&] { return w.modelInfo().model == w.model() && w.currentFrame().serial > 0; }, 20000));
  // The edited four-bar (B moved), its original file the document, not saved yet.
  const JointSpec* b = joint(*w.spec(), "B");
  QVERIFY(b);
  QVERIFY2(std::abs(b->point.x() - 0.05) < 1e-9 && std::abs(b->point.y() - 0.09) < 1e-9,
           qPrintable(QStringLiteral("%1 %2").arg(b->point.x()).arg(b->point.y())));
  QCOMPARE(w.currentFile(), QFileInfo(file_).absoluteFilePath());
  QVERIFY(w.isWindowModified());
  QVERIFY(Autosave::orphans().empty());  // the killed session's copy was taken over
  QVERIFY(QFileInfo::exists(w.autosave()->file()));
  // Saved: the original file has the change, this session's copy goes.
  QVERIFY(w.save());
  QVERIFY(!QFileInfo::exists(w.autosave()->file()));
  const MechanismSpec back = io::readMechanismFile(file_.toStdString());
  QVERIFY(std::abs(joint(back, "B")->point.y() - 0.09) < 1e-9);
  QVERIFY(!w.isWindowModified());
  QVERIFY(!w.offerRecovery());  // nothing left to offer
}

void TestAutosave::declinedCopyIsRemoved() {
  QVERIFY(killedMidEdit(file_));
  const auto copies = Autosave::orphans();
  QCOMPARE(copies.size(), std::size_t(1));
  MainWindow w;
  w.setRecoveryHandler([](const AutosavedCopy&) { return false; });
  QVERIFY(!w.offerRecovery());
  QVERIFY(!w.model());
  QVERIFY(!QFileInfo::exists(copies[0].file));
  QVERIFY(!QFileInfo::exists(copies[0].info));
  QVERIFY(Autosave::orphans().empty());
}

void TestAutosave::copyFollowsTheSession() {
  MainWindow w;
  w.resize(1200, 800);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QVERIFY(openAndWait(w, file_));
  // Not modified: no copy.
  QVERIFY(w.autosave()->saveNow());
  QVERIFY(!QFileInfo::exists(w.autosave()->file()));
  QCOMPARE(w.autosave()->interval(), 30000);
  SpecValue mass;
  mass.numbers = {0.7};
  mass.count = 1;
  QVERIFY(w.editValue("bodies.crank.mass", mass, "mass"));
  QVERIFY(QTest::qWaitFor([&] { return !w.editPending(); }, 10000));
  QVERIFY(w.isWindowModified());
  QVERIFY(w.autosave()->saveNow());
  QVERIFY(QFileInfo::exists(w.autosave()->file()));
  // The copy reads back as the edited mechanism.
  const MechanismSpec copy = io::readMechanismFile(w.autosave()->file().toStdString());
  QCOMPARE(*copy.bodies[1].mass, 0.7);
  // Another window's copy (this process) is not an orphan.
  QVERIFY(Autosave::orphans().empty());
  // Closing asks: Cancel keeps the window and the copy; Discard closes and removes it.
  w.setCloseHandler([] { return 2; });
  QVERIFY(!w.close());
  QVERIFY(w.isVisible());
  QVERIFY(QFileInfo::exists(w.autosave()->file()));
  w.setCloseHandler([] { return 1; });
  QVERIFY(w.close());
  QVERIFY(!QFileInfo::exists(w.autosave()->file()));
}

int main(int argc, char** argv) {
  QSurfaceFormat::setDefaultFormat(Viewport::requiredFormat());
  QApplication app(argc, argv);
  TestAutosave t;
  return QTest::qExec(&t, argc, argv);
}
#include "test_autosave.moc"
