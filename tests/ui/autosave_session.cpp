// tests/ui/autosave_session.cpp — a GUI session for test_ui_autosave to kill: it opens FILE in a
// MainWindow, moves joint B's point (an edit), autosaves every 100 ms, prints "autosaved" once its
// copy is written, and goes on editing (the crank's mass, back and forth) until it is killed.
// Its settings are the test's (QStandardPaths' test mode, the test's application name), so that
// the copy lands in the folder the test's window looks in.
#include <cstdio>

#include <QApplication>
#include <QStandardPaths>
#include <QSurfaceFormat>
#include <QTimer>

#include "ui/main_window.h"
#include "ui/viewport.h"

int main(int argc, char** argv) {
  using namespace mechsim;
  QSurfaceFormat::setDefaultFormat(ui::Viewport::requiredFormat());
  QApplication app(argc, argv);
  QStandardPaths::setTestModeEnabled(true);
  QCoreApplication::setOrganizationName("mechsim-tests");
  QCoreApplication::setApplicationName("test_ui_autosave");
  if (argc < 2) return 2;
  ui::MainWindow w;
  w.show();
  w.autosave()->setInterval(100);
  if (!w.openFile(QString::fromLocal8Bit(argv[1]))) return 1;
  SpecValue point;
  point.numbers = {0.05, 0.09, 0};
  point.count = 3;
  bool edited = false, told = false;
  int k = 0;
  QTimer tick;
  QObject::connect(&tick, &QTimer::timeout, &w, [&] {
    if (!w.model() || w.editPending() || w.modelInfo().model != w.model()) return;
    if (!edited) {
      edited = w.editValue("joints.B.point", point, "point");
      return;
    }
    if (!told && w.autosave()->writes() > 0 && w.isWindowModified()) {
      std::printf("autosaved %s\n", qPrintable(w.autosave()->file()));
      std::fflush(stdout);
      told = true;
    }
    // Mid-edit when the test kills it: the crank's mass, back and forth.
    SpecValue mass;
    mass.numbers = {++k % 2 ? 0.5 : 0.6};
    mass.count = 1;
    if (told) w.editValue("bodies.crank.mass", mass, "mass");
  });
  tick.start(20);
  return app.exec();
}
