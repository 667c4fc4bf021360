#pragma once
// Pieces: components that stand on a board cell facing a direction, and
// belong to a seat.
#include "core/board_geometry.hpp"

#include "core/ids.hpp"

namespace rulebook {

class GameState;

void face_to(GameState& state, ComponentId id, Direction direction);
// Seat::none(): nobody's.
void set_owner(GameState& state, ComponentId id, Seat seat);

}  // namespace rulebook
