#pragma once
// ui/viewport.h — the 3-D view: an OpenGL 3.3 core-profile QOpenGLWidget that draws a Scene
// (ui/scene.h) with Blinn-Phong shading from a headlight over a background gradient, plus the
// orbit camera's mouse and keyboard gestures. It draws only what it is given: the scene is built
// elsewhere from finished frames (STYLE.md §9-10).
//
// Gestures: left drag orbits, middle drag or shift+left drag pans, right drag or the wheel zooms,
// F fits the scene in the view.
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

class Viewport : public QOpenGLWidget, protected QOpenGLFunctions_3_3_Core {
  Q_OBJECT
 public:
  explicit Viewport(QWidget* parent = nullptr);
  ~Viewport() override;

  /// The context the viewport asks for: OpenGL 3.3 core, 24-bit depth, 4× multisampling.
  /// main() installs it with QSurfaceFormat::setDefaultFormat before QApplication exists.
  static QSurfaceFormat requiredFormat();

  /// Replaces the drawn scene; with `fit` the camera frames its bounds (now, or at the first
  /// paint when the widget has no size yet).
  void setScene(Scene scene, bool fit);
  const Scene& scene() const { return scene_; }

  Camera& camera() { return camera_; }
  const Camera& camera() const { return camera_; }
  const GlInfo& glInfo() const { return glInfo_; }
  /// Number of completed paintGL calls.
  int paintCount() const { return paintCount_; }

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
  void uploadLines();
  void releaseGl();

  Scene scene_;
  Camera camera_;
  bool pendingFit_ = false;
  bool linesDirty_ = true;
  GlInfo glInfo_;
  int paintCount_ = 0;

  // GL resources (valid between initializeGL and releaseGl).
  std::unique_ptr<QOpenGLShaderProgram> shaded_, lines_, background_;
  GpuMesh primitives_[4];  // Box, Cylinder, Sphere, Cone
  std::map<const MeshData*, std::pair<std::shared_ptr<const MeshData>, GpuMesh>> meshes_;
  unsigned lineVao_ = 0, lineVbo_ = 0;
  int lineVertexCount_ = 0;
  unsigned emptyVao_ = 0;
  QMetaObject::Connection contextConnection_;  // context aboutToBeDestroyed → releaseGl

  // Mouse drag state.
  QPoint lastPos_;
  Qt::MouseButton dragButton_ = Qt::NoButton;
  bool dragPans_ = false;
};

}  // namespace mechsim::ui
