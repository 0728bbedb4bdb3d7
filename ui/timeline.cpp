// ui/timeline.cpp — play controls, speed and history scrubber.
#include "ui/timeline.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>

namespace mechsim::ui {

Timeline::Timeline(QAction* play, QAction* step, QAction* reset, QWidget* parent) : QWidget(parent) {
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(6, 2, 6, 2);
  for (QAction* a : {reset, play, step}) {
    auto* b = new QToolButton;
    b->setDefaultAction(a);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    row->addWidget(b);
  }
  row->addWidget(new QLabel(tr("Speed")));
  speed_ = new QDoubleSpinBox;
  speed_->setObjectName("speed");
  speed_->setRange(0.05, 20.0);
  speed_->setSingleStep(0.25);
  speed_->setDecimals(2);
  speed_->setValue(1.0);
  speed_->setSuffix(QStringLiteral(" ×"));
  speed_->setToolTip(tr("Simulated seconds per second of display"));
  row->addWidget(speed_);
  scrub_ = new QSlider(Qt::Horizontal);
  scrub_->setObjectName("timelineScrubber");
  scrub_->setRange(0, 0);
  scrub_->setToolTip(tr("Recorded history: drag to go back in time"));
  row->addWidget(scrub_, 1);
  time_ = new QLabel;
  time_->setMinimumWidth(190);
  row->addWidget(time_);
  connect(speed_, &QDoubleSpinBox::valueChanged, this, &Timeline::speedChanged);
  connect(scrub_, &QSlider::valueChanged, this, [this](int i) {
    // Only the user's moves scrub; setHistory updates it silently.
    emit scrubbed(i);
  });
  setHistory(0, 0, 0);
}

double Timeline::speed() const { return speed_->value(); }

void Timeline::setHistory(int n, int index, double t) {
  {
    const QSignalBlocker block(scrub_);
    scrub_->setRange(0, std::max(0, n - 1));
    if (!scrub_->isSliderDown()) scrub_->setValue(index);
  }
  time_->setText(tr("t = %1 s   frame %2 / %3").arg(t, 0, 'f', 3).arg(n ? index + 1 : 0).arg(n));
}

}  // namespace mechsim::ui
