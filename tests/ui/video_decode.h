#pragma once
// tests/ui/video_decode.h — reads back a video the recorder wrote, with FFmpeg's demuxer and
// decoder (libavformat, libavcodec: the H.264 decoder is FFmpeg's own, not x264, so the check
// does not run the encoder's code twice), every frame converted to RGB by libswscale.
#include <string>
#include <vector>

#include <QImage>
#include <QString>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

namespace mechsim::test {

struct DecodedVideo {
  QString error;                // empty when it decoded
  QString codec;                // "h264"
  int width = 0, height = 0;
  double fps = 0;               // the stream's average frame rate
  std::vector<QImage> frames;   // RGB888, in presentation order
};

inline DecodedVideo decodeVideo(const QString& path) {
  DecodedVideo out;
  const std::string file = path.toStdString();
  AVFormatContext* fmt = nullptr;
  if (avformat_open_input(&fmt, file.c_str(), nullptr, nullptr) < 0) {
    out.error = "cannot open " + path;
    return out;
  }
  AVCodecContext* dec = nullptr;
  AVPacket* pkt = av_packet_alloc();
  AVFrame* frame = av_frame_alloc();
  SwsContext* sws = nullptr;
  auto receive = [&] {
    // Every frame the decoder has ready, as an RGB image.
    while (avcodec_receive_frame(dec, frame) == 0) {
      QImage img(frame->width, frame->height, QImage::Format_RGB888);
      sws = sws_getCachedContext(sws, frame->width, frame->height, AVPixelFormat(frame->format), frame->width,
                                 frame->height, AV_PIX_FMT_RGB24, SWS_BICUBIC, nullptr, nullptr, nullptr);
      const int* bt709 = sws_getCoefficients(SWS_CS_ITU709);
      sws_setColorspaceDetails(sws, bt709, 0, bt709, 1, 0, 1 << 16, 1 << 16);
      uint8_t* dst[1] = {img.bits()};
      const int stride[1] = {int(img.bytesPerLine())};
      sws_scale(sws, frame->data, frame->linesize, 0, frame->height, dst, stride);
      out.frames.push_back(img);
    }
  };
  do {
    if (avformat_find_stream_info(fmt, nullptr) < 0) {
      out.error = "no stream information";
      break;
    }
    const int s = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (s < 0) {
      out.error = "no video stream";
      break;
    }
    const AVStream* st = fmt->streams[s];
    const AVCodec* codec = avcodec_find_decoder(st->codecpar->codec_id);
    dec = avcodec_alloc_context3(codec);
    if (!codec || avcodec_parameters_to_context(dec, st->codecpar) < 0 || avcodec_open2(dec, codec, nullptr) < 0) {
      out.error = "no decoder";
      break;
    }
    out.codec = QString::fromUtf8(codec->name);
    out.width = st->codecpar->width;
    out.height = st->codecpar->height;
    out.fps = st->avg_frame_rate.den ? av_q2d(st->avg_frame_rate) : 0;
    while (av_read_frame(fmt, pkt) >= 0) {
      if (pkt->stream_index == s && avcodec_send_packet(dec, pkt) >= 0) receive();
      av_packet_unref(pkt);
    }
    avcodec_send_packet(dec, nullptr);  // drain
    receive();
  } while (false);
  sws_freeContext(sws);
  av_frame_free(&frame);
  av_packet_free(&pkt);
  avcodec_free_context(&dec);
  avformat_close_input(&fmt);
  return out;
}

/// Pixels of a and b (same size) that differ by more than `tol` in some channel.
inline long pixelsDiffering(const QImage& a, const QImage& b, int tol = 24) {
  const QImage x = a.convertToFormat(QImage::Format_RGB888), y = b.convertToFormat(QImage::Format_RGB888);
  long n = 0;
  for (int r = 0; r < x.height(); ++r) {
    const uchar* p = x.constScanLine(r);
    const uchar* q = y.constScanLine(r);
    for (int c = 0; c < x.width(); ++c)
      if (std::abs(p[3 * c] - q[3 * c]) > tol || std::abs(p[3 * c + 1] - q[3 * c + 1]) > tol ||
          std::abs(p[3 * c + 2] - q[3 * c + 2]) > tol)
        ++n;
  }
  return n;
}

}  // namespace mechsim::test
