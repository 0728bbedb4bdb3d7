#pragma once
// core/collision/manifold.h — a persistent contact manifold for one pair of convex shapes whose
// contact comes from GJK + EPA (one deepest point per step).
//
// One point cannot hold a box flat on another box: the EPA point wanders over the contact face and
// the box rocks about it. The manifold keeps up to four points, each stored as a point fixed in
// shape a and one fixed in shape b (shape frames), so it follows the bodies. Every step:
//   1. each stored point is moved with the bodies; its gap is re-measured along the new normal;
//      it is dropped when the gap exceeds the margin (separating) or when its two halves have slid
//      apart tangentially by more than `slide` (the surfaces moved relative to each other);
//   2. the new EPA point replaces a stored one closer than `merge` (keeping that one's id, so the
//      warm start carries over) or is added with a new id;
//   3. above four points the deepest stays and the rest span the largest area (reduceToFour).
// This is the approach of Bullet's persistent manifold; it needs a few steps of contact to fill.
#include <vector>

#include "core/collision/narrowphase.h"

namespace mechsim::collision {

class PersistentManifold {
 public:
  /// Updates with this step's GJK/EPA result (normal a → b, witnesses pA, pB) and writes the
  /// current points (feature = the point's id) to out.
  void update(const Placed& a, const Placed& b, const Vec3& normal, const Vec3& pA, const Vec3& pB, double margin,
              double slide, double merge, std::vector<ContactPoint>& out);
  /// Forgets the points (the pair separated).
  void clear() { pts_.clear(); }
  int size() const { return static_cast<int>(pts_.size()); }

 private:
  struct Point {
    Vec3 la, lb;   // in the shape frames of a and b
    int id;
  };
  std::vector<Point> pts_;
  int nextId_ = 0;
};

}  // namespace mechsim::collision
