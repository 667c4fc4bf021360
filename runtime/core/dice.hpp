#pragma once
// Dice: rolling one die, or every die in a zone (a dice pool), with the
// game's chance stream, or the faces a scenario forces.
#include "core/ids.hpp"

namespace rulebook {

class GameState;

// Rolls a die (any component with faces); returns the face index.
int roll_die(GameState& state, ComponentId die);
// Rolls every die in a zone, bottom to top.
void roll_dice(GameState& state, int zone);

}  // namespace rulebook
