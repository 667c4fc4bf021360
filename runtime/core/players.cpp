#include "core/players.hpp"

#include "core/game_state.hpp"

namespace rulebook {

void add_score(GameState& state, int seat, int delta) {
  Player& p = state.mutable_player(seat);
  p.score += delta;
  if (state.listening()) state.emit(Event::score(seat, delta, p.score));
}

void eliminate(GameState& state, int seat) {
  state.mutable_player(seat).eliminated = true;
  state.turns().eliminate(seat);
  if (state.listening()) state.emit(Event::eliminate(seat));
}

void reinstate(GameState& state, int seat) {
  state.mutable_player(seat).eliminated = false;
  state.turns().reinstate(seat);
}

}  // namespace rulebook
