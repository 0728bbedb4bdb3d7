#pragma once
// ui/autosave.h — no lost work: a modified mechanism is written every 30 s (and before a long
// solve: a deformable part's precomputation, dynamic mode, a study) to the autosave folder next to
// the user's settings; a session that ends normally, or saves, removes its copy. One that was
// killed leaves it behind, and the next start offers it (MainWindow::offerRecovery).
//
// A copy is two files in autosaveDir(): `session-PID.json`, the mechanism in the native format at
// the pose reached (as File → Save writes it, atomically), and `session-PID.info`, a line of JSON
// naming the file it came from and when it was written. A copy whose process is still running
// belongs to another window and is left alone.
#include <vector>

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>

namespace mechsim::ui {

class MainWindow;

/// A copy left by a session that did not end: the autosaved file, the file it was a copy of
/// ("" for a mechanism never saved), when it was written.
struct AutosavedCopy {
  QString file;
  QString info;
  QString original;
  QDateTime saved;
  qint64 pid = 0;
};

class Autosave : public QObject {
  Q_OBJECT
 public:
  explicit Autosave(MainWindow* window);
  ~Autosave() override;

  /// The folder of the copies: "autosave" beside the settings file (QSettings().fileName()).
  static QString autosaveDir();
  /// Copies of sessions no longer running, newest first.
  static std::vector<AutosavedCopy> orphans();
  /// Removes a copy (both files).
  static void discard(const AutosavedCopy& copy);

  /// The interval (ms; 30 000 unless $MECHSIM_AUTOSAVE_SECONDS says otherwise).
  int interval() const { return timer_.interval(); }
  void setInterval(int ms) { timer_.setInterval(ms); }
  /// Writes this session's copy now when the window's mechanism is modified (else removes a
  /// stale one). False when writing failed (the status bar says why; the session goes on).
  bool saveNow();
  /// Removes this session's copy (the mechanism was saved, or closed without a change kept).
  void clear();
  /// This session's copy (it may not exist).
  QString file() const;
  /// Times a copy was written (tests).
  int writes() const { return writes_; }

 private:
  MainWindow* window_;
  QTimer timer_;
  int writes_ = 0;
};

}  // namespace mechsim::ui
