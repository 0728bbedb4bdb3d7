// ui/study_dialog.cpp — File → Run Study… (ui/study_dialog.h).
//
// The runs go to threads beside the GUI (one per core but one, so that the window stays
// responsive), each computing io::StudyPlan::run and appending to the io::StudyTable as it
// finishes — the command line's runner, so the table is the one `mechsim-cli study` writes and
// either continues the other's. A timer on the GUI thread reads the progress.
#include "ui/study_dialog.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QTableWidget>
#include <QTextStream>
#include <QTimer>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <thread>

#include "core/io/load.h"
#include "core/io/study.h"
#include "core/io/write.h"
#include "core/spec_path.h"

namespace mechsim::ui {

namespace {

/// One CSV line's fields (quotes as the table writes them: "" inside a quoted field).
QStringList csvFields(const QString& line) {
  QStringList out;
  QString cur;
  bool quoted = false;
  for (int i = 0; i < line.size(); ++i) {
    const QChar c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out << cur;
      cur.clear();
    } else {
      cur += c;
    }
  }
  out << cur;
  return out;
}

}  // namespace

StudyDialog::StudyDialog(const QString& studyFile, QWidget* parent) : QDialog(parent), studyFile_(studyFile) {
  setWindowTitle(tr("Run Study — %1").arg(QFileInfo(studyFile).fileName()));
  try {
    plan_ = std::make_unique<io::StudyPlan>(studyFile.toStdString());
  } catch (const std::exception& e) {
    error_ = QString::fromStdString(e.what());
  }
  const QFileInfo fi(studyFile);
  resultsPath_ = fi.absoluteDir().filePath(fi.completeBaseName() + "-results.csv");

  auto* layout = new QVBoxLayout(this);
  summary_ = new QLabel(this);
  summary_->setObjectName("studySummary");
  summary_->setWordWrap(true);
  layout->addWidget(summary_);
  auto* row = new QHBoxLayout;
  progress_ = new QProgressBar(this);
  progress_->setObjectName("studyProgress");
  startButton_ = new QPushButton(tr("&Start"), this);
  startButton_->setObjectName("studyStart");
  cancelButton_ = new QPushButton(tr("&Cancel"), this);
  cancelButton_->setObjectName("studyCancel");
  cancelButton_->setEnabled(false);
  row->addWidget(progress_, 1);
  row->addWidget(startButton_);
  row->addWidget(cancelButton_);
  layout->addLayout(row);
  status_ = new QLabel(this);
  status_->setObjectName("studyStatus");
  layout->addWidget(status_);
  auto* axes = new QHBoxLayout;
  xAxis_ = new QComboBox(this);
  xAxis_->setObjectName("studyX");
  yAxis_ = new QComboBox(this);
  yAxis_->setObjectName("studyY");
  axes->addWidget(new QLabel(tr("Plot"), this));
  axes->addWidget(yAxis_, 1);
  axes->addWidget(new QLabel(tr("against"), this));
  axes->addWidget(xAxis_, 1);
  layout->addLayout(axes);
  chart_ = new QChartView(new QChart, this);
  chart_->setObjectName("studyChart");
  chart_->setMinimumSize(520, 300);
  chart_->setRenderHint(QPainter::Antialiasing);
  layout->addWidget(chart_, 2);
  runs_ = new QTableWidget(this);
  runs_->setObjectName("studyRuns");
  runs_->setSelectionBehavior(QAbstractItemView::SelectRows);
  runs_->setSelectionMode(QAbstractItemView::SingleSelection);
  runs_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  layout->addWidget(runs_, 1);
  openButton_ = new QPushButton(tr("&Open Run's Mechanism"), this);
  openButton_->setObjectName("studyOpenRun");
  openButton_->setEnabled(false);
  layout->addWidget(openButton_);

  if (!plan_) {
    summary_->setText(error_);
    startButton_->setEnabled(false);
    return;
  }
  QStringList vars, outs;
  for (const auto& v : plan_->variables()) vars << QString::fromStdString(v.name);
  for (const auto& o : plan_->outputs()) outs << QString::fromStdString(o.name);
  showSummary();
  xAxis_->addItems(vars);
  yAxis_->addItems(outs);
  progress_->setRange(0, static_cast<int>(std::min<long>(plan_->runs(), 1 << 30)));
  connect(startButton_, &QPushButton::clicked, this, &StudyDialog::start);
  connect(cancelButton_, &QPushButton::clicked, this, &StudyDialog::cancel);
  connect(xAxis_, &QComboBox::currentIndexChanged, this, &StudyDialog::replot);
  connect(yAxis_, &QComboBox::currentIndexChanged, this, &StudyDialog::replot);
  connect(runs_, &QTableWidget::itemSelectionChanged, this,
          [this] { openButton_->setEnabled(!runs_->selectedItems().isEmpty()); });
  connect(openButton_, &QPushButton::clicked, this, [this] {
    const auto sel = runs_->selectedItems();
    if (sel.isEmpty()) return;
    const long run = runs_->item(sel.front()->row(), 0)->text().toLong();
    const QString path = writeRunMechanism(run);
    if (!path.isEmpty()) emit openMechanism(path);
  });
  timer_ = new QTimer(this);
  timer_->setInterval(100);
  connect(timer_, &QTimer::timeout, this, &StudyDialog::poll);
  if (QFile::exists(resultsPath_)) {  // a table from before: show it (Start continues it)
    loadTable();
    replot();
  }
}

StudyDialog::~StudyDialog() { runner_.reset(); }  // stops and joins the runs before the table goes

void StudyDialog::showSummary() {
  QStringList vars, outs;
  for (const auto& v : plan_->variables()) vars << QString::fromStdString(v.name);
  for (const auto& o : plan_->outputs()) outs << QString::fromStdString(o.name);
  summary_->setText(tr("%1 runs of %2 (%3), varying %4; outputs %5.\nResults: %6")
                        .arg(plan_->runs())
                        .arg(QFileInfo(QString::fromStdString(plan_->mechanism())).fileName())
                        .arg(QString::fromStdString(plan_->analysis()))
                        .arg(vars.join(", "))
                        .arg(outs.join(", "))
                        .arg(resultsPath_));
}

void StudyDialog::setResultsPath(const QString& path) {
  resultsPath_ = path;
  if (!plan_) return;
  showSummary();
  rows_.clear();
  runs_->setRowCount(0);
  if (QFile::exists(resultsPath_)) loadTable();
  replot();
}

long StudyDialog::doneRuns() const { return table_ ? table_->doneCount() : static_cast<long>(rows_.size()); }
long StudyDialog::totalRuns() const { return plan_ ? plan_->runs() : 0; }

void StudyDialog::start() {
  if (!plan_ || running()) return;
  try {
    table_.reset();
    table_ = std::make_unique<io::StudyTable>(resultsPath_.toStdString(), *plan_, QFile::exists(resultsPath_));
  } catch (const std::exception& e) {
    status_->setText(QString::fromStdString(e.what()));
    return;
  }
  const int jobs = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
  runner_ = std::make_unique<io::StudyRunner>(*plan_, *table_, jobs);
  startButton_->setEnabled(false);
  cancelButton_->setEnabled(true);
  status_->setText(tr("Running on %1 threads…").arg(jobs));
  timer_->start();
}

void StudyDialog::cancel() {
  if (runner_) runner_->stop();
  status_->setText(tr("Cancelling: the runs under way stop…"));
}

void StudyDialog::poll() {
  const long done = table_ ? table_->doneCount() : 0;
  progress_->setValue(static_cast<int>(done));
  if (!runner_->finished()) return;
  timer_->stop();
  runner_->join();
  const std::string writeError = runner_->error();
  runner_.reset();
  const bool complete = done >= plan_->runs();
  if (complete) {
    try {
      table_->finish();  // sorted by run
    } catch (const std::exception& e) {
      status_->setText(QString::fromStdString(e.what()));
    }
    status_->setText(tr("Complete: %1 runs in %2").arg(done).arg(resultsPath_));
  } else if (!writeError.empty()) {
    status_->setText(QString::fromStdString(writeError));
  } else {
    status_->setText(tr("Cancelled: %1 of %2 runs kept in the table; Start continues it").arg(done).arg(plan_->runs()));
  }
  table_.reset();
  startButton_->setEnabled(!complete);
  cancelButton_->setEnabled(false);
  loadTable();
  replot();
  emit finished(complete);
}

void StudyDialog::loadTable() {
  rows_.clear();
  QFile f(resultsPath_);
  if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return;
  QTextStream in(&f);
  const QStringList header = csvFields(in.readLine());
  while (!in.atEnd()) {
    const QString line = in.readLine();
    if (!line.isEmpty()) rows_.push_back(csvFields(line));
  }
  std::sort(rows_.begin(), rows_.end(), [](const QStringList& a, const QStringList& b) { return a[0].toLong() < b[0].toLong(); });
  runs_->clear();
  runs_->setColumnCount(header.size());
  runs_->setHorizontalHeaderLabels(header);
  runs_->setRowCount(static_cast<int>(rows_.size()));
  for (int r = 0; r < static_cast<int>(rows_.size()); ++r)
    for (int c = 0; c < rows_[r].size() && c < header.size(); ++c) {
      // Numbers shown with 8 digits (the file keeps 17); run, status and error as they are.
      bool number = false;
      const double x = rows_[r][c].toDouble(&number);
      const bool shortened = number && c > 0 && c < header.size() - 2;
      runs_->setItem(r, c, new QTableWidgetItem(shortened ? QString::number(x, 'g', 8) : rows_[r][c]));
    }
  runs_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  progress_->setValue(static_cast<int>(rows_.size()));
}

void StudyDialog::replot() {
  QChart* chart = chart_->chart();
  chart->removeAllSeries();
  for (QAbstractAxis* a : chart->axes()) chart->removeAxis(a);
  plotted_ = 0;
  if (!plan_ || xAxis_->currentIndex() < 0 || yAxis_->currentIndex() < 0) return;
  const int xc = 1 + xAxis_->currentIndex();
  const int yc = 1 + static_cast<int>(plan_->variables().size()) + yAxis_->currentIndex();
  const int statusColumn = 1 + static_cast<int>(plan_->variables().size() + plan_->outputs().size());
  auto* series = new QScatterSeries;
  series->setName(yAxis_->currentText());
  series->setMarkerSize(7);
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (const QStringList& r : rows_) {
    if (r.size() <= statusColumn || r[statusColumn] != "ok") continue;
    const double x = r[xc].toDouble(), y = r[yc].toDouble();
    series->append(x, y);
    x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    ++plotted_;
  }
  chart->addSeries(series);
  auto* ax = new QValueAxis;
  auto* ay = new QValueAxis;
  ax->setTitleText(xAxis_->currentText());
  ay->setTitleText(yAxis_->currentText());
  if (plotted_ > 0) {
    const double px = x1 > x0 ? 0.05 * (x1 - x0) : std::max(1e-9, 0.05 * std::abs(x0));
    const double py = y1 > y0 ? 0.05 * (y1 - y0) : std::max(1e-9, 0.05 * std::abs(y0));
    ax->setRange(x0 - px, x1 + px);
    ay->setRange(y0 - py, y1 + py);
  }
  chart->addAxis(ax, Qt::AlignBottom);
  chart->addAxis(ay, Qt::AlignLeft);
  series->attachAxis(ax);
  series->attachAxis(ay);
  chart->legend()->hide();
  chart->setTitle(tr("%1 against %2 (%3 runs)").arg(yAxis_->currentText(), xAxis_->currentText()).arg(plotted_));
}

QString StudyDialog::writeRunMechanism(long run) {
  if (!plan_ || run < 0 || run >= plan_->runs()) return {};
  try {
    const std::vector<double> values = plan_->values(run);
    std::map<std::string, double> parameters;
    std::vector<std::pair<std::string, double>> paths;
    for (std::size_t k = 0; k < values.size(); ++k) {
      const io::StudyVariable& v = plan_->variables()[k];
      if (v.isParameter) parameters[v.name] = values[k];
      else paths.emplace_back(v.name, values[k]);
    }
    MechanismSpec spec = io::readMechanismFile(plan_->mechanism(), parameters);
    for (const auto& [p, x] : paths) setSpecValue(spec, p, SpecValue{{x}, {}, 1});
    const QFileInfo fi(studyFile_);
    const QString out = QFileInfo(resultsPath_).absoluteDir().filePath(
        QStringLiteral("%1-run-%2.json").arg(fi.completeBaseName()).arg(run));
    io::writeMechanismFile(spec, out.toStdString());
    return out;
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Open Run"), QString::fromStdString(e.what()));
    return {};
  }
}

}  // namespace mechsim::ui
