#pragma once
// core/io/import/convex_hull.h — the convex hull of a point set as a closed triangle surface, for
// MJCF meshes given by their vertices alone (<mesh vertex="..."/> without face=, which MuJoCo
// reads as the vertices' convex hull).
//
// Incremental construction (Preparata & Hong 1977; the form of O'Rourke, "Computational Geometry
// in C", §4.3): start from a tetrahedron of four extreme points; add each further point p that
// lies outside the current hull: the faces p sees (n·p − d > ε) are removed, and the horizon —
// the edges between a seen and an unseen face — is joined to p by new faces. A face (a, b, c) is
// counter-clockwise seen from outside, n = (b − a) × (c − a). O(n·h) for n points and h faces:
// meant for the tens to thousands of vertices written into an XML file.
#include <vector>

#include "core/types.h"

namespace mechsim::io::imp {

struct HullMesh {
  std::vector<Vec3> vertices;     // the points on the hull (a subset of the input, input order)
  std::vector<unsigned> indices;  // 3 per triangle, counter-clockwise seen from outside
};

/// The convex hull of `points`. Points within ε = 1e-10 × (bounding-box diagonal) of a face's
/// plane count as on it (not added). Throws std::invalid_argument when the points span no volume
/// (fewer than 4, or all on one plane), naming which.
HullMesh convexHull(const std::vector<Vec3>& points);

}  // namespace mechsim::io::imp
