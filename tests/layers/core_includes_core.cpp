// The control for core_includes_setup.cpp: the same target set-up with a
// header of its own layer compiles, so the failure above is the layering.
#include "core/game_state.hpp"

int layer_control_probe() { return 0; }
