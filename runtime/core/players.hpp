#pragma once
// Players in their seats: names, scores and who is out.
#include <string>

#include "core/ids.hpp"

namespace rulebook {

class GameState;

struct Player {
  std::string name;
  int score = 0;
  bool eliminated = false;
};

// Each emits its event.
void add_score(GameState& state, Seat seat, int delta);
void eliminate(GameState& state, Seat seat);   // out: skipped by the turn order
void reinstate(GameState& state, Seat seat);   // back in (a new round)
void sit_out(GameState& state, Seat seat);     // out of this game round only
// A new game round (TurnOrder::begin_round) whose first turn goes to `first`
// (Seat::none(): the first seat so far, which the round's event names only
// when the game plays in turns, TurnOrder::in_use).
void begin_round(GameState& state, Seat first);
// A new trick of the round, led by `leader` (none: nobody leads, as when
// everybody plays at once).
void begin_trick(GameState& state, Seat leader);
// A named phase of the game ("bidding", "scoring").
void begin_phase(GameState& state, std::string name);

}  // namespace rulebook
