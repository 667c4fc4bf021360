#include "core/zone.hpp"

#include <algorithm>

#include "core/game_state.hpp"

namespace rulebook {

bool ComponentMatch::operator()(const GameState& state, ComponentId id) const {
  return !face.is_none() ? state.face_id(id) == face : state.component(id).type == type;
}

void move_component(GameState& state, ComponentId id, int to_zone, const MoveOptions& how) {
  Component& c = state.mutable_component(id);
  const int from = c.zone;
  const bool to_bottom = how.to_bottom;
  const GameDefinition& def = state.definition();
  const ZoneDef& z = def.zone_defs[def.zone_def_of[to_zone]];
  // Who knew it before it moved: kept by `owner` and `keep` zones, and told
  // to listeners (the seats that saw what moved). Worked out only then.
  const bool keeps = z.policy == ZonePolicy::Owner || z.policy == ZonePolicy::Others || z.policy == ZonePolicy::Keep;
  const SeatMask knew = keeps || state.listening() ? state.knowers(id) : 0;
  if (from >= 0) {
    // Looked for from the top: what moves is most often the top one (a
    // draw, a deal, move_top, move_matching's search).
    auto& items = state.mutable_zone(from);
    items.erase(std::find(items.rbegin(), items.rend(), id).base() - 1);
  }
  auto& dest = state.mutable_zone(to_zone);
  if (to_bottom) dest.insert(dest.begin(), id);
  else dest.push_back(id);
  c.zone = to_zone;
  switch (z.policy) {
    case ZonePolicy::Keep: break;
    case ZonePolicy::Public: c.visibility = Visibility::Public; break;
    case ZonePolicy::Hidden: c.visibility = Visibility::Hidden; break;
    case ZonePolicy::Owner: c.visibility = Visibility::Owner; break;
    case ZonePolicy::Others: c.visibility = Visibility::Others; break;
  }
  if (z.per_player) c.owner = state.zone_owner(to_zone);
  // The knowledge rule (zone.hpp): a public zone needs no list, a hiding
  // zone forgets, anything else keeps who knew it. (A component that stays
  // public in a `keep` zone keeps its list: the seats that knew it before
  // it was shown still do when it is turned face down again.)
  switch (z.policy) {
    case ZonePolicy::Public: c.known_to = 0; break;
    case ZonePolicy::Hidden: c.known_to = how.seen_by; break;
    case ZonePolicy::Owner:
    case ZonePolicy::Others: c.known_to = (knew | how.seen_by) & state.all_seats(); break;
    case ZonePolicy::Keep:
      if (c.visibility != Visibility::Public) c.known_to |= knew;
      c.known_to = (c.known_to | how.seen_by) & state.all_seats();
      break;
  }
  if (state.listening()) state.emit(Event::move(id, c.owner, from, to_zone, knew));
}

int move_all(GameState& state, int from, int to, const MoveOptions& how) {
  int n = 0;
  for (; state.zone_size(from) > 0; ++n) move_component(state, state.zone(from).front(), to, how);
  return n;
}

int move_top(GameState& state, int from, int count, int to, const MoveOptions& how) {
  int n = 0;
  for (; n < count && state.zone_size(from) > 0; ++n) move_component(state, state.zone(from).back(), to, how);
  return n;
}

ComponentId find_matching(const GameState& state, int zone, const ComponentMatch& match) {
  const auto& items = state.zone(zone);
  for (auto it = items.rbegin(); it != items.rend(); ++it)
    if (match(state, *it)) return *it;
  return ComponentId::none();
}

int move_matching(GameState& state, int from, const ComponentMatch& match, int to, int limit, const MoveOptions& how) {
  int n = 0;
  for (; limit < 0 || n < limit; ++n) {
    const ComponentId found = find_matching(state, from, match);
    if (found.is_none()) break;
    move_component(state, found, to, how);
  }
  return n;
}

std::pair<int, int> exchange_zones(GameState& state, int a, int b) {
  const std::vector<ComponentId> mine = state.zone(a), theirs = state.zone(b);
  for (ComponentId id : mine) move_component(state, id, b);
  for (ComponentId id : theirs) move_component(state, id, a);
  return {static_cast<int>(mine.size()), static_cast<int>(theirs.size())};
}

}  // namespace rulebook
