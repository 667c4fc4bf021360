#include "core/players.hpp"

#include "core/game_state.hpp"

namespace rulebook {

void add_score(GameState& state, Seat seat, int delta) {
  Player& p = state.mutable_player(seat);
  p.score += delta;
  if (state.listening()) state.emit(Event::score(seat, delta, p.score));
}

void eliminate(GameState& state, Seat seat) {
  state.mutable_player(seat).eliminated = true;
  state.turns().eliminate(seat.value());
  if (state.listening()) state.emit(Event::eliminate(seat));
}

void sit_out(GameState& state, Seat seat) {
  state.turns().sit_out(seat.value());
  if (state.listening()) state.emit(Event::sit_out(seat));
}

void begin_round(GameState& state, Seat first) {
  TurnOrder& turns = state.turns();
  const bool named = !first.is_none();
  turns.begin_round(named ? first.value() : turns.first(), named);
  // The event names the first player only where there is one.
  const Seat told = turns.in_use() ? Seat{turns.first()} : Seat::none();
  if (state.listening()) state.emit(Event::round_begin(told, turns.game_round()));
}

void begin_trick(GameState& state, Seat leader) {
  state.turns().begin_trick();
  if (state.listening()) state.emit(Event::trick_begin(leader, state.turns().trick(), state.turns().game_round()));
}

void begin_phase(GameState& state, std::string name) {
  state.turns().set_phase(name);
  if (state.listening()) state.emit(Event::phase_begin(std::move(name)));
}

void reinstate(GameState& state, Seat seat) {
  state.mutable_player(seat).eliminated = false;
  state.turns().reinstate(seat.value());
}

}  // namespace rulebook
