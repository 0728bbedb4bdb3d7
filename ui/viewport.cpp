// ui/viewport.cpp — OpenGL 3.3 core drawing of a Scene in a native GL window; camera gestures.
#include "ui/viewport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>
#include <QOpenGLWindow>
#include <QPainter>
#include <QSettings>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <numeric>

namespace mechsim::ui {
namespace {

// Shaded items: world-space normals through the inverse-transpose of the model matrix, lit by a
// headlight at the eye (Blinn-Phong) plus a sky/ground hemisphere fill that keeps the faces
// turned away from the viewer readable. Both faces are lit (mesh files may wind either way).
// Drawn instanced: the model matrix, its normal matrix and the colour are per-instance attributes.
// A mesh with per-vertex colours (stress colouring) has attribute 10 as an array in its vertex
// array object; every other mesh leaves it disabled, so the shader reads its current constant
// value, white (set before each draw): the rigid shapes' vertex data are unchanged.
const char* kShadedVs = R"(#version 330 core
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in mat4 iModel;     // locations 2-5
layout(location = 6) in mat3 iNormalMat;  // locations 6-8
layout(location = 9) in vec4 iColor;
layout(location = 10) in vec4 aColor;    // per vertex, or constant white
uniform mat4 uView;
uniform mat4 uProj;
out vec3 vPosView;
out vec3 vNormalView;
out vec3 vNormalWorld;
out vec4 vColor;
void main() {
  vec4 pv = uView * iModel * vec4(aPos, 1.0);
  vPosView = pv.xyz;
  vNormalWorld = iNormalMat * aNormal;
  vNormalView = mat3(uView) * vNormalWorld;
  vColor = iColor * aColor;
  gl_Position = uProj * pv;
}
)";

const char* kShadedFs = R"(#version 330 core
in vec3 vPosView;
in vec3 vNormalView;
in vec3 vNormalWorld;
in vec4 vColor;
out vec4 fragColor;
void main() {
  vec3 v = normalize(-vPosView);
  vec3 n = normalize(vNormalView);
  vec3 nw = normalize(vNormalWorld);
  if (dot(n, v) < 0.0) { n = -n; nw = -nw; }
  float diffuse = max(dot(n, v), 0.0);
  float spec = pow(max(dot(n, v), 0.0), 60.0);
  float hemi = 0.5 + 0.5 * nw.z;
  vec3 ambient = mix(vec3(0.16, 0.15, 0.14), vec3(0.32, 0.34, 0.38), hemi);
  vec3 c = vColor.rgb * (ambient + 0.72 * diffuse) + vec3(0.28) * spec;
  fragColor = vec4(c, vColor.a);
}
)";

const char* kLinesVs = R"(#version 330 core
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec4 aColor;
uniform mat4 uViewProj;
out vec4 vColor;
void main() {
  vColor = aColor;
  gl_Position = uViewProj * vec4(aPos, 1.0);
}
)";

const char* kLinesFs = R"(#version 330 core
in vec4 vColor;
out vec4 fragColor;
void main() { fragColor = vColor; }
)";

// A full-screen triangle from gl_VertexID with a vertical gradient (no vertex buffer).
const char* kBackgroundVs = R"(#version 330 core
out float vY;
void main() {
  vec2 p = vec2((gl_VertexID == 1) ? 3.0 : -1.0, (gl_VertexID == 2) ? 3.0 : -1.0);
  vY = 0.5 * (p.y + 1.0);
  gl_Position = vec4(p, 0.999, 1.0);
}
)";

const char* kBackgroundFs = R"(#version 330 core
in float vY;
uniform vec3 uTop;
uniform vec3 uBottom;
out vec4 fragColor;
void main() { fragColor = vec4(mix(uBottom, uTop, smoothstep(0.0, 1.0, vY)), 1.0); }
)";

const Eigen::Vector3f kBackgroundTop(0.20f, 0.24f, 0.30f);
const Eigen::Vector3f kBackgroundBottom(0.56f, 0.61f, 0.68f);
constexpr float kHiddenGlyphAlpha = 0.3f;

// Levels of detail of the round primitives (facets around the axis) and the projected radius in
// pixels up to which each is used: the silhouette of n facets at radius r pixels deviates from the
// circle by r (1 − cos(π/n)), kept under about half a pixel. A software rasteriser pays for every
// triangle; small spheres and cylinders need few.
constexpr int kLodSegments[3] = {10, 20, 40};
constexpr float kLodMaxPixels[2] = {8.0f, 30.0f};
// Per-instance attributes: model matrix (16), normal matrix (9), colour (4).
constexpr int kInstanceFloats = 29;

/// True for the GL_RENDERER string of a software rasteriser.
bool isSoftwareRendererName(const QByteArray& r) {
  return r.contains("llvmpipe") || r.contains("softpipe") || r.contains("SWR") || r.contains("Software");
}

}  // namespace

/// The native window inside the Viewport widget: it owns the GL context and presents each frame
/// by a buffer swap straight to its X window (NoPartialUpdate: no framebuffer object in between);
/// drawing and input belong to the Viewport.
class ViewportWindow : public QOpenGLWindow {
 public:
  explicit ViewportWindow(Viewport* view) : QOpenGLWindow(QOpenGLWindow::NoPartialUpdate), view_(view) {
    // Keyboard focus stays with the widgets: a click here does not activate this window, so the
    // focused widget (the Viewport, which takes focus on a press) gets the keys and the main
    // window's shortcuts work as they do anywhere else in it.
    setFlag(Qt::WindowDoesNotAcceptFocus);
  }

 protected:
  void initializeGL() override { view_->initializeGL(); }
  void resizeGL(int w, int h) override { view_->resizeGL(w, h); }
  void paintGL() override { view_->paintGL(); }
  bool event(QEvent* e) override {
    switch (e->type()) {
      case QEvent::MouseButtonPress:
      case QEvent::MouseButtonRelease:
      case QEvent::MouseButtonDblClick:
      case QEvent::MouseMove:
      case QEvent::Wheel:
      case QEvent::KeyPress:
      case QEvent::KeyRelease:
        // To the widget, as if they had arrived there: this window covers it exactly (same
        // coordinates), and what the widget ignores goes on to its parents.
        return QCoreApplication::sendEvent(view_, e);
      default:
        return QOpenGLWindow::event(e);
    }
  }

 private:
  Viewport* view_;
};

Viewport::Viewport(QWidget* parent) : QWidget(parent) {
  // Multisampling multiplies a software rasteriser's work per frame; there the view goes without
  // unless the setting asks for it.
  QSurfaceFormat f = requiredFormat();
  f.setSamples(viewSamples());
  window_ = new ViewportWindow(this);
  window_->setFormat(f);
  QWidget* container = QWidget::createWindowContainer(window_, this);
  container->setFocusPolicy(Qt::NoFocus);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(container);
  setFocusPolicy(Qt::StrongFocus);
  setMinimumSize(200, 150);
  // MECHSIM_PAINT_PROFILE: the swap (presenting the frame) is timed from the end of paintGL.
  if (qEnvironmentVariableIsSet("MECHSIM_PAINT_PROFILE")) {
    profileSwap_.start();
    connect(window_, &QOpenGLWindow::frameSwapped, this, [this] { profileMs_[6] += profileSwap_.nsecsElapsed() * 1e-6; });
  }
}

Viewport::~Viewport() {
  // GL objects must be freed with the context current. The context outlives this destructor
  // (the window, deleted with its container after it, destroys it), so its aboutToBeDestroyed
  // must not reach us any more.
  QObject::disconnect(contextConnection_);
  if (window_->context()) {
    window_->makeCurrent();
    releaseGl();
    window_->doneCurrent();
  }
}

QWindow* Viewport::renderWindow() const { return window_; }

QOpenGLContext* Viewport::context() const { return window_->context(); }

QSurfaceFormat Viewport::format() const { return context() ? context()->format() : window_->format(); }

void Viewport::update() {
  frameDirty_ = true;
  window_->update();  // a frame on the next pass of the event loop (app/main_gui.cpp: QT_QPA_UPDATE_IDLE_TIME)
}

QImage Viewport::grabFramebuffer() {
  if (!glInfo_.ok || !context() || width() <= 0 || height() <= 0) return {};
  // The same drawing as a frame on the screen, into a framebuffer object of the view's size
  // (multisampled like the window; toImage() resolves it), without counting as a frame.
  window_->makeCurrent();
  const qreal dpr = devicePixelRatioF();
  QOpenGLFramebufferObjectFormat fboFormat;
  fboFormat.setAttachment(QOpenGLFramebufferObject::CombinedDepthStencil);
  fboFormat.setSamples(std::max(0, format().samples()));
  QOpenGLFramebufferObject fbo(QSize(int(width() * dpr), int(height() * dpr)), fboFormat);
  if (!fbo.isValid()) return {};
  render(fbo.handle());
  QImage image = fbo.toImage();  // rows top to bottom (GL's are bottom to top)
  image.setDevicePixelRatio(dpr);
  return image;
}

QImage Viewport::renderImage(const QSize& pixels) {
  if (!glInfo_.ok || !context() || pixels.isEmpty()) return {};
  // As grabFramebuffer(), at a size of its own: render() takes its viewport, aspect and corner
  // triad from renderSize_ (at a device pixel ratio of 1) instead of the widget.
  window_->makeCurrent();
  QOpenGLFramebufferObjectFormat fboFormat;
  fboFormat.setAttachment(QOpenGLFramebufferObject::CombinedDepthStencil);
  fboFormat.setSamples(std::max(0, format().samples()));
  QOpenGLFramebufferObject fbo(pixels, fboFormat);
  if (!fbo.isValid()) return {};
  renderSize_ = pixels;
  render(fbo.handle());
  renderSize_ = QSize();
  return fbo.toImage();
}

void Viewport::paintEvent(QPaintEvent*) {
  // On the screen the GL window covers this widget and this picture is never seen; it is what
  // QWidget::grab() / render() of an ancestor (the window's screenshots) show for the 3-D view.
  // Read back only when a frame was drawn since the last time.
  if (frameDirty_ || lastFrame_.size() != size() * devicePixelRatioF()) {
    lastFrame_ = grabFramebuffer();
    frameDirty_ = false;
  }
  QPainter p(this);
  if (lastFrame_.isNull()) p.fillRect(rect(), QColor::fromRgbF(kBackgroundTop.x(), kBackgroundTop.y(), kBackgroundTop.z()));
  else p.drawImage(rect(), lastFrame_);
}

bool Viewport::softwareRenderer() {
  // Asked once: a throw-away context on an offscreen surface names the renderer.
  static const bool software = [] {
    QOffscreenSurface surface;
    surface.setFormat(QSurfaceFormat::defaultFormat());
    surface.create();
    QOpenGLContext ctx;
    ctx.setFormat(QSurfaceFormat::defaultFormat());
    if (!ctx.create() || !ctx.makeCurrent(&surface)) return false;
    const QByteArray r = reinterpret_cast<const char*>(ctx.functions()->glGetString(GL_RENDERER));
    ctx.doneCurrent();
    return isSoftwareRendererName(r);
  }();
  return software;
}

int Viewport::viewSamples() {
  const QVariant v = QSettings().value("view/samples");
  if (v.isValid()) return std::clamp(v.toInt(), 0, 16);
  return softwareRenderer() ? 0 : 4;
}

QSurfaceFormat Viewport::requiredFormat() {
  QSurfaceFormat f;
  f.setRenderableType(QSurfaceFormat::OpenGL);
  f.setVersion(3, 3);
  f.setProfile(QSurfaceFormat::CoreProfile);
  f.setDepthBufferSize(24);
  f.setStencilBufferSize(8);
  f.setSamples(4);
  return f;
}

QSurfaceFormat Viewport::applicationFormat() {
  QSurfaceFormat f = requiredFormat();
  f.setSamples(0);
  return f;
}

void Viewport::setScene(Scene scene, bool fit) {
  // The grid is re-uploaded only when it changed (frames of a moving mechanism usually keep it).
  const bool sameLines = (scene.gridId != 0 && scene.gridId == scene_.gridId) ||
                         (scene.lines.points == scene_.lines.points && scene.lines.colors == scene_.lines.colors);
  scene_ = std::move(scene);
  linesDirty_ = linesDirty_ || !sameLines;
  overlayDirty_ = true;
  if (fit) pendingFit_ = true;
  if (fit) autoFit_ = true;
  if (fit && width() > 0 && height() > 0 && isVisible()) {
    camera_.fit(scene_.bounds, double(width()) / height());
    pendingFit_ = false;
    emit cameraChanged();
  }
  update();
}

void Viewport::fitToView() {
  camera_.fit(scene_.bounds, height() > 0 ? double(width()) / height() : 1.0);
  pendingFit_ = false;
  emit cameraChanged();
  update();
}

void Viewport::initializeGL() {
  glInfo_ = GlInfo{};
  glInfo_.initialized = true;
  QOpenGLContext* ctx = context();
  const QSurfaceFormat got = ctx->format();
  glInfo_.major = got.majorVersion();
  glInfo_.minor = got.minorVersion();
  glInfo_.coreProfile = got.profile() == QSurfaceFormat::CoreProfile;
  // The 3.3 core entry points resolve only in a 3.3+ core (or forward-compatible) context.
  if (!initializeOpenGLFunctions()) {
    glInfo_.error = QStringLiteral("OpenGL 3.3 core profile not available (got %1.%2 %3)")
                        .arg(glInfo_.major).arg(glInfo_.minor).arg(glInfo_.coreProfile ? "core" : "compatibility");
    qWarning("mechsim: %s", qPrintable(glInfo_.error));
    return;
  }
  glInfo_.version = QString::fromLatin1(reinterpret_cast<const char*>(glGetString(GL_VERSION)));
  glInfo_.renderer = QString::fromLatin1(reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  softwareGl_ = isSoftwareRendererName(glInfo_.renderer.toLatin1());
  QObject::disconnect(contextConnection_);
  contextConnection_ = connect(ctx, &QOpenGLContext::aboutToBeDestroyed, this, [this] {
    window_->makeCurrent();
    releaseGl();
    window_->doneCurrent();
  });

  // Shader programs.
  auto build = [&](const char* vs, const char* fs) -> std::unique_ptr<QOpenGLShaderProgram> {
    auto p = std::make_unique<QOpenGLShaderProgram>();
    if (!p->addShaderFromSourceCode(QOpenGLShader::Vertex, vs) ||
        !p->addShaderFromSourceCode(QOpenGLShader::Fragment, fs) || !p->link()) {
      glInfo_.error += p->log();
      return nullptr;
    }
    return p;
  };
  shaded_ = build(kShadedVs, kShadedFs);
  lines_ = build(kLinesVs, kLinesFs);
  background_ = build(kBackgroundVs, kBackgroundFs);
  if (!shaded_ || !lines_ || !background_) {
    qWarning("mechsim: shader build failed: %s", qPrintable(glInfo_.error));
    return;
  }

  // Unit primitives, generated and uploaded once.
  const Primitive prims[4] = {Primitive::Box, Primitive::Cylinder, Primitive::Sphere, Primitive::Cone};
  glGenBuffers(1, &instanceVbo_);
  for (int i = 0; i < 4; ++i)
    for (int l = 0; l < kLods; ++l)
      primitives_[i][l] = i == 0 && l > 0 ? upload(unitPrimitive(prims[i])) : upload(unitPrimitive(prims[i], kLodSegments[l]));
  glGenVertexArrays(1, &emptyVao_);
  glGenVertexArrays(1, &lineVao_);
  glGenBuffers(1, &lineVbo_);
  glGenVertexArrays(1, &overlayVao_);
  glGenBuffers(1, &overlayVbo_);
  linesDirty_ = true;
  overlayDirty_ = true;
  glInfo_.ok = true;
}

Viewport::GpuMesh Viewport::upload(const TriangleMesh& mesh, const std::vector<Eigen::Vector4f>* colors) {
  // Interleaved position + normal, 6 floats per vertex.
  std::vector<float> interleaved;
  interleaved.reserve(mesh.positions.size() * 6);
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    const auto &p = mesh.positions[i], &n = mesh.normals[i];
    interleaved.insert(interleaved.end(), {p.x(), p.y(), p.z(), n.x(), n.y(), n.z()});
  }
  GpuMesh g;
  glGenVertexArrays(1, &g.vao);
  glGenBuffers(1, &g.vbo);
  glGenBuffers(1, &g.ebo);
  glBindVertexArray(g.vao);
  glBindBuffer(GL_ARRAY_BUFFER, g.vbo);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(interleaved.size() * sizeof(float)), interleaved.data(), GL_STATIC_DRAW);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.ebo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(mesh.indices.size() * sizeof(unsigned)), mesh.indices.data(),
               GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), reinterpret_cast<void*>(3 * sizeof(float)));
  // Per-instance attributes 2-9 (pointers set at each draw into the streamed instance buffer).
  for (int a = 2; a <= 9; ++a) {
    glEnableVertexAttribArray(a);
    glVertexAttribDivisor(a, 1);
  }
  // Per-vertex colours (one per position) in their own buffer, attribute 10.
  if (colors && colors->size() == mesh.positions.size()) {
    glGenBuffers(1, &g.cbo);
    glBindBuffer(GL_ARRAY_BUFFER, g.cbo);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(colors->size() * 4 * sizeof(float)), colors->data(), GL_STATIC_DRAW);
    glEnableVertexAttribArray(10);
    glVertexAttribPointer(10, 4, GL_FLOAT, GL_FALSE, 4 * sizeof(float), nullptr);
  }
  glBindVertexArray(0);
  g.indexCount = static_cast<int>(mesh.indices.size());
  return g;
}

void Viewport::release(GpuMesh& m) {
  if (m.vao) glDeleteVertexArrays(1, &m.vao);
  if (m.vbo) glDeleteBuffers(1, &m.vbo);
  if (m.ebo) glDeleteBuffers(1, &m.ebo);
  if (m.cbo) glDeleteBuffers(1, &m.cbo);
  m = GpuMesh{};
}

void Viewport::releaseGl() {
  if (!glInfo_.ok) return;
  for (auto& p : primitives_)
    for (auto& l : p) release(l);
  if (instanceVbo_) glDeleteBuffers(1, &instanceVbo_);
  if (cacheFbo_) glDeleteFramebuffers(1, &cacheFbo_);
  if (cacheTex_) glDeleteTextures(1, &cacheTex_);
  instanceVbo_ = cacheFbo_ = cacheTex_ = 0;
  cacheValid_ = false;
  cacheW_ = cacheH_ = 0;
  for (auto& [key, entry] : meshes_) release(entry.gpu);
  meshes_.clear();
  if (lineVao_) glDeleteVertexArrays(1, &lineVao_);
  if (lineVbo_) glDeleteBuffers(1, &lineVbo_);
  if (emptyVao_) glDeleteVertexArrays(1, &emptyVao_);
  if (overlayVao_) glDeleteVertexArrays(1, &overlayVao_);
  if (overlayVbo_) glDeleteBuffers(1, &overlayVbo_);
  lineVao_ = lineVbo_ = emptyVao_ = overlayVao_ = overlayVbo_ = 0;
  shaded_.reset();
  lines_.reset();
  background_.reset();
  glInfo_.ok = false;
}

const Viewport::GpuMesh* Viewport::meshFor(const DrawItem& item, const LodView& lod) {
  // Round primitives: the level of detail from the radius (largest scale across the axis; all
  // three for a sphere) projected at the item's depth.
  auto level = [&] {
    const Eigen::Matrix4f& t = item.transform;
    float r = std::max(t.col(0).head<3>().norm(), t.col(1).head<3>().norm());
    if (item.primitive == Primitive::Sphere) r = std::max(r, t.col(2).head<3>().norm());
    float px = r * lod.pixelsPerUnit;
    if (!lod.ortho) {
      const float depth = (t.col(3).head<3>() - lod.eye).dot(lod.forward);
      px = depth > 1e-6f * r ? px / depth : 1e9f;
    }
    return px <= kLodMaxPixels[0] ? 0 : px <= kLodMaxPixels[1] ? 1 : 2;
  };
  switch (item.primitive) {
    case Primitive::Box: return &primitives_[0][0];
    case Primitive::Cylinder: return &primitives_[1][level()];
    case Primitive::Sphere: return &primitives_[2][level()];
    case Primitive::Cone: return &primitives_[3][level()];
    case Primitive::Mesh: break;
  }
  if (!item.mesh) return nullptr;
  // File meshes are uploaded on first use and kept while a scene refers to them (pruneMeshes);
  // a mesh with per-vertex colours is its own entry. Colours need the mesh's vertices one to one
  // (meshFromData keeps them so when the mesh has a normal per vertex, as deformable surfaces do).
  const std::vector<Eigen::Vector4f>* colors =
      item.vertexColors && item.mesh->normals.size() == item.mesh->vertices.size() &&
              item.vertexColors->size() == item.mesh->vertices.size()
          ? item.vertexColors.get()
          : nullptr;
  const MeshKey key{item.mesh.get(), colors};
  auto it = meshes_.find(key);
  if (it == meshes_.end()) {
    MeshEntry e{item.mesh, colors ? item.vertexColors : nullptr, upload(meshFromData(*item.mesh), colors)};
    it = meshes_.emplace(key, std::move(e)).first;
  }
  return &it->second.gpu;
}

void Viewport::pruneMeshes() {
  // Uploaded meshes the scene no longer draws are released (deformable surfaces are new meshes
  // every frame; without this their buffers would pile up).
  if (meshes_.empty()) return;
  std::vector<const MeshData*> used;
  for (const DrawItem& it : scene_.items)
    if (it.mesh) used.push_back(it.mesh.get());
  for (auto it = meshes_.begin(); it != meshes_.end();) {
    if (std::find(used.begin(), used.end(), it->first.first) == used.end()) {
      release(it->second.gpu);
      it = meshes_.erase(it);
    } else {
      ++it;
    }
  }
}

void Viewport::resizeGL(int w, int h) {
  // Until the user moves the camera, the view keeps the mechanism framed as the window settles.
  if ((pendingFit_ || autoFit_) && w > 0 && h > 0) {
    camera_.fit(scene_.bounds, double(w) / h);
    pendingFit_ = false;
    emit cameraChanged();
  }
}

int Viewport::uploadLines(const LineSet& lines, unsigned vao, unsigned vbo) {
  std::vector<float> data;
  data.reserve(lines.points.size() * 7);
  for (size_t i = 0; i < lines.points.size(); ++i) {
    const Eigen::Vector3f& p = lines.points[i];
    const Eigen::Vector4f& c = lines.colors[i];
    data.insert(data.end(), {p.x(), p.y(), p.z(), c.x(), c.y(), c.z(), c.w()});
  }
  glBindVertexArray(vao);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(data.size() * sizeof(float)), data.data(), GL_DYNAMIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 7 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 7 * sizeof(float), reinterpret_cast<void*>(3 * sizeof(float)));
  glBindVertexArray(0);
  return static_cast<int>(lines.points.size());
}

void Viewport::drawBackground() {
  glDisable(GL_DEPTH_TEST);
  background_->bind();
  background_->setUniformValue("uTop", kBackgroundTop.x(), kBackgroundTop.y(), kBackgroundTop.z());
  background_->setUniformValue("uBottom", kBackgroundBottom.x(), kBackgroundBottom.y(), kBackgroundBottom.z());
  glBindVertexArray(emptyVao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glEnable(GL_DEPTH_TEST);
}

void Viewport::drawItems(const Eigen::Matrix4f& view, const Eigen::Matrix4f& proj, const std::vector<DrawItem>& items,
                         const LodView& lod, float alpha) {
  // Items grouped by mesh: one instanced draw per group, all instances in one buffer upload.
  std::vector<std::pair<const GpuMesh*, int>> order;
  order.reserve(items.size());
  for (int i = 0; i < static_cast<int>(items.size()); ++i) {
    const GpuMesh* mesh = meshFor(items[i], lod);
    if (mesh && mesh->indexCount > 0) order.emplace_back(mesh, i);
  }
  if (order.empty()) return;
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  instanceData_.resize(order.size() * kInstanceFloats);
  float* out = instanceData_.data();
  for (const auto& [mesh, i] : order) {
    const DrawItem& item = items[i];
    // Normals go through the inverse transpose (shapes are scaled non-uniformly).
    const Eigen::Matrix3f a = item.transform.topLeftCorner<3, 3>();
    const float det = a.determinant();
    const Eigen::Matrix3f normalMat = std::abs(det) > 1e-30f ? Eigen::Matrix3f(a.inverse().transpose()) : a;
    std::copy_n(item.transform.data(), 16, out);
    std::copy_n(normalMat.data(), 9, out + 16);
    std::copy_n(item.color.data(), 4, out + 25);
    if (alpha >= 0) out[28] = alpha;
    out += kInstanceFloats;
  }
  glBindBuffer(GL_ARRAY_BUFFER, instanceVbo_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(instanceData_.size() * sizeof(float)), instanceData_.data(), GL_STREAM_DRAW);

  shaded_->bind();
  // Meshes without per-vertex colours: white (see kShadedVs). QOpenGLFunctions_3_3_Core leaves
  // the generic-attribute setters out; the ES 2 / GL 2 set has them.
  context()->functions()->glVertexAttrib4f(10, 1, 1, 1, 1);
  const GLuint prog = shaded_->programId();
  glUniformMatrix4fv(glGetUniformLocation(prog, "uView"), 1, GL_FALSE, view.data());
  glUniformMatrix4fv(glGetUniformLocation(prog, "uProj"), 1, GL_FALSE, proj.data());
  const GLsizei stride = kInstanceFloats * sizeof(float);
  for (size_t start = 0; start < order.size();) {
    size_t end = start + 1;
    while (end < order.size() && order[end].first == order[start].first) ++end;
    const GpuMesh* mesh = order[start].first;
    glBindVertexArray(mesh->vao);
    const auto base = static_cast<uintptr_t>(start * stride);
    for (int c = 0; c < 4; ++c)
      glVertexAttribPointer(2 + c, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(base + 4 * c * sizeof(float)));
    for (int c = 0; c < 3; ++c)
      glVertexAttribPointer(6 + c, 3, GL_FLOAT, GL_FALSE, stride,
                            reinterpret_cast<void*>(base + (16 + 3 * c) * sizeof(float)));
    glVertexAttribPointer(9, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(base + 25 * sizeof(float)));
    glDrawElementsInstanced(GL_TRIANGLES, mesh->indexCount, GL_UNSIGNED_INT, nullptr, GLsizei(end - start));
    start = end;
  }
  glBindVertexArray(0);
}

void Viewport::drawLineBuffer(const Eigen::Matrix4f& view, const Eigen::Matrix4f& proj, unsigned vao, int count) {
  if (count == 0) return;
  // Blended over the shapes' depth, without writing depth, so the grid never hides anything.
  glEnable(GL_BLEND);
  // Colour blends; destination alpha stays 1: the widget is composited into the window by its
  // alpha, and a translucent pixel would let whatever lies beneath show through.
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
  glDepthMask(GL_FALSE);
  lines_->bind();
  const Eigen::Matrix4f vp = proj * view;
  glUniformMatrix4fv(glGetUniformLocation(lines_->programId(), "uViewProj"), 1, GL_FALSE, vp.data());
  glBindVertexArray(vao);
  glDrawArrays(GL_LINES, 0, count);
  glBindVertexArray(0);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

int Viewport::drawCachedBackdrop(const Eigen::Matrix4f& view, const Eigen::Matrix4f& proj, int w, int h) {
  // The gradient and the grid stay the same while only the mechanism moves (a handle drag, a
  // slider, play): they are drawn once into a texture and copied into each frame, which saves two
  // full-screen passes per frame. Exact only when the grid lies behind every shape as seen from
  // the eye (eye above the grid plane, mechanism not below it): the shapes drawn over the copy
  // then hide the same grid pixels the depth test hid before. A blit into a multisampled
  // framebuffer is not allowed: with multisampling the backdrop is drawn directly.
  if (format().samples() > 1 || w <= 0 || h <= 0) return 0;
  // Otherwise (looking from under the grid, or a mechanism reaching below it) only the gradient
  // is cached and the grid is drawn over the shapes as usual.
  const bool withGrid = camera_.eye().z() > scene_.gridZ && scene_.bounds.min().z() >= scene_.gridZ;
  if (!cacheFbo_) glGenFramebuffers(1, &cacheFbo_);
  if (!cacheTex_ || cacheW_ != w || cacheH_ != h) {
    if (!cacheTex_) glGenTextures(1, &cacheTex_);
    glBindTexture(GL_TEXTURE_2D, cacheTex_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, cacheFbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, cacheTex_, 0);
    const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, targetFbo_);
    cacheW_ = w, cacheH_ = h;
    cacheValid_ = false;
    if (!complete) {
      glDeleteFramebuffers(1, &cacheFbo_);
      glDeleteTextures(1, &cacheTex_);
      cacheFbo_ = cacheTex_ = 0;
      cacheW_ = cacheH_ = 0;
      return 0;
    }
  }
  const bool stale = withGrid ? !cacheHasGrid_ || cacheLinesVersion_ != linesVersion_ || cacheView_ != view ||
                                    cacheProj_ != proj
                               : cacheHasGrid_;
  if (!cacheValid_ || stale) {
    glBindFramebuffer(GL_FRAMEBUFFER, cacheFbo_);
    glViewport(0, 0, w, h);
    drawBackground();
    if (withGrid) {
      glDisable(GL_DEPTH_TEST);
      drawLineBuffer(view, proj, lineVao_, lineVertexCount_);
      glEnable(GL_DEPTH_TEST);
    }
    cacheView_ = view, cacheProj_ = proj;
    cacheLinesVersion_ = linesVersion_;
    cacheHasGrid_ = withGrid;
    cacheValid_ = true;
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, cacheFbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, targetFbo_);
  glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, targetFbo_);
  glViewport(0, 0, w, h);
  return withGrid ? 2 : 1;
}

void Viewport::drawHiddenGlyphs(const Eigen::Matrix4f& view, const Eigen::Matrix4f& proj, const LodView& lod) {
  // Joint glyphs and handle markers hidden inside or behind bodies show through faintly
  // ("x-ray"): drawn again where they fail the depth test, blended, without writing depth.
  std::vector<DrawItem> hidden;
  for (const DrawItem& it : scene_.items)
    if (it.role == ItemRole::JointGlyph || it.role == ItemRole::HandleMarker) hidden.push_back(it);
  if (hidden.empty()) return;
  glEnable(GL_BLEND);
  // Colour blends; destination alpha stays 1: the widget is composited into the window by its
  // alpha, and a translucent pixel would let whatever lies beneath show through.
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
  glDepthMask(GL_FALSE);
  glDepthFunc(GL_GREATER);
  // Front faces only, so a glyph's far side does not double its tint.
  glEnable(GL_CULL_FACE);
  glCullFace(GL_BACK);
  drawItems(view, proj, hidden, lod, kHiddenGlyphAlpha);
  glDisable(GL_CULL_FACE);
  glDepthFunc(GL_LESS);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

void Viewport::drawAxisTriad() {
  // A small x/y/z triad in the lower-left corner that turns with the camera (orthographic).
  const QSize logical = renderSize_.isValid() ? renderSize_ : size();  // (renderImage: its size, dpr 1)
  const int size = std::max(60, std::min(logical.width(), logical.height()) / 7);
  const qreal dpr = renderSize_.isValid() ? 1.0 : devicePixelRatioF();
  const GLsizei px = GLsizei(size * dpr);
  glViewport(0, 0, px, px);
  // Its own depth, cleared in its corner only.
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, px, px);
  glClear(GL_DEPTH_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  Camera c = camera_;
  c.target = Eigen::Vector3d::Zero();
  c.distance = 3.0;
  const Eigen::Matrix4f view = c.viewMatrix();
  Eigen::Matrix4f ortho = Eigen::Matrix4f::Identity();
  ortho(0, 0) = ortho(1, 1) = 1.0f / 1.25f;
  ortho(2, 2) = -1.0f / 4.0f;
  ortho(2, 3) = -3.0f / 4.0f;
  std::vector<DrawItem> items;
  const Eigen::Vector4f colors[3] = {{0.90f, 0.30f, 0.26f, 1}, {0.36f, 0.78f, 0.32f, 1}, {0.34f, 0.52f, 0.96f, 1}};
  for (int a = 0; a < 3; ++a) {
    const Eigen::Vector3d d = Eigen::Vector3d::Unit(a);
    const Eigen::Quaterniond q = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), d);
    auto place = [&](double along, double r, double len) {
      Eigen::Matrix4d t = Eigen::Matrix4d::Identity();
      t.block<3, 3>(0, 0) = q.toRotationMatrix() * Eigen::Vector3d(r, r, len).asDiagonal();
      t.block<3, 1>(0, 3) = d * along;
      return Eigen::Matrix4f(t.cast<float>());
    };
    DrawItem shaft;
    shaft.primitive = Primitive::Cylinder;
    shaft.color = colors[a];
    shaft.transform = place(0.37, 0.05, 0.74);
    items.push_back(shaft);
    DrawItem head = shaft;
    head.primitive = Primitive::Cone;
    head.transform = place(0.74, 0.13, 0.3);
    items.push_back(head);
  }
  DrawItem hub;
  hub.primitive = Primitive::Sphere;
  hub.color = {0.85f, 0.86f, 0.88f, 1};
  hub.transform = Eigen::Matrix4f::Identity();
  hub.transform.topLeftCorner<3, 3>() *= 0.09f;
  items.push_back(hub);
  LodView lod;
  lod.ortho = true;
  lod.pixelsPerUnit = 0.5f * px / 1.25f;
  drawItems(view, ortho, items, lod);
  glViewport(0, 0, GLsizei(logical.width() * dpr), GLsizei(logical.height() * dpr));
}

void Viewport::paintGL() {
  render(window_->defaultFramebufferObject());
  frameDirty_ = true;
  ++paintCount_;
  if (profileSwap_.isValid() && profileFrames_ > 0 && profileFrames_ % 30 == 0) {
    const double n = profileFrames_;
    qWarning("mechsim paint ms/frame over %d: before %.2f backdrop %.2f (%s) items %.2f lines %.2f hidden %.2f "
             "triad %.2f swap %.2f",
             profileFrames_, profileMs_[0] / n, profileMs_[1] / n, profileBackdrop_, profileMs_[2] / n,
             profileMs_[3] / n, profileMs_[4] / n, profileMs_[5] / n, profileMs_[6] / n);
  }
  if (profileSwap_.isValid()) profileSwap_.restart();
  emit framePainted();
}

void Viewport::render(unsigned fbo) {
  targetFbo_ = fbo;
  if (!glInfo_.ok) {
    // No usable context: at least clear to the background colour.
    auto* f = context()->functions();
    f->glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    f->glClearColor(kBackgroundTop.x(), kBackgroundTop.y(), kBackgroundTop.z(), 1);
    f->glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    return;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  if (pendingFit_ && width() > 0 && height() > 0) {
    camera_.fit(scene_.bounds, double(width()) / height());
    pendingFit_ = false;
    emit cameraChanged();
  }
  // MECHSIM_PAINT_PROFILE: the mean time of each part of the frame (glFinish after each) on stderr.
  static const bool profile = qEnvironmentVariableIsSet("MECHSIM_PAINT_PROFILE");
  QElapsedTimer partClock;
  partClock.start();
  auto part = [&](int k) {
    if (!profile) return;
    glFinish();
    profileMs_[k] += partClock.nsecsElapsed() * 1e-6;
    partClock.restart();
  };
  part(0);
  // The grid is re-uploaded only when it changed, the overlay lines with every scene.
  if (linesDirty_) {
    lineVertexCount_ = uploadLines(scene_.lines, lineVao_, lineVbo_);
    linesDirty_ = false;
    ++linesVersion_;
  }
  if (overlayDirty_) {
    overlayVertexCount_ = uploadLines(scene_.overlayLines, overlayVao_, overlayVbo_);
    overlayDirty_ = false;
  }
  const qreal dpr = renderSize_.isValid() ? 1.0 : devicePixelRatioF();
  const QSize logical = renderSize_.isValid() ? renderSize_ : size();
  const int w = int(logical.width() * dpr), h = int(logical.height() * dpr);
  glViewport(0, 0, w, h);
  glDisable(GL_CULL_FACE);
  const double aspect = logical.height() > 0 ? double(logical.width()) / logical.height() : 1.0;
  const Eigen::Matrix4f view = camera_.viewMatrix();
  const Eigen::Matrix4f proj = camera_.projectionMatrix(aspect, scene_.radius());
  LodView lod;
  lod.eye = camera_.eye().cast<float>();
  lod.forward = -camera_.backward().cast<float>();
  lod.pixelsPerUnit = float(0.5 * h / std::tan(0.5 * camera_.fovY));

  // The backdrop (gradient, grid): copied from its cache, or drawn. On a software renderer the
  // copy into the window's buffer costs more than drawing the gradient and the grid lines again
  // (measured with --benchmark-drag under llvmpipe: stewart about a quarter more frames per second
  // without the cache), so there it is always drawn.
  // (renderImage at a size of its own draws the backdrop: the cache is the window's size.)
  const int cached = softwareGl_ || renderSize_.isValid() ? 0 : drawCachedBackdrop(view, proj, w, h);
  if (cached > 0) {
    glClear(GL_DEPTH_BUFFER_BIT);
  } else if (softwareGl_) {
    // Software rendering: a plain clear in the gradient's middle colour. The gradient pass shades
    // every pixel of the view (about 4.6 of 17 ms per frame under llvmpipe at 1024×720), a clear
    // is a memory fill.
    const Eigen::Vector3f mid = 0.5f * (kBackgroundTop + kBackgroundBottom);
    glClearColor(mid.x(), mid.y(), mid.z(), 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  } else {
    glClearColor(kBackgroundTop.x(), kBackgroundTop.y(), kBackgroundTop.z(), 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    drawBackground();
  }
  glEnable(GL_MULTISAMPLE);
  part(1);

  pruneMeshes();
  // Opaque shapes and glyphs first, then the blended lines, the hidden glyphs, the corner triad.
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  drawItems(view, proj, scene_.items, lod);
  part(2);
  if (cached < 2) drawLineBuffer(view, proj, lineVao_, lineVertexCount_);
  drawLineBuffer(view, proj, overlayVao_, overlayVertexCount_);
  part(3);
  drawHiddenGlyphs(view, proj, lod);
  part(4);
  drawAxisTriad();
  part(5);

  if (profile) {
    ++profileFrames_;
    profileBackdrop_ = cached == 2 ? "cached" : cached == 1 ? "gradient cached" : "drawn";
  }
}

void Viewport::mousePressEvent(QMouseEvent* e) {
  setFocus(Qt::MouseFocusReason);
  if (hook_ && dragButton_ == Qt::NoButton && hook_->press(e)) {
    hookOwns_ = true;
    e->accept();
    return;
  }
  lastPos_ = e->position().toPoint();
  dragButton_ = e->button();
  dragPans_ = e->button() == Qt::MiddleButton || (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier));
  setFocus(Qt::MouseFocusReason);
  e->accept();
}

void Viewport::mouseMoveEvent(QMouseEvent* e) {
  if (hookOwns_) {
    hook_->move(e);
    e->accept();
    return;
  }
  if (dragButton_ == Qt::NoButton) return;
  const QPoint p = e->position().toPoint();
  const QPoint d = p - lastPos_;
  lastPos_ = p;
  autoFit_ = false;
  if (dragPans_) camera_.pan(d.x(), d.y(), height());
  else if (dragButton_ == Qt::LeftButton) camera_.orbit(d.x(), d.y());
  else if (dragButton_ == Qt::RightButton) camera_.zoom(-d.y() / 40.0);
  else return;
  emit cameraChanged();
  update();
  e->accept();
}

void Viewport::mouseReleaseEvent(QMouseEvent* e) {
  if (hookOwns_) {
    hookOwns_ = false;
    if (hook_) hook_->release(e);
    e->accept();
    return;
  }
  if (e->button() == dragButton_) dragButton_ = Qt::NoButton;
  e->accept();
}

void Viewport::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  if (steps == 0) return;
  autoFit_ = false;
  camera_.zoom(steps);
  emit cameraChanged();
  update();
  e->accept();
}

void Viewport::keyPressEvent(QKeyEvent* e) {
  if (e->key() == Qt::Key_F && e->modifiers() == Qt::NoModifier) {
    fitToView();
    e->accept();
    return;
  }
  QWidget::keyPressEvent(e);
}

}  // namespace mechsim::ui
