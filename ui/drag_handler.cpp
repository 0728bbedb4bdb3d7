// ui/drag_handler.cpp — pixels to world targets for handle drags.
#include "ui/drag_handler.h"

#include <QMouseEvent>

namespace mechsim::ui {

DragHandler::DragHandler(Viewport* view, QObject* parent) : QObject(parent), view_(view) { view_->setMouseHook(this); }

DragHandler::~DragHandler() {
  if (view_) view_->setMouseHook(nullptr);
}

bool DragHandler::press(QMouseEvent* e) {
  if (!enabled_ || e->button() != Qt::LeftButton) return false;
  if (e->modifiers() & (Qt::AltModifier | Qt::ShiftModifier)) return false;
  const QPointF p = e->position();
  const Ray ray = cameraRay(view_->camera(), p.x(), p.y(), view_->width(), view_->height());
  const std::optional<PickHit> hit = pick(view_->scene(), ray);
  const bool deformable = hit && hit->role == ItemRole::DeformableSurface && hit->vertex >= 0;
  if (!hit || (hit->body < 0 && !deformable)) return false;
  // A handle is grabbed at its centre, a body at the surface point under the cursor, a deformable
  // surface at its vertex nearest that point (the vertex the soft handle pulls).
  const DrawItem& item = view_->scene().items[hit->item];
  if (hit->role == ItemRole::HandleMarker) anchor_ = item.transform.block<3, 1>(0, 3).cast<double>();
  else if (deformable && item.mesh && hit->vertex < static_cast<int>(item.mesh->vertices.size()))
    anchor_ = (item.transform * item.mesh->vertices[static_cast<size_t>(hit->vertex)].homogeneous()).head<3>().cast<double>();
  else anchor_ = hit->point;
  normal_ = view_->camera().backward();
  pressPos_ = p.toPoint();
  axis_ = -1;
  dragging_ = true;
  emit grabbed(*hit, anchor_);
  return true;
}

void DragHandler::move(QMouseEvent* e) {
  if (!dragging_) return;
  const QPointF p = e->position();
  const Ray ray = cameraRay(view_->camera(), p.x(), p.y(), view_->width(), view_->height());
  std::optional<Eigen::Vector3d> target;
  if (e->modifiers() & Qt::ControlModifier) {
    // Along one world axis, chosen once the mouse has shown a direction.
    const Eigen::Vector2d delta(p.x() - pressPos_.x(), p.y() - pressPos_.y());
    if (axis_ < 0 && delta.norm() >= 3) axis_ = dominantAxis(view_->camera(), anchor_, delta, view_->width(), view_->height());
    if (axis_ >= 0) target = dragOnAxis(ray, anchor_, Eigen::Vector3d::Unit(axis_));
  } else {
    axis_ = -1;
    target = dragOnPlane(ray, anchor_, normal_);
  }
  if (target) emit moved(*target);
}

void DragHandler::release(QMouseEvent*) {
  if (!dragging_) return;
  dragging_ = false;
  axis_ = -1;
  emit released();
}

}  // namespace mechsim::ui
