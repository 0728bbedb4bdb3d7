#pragma once
// ui/study_dialog.h — File → Run Study…: a parameter study (core/io/study.h, docs/studies.md) run
// from the GUI on threads beside it, with a progress bar and a Cancel that keeps the finished runs
// (the results table resumes next time), then a scatter plot of an output against a variable and
// the runs' table; "Open Run" writes a run's mechanism (the file with the run's values) and asks the
// main window to open it.
#include <QDialog>
#include <QString>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTimer;
class QChartView;

namespace mechsim::io {
class StudyPlan;
class StudyTable;
class StudyRunner;
}  // namespace mechsim::io

namespace mechsim::ui {

class StudyDialog : public QDialog {
  Q_OBJECT
 public:
  /// Reads the study file; on an error isValid() is false and errorText() says why (FILE:LINE:COL).
  explicit StudyDialog(const QString& studyFile, QWidget* parent = nullptr);
  ~StudyDialog() override;

  bool isValid() const { return plan_ != nullptr; }
  QString errorText() const { return error_; }
  /// The results table's path (default: beside the study file, <name>-results.csv).
  QString resultsPath() const { return resultsPath_; }
  void setResultsPath(const QString& path);
  /// Runs in the table / in the study.
  long doneRuns() const;
  long totalRuns() const;
  bool running() const { return runner_ != nullptr; }
  /// Points in the scatter plot (the finished runs that succeeded).
  int plottedPoints() const { return plotted_; }
  /// Writes run `run`'s mechanism to a native file beside the table and returns its path ("" and
  /// a message on failure).
  QString writeRunMechanism(long run);

 signals:
  /// A run's mechanism to open in the main window.
  void openMechanism(const QString& path);
  /// The study stopped: every run done (complete) or cancelled.
  void finished(bool complete);

 public slots:
  void start();
  void cancel();

 private:
  void poll();
  void loadTable();
  void replot();
  void showSummary();

  std::unique_ptr<io::StudyPlan> plan_;
  std::unique_ptr<io::StudyTable> table_;
  std::unique_ptr<io::StudyRunner> runner_;  // while the study runs
  QString studyFile_, resultsPath_, error_;
  int plotted_ = 0;
  // The finished table: per row its cells (run, variables, outputs, status, error).
  std::vector<QStringList> rows_;

  QLabel* summary_ = nullptr;
  QLabel* status_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPushButton* startButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QPushButton* openButton_ = nullptr;
  QComboBox* xAxis_ = nullptr;
  QComboBox* yAxis_ = nullptr;
  QChartView* chart_ = nullptr;
  QTableWidget* runs_ = nullptr;
  QTimer* timer_ = nullptr;
};

}  // namespace mechsim::ui
