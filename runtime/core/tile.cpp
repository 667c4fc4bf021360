#include "core/tile.hpp"

#include "core/game_state.hpp"

namespace rulebook {

void set_face(GameState& state, ComponentId id, int face) {
  Component& c = state.mutable_component(id);
  c.face = face;
  if (state.listening()) state.emit(Event::set_face(id, c.zone, face));
}

int turn_over(GameState& state, ComponentId id) {
  const int faces = static_cast<int>(state.type_of(id).faces.size());
  const int face = (state.component(id).face + 1) % faces;
  set_face(state, id, face);
  return face;
}

void reveal(GameState& state, ComponentId id) {
  Component& c = state.mutable_component(id);
  c.visibility = Visibility::Public;
  if (state.listening()) state.emit(Event::reveal(id, c.zone, c.face));
}

void hide(GameState& state, ComponentId id) {
  Component& c = state.mutable_component(id);
  c.visibility = Visibility::Hidden;
  if (state.listening()) state.emit(Event::hide(id, c.zone));
}

void peek(GameState& state, ComponentId id, Seat seat) {
  Component& c = state.mutable_component(id);
  c.known_to |= seat_bit(seat);
  if (state.listening()) state.emit(Event::peek(seat, id, c.zone));
}

}  // namespace rulebook
