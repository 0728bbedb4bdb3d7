// ui/undo_commands.cpp — state snapshots as undo commands.
#include "ui/undo_commands.h"

namespace mechsim::ui {

StateCommand::StateCommand(const QString& text, ControllerState before, CurrentFn current, ApplyFn apply, int mergeId)
    : QUndoCommand(text), before_(std::move(before)), current_(std::move(current)), apply_(std::move(apply)),
      mergeId_(mergeId) {}

void StateCommand::undo() {
  if (!haveAfter_) {
    after_ = current_();
    haveAfter_ = true;
  }
  apply_(before_);
}

void StateCommand::redo() {
  // QUndoStack::push calls redo(); the edit itself already happened.
  if (applied_) {
    applied_ = false;
    return;
  }
  apply_(after_);
}

bool StateCommand::mergeWith(const QUndoCommand* other) {
  if (other->id() != id() || id() < 0) return false;
  // This command keeps its own "before"; "after" is whatever the later edit ended at.
  haveAfter_ = false;
  return true;
}

SpecCommand::SpecCommand(const QString& text, Spec before, Spec after, ApplyFn apply)
    : QUndoCommand(text), before_(std::move(before)), after_(std::move(after)), apply_(std::move(apply)) {}

void SpecCommand::redo() {
  if (applied_) {
    applied_ = false;
    return;
  }
  apply_(after_);
}

}  // namespace mechsim::ui
