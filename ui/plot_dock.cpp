// ui/plot_dock.cpp — live curves of frame quantities against time (Qt Charts).
#include "ui/plot_dock.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include "core/io/write.h"
#include "core/sim/dofs.h"
#include "ui/dynamic_mode.h"
#include "ui/history.h"

namespace mechsim::ui {
namespace {
/// At most this many of the latest frames are drawn per curve.
constexpr int kMaxPoints = 4000;
QString qs(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

std::vector<PlotQuantity> plotQuantities(const Model& m) {
  std::vector<PlotQuantity> out;
  const char* axes[3] = {"x", "y", "z"};
  // Joint coordinates, then their velocities, then their accelerations.
  const char* groups[3] = {"Joint coordinates", "Joint velocities", "Joint accelerations"};
  for (int kind = 0; kind < 3; ++kind) {
    for (const Joint& j : m.joints) {
      for (int k = 0; k < j.nCoords; ++k) {
        const int c = j.firstCoord + k;
        const QString name = qs(m.coordNames[c]);
        const QString u = sim::isAngularCoordinate(j, k) ? "rad" : "m";
        const QString label = kind == 0   ? QStringLiteral("%1 (%2)").arg(name, u)
                              : kind == 1 ? QStringLiteral("%1.vel (%2/s)").arg(name, u)
                                          : QStringLiteral("%1.acc (%2/s²)").arg(name, u);
        out.push_back({QObject::tr(groups[kind]), label, [c, kind](const Frame& f) {
                         const VecX& v = kind == 0 ? f.coords : kind == 1 ? f.coordVel : f.coordAcc;
                         return c < v.size() ? v[c] : NAN;
                       }});
      }
    }
  }
  // Body positions.
  for (int b = 0; b < static_cast<int>(m.bodies.size()); ++b) {
    if (m.bodies[b].fixed) continue;
    for (int a = 0; a < 3; ++a)
      out.push_back({QObject::tr("Body positions"), QStringLiteral("%1.%2 (m)").arg(qs(m.bodies[b].name), axes[a]),
                     [b, a](const Frame& f) { return b < static_cast<int>(f.poses.size()) ? f.poses[b].position[a] : NAN; }});
  }
  // Handle positions.
  for (const Handle& h : m.handles) {
    for (int a = 0; a < 3; ++a)
      out.push_back({QObject::tr("Handle positions"), QStringLiteral("%1.%2 (m)").arg(qs(h.name), axes[a]),
                     [h, a](const Frame& f) {
                       return h.body >= 0 && h.body < static_cast<int>(f.poses.size()) ? f.poses[h.body].apply(h.local)[a] : NAN;
                     }});
  }
  // Solver statistics.
  out.push_back({QObject::tr("Solver"), QObject::tr("residual max |Φ|"), [](const Frame& f) { return f.maxResidual(); }});
  out.push_back({QObject::tr("Solver"), QObject::tr("Newton iterations"), [](const Frame& f) { return double(f.stats.iterations); }});
  out.push_back({QObject::tr("Solver"), QObject::tr("solve time (ms)"), [](const Frame& f) { return 1e3 * f.stats.solveSeconds; }});
  // Energy and joint reactions of the dynamic mode.
  appendDynamicPlotQuantities(m, out);
  return out;
}

PlotPanel::PlotPanel(const History* history, QWidget* parent) : QWidget(parent), history_(history) {
  auto* split = new QSplitter(Qt::Horizontal);
  list_ = new QTreeWidget;
  list_->setObjectName("plotQuantities");
  list_->setHeaderLabels({tr("Quantity")});
  list_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  chart_ = new QChart;
  chart_->legend()->setAlignment(Qt::AlignBottom);
  chart_->setMargins(QMargins(4, 4, 4, 4));
  axisX_ = new QValueAxis;
  axisX_->setTitleText(tr("t (s)"));
  axisX_->setLabelFormat("%.3g");
  axisY_ = new QValueAxis;
  axisY_->setLabelFormat("%.4g");
  chart_->addAxis(axisX_, Qt::AlignBottom);
  chart_->addAxis(axisY_, Qt::AlignLeft);
  view_ = new QChartView(chart_);
  view_->setRenderHint(QPainter::Antialiasing);
  // The chart takes some 115 px for its legend, axis title, labels and margins; below 180 px in
  // all Qt Charts elides every axis label to "..." (the plot area no taller than its five labels).
  view_->setMinimumHeight(kMinChartHeight);
  // The quantities with the export button under them; the chart gets the dock's whole height.
  auto* left = new QWidget;
  auto* col = new QVBoxLayout(left);
  col->setContentsMargins(0, 0, 0, 0);
  col->addWidget(list_, 1);
  auto* exportButton = new QPushButton(tr("Export data…"));
  exportButton->setObjectName("plotExport");
  col->addWidget(exportButton);
  split->addWidget(left);
  split->addWidget(view_);
  split->setStretchFactor(1, 3);
  auto* lay = new QHBoxLayout(this);
  lay->setContentsMargins(0, 0, 0, 0);
  lay->addWidget(split);
  connect(exportButton, &QPushButton::clicked, this, &PlotPanel::exportDialog);
  connect(list_, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int) {
    const QVariant v = item->data(0, Qt::UserRole);
    if (!v.isValid()) return;
    const int q = v.toInt();
    const bool on = item->checkState(0) == Qt::Checked;
    if (on == (series_[q] != nullptr)) return;
    if (on) {
      auto* s = new QLineSeries;
      s->setName(quantities_[q].name);
      chart_->addSeries(s);
      s->attachAxis(axisX_);
      s->attachAxis(axisY_);
      series_[q] = s;
    } else {
      chart_->removeSeries(series_[q]);
      delete series_[q];
      series_[q] = nullptr;
    }
    refresh();
  });
  timer_ = new QTimer(this);
  timer_->setInterval(100);
  connect(timer_, &QTimer::timeout, this, [this] {
    if (dirty_) refresh();
  });
  timer_->start();
}

void PlotPanel::setModel(const std::shared_ptr<const Model>& model) {
  for (QLineSeries*& s : series_)
    if (s) chart_->removeSeries(s), delete s, s = nullptr;
  model_ = model;
  quantities_ = model ? plotQuantities(*model) : std::vector<PlotQuantity>{};
  modelQuantities_ = quantities_.size();
  series_.assign(quantities_.size(), nullptr);
  rebuildList();
  refresh();
}

void PlotPanel::setMeasureQuantities(std::vector<PlotQuantity> extra) {
  for (size_t q = modelQuantities_; q < series_.size(); ++q)
    if (series_[q]) chart_->removeSeries(series_[q]), delete series_[q], series_[q] = nullptr;
  quantities_.resize(modelQuantities_);
  series_.resize(modelQuantities_);
  for (PlotQuantity& q : extra) quantities_.push_back(std::move(q));
  series_.resize(quantities_.size(), nullptr);
  rebuildList();
  refresh();
}

void PlotPanel::rebuildList() {
  const QSignalBlocker block(list_);
  list_->clear();
  QTreeWidgetItem* group = nullptr;
  for (int q = 0; q < static_cast<int>(quantities_.size()); ++q) {
    if (!group || group->text(0) != quantities_[q].group) {
      group = new QTreeWidgetItem(list_, {quantities_[q].group});
      group->setExpanded(quantities_[q].group == tr("Joint coordinates"));
    }
    auto* item = new QTreeWidgetItem(group, {quantities_[q].name});
    item->setData(0, Qt::UserRole, q);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(0, q < static_cast<int>(series_.size()) && series_[q] ? Qt::Checked : Qt::Unchecked);
  }
}

void PlotPanel::setPlotted(int quantity, bool on) {
  for (QTreeWidgetItemIterator it(list_); *it; ++it)
    if ((*it)->data(0, Qt::UserRole).isValid() && (*it)->data(0, Qt::UserRole).toInt() == quantity)
      (*it)->setCheckState(0, on ? Qt::Checked : Qt::Unchecked);
}

std::vector<int> PlotPanel::plotted() const {
  std::vector<int> out;
  for (int q = 0; q < static_cast<int>(series_.size()); ++q)
    if (series_[q]) out.push_back(q);
  return out;
}

int PlotPanel::pointCount(int k) const {
  const std::vector<int> p = plotted();
  return k >= 0 && k < static_cast<int>(p.size()) ? static_cast<int>(series_[p[k]]->count()) : 0;
}

void PlotPanel::refresh() {
  dirty_ = false;
  const int n = history_->size(), first = std::max(0, n - kMaxPoints);
  double tMin = 0, tMax = 1, yMin = 0, yMax = 0;
  bool anyY = false;
  if (n > 0) tMin = history_->at(first).t, tMax = history_->back().t;
  for (int q = 0; q < static_cast<int>(series_.size()); ++q) {
    if (!series_[q]) continue;
    QList<QPointF> pts;
    pts.reserve(n - first);
    for (int i = first; i < n; ++i) {
      const Frame& f = history_->at(i);
      const double y = quantities_[q].value(f);
      if (!std::isfinite(y)) continue;
      pts.append(QPointF(f.t, y));
      tMin = std::min(tMin, f.t), tMax = std::max(tMax, f.t);
      if (!anyY) yMin = yMax = y, anyY = true;
      yMin = std::min(yMin, y), yMax = std::max(yMax, y);
    }
    series_[q]->replace(pts);
  }
  if (tMax <= tMin) tMax = tMin + 1;
  const double pad = yMax > yMin ? 0.05 * (yMax - yMin) : std::max(1e-9, 0.05 * std::abs(yMax) + 1e-6);
  axisX_->setRange(tMin, tMax);
  axisY_->setRange(yMin - pad, yMax + pad);
}

void PlotPanel::exportCsv(const QString& path) const {
  std::ostringstream out;
  out.precision(17);
  const std::vector<int> cols = plotted();
  out << "t";
  for (int q : cols) out << ",\"" << quantities_[q].name.toStdString() << "\"";
  out << "\n";
  for (int i = 0; i < history_->size(); ++i) {
    const Frame& f = history_->at(i);
    out << f.t;
    for (int q : cols) {
      const double y = quantities_[q].value(f);
      out << ",";
      if (std::isfinite(y)) out << y;
    }
    out << "\n";
  }
  io::writeFileAtomically(path.toStdString(), out.str());
}

void PlotPanel::exportDialog() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Plot Data"), QString(), tr("CSV files (*.csv)"));
  if (path.isEmpty()) return;
  try {
    exportCsv(path);
  } catch (const std::exception& e) {
    QMessageBox::critical(this, tr("Export failed"), QString::fromStdString(e.what()));
  }
}

}  // namespace mechsim::ui
