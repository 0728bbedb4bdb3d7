// core/collision/manifold.cpp — the persistent contact manifold (manifold.h).
#include "core/collision/manifold.h"

#include <algorithm>

namespace mechsim::collision {

void PersistentManifold::update(const Placed& a, const Placed& b, const Vec3& n, const Vec3& pA, const Vec3& pB,
                                double margin, double slide, double merge, std::vector<ContactPoint>& out) {
  // 1. refresh the stored points
  std::vector<ContactPoint> cur;
  std::vector<Point> kept;
  for (const Point& p : pts_) {
    const Vec3 wa = a.p + a.R * p.la, wb = b.p + b.R * p.lb;
    const Vec3 d = wb - wa;
    const double gap = n.dot(d);
    if (gap >= margin || (d - gap * n).norm() > slide) continue;
    kept.push_back(p);
  }
  // 2. the new point
  const Point fresh{a.R.transpose() * (pA - a.p), b.R.transpose() * (pB - b.p), -1};
  bool merged = false;
  for (Point& p : kept)
    if ((a.p + a.R * p.la - pA).norm() < merge) {
      p.la = fresh.la;
      p.lb = fresh.lb;
      merged = true;
      break;
    }
  if (!merged) kept.push_back(Point{fresh.la, fresh.lb, nextId_++});
  // 3. at most four
  for (const Point& p : kept) {
    const Vec3 wa = a.p + a.R * p.la, wb = b.p + b.R * p.lb;
    ContactPoint c;
    c.normal = n;
    c.gap = n.dot(wb - wa);
    c.point = 0.5 * (wa + wb);
    c.feature = p.id;
    cur.push_back(c);
  }
  if (cur.size() > 4) {
    reduceToFour(cur);
    std::vector<Point> four;
    for (const ContactPoint& c : cur)
      for (const Point& p : kept)
        if (p.id == c.feature) four.push_back(p);
    kept = four;
  }
  pts_ = kept;
  out.insert(out.end(), cur.begin(), cur.end());
}

}  // namespace mechsim::collision
