// app/benchmark_dynamic.cpp — the dynamic-mode benchmark of the GUI (app/benchmark_dynamic.h).
#include "app/benchmark_dynamic.h"

#include <cstdio>
#include <functional>

#include <QAction>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QTimer>

#include "ui/main_window.h"
#include "ui/viewport.h"

namespace mechsim::ui {

int benchmarkDynamic(MainWindow& window, double seconds) {
  Viewport* view = window.viewport();
  auto waitFor = [](const std::function<bool()>& ready, int ms) {
    QElapsedTimer clock;
    clock.start();
    while (!ready() && clock.elapsed() < ms) QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return ready();
  };
  if (!waitFor([&] { return window.model() && window.modelInfo().model == window.model() && window.currentFrame().serial > 0 &&
                            view->paintCount() > 0; },
               60000)) {
    std::fprintf(stderr, "mechsim: error: the mechanism did not come up within 60 s\n");
    return 1;
  }
  auto* dynamic = window.findChild<QAction*>("dynamicModeAction");
  auto* play = window.findChild<QAction*>("playAction");
  if (!dynamic || !play) {
    std::fprintf(stderr, "mechsim: error: no Dynamic mode / Play action\n");
    return 1;
  }
  dynamic->setChecked(true);
  if (!waitFor([&] { return window.currentFrame().dynamic; }, 30000)) {
    std::fprintf(stderr, "mechsim: error: dynamic mode did not start: %s\n", window.currentFrame().stats.message.c_str());
    return 1;
  }
  // Count the dynamic frames that reach the screen, their simulated time and their solve times.
  long frames = 0;
  double solveSeconds = 0;
  quint64 lastSerial = window.currentFrame().serial;
  const double t0 = window.currentFrame().t;
  QObject::connect(view, &Viewport::framePainted, view, [&] {
    const auto& f = window.currentFrame();
    if (f.serial == lastSerial || !f.dynamic) return;
    lastSerial = f.serial;
    ++frames;
    solveSeconds += f.stats.solveSeconds;
  });
  QElapsedTimer run;
  run.start();
  play->trigger();
  QEventLoop loop;
  QTimer::singleShot(static_cast<int>(1000 * seconds), &loop, &QEventLoop::quit);
  loop.exec();
  const double wall = run.elapsed() * 1e-3;
  const double simulated = window.currentFrame().t - t0;
  const double shown = window.realTimeFactor();
  if (play->isChecked()) play->trigger();  // pause
  const bool failed = !window.currentFrame().stats.converged;
  std::printf("dynamic benchmark: %s, %.3f s simulated in %.2f s of wall time at speed 1x, %ld frames painted, "
              "dynamics %.2f ms per frame, status bar \"%.2fx real time\"%s\n",
              qPrintable(QFileInfo(window.currentFile()).fileName()), simulated, wall, frames,
              frames ? 1e3 * solveSeconds / frames : 0.0, shown, failed ? ", the last step failed" : "");
  std::printf("real_time_factor %.3f\n", simulated / wall);
  std::printf("fps %.1f\n", frames / wall);
  return failed || frames == 0 ? 1 : 0;
}

}  // namespace mechsim::ui
