#pragma once
// core/deform/from_spec.h — a DeformableModel from the "deformables" entry of a MechanismSpec.
#include "core/deform/deformable.h"
#include "core/spec.h"

namespace mechsim::deform {

/// Builds part `d` of `spec` with time step h and the mechanism's gravity. Vertices attached to a
/// fixed body are pinned; the others get Attachment{vertex, body index in spec.bodies, local point}
/// with the local point from the body's pose at the file configuration, so stepImplicitEuler moves
/// them with the poses of spec.bodies (indexed like spec.bodies). Throws std::invalid_argument.
DeformableModel makeDeformableFromSpec(const DeformableSpec& d, const MechanismSpec& spec, double h);

}  // namespace mechsim::deform
