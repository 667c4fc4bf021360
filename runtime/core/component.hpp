#pragma once
// A component: one die, tile, card, piece or token of a game. Its type
// (from YAML) says what it is; these fields say where it is and how it
// shows. The operations live with their concept: dice.hpp (rolling),
// tile.hpp (faces, visibility, peeks), piece.hpp (facing, owner),
// zone.hpp (moving), deck.hpp (shuffling, drawing).
#include "core/visibility.hpp"

namespace rulebook {

struct Component {
  int type = 0;
  int face = 0;
  int zone = -1;
  Seat owner;
  int facing = -1;  // Direction for pieces that face one; -1 = none
  Visibility visibility = Visibility::Public;
  SeatMask known_to = 0;  // seats that know it although it is hidden
};

}  // namespace rulebook
