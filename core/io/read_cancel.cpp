// core/io/read_cancel.cpp — the thread's cancel flag (read_cancel.h).
#include "core/io/read_cancel.h"

namespace mechsim::io {

namespace {
thread_local const std::atomic<bool>* tCancel = nullptr;
}

ReadCancelScope::ReadCancelScope(const std::atomic<bool>& flag) : previous_(tCancel) { tCancel = &flag; }

ReadCancelScope::~ReadCancelScope() { tCancel = previous_; }

const std::atomic<bool>* readCancelFlag() { return tCancel; }

}  // namespace mechsim::io
