#pragma once
// ui/record_dialog.h — File → Record Video…: where (an MP4 file, or a folder of PNG images), the
// frame size and rate, what to record (a playback of the drivers from the state shown, a dynamic
// run from it, or the recorded history) and for how long in simulated time. The work itself is
// MainWindow::recordVideo (ui/video_recorder.h: progress with Cancel, atomic write).
#include <QDialog>
#include <QSize>
#include <QString>

#include "ui/video_recorder.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace mechsim::ui {

class RecordDialog : public QDialog {
  Q_OBJECT
 public:
  /// `viewSize`: the 3-D view's size (the default frame size, made even); `historySeconds`: the
  /// recorded history's time span (0: nothing to record from it).
  RecordDialog(const QString& suggestedPath, const QSize& viewSize, double historySeconds, QWidget* parent = nullptr);
  /// The request as the fields say: an MP4 path gets ".mp4" when it has no such ending; a PNG
  /// sequence's path that is neither a folder nor a %0Nd.png pattern is taken as a folder.
  RecordRequest request() const;

  QLineEdit* pathEdit() const { return path_; }
  QComboBox* formatBox() const { return format_; }
  QComboBox* sourceBox() const { return source_; }
  QSpinBox* widthBox() const { return width_; }
  QSpinBox* heightBox() const { return height_; }
  QDoubleSpinBox* fpsBox() const { return fps_; }
  QDoubleSpinBox* durationBox() const { return duration_; }

 private:
  void updateSummary();
  QLineEdit* path_ = nullptr;
  QComboBox* format_ = nullptr;   // 0: MP4, 1: PNG sequence
  QComboBox* source_ = nullptr;   // RecordSource order
  QSpinBox *width_ = nullptr, *height_ = nullptr;
  QDoubleSpinBox* fps_ = nullptr;
  QDoubleSpinBox* duration_ = nullptr;
  QLabel* summary_ = nullptr;
  double historySeconds_ = 0;
};

}  // namespace mechsim::ui
