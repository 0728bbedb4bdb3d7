// ui/history.cpp — recorded frames of the session.
#include "ui/history.h"

#include <algorithm>

namespace mechsim::ui {

io::TrajectoryFrame trajectoryFrame(const Frame& f) {
  return {f.t, f.q, f.qd, f.qdd, f.coords, f.coordVel, f.coordAcc, {}};
}

namespace {

/// Bytes of a frame's deformable surfaces and stress colours (a surface shared with the previous
/// frame is counted again: the bound errs on the safe side).
size_t frameSurfaceBytes(const Frame& f) {
  size_t n = 0;
  for (const auto& m : f.deformables)
    if (m) n += sizeof(Eigen::Vector3f) * (m->vertices.size() + m->normals.size()) + sizeof(unsigned) * m->indices.size();
  for (const auto& s : f.deformableStress)
    if (s) n += sizeof(float) * s->size();
  return n;
}

}  // namespace

void History::append(const Frame& f) {
  frames_.push_back(f);
  bytes_.push_back(frameSurfaceBytes(f));
  total_ += bytes_.back();
  while (frames_.size() > kMaxFrames || (total_ > kMaxBytes && frames_.size() > 1)) popFront();
}

void History::popFront() {
  total_ -= bytes_.front();
  bytes_.pop_front();
  frames_.pop_front();
  ++dropped_;
}

void History::truncateAfter(int index) {
  if (index < 0) {
    frames_.clear();
    bytes_.clear();
    total_ = 0;
    return;
  }
  while (static_cast<int>(frames_.size()) > index + 1) {
    total_ -= bytes_.back();
    bytes_.pop_back();
    frames_.pop_back();
  }
}

std::vector<io::TrajectoryFrame> History::trajectory(int first, int last) const {
  std::vector<io::TrajectoryFrame> out;
  first = std::max(first, 0);
  last = std::min(last, size() - 1);
  for (int i = first; i <= last; ++i) out.push_back(trajectoryFrame(at(i)));
  return out;
}

}  // namespace mechsim::ui
