// ui/dof_panel.cpp — sliders and spin boxes of the DOFs.
#include "ui/dof_panel.h"

#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

namespace mechsim::ui {
namespace {
constexpr double kRadToDeg = 180.0 / 3.14159265358979323846;
constexpr double kTwoPi = 6.283185307179586;
/// The spin box of a turning DOF spans ± this many degrees (some 2800 turns each way: 46 minutes of
/// play at one turn a second; a wider box would take the slider's room).
constexpr double kTurningSpinDegrees = 1e6;
}

DofPanel::DofPanel(QWidget* parent) : QWidget(parent) {
  auto* outer = new QVBoxLayout(this);
  grid_ = new QGridLayout;
  grid_->setColumnStretch(1, 1);
  outer->addLayout(grid_);
  empty_ = new QLabel(tr("No degrees of freedom to drive."));
  empty_->setWordWrap(true);
  outer->addWidget(empty_);
  outer->addStretch(1);
}

double DofPanel::toDisplay(const DofInfo& d, double si) { return d.angular ? si * kRadToDeg : si; }
double DofPanel::fromDisplay(const DofInfo& d, double shown) { return d.angular ? shown / kRadToDeg : shown; }

int DofPanel::toSlider(const DofInfo& d, double si) {
  const double span = d.upper - d.lower;
  if (!(span > 0)) return 0;
  // A turning DOF: the angle within the turn the slider spans.
  if (sim::isTurning(d) && std::isfinite(si)) si = d.lower + (si - d.lower - kTwoPi * std::floor((si - d.lower) / kTwoPi));
  return static_cast<int>(std::lround(std::clamp((si - d.lower) / span, 0.0, 1.0) * kSteps));
}

double DofPanel::fromSlider(const DofInfo& d, int pos) { return d.lower + (d.upper - d.lower) * pos / double(kSteps); }

double DofPanel::fromSlider(const DofInfo& d, int pos, double near) {
  const double v = fromSlider(d, pos);
  return sim::isTurning(d) && std::isfinite(near) ? sim::unwrapNear(v, near) : v;
}

void DofPanel::showValue(Row& r, double v, bool slider, bool spin) {
  if (slider) {
    const QSignalBlocker block(r.slider);
    r.slider->setValue(toSlider(r.info, v));
  }
  if (spin) {
    const QSignalBlocker block(r.spin);
    r.spin->setValue(toDisplay(r.info, v));
  }
  // A turning DOF's slider shows one turn; its tooltip counts the turns.
  if (sim::isTurning(r.info)) {
    const double deg = toDisplay(r.info, v);
    const double turns = std::floor((v - r.info.lower) / kTwoPi);
    r.slider->setToolTip(tr("%1°: one turn of the dial (from %2° to %3°) after %n whole turn(s)", nullptr, int(turns))
                             .arg(deg, 0, 'f', 1)
                             .arg(toDisplay(r.info, r.info.lower + turns * kTwoPi), 0, 'f', 1)
                             .arg(toDisplay(r.info, r.info.lower + (turns + 1) * kTwoPi), 0, 'f', 1));
  }
}

void DofPanel::clearRows() {
  for (Row& r : rows_) {
    delete r.label;
    delete r.slider;
    delete r.spin;
    delete r.follow;
  }
  rows_.clear();
}

void DofPanel::setDofs(const std::vector<DofInfo>& dofs) {
  clearRows();
  empty_->setVisible(dofs.empty());
  for (int i = 0; i < static_cast<int>(dofs.size()); ++i) {
    Row r;
    r.info = dofs[i];
    const DofInfo& d = r.info;
    const bool turning = sim::isTurning(d);
    const QString unit = d.angular ? QStringLiteral("°") : QStringLiteral("m");
    const QString kind = d.kind == DofKind::Driver ? tr("driver") : tr("coordinate");
    r.label = new QLabel(QStringLiteral("%1 [%2]").arg(QString::fromStdString(d.name), unit));
    r.label->setToolTip(d.kind == DofKind::Driver
                            ? tr("Driver %1 = %2; range %3").arg(QString::fromStdString(d.name), QString::fromStdString(d.expression),
                                                                  d.limitsFromFile ? tr("from the file") : tr("reachable"))
                            : tr("Independent coordinate %1 (mobility analysis); range %2")
                                  .arg(QString::fromStdString(d.name), d.limitsFromFile ? tr("from the file") : tr("reachable")));
    if (turning)
      r.label->setToolTip(r.label->toolTip() + tr("; it turns without end: the box shows the angle with its whole turns, the slider one turn"));
    r.slider = new QSlider(Qt::Horizontal);
    r.slider->setRange(0, kSteps);
    r.slider->setObjectName(QStringLiteral("dofSlider%1").arg(i));
    r.slider->setAccessibleName(QStringLiteral("%1 %2").arg(kind, QString::fromStdString(d.name)));
    r.spin = new QDoubleSpinBox;
    r.spin->setObjectName(QStringLiteral("dofSpin%1").arg(i));
    r.spin->setDecimals(d.angular ? 2 : 4);
    // A turning DOF's spin box shows the angle unwrapped (sim::isTurning): no bound of a turn.
    if (turning) r.spin->setRange(-kTurningSpinDegrees, kTurningSpinDegrees);
    else r.spin->setRange(toDisplay(d, d.lower), toDisplay(d, d.upper));
    r.value = 0.5 * (d.lower + d.upper);
    r.spin->setSingleStep(d.angular ? 1.0 : 0.001);
    r.spin->setSuffix(d.angular ? QStringLiteral(" °") : QStringLiteral(" m"));
    r.spin->setKeyboardTracking(false);
    r.spin->setMinimumWidth(100);
    grid_->addWidget(r.label, i, 0);
    grid_->addWidget(r.slider, i, 1);
    grid_->addWidget(r.spin, i, 2);
    if (d.kind == DofKind::Driver) {
      r.follow = new QCheckBox(QStringLiteral("f(t)"));
      r.follow->setToolTip(tr("Follow the driver's expression %1 while time runs").arg(QString::fromStdString(d.expression)));
      r.follow->setChecked(true);
      grid_->addWidget(r.follow, i, 3);
      connect(r.follow, &QCheckBox::toggled, this, [this, i](bool on) { emit followRequested(i, on); });
    }
    // A slider drag is one edit; a keyboard step or a spin box entry is a one-shot edit.
    QSlider* slider = r.slider;
    connect(slider, &QSlider::sliderPressed, this, [this, i] { emit editStarted(i); });
    connect(slider, &QSlider::sliderReleased, this, [this, i] { emit editFinished(i, false); });
    connect(slider, &QSlider::valueChanged, this, [this, i, slider](int pos) {
      // A turning DOF: the slider's angle nearest the value shown (its turns kept).
      Row& row = rows_[i];
      const double v = fromSlider(row.info, pos, row.value);
      row.value = v;
      showValue(row, v, false, true);
      if (slider->isSliderDown()) {
        emit valueRequested(i, v);
      } else {
        emit editStarted(i);
        emit valueRequested(i, v);
        emit editFinished(i, true);
      }
    });
    connect(r.spin, &QDoubleSpinBox::valueChanged, this, [this, i](double shown) {
      Row& row = rows_[i];
      const double v = fromDisplay(row.info, shown);
      row.value = v;
      showValue(row, v, true, false);
      emit editStarted(i);
      emit valueRequested(i, v);
      emit editFinished(i, true);
    });
    rows_.push_back(r);
  }
}

void DofPanel::showFrame(const Frame& f) {
  for (int i = 0; i < count() && i < static_cast<int>(f.dofValues.size()); ++i) {
    Row& r = rows_[i];
    // The engine keeps a turning DOF's value unwrapped (a driver's 360 · t, a slider's value, a
    // drag's: sim::unwrapNear), so the frame's value is shown as it is. A slider being dragged
    // keeps the user's value (its unwrapping goes on from there).
    const double v = f.dofValues[i];
    const bool down = r.slider->isSliderDown();
    if (!down) r.value = v;
    showValue(r, v, !down, !r.spin->hasFocus());
    if (r.follow && i < static_cast<int>(f.dofFollows.size())) {
      const QSignalBlocker block(r.follow);
      r.follow->setChecked(f.dofFollows[i] != 0);
    }
  }
}

}  // namespace mechsim::ui
