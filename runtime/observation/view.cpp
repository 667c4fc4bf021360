#include "observation/view.hpp"

#include <fmt/format.h>

#include "core/board_geometry.hpp"

namespace rulebook {

using nlohmann::json;

json component_view(const GameState& state, ComponentId id, Seat seat) {
  const Component& c = state.component(id);
  const GameDefinition& def = state.definition();
  if (!state.visible_to(id, seat)) return json{{"hidden", true}};
  const ComponentType& t = def.types[c.type];
  json j{{"id", id}, {"type", t.name}, {"face", t.faces[c.face]}};
  if (c.facing >= 0) j["facing"] = to_string(static_cast<Direction>(c.facing));
  if (!c.owner.is_none()) j["owner"] = c.owner;
  if (c.visibility != Visibility::Public) j["known"] = true;
  return j;
}

json seat_view(const GameState& state, Seat seat) {
  const GameDefinition& def = state.definition();
  json v;
  v["seat"] = seat;
  const TurnOrder& turns = state.turns();
  // A game played in rounds shows its round and who sits it out.
  const bool rounds = turns.game_round() > 0;
  json players = json::array();
  for (Seat s : Seat::all(state.player_count())) {
    json p{{"seat", s}, {"name", state.player(s).name}, {"score", state.player(s).score},
           {"eliminated", state.player(s).eliminated}};
    if (rounds) p["sitting_out"] = turns.sitting_out(s.value());
    players.push_back(std::move(p));
  }
  v["players"] = std::move(players);
  v["turn"] = {{"current", turns.current()}, {"round", turns.round()}};
  if (rounds) v["turn"]["game_round"] = turns.game_round();
  // Only in games that declare tricks or phases: other views stay as they were.
  if (turns.tricks_started() > 0) v["turn"]["trick"] = turns.trick();
  if (!turns.phase().empty()) v["turn"]["phase"] = turns.phase();
  json zones = json::object();
  json boards = json::object();
  for (int slot = 0; slot < def.zone_count(); ++slot) {
    const ZoneDef& z = def.zone_defs[def.zone_def_of[slot]];
    if (z.per_player && def.zone_key_of[slot] >= state.player_count()) continue;
    const auto& items = state.zone(slot);
    if (z.board >= 0) {
      if (items.empty()) continue;
      json cell = json::array();
      for (auto it = items.rbegin(); it != items.rend(); ++it) cell.push_back(component_view(state, *it, seat));
      const auto& g = def.boards[z.board].geometry;
      const int c = def.zone_key_of[slot];
      boards[z.name][fmt::format("{},{}", g.x(c) + 1, g.y(c) + 1)] = std::move(cell);
      continue;
    }
    json zone{{"title", state.zone_title(slot)}, {"count", items.size()}};
    bool any_visible = false;
    for (ComponentId id : items) any_visible = any_visible || state.visible_to(id, seat);
    if (any_visible) {
      json list = json::array();  // top first
      for (auto it = items.rbegin(); it != items.rend(); ++it) list.push_back(component_view(state, *it, seat));
      zone["components"] = std::move(list);
    }
    zones[state.zone_id(slot)] = std::move(zone);
  }
  v["zones"] = std::move(zones);
  if (!boards.empty()) v["boards"] = std::move(boards);
  return v;
}

}  // namespace rulebook
