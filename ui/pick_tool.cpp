// ui/pick_tool.cpp — clicks of the building tools turned into picks (ui/pick_tool.h).
#include "ui/pick_tool.h"

#include <QMouseEvent>

namespace mechsim::ui {

PickTool::PickTool(Viewport* view, QObject* parent) : QObject(parent), view_(view) {}

bool PickTool::press(QMouseEvent* e) {
  if (!view_ || e->button() != Qt::LeftButton || (e->modifiers() & (Qt::AltModifier | Qt::ShiftModifier))) return false;
  const QPointF p = e->position();
  const Ray ray = cameraRay(view_->camera(), p.x(), p.y(), view_->width(), view_->height());
  std::optional<PickHit> hit = pick(view_->scene(), ray, ignored_);
  if (hit && hit->role == ItemRole::DeformableSurface) hit.reset();  // tools place things on bodies
  emit picked(hit);
  return true;
}

}  // namespace mechsim::ui
