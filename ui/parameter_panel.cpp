// ui/parameter_panel.cpp — spin boxes and sliders over the file's parameters (ui/parameter_panel.h).
#include "ui/parameter_panel.h"

#include <algorithm>
#include <cmath>

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

namespace mechsim::ui {
namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

QString unitText(const MechanismSpec& spec, const ParameterSpec& p) {
  if (p.unit == "length") return qs(spec.units.length);
  if (p.unit == "angle") return qs(spec.units.angle);
  if (p.unit == "mass") return QStringLiteral("kg");
  return {};
}
}  // namespace

ParameterPanel::ParameterPanel(QWidget* parent) : QWidget(parent) {
  auto* outer = new QVBoxLayout(this);
  empty_ = new QLabel(tr("This mechanism has no parameters. A native file names them in its \"parameters\" section "
                         "and uses them as \"=EXPR\" in any number (docs/format.md)."));
  empty_->setWordWrap(true);
  outer->addWidget(empty_);
  auto* holder = new QWidget;
  grid_ = new QGridLayout(holder);
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setColumnStretch(1, 1);
  grid_->setVerticalSpacing(2);
  outer->addWidget(holder);
  outer->addStretch(1);
}

int ParameterPanel::toSlider(const Row& r, double v) const {
  if (!(r.upper > r.lower)) return 0;
  return std::clamp(static_cast<int>(std::lround((v - r.lower) / (r.upper - r.lower) * kSteps)), 0, kSteps);
}

const ParameterPanel::Row* ParameterPanel::row(const std::string& name) const {
  for (const Row& r : rows_)
    if (r.name == name) return &r;
  return nullptr;
}

QSlider* ParameterPanel::slider(const std::string& name) const { return row(name) ? row(name)->slider : nullptr; }
QDoubleSpinBox* ParameterPanel::spinBox(const std::string& name) const { return row(name) ? row(name)->spin : nullptr; }

void ParameterPanel::setParameters(const MechanismSpec* spec) {
  while (QLayoutItem* it = grid_->takeAt(0)) {
    delete it->widget();
    delete it;
  }
  rows_.clear();
  const bool any = spec && !spec->parameters.empty();
  empty_->setVisible(!any);
  if (!any) return;
  int line = 0;
  for (const ParameterSpec& p : spec->parameters) {
    Row r;
    r.name = p.name;
    // A span the slider covers: the value's own size, or a step of its unit when it is near 0.
    const double step = p.unit == "angle" ? (spec->units.angle == "deg" ? 90.0 : 1.5707963267948966)
                        : p.unit == "length" ? 0.1 / spec->units.lengthScale()
                                             : 1.0;
    const double span = std::max(std::abs(p.value), step);
    r.lower = p.value - span;
    r.upper = p.value + span;
    // Lengths and masses below zero make no mechanism; their sliders start at 0.
    if ((p.unit == "length" || p.unit == "mass") && p.value >= 0) r.lower = std::max(r.lower, 0.0);
    auto* name = new QLabel(qs(p.name));
    if (!p.expression.empty()) name->setToolTip(QStringLiteral("= %1").arg(qs(p.expression)));
    r.slider = new QSlider(Qt::Horizontal);
    r.slider->setObjectName(QStringLiteral("paramSlider:%1").arg(qs(p.name)));
    r.slider->setRange(0, kSteps);
    r.spin = new QDoubleSpinBox;
    r.spin->setObjectName(QStringLiteral("param:%1").arg(qs(p.name)));
    r.spin->setDecimals(6);
    r.spin->setRange(-1e9, 1e9);
    r.spin->setKeyboardTracking(false);
    r.spin->setSingleStep(span / 20);
    auto* unit = new QLabel(unitText(*spec, p));
    r.error = new QLabel;
    r.error->setStyleSheet(QStringLiteral("color: #d02020"));
    r.error->setWordWrap(true);
    r.error->hide();
    // A derived parameter follows the others: shown, not edited.
    const bool derived = !p.expression.empty();
    r.slider->setEnabled(!derived);
    r.spin->setEnabled(!derived);
    if (derived) r.spin->setToolTip(tr("= %1 (follows the parameters it names)").arg(qs(p.expression)));
    // Name, value and unit on one line, the slider the dock's width under them (a narrow dock
    // keeps both readable), the refusal under that.
    grid_->addWidget(name, line, 0);
    grid_->addWidget(r.spin, line, 1);
    grid_->addWidget(unit, line, 2);
    grid_->addWidget(r.slider, line + 1, 0, 1, 3);
    grid_->addWidget(r.error, line + 2, 0, 1, 3);
    line += 3;
    rows_.push_back(r);
    const std::string n = p.name;
    connect(r.slider, &QSlider::valueChanged, this, [this, n](int pos) {
      const Row* rr = row(n);
      if (!rr) return;
      const double v = fromSlider(*rr, pos);
      {
        const QSignalBlocker block(rr->spin);
        rr->spin->setValue(v);
      }
      emit valueRequested(qs(n), v, !rr->slider->isSliderDown());
    });
    connect(r.slider, &QSlider::sliderReleased, this, [this, n] {
      if (const Row* rr = row(n)) emit valueRequested(qs(n), rr->spin->value(), true);
    });
    connect(r.spin, &QDoubleSpinBox::valueChanged, this, [this, n](double v) {
      const Row* rr = row(n);
      if (!rr) return;
      {
        const QSignalBlocker block(rr->slider);
        rr->slider->setValue(toSlider(*rr, v));
      }
      emit valueRequested(qs(n), v, true);
    });
  }
  showValues(spec);
}

void ParameterPanel::showValues(const MechanismSpec* spec) {
  if (!spec) return;
  for (const ParameterSpec& p : spec->parameters) {
    const Row* r = row(p.name);
    if (!r || r->slider->isSliderDown()) continue;
    const QSignalBlocker b1(r->slider), b2(r->spin);
    r->spin->setValue(p.value);
    r->slider->setValue(toSlider(*r, p.value));
  }
}

void ParameterPanel::setError(const std::string& name, const QString& message) {
  if (const Row* r = row(name)) {
    r->error->setText(message);
    r->error->setVisible(!message.isEmpty());
  }
}

QString ParameterPanel::error(const std::string& name) const {
  const Row* r = row(name);
  return r && r->error->isVisible() ? r->error->text() : QString();
}

}  // namespace mechsim::ui
