#pragma once
// ui/drag_handler.h — the handle-drag gesture in the viewport: a left press on a handle marker,
// on a moving body or on a deformable surface (its nearest surface vertex) grabs that point
// (otherwise the camera orbits as usual); moving the mouse
// moves the target in the plane through the grabbed point facing the camera, or, with Ctrl held,
// along the world axis (x, y or z) whose image best follows the mouse; release ends the drag.
// Alt+left always orbits, Shift+left pans. The handler only turns pixels into world targets
// (scene/picking.h); what follows the target is the controller's DragSolver.
#include <Eigen/Core>
#include <QObject>
#include <QPoint>
#include <QPointer>

#include "scene/picking.h"
#include "ui/viewport.h"

namespace mechsim::ui {

class DragHandler : public QObject, public ViewportMouseHook {
  Q_OBJECT
 public:
  explicit DragHandler(Viewport* view, QObject* parent = nullptr);
  ~DragHandler() override;

  void setEnabled(bool on) { enabled_ = on; }
  bool dragging() const { return dragging_; }
  /// The world axis of the current axis-constrained drag (−1: plane drag).
  int axis() const { return axis_; }

  bool press(QMouseEvent* e) override;
  void move(QMouseEvent* e) override;
  void release(QMouseEvent* e) override;

 signals:
  /// A point was grabbed: `hit` says what (handle marker, body shape or deformable surface vertex)
  /// and where (world).
  void grabbed(const mechsim::ui::PickHit& hit, const Eigen::Vector3d& anchor);
  /// The cursor's world target for the grabbed point.
  void moved(const Eigen::Vector3d& target);
  void released();

 private:
  // Guarded: the window may destroy the viewport before this handler (both are its children).
  QPointer<Viewport> view_;
  bool enabled_ = true;
  bool dragging_ = false;
  Eigen::Vector3d anchor_ = Eigen::Vector3d::Zero();  // grabbed point at the press (world)
  Eigen::Vector3d normal_ = Eigen::Vector3d::UnitZ();  // the drag plane's normal (towards the eye)
  QPoint pressPos_;
  int axis_ = -1;
};

}  // namespace mechsim::ui
