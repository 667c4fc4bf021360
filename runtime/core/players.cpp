#include "core/players.hpp"

#include "core/game_state.hpp"

namespace rulebook {

void add_score(GameState& state, int seat, int delta) {
  Player& p = state.mutable_player(seat);
  p.score += delta;
  if (state.listening()) state.emit(Event{EventType::Score, seat, -1, -1, p.score, delta, {}, ~SeatMask{0}});
}

void eliminate(GameState& state, int seat) {
  state.mutable_player(seat).eliminated = true;
  state.turns().eliminate(seat);
  if (state.listening()) state.emit(Event{EventType::Eliminate, seat, -1, -1, -1, 0, {}, ~SeatMask{0}});
}

void reinstate(GameState& state, int seat) {
  state.mutable_player(seat).eliminated = false;
  state.turns().reinstate(seat);
}

}  // namespace rulebook
