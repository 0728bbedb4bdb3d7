// core/collision/world.cpp — shapes of a model, broad and narrow phase (world.h).
#include "core/collision/world.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "core/collision/narrowphase.h"
#include "core/collision/sweep_prune.h"

namespace mechsim::collision {

CollisionWorld::CollisionWorld(const Model& m) : excluded_(m.contact.excluded) {
  for (int b = 0; b < static_cast<int>(m.bodies.size()); ++b)
    for (int s = 0; s < static_cast<int>(m.bodies[b].shapes.size()); ++s) {
      geoms_.push_back(makeGeometry(m.bodies[b].shapes[s], b, s));
      fixed_.push_back(m.bodies[b].qIndex < 0);
    }
  std::sort(excluded_.begin(), excluded_.end());
}

bool CollisionWorld::pairAllowed(int gi, int gj) const {
  const Geometry &a = geoms_[gi], &b = geoms_[gj];
  if (a.body == b.body || (fixed_[gi] && fixed_[gj])) return false;
  if (a.kind == Kind::Plane && b.kind == Kind::Plane) return false;
  const std::pair<int, int> key(std::min(a.body, b.body), std::max(a.body, b.body));
  return !std::binary_search(excluded_.begin(), excluded_.end(), key);
}

bool CollisionWorld::anyPair() const {
  for (int i = 0; i < static_cast<int>(geoms_.size()); ++i)
    for (int j = i + 1; j < static_cast<int>(geoms_.size()); ++j)
      if (pairAllowed(i, j)) return true;
  return false;
}

void CollisionWorld::detect(const Model& m, const VecX& q, double margin, std::vector<Contact>& out) {
  out.clear();
  stats_ = CollisionStats{};
  const int n = static_cast<int>(geoms_.size());
  placed_.resize(n);
  for (int i = 0; i < n; ++i) {
    const Pose P = bodyPose(m, q, geoms_[i].body);
    placed_[i].g = &geoms_[i];
    placed_[i].p = P.apply(geoms_[i].local.position);
    placed_[i].R = (P.orientation * geoms_[i].local.orientation).normalized().toRotationMatrix();
  }
  // Broad phase: sweep and prune of the bounded shapes; planes against every bounded shape whose
  // support point towards the plane lies within the margin.
  boxed_.clear();
  lo_.clear();
  hi_.clear();
  for (int i = 0; i < n; ++i)
    if (geoms_[i].kind != Kind::Plane) {
      boxed_.push_back(i);
      lo_.emplace_back();
      hi_.emplace_back();
      bounds(placed_[i], 0.5 * margin, lo_.back(), hi_.back());
    }
  sweepAndPrune(lo_, hi_, pairs_);
  for (auto& p : pairs_) p = {boxed_[p.first], boxed_[p.second]};
  for (int i = 0; i < n; ++i)
    if (geoms_[i].kind == Kind::Plane) {
      const Vec3 nrm = placed_[i].R.col(2);
      for (const int j : boxed_)
        if (nrm.dot(support(placed_[j], -nrm) - placed_[i].p) < margin) pairs_.emplace_back(i, j);
    }
  std::vector<std::pair<int, int>> touched;
  for (auto [i, j] : pairs_) {
    if (!pairAllowed(i, j)) continue;
    // Planes first; otherwise the closed forms accept either order.
    if (geoms_[j].kind == Kind::Plane) std::swap(i, j);
    if (geoms_[i].kind != Kind::Plane && i > j) std::swap(i, j);
    ++stats_.candidatePairs;
    const Placed &a = placed_[i], &b = placed_[j];
    pts_.clear();
    if (hasClosedForm(a.g->kind, b.g->kind)) {
      collideClosedForm(a, b, margin, pts_);
    } else {
      ++stats_.gjkPairs;
      Vec3 nrm, pA, pB;
      double gap;
      PersistentManifold& man = manifolds_[{i, j}];
      const bool near = penetrationGjkEpa(a, b, margin, nrm, gap, pA, pB);
      if (near && a.g->kind == Kind::Box && b.g->kind == Kind::Box && clipBoxes(a, b, nrm, margin, pts_)) {
        man.clear();  // box–box face contact: clipped, all points at once
      } else if (near) {
        const double size = std::min(a.g->boundRadius, b.g->boundRadius);
        man.update(a, b, nrm, pA, pB, margin, std::max(margin, 0.02 * size), std::max(margin, 0.1 * size), pts_);
        touched.emplace_back(i, j);
      } else {
        man.clear();
      }
    }
    for (const ContactPoint& c : pts_) {
      Contact k;
      k.geomA = i;
      k.geomB = j;
      k.bodyA = geoms_[i].body;
      k.bodyB = geoms_[j].body;
      k.point = c.point;
      k.normal = c.normal;
      k.gap = c.gap;
      k.feature = c.feature;
      out.push_back(k);
    }
  }
  // Manifolds of pairs no longer near each other are dropped.
  std::sort(touched.begin(), touched.end());
  for (auto it = manifolds_.begin(); it != manifolds_.end();)
    it = std::binary_search(touched.begin(), touched.end(), it->first) ? std::next(it) : manifolds_.erase(it);
  std::sort(out.begin(), out.end(), [](const Contact& x, const Contact& y) {
    return std::tie(x.geomA, x.geomB, x.feature) < std::tie(y.geomA, y.geomB, y.feature);
  });
  stats_.contacts = static_cast<int>(out.size());
}

}  // namespace mechsim::collision
