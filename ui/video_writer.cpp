// ui/video_writer.cpp — H.264 in MP4 through FFmpeg's libraries (Debian's libavformat,
// libavcodec, libswscale, libavutil; the encoder is libx264, which Debian's libavcodec is built
// with), and the choice of writer from the output path.
//
// The libav pipeline, as FFmpeg's own muxing example (doc/examples/mux.c) lays it out:
//   avformat_alloc_output_context2   the MP4 muxer ("mp4"), told by name: the temporary file's
//                                    name does not end in .mp4
//   avcodec_find_encoder_by_name     libx264 (else any H.264 encoder libavcodec has)
//   avcodec_alloc_context3 / open2   the encoder: size, time base 1/fps (a frame's pts is its
//                                    index), 4:2:0 YUV, BT.709 colour, constant quality
//   avformat_new_stream + avcodec_parameters_from_context   the stream the muxer writes
//   avio_open + avformat_write_header   the file; "+faststart" moves the index (moov) to the
//                                    front at the end, so a player can start before it has it all
//   per frame: sws_scale RGBA → YUV 4:2:0, avcodec_send_frame, then avcodec_receive_packet until
//   EAGAIN, each packet's times rescaled from the codec's time base to the stream's (the muxer
//   picks its own, e.g. 1/15360) and handed to av_interleaved_write_frame
//   finish: avcodec_send_frame(nullptr) drains the frames the encoder still holds (x264 looks
//   ahead several frames), av_write_trailer writes the index, avio_closep, then the rename.
#include "ui/video_writer.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace mechsim::ui {

namespace {

/// libav's text for error code `err`.
QString avError(int err) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {0};
  av_strerror(err, buf, sizeof buf);
  return QString::fromUtf8(buf);
}

class Mp4Writer final : public FrameWriter {
 public:
  ~Mp4Writer() override { abort(); }

  bool open(const QString& path, const QSize& size, double fps, QString* error);
  bool write(const QImage& frame, QString* error) override;
  bool finish(QString* error) override;
  void abort() override;
  long frames() const override { return next_; }

 private:
  /// Sends `frame` (null: the end of the stream) to the encoder and writes every packet it gives back.
  bool encode(AVFrame* frame, QString* error);
  /// Frees the libav objects (closing the file when open).
  void release();
  bool fail(QString* error, const QString& what, int err = 0) {
    if (error) *error = err ? QStringLiteral("%1: error: %2 (%3)").arg(final_, what, avError(err))
                   : QStringLiteral("%1: error: %2").arg(final_, what);
    abort();
    return false;
  }

  QString final_;            // the output path
  std::string tmp_;          // where it is written until finish()
  QSize size_;
  AVFormatContext* fmt_ = nullptr;
  AVCodecContext* codec_ = nullptr;
  AVStream* stream_ = nullptr;
  AVFrame* frame_ = nullptr;   // the YUV picture handed to the encoder
  AVPacket* packet_ = nullptr;
  SwsContext* sws_ = nullptr;
  long next_ = 0;              // the next frame's index = its pts in the codec's time base
  bool open_ = false;          // the file exists (until renamed or removed)
};

bool Mp4Writer::open(const QString& path, const QSize& size, double fps, QString* error) {
  // libav's own log (x264's statistics, the muxer's second pass) only for errors: the writer
  // reports what went wrong itself.
  av_log_set_level(AV_LOG_ERROR);
  final_ = path;
  size_ = size;
  // 4:2:0 subsampling halves both directions: the encoder takes even sizes only.
  if (size.width() < 16 || size.height() < 16 || size.width() % 2 || size.height() % 2)
    return fail(error, QStringLiteral("an H.264 video needs an even width and height of at least 16 (got %1x%2)")
                           .arg(size.width())
                           .arg(size.height()));
  if (!(fps > 0) || !std::isfinite(fps)) return fail(error, QStringLiteral("the frame rate must be positive"));
  const QFileInfo info(path);
  if (!info.absoluteDir().exists())
    return fail(error, QStringLiteral("cannot write the video: the folder %1 does not exist").arg(info.absolutePath()));
  if (info.isDir()) return fail(error, QStringLiteral("cannot write the video: it is a folder"));
  tmp_ = info.absoluteDir().filePath(QStringLiteral(".%1.part").arg(info.fileName())).toStdString();

  // The frame rate as a fraction (29.97 → 30000/1001); the codec's time base is its inverse.
  const AVRational rate = av_d2q(fps, 1001000);
  int err = avformat_alloc_output_context2(&fmt_, nullptr, "mp4", tmp_.c_str());
  if (err < 0 || !fmt_) return fail(error, QStringLiteral("no MP4 muxer in libavformat"), err);
  const AVCodec* codec = avcodec_find_encoder_by_name("libx264");
  if (!codec) codec = avcodec_find_encoder(AV_CODEC_ID_H264);
  if (!codec) return fail(error, QStringLiteral("libavcodec has no H.264 encoder (install libx264: scripts/install-deps.sh)"));
  stream_ = avformat_new_stream(fmt_, nullptr);
  codec_ = avcodec_alloc_context3(codec);
  if (!stream_ || !codec_) return fail(error, QStringLiteral("out of memory"));
  codec_->width = size.width();
  codec_->height = size.height();
  codec_->time_base = av_inv_q(rate);
  codec_->framerate = rate;
  codec_->pix_fmt = AV_PIX_FMT_YUV420P;
  codec_->gop_size = std::max(1, int(std::lround(2 * fps)));  // a key frame every 2 s: seeking stays quick
  // BT.709 (HD) primaries, transfer and matrix, limited ("TV") range: what players assume for
  // H.264 and what sws_scale below converts to.
  codec_->color_primaries = AVCOL_PRI_BT709;
  codec_->color_trc = AVCOL_TRC_BT709;
  codec_->colorspace = AVCOL_SPC_BT709;
  codec_->color_range = AVCOL_RANGE_MPEG;
  // x264: constant quality (CRF 18, visually lossless for flat-shaded drawings) and the "fast"
  // preset; its threads are libavcodec's default (x264 picks them by the cores).
  if (codec->name == std::string("libx264")) {
    av_opt_set(codec_->priv_data, "preset", "fast", 0);
    av_opt_set(codec_->priv_data, "crf", "18", 0);
  }
  // MP4 keeps the codec's headers (SPS/PPS) once, in the stream's description, not in every key frame.
  if (fmt_->oformat->flags & AVFMT_GLOBALHEADER) codec_->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  if ((err = avcodec_open2(codec_, codec, nullptr)) < 0) return fail(error, QStringLiteral("cannot open the H.264 encoder"), err);
  if ((err = avcodec_parameters_from_context(stream_->codecpar, codec_)) < 0)
    return fail(error, QStringLiteral("cannot describe the video stream"), err);
  stream_->time_base = codec_->time_base;  // a hint: write_header may choose a finer one
  stream_->avg_frame_rate = rate;

  // The picture the encoder takes, and the converter from Qt's RGBA into it.
  frame_ = av_frame_alloc();
  packet_ = av_packet_alloc();
  if (!frame_ || !packet_) return fail(error, QStringLiteral("out of memory"));
  frame_->format = codec_->pix_fmt;
  frame_->width = size.width();
  frame_->height = size.height();
  if ((err = av_frame_get_buffer(frame_, 0)) < 0) return fail(error, QStringLiteral("cannot allocate a frame"), err);
  sws_ = sws_getContext(size.width(), size.height(), AV_PIX_FMT_RGBA, size.width(), size.height(), AV_PIX_FMT_YUV420P,
                        SWS_BICUBIC, nullptr, nullptr, nullptr);
  if (!sws_) return fail(error, QStringLiteral("cannot set up the RGB → YUV conversion"));
  // Y' = 0.2126 R' + 0.7152 G' + 0.0722 B' (BT.709), from full-range RGB (1) to limited-range YUV (0).
  const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
  sws_setColorspaceDetails(sws_, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);

  // The file, under its temporary name.
  if ((err = avio_open(&fmt_->pb, tmp_.c_str(), AVIO_FLAG_WRITE)) < 0)
    return fail(error, QStringLiteral("cannot write the video"), err);
  open_ = true;
  AVDictionary* muxOptions = nullptr;
  av_dict_set(&muxOptions, "movflags", "+faststart", 0);
  err = avformat_write_header(fmt_, &muxOptions);
  av_dict_free(&muxOptions);
  if (err < 0) return fail(error, QStringLiteral("cannot write the MP4 header"), err);
  return true;
}

bool Mp4Writer::write(const QImage& image, QString* error) {
  if (!fmt_) {
    if (error) *error = QStringLiteral("%1: error: the video is not open").arg(final_);
    return false;
  }
  if (image.size() != size_)
    return fail(error, QStringLiteral("a frame of %1x%2 in a video of %3x%4")
                           .arg(image.width())
                           .arg(image.height())
                           .arg(size_.width())
                           .arg(size_.height()));
  const QImage rgba = image.convertToFormat(QImage::Format_RGBA8888);
  // The encoder may still hold the last picture (a reference for the next): write into a fresh
  // buffer when it does.
  int err = av_frame_make_writable(frame_);
  if (err < 0) return fail(error, QStringLiteral("cannot write a frame"), err);
  const uint8_t* src[1] = {rgba.constBits()};
  const int srcStride[1] = {int(rgba.bytesPerLine())};
  sws_scale(sws_, src, srcStride, 0, size_.height(), frame_->data, frame_->linesize);
  frame_->pts = next_++;
  return encode(frame_, error);
}

bool Mp4Writer::encode(AVFrame* frame, QString* error) {
  int err = avcodec_send_frame(codec_, frame);
  if (err < 0) return fail(error, QStringLiteral("the encoder refused a frame"), err);
  for (;;) {
    err = avcodec_receive_packet(codec_, packet_);
    if (err == AVERROR(EAGAIN) || err == AVERROR_EOF) return true;  // wants more input / drained
    if (err < 0) return fail(error, QStringLiteral("encoding failed"), err);
    av_packet_rescale_ts(packet_, codec_->time_base, stream_->time_base);
    packet_->stream_index = stream_->index;
    err = av_interleaved_write_frame(fmt_, packet_);  // takes the packet's data (unrefs it)
    if (err < 0) return fail(error, QStringLiteral("cannot write the video"), err);
  }
}

bool Mp4Writer::finish(QString* error) {
  if (!fmt_) {
    if (error) *error = QStringLiteral("%1: error: the video is not open").arg(final_);
    return false;
  }
  if (next_ == 0) return fail(error, QStringLiteral("no frames recorded"));
  if (!encode(nullptr, error)) return false;
  int err = av_write_trailer(fmt_);
  if (err < 0) return fail(error, QStringLiteral("cannot finish the MP4 file"), err);
  err = avio_closep(&fmt_->pb);
  if (err < 0) return fail(error, QStringLiteral("cannot write the video"), err);
  release();
  // rename(2) replaces an existing file in one step: a reader sees the old video or the new one.
  std::error_code ec;
  std::filesystem::rename(tmp_, final_.toStdString(), ec);
  if (ec) {
    std::filesystem::remove(tmp_, ec);
    open_ = false;
    if (error) *error = QStringLiteral("%1: error: cannot write the video (%2)").arg(final_, QString::fromStdString(ec.message()));
    return false;
  }
  open_ = false;
  return true;
}

void Mp4Writer::release() {
  if (fmt_ && fmt_->pb) avio_closep(&fmt_->pb);
  if (fmt_) avformat_free_context(fmt_);  // frees its streams too
  fmt_ = nullptr;
  stream_ = nullptr;
  avcodec_free_context(&codec_);
  av_frame_free(&frame_);
  av_packet_free(&packet_);
  sws_freeContext(sws_);
  sws_ = nullptr;
}

void Mp4Writer::abort() {
  release();
  if (open_) {
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
    open_ = false;
  }
}

}  // namespace

VideoFormat videoFormatOf(const QString& path) {
  if (path.isEmpty()) return VideoFormat::Unknown;
  if (path.endsWith(QStringLiteral(".mp4"), Qt::CaseInsensitive)) return VideoFormat::Mp4;
  if (path.endsWith('/') || QFileInfo(path).isDir()) return VideoFormat::PngSequence;
  // One integer conversion, optionally zero-padded to N ≤ 9 digits, in a .png file name.
  static const QRegularExpression pattern(QStringLiteral("^[^%]*%(0[1-9])?d[^%]*\\.png$"),
                                          QRegularExpression::CaseInsensitiveOption);
  if (pattern.match(QFileInfo(path).fileName()).hasMatch()) return VideoFormat::PngSequence;
  return VideoFormat::Unknown;
}

std::unique_ptr<FrameWriter> openMp4Writer(const QString& path, const QSize& size, double fps, QString* error) {
  auto w = std::make_unique<Mp4Writer>();
  if (!w->open(path, size, fps, error)) return nullptr;
  return w;
}

std::unique_ptr<FrameWriter> openFrameWriter(const QString& path, const QSize& size, double fps, QString* error) {
  switch (videoFormatOf(path)) {
    case VideoFormat::Mp4:
      return openMp4Writer(path, size, fps, error);
    case VideoFormat::PngSequence:
      return openPngSequenceWriter(path, size, error);
    case VideoFormat::Unknown:
      break;
  }
  if (error)
    *error = path + QStringLiteral(": error: cannot tell what to write: give NAME.mp4 (H.264 video), a folder (PNG "
                                   "images) or a pattern such as frames/%04d.png");  // (no arg(): %04 would be a marker)
  return nullptr;
}

}  // namespace mechsim::ui
