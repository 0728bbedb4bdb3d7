#pragma once
// ui/parameter_panel.h — the Parameters dock: one row per parameter of the native file's
// "parameters" section (core/io/parameters.h) — its name, a slider, a spin box in the parameter's
// file units and its unit (SolveSpace's dimension edit, Adams' design variables). Moving one asks
// for the mechanism re-read with that value (valueRequested: live while the slider moves, final
// when it is released or a value is typed); the window re-assembles it and, when the mechanism
// cannot assemble there, the row says why (setError) and the last good value comes back. A
// parameter given as an expression of others ("=2*L1") is shown, not edited: it follows them.
#include <string>
#include <vector>

#include <QWidget>

#include "core/spec.h"

class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QSlider;

namespace mechsim::ui {

class ParameterPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ParameterPanel(QWidget* parent = nullptr);

  /// Rebuilds the rows for `spec`'s parameters (none: a line saying so). The sliders span
  /// [v − s, v + s] around each value v with s = max(|v|, a unit's step), re-centred on every call.
  void setParameters(const MechanismSpec* spec);
  /// Shows the values of `spec` without rebuilding (an accepted or refused change); a row being
  /// dragged keeps the user's value.
  void showValues(const MechanismSpec* spec);
  /// The reason a value was refused, under its row (empty: clears it).
  void setError(const std::string& name, const QString& message);
  QString error(const std::string& name) const;

  int count() const { return static_cast<int>(rows_.size()); }
  QSlider* slider(const std::string& name) const;
  QDoubleSpinBox* spinBox(const std::string& name) const;

  static constexpr int kSteps = 1000;

 signals:
  /// The user moves parameter `name` to `value` (file units); `final`: the gesture ended.
  void valueRequested(const QString& name, double value, bool final);

 private:
  struct Row {
    std::string name;
    double lower = 0, upper = 1;
    QSlider* slider = nullptr;
    QDoubleSpinBox* spin = nullptr;
    QLabel* error = nullptr;
  };
  double fromSlider(const Row& r, int pos) const { return r.lower + (r.upper - r.lower) * pos / kSteps; }
  int toSlider(const Row& r, double v) const;
  const Row* row(const std::string& name) const;
  QGridLayout* grid_ = nullptr;
  QLabel* empty_ = nullptr;
  std::vector<Row> rows_;
};

}  // namespace mechsim::ui
