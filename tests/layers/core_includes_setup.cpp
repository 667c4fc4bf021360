// Compiled as part of the core layer, this must NOT compile: core sits
// below setup, and the build gives each layer only its own headers and
// those of the layers beneath it (see runtime/CMakeLists.txt).
#include "core/game_state.hpp"
#include "setup/setup_error.hpp"

int layer_violation_probe() { return 0; }
