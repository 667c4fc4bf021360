#pragma once
// Decks: shuffling a zone and drawing from its top, with the discard pile
// shuffled in when the draw pile runs out.
#include "core/ids.hpp"

namespace rulebook {

class GameState;

// Fisher-Yates with the game's chance stream (or a scenario's forced
// order). Shuffled components are no longer known to anybody.
void shuffle_zone(GameState& state, int zone);
// Moves the top of `deck` to `dest` and returns it; when the deck is empty
// and a discard pile is given, the discard pile is first shuffled in.
// Returns -1 when nothing is left to draw.
ComponentId draw_top(GameState& state, int deck, int dest, int discard = -1);

}  // namespace rulebook
