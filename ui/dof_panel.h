#pragma once
// ui/dof_panel.h — the DOF panel: one row per driver and per independent coordinate found by
// the mobility analysis (core/sim/dofs.h): name, a slider over the DOF's range (the file's
// limits, else the reachable range), a spin box in display units (degrees for angles, metres for
// lengths) and, for a file driver, "f(t)": the driver follows its expression of t when time runs.
// The panel only asks (valueRequested); the sliders show what the controller reports (showFrame).
// A turning DOF (sim::isTurning: a crank) shows its unwrapped angle in the spin box (2520° after
// seven turns); its slider is a dial over one turn, and a move of it goes to the representative
// of the slider's angle nearest the value shown (the crank keeps its turns, and never jumps by one).
#include <vector>

#include <QWidget>

#include "core/sim/dofs.h"
#include "ui/simulation_controller.h"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QGridLayout;

namespace mechsim::ui {

using DofInfo = sim::DofInfo;
using DofKind = sim::DofKind;

class DofPanel : public QWidget {
  Q_OBJECT
 public:
  explicit DofPanel(QWidget* parent = nullptr);

  /// Rebuilds the rows for a model's DOFs.
  void setDofs(const std::vector<DofInfo>& dofs);
  /// Shows the values of a frame (without echoing them back as requests); a row the user is
  /// moving keeps the user's value.
  void showFrame(const Frame& f);

  int count() const { return static_cast<int>(rows_.size()); }
  const DofInfo& dof(int i) const { return rows_[i].info; }
  QSlider* slider(int i) const { return rows_[i].slider; }
  QDoubleSpinBox* spinBox(int i) const { return rows_[i].spin; }
  QCheckBox* followBox(int i) const { return rows_[i].follow; }

  /// Display value ↔ SI (degrees for angles).
  static double toDisplay(const DofInfo& d, double si);
  static double fromDisplay(const DofInfo& d, double shown);
  /// Slider position ↔ SI value over [lower, upper] in kSteps steps. A turning DOF's value is
  /// first brought into its turn [lower, lower + 2π); fromSlider gives the angle of that turn, which
  /// `near` (the value shown) unwraps (sim::unwrapNear).
  static constexpr int kSteps = 1000;
  static int toSlider(const DofInfo& d, double si);
  static double fromSlider(const DofInfo& d, int pos);
  static double fromSlider(const DofInfo& d, int pos, double near);
  /// The value row i shows (SI; unwrapped for a turning DOF).
  double value(int i) const { return rows_[i].value; }

 signals:
  void valueRequested(int dof, double value);   // SI
  void followRequested(int dof, bool follows);
  /// An edit begins (slider pressed, or a one-shot change) and ends: undo brackets.
  /// oneShot: a keyboard step or spin box entry (consecutive ones of a DOF merge in the undo
  /// history), not the end of a slider drag.
  void editStarted(int dof);
  void editFinished(int dof, bool oneShot);

 private:
  struct Row {
    DofInfo info;
    QLabel* label = nullptr;
    QSlider* slider = nullptr;
    QDoubleSpinBox* spin = nullptr;
    QCheckBox* follow = nullptr;
    double value = 0;  // the value shown (SI): the last frame's, or the last one asked for
  };
  /// Shows value v in row r's slider, spin box and tooltip (without signals).
  void showValue(Row& r, double v, bool slider, bool spin);
  void clearRows();
  QGridLayout* grid_ = nullptr;
  QLabel* empty_ = nullptr;
  std::vector<Row> rows_;
};

}  // namespace mechsim::ui
