#pragma once
// ui/viewport.h — the 3-D view: an OpenGL 3.3 core-profile QOpenGLWidget that draws a Scene
// (ui/scene.h) with Blinn-Phong shading from a headlight over a background gradient, plus the
// orbit camera's mouse and keyboard gestures. It draws only what it is given: the scene is built
// elsewhere from finished frames (STYLE.md §9-10).
//
// Gestures: left drag orbits, middle drag or shift+left drag pans, right drag or the wheel zooms,
// F fits the scene in the view. A mouse hook (handle dragging) sees each press first and may
// take the gesture over.
#include <map>
#include <memory>

#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLShaderProgram>
#include <QOpenGLWidget>
#include <QPoint>
#include <QSurfaceFormat>

#include "ui/camera.h"
#include "ui/scene.h"

namespace mechsim::ui {

/// What OpenGL context the viewport got (filled by initializeGL).
struct GlInfo {
  bool initialized = false;   // initializeGL ran
  bool ok = false;            // a 3.3+ core context with working shaders
  int major = 0, minor = 0;
  bool coreProfile = false;
  QString version, renderer, error;
};

/// Takes mouse gestures before the camera does (handle dragging: ui/drag_handler.h).
class ViewportMouseHook {
 public:
  virtual ~ViewportMouseHook() = default;
  /// True: the hook owns the gesture until the button is released (no camera motion).
  virtual bool press(QMouseEvent* e) = 0;
  virtual void move(QMouseEvent* e) = 0;
  virtual void release(QMouseEvent* e) = 0;
};

class Viewport : public QOpenGLWidget, protected QOpenGLFunctions_3_3_Core {
  Q_OBJECT
 public:
  explicit Viewport(QWidget* parent = nullptr);
  ~Viewport() override;

  /// The context the viewport asks for: OpenGL 3.3 core, 24-bit depth, 4× multisampling
  /// (none on a software renderer).
  static QSurfaceFormat requiredFormat();
  /// The application's default format, installed by main() with QSurfaceFormat::setDefaultFormat
  /// before QApplication exists: requiredFormat() without multisampling. The window that
  /// composes the viewport with the other widgets uses it; multisampling there would multiply the
  /// cost of every frame by the samples over the whole window (the viewport keeps its own 4×).
  static QSurfaceFormat applicationFormat();
  /// True when OpenGL is a software rasteriser (llvmpipe, softpipe): the viewport then draws
  /// without multisampling, which would multiply the cost of every frame.
  static bool softwareRenderer();

  /// Replaces the drawn scene; with `fit` the camera frames its bounds (now, or at the first
  /// paint when the widget has no size yet).
  void setScene(Scene scene, bool fit);
  const Scene& scene() const { return scene_; }

  Camera& camera() { return camera_; }
  const Camera& camera() const { return camera_; }
  const GlInfo& glInfo() const { return glInfo_; }
  /// Number of completed paintGL calls.
  int paintCount() const { return paintCount_; }
  /// Mouse gestures go to `hook` first (null: camera only). Not owned.
  void setMouseHook(ViewportMouseHook* hook) { hook_ = hook; }

 public slots:
  void fitToView();

 signals:
  void cameraChanged();
  /// Emitted at the end of every paintGL.
  void framePainted();

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;

 private:
  struct GpuMesh {
    unsigned vao = 0, vbo = 0, ebo = 0;
    int indexCount = 0;
  };
  GpuMesh upload(const TriangleMesh& mesh);
  void release(GpuMesh& m);
  const GpuMesh* meshFor(const DrawItem& item);
  void drawItems(const Eigen::Matrix4f& view, const Eigen::Matrix4f& proj, const std::vector<DrawItem>& items);
  void drawLines(const Eigen::Matrix4f& view, const Eigen::Matrix4f& proj);
  void drawHiddenGlyphs(const Eigen::Matrix4f& view, const Eigen::Matrix4f& proj);
  void drawBackground();
  void drawAxisTriad();
  /// Uploads a line set into (vao, vbo); returns its vertex count.
  int uploadLines(const LineSet& lines, unsigned vao, unsigned vbo);
  void drawLineBuffer(const Eigen::Matrix4f& view, const Eigen::Matrix4f& proj, unsigned vao, int count);
  void releaseGl();

  Scene scene_;
  Camera camera_;
  bool pendingFit_ = false;
  bool autoFit_ = false;  // the camera was last placed by a fit: a resize fits again
  bool linesDirty_ = true;
  GlInfo glInfo_;
  int paintCount_ = 0;

  // GL resources (valid between initializeGL and releaseGl).
  std::unique_ptr<QOpenGLShaderProgram> shaded_, lines_, background_;
  GpuMesh primitives_[4];  // Box, Cylinder, Sphere, Cone
  std::map<const MeshData*, std::pair<std::shared_ptr<const MeshData>, GpuMesh>> meshes_;
  unsigned lineVao_ = 0, lineVbo_ = 0;
  int lineVertexCount_ = 0;
  unsigned overlayVao_ = 0, overlayVbo_ = 0;  // overlay lines, re-uploaded with every scene
  int overlayVertexCount_ = 0;
  bool overlayDirty_ = true;
  unsigned emptyVao_ = 0;
  QMetaObject::Connection contextConnection_;  // context aboutToBeDestroyed → releaseGl

  // Mouse drag state.
  QPoint lastPos_;
  Qt::MouseButton dragButton_ = Qt::NoButton;
  bool dragPans_ = false;
  ViewportMouseHook* hook_ = nullptr;
  bool hookOwns_ = false;
};

}  // namespace mechsim::ui
