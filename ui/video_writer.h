#pragma once
// ui/video_writer.h — where the frames of File → Record Video (and `mechsim FILE --record OUT`) go:
// an H.264 video in an MP4 file, encoded with FFmpeg's libraries (ui/video_writer.cpp), or a
// sequence of PNG images (ui/png_sequence_writer.cpp). No GL and no widgets: frames arrive as
// images of the size the writer was opened with, so a test can feed it anything.
//
// Every writer is atomic: it writes under a temporary name next to the output (a hidden
// `.NAME.part` file, a hidden folder for the PNGs) and renames it into place in finish(). An error
// or abort() removes what was written, so a failed recording leaves nothing behind — neither a
// truncated MP4 that players reject nor half a sequence.
#include <memory>

#include <QImage>
#include <QSize>
#include <QString>

namespace mechsim::ui {

/// What a recording's output path asks for (videoFormatOf).
enum class VideoFormat {
  Mp4,          // NAME.mp4: H.264 in MP4
  PngSequence,  // a folder (frames frame_0000.png, …) or a pattern DIR/NAME%04d.png
  Unknown,      // neither
};

/// The format of output `path`: `.mp4` (any case) an MP4 file; an existing folder, a path ending
/// in `/`, or a file name with one `%d` / `%0Nd` (N ≤ 9) ending in `.png` a PNG sequence.
VideoFormat videoFormatOf(const QString& path);

/// Receives the frames of one recording, in order, all of the size given to open().
class FrameWriter {
 public:
  virtual ~FrameWriter() = default;
  /// Appends one frame (converted as needed; its size must be the writer's). False: `error` says why.
  virtual bool write(const QImage& frame, QString* error) = 0;
  /// Ends the recording: the last frames encoded, the output renamed into place. False: `error`
  /// says why, and nothing is left.
  virtual bool finish(QString* error) = 0;
  /// Gives up: what was written so far is removed (also done by the destructor before finish()).
  virtual void abort() = 0;
  /// Frames written so far.
  virtual long frames() const = 0;
};

/// A writer for output `path` (videoFormatOf) with frames of `size` pixels at `fps` frames per
/// second. Null when the output cannot be started: `error` says why (an unknown format, an odd
/// size for MP4, a folder that does not exist, no H.264 encoder, …).
std::unique_ptr<FrameWriter> openFrameWriter(const QString& path, const QSize& size, double fps, QString* error);

/// The MP4 writer alone (openFrameWriter chooses it for `.mp4`).
std::unique_ptr<FrameWriter> openMp4Writer(const QString& path, const QSize& size, double fps, QString* error);
/// The PNG sequence writer alone (openFrameWriter chooses it for folders and `%0Nd.png` patterns).
std::unique_ptr<FrameWriter> openPngSequenceWriter(const QString& path, const QSize& size, QString* error);

/// The file name of frame `index` of PNG sequence `path` (a folder: DIR/frame_0000.png; a pattern:
/// its `%0Nd` replaced by the index padded to N digits).
QString pngFramePath(const QString& path, long index);

}  // namespace mechsim::ui
