#pragma once
// ui/export_dialog.h — File → Export trajectory…: what to export (the recorded history, or a
// kinematic run of the file's drivers over a chosen time range with a chosen step) and where
// (.csv: FORMAT.md §3; .json: the same table as JSON). The work itself is
// MainWindow::exportTrajectory (progress bar with cancel, atomic write).
#include <QDialog>
#include <QString>

#include "ui/trajectory_export.h"

class QDoubleSpinBox;
class QLineEdit;
class QRadioButton;

namespace mechsim::ui {

struct ExportRequest {
  QString path;
  bool kinematicRun = false;   // false: the recorded history
  KinematicRunRange range;     // kinematicRun only
};

class ExportDialog : public QDialog {
  Q_OBJECT
 public:
  ExportDialog(const QString& suggestedPath, int historyFrames, QWidget* parent = nullptr);
  ExportRequest request() const;

  QLineEdit* pathEdit() const { return path_; }
  QRadioButton* historyButton() const { return history_; }
  QRadioButton* runButton() const { return run_; }
  QDoubleSpinBox* t0Box() const { return t0_; }
  QDoubleSpinBox* t1Box() const { return t1_; }
  QDoubleSpinBox* dtBox() const { return dt_; }

 private:
  QLineEdit* path_ = nullptr;
  QRadioButton* history_ = nullptr;
  QRadioButton* run_ = nullptr;
  QDoubleSpinBox *t0_ = nullptr, *t1_ = nullptr, *dt_ = nullptr;
};

}  // namespace mechsim::ui
