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

void sit_out(GameState& state, int seat) {
  state.turns().sit_out(seat);
  if (state.listening()) state.emit(Event::sit_out(seat));
}

void begin_round(GameState& state, int first) {
  state.turns().begin_round(first);
  if (state.listening()) state.emit(Event::round_begin(first, state.turns().game_round()));
}

void reinstate(GameState& state, int seat) {
  state.mutable_player(seat).eliminated = false;
  state.turns().reinstate(seat);
}

}  // namespace rulebook
