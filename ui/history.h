#pragma once
// ui/history.h — the session's recorded history on the GUI thread: every recorded frame the
// controller published since the model opened (or since Reset), oldest first, at most
// kMaxFrames and kMaxBytes of deformable surfaces (the oldest are dropped). The timeline scrubs
// through it, the plots read it, and File → Export trajectory writes it (as FORMAT.md §3 rows via
// trajectoryFrame).
#include <deque>
#include <vector>

#include "core/io/trajectory.h"
#include "ui/simulation_controller.h"

namespace mechsim::ui {

/// A frame as one trajectory row (t, q, rates, joint coordinates and rates).
io::TrajectoryFrame trajectoryFrame(const Frame& f);

class History {
 public:
  static constexpr size_t kMaxFrames = 20000;
  /// The deformable parts' surfaces (and stress colours) each frame keeps for scrubbing, at most
  /// this many bytes in all: a 12k-tet beam's surface (32×8×8 cells) is 60 kB a frame, 1.2 GB
  /// over kMaxFrames.
  static constexpr size_t kMaxBytes = size_t(512) << 20;

  void clear() { frames_.clear(), bytes_.clear(), total_ = 0, dropped_ = 0; }
  /// Appends a recorded frame; drops the oldest beyond kMaxFrames or kMaxBytes (never the last).
  void append(const Frame& f);
  /// Forgets the frames after `index` (going on from a scrubbed point replaces the future).
  void truncateAfter(int index);

  int size() const { return static_cast<int>(frames_.size()); }
  bool empty() const { return frames_.empty(); }
  const Frame& at(int i) const { return frames_[static_cast<size_t>(i)]; }
  const Frame& back() const { return frames_.back(); }
  /// Frames dropped at the front since the last clear (older than the history keeps).
  long dropped() const { return dropped_; }
  /// Bytes of deformable surfaces held (the measure kMaxBytes bounds).
  size_t surfaceBytes() const { return total_; }

  /// Rows [first, last] as trajectory frames (rates included).
  std::vector<io::TrajectoryFrame> trajectory(int first, int last) const;

 private:
  void popFront();
  std::deque<Frame> frames_;
  std::deque<size_t> bytes_;  // per frame: its deformable surfaces' bytes
  size_t total_ = 0;
  long dropped_ = 0;
};

}  // namespace mechsim::ui
