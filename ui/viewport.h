#pragma once
// ui/viewport.h — the 3-D view: a widget holding a native OpenGL 3.3 core-profile window that
// draws a Scene (scene/scene.h) with Blinn-Phong shading from a headlight over a background
// gradient, plus the orbit camera's mouse and keyboard gestures. It draws only what it is given:
// the scene is built elsewhere from finished frames (STYLE.md §9-10).
//
// Why a native window (QOpenGLWindow in QWidget::createWindowContainer) and not a QOpenGLWidget:
// a QOpenGLWidget draws into a framebuffer object, and Qt then composes the whole top-level
// window (every widget's backing store plus that texture) through OpenGL for every frame. On a
// software rasteriser (llvmpipe) that composition of the full window cost more than drawing the
// scene itself. The native window's frames go straight to its X window by a buffer swap; the
// other widgets are flushed as plain images, and only where they changed.
// The Viewport widget stays the public face: the GL window forwards its mouse, wheel and key
// events to it (so tests and the benchmark may send events to the widget directly), update()
// schedules a GL frame, grabFramebuffer() renders one offscreen, and the widget's own paintEvent
// draws the last frame so that QWidget::grab() of the main window still shows the 3-D view.
//
// Cost per frame (a software rasteriser such as llvmpipe pays for every triangle and pixel): the
// unit primitives are uploaded once, at three levels of detail chosen per item by its projected
// size; all items are drawn instanced (one draw call per mesh and level, the per-item matrices and
// colours streamed in one buffer); on a hardware renderer the background gradient and the ground
// grid are drawn into a cached texture only when the camera or the grid changes and copied into
// each frame otherwise (on a software one that copy costs more than drawing them); no
// multisampling on a software renderer unless the setting "view/samples" asks for it.
// MECHSIM_PAINT_PROFILE=1 prints the mean time of each part of paintGL.
//
// Gestures: left drag orbits, middle drag or shift+left drag pans, right drag or the wheel zooms,
// F fits the scene in the view. A mouse hook (handle dragging) sees each press first and may
// take the gesture over.
#include <map>
#include <memory>
#include <vector>

#include <QElapsedTimer>
#include <QImage>
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLShaderProgram>
#include <QPoint>
#include <QSurfaceFormat>
#include <QWidget>

#include "scene/camera.h"
#include "scene/scene.h"

class QOpenGLContext;
class QOpenGLWindow;
class QWindow;

namespace mechsim::ui {

class ViewportWindow;

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

class Viewport : public QWidget, protected QOpenGLFunctions_3_3_Core {
  Q_OBJECT
 public:
  explicit Viewport(QWidget* parent = nullptr);
  ~Viewport() override;

  /// The context the viewport asks for: OpenGL 3.3 core, 24-bit depth, 4× multisampling (the
  /// viewport itself uses viewSamples()).
  static QSurfaceFormat requiredFormat();
  /// The application's default format, installed by main() with QSurfaceFormat::setDefaultFormat
  /// before QApplication exists: requiredFormat() without multisampling. The window that
  /// composes the viewport with the other widgets uses it; multisampling there would multiply the
  /// cost of every frame by the samples over the whole window (the viewport has its own setting).
  static QSurfaceFormat applicationFormat();
  /// True when OpenGL is a software rasteriser (llvmpipe, softpipe): the viewport then draws
  /// without multisampling, which would multiply the cost of every frame.
  static bool softwareRenderer();
  /// Multisample count of the 3-D view: the setting "view/samples" (QSettings) when present,
  /// else 4 on a hardware renderer and 0 (none) on a software one. Read when a Viewport is made.
  static int viewSamples();

  /// Replaces the drawn scene; with `fit` the camera frames its bounds (now, or at the first
  /// paint when the widget has no size yet).
  void setScene(Scene scene, bool fit);
  const Scene& scene() const { return scene_; }

  Camera& camera() { return camera_; }
  const Camera& camera() const { return camera_; }
  const GlInfo& glInfo() const { return glInfo_; }
  /// Number of frames drawn into the window (grabFramebuffer() renders are not counted).
  int paintCount() const { return paintCount_; }
  /// Schedules a frame of the GL window. Hides QWidget::update(), which would repaint only the
  /// widget beneath that window.
  void update();
  /// The 3-D view as it is now (width × height × device pixel ratio), rendered offscreen into a
  /// framebuffer object and read back. Null before the GL window was first exposed.
  QImage grabFramebuffer();
  /// The scene rendered offscreen at `pixels` (device pixels, whatever the widget's size), with the
  /// view's camera — its vertical field of view kept, the width following the image's aspect —
  /// into a framebuffer object and read back (File → Record Video). Null before the GL window was
  /// first exposed or when the size exceeds what the framebuffer takes.
  QImage renderImage(const QSize& pixels);
  /// The native window the frames are drawn into and where the system's input events arrive.
  QWindow* renderWindow() const;
  /// The format of the GL window's context (as granted once it exists).
  QSurfaceFormat format() const;
  /// Mouse gestures go to `hook` first (null: camera only). Not owned.
  void setMouseHook(ViewportMouseHook* hook) { hook_ = hook; }

 public slots:
  void fitToView();

 signals:
  void cameraChanged();
  /// Emitted at the end of every paintGL.
  void framePainted();

 protected:
  void paintEvent(QPaintEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;

 private:
  friend class ViewportWindow;
  // Called by the GL window with its context current.
  void initializeGL();
  void resizeGL(int w, int h);
  /// A frame on the screen: render() into the window's framebuffer, counted, framePainted.
  void paintGL();
  /// Draws the scene into framebuffer `fbo` (the window's, or grabFramebuffer()'s).
  void render(unsigned fbo);
  QOpenGLContext* context() const;

  struct GpuMesh {
    unsigned vao = 0, vbo = 0, ebo = 0;
    unsigned cbo = 0;  // per-vertex colours (attribute 10), 0: none
    int indexCount = 0;
  };
  /// Where the level of detail of a round primitive is chosen: pixels per world unit at unit
  /// depth (perspective) or everywhere (orthographic, `ortho`), and the eye's position and axis.
  struct LodView {
    Eigen::Vector3f eye = Eigen::Vector3f::Zero(), forward = -Eigen::Vector3f::UnitZ();
    float pixelsPerUnit = 1;
    bool ortho = false;
  };
  /// Uploads a mesh; with `colors` (one per position) also its per-vertex colours.
  GpuMesh upload(const TriangleMesh& mesh, const std::vector<Eigen::Vector4f>* colors = nullptr);
  /// Releases the uploaded meshes that no item of the current scene uses.
  void pruneMeshes();
  void release(GpuMesh& m);
  const GpuMesh* meshFor(const DrawItem& item, const LodView& lod);
  /// Draws `items` instanced: one draw call per distinct mesh (and level of detail), the model
  /// matrices, normal matrices and colours as per-instance attributes uploaded in one buffer.
  /// alpha ≥ 0 replaces every item's alpha.
  void drawItems(const Eigen::Matrix4f& view, const Eigen::Matrix4f& proj, const std::vector<DrawItem>& items,
                 const LodView& lod, float alpha = -1);
  void drawHiddenGlyphs(const Eigen::Matrix4f& view, const Eigen::Matrix4f& proj, const LodView& lod);
  void drawBackground();
  void drawAxisTriad();
  /// Background gradient and ground grid: drawn into a cached texture when the camera or the
  /// grid changed, else copied from it. Returns 2 (gradient and grid copied), 1 (gradient only:
  /// the grid is to be drawn over the shapes) or 0 (nothing cached: draw both).
  int drawCachedBackdrop(const Eigen::Matrix4f& view, const Eigen::Matrix4f& proj, int w, int h);
  /// Uploads a line set into (vao, vbo); returns its vertex count.
  int uploadLines(const LineSet& lines, unsigned vao, unsigned vbo);
  void drawLineBuffer(const Eigen::Matrix4f& view, const Eigen::Matrix4f& proj, unsigned vao, int count);
  void releaseGl();

  ViewportWindow* window_ = nullptr;  // owned by its container widget, a child of this
  unsigned targetFbo_ = 0;            // the framebuffer render() draws into
  QSize renderSize_;                  // renderImage(): render()'s size in pixels (invalid: the widget's)
  QImage lastFrame_;                  // read back for paintEvent when frameDirty_
  bool frameDirty_ = true;
  Scene scene_;
  Camera camera_;
  bool pendingFit_ = false;
  bool autoFit_ = false;  // the camera was last placed by a fit: a resize fits again
  bool linesDirty_ = true;
  GlInfo glInfo_;
  bool softwareGl_ = false;  // the context's renderer is a software rasteriser (initializeGL)
  int paintCount_ = 0;
  // MECHSIM_PAINT_PROFILE: sums of the parts of render() and of the swap, over profileFrames_.
  double profileMs_[7] = {0, 0, 0, 0, 0, 0, 0};
  int profileFrames_ = 0;
  const char* profileBackdrop_ = "";
  QElapsedTimer profileSwap_;  // valid only when profiling

  // GL resources (valid between initializeGL and releaseGl).
  std::unique_ptr<QOpenGLShaderProgram> shaded_, lines_, background_;
  static constexpr int kLods = 3;  // facets around the axis: kLodSegments in viewport.cpp
  GpuMesh primitives_[4][kLods];   // Box, Cylinder, Sphere, Cone × level of detail
  unsigned instanceVbo_ = 0;       // per-instance attributes of the current draw (streamed)
  std::vector<float> instanceData_;
  // The backdrop cache (background + grid) and what it was drawn for.
  unsigned cacheFbo_ = 0, cacheTex_ = 0;
  int cacheW_ = 0, cacheH_ = 0;
  bool cacheValid_ = false, cacheHasGrid_ = false;
  Eigen::Matrix4f cacheView_ = Eigen::Matrix4f::Zero(), cacheProj_ = Eigen::Matrix4f::Zero();
  int linesVersion_ = 0, cacheLinesVersion_ = -1;
  // Uploaded scene meshes by (mesh, per-vertex colours or null); the entry keeps both alive.
  using MeshKey = std::pair<const MeshData*, const std::vector<Eigen::Vector4f>*>;
  struct MeshEntry {
    std::shared_ptr<const MeshData> mesh;
    std::shared_ptr<const std::vector<Eigen::Vector4f>> colors;
    GpuMesh gpu;
  };
  std::map<MeshKey, MeshEntry> meshes_;
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
