#include "core/deck.hpp"

#include <utility>

#include "core/game_state.hpp"
#include "core/zone.hpp"

namespace rulebook {

void shuffle_zone(GameState& state, int zone) {
  auto& items = state.mutable_zone(zone);
  ChanceOverride* forced = state.chance_override();
  if (!(forced && forced->forced_shuffle(state, zone, items))) {
    for (size_t i = items.size(); i > 1; --i) {
      const size_t j = state.chance().below(static_cast<uint32_t>(i));
      std::swap(items[i - 1], items[j]);
    }
  }
  for (ComponentId id : items) state.mutable_component(id).known_to = 0;
  if (state.listening())
    state.emit(Event::shuffle(zone, state.zone_size(zone)));
}

ComponentId draw_top(GameState& state, int deck, int dest, int discard) {
  if (state.zone_size(deck) == 0 && discard >= 0 && state.zone_size(discard) > 0) {
    while (state.zone_size(discard) > 0) move_component(state, state.zone(discard).back(), deck);
    shuffle_zone(state, deck);
  }
  if (state.zone_size(deck) == 0) return ComponentId::none();
  const ComponentId card = state.zone(deck).back();
  move_component(state, card, dest);
  return card;
}

}  // namespace rulebook
