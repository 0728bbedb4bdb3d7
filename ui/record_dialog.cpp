// ui/record_dialog.cpp — the recording's choices (ui/record_dialog.h).
#include "ui/record_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/video_writer.h"

namespace mechsim::ui {

RecordDialog::RecordDialog(const QString& suggestedPath, const QSize& viewSize, double historySeconds, QWidget* parent)
    : QDialog(parent), historySeconds_(historySeconds) {
  setWindowTitle(tr("Record Video"));
  setObjectName("recordDialog");
  auto* lay = new QVBoxLayout(this);
  auto* form = new QFormLayout;

  source_ = new QComboBox;
  source_->setObjectName("recordSource");
  source_->addItem(tr("Playback: the drivers in time, from the state shown"));
  source_->addItem(tr("Dynamic run: the forces in time, from the state shown"));
  source_->addItem(historySeconds > 0 ? tr("Recorded history (%1 s)").arg(historySeconds, 0, 'g', 4)
                                      : tr("Recorded history (empty)"));
  form->addRow(tr("Record"), source_);

  duration_ = new QDoubleSpinBox;
  duration_->setObjectName("recordDuration");
  duration_->setRange(0.01, 1e5);
  duration_->setDecimals(3);
  duration_->setValue(5);
  duration_->setSuffix(tr(" s of simulated time"));
  form->addRow(tr("Length"), duration_);

  // The frame: the view's size by default (even: H.264's 4:2:0 needs it).
  auto* sizeRow = new QHBoxLayout;
  auto dim = [](int v) {
    auto* b = new QSpinBox;
    b->setRange(16, 8192);
    b->setSingleStep(2);
    b->setValue(std::max(16, v - v % 2));
    return b;
  };
  width_ = dim(viewSize.width() > 0 ? viewSize.width() : 1280);
  height_ = dim(viewSize.height() > 0 ? viewSize.height() : 720);
  width_->setObjectName("recordWidth");
  height_->setObjectName("recordHeight");
  sizeRow->addWidget(width_);
  sizeRow->addWidget(new QLabel(QStringLiteral("×")));
  sizeRow->addWidget(height_);
  sizeRow->addWidget(new QLabel(tr("pixels")));
  sizeRow->addStretch(1);
  form->addRow(tr("Size"), sizeRow);

  fps_ = new QDoubleSpinBox;
  fps_->setObjectName("recordFps");
  fps_->setRange(1, 240);
  fps_->setDecimals(3);
  fps_->setValue(30);
  fps_->setSuffix(tr(" frames per second"));
  form->addRow(tr("Frame rate"), fps_);

  format_ = new QComboBox;
  format_->setObjectName("recordFormat");
  format_->addItem(tr("MP4 video (H.264)"));
  format_->addItem(tr("PNG images in a folder"));
  form->addRow(tr("Format"), format_);
  lay->addLayout(form);

  auto* fileRow = new QHBoxLayout;
  path_ = new QLineEdit(suggestedPath);
  path_->setObjectName("recordPath");
  auto* browse = new QPushButton(tr("Browse…"));
  fileRow->addWidget(new QLabel(tr("Save to")));
  fileRow->addWidget(path_, 1);
  fileRow->addWidget(browse);
  lay->addLayout(fileRow);
  summary_ = new QLabel;
  summary_->setObjectName("recordSummary");
  lay->addWidget(summary_);
  lay->addWidget(new QLabel(tr("<small>Each frame advances the simulation by 1/fps, whatever the time it takes to "
                               "compute: the video plays in real time. The view's camera and display options are "
                               "used.</small>")));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Record"));
  lay->addWidget(buttons);

  // The path follows the format: NAME.mp4 for a video, NAME/ (a folder) for images.
  connect(format_, &QComboBox::currentIndexChanged, this, [this](int index) {
    QString p = path_->text().trimmed();
    if (index == 0 && videoFormatOf(p) != VideoFormat::Mp4) {
      while (p.endsWith('/')) p.chop(1);
      path_->setText(p + QStringLiteral(".mp4"));
    } else if (index == 1 && videoFormatOf(p) == VideoFormat::Mp4) {
      p.chop(4);
      path_->setText(p + QStringLiteral("/"));
    }
    updateSummary();
  });
  for (QDoubleSpinBox* b : {fps_, duration_}) connect(b, &QDoubleSpinBox::valueChanged, this, &RecordDialog::updateSummary);
  connect(source_, &QComboBox::currentIndexChanged, this, &RecordDialog::updateSummary);
  connect(path_, &QLineEdit::textChanged, this, &RecordDialog::updateSummary);
  connect(browse, &QPushButton::clicked, this, [this] {
    QString p;
    if (format_->currentIndex() == 0)
      p = QFileDialog::getSaveFileName(this, tr("Record Video"), path_->text(), tr("MP4 video (*.mp4)"));
    else
      p = QFileDialog::getExistingDirectory(this, tr("Record Images into Folder"), QFileInfo(path_->text()).absolutePath());
    if (!p.isEmpty()) path_->setText(format_->currentIndex() == 0 || p.endsWith('/') ? p : p + QStringLiteral("/"));
  });
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    const RecordRequest r = request();
    const bool history = r.source == RecordSource::History;
    if (!r.path.isEmpty() && r.framesFor(history ? historySeconds_ : r.duration) > 0 && (!history || historySeconds_ > 0))
      accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  if (videoFormatOf(suggestedPath) == VideoFormat::PngSequence) format_->setCurrentIndex(1);
  updateSummary();
}

void RecordDialog::updateSummary() {
  const RecordRequest r = request();
  const bool history = r.source == RecordSource::History;
  duration_->setEnabled(!history);
  const long n = r.framesFor(history ? historySeconds_ : r.duration);
  summary_->setText(n > 0 ? tr("%n frame(s) into %1", nullptr, int(std::min<long>(n, 1 << 30))).arg(r.path)
                          : tr("Nothing to record"));
}

RecordRequest RecordDialog::request() const {
  RecordRequest r;
  QString p = path_->text().trimmed();
  if (!p.isEmpty()) {
    if (format_->currentIndex() == 0 && videoFormatOf(p) != VideoFormat::Mp4) p += QStringLiteral(".mp4");
    if (format_->currentIndex() == 1 && videoFormatOf(p) != VideoFormat::PngSequence) p += QStringLiteral("/");
  }
  r.path = p;
  r.size = QSize(width_->value(), height_->value());
  r.fps = fps_->value();
  r.duration = duration_->value();
  r.source = static_cast<RecordSource>(source_->currentIndex());
  return r;
}

}  // namespace mechsim::ui
