// app/benchmark_edit.cpp — the edit benchmark of the GUI (app/benchmark_edit.h).
#include "app/benchmark_edit.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>

#include "core/spec_path.h"
#include "ui/main_window.h"
#include "ui/viewport.h"

namespace mechsim::ui {
namespace {
struct Timing {
  double request = 0;  // the GUI thread: spec edit, compile, post (editValue / setParameter returns)
  double answer = 0;   // … until the controller's answer arrives (engine compile, assembly)
  double painted = 0;  // … until the new mechanism's frame is painted
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void report(const char* what, const std::vector<Timing>& t) {
  std::vector<double> req, engine, paint, total;
  for (const Timing& x : t) {
    req.push_back(x.request);
    engine.push_back(x.answer - x.request);
    paint.push_back(x.painted - x.answer);
    total.push_back(x.painted);
  }
  std::printf("  %-34s %4zu edits  median %7.2f ms  max %7.2f ms   (medians: GUI thread %6.2f, engine %6.2f, to paint %6.2f)\n",
              what, t.size(), median(total), total.empty() ? 0.0 : *std::max_element(total.begin(), total.end()), median(req),
              median(engine), median(paint));
}
}  // namespace

int benchmarkEdit(MainWindow& window, int rounds) {
  Viewport* view = window.viewport();
  QElapsedTimer clock;
  clock.start();
  while (clock.elapsed() < 60000) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    if (window.modelInfo().model == window.model() && window.model() && window.currentFrame().serial > 0 && view->paintCount() > 0 &&
        window.simulation()->controller()->requestsPending() == 0)
      break;
  }
  if (!window.model() || window.modelInfo().model != window.model()) {
    std::fprintf(stderr, "mechsim: error: the mechanism did not come up within 60 s\n");
    return 1;
  }
  // One edit: request, then wait for the answer and for a paint of the new model's frame.
  bool failed = false;
  auto timeEdit = [&](const std::function<bool()>& request) {
    Timing t;
    QElapsedTimer c;
    const auto before = window.model();
    // The first paint of a frame of the new model (watched from the request on: the answer, the
    // frame and its paint may all come in one pass of the event loop).
    bool painted = false;
    const auto connection = QObject::connect(view, &Viewport::framePainted, view, [&] {
      if (window.model() != before && window.currentFrame().model == window.model() && !painted) {
        painted = true;
        t.painted = c.nsecsElapsed() * 1e-6;
      }
    });
    const auto answered = QObject::connect(&window, &MainWindow::editFinished, view, [&] { t.answer = c.nsecsElapsed() * 1e-6; });
    c.start();
    if (!request()) {
      std::fprintf(stderr, "mechsim: error: edit refused: %s\n", qPrintable(window.lastEditMessage()));
      failed = true;
      QObject::disconnect(connection);
      QObject::disconnect(answered);
      return t;
    }
    t.request = c.nsecsElapsed() * 1e-6;
    while (window.editPending() && c.elapsed() < 30000) QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 1);
    if (window.model() == before) {
      std::fprintf(stderr, "mechsim: error: edit not taken: %s\n", qPrintable(window.lastEditMessage()));
      failed = true;
      QObject::disconnect(connection);
      QObject::disconnect(answered);
      return t;
    }
    while (c.elapsed() < 30000 && !painted) QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 1);
    QObject::disconnect(connection);
    QObject::disconnect(answered);
    // Let the worker go idle before the next one.
    while (window.simulation()->controller()->requestsPending() > 0) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    return t;
  };

  const MechanismSpec& spec0 = *window.spec();
  std::string body, joint;
  for (const BodySpec& b : spec0.bodies)
    if (!b.fixed) {
      body = b.name;
      break;
    }
  for (const JointSpec& j : spec0.joints)
    if (j.type != JointType::Distance) {
      joint = j.name;
      break;
    }
  std::vector<Timing> mass, point, param, all;
  std::printf("edit benchmark: %s, %zu bodies, %zu joints, view %dx%d\n", qPrintable(QFileInfo(window.currentFile()).fileName()),
              spec0.bodies.size(), spec0.joints.size(), view->width(), view->height());
  for (int r = 0; r < rounds && !failed; ++r) {
    if (!body.empty()) {
      const QString path = QString::fromStdString("bodies." + body + ".mass");
      const SpecValue now = getSpecValue(*window.spec(), path.toStdString());
      const double m = now.numbers.empty() ? 1.0 : now.numbers[0];
      SpecValue v;
      v.numbers = {r % 2 ? m / 1.01 : m * 1.01};
      v.count = 1;
      mass.push_back(timeEdit([&] { return window.editValue(path, v, "mass"); }));
    }
    if (!joint.empty() && !failed) {
      const QString path = QString::fromStdString("joints." + joint + ".point");
      SpecValue v = getSpecValue(*window.spec(), path.toStdString());
      v.numbers[0] += r % 2 ? -1e-4 : 1e-4;
      point.push_back(timeEdit([&] { return window.editValue(path, v, "point"); }));
    }
    for (const ParameterSpec& p : window.spec()->parameters) {
      if (!p.expression.empty() || failed) continue;
      const QString name = QString::fromStdString(p.name);
      const double value = r % 2 ? p.value / 1.01 : p.value * 1.01;
      param.push_back(timeEdit([&] { return window.setParameter(name, value, true); }));
      break;
    }
  }
  if (failed) return 1;
  // The baseline: what changing a value cost before the editor — edit the file elsewhere, then
  // File → Reload (read, compile, the engine's compile with the sliders' range search, the first
  // frame painted).
  std::vector<Timing> reload;
  const QString file = window.currentFile();
  for (int r = 0; r < 5; ++r) {
    Timing t;
    QElapsedTimer c;
    bool painted = false;
    const auto connection = QObject::connect(view, &Viewport::framePainted, view, [&] {
      if (!painted && window.currentFrame().serial > 0 && window.currentFrame().model == window.model() &&
          window.modelInfo().model == window.model()) {
        painted = true;
        t.painted = c.nsecsElapsed() * 1e-6;
      }
    });
    c.start();
    if (!window.openFile(file)) return 1;
    t.request = t.answer = c.nsecsElapsed() * 1e-6;
    while (c.elapsed() < 60000 && !painted) QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 1);
    QObject::disconnect(connection);
    while (window.simulation()->controller()->requestsPending() > 0) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    reload.push_back(t);
  }
  report(("inspector: " + body + " mass").c_str(), mass);
  report(("inspector: joint " + joint + " point").c_str(), point);
  if (!param.empty()) report("parameter move", param);
  report("baseline: File → Reload", reload);
  for (const auto* v : {&mass, &point, &param}) all.insert(all.end(), v->begin(), v->end());
  std::vector<double> total, reloads;
  for (const Timing& t : all) total.push_back(t.painted);
  for (const Timing& t : reload) reloads.push_back(t.painted);
  std::printf("reload / edit (medians): %.1f×\n", median(reloads) / std::max(median(total), 1e-9));
  std::printf("edit_ms_median %.2f\n", median(total));
  std::printf("edit_ms_max %.2f\n", total.empty() ? 0.0 : *std::max_element(total.begin(), total.end()));
  return 0;
}

}  // namespace mechsim::ui
