#pragma once
// ui/video_recorder.h — File → Record Video… and `mechsim FILE --record OUT --t-end T`: a
// mechanism's motion rendered frame by frame offscreen at a chosen size (Viewport::renderImage,
// the view's camera and display options) and written as an H.264 MP4 or a PNG sequence
// (ui/video_writer.h).
//
// Time is the simulation's, not the wall clock's: frame k shows the mechanism at t₀ + k/fps, so a
// recording of T seconds at F frames per second has round(T·F) frames and plays back in real time
// however long each frame took to solve and render. The sources:
//   Playback      the kinematic analysis as Play runs it (drivers follow their expressions of t,
//                 the sliders hold their values), each frame solved at its own time (sim::advanceTo)
//   Dynamic run   the forward dynamics (dynamic mode), advanced to each frame's time
//   History       the session's recorded frames (ui/history.h), sampled at t₀ + k/fps over their
//                 time span: each video frame shows the last recorded frame at or before its time
// Playback and the dynamic run start from `start` (the window: the state shown; the command
// line: the file's start at t = 0) on an engine model of their own, compiled and advanced on a
// worker thread (the GUI thread never runs a solver, DESIGN.md), with the deformable parts stepped
// once per frame (their step 1/fps). The GUI thread builds each frame's scene, renders and
// encodes it, while the worker solves the next few.
#include <functional>
#include <memory>
#include <optional>

#include <QSize>
#include <QString>

#include "core/model.h"
#include "core/spec.h"
#include "scene/scene.h"
#include "ui/history.h"
#include "ui/simulation_controller.h"

namespace mechsim::ui {

class Viewport;

enum class RecordSource { Playback, DynamicRun, History };

struct RecordRequest {
  QString path;                 // OUT.mp4, a folder or a %04d.png pattern (videoFormatOf)
  QSize size{1280, 720};        // pixels (even for MP4)
  double fps = 30;              // frames per simulated second, 1 … 240
  double duration = 5;          // simulated seconds (History: ignored, the history's span)
  RecordSource source = RecordSource::Playback;

  /// Frames a recording of `seconds` takes: round(seconds · fps), or −1 when out of range
  /// (fps not in [1, 240], seconds not positive and finite, more than kMaxFrames).
  long framesFor(double seconds) const;
  static constexpr long kMaxFrames = 1000000;
};

/// What the recording starts from and how it looks.
struct RecordInput {
  std::shared_ptr<const Model> model;
  std::shared_ptr<const MechanismSpec> spec;  // may be null (no coordinate sliders, no deformable parts)
  std::optional<ControllerState> start;       // Playback / DynamicRun; none: the file's start at t = 0
  const History* history = nullptr;           // History
  SceneOptions options;                       // what the view shows (grid, joints, handles, …)
  bool stressColours = false;                 // the deformable parts coloured by their stress
};

/// Told after each frame written: (frames done, frames in all, what is going on); false cancels.
using RecordProgress = std::function<bool(long done, long total, const QString& stage)>;

/// Records `input` as `request` asks into request.path through `view` (whose scene it replaces
/// frame by frame; the caller shows its own again afterwards). True when the file is complete;
/// false with `error` (`PATH: error: …`) when it failed, empty when cancelled — either way nothing
/// is left at the path. `framesWritten` (if given) gets the number of frames encoded.
bool recordVideo(Viewport& view, const RecordRequest& request, const RecordInput& input, const RecordProgress& progress,
                 QString* error, long* framesWritten = nullptr);

}  // namespace mechsim::ui
