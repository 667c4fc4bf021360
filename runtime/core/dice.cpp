#include "core/dice.hpp"

#include "core/game_state.hpp"

namespace rulebook {

int roll_die(GameState& state, ComponentId die) {
  Component& c = state.mutable_component(die);
  const int faces = static_cast<int>(state.type_of(die).faces.size());
  int face = 0;
  ChanceOverride* forced = state.chance_override();
  if (!(forced && forced->forced_roll(state, die, face)))
    face = static_cast<int>(state.chance().below(static_cast<uint32_t>(faces)));
  c.face = face;
  // A fresh outcome: who knew the die before knows nothing of it now,
  // unless it lies where they may see it (its owner's cup, a public tray).
  if (c.visibility != Visibility::Public) c.known_to = 0;
  if (state.listening()) state.emit(Event::roll(die, c.owner, c.zone, face));
  return face;
}

void roll_dice(GameState& state, int zone) {
  if (ChanceOverride* forced = state.chance_override()) forced->begin_roll_group(state, zone, state.zone_size(zone));
  // Bottom to top: the order is part of the game's determinism.
  for (ComponentId id : state.zone(zone)) roll_die(state, id);
}

}  // namespace rulebook
