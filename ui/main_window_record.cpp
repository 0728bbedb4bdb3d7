// ui/main_window_record.cpp — File → Record Video…: the dialog (ui/record_dialog.h) and the
// recording with its progress (ui/video_recorder.h), on the window's view and state.
#include <QAction>
#include <QFileInfo>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSignalBlocker>
#include <QStatusBar>

#include "ui/main_window.h"
#include "ui/record_dialog.h"
#include "ui/video_recorder.h"
#include "ui/viewport.h"

namespace mechsim::ui {

void MainWindow::recordVideoDialog() {
  if (!model_) return;
  const QString suggested =
      QFileInfo(currentFile_).absolutePath() + "/" + QFileInfo(currentFile_).completeBaseName() + ".mp4";
  const double span = history_.empty() ? 0.0 : history_.back().t - history_.at(0).t;
  RecordDialog dlg(suggested, viewport_->size() * viewport_->devicePixelRatioF(), span, this);
  if (dlg.exec() != QDialog::Accepted) return;
  if (!recordVideo(dlg.request()) && !lastError_.isEmpty()) QMessageBox::critical(this, tr("Recording failed"), lastError_);
}

bool MainWindow::recordVideo(const RecordRequest& request) {
  if (!model_) {
    lastError_ = tr("No mechanism");
    return false;
  }
  // Time stops: the recording starts from the state shown and runs on an engine of its own.
  {
    const QSignalBlocker block(playAction_);
    playAction_->setChecked(false);
    playAction_->setText(tr("&Play"));
  }
  simulation_->pause();
  RecordInput input;
  input.model = model_;
  input.spec = spec_;
  if (frame_.q.size() == model_->nq) input.start = frame_.state();
  History recorded = history_;  // (frames may still arrive: the parts settling after a soft drag)
  input.history = &recorded;
  input.options = options_;
  input.stressColours = stressColouring_;

  QProgressDialog progress(tr("Recording…"), tr("Cancel"), 0, 1, this);
  progress.setObjectName("recordProgress");
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(300);
  QString error;
  long frames = 0;
  const bool ok = mechsim::ui::recordVideo(*viewport_, request, input, [&](long done, long total, const QString& stage) {
    progress.setLabelText(stage.isEmpty() ? tr("Recording frame %1 of %2…").arg(done).arg(total) : stage);
    progress.setMaximum(int(std::min<long>(total, 1 << 30)));
    progress.setValue(int(std::min<long>(done, 1 << 30)));  // runs the event loop (modal): Cancel is live
    return !progress.wasCanceled();
  }, &error, &frames);
  progress.setValue(progress.maximum());
  rebuildScene(false);  // the view shows the window's frame again
  if (!ok && error.isEmpty()) {
    lastError_.clear();
    statusBar()->showMessage(tr("Recording cancelled; nothing written"), 5000);
    return false;
  }
  if (!ok) {
    lastError_ = error;
    return false;
  }
  lastError_.clear();
  statusBar()->showMessage(tr("Recorded %n frame(s) to %1", nullptr, int(frames)).arg(request.path), 5000);
  return true;
}

}  // namespace mechsim::ui
