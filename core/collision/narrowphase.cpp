// core/collision/narrowphase.cpp — closed-form contact pairs and libccd GJK + EPA (narrowphase.h).
#include "core/collision/narrowphase.h"

#include <ccd/ccd.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace mechsim::collision {
namespace {

bool rounded(Kind k) { return k == Kind::Sphere || k == Kind::Capsule; }

/// A sphere or capsule as a core segment and a radius (world).
void coreSegment(const Placed& x, Vec3& p, Vec3& q) {
  const Vec3 a = x.R.col(2) * x.g->halfLength;
  p = x.p - a;
  q = x.p + a;
}

void planeContacts(const Placed& plane, const Placed& b, double margin, std::vector<ContactPoint>& out) {
  const Vec3 n = plane.R.col(2);
  std::vector<Vec3> pts;
  double r = 0;
  planeCandidates(b, n, pts, r);
  std::vector<ContactPoint> found;
  for (size_t i = 0; i < pts.size(); ++i) {
    const double gap = n.dot(pts[i] - plane.p) - r;
    if (gap >= margin) continue;
    ContactPoint c;
    c.normal = n;
    c.gap = gap;
    c.point = pts[i] - (r + 0.5 * gap) * n;
    c.feature = static_cast<int>(i);
    found.push_back(c);
  }
  if (b.g->kind == Kind::Hull && found.size() > 4) reduceToFour(found);
  out.insert(out.end(), found.begin(), found.end());
}

void roundedContacts(const Placed& a, const Placed& b, double margin, std::vector<ContactPoint>& out) {
  Vec3 p1, q1, p2, q2;
  coreSegment(a, p1, q1);
  coreSegment(b, p2, q2);
  double s, t;
  closestSegmentPoints(p1, q1, p2, q2, s, t);
  const Vec3 ca = p1 + s * (q1 - p1), cb = p2 + t * (q2 - p2);
  Vec3 d = cb - ca;
  const double dist = d.norm();
  const double gap = dist - a.g->radius - b.g->radius;
  if (gap >= margin) return;
  Vec3 n;
  if (dist > 1e-12) n = d / dist;
  else {  // coincident cores: any direction normal to a's axis
    n = a.R.col(0);
  }
  ContactPoint c;
  c.normal = n;
  c.gap = gap;
  c.point = ca + (a.g->radius + 0.5 * gap) * n;
  out.push_back(c);
}

void sphereBox(const Placed& sph, const Placed& box, bool sphereIsA, double margin, std::vector<ContactPoint>& out) {
  const Vec3 cl = box.R.transpose() * (sph.p - box.p);  // centre in the box frame
  const Vec3& h = box.g->half;
  const Vec3 clamped = cl.cwiseMax(-h).cwiseMin(h);
  Vec3 nLocal;  // from the box towards the sphere
  double dist;
  Vec3 surface = clamped;  // closest point of the box surface (box frame)
  if (clamped != cl) {
    const Vec3 d = cl - clamped;
    dist = d.norm();
    nLocal = d / dist;
  } else {
    // Inside: leave through the face of least penetration.
    int axis = 0;
    double best = h(0) - std::abs(cl(0));
    for (int i = 1; i < 3; ++i)
      if (h(i) - std::abs(cl(i)) < best) {
        best = h(i) - std::abs(cl(i));
        axis = i;
      }
    nLocal = Vec3::Zero();
    nLocal(axis) = cl(axis) >= 0 ? 1 : -1;
    dist = -best;
    surface(axis) = nLocal(axis) * h(axis);
  }
  const double gap = dist - sph.g->radius;
  if (gap >= margin) return;
  ContactPoint c;
  const Vec3 nBoxToSphere = box.R * nLocal;
  const Vec3 onBox = box.p + box.R * surface;
  c.point = onBox + 0.5 * gap * nBoxToSphere;
  c.gap = gap;
  c.normal = sphereIsA ? Vec3(-nBoxToSphere) : nBoxToSphere;
  out.push_back(c);
}

// ---- libccd ----

/// A shape for libccd: grown by a ball of radius `grow` and moved by `shift`.
struct Grown {
  const Placed* x;
  double grow;
  Vec3 shift;
};

void ccdSupport(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const Grown& g = *static_cast<const Grown*>(obj);
  const Vec3 d(dir->v[0], dir->v[1], dir->v[2]);
  Vec3 s = support(*g.x, d) + g.shift;
  const double n = d.norm();
  if (g.grow > 0 && n > 0) s += g.grow * d / n;
  for (int i = 0; i < 3; ++i) out->v[i] = s(i);
}

void ccdCenter(const void* obj, ccd_vec3_t* out) {
  const Grown& g = *static_cast<const Grown*>(obj);
  for (int i = 0; i < 3; ++i) out->v[i] = g.x->p(i) + g.shift(i);
}

/// GJK + EPA (or MPR when `mpr`): false when the two do not overlap; else depth, unit normal (a → b)
/// and libccd's contact position.
bool overlap(const Grown& a, const Grown& b, bool mpr, double& depth, Vec3& n, Vec3& pos) {
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = ccdSupport;
  ccd.support2 = ccdSupport;
  ccd.center1 = ccdCenter;
  ccd.center2 = ccdCenter;
  ccd.max_iterations = 1000;
  // EPA stops when the polytope face is within this of the Minkowski boundary (absolute, metres).
  const double size = std::max(std::min(a.x->g->boundRadius, b.x->g->boundRadius), 1e-3);
  ccd.epa_tolerance = 1e-8 * size;
  ccd.mpr_tolerance = 1e-8 * size;
  ccd.dist_tolerance = 1e-10 * size;
  ccd_real_t dep = 0;
  ccd_vec3_t dir, p;
  const int r = mpr ? ccdMPRPenetration(&a, &b, &ccd, &dep, &dir, &p) : ccdGJKPenetration(&a, &b, &ccd, &dep, &dir, &p);
  if (r != 0) return false;
  n = Vec3(dir.v[0], dir.v[1], dir.v[2]);
  const double nn = n.norm();
  if (!(nn > 0) || !std::isfinite(dep)) return false;
  n /= nn;
  depth = dep;
  pos = Vec3(p.v[0], p.v[1], p.v[2]);
  return true;
}

}  // namespace

bool hasClosedForm(Kind a, Kind b) {
  if (a == Kind::Plane) return b != Kind::Plane;
  if (rounded(a) && rounded(b)) return true;
  if ((a == Kind::Sphere && b == Kind::Box) || (a == Kind::Box && b == Kind::Sphere)) return true;
  return false;
}

void collideClosedForm(const Placed& a, const Placed& b, double margin, std::vector<ContactPoint>& out) {
  const Kind ka = a.g->kind, kb = b.g->kind;
  if (ka == Kind::Plane) planeContacts(a, b, margin, out);
  else if (rounded(ka) && rounded(kb)) roundedContacts(a, b, margin, out);
  else if (ka == Kind::Sphere && kb == Kind::Box) sphereBox(a, b, true, margin, out);
  else if (ka == Kind::Box && kb == Kind::Sphere) sphereBox(b, a, false, margin, out);
}

bool penetrationGjkEpa(const Placed& a, const Placed& b, double margin, Vec3& normal, double& gap, Vec3& pA, Vec3& pB) {
  // Candidate normals from libccd; each is scored by the exact separation of the two shapes along
  // it, s(n) = min_{y∈b} nᵀy − max_{x∈a} nᵀx (support functions). The signed distance of two convex
  // shapes is max_n s(n) (the distance when apart, minus the penetration depth when overlapping),
  // so the best candidate is the one of largest s — which guards against libccd's EPA stopping on
  // a wrong face (it does, for some poses, depending on its tolerance).
  struct Candidate {
    Vec3 n, pos;
  };
  std::vector<Candidate> cand;
  double depth;
  Vec3 n, pos;
  const bool touching = overlap(Grown{&a, 0, Vec3::Zero()}, Grown{&b, 0, Vec3::Zero()}, false, depth, n, pos);
  if (touching) cand.push_back({n, pos});  // EPA on the shapes themselves
  // MPR on the shapes grown by margin/2 each: overlap ⇔ within the margin (or touching).
  Vec3 n0, pos0;
  const bool near = overlap(Grown{&a, 0.5 * margin, Vec3::Zero()}, Grown{&b, 0.5 * margin, Vec3::Zero()}, true, depth, n0, pos0);
  if (!touching && !near) return false;
  if (near) {
    cand.push_back({n0, pos0});
    if (!touching) {
      // Apart: move b by −margin n₀ so they overlap; EPA there (one more normal), moved back.
      if (overlap(Grown{&a, 0, Vec3::Zero()}, Grown{&b, 0, -margin * n0}, false, depth, n, pos))
        cand.push_back({n, pos + 0.5 * margin * n0});
    }
  }
  double best = -std::numeric_limits<double>::infinity();
  for (const Candidate& c : cand) {
    const double sep = c.n.dot(support(b, -c.n)) - c.n.dot(support(a, c.n));
    if (sep > best) {
      best = sep;
      normal = c.n;
      pos = c.pos;
    }
  }
  // Polish the normal by a pattern search on the unit sphere for the largest s(n): tilts by δ
  // in eight tangent directions, δ halved when none improves, down to 1e-7 rad. libccd's normals of curved
  // shapes (EPA's polytope of a sphere or cylinder) are off by up to ~1°; polytopes' face normals
  // are already maxima and stay.
  auto separation = [&](const Vec3& m) { return m.dot(support(b, -m)) - m.dot(support(a, m)); };
  // Apart: first the fixed point n ← (s_b(−n) − s_a(n))/|·| of the closest points (kept while s grows).
  for (int it = 0; it < 16 && best > 0; ++it) {
    const Vec3 d = support(b, -normal) - support(a, normal);
    if (!(d.norm() > 0)) break;
    const Vec3 m = d.normalized();
    const double sep = separation(m);
    if (!(sep > best + 1e-15 * std::max(1.0, best))) break;
    best = sep;
    normal = m;
  }
  for (double step = 0.02; step > 1e-7;) {
    const Vec3 u = normal.cross(std::abs(normal.x()) < 0.6 ? Vec3::UnitX() : Vec3::UnitY()).normalized();
    const Vec3 v = normal.cross(u);
    bool moved = false;
    for (const Vec3& t : {u, Vec3(-u), v, Vec3(-v), Vec3(u + v), Vec3(u - v), Vec3(-u + v), Vec3(-u - v)}) {
      const Vec3 m = (normal + step * t).normalized();
      const double sep = separation(m);
      if (sep > best + 1e-15 * std::max(1.0, std::abs(best))) {
        best = sep;
        normal = m;
        moved = true;
        break;
      }
    }
    if (!moved) step *= 0.5;
  }
  gap = best;
  if (!(gap < margin)) return false;
  // Witness points: the extreme point towards the other shape of the side whose extreme point is
  // well defined (a vertex, edge end or a curved surface: it barely moves when n is tilted by 1e-3,
  // where a face's jumps across the face), or of the smaller shape when both touch by a face
  // (libccd's contact position can lie off both shapes for face contacts); and its image on the
  // other shape's supporting plane, so nᵀ(pB − pA) = gap.
  Vec3 t1 = normal.cross(std::abs(normal.x()) < 0.6 ? Vec3::UnitX() : Vec3::UnitY()).normalized();
  const Vec3 t2 = normal.cross(t1);
  auto spread = [&](const Placed& x, const Vec3& d) {
    const Vec3 c = support(x, d);
    double most = 0;
    for (const Vec3& t : {t1, Vec3(-t1), t2, Vec3(-t2)}) most = std::max(most, (support(x, d + 1e-3 * t) - c).norm());
    return most;
  };
  const double spreadA = spread(a, normal), spreadB = spread(b, -normal);
  const double size = std::min(a.g->boundRadius, b.g->boundRadius);
  const bool useB = std::abs(spreadA - spreadB) > 1e-2 * size ? spreadB < spreadA : b.g->boundRadius <= a.g->boundRadius;
  if (useB) {
    pB = support(b, -normal);
    pA = pB - gap * normal;
  } else {
    pA = support(a, normal);
    pB = pA + gap * normal;
  }
  return true;
}

bool clipBoxes(const Placed& a, const Placed& b, const Vec3& n, double margin, std::vector<ContactPoint>& out) {
  // The face of x whose outward normal is closest to dir: axis, sign, and the cosine.
  auto bestFace = [](const Placed& x, const Vec3& dir, int& axis, double& sign) {
    double best = -1;
    for (int i = 0; i < 3; ++i) {
      const double d = x.R.col(i).dot(dir);
      if (std::abs(d) > best) {
        best = std::abs(d);
        axis = i;
        sign = d >= 0 ? 1.0 : -1.0;
      }
    }
    return best;
  };
  int ia = 0, ib = 0;
  double sa = 1, sb = 1;
  const double ca = bestFace(a, n, ia, sa), cb = bestFace(b, -n, ib, sb);
  if (std::max(ca, cb) < 0.999) return false;  // edge–edge / edge–face: not a face contact
  const bool refIsA = ca >= cb;
  const Placed& ref = refIsA ? a : b;
  const Placed& inc = refIsA ? b : a;
  const int ir = refIsA ? ia : ib;
  const Vec3 nr = (refIsA ? sa : sb) * ref.R.col(ir);  // reference face's outward normal (towards inc)
  int ii = 0;
  double si = 1;
  bestFace(inc, -nr, ii, si);
  const Vec3 ni = si * inc.R.col(ii);
  // Incident face: a rectangle, corners in order.
  const int u = (ii + 1) % 3, v = (ii + 2) % 3;
  const Vec3 fc = inc.p + ni * inc.g->half(ii);
  const Vec3 eu = inc.R.col(u) * inc.g->half(u), ev = inc.R.col(v) * inc.g->half(v);
  std::vector<Vec3> poly{fc + eu + ev, fc - eu + ev, fc - eu - ev, fc + eu - ev}, next;
  // Sutherland–Hodgman: keep the part inside the four side planes of the reference face.
  for (const int j : {(ir + 1) % 3, (ir + 2) % 3})
    for (const double sgn : {1.0, -1.0}) {
      const Vec3 axis = sgn * ref.R.col(j);
      const double h = ref.g->half(j);
      auto dist = [&](const Vec3& p) { return axis.dot(p - ref.p) - h; };
      next.clear();
      for (size_t k = 0; k < poly.size(); ++k) {
        const Vec3 &p = poly[k], &q = poly[(k + 1) % poly.size()];
        const double dp = dist(p), dq = dist(q);
        if (dp <= 0) next.push_back(p);
        if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) next.push_back(p + dp / (dp - dq) * (q - p));
      }
      poly.swap(next);
      if (poly.empty()) return true;
    }
  const Vec3 faceCentre = ref.p + nr * ref.g->half(ir);
  const Vec3 ru = ref.R.col((ir + 1) % 3), rv = ref.R.col((ir + 2) % 3);
  std::vector<ContactPoint> pts;
  for (const Vec3& p : poly) {
    const double sep = nr.dot(p - faceCentre);
    if (sep >= margin) continue;
    ContactPoint c;
    c.gap = sep;
    c.normal = refIsA ? nr : Vec3(-nr);
    c.point = p - 0.5 * sep * nr;
    // feature: reference face, incident face and the quadrant of the reference face (warm start)
    const int quadrant = (ru.dot(p - faceCentre) >= 0 ? 1 : 0) + (rv.dot(p - faceCentre) >= 0 ? 2 : 0);
    c.feature = 64 * (2 * ir + (refIsA ? 1 : 0)) + 4 * ii + quadrant;
    pts.push_back(c);
  }
  reduceToFour(pts);
  for (size_t k = 0; k < pts.size(); ++k)
    for (size_t l = 0; l < k; ++l)
      if (pts[l].feature == pts[k].feature) pts[k].feature += 1024 * static_cast<int>(k);
  out.insert(out.end(), pts.begin(), pts.end());
  return true;
}

void reduceToFour(std::vector<ContactPoint>& pts) {
  if (pts.size() <= 4) return;
  auto deepest = std::min_element(pts.begin(), pts.end(), [](const ContactPoint& x, const ContactPoint& y) { return x.gap < y.gap; });
  std::vector<ContactPoint> out{*deepest};
  auto farthest = [&](auto score) {
    double best = -1;
    size_t k = 0;
    for (size_t i = 0; i < pts.size(); ++i) {
      const double s = score(pts[i].point);
      if (s > best) {
        best = s;
        k = i;
      }
    }
    return pts[k];
  };
  const Vec3 p0 = out[0].point;
  out.push_back(farthest([&](const Vec3& p) { return (p - p0).squaredNorm(); }));
  const Vec3 p1 = out[1].point;
  out.push_back(farthest([&](const Vec3& p) { return (p1 - p0).cross(p - p0).squaredNorm(); }));
  const Vec3 p2 = out[2].point;
  // The point farthest outside the triangle: the three sub-triangle areas sum to more than its area.
  out.push_back(farthest([&](const Vec3& p) {
    return (p1 - p0).cross(p - p0).norm() + (p2 - p1).cross(p - p1).norm() + (p0 - p2).cross(p - p2).norm();
  }));
  pts = out;
}

void closestSegmentPoints(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2, double& s, double& t) {
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  constexpr double eps = 1e-300;
  if (a <= eps && e <= eps) {
    s = t = 0;
    return;
  }
  if (a <= eps) {
    s = 0;
    t = std::clamp(f / e, 0.0, 1.0);
    return;
  }
  const double c = d1.dot(r);
  if (e <= eps) {
    t = 0;
    s = std::clamp(-c / a, 0.0, 1.0);
    return;
  }
  const double b = d1.dot(d2), denom = a * e - b * b;
  s = denom > 1e-14 * a * e ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
  t = (b * s + f) / e;
  if (t < 0) {
    t = 0;
    s = std::clamp(-c / a, 0.0, 1.0);
  } else if (t > 1) {
    t = 1;
    s = std::clamp((b - c) / a, 0.0, 1.0);
  }
}

}  // namespace mechsim::collision
