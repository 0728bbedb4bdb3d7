#pragma once
// core/io/write.h — the native format out. Writing then reading back reproduces the spec.
#include <string>

#include "core/io/comments.h"
#include "core/spec.h"

namespace mechsim::io {

/// The spec as native-format JSON text, in the spec's units.
std::string writeMechanism(const MechanismSpec& spec);

/// Writes atomically (temporary file in the same folder, then rename). Throws std::runtime_error.
void writeMechanismFile(const MechanismSpec& spec, const std::string& path);

/// writeMechanism with the comments of the file the spec was read from put back (core/io/comments.h:
/// keepComments(comments, writeMechanism(spec))).
std::string writeMechanism(const MechanismSpec& spec, const FileComments& comments);

/// writeMechanismFile with those comments, as atomically.
void writeMechanismFile(const MechanismSpec& spec, const std::string& path, const FileComments& comments);

/// Writes `contents` to `path` atomically: a reader never sees a half-written file.
void writeFileAtomically(const std::string& path, const std::string& contents);

}  // namespace mechsim::io
