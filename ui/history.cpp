// ui/history.cpp — recorded frames of the session.
#include "ui/history.h"

#include <algorithm>

namespace mechsim::ui {

io::TrajectoryFrame trajectoryFrame(const Frame& f) {
  return {f.t, f.q, f.qd, f.qdd, f.coords, f.coordVel, f.coordAcc, {}};
}

void History::append(const Frame& f) {
  frames_.push_back(f);
  while (frames_.size() > kMaxFrames) frames_.pop_front(), ++dropped_;
}

void History::truncateAfter(int index) {
  if (index < 0) {
    frames_.clear();
    return;
  }
  while (static_cast<int>(frames_.size()) > index + 1) frames_.pop_back();
}

std::vector<io::TrajectoryFrame> History::trajectory(int first, int last) const {
  std::vector<io::TrajectoryFrame> out;
  first = std::max(first, 0);
  last = std::min(last, size() - 1);
  for (int i = first; i <= last; ++i) out.push_back(trajectoryFrame(at(i)));
  return out;
}

}  // namespace mechsim::ui
