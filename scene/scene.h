#pragma once
// scene/scene.h — what the viewport draws, built from a Model and body poses without any GL
// (STYLE.md §10, MuJoCo's mjv_ step): shaded items (a unit primitive or a mesh placed by a 4×4
// world transform), coloured line segments (ground grid), and the bounds used by fit-to-view.
// The viewport (ui/viewport.h) only uploads and draws this; tests check it directly.
#include <memory>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "core/model.h"
#include "core/types.h"
#include "scene/primitives.h"

namespace mechsim::ui {

/// What a draw item shows; lets the viewport and the tests tell bodies from glyphs.
enum class ItemRole { BodyShape, JointGlyph, HandleMarker, WorldAxis, BodyFrame, DragMarker, GroundPlane, ContactMarker, DeformableSurface };

struct DrawItem {
  ItemRole role = ItemRole::BodyShape;
  Primitive primitive = Primitive::Box;
  Eigen::Matrix4f transform = Eigen::Matrix4f::Identity();  // unit primitive → world (scales included)
  Eigen::Vector4f color{0.7f, 0.7f, 0.75f, 1.0f};           // linear RGBA
  std::shared_ptr<const MeshData> mesh;                      // Primitive::Mesh only
  int body = -1;    // owning body (BodyShape, HandleMarker)
  int joint = -1;   // JointGlyph
  int handle = -1;  // HandleMarker
  int deformable = -1;  // DeformableSurface: the part (index into SceneOverlay::deformables)
  /// Optional per-vertex colours of a mesh (one per MeshData vertex), multiplied by `color`
  /// (stress colouring of deformable surfaces); null for everything else.
  std::shared_ptr<const std::vector<Eigen::Vector4f>> vertexColors;
};

/// Line segments: vertices in pairs, one colour (RGBA, alpha used for fading) per vertex.
struct LineSet {
  std::vector<Eigen::Vector3f> points;  // (2 × segments)
  std::vector<Eigen::Vector4f> colors;  // (2 × segments)
  void add(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector4f& c) {
    points.push_back(a), points.push_back(b), colors.push_back(c), colors.push_back(c);
  }
  int segmentCount() const { return static_cast<int>(points.size() / 2); }
};

struct SceneOptions {
  bool grid = true;
  bool axes = true;
  bool joints = true;
  bool handles = true;
  bool jointAxes = false;   // a line along each joint's axis through its point
  bool bodyFrames = false;  // an x/y/z triad at each moving body's frame origin
  bool trail = true;        // the trail of the chosen point (SceneOverlay::trail)
  bool contacts = false;    // contact points and normals of the dynamic mode (SceneOverlay::contacts)
};

struct Scene;

/// What changes with the user's actions rather than the model: selection, the trail of a point,
/// joints whose equations are not met, the dragged point and its target.
struct SceneOverlay {
  int selectedBody = -1;                    // drawn highlighted
  int selectedJoint = -1;                   // its glyph drawn highlighted
  int selectedHandle = -1;                  // its marker drawn highlighted
  std::vector<Eigen::Vector3d> trail;       // past positions of the chosen point, oldest first
  /// Traced points (Measure → Trace Point): each one's path over the recorded history, oldest
  /// first, drawn in its own colour of traceColor(k).
  std::vector<std::vector<Eigen::Vector3d>> traces;
  /// Distances and angles measured: their segments between the points, now (world).
  std::vector<std::pair<Eigen::Vector3d, Eigen::Vector3d>> measureSegments;
  std::vector<char> jointViolated;          // (joints) 1: the joint's residual is above tolerance
  bool dragging = false;
  /// Surfaces of the deformable parts (world coordinates), drawn like bodies.
  std::vector<std::shared_ptr<const MeshData>> deformables;
  /// Per part (same order), per surface vertex: colours replacing the surfaces' plain colour
  /// (stress colouring, scene/stress_colours.h); empty or null entries: plain colour.
  std::vector<std::shared_ptr<const std::vector<Eigen::Vector4f>>> deformableColors;
  /// Contact points (world) and their unit normals, drawn as a dot and a short arrow.
  std::vector<std::pair<Eigen::Vector3d, Eigen::Vector3d>> contacts;
  /// A grid built before (Scene::lines, gridSpacing, gridZ of an earlier scene of the same
  /// model): reused as it is, so that the grid does not follow the mechanism's bounds frame by frame.
  const Scene* gridFrom = nullptr;
  Eigen::Vector3d dragPoint = Eigen::Vector3d::Zero(), dragTarget = Eigen::Vector3d::Zero();
};

/// Colour of the k-th traced point's path (a palette that repeats after 6; distinct from the
/// drag trail's amber).
Eigen::Vector4f traceColor(int k);
/// Colour of a highlighted (selected) body: its own colour lifted towards a warm highlight.
Eigen::Vector4f highlightColor(const Eigen::Vector4f& c);
/// Colour of a joint glyph whose equations are violated.
extern const Eigen::Vector4f kViolatedJointColor;
/// Colour of the selected joint's glyph and the selected handle's marker.
extern const Eigen::Vector4f kSelectedGlyphColor;

struct Scene {
  std::vector<DrawItem> items;
  LineSet lines;                  // ground grid (rebuilt only when it changes: large)
  LineSet overlayLines;           // joint axes, trail, drag line (small, change every frame)
  Eigen::AlignedBox3d bounds;     // the mechanism (bodies, joint points, handles): fit-to-view
  double glyphSize = 0;           // characteristic size of joint glyphs (m)
  double gridSpacing = 0;         // minor grid spacing (m); 0 when no grid
  double gridZ = 0;               // height of the ground grid
  unsigned gridId = 0;            // identifies the grid's contents (equal ids: equal grids)

  int count(ItemRole role) const;
  /// Bounding radius for the projection's depth range: the bounds plus what the grid adds.
  double radius() const;
};

/// Poses at the file's configuration (pose0 of every body).
std::vector<Pose> initialPoses(const Model& m);

/// The colour a body's shape is drawn with: the shape's own colour when the file gave one,
/// otherwise a palette colour per body (fixed bodies: a neutral grey).
Eigen::Vector3f bodyColor(const Model& m, int body, const Shape& s);

/// 4×4 matrix of a Pose (rotation and translation).
Eigen::Matrix4f poseMatrix(const Pose& p);

/// Builds the scene of model m with bodies at `poses` (one per body; see bodyPoses), with the
/// overlay when given.
Scene buildScene(const Model& m, const std::vector<Pose>& poses, const SceneOptions& opt = {},
                 const SceneOverlay* overlay = nullptr);

}  // namespace mechsim::ui
