// scene/scene.cpp — Model + body poses → draw items, ground grid and bounds (no GL).
#include "scene/scene.h"

#include "scene/mesh_colours.h"

#include <atomic>

#include <algorithm>
#include <array>
#include <cmath>

namespace mechsim::ui {
namespace {

using Eigen::Vector3f;
using Eigen::Vector4f;

/// Body colours for shapes without a colour of their own: distinct, mid-saturated, readable on
/// both the light and the dark end of the background gradient.
constexpr std::array<std::array<float, 3>, 8> kPalette = {{
    {0.26f, 0.52f, 0.80f},  // steel blue
    {0.93f, 0.55f, 0.18f},  // orange
    {0.24f, 0.66f, 0.56f},  // teal
    {0.80f, 0.30f, 0.32f},  // brick red
    {0.58f, 0.44f, 0.78f},  // violet
    {0.58f, 0.72f, 0.26f},  // olive green
    {0.88f, 0.74f, 0.24f},  // ochre
    {0.40f, 0.62f, 0.78f},  // sky
}};
const Vector3f kFixedColor(0.50f, 0.52f, 0.56f);
const Vector3f kModelDefaultColor(0.7f, 0.7f, 0.75f);  // Shape::color when the file gave none

/// Joint glyph colours by type.
Vector4f jointColor(JointType t) {
  switch (t) {
    case JointType::Revolute: return {0.98f, 0.80f, 0.22f, 1};
    case JointType::Prismatic: return {0.20f, 0.82f, 0.90f, 1};
    case JointType::Cylindrical: return {0.55f, 0.90f, 0.45f, 1};
    case JointType::Spherical: return {0.95f, 0.45f, 0.75f, 1};
    case JointType::Universal: return {1.00f, 0.62f, 0.25f, 1};
    case JointType::Planar: return {0.70f, 0.70f, 0.95f, 1};
    case JointType::Fixed: return {0.75f, 0.75f, 0.78f, 1};
    case JointType::Distance: return {0.95f, 0.95f, 0.60f, 1};
  }
  return {1, 1, 1, 1};
}
const Vector4f kHandleColor(1.00f, 0.25f, 0.60f, 1);

/// True when the file gave the shape (or its body) a colour: anything but the model's default grey.
bool hasOwnColor(const Shape& s) { return !s.color.isApprox(kModelDefaultColor, 1e-4f); }

Vector4f rgba(const Vector3f& c, float a = 1) { return {c.x(), c.y(), c.z(), a}; }

/// Transform placing a unit primitive (axis z) centred at `c`, its z along `dir`, scaled by
/// (rxy, rxy, lz).
Eigen::Matrix4f placeAlong(const Eigen::Vector3d& c, const Eigen::Vector3d& dir, double rxy, double lz) {
  const Eigen::Vector3d d = dir.norm() > 0 ? Eigen::Vector3d(dir.normalized()) : Eigen::Vector3d::UnitZ();
  const Eigen::Quaterniond q = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), d);
  Eigen::Matrix4d t = Eigen::Matrix4d::Identity();
  t.block<3, 3>(0, 0) = q.toRotationMatrix() * Eigen::Vector3d(rxy, rxy, lz).asDiagonal();
  t.block<3, 1>(0, 3) = c;
  return t.cast<float>();
}

/// Transform placing a unit primitive at `c` with axes `r` (columns) scaled by `s`.
Eigen::Matrix4f placeFrame(const Eigen::Vector3d& c, const Eigen::Matrix3d& r, const Eigen::Vector3d& s) {
  Eigen::Matrix4d t = Eigen::Matrix4d::Identity();
  t.block<3, 3>(0, 0) = r * s.asDiagonal();
  t.block<3, 1>(0, 3) = c;
  return t.cast<float>();
}

Eigen::Matrix4f scaled(const Eigen::Matrix4f& base, const Eigen::Vector3f& s) {
  Eigen::Matrix4f t = base;
  t.block<3, 3>(0, 0) = base.block<3, 3>(0, 0) * s.asDiagonal();
  return t;
}

Pose composed(const Pose& a, const Pose& b) {
  Pose p;
  p.position = a.apply(b.position);
  p.orientation = a.orientation * b.orientation;
  return p;
}

Pose poseOf(const std::vector<Pose>& poses, int b) {
  return b >= 0 && b < static_cast<int>(poses.size()) ? poses[b] : Pose{};
}

/// World bounds of an item (its unit primitive's box through its transform).
Eigen::AlignedBox3d itemBounds(const DrawItem& it) {
  const Eigen::AlignedBox3f local = primitiveBounds(it.primitive, it.mesh.get());
  Eigen::AlignedBox3d box;
  if (local.isEmpty()) return box;
  for (int k = 0; k < 8; ++k) {
    const Vector3f corner = local.corner(static_cast<Eigen::AlignedBox3f::CornerType>(k));
    box.extend((it.transform * corner.homogeneous()).head<3>().cast<double>());
  }
  return box;
}

/// The draw items of one shape of body b placed at `bodyPose`.
void addShape(std::vector<DrawItem>& out, const Model& m, int b, const Shape& s, const Pose& bodyPose) {
  DrawItem it;
  it.role = ItemRole::BodyShape;
  it.body = b;
  it.color = rgba(bodyColor(m, b, s));
  const Eigen::Matrix4f frame = poseMatrix(composed(bodyPose, s.local));
  switch (s.type) {
    case ShapeType::Box:
      it.primitive = Primitive::Box;
      it.transform = scaled(frame, s.size.cast<float>());
      out.push_back(it);
      break;
    case ShapeType::Cylinder:
      it.primitive = Primitive::Cylinder;
      it.transform = scaled(frame, Vector3f(s.radius, s.radius, s.length));
      out.push_back(it);
      break;
    case ShapeType::Sphere:
      it.primitive = Primitive::Sphere;
      it.transform = scaled(frame, Vector3f::Constant(s.radius));
      out.push_back(it);
      break;
    case ShapeType::Capsule: {
      // A cylinder and two spheres, so the caps stay round.
      it.primitive = Primitive::Cylinder;
      it.transform = scaled(frame, Vector3f(s.radius, s.radius, s.length));
      out.push_back(it);
      it.primitive = Primitive::Sphere;
      for (float side : {-0.5f, 0.5f}) {
        Eigen::Matrix4f cap = frame;
        cap.block<3, 1>(0, 3) += frame.block<3, 1>(0, 2) * (side * static_cast<float>(s.length));
        it.transform = scaled(cap, Vector3f::Constant(s.radius));
        out.push_back(it);
      }
      break;
    }
    case ShapeType::Plane:
      break;  // unbounded: drawn by addPlanes, sized to the mechanism, outside the bounds
    case ShapeType::Mesh:
      if (!s.mesh || s.mesh->vertices.empty()) break;
      it.primitive = Primitive::Mesh;
      it.mesh = s.mesh;
      it.transform = scaled(frame, Vector3f::Constant(s.scale));
      // The mesh file's own colours (its materials) unless the mechanism file gave the shape or
      // its body a colour, which wins; triangles the file left uncoloured keep the body's colour.
      if (!hasOwnColor(s))
        if ((it.vertexColors = meshVertexColours(s.mesh, it.color.head<3>()))) it.color = Vector4f::Ones();
      out.push_back(it);
      break;
  }
}

/// Ground planes (collision shapes of fixed bodies: the half-space below the shape frame's z) as a
/// thin slab under the plane, centred below the mechanism and 3 × its size across.
void addPlanes(std::vector<DrawItem>& out, const Model& m, const std::vector<Pose>& poses,
               const Eigen::AlignedBox3d& bounds, double size) {
  for (int b = 0; b < static_cast<int>(m.bodies.size()); ++b) {
    for (const Shape& s : m.bodies[b].shapes) {
      if (s.type != ShapeType::Plane) continue;
      const Pose p = composed(poseOf(poses, b), s.local);
      const Eigen::Vector3d n = p.rotate(Eigen::Vector3d::UnitZ());
      const Eigen::Vector3d c = bounds.center() - n * n.dot(bounds.center() - p.position);
      const double thick = 0.004 * size;
      Pose slab = p;
      slab.position = c - 0.5 * thick * n;
      DrawItem it;
      it.role = ItemRole::GroundPlane;
      it.body = b;
      it.primitive = Primitive::Box;
      it.color = {0.62f, 0.66f, 0.70f, 1.0f};
      it.transform = scaled(poseMatrix(slab), Vector3f(3 * size, 3 * size, thick));
      out.push_back(it);
    }
  }
}

/// A "nice" step (1, 2 or 5 × 10^k) no larger than x.
double niceStep(double x) {
  const double p = std::pow(10.0, std::floor(std::log10(x)));
  const double f = x / p;
  return (f >= 5 ? 5 : f >= 2 ? 2 : 1) * p;
}

/// Ground grid of `halfCells` minor cells each side of `centre` at height z; every fifth line
/// is a major one; lines fade out towards the rim (split into pieces so the alpha can vary).
void addGrid(LineSet& lines, const Eigen::Vector2d& centre, double step, int halfCells, double z) {
  const Vector3f minor(0.80f, 0.83f, 0.87f), major(0.90f, 0.92f, 0.95f);
  const double half = step * halfCells;
  // Each line in at most 32 pieces: enough for a smooth fade, few enough to draw cheaply.
  const int pieces = std::min(2 * halfCells, 32);
  auto fade = [&](double x, double y) {
    const double r = std::hypot(x - centre.x(), y - centre.y()) / half;
    return static_cast<float>(std::clamp(1.0 - r * r, 0.0, 1.0));
  };
  for (int i = -halfCells; i <= halfCells; ++i) {
    const bool isMajor = i % 5 == 0;
    const Vector3f c = isMajor ? major : minor;
    const float alpha = isMajor ? 0.45f : 0.18f;
    for (int dir = 0; dir < 2; ++dir) {
      for (int k = 0; k < pieces; ++k) {
        const double s0 = -half + 2 * half * k / pieces, s1 = -half + 2 * half * (k + 1) / pieces;
        const double fixed = i * step;
        Eigen::Vector2d a = dir == 0 ? Eigen::Vector2d(fixed, s0) : Eigen::Vector2d(s0, fixed);
        Eigen::Vector2d b = dir == 0 ? Eigen::Vector2d(fixed, s1) : Eigen::Vector2d(s1, fixed);
        a += centre, b += centre;
        const float fa = fade(a.x(), a.y()), fb = fade(b.x(), b.y());
        if (fa <= 0 && fb <= 0) continue;
        lines.points.emplace_back(a.x(), a.y(), z);
        lines.points.emplace_back(b.x(), b.y(), z);
        lines.colors.push_back(rgba(c, alpha * fa));
        lines.colors.push_back(rgba(c, alpha * fb));
      }
    }
  }
}

/// One joint's glyph items at the current poses, sized by g.
void addJointGlyph(std::vector<DrawItem>& out, const Model& m, int j, const std::vector<Pose>& poses, double g) {
  const Joint& jt = m.joints[j];
  const Pose p1 = poseOf(poses, jt.body1), p2 = poseOf(poses, jt.body2);
  const Eigen::Vector3d at = p1.apply(jt.point1);
  const Eigen::Matrix3d f1 = p1.orientation.toRotationMatrix() * jt.frame1;
  const Eigen::Matrix3d f2 = p2.orientation.toRotationMatrix() * jt.frame2;
  DrawItem it;
  it.role = ItemRole::JointGlyph;
  it.joint = j;
  it.color = jointColor(jt.type);
  auto push = [&](Primitive prim, const Eigen::Matrix4f& t) {
    it.primitive = prim;
    it.transform = t;
    out.push_back(it);
  };
  // An arrow along `dir` from `from`: shaft cylinder plus cone head.
  auto arrow = [&](const Eigen::Vector3d& from, const Eigen::Vector3d& dir, double len, double r) {
    const Eigen::Vector3d d = dir.normalized();
    const double head = std::min(0.35 * len, 4 * r);
    push(Primitive::Cylinder, placeAlong(from + d * (len - head) / 2, d, r, len - head));
    push(Primitive::Cone, placeAlong(from + d * (len - head), d, 2.2 * r, head));
  };
  switch (jt.type) {
    case JointType::Revolute:
      // A pin through the joint point along the axis.
      push(Primitive::Cylinder, placeAlong(at, f1.col(2), 0.32 * g, 3.2 * g));
      break;
    case JointType::Prismatic:
      // A square rail along the axis with an arrow head showing its positive direction.
      push(Primitive::Box, placeFrame(at, f1, Eigen::Vector3d(0.45 * g, 0.45 * g, 5.0 * g)));
      arrow(at, f1.col(2), 4.0 * g, 0.12 * g);
      break;
    case JointType::Cylindrical:
      push(Primitive::Cylinder, placeAlong(at, f1.col(2), 0.28 * g, 4.0 * g));
      arrow(at, f1.col(2), 3.4 * g, 0.1 * g);
      break;
    case JointType::Spherical:
      push(Primitive::Sphere, placeAlong(at, Eigen::Vector3d::UnitZ(), 0.75 * g, 0.75 * g));
      break;
    case JointType::Universal:
      // Two crossed pins: axis1 fixed in body1, axis2 fixed in body2.
      push(Primitive::Cylinder, placeAlong(at, f1.col(2), 0.22 * g, 3.0 * g));
      push(Primitive::Cylinder, placeAlong(p2.apply(jt.point2), f2.col(1), 0.22 * g, 3.0 * g));
      push(Primitive::Sphere, placeAlong(at, Eigen::Vector3d::UnitZ(), 0.35 * g, 0.35 * g));
      break;
    case JointType::Planar:
      // A thin disc in the plane with an arrow along its normal.
      push(Primitive::Cylinder, placeAlong(at, f1.col(2), 1.6 * g, 0.12 * g));
      arrow(at, f1.col(2), 2.0 * g, 0.1 * g);
      break;
    case JointType::Fixed:
      push(Primitive::Box, placeAlong(at, f1.col(2), 0.8 * g, 0.8 * g));
      break;
    case JointType::Distance: {
      // A thin rod between the two attachment points, with a ball at each end.
      const Eigen::Vector3d a = at, b = p2.apply(jt.point2);
      const double len = (b - a).norm();
      if (len > 0) push(Primitive::Cylinder, placeAlong((a + b) / 2, b - a, 0.12 * g, len));
      push(Primitive::Sphere, placeAlong(a, Eigen::Vector3d::UnitZ(), 0.35 * g, 0.35 * g));
      push(Primitive::Sphere, placeAlong(b, Eigen::Vector3d::UnitZ(), 0.35 * g, 0.35 * g));
      break;
    }
  }
}

}  // namespace

int Scene::count(ItemRole role) const {
  return static_cast<int>(std::count_if(items.begin(), items.end(), [&](const DrawItem& i) { return i.role == role; }));
}

double Scene::radius() const {
  const double r = bounds.isEmpty() ? 1.0 : 0.5 * bounds.diagonal().norm();
  // The grid reaches out to a couple of scene sizes around the mechanism.
  return std::max(r, 1e-3) * 3.0;
}

std::vector<Pose> initialPoses(const Model& m) {
  std::vector<Pose> poses;
  poses.reserve(m.bodies.size());
  for (const Body& b : m.bodies) poses.push_back(b.pose0);
  return poses;
}

Eigen::Vector3f bodyColor(const Model& m, int body, const Shape& s) {
  // A colour from the file wins; the model's default grey means "none given".
  if (hasOwnColor(s)) return s.color;
  if (body >= 0 && body < static_cast<int>(m.bodies.size()) && m.bodies[body].fixed) return kFixedColor;
  // Moving bodies cycle through the palette in their order among moving bodies.
  int k = 0;
  for (int i = 0; i < body && i < static_cast<int>(m.bodies.size()); ++i)
    if (!m.bodies[i].fixed) ++k;
  const auto& c = kPalette[static_cast<size_t>(k) % kPalette.size()];
  return {c[0], c[1], c[2]};
}

Eigen::Matrix4f poseMatrix(const Pose& p) {
  Eigen::Matrix4d t = Eigen::Matrix4d::Identity();
  t.block<3, 3>(0, 0) = p.orientation.normalized().toRotationMatrix();
  t.block<3, 1>(0, 3) = p.position;
  return t.cast<float>();
}

Eigen::Vector4f traceColor(int k) {
  static const Eigen::Vector4f palette[6] = {{0.85f, 0.2f, 0.75f, 1}, {0.2f, 0.55f, 1.0f, 1}, {0.3f, 0.8f, 0.3f, 1},
                                             {1.0f, 0.4f, 0.2f, 1},   {0.6f, 0.4f, 1.0f, 1},  {0.9f, 0.9f, 0.2f, 1}};
  return palette[((k % 6) + 6) % 6];
}

Eigen::Vector4f highlightColor(const Eigen::Vector4f& c) {
  const Vector4f warm(1.0f, 0.78f, 0.25f, c.w());
  Vector4f h = 0.45f * c + 0.55f * warm;
  h.w() = c.w();
  return h;
}

const Eigen::Vector4f kViolatedJointColor(1.0f, 0.12f, 0.10f, 1.0f);
const Eigen::Vector4f kSelectedGlyphColor(0.20f, 0.90f, 1.00f, 1.0f);  // cyan: apart from the gold joints and the pink handles

Scene buildScene(const Model& m, const std::vector<Pose>& poses, const SceneOptions& opt, const SceneOverlay* overlay) {
  Scene scene;
  const int nb = static_cast<int>(m.bodies.size());

  // Body shapes (visuals replace the shapes when a body has any).
  for (int b = 0; b < nb; ++b) {
    const Body& body = m.bodies[b];
    const Pose pose = poseOf(poses, b);
    for (const Shape& s : body.visuals.empty() ? body.shapes : body.visuals) addShape(scene.items, m, b, s, pose);
  }
  // Deformable parts: their current surfaces, placed in world coordinates already.
  if (overlay)
    for (size_t k = 0; k < overlay->deformables.size(); ++k) {
      const auto& mesh = overlay->deformables[k];
      if (!mesh || mesh->indices.empty()) continue;
      DrawItem it;
      it.role = ItemRole::DeformableSurface;
      it.primitive = Primitive::Mesh;
      it.mesh = mesh;
      it.deformable = static_cast<int>(k);
      it.color = {0.30f, 0.66f, 0.45f, 1.0f};
      if (k < overlay->deformableColors.size() && overlay->deformableColors[k] &&
          overlay->deformableColors[k]->size() == mesh->vertices.size()) {
        it.vertexColors = overlay->deformableColors[k];
        it.color = {1.0f, 1.0f, 1.0f, 1.0f};  // the vertex colours as they are
      }
      scene.items.push_back(it);
    }
  if (overlay && overlay->selectedBody >= 0)
    for (DrawItem& it : scene.items)
      if (it.body == overlay->selectedBody) it.color = highlightColor(it.color);

  // Mechanism bounds: shapes, body origins of shapeless bodies, joint points and handles.
  for (const DrawItem& it : scene.items) scene.bounds.extend(itemBounds(it));
  for (int b = 0; b < nb; ++b)
    if (m.bodies[b].shapes.empty() && m.bodies[b].visuals.empty() && !m.bodies[b].fixed)
      scene.bounds.extend(poseOf(poses, b).position);
  for (const Joint& j : m.joints) {
    scene.bounds.extend(poseOf(poses, j.body1).apply(j.point1));
    scene.bounds.extend(poseOf(poses, j.body2).apply(j.point2));
  }
  for (const Handle& h : m.handles) scene.bounds.extend(poseOf(poses, h.body).apply(h.local));
  if (scene.bounds.isEmpty()) scene.bounds.extend(Eigen::Vector3d::Zero());

  // Glyph size: a few percent of the mechanism, never zero.
  const double diag = scene.bounds.diagonal().norm();
  const double size = diag > 1e-9 ? diag : 1.0;
  scene.glyphSize = 0.025 * size;
  addPlanes(scene.items, m, poses, scene.bounds, size);

  // Joint glyphs, each scaled to the smaller of the bodies it joins (a chain of small links in a
  // long mechanism keeps small pins), within [0.2, 1] × the mechanism's glyph size.
  std::vector<Eigen::AlignedBox3d> bodyBox(nb);
  for (const DrawItem& it : scene.items)
    if (it.role == ItemRole::BodyShape && it.body >= 0 && it.body < nb) bodyBox[it.body].extend(itemBounds(it));
  auto bodySize = [&](int b) { return b >= 0 && b < nb && !bodyBox[b].isEmpty() ? bodyBox[b].diagonal().norm() : 0.0; };
  if (opt.joints) {
    for (int j = 0; j < static_cast<int>(m.joints.size()); ++j) {
      double g = scene.glyphSize;
      for (double sz : {bodySize(m.joints[j].body1), bodySize(m.joints[j].body2)})
        if (sz > 0) g = std::min(g, 0.15 * sz);
      const size_t first = scene.items.size();
      addJointGlyph(scene.items, m, j, poses, std::max(g, 0.2 * scene.glyphSize));
      // A joint whose equations are not met is drawn in red.
      if (overlay && j < static_cast<int>(overlay->jointViolated.size()) && overlay->jointViolated[j])
        for (size_t k = first; k < scene.items.size(); ++k) scene.items[k].color = kViolatedJointColor;
      else if (overlay && j == overlay->selectedJoint)
        for (size_t k = first; k < scene.items.size(); ++k) scene.items[k].color = kSelectedGlyphColor;
    }
  }
  if (opt.handles) {
    for (int h = 0; h < static_cast<int>(m.handles.size()); ++h) {
      DrawItem it;
      it.role = ItemRole::HandleMarker;
      it.primitive = Primitive::Sphere;
      it.body = m.handles[h].body;
      it.handle = h;
      it.color = overlay && h == overlay->selectedHandle ? kSelectedGlyphColor : kHandleColor;
      // Sized like the glyphs of its body's joints.
      double r = 0.6 * scene.glyphSize;
      if (bodySize(it.body) > 0) r = std::max(std::min(r, 0.1 * bodySize(it.body)), 0.15 * scene.glyphSize);
      it.transform = placeAlong(poseOf(poses, it.body).apply(m.handles[h].local), Eigen::Vector3d::UnitZ(), r, r);
      scene.items.push_back(it);
    }
  }

  // Ground grid: at z = 0, or just below the mechanism when it reaches under z = 0.
  scene.gridZ = scene.bounds.min().z() < 0 ? scene.bounds.min().z() - 0.02 * size : 0.0;
  if (opt.grid && overlay && overlay->gridFrom && !overlay->gridFrom->lines.points.empty()) {
    scene.gridSpacing = overlay->gridFrom->gridSpacing;
    scene.gridZ = overlay->gridFrom->gridZ;
    scene.lines = overlay->gridFrom->lines;
    scene.gridId = overlay->gridFrom->gridId;
  } else if (opt.grid) {
    static std::atomic<unsigned> nextGridId{1};
    scene.gridId = nextGridId++;
    scene.gridSpacing = niceStep(size / 8);
    const Eigen::Vector2d c = scene.bounds.center().head<2>();
    const double major = 5 * scene.gridSpacing;
    const Eigen::Vector2d snapped(std::round(c.x() / major) * major, std::round(c.y() / major) * major);
    const double extent = 1.6 * std::max(size, scene.bounds.sizes().head<2>().maxCoeff());
    const int halfCells = std::clamp(static_cast<int>(std::ceil(extent / major)) * 5, 10, 100);
    addGrid(scene.lines, snapped, scene.gridSpacing, halfCells, scene.gridZ);
  }

  // Joint axes: a line through each joint point along its axis (both axes of a universal).
  if (opt.jointAxes) {
    const Vector4f c(1.0f, 0.95f, 0.55f, 0.9f);
    const double half = 6.0 * scene.glyphSize;
    for (const Joint& jt : m.joints) {
      const Pose p1 = poseOf(poses, jt.body1), p2 = poseOf(poses, jt.body2);
      const Eigen::Vector3d at = p1.apply(jt.point1);
      std::vector<Eigen::Vector3d> axes;
      switch (jt.type) {
        case JointType::Revolute:
        case JointType::Prismatic:
        case JointType::Cylindrical:
        case JointType::Planar: axes.push_back(p1.orientation * jt.frame1.col(2)); break;
        case JointType::Universal:
          axes.push_back(p1.orientation * jt.frame1.col(2));
          axes.push_back(p2.orientation * jt.frame2.col(1));
          break;
        default: break;
      }
      for (const Eigen::Vector3d& a : axes)
        scene.overlayLines.add((at - half * a).cast<float>(), (at + half * a).cast<float>(), c);
    }
  }

  // Body frames: a small x/y/z triad at every moving body's frame origin.
  if (opt.bodyFrames) {
    const double len = 4.0 * scene.glyphSize, r = 0.08 * scene.glyphSize;
    const Vector4f colors[3] = {{0.90f, 0.25f, 0.20f, 1}, {0.30f, 0.75f, 0.28f, 1}, {0.25f, 0.45f, 0.95f, 1}};
    for (int b = 0; b < nb; ++b) {
      if (m.bodies[b].fixed) continue;
      const Pose p = poseOf(poses, b);
      for (int a = 0; a < 3; ++a) {
        const Eigen::Vector3d d = p.orientation * Eigen::Vector3d::Unit(a);
        DrawItem it;
        it.role = ItemRole::BodyFrame;
        it.body = b;
        it.color = colors[a];
        it.primitive = Primitive::Cylinder;
        it.transform = placeAlong(p.position + d * len / 2, d, r, len);
        scene.items.push_back(it);
      }
    }
  }

  if (overlay) {
    // The trail of the chosen point, fading towards its oldest end.
    if (opt.trail && overlay->trail.size() >= 2) {
      const size_t n = overlay->trail.size();
      for (size_t k = 1; k < n; ++k) {
        const float a = 0.15f + 0.85f * static_cast<float>(k) / static_cast<float>(n - 1);
        scene.overlayLines.add(overlay->trail[k - 1].cast<float>(), overlay->trail[k].cast<float>(), {1.0f, 0.85f, 0.2f, a});
      }
    }
    // Traced points: each path whole, in its colour; measured distances and angles as segments.
    for (size_t t = 0; t < overlay->traces.size(); ++t) {
      const auto& path = overlay->traces[t];
      const Vector4f c = traceColor(static_cast<int>(t));
      for (size_t k = 1; k < path.size(); ++k) scene.overlayLines.add(path[k - 1].cast<float>(), path[k].cast<float>(), c);
    }
    for (const auto& [a, b] : overlay->measureSegments)
      scene.overlayLines.add(a.cast<float>(), b.cast<float>(), {0.2f, 0.9f, 0.9f, 1.0f});
    // Contact points: a dot and the normal as a line of 4 glyph sizes.
    if (opt.contacts) {
      const Vector4f c(0.95f, 0.25f, 0.15f, 1.0f);
      for (const auto& [point, normal] : overlay->contacts) {
        scene.overlayLines.add(point.cast<float>(), (point + 4 * scene.glyphSize * normal).cast<float>(), c);
        DrawItem it;
        it.role = ItemRole::ContactMarker;
        it.primitive = Primitive::Sphere;
        it.color = c;
        const double r = 0.25 * scene.glyphSize;
        it.transform = placeAlong(point, Eigen::Vector3d::UnitZ(), r, r);
        scene.items.push_back(it);
      }
    }
    // The dragged point and the cursor's target, joined by a line when they differ (the target
    // is out of reach).
    if (overlay->dragging) {
      scene.overlayLines.add(overlay->dragPoint.cast<float>(), overlay->dragTarget.cast<float>(), {1.0f, 0.3f, 0.6f, 1.0f});
      DrawItem it;
      it.role = ItemRole::DragMarker;
      it.primitive = Primitive::Sphere;
      it.color = {1.0f, 0.3f, 0.6f, 1.0f};
      const double r = 0.3 * scene.glyphSize;
      it.transform = placeAlong(overlay->dragTarget, Eigen::Vector3d::UnitZ(), r, r);
      scene.items.push_back(it);
    }
  }

  // World axes at the origin: red x, green y, blue z arrows.
  if (opt.axes) {
    const double len = 0.1 * size, r = 0.01 * size;
    const Vector4f colors[3] = {{0.86f, 0.24f, 0.20f, 1}, {0.30f, 0.72f, 0.28f, 1}, {0.25f, 0.45f, 0.92f, 1}};
    for (int a = 0; a < 3; ++a) {
      const Eigen::Vector3d d = Eigen::Vector3d::Unit(a);
      const double head = 0.22 * len;
      DrawItem it;
      it.role = ItemRole::WorldAxis;
      it.color = colors[a];
      it.primitive = Primitive::Cylinder;
      it.transform = placeAlong(d * (len - head) / 2, d, 0.25 * r, len - head);
      scene.items.push_back(it);
      it.primitive = Primitive::Cone;
      it.transform = placeAlong(d * (len - head), d, 0.7 * r, head);
      scene.items.push_back(it);
    }
  }
  return scene;
}

}  // namespace mechsim::ui
