#pragma once
// app/data_root.h — where the example mechanisms and models lie, for the programs that load them
// without being told: the GUI's default mechanism and the benchmarks' examples.
#include <string>

namespace mechsim::app {

/// The folder holding mechanisms/: the source tree the program was built from (MECHSIM_SOURCE_DIR),
/// else one found from the executable's folder — itself, its parent or grandparent (a build tree),
/// or ../share/mechsim (an installed tree, `cmake --install`). Empty when there is none.
std::string dataRoot();

}  // namespace mechsim::app
