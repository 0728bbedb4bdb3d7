#pragma once
// core/io/write.h — the native format out. Writing then reading back reproduces the spec.
#include <string>

#include "core/spec.h"

namespace mechsim::io {

/// The spec as native-format JSON text, in the spec's units.
std::string writeMechanism(const MechanismSpec& spec);

/// Writes atomically (temporary file in the same folder, then rename). Throws std::runtime_error.
void writeMechanismFile(const MechanismSpec& spec, const std::string& path);

/// Writes `contents` to `path` atomically: a reader never sees a half-written file.
void writeFileAtomically(const std::string& path, const std::string& contents);

}  // namespace mechsim::io
