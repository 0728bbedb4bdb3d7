#pragma once
// core/collision/world.h — collision detection for a model: every shape of every body (sphere, box,
// capsule, cylinder, mesh as the convex hull of its vertices, plane of a fixed body), a broad phase
// (sweep and prune of bounding boxes grown by the margin; planes are tested against every shape)
// and the narrow phase of narrowphase.h with a persistent manifold per GJK/EPA pair (manifold.h).
//
// Pairs never tested: two shapes of one body, two fixed bodies, the body pairs in
// Model::contact.excluded (bodies joined by a joint unless "jointedCollide", and the file's
// "exclude" list).
#include <map>
#include <utility>
#include <vector>

#include "core/collision/geometry.h"
#include "core/collision/manifold.h"

namespace mechsim::collision {

/// One contact point between two bodies (world; normal from bodyA to bodyB).
struct Contact {
  int bodyA = -1, bodyB = -1;   // Model::bodies indices
  int geomA = -1, geomB = -1;   // CollisionWorld::geometries() indices
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();
  double gap = 0;               // < 0: penetration
  int feature = 0;              // stable id within the pair (warm start key with geomA, geomB)
};

struct CollisionStats {
  int candidatePairs = 0;       // pairs from the broad phase (planes included)
  int gjkPairs = 0;             // of those, pairs sent to GJK + EPA
  int contacts = 0;
};

class CollisionWorld {
 public:
  explicit CollisionWorld(const Model& m);

  /// Contacts with gap < margin at the body poses of q (sorted by geomA, geomB, feature).
  void detect(const Model& m, const VecX& q, double margin, std::vector<Contact>& out);

  const std::vector<Geometry>& geometries() const { return geoms_; }
  const CollisionStats& stats() const { return stats_; }
  /// True when the shapes may touch: different bodies, not both fixed, not excluded.
  bool pairAllowed(int gi, int gj) const;
  /// True when some pair of shapes may touch at all.
  bool anyPair() const;

 private:
  std::vector<Geometry> geoms_;
  std::vector<bool> fixed_;                       // per geometry: its body is fixed
  std::vector<std::pair<int, int>> excluded_;     // sorted body pairs
  std::map<std::pair<int, int>, PersistentManifold> manifolds_;
  CollisionStats stats_;
  std::vector<Placed> placed_;
  std::vector<Vec3> lo_, hi_;
  std::vector<int> boxed_;                        // geometries in the sweep (not planes)
  std::vector<std::pair<int, int>> pairs_;
  std::vector<ContactPoint> pts_;
};

}  // namespace mechsim::collision
