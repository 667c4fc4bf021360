#include "core/zone.hpp"

#include <algorithm>

#include "core/game_state.hpp"

namespace rulebook {

bool ComponentMatch::operator()(const GameState& state, int id) const {
  return face >= 0 ? state.face_id(id) == face : state.component(id).type == type;
}

void move_component(GameState& state, int id, int to_zone, bool to_bottom) {
  Component& c = state.mutable_component(id);
  const int from = c.zone;
  if (from >= 0) {
    auto& items = state.mutable_zone(from);
    items.erase(std::find(items.begin(), items.end(), id));
  }
  auto& dest = state.mutable_zone(to_zone);
  if (to_bottom) dest.insert(dest.begin(), id);
  else dest.push_back(id);
  c.zone = to_zone;
  const GameDefinition& def = state.definition();
  const ZoneDef& z = def.zone_defs[def.zone_def_of[to_zone]];
  switch (z.policy) {
    case ZonePolicy::Keep: break;
    case ZonePolicy::Public: c.visibility = Visibility::Public; c.known_to = 0; break;
    case ZonePolicy::Hidden: c.visibility = Visibility::Hidden; c.known_to = 0; break;
    case ZonePolicy::Owner: c.visibility = Visibility::Owner; c.known_to = 0; break;
  }
  if (z.per_player) c.owner = state.zone_owner(to_zone);
  if (state.listening()) state.emit(Event::move(id, c.owner, from, to_zone));
}

int move_all(GameState& state, int from, int to) {
  int n = 0;
  for (; state.zone_size(from) > 0; ++n) move_component(state, state.zone(from).front(), to);
  return n;
}

int move_top(GameState& state, int from, int count, int to) {
  int n = 0;
  for (; n < count && state.zone_size(from) > 0; ++n) move_component(state, state.zone(from).back(), to);
  return n;
}

int find_matching(const GameState& state, int zone, const ComponentMatch& match) {
  const auto& items = state.zone(zone);
  for (auto it = items.rbegin(); it != items.rend(); ++it)
    if (match(state, *it)) return *it;
  return -1;
}

int move_matching(GameState& state, int from, const ComponentMatch& match, int to, int limit) {
  int n = 0;
  for (; limit < 0 || n < limit; ++n) {
    const int found = find_matching(state, from, match);
    if (found < 0) break;
    move_component(state, found, to);
  }
  return n;
}

std::pair<int, int> exchange_zones(GameState& state, int a, int b) {
  const std::vector<int> mine = state.zone(a), theirs = state.zone(b);
  for (int id : mine) move_component(state, id, b);
  for (int id : theirs) move_component(state, id, a);
  return {static_cast<int>(mine.size()), static_cast<int>(theirs.size())};
}

}  // namespace rulebook
