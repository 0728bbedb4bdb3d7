#pragma once
// tests/ui/window_test_util.h — what the tests that drive a whole MainWindow share: example paths,
// menu actions by their text, and waiting until the worker thread's frames have been shown.
#include <QAction>
#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QString>
#include <QTest>
#include <QWidget>

#include "ui/main_window.h"
#include "ui/simulation_controller.h"

namespace mechsim::test {

/// Settings of this test program only, emptied: QStandardPaths' test mode and the program's own
/// application name, so that no user setting (and no other test's) changes what the window does.
inline void useFreshSettings(const char* application) {
  QStandardPaths::setTestModeEnabled(true);
  QCoreApplication::setOrganizationName("mechsim-tests");
  QCoreApplication::setApplicationName(application);
  QSettings().clear();
}

inline QString mechanism(const char* name) { return QStringLiteral(MECHSIM_SOURCE_DIR "/mechanisms/") + name; }

/// The first action of the window whose text (without '&') contains textPart.
inline QAction* findAction(QWidget* w, const QString& textPart) {
  for (QAction* a : w->findChildren<QAction*>())
    if (a->text().remove('&').contains(textPart)) return a;
  return nullptr;
}

/// Waits until every frame the controller published has been shown and nothing new comes.
inline void waitIdle(ui::MainWindow& w) {
  int stable = 0;
  quint64 last = 0;
  for (int i = 0; i < 400 && stable < 3; ++i) {
    QTest::qWait(30);
    const quint64 published = w.simulation()->controller()->framesPublished();
    const bool caughtUp = w.currentFrame().serial == published && w.simulation()->controller()->requestsPending() == 0;
    stable = caughtUp && published == last ? stable + 1 : 0;
    last = published;
  }
}

/// Opens a file and waits for its first frame and for the worker to go idle.
inline bool openAndWait(ui::MainWindow& w, const QString& path) {
  if (!w.openFile(path)) return false;
  if (!QTest::qWaitFor([&] { return w.modelInfo().model == w.model() && w.currentFrame().serial > 0; }, 20000))
    return false;
  waitIdle(w);
  return true;
}

}  // namespace mechsim::test
