#pragma once
// core/io/check_report.h — what `mechsim-cli check --json` prints: counts, the Grübler estimate,
// the mobility from the rank of the constraint Jacobian (paper 003), the redundant equations, the
// residual and singularity at the file's configuration, the deformable parts. The Python package's
// Model.check() returns the same object.
#include <string>

#include "core/model.h"
#include "core/spec.h"

namespace mechsim::io {

/// The report as JSON text (two-space indent, no trailing newline). `file` is the path as given.
std::string checkReportJson(const std::string& file, const MechanismSpec& spec, const Model& model);

}  // namespace mechsim::io
