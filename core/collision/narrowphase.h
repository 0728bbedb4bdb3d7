#pragma once
// core/collision/narrowphase.h — contact points between two placed shapes.
//
// A contact is a point, a unit normal n pointing from shape a to shape b, and the gap along n
// (negative: penetration depth). Contacts are reported while gap < margin, so the solver can stop
// an approach within the step (speculative contacts).
//
// Closed forms (exact, and several points where one is not enough to rest on):
//   plane – any convex: every support-carrying point below margin (box corners, hull vertices,
//     capsule ends, cylinder rim points, sphere centre minus radius) → a box rests on 4 points;
//     a hull's points are reduced to the 4 spanning the largest area (reduceToFour);
//   sphere / capsule – sphere / capsule: closest points of the two core segments (a sphere is a
//     segment of length 0), gap = distance − r_a − r_b;
//   sphere – box: closest point of the box to the centre (clamping in the box frame), or the face
//     of least penetration when the centre is inside.
// Every other pair (box–box, box–cylinder, hulls, ...) goes to libccd: GJK + EPA when the shapes
// overlap, MPR on the shapes grown by margin/2 (and EPA on b moved by −margin n) when they are
// apart, each candidate normal scored by the exact separation along it (support functions): one
// deepest point per call, which the persistent manifold (manifold.h) accumulates — except box–box
// face contacts, which are clipped (clipBoxes) to up to four points at once.
#include <vector>

#include "core/collision/geometry.h"

namespace mechsim::collision {

struct ContactPoint {
  Vec3 point = Vec3::Zero();    // midway between the two surfaces
  Vec3 normal = Vec3::UnitZ();  // unit, from a to b
  double gap = 0;               // signed distance along normal (< 0: penetration)
  int feature = 0;              // which corner / vertex / manifold point (stable over steps)
};

/// True when the pair (a, b) has a closed form above (a plane must be a, not b).
bool hasClosedForm(Kind a, Kind b);

/// Closed-form contacts of a and b with gap < margin, appended to out. Needs hasClosedForm.
void collideClosedForm(const Placed& a, const Placed& b, double margin, std::vector<ContactPoint>& out);

/// libccd GJK + EPA on a and b grown by margin/2: the normal (a → b), the gap and witness points on
/// a and b (pB = pA + gap n). False when the grown shapes do not overlap (gap ≥ margin).
bool penetrationGjkEpa(const Placed& a, const Placed& b, double margin, Vec3& normal, double& gap, Vec3& pA, Vec3& pB);

/// Box–box face contact by clipping (the normal n, a → b, from penetrationGjkEpa): the reference
/// face is the face of a or b most parallel to n, the incident face the other box's face most
/// anti-parallel to it; the incident face is clipped to the reference face's side planes
/// (Sutherland–Hodgman) and its corners within the margin of the reference plane are the contacts
/// (at most four: reduceToFour). Returns false when no face is within 2.6° of n (an edge–edge or
/// edge–face contact: one point is right there).
bool clipBoxes(const Placed& a, const Placed& b, const Vec3& n, double margin, std::vector<ContactPoint>& out);

/// Keeps at most four points: the deepest, then the ones spanning the largest area.
void reduceToFour(std::vector<ContactPoint>& pts);

/// Closest points of segments [p1, q1] and [p2, q2]: s, t ∈ [0, 1] (Ericson, Real-Time Collision
/// Detection §5.1.9). Degenerate segments allowed.
void closestSegmentPoints(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2, double& s, double& t);

}  // namespace mechsim::collision
