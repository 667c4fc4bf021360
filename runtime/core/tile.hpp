#pragma once
// Tiles, cards and every other component with sides: which face shows, and
// who knows what it is (public, hidden, or secretly known to some seats).
#include "core/ids.hpp"

namespace rulebook {

class GameState;

void set_face(GameState& state, ComponentId id, int face);
// The next face (the other side of a two-sided tile); returns it.
int turn_over(GameState& state, ComponentId id);
// Everybody may now know it (turned face up).
void reveal(GameState& state, ComponentId id);
// Nobody may know it any more, except seats that peeked.
void hide(GameState& state, ComponentId id);
// `seat` alone learns what it is; the knowledge stays with the component
// until it is shuffled or enters a zone that sets its visibility.
void peek(GameState& state, ComponentId id, Seat seat);

}  // namespace rulebook
