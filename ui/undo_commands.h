#pragma once
// ui/undo_commands.h — undo / redo of slider moves and handle drags (QUndoStack). A command keeps
// the controller state before the edit; the state after it is taken when the command is first
// undone (by then the controller has reported where the edit ended), so a command never guesses
// where the solver went. Consecutive one-shot edits of the same DOF (keyboard steps, spin box
// entries) merge into one command.
#include <functional>

#include <QUndoCommand>

#include "ui/simulation_controller.h"

namespace mechsim::ui {

class StateCommand : public QUndoCommand {
 public:
  using CurrentFn = std::function<ControllerState()>;
  using ApplyFn = std::function<void(const ControllerState&)>;
  /// mergeId ≥ 0: merges with the previous command of the same id (see mergeWith).
  StateCommand(const QString& text, ControllerState before, CurrentFn current, ApplyFn apply, int mergeId = -1);

  void undo() override;
  void redo() override;
  int id() const override { return mergeId_; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  ControllerState before_, after_;
  bool haveAfter_ = false;
  bool applied_ = true;  // the edit happened before the command was pushed
  CurrentFn current_;
  ApplyFn apply_;
  int mergeId_;
};

/// An edit of the mechanism itself (inspector, parameters, building): the spec before and after.
/// Undo and redo hand the spec to `apply`, which recompiles and re-assembles it (asynchronously,
/// through the controller, as the edit went).
class SpecCommand : public QUndoCommand {
 public:
  using Spec = std::shared_ptr<const MechanismSpec>;
  using ApplyFn = std::function<void(const Spec&)>;
  SpecCommand(const QString& text, Spec before, Spec after, ApplyFn apply);
  void undo() override { apply_(before_); }
  void redo() override;

 private:
  Spec before_, after_;
  bool applied_ = true;  // the edit happened before the command was pushed
  ApplyFn apply_;
};

/// Merge ids: slider k edits use kDofMergeBase + k.
constexpr int kDofMergeBase = 1000;

}  // namespace mechsim::ui
