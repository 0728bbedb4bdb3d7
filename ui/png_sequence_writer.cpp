// ui/png_sequence_writer.cpp — a recording as numbered PNG images (ui/video_writer.h): into a
// folder (frame_0000.png, frame_0001.png, …) or after a pattern such as shots/run_%04d.png, the
// form FFmpeg's image2 reader takes back (`ffmpeg -framerate 30 -i shots/run_%04d.png …`).
//
// Atomic as a whole: the images go into a hidden folder beside their destination and are moved
// into place only by finish() — a new output folder by one rename of the hidden folder, an existing
// one image by image (rename(2) within one file system). An error or abort() removes the hidden
// folder, so a failed recording leaves no part of a sequence; one that fails while moving the
// images into place takes back those it had moved.
#include <filesystem>
#include <vector>

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "ui/video_writer.h"

namespace mechsim::ui {

namespace {

namespace fs = std::filesystem;

/// A folder output: a path ending in '/' or an existing folder (videoFormatOf).
bool isFolderOutput(const QString& path) { return path.endsWith('/') || QFileInfo(path).isDir(); }

class PngSequenceWriter final : public FrameWriter {
 public:
  ~PngSequenceWriter() override { abort(); }

  bool open(const QString& path, const QSize& size, QString* error);
  bool write(const QImage& frame, QString* error) override;
  bool finish(QString* error) override;
  void abort() override { staging_.reset(); }  // QTemporaryDir removes the folder with what is in it
  long frames() const override { return long(names_.size()); }

 private:
  bool fail(QString* error, const QString& what) {
    if (error) *error = QStringLiteral("%1: error: %2").arg(path_, what);
    abort();
    return false;
  }

  QString path_;                            // the output as given
  QString target_;                          // the folder the images end up in
  bool newFolder_ = false;                  // target_ does not exist yet: staging_ becomes it
  QSize size_;
  std::unique_ptr<QTemporaryDir> staging_;  // where the images are written until finish()
  std::vector<QString> names_;              // their file names, in order
};

bool PngSequenceWriter::open(const QString& path, const QSize& size, QString* error) {
  path_ = path;
  size_ = size;
  if (size.width() < 1 || size.height() < 1) return fail(error, QStringLiteral("empty frame size"));
  // The destination folder: the output itself, or the folder of the pattern's file name.
  const QString folder = isFolderOutput(path) ? QDir::cleanPath(QFileInfo(path).absoluteFilePath()) : QFileInfo(path).absolutePath();
  target_ = folder;
  newFolder_ = !QFileInfo(folder).exists();
  // A pattern's folder must be there already; a folder output may be new (its parent must exist).
  if (newFolder_ && !isFolderOutput(path)) return fail(error, QStringLiteral("the folder %1 does not exist").arg(folder));
  if (!newFolder_ && !QFileInfo(folder).isDir()) return fail(error, QStringLiteral("%1 is not a folder").arg(folder));
  // A new folder is made by renaming the staging folder, which must then lie in its parent — and
  // that parent must exist (a typing error in a path should not create a tree of folders).
  const QString parent = newFolder_ ? QFileInfo(folder).absolutePath() : folder;
  if (!QFileInfo(parent).isDir()) return fail(error, QStringLiteral("the folder %1 does not exist").arg(parent));
  staging_ = std::make_unique<QTemporaryDir>(QDir(parent).filePath(QStringLiteral(".mechsim-record-XXXXXX")));
  if (!staging_->isValid()) {
    const QString why = staging_->errorString();
    return fail(error, QStringLiteral("cannot write in %1 (%2)").arg(parent, why));
  }
  return true;
}

bool PngSequenceWriter::write(const QImage& frame, QString* error) {
  if (!staging_) {
    if (error) *error = QStringLiteral("%1: error: the image sequence is not open").arg(path_);
    return false;
  }
  if (frame.size() != size_) return fail(error, QStringLiteral("a frame of another size than the sequence's"));
  const QString name = QFileInfo(pngFramePath(path_, long(names_.size()))).fileName();
  const QString file = QDir(staging_->path()).filePath(name);
  // Opaque RGB (the view's alpha is 1 everywhere): no alpha channel in the files.
  if (!frame.convertToFormat(QImage::Format_RGB32).save(file, "PNG")) return fail(error, QStringLiteral("cannot write %1 (disk full?)").arg(name));
  names_.push_back(name);
  return true;
}

bool PngSequenceWriter::finish(QString* error) {
  if (!staging_) {
    if (error) *error = QStringLiteral("%1: error: the image sequence is not open").arg(path_);
    return false;
  }
  if (names_.empty()) return fail(error, QStringLiteral("no frames recorded"));
  std::error_code ec;
  const fs::path staging = staging_->path().toStdString();
  const fs::path target = target_.toStdString();
  if (newFolder_) {
    // The whole folder at once.
    fs::rename(staging, target, ec);
    if (ec) return fail(error, QStringLiteral("cannot create %1 (%2)").arg(target_, QString::fromStdString(ec.message())));
    staging_->setAutoRemove(false);
    staging_.reset();
    return true;
  }
  // Into an existing folder, image by image; on a failure the images moved so far go back.
  std::vector<QString> moved;
  for (const QString& name : names_) {
    fs::rename(staging / name.toStdString(), target / name.toStdString(), ec);
    if (ec) {
      for (const QString& m : moved) fs::remove(target / m.toStdString(), ec);
      return fail(error, QStringLiteral("cannot move %1 into place (%2)").arg(name, QString::fromStdString(ec.message())));
    }
    moved.push_back(name);
  }
  staging_.reset();  // removes the (now empty) staging folder
  return true;
}

}  // namespace

QString pngFramePath(const QString& path, long index) {
  if (isFolderOutput(path)) return QDir(path).filePath(QStringLiteral("frame_%1.png").arg(index, 4, 10, QLatin1Char('0')));
  // The pattern's one conversion (videoFormatOf): %d, or %0Nd padded with zeros to N digits.
  static const QRegularExpression conversion(QStringLiteral("%(0([1-9]))?d"));
  const QRegularExpressionMatch m = conversion.match(path, path.lastIndexOf('/') + 1);
  if (!m.hasMatch()) return path;
  const int width = m.captured(2).isEmpty() ? 0 : m.captured(2).toInt();
  QString out = path;
  out.replace(m.capturedStart(), m.capturedLength(), QStringLiteral("%1").arg(index, width, 10, QLatin1Char('0')));
  return out;
}

std::unique_ptr<FrameWriter> openPngSequenceWriter(const QString& path, const QSize& size, QString* error) {
  auto w = std::make_unique<PngSequenceWriter>();
  if (!w->open(path, size, error)) return nullptr;
  return w;
}

}  // namespace mechsim::ui
