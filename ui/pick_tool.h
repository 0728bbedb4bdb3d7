#pragma once
// ui/pick_tool.h — the viewport's click-to-pick gesture of the building tools (Mechanism → Add
// Joint, Add Handle): while a tool is active it takes the viewport's left clicks instead of the
// drag handler and the camera (Alt+left still orbits, Shift+left pans, the wheel zooms), and says
// what each click hit — a body's surface point and its normal — or that it hit nothing.
#include <optional>

#include <QObject>
#include <QPointer>

#include "scene/picking.h"
#include "ui/viewport.h"

namespace mechsim::ui {

class PickTool : public QObject, public ViewportMouseHook {
  Q_OBJECT
 public:
  explicit PickTool(Viewport* view, QObject* parent = nullptr);

  /// The items of this body are looked through (−1: none): the second click of a joint.
  void setIgnoredBody(int body) { ignored_ = body; }

  bool press(QMouseEvent* e) override;
  void move(QMouseEvent*) override {}
  void release(QMouseEvent*) override {}

 signals:
  /// A left click: what it hit (nullopt: nothing, empty space).
  void picked(const std::optional<mechsim::ui::PickHit>& hit);

 private:
  QPointer<Viewport> view_;
  int ignored_ = -1;
};

}  // namespace mechsim::ui
