#pragma once
// ui/plot_dock.h — live plots (Qt Charts): any joint coordinate, its velocity or acceleration, a
// body's position component, a handle's position component or a solver statistic, against
// time; several curves at once, chosen by ticking them in the list. The curves are read from the
// recorded history (ui/history.h) a few times a second while frames arrive, and the plotted data
// can be written to a CSV file (t, then one column per curve; written atomically).
#include <functional>
#include <vector>

#include <QString>
#include <QWidget>

#include "core/model.h"
#include "ui/simulation_controller.h"

class QChart;
class QChartView;
class QLineSeries;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;
class QValueAxis;

namespace mechsim::ui {

class History;

/// One plottable quantity of a frame.
struct PlotQuantity {
  QString group;   // "Joint coordinates", "Bodies", ...
  QString name;    // "A (rad)", "crank.x (m)", ...
  std::function<double(const Frame&)> value;
};

/// Everything a model offers to plot: per joint coordinate its value, velocity and acceleration;
/// per moving body x, y, z; per handle x, y, z; residual, Newton iterations, solve time.
std::vector<PlotQuantity> plotQuantities(const Model& m);

class PlotPanel : public QWidget {
  Q_OBJECT
 public:
  explicit PlotPanel(const History* history, QWidget* parent = nullptr);

  void setModel(const std::shared_ptr<const Model>& model);
  /// The quantities of the traced points and measures (Measure menu), listed after the model's
  /// under their own groups; the model's curves stay as they were plotted.
  void setMeasureQuantities(std::vector<PlotQuantity> extra);
  /// Ticks / unticks quantity i (as the user would in the list).
  void setPlotted(int quantity, bool on);
  std::vector<int> plotted() const;
  const std::vector<PlotQuantity>& quantities() const { return quantities_; }
  /// Rebuilds the curves from the history now (otherwise a timer does it while it changes).
  void refresh();
  /// Marks the history as changed (the curves are redrawn at the next timer tick).
  void historyChanged() { dirty_ = true; }
  /// Points of curve k (in plotted() order) currently drawn.
  int pointCount(int k) const;
  /// Writes the plotted data: header "t,<curve>,…", one row per recorded frame. Throws.
  void exportCsv(const QString& path) const;
  QChartView* chartView() const { return view_; }
  /// The chart's least height (px): its axis labels whole (ui/plot_dock.cpp).
  static constexpr int kMinChartHeight = 200;

 public slots:
  void exportDialog();

 private:
  void rebuildList();
  const History* history_;
  std::shared_ptr<const Model> model_;
  std::vector<PlotQuantity> quantities_;
  size_t modelQuantities_ = 0;        // quantities_[0, modelQuantities_) are the model's
  std::vector<QLineSeries*> series_;  // (quantities) null when not plotted
  QTreeWidget* list_ = nullptr;
  QChart* chart_ = nullptr;
  QChartView* view_ = nullptr;
  QValueAxis* axisX_ = nullptr;
  QValueAxis* axisY_ = nullptr;
  QTimer* timer_ = nullptr;
  bool dirty_ = false;
};

}  // namespace mechsim::ui
