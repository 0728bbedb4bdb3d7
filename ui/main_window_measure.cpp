// ui/main_window_measure.cpp — MainWindow's Measure menu: traced points (coupler curves),
// distances and angles picked in the view, their plots and their CSV (ui/measures.h).
#include <cmath>

#include <QAction>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

#include "ui/drag_handler.h"
#include "ui/main_window.h"
#include "ui/pick_tool.h"
#include "ui/plot_dock.h"
#include "ui/viewport.h"

namespace mechsim::ui {
namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

const char* kindWord(Measure::Kind k) {
  return k == Measure::Trace ? "trace point" : k == Measure::Distance ? "distance" : "angle";
}
}  // namespace

void MainWindow::buildMeasureMenu() {
  QMenu* menu = menuBar()->addMenu(tr("Mea&sure"));
  QAction* trace = menu->addAction(tr("&Trace Point"), this, [this] { beginMeasureTool(Measure::Trace); });
  trace->setObjectName("tracePointAction");
  trace->setShortcut(QKeySequence(Qt::Key_T));
  trace->setToolTip(tr("Click a point of a body: the curve it draws is traced in the view, and its position, velocity and "
                       "acceleration are offered in the plots (T)"));
  QAction* dist = menu->addAction(tr("&Distance"), this, [this] { beginMeasureTool(Measure::Distance); });
  dist->setObjectName("measureDistanceAction");
  dist->setToolTip(tr("Click two points (on bodies, or on a fixed body for a point of the world): their distance"));
  QAction* angle = menu->addAction(tr("&Angle"), this, [this] { beginMeasureTool(Measure::Angle); });
  angle->setObjectName("measureAngleAction");
  angle->setToolTip(tr("Click three points: the angle at the second between the lines to the first and the third"));
  menu->addSeparator();
  QAction* exp = menu->addAction(tr("&Export Traces…"), this, &MainWindow::exportMeasuresDialog);
  exp->setObjectName("exportTracesAction");
  QAction* clear = menu->addAction(tr("&Clear Measures"), this, &MainWindow::clearMeasures);
  clear->setObjectName("clearMeasuresAction");
}

void MainWindow::beginMeasureTool(Measure::Kind kind) {
  if (!model_) return;
  tool_ = Tool{};
  tool_.kind = Tool::Measure;
  tool_.measure = kind;
  pickTool_->setIgnoredBody(-1);
  viewport_->setMouseHook(pickTool_);
  viewport_->setCursor(Qt::CrossCursor);
  statusBar()->showMessage(kind == Measure::Trace      ? tr("Trace point: click the point of a body to trace — Esc cancels")
                           : kind == Measure::Distance ? tr("Distance: click the first point — Esc cancels")
                                                       : tr("Angle: click the first point — Esc cancels"));
}

void MainWindow::measurePicked(const std::optional<PickHit>& hit) {
  if (!hit || hit->body < 0 || hit->body >= static_cast<int>(frame_.poses.size())) {
    statusBar()->showMessage(tr("Click a point of a body (the ground's for a point of the world) — Esc cancels"));
    return;
  }
  const Pose& P = frame_.poses[hit->body];
  tool_.points.push_back({hit->body, P.orientation.conjugate() * (hit->point - P.position)});
  const Measure::Kind kind = tool_.measure;
  if (static_cast<int>(tool_.points.size()) < pointsNeeded(kind)) {
    statusBar()->showMessage(tr("%1: point %2 on %3; click point %4 — Esc cancels")
                                 .arg(tr(kindWord(kind)))
                                 .arg(tool_.points.size())
                                 .arg(qs(model_->bodies[hit->body].name))
                                 .arg(tool_.points.size() + 1));
    return;
  }
  const std::vector<BodyPoint> points = tool_.points;
  tool_ = Tool{};
  viewport_->setMouseHook(dragHandler_);
  viewport_->unsetCursor();
  addMeasure(kind, points);
}

QString MainWindow::addMeasure(Measure::Kind kind, const std::vector<BodyPoint>& points) {
  if (!model_ || static_cast<int>(points.size()) != pointsNeeded(kind)) return {};
  for (const BodyPoint& p : points)
    if (p.body < 0 || p.body >= static_cast<int>(model_->bodies.size())) return {};
  Measure ms;
  ms.kind = kind;
  const int n = ++measureCount_[kind];
  ms.name = (kind == Measure::Trace ? "P" : kind == Measure::Distance ? "d" : "angle") + std::to_string(n);
  ms.points = points;
  measures_.push_back(ms);
  traceFrames_ = -1;  // the paths are rebuilt from the history
  updateMeasurePlots();
  rebuildScene(false);
  const std::vector<double> v = measureValues(*model_, frame_, ms);
  statusBar()->showMessage(kind == Measure::Trace      ? tr("%1 traced on %2").arg(qs(ms.name), qs(model_->bodies[points[0].body].name))
                           : kind == Measure::Distance ? tr("%1 = %2 m (in the plots' Measures)").arg(qs(ms.name)).arg(v[0], 0, 'g', 6)
                                                       : tr("%1 = %2° (in the plots' Measures, in rad)")
                                                             .arg(qs(ms.name))
                                                             .arg(v[0] * 180 / M_PI, 0, 'g', 6),
                           8000);
  return qs(ms.name);
}

void MainWindow::clearMeasures() {
  if (tool_.kind == Tool::Measure) cancelTool();
  measures_.clear();
  for (int& c : measureCount_) c = 0;
  tracePaths_.clear();
  traceFrames_ = -1;
  updateMeasurePlots();
  rebuildScene(false);
}

void MainWindow::updateMeasurePlots() {
  std::vector<PlotQuantity> q;
  const std::shared_ptr<const Model> model = model_;
  for (const Measure& ms : measures_) {
    const std::vector<std::string> cols = measureColumns(ms);
    for (size_t c = 0; c < cols.size(); ++c) {
      const bool trace = ms.kind == Measure::Trace;
      const char* unit = !trace ? (ms.kind == Measure::Distance ? "m" : "rad") : c < 3 ? "m" : c < 6 ? "m/s" : "m/s²";
      q.push_back({tr("Measures"), QStringLiteral("%1 (%2)").arg(qs(cols[c]), QString::fromUtf8(unit)),
                   [model, ms, c](const Frame& f) {
                     if (!model || f.q.size() != model->nq) return double(NAN);
                     return measureValues(*model, f, ms)[c];
                   }});
    }
  }
  plots_->setMeasureQuantities(std::move(q));
}

const std::vector<std::vector<Eigen::Vector3d>>& MainWindow::tracePaths() {
  std::vector<const Measure*> traces;
  for (const Measure& ms : measures_)
    if (ms.kind == Measure::Trace) traces.push_back(&ms);
  const bool appended = traceFrames_ >= 0 && tracePaths_.size() == traces.size() && history_.dropped() == traceDropped_ &&
                        traceFrames_ <= history_.size() && traceFrames_ > 0 && history_.at(traceFrames_ - 1).t == traceLastT_;
  if (!appended) {
    tracePaths_.assign(traces.size(), {});
    traceFrames_ = 0;
  }
  if (!model_) return tracePaths_;
  for (int i = traceFrames_; i < history_.size(); ++i) {
    const Frame& f = history_.at(i);
    if (f.q.size() != model_->nq) continue;
    for (size_t k = 0; k < traces.size(); ++k) tracePaths_[k].push_back(pointPosition(*model_, f, traces[k]->points[0]));
  }
  traceFrames_ = history_.size();
  traceDropped_ = history_.dropped();
  traceLastT_ = history_.empty() ? 0.0 : history_.back().t;
  return tracePaths_;
}

bool MainWindow::exportMeasures(const QString& path) {
  if (!model_) {
    lastError_ = tr("No mechanism");
    return false;
  }
  try {
    writeMeasuresCsv(path.toStdString(), *model_, history_, measures_);
  } catch (const std::exception& e) {
    lastError_ = qs(e.what());
    return false;
  }
  statusBar()->showMessage(tr("Exported %n frame(s) of %1 to %2", nullptr, history_.size())
                               .arg(tr("%n measure(s)", nullptr, static_cast<int>(measures_.size())), path),
                           5000);
  return true;
}

void MainWindow::exportMeasuresDialog() {
  if (measures_.empty()) {
    statusBar()->showMessage(tr("Export Traces: trace a point or measure something first (Measure menu)"), 8000);
    return;
  }
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Traces"), QString(), tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  if (!exportMeasures(path)) QMessageBox::warning(this, tr("Export Traces"), lastError_);
}

}  // namespace mechsim::ui
