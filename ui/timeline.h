#pragma once
// ui/timeline.h — the time bar: play / pause, single step and reset (the window's actions, so
// they share their shortcuts), the speed, and a slider that scrubs through the session's recorded
// history (ui/history.h): moving it shows the recorded frame at that position, and going on from
// there (a slider move, play, a drag) replaces what was recorded after it.
#include <QWidget>

class QAction;
class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace mechsim::ui {

class Timeline : public QWidget {
  Q_OBJECT
 public:
  Timeline(QAction* play, QAction* step, QAction* reset, QWidget* parent = nullptr);

  /// The history holds n frames; the slider shows position `index` at time t.
  void setHistory(int n, int index, double t);
  QSlider* scrubber() const { return scrub_; }
  QDoubleSpinBox* speedBox() const { return speed_; }
  double speed() const;

 signals:
  void scrubbed(int index);
  void speedChanged(double speed);

 private:
  QSlider* scrub_ = nullptr;
  QDoubleSpinBox* speed_ = nullptr;
  QLabel* time_ = nullptr;
};

}  // namespace mechsim::ui
