#pragma once
// core/sim/internal.h — helpers the stages share (not part of the engine's interface).
#include "core/sim/data.h"
#include "core/sim/model.h"

namespace mechsim::sim::detail {

/// After a position analysis of the bound working model: rates from the drivers that follow
/// their expressions (held values have zero rate), when it converged; joint coordinates always.
void finishPositions(Data& d);

/// Dynamic mode: the rigid state from the DynamicRun (t, q and rates, statistics), and the sliders
/// where the dynamics is (file drivers that follow their expression show its value).
void copyDynamicState(const Model& m, Data& d);

/// Restarts the dynamic run at the current pose (at rest, or with the current rates); leaves
/// dynamic mode with a message when it cannot.
void restartDynamic(Data& d, bool keepRates);

}  // namespace mechsim::sim::detail
