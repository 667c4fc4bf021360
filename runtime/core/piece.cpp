#include "core/piece.hpp"

#include "core/game_state.hpp"

namespace rulebook {

void face_to(GameState& state, ComponentId id, Direction direction) {
  Component& c = state.mutable_component(id);
  c.facing = static_cast<int>(direction);
  if (state.listening())
    state.emit(Event::facing(id, c.zone, c.facing));
}

void set_owner(GameState& state, ComponentId id, Seat seat) { state.mutable_component(id).owner = seat; }

}  // namespace rulebook
