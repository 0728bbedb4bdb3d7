// ui/video_recorder.cpp — a recording's frames: solved on a worker thread (Playback, Dynamic run)
// or taken from the history, each drawn as a scene, rendered offscreen and written (ui/video_recorder.h).
#include "ui/video_recorder.h"

#include <cmath>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include <QCoreApplication>
#include <QElapsedTimer>

#include "core/deform/solver.h"
#include "core/io/engine.h"
#include "core/sim/stages.h"
#include "scene/stress_colours.h"
#include "ui/video_writer.h"
#include "ui/viewport.h"

namespace mechsim::ui {

long RecordRequest::framesFor(double seconds) const {
  if (!std::isfinite(fps) || fps < 1 || fps > 240 || !std::isfinite(seconds) || seconds <= 0) return -1;
  const double n = std::round(seconds * fps);
  if (n < 1 || n > double(kMaxFrames)) return -1;
  return long(n);
}

namespace {

/// The frames of a Playback or Dynamic run, solved on a thread of their own: frame k at
/// t₀ + k/fps, handed over through a short queue (the worker runs at most kAhead frames ahead of
/// the encoder, so memory stays bounded however long the recording).
class EngineFrames {
 public:
  EngineFrames(const RecordInput& input, double fps, long frames, bool dynamic)
      : input_(input), fps_(fps), frames_(frames), dynamic_(dynamic) {
    thread_ = std::thread([this] { run(); });
  }
  ~EngineFrames() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      cancel_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  /// The next frame into `f`, waiting at most `ms`. 1: a frame; 0: not yet; −1: no more (the
  /// run ended early: error() says why).
  int take(Frame& f, int ms) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return !queue_.empty() || finished_; });
    if (!queue_.empty()) {
      f = std::move(queue_.front());
      queue_.pop_front();
      changed_.notify_all();
      return 1;
    }
    return finished_ ? -1 : 0;
  }
  QString error() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_;
  }
  /// What the worker is doing before its first frame (compiling, a JGS2 precomputation).
  QString stage() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stage_;
  }

 private:
  static constexpr size_t kAhead = 4;

  void run();
  void setStage(const QString& s) {
    std::lock_guard<std::mutex> lock(mutex_);
    stage_ = s;
  }
  bool cancelled() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return cancel_;
  }
  void end(const QString& error) {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = error;
    finished_ = true;
    changed_.notify_all();
  }

  RecordInput input_;
  double fps_;
  long frames_;
  bool dynamic_;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Frame> queue_;
  bool cancel_ = false, finished_ = false;
  QString error_, stage_;
};

void EngineFrames::run() {
  try {
    // An engine model of its own, as the controller compiles one: the DOF analysis (the sliders
    // `start` holds), the deformable parts with their step = one frame.
    setStage(QCoreApplication::translate("mechsim", "Preparing the mechanism…"));
    sim::Options o;
    o.deformStep = 1.0 / fps_;
    o.deformables = input_.spec && !input_.spec->deformables.empty();
    if (!input_.start) o.rangeBudgetSeconds = 0;  // from the file's start: no slider is held off its start
    o.cancel = [this] { return cancelled(); };
    o.progress = [this](const std::string& text) { setStage(QString::fromStdString(text)); };
    const sim::Model m = sim::compile(input_.spec, input_.model, io::engineOptions(std::move(o)));
    sim::Data d = sim::makeData(m);
    if (input_.start && !sim::restore(m, d, *input_.start))
      return end(QStringLiteral("the state shown does not belong to the mechanism"));
    if (dynamic_ && !sim::setDynamic(m, d, true))
      return end(QStringLiteral("dynamic mode does not start: %1").arg(QString::fromStdString(d.message)));
    const double t0 = d.rigid.t;
    const bool parts = !m.parts.empty();
    if (parts) sim::resetDeformables(m, d);
    const sim::FrameOptions frameOptions{input_.stressColours, true};
    for (long k = 0; k < frames_; ++k) {
      if (cancelled()) return end({});
      // Frame k at t₀ + k/fps exactly (advanceTo: no sum of steps to drift), the parts one step on.
      if (k > 0) {
        const double t = t0 + double(k) / fps_;
        if (!sim::advanceTo(m, d, t))
          return end(QStringLiteral("the %1 failed at t = %2 s: %3")
                         .arg(dynamic_ ? QStringLiteral("dynamics") : QStringLiteral("kinematic analysis"))
                         .arg(t, 0, 'g', 6)
                         .arg(QString::fromStdString(d.message)));
        if (parts) sim::stepDeformables(m, d);  // a failed step keeps the part's last state, as the GUI does
      }
      Frame f;
      static_cast<sim::Frame&>(f) = sim::frame(m, d, frameOptions);
      f.model = input_.model;
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return queue_.size() < kAhead || cancel_; });
      if (cancel_) {
        finished_ = true;
        return;
      }
      queue_.push_back(std::move(f));
      changed_.notify_all();
    }
    end({});
  } catch (const deform::Cancelled&) {
    end({});
  } catch (const std::exception& e) {
    end(QString::fromUtf8(e.what()));
  }
}

/// The scene of a recorded frame as the view draws it, without what belongs to the session's
/// interaction (selection, trail, drag line).
Scene frameScene(const Model& model, const Frame& f, const RecordInput& input, const Scene* grid, StressRange* stress) {
  SceneOverlay overlay;
  overlay.deformables = f.deformables;
  for (const Frame::ContactMark& c : f.contacts) overlay.contacts.emplace_back(c.point, c.normal);
  if (input.stressColours && !f.deformables.empty() && f.deformableStress.size() == f.deformables.size()) {
    const StressColours sc = colourByStress(f.deformableStress, stress);
    overlay.deformableColors = sc.colours;
  }
  overlay.jointViolated.assign(model.joints.size(), 0);
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& jt = model.joints[j];
    for (int r = jt.firstEquation; r < jt.firstEquation + jt.nEquations && r < f.phi.size(); ++r)
      if (std::abs(f.phi[r]) > 1e-6) overlay.jointViolated[j] = 1;  // MainWindow::kResidualShown
  }
  overlay.gridFrom = grid && grid->gridId != 0 ? grid : nullptr;
  return buildScene(model, f.poses, input.options, &overlay);
}

}  // namespace

bool recordVideo(Viewport& view, const RecordRequest& req, const RecordInput& input, const RecordProgress& progress,
                 QString* error, long* framesWritten) {
  auto failWith = [&](const QString& text) {
    if (error) *error = text;
    return false;
  };
  if (framesWritten) *framesWritten = 0;
  if (!input.model) return failWith(QStringLiteral("%1: error: no mechanism to record").arg(req.path));

  // How many frames, at which times.
  const bool fromHistory = req.source == RecordSource::History;
  double seconds = req.duration;
  if (fromHistory) {
    if (!input.history || input.history->empty())
      return failWith(QStringLiteral("%1: error: the recorded history is empty").arg(req.path));
    seconds = input.history->back().t - input.history->at(0).t;
    if (!(seconds > 0)) return failWith(QStringLiteral("%1: error: the recorded history spans no time (play first)").arg(req.path));
  }
  const long total = req.framesFor(seconds);
  if (total < 0)
    return failWith(QStringLiteral("%1: error: %2 s at %3 frames per second is not a recording (fps 1 … 240, at most %4 frames)")
                        .arg(req.path)
                        .arg(seconds, 0, 'g', 6)
                        .arg(req.fps, 0, 'g', 6)
                        .arg(RecordRequest::kMaxFrames));
  if (!view.glInfo().ok) return failWith(QStringLiteral("%1: error: no OpenGL context to render with").arg(req.path));

  // The output, under its temporary name until the last frame is in.
  QString why;
  std::unique_ptr<FrameWriter> writer = openFrameWriter(req.path, req.size, req.fps, &why);
  if (!writer) return failWith(why);

  std::unique_ptr<EngineFrames> engine;
  if (!fromHistory) engine = std::make_unique<EngineFrames>(input, req.fps, total, req.source == RecordSource::DynamicRun);
  Scene grid;  // the first frame's grid, kept (it would otherwise follow the mechanism's bounds)
  StressRange stress;
  int historyIndex = 0;
  const double tHistory = fromHistory ? input.history->at(0).t : 0;
  QElapsedTimer sincePoll;
  sincePoll.start();
  for (long k = 0; k < total; ++k) {
    // The frame at t₀ + k/fps.
    Frame f;
    if (fromHistory) {
      // The last recorded frame at or before the time (the history's times never decrease).
      const double t = tHistory + double(k) / req.fps;
      while (historyIndex + 1 < input.history->size() && input.history->at(historyIndex + 1).t <= t + 1e-9) ++historyIndex;
      f = input.history->at(historyIndex);
    } else {
      for (;;) {
        const int got = engine->take(f, 20);
        if (got == 1) break;
        if (got < 0) {
          writer->abort();
          const QString e = engine->error();
          return failWith(e.isEmpty() ? QString() : QStringLiteral("%1: error: %2").arg(req.path, e));
        }
        // Waiting for the worker (the first frame: the model's compilation): the progress stays live.
        if (progress && !progress(k, total, k == 0 ? engine->stage() : QString())) {
          writer->abort();
          return failWith(QString());
        }
      }
    }
    // Drawn and rendered at the video's size, then written.
    const Model& model = f.model ? *f.model : *input.model;
    Scene scene = frameScene(model, f, input, k > 0 ? &grid : nullptr, &stress);
    if (k == 0) grid = scene;
    view.setScene(std::move(scene), false);
    const QImage image = view.renderImage(req.size);
    if (image.isNull()) {
      writer->abort();
      return failWith(QStringLiteral("%1: error: cannot render a frame of %2x%3 (larger than OpenGL allows?)")
                          .arg(req.path)
                          .arg(req.size.width())
                          .arg(req.size.height()));
    }
    if (!writer->write(image, &why)) return failWith(why);
    if (framesWritten) *framesWritten = k + 1;
    if (progress && !progress(k + 1, total, QString())) {
      writer->abort();
      return failWith(QString());
    }
  }
  engine.reset();
  if (!writer->finish(&why)) return failWith(why);
  return true;
}

}  // namespace mechsim::ui
