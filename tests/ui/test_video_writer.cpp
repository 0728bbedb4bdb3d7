// tests/ui/test_video_writer.cpp — ui/video_writer.cpp and ui/png_sequence_writer.cpp: synthetic
// frames (a coloured square moving over a gradient) written as H.264 MP4 and decoded back with
// FFmpeg's own decoder (tests/ui/video_decode.h): the frame count, size and rate, the square's
// colour through the BT.709 RGB → YUV → RGB round trip and its position frame by frame; the
// atomic write (nothing at the path before finish(), nothing left after an error or an abort, an
// older file replaced only at the end); PNG sequences into a new folder, an existing one and
// after a %0Nd pattern; the output paths' formats.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include "video_decode.h"
#include "ui/video_writer.h"

using namespace mechsim::ui;
using mechsim::test::decodeVideo;
using mechsim::test::pixelsDiffering;

namespace {

const QColor kSquare(220, 40, 30);
constexpr int kSide = 24;

/// Frame k: a vertical grey gradient, the square at x = 8 + 4k, y = 20.
QImage syntheticFrame(const QSize& size, int k) {
  QImage img(size, QImage::Format_RGB32);
  for (int y = 0; y < size.height(); ++y) {
    const int g = 60 + 120 * y / size.height();
    for (int x = 0; x < size.width(); ++x) img.setPixel(x, y, qRgb(g, g, g + 20));
  }
  for (int y = 20; y < 20 + kSide && y < size.height(); ++y)
    for (int x = 8 + 4 * k; x < 8 + 4 * k + kSide && x < size.width(); ++x) img.setPixel(x, y, kSquare.rgb());
  return img;
}

/// Mean x of the pixels close to the square's colour (−1: none).
double squareX(const QImage& img) {
  double sum = 0;
  long n = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QColor c = img.pixelColor(x, y);
      if (std::abs(c.red() - kSquare.red()) < 40 && std::abs(c.green() - kSquare.green()) < 40 &&
          std::abs(c.blue() - kSquare.blue()) < 40)
        sum += x, ++n;
    }
  return n ? sum / n : -1;
}

QStringList entries(const QString& dir) {
  return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace

class TestVideoWriter : public QObject {
  Q_OBJECT
 private slots:
  void formatsOfPaths();
  void mp4RoundTrip();
  void mp4FractionalRate();
  void mp4Atomic();
  void mp4BadOutputs();
  void pngSequences();
  void pngAtomic();
};

void TestVideoWriter::formatsOfPaths() {
  QTemporaryDir dir;
  QCOMPARE(videoFormatOf("out.mp4"), VideoFormat::Mp4);
  QCOMPARE(videoFormatOf("OUT.MP4"), VideoFormat::Mp4);
  QCOMPARE(videoFormatOf("frames/"), VideoFormat::PngSequence);
  QCOMPARE(videoFormatOf(dir.path()), VideoFormat::PngSequence);  // an existing folder
  QCOMPARE(videoFormatOf("shots/%04d.png"), VideoFormat::PngSequence);
  QCOMPARE(videoFormatOf("shots/run_%d.png"), VideoFormat::PngSequence);
  QCOMPARE(videoFormatOf("shots/run.png"), VideoFormat::Unknown);     // no number
  QCOMPARE(videoFormatOf("shots/%s.png"), VideoFormat::Unknown);      // not an integer conversion
  QCOMPARE(videoFormatOf("shots/%d_%d.png"), VideoFormat::Unknown);   // two
  QCOMPARE(videoFormatOf("out.avi"), VideoFormat::Unknown);
  QCOMPARE(videoFormatOf(""), VideoFormat::Unknown);
  QCOMPARE(pngFramePath("shots/run_%04d.png", 7), QStringLiteral("shots/run_0007.png"));
  QCOMPARE(pngFramePath("shots/run_%d.png", 12), QStringLiteral("shots/run_12.png"));
  QCOMPARE(pngFramePath("a%b/x_%03d.png", 5), QStringLiteral("a%b/x_005.png"));  // only the file name's
  QCOMPARE(pngFramePath("frames/", 3), QStringLiteral("frames/frame_0003.png"));
  QString error;
  QVERIFY(!openFrameWriter(dir.filePath("out.avi"), QSize(64, 64), 30, &error));
  QVERIFY2(error.contains("error:") && error.contains("out.avi"), qPrintable(error));
}

void TestVideoWriter::mp4RoundTrip() {
  QTemporaryDir dir;
  const QString path = dir.filePath("square.mp4");
  const QSize size(160, 96);
  const int n = 24;
  QString error;
  auto w = openFrameWriter(path, size, 24, &error);
  QVERIFY2(w, qPrintable(error));
  for (int k = 0; k < n; ++k) QVERIFY2(w->write(syntheticFrame(size, k), &error), qPrintable(error));
  QVERIFY(!QFile::exists(path));  // only the temporary file until finish()
  QVERIFY2(w->finish(&error), qPrintable(error));
  QCOMPARE(w->frames(), long(n));
  QCOMPARE(entries(dir.path()), QStringList{"square.mp4"});  // the temporary name is gone

  const auto v = decodeVideo(path);
  QVERIFY2(v.error.isEmpty(), qPrintable(v.error));
  QCOMPARE(v.codec, QStringLiteral("h264"));
  QCOMPARE(v.width, size.width());
  QCOMPARE(v.height, size.height());
  QCOMPARE(qRound(v.fps * 1000), 24000);
  QCOMPARE(int(v.frames.size()), n);
  for (int k = 0; k < n; ++k) {
    const QImage& f = v.frames[k];
    // The square's colour after RGB → BT.709 limited-range YUV 4:2:0 → RGB, at its centre (away
    // from the chroma-subsampled edges): within 10 of 255 per channel at CRF 18.
    const QColor c = f.pixelColor(8 + 4 * k + kSide / 2, 20 + kSide / 2);
    QVERIFY2(std::abs(c.red() - kSquare.red()) <= 10 && std::abs(c.green() - kSquare.green()) <= 10 &&
                 std::abs(c.blue() - kSquare.blue()) <= 10,
             qPrintable(QStringLiteral("frame %1: square %2 %3 %4").arg(k).arg(c.red()).arg(c.green()).arg(c.blue())));
    // Where it was drawn: its centre x = 8 + 4k + (side − 1)/2, to a pixel (the frames are in order).
    const double x = squareX(f);
    QVERIFY2(std::abs(x - (8 + 4 * k + (kSide - 1) / 2.0)) < 1.0, qPrintable(QStringLiteral("frame %1 at %2").arg(k).arg(x)));
    // The gradient's grey survives too.
    const QColor g = f.pixelColor(120, 80);
    const int grey = 60 + 120 * 80 / 96;
    QVERIFY2(std::abs(g.red() - grey) <= 8 && std::abs(g.blue() - grey - 20) <= 8, qPrintable(QString::number(g.red())));
    if (k > 0) QVERIFY(pixelsDiffering(v.frames[k - 1], f) > 2 * kSide);  // the square moved 4 px
  }
}

void TestVideoWriter::mp4FractionalRate() {
  // NTSC's 29.97 = 30000/1001 is kept as that fraction.
  QTemporaryDir dir;
  const QString path = dir.filePath("ntsc.mp4");
  QString error;
  auto w = openFrameWriter(path, QSize(64, 48), 30000.0 / 1001.0, &error);
  QVERIFY2(w, qPrintable(error));
  for (int k = 0; k < 10; ++k) QVERIFY(w->write(syntheticFrame(QSize(64, 48), k % 4), &error));
  QVERIFY2(w->finish(&error), qPrintable(error));
  const auto v = decodeVideo(path);
  QCOMPARE(int(v.frames.size()), 10);
  QVERIFY2(std::abs(v.fps - 30000.0 / 1001.0) < 1e-3, qPrintable(QString::number(v.fps, 'g', 8)));
}

void TestVideoWriter::mp4Atomic() {
  QTemporaryDir dir;
  const QString path = dir.filePath("run.mp4");
  const QSize size(64, 48);
  // An abandoned recording (destroyed before finish) leaves nothing.
  {
    QString error;
    auto w = openFrameWriter(path, size, 30, &error);
    QVERIFY2(w, qPrintable(error));
    for (int k = 0; k < 5; ++k) QVERIFY(w->write(syntheticFrame(size, k), &error));
    QCOMPARE(entries(dir.path()).size(), 1);  // the temporary file
  }
  QVERIFY2(entries(dir.path()).isEmpty(), qPrintable(entries(dir.path()).join(' ')));
  // An older file stays as it was until the new one is complete, then is replaced.
  {
    QFile old(path);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("an older recording");
  }
  QString error;
  auto w = openFrameWriter(path, size, 30, &error);
  QVERIFY(w);
  for (int k = 0; k < 3; ++k) QVERIFY(w->write(syntheticFrame(size, k), &error));
  {
    QFile old(path);
    QVERIFY(old.open(QIODevice::ReadOnly));
    QCOMPARE(old.readAll(), QByteArray("an older recording"));
  }
  // A frame of the wrong size is an error: the recording is given up, the old file kept.
  QVERIFY(!w->write(syntheticFrame(QSize(32, 32), 0), &error));
  QVERIFY2(error.contains("error:"), qPrintable(error));
  QCOMPARE(entries(dir.path()), QStringList{"run.mp4"});
  QVERIFY(!w->finish(&error));
  w = openFrameWriter(path, size, 30, &error);
  for (int k = 0; k < 3; ++k) QVERIFY(w->write(syntheticFrame(size, k), &error));
  QVERIFY(w->finish(&error));
  QCOMPARE(int(decodeVideo(path).frames.size()), 3);
  QCOMPARE(entries(dir.path()), QStringList{"run.mp4"});
  // No frames: no video.
  w = openFrameWriter(dir.filePath("empty.mp4"), size, 30, &error);
  QVERIFY(!w->finish(&error));
  QVERIFY2(error.contains("no frames"), qPrintable(error));
  QCOMPARE(entries(dir.path()), QStringList{"run.mp4"});
}

void TestVideoWriter::mp4BadOutputs() {
  QTemporaryDir dir;
  QString error;
  // A folder that does not exist.
  QVERIFY(!openFrameWriter(dir.filePath("no/such/folder/out.mp4"), QSize(64, 48), 30, &error));
  QVERIFY2(error.contains("error:") && error.contains("does not exist"), qPrintable(error));
  // An odd size (4:2:0 chroma needs even ones), a size below 16, a rate of 0.
  QVERIFY(!openFrameWriter(dir.filePath("odd.mp4"), QSize(65, 48), 30, &error));
  QVERIFY2(error.contains("even"), qPrintable(error));
  QVERIFY(!openFrameWriter(dir.filePath("tiny.mp4"), QSize(8, 8), 30, &error));
  QVERIFY(!openFrameWriter(dir.filePath("still.mp4"), QSize(64, 48), 0, &error));
  // A folder where the file should be.
  QVERIFY(QDir(dir.path()).mkdir("taken.mp4"));
  QVERIFY(!openFrameWriter(dir.filePath("taken.mp4"), QSize(64, 48), 30, &error));
  QCOMPARE(entries(dir.path()), QStringList{"taken.mp4"});
}

void TestVideoWriter::pngSequences() {
  QTemporaryDir dir;
  const QSize size(40, 30);
  QString error;
  // A new folder: made by the rename at the end.
  const QString folder = dir.filePath("seq") + "/";
  auto w = openFrameWriter(folder, size, 30, &error);
  QVERIFY2(w, qPrintable(error));
  for (int k = 0; k < 5; ++k) QVERIFY2(w->write(syntheticFrame(size, k), &error), qPrintable(error));
  QVERIFY(!QFileInfo::exists(dir.filePath("seq")));
  QVERIFY2(w->finish(&error), qPrintable(error));
  QCOMPARE(entries(dir.filePath("seq")),
           (QStringList{"frame_0000.png", "frame_0001.png", "frame_0002.png", "frame_0003.png", "frame_0004.png"}));
  for (int k = 0; k < 5; ++k) {
    const QImage img(dir.filePath(QStringLiteral("seq/frame_%1.png").arg(k, 4, 10, QChar('0'))));
    QCOMPARE(img.size(), size);
    QCOMPARE(img.pixel(1, 1), syntheticFrame(size, k).pixel(1, 1));  // PNG is lossless
  }
  // A pattern in an existing folder, beside a file already there.
  QVERIFY(QDir(dir.path()).mkdir("shots"));
  QFile keep(dir.filePath("shots/notes.txt"));
  QVERIFY(keep.open(QIODevice::WriteOnly));
  keep.close();
  w = openFrameWriter(dir.filePath("shots/run_%03d.png"), size, 30, &error);
  QVERIFY2(w, qPrintable(error));
  for (int k = 0; k < 3; ++k) QVERIFY(w->write(syntheticFrame(size, k), &error));
  QVERIFY(w->finish(&error));
  QCOMPARE(entries(dir.filePath("shots")), (QStringList{"notes.txt", "run_000.png", "run_001.png", "run_002.png"}));
  // An existing folder given as it is (no '/').
  w = openFrameWriter(dir.filePath("shots"), size, 30, &error);
  QVERIFY(w);
  QVERIFY(w->write(syntheticFrame(size, 0), &error));
  QVERIFY(w->finish(&error));
  QVERIFY(QFileInfo::exists(dir.filePath("shots/frame_0000.png")));
}

void TestVideoWriter::pngAtomic() {
  QTemporaryDir dir;
  const QSize size(40, 30);
  QString error;
  {
    auto w = openFrameWriter(dir.filePath("seq/"), size, 30, &error);
    QVERIFY(w);
    for (int k = 0; k < 3; ++k) QVERIFY(w->write(syntheticFrame(size, k), &error));
  }  // abandoned
  QVERIFY2(entries(dir.path()).isEmpty(), qPrintable(entries(dir.path()).join(' ')));
  // A parent that does not exist: refused at once, nothing made.
  QVERIFY(!openFrameWriter(dir.filePath("a/b/seq/"), size, 30, &error));
  QVERIFY2(error.contains("error:") && error.contains("does not exist"), qPrintable(error));
  QVERIFY(!openFrameWriter(dir.filePath("a/%04d.png"), size, 30, &error));
  QVERIFY(entries(dir.path()).isEmpty());
}

QTEST_GUILESS_MAIN(TestVideoWriter)
#include "test_video_writer.moc"
