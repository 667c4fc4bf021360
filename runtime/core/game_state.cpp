#include "core/game_state.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace rulebook {

using nlohmann::json;

GameState::GameState(const GameDefinition& def) : def_(&def) {
  components_.resize(def.component_count());
  zones_.resize(def.zone_count());
}

void GameState::reset(int players, uint64_t seed, std::vector<std::string> names) {
  seed_ = seed;
  chance_.reseed(seed, kChanceStream);
  players_.assign(players, Player{});
  for (int s = 0; s < players; ++s) {
    if (s < static_cast<int>(names.size()) && !names[s].empty()) players_[s].name = names[s];
    else if (s < static_cast<int>(def_->default_names.size())) players_[s].name = def_->default_names[s];
    else players_[s].name = fmt::format("Player {}", s + 1);
  }
  turns_.reset(players);
  for (auto& z : zones_) z.clear();
  for (int id = 0; id < component_count(); ++id) {
    Component& c = components_[id];
    const ComponentType& t = def_->types[def_->component_type[id]];
    c = Component{};
    c.type = def_->component_type[id];
    c.face = t.initial_face;
    if (!t.zone.empty()) {
      int slot = def_->zone_slot(def_->find_zone_def(t.zone), 0);
      c.zone = slot;
      zones_[slot].push_back(id);
      // The start zone's policy applies as if the component had moved in.
      switch (def_->zone_defs[def_->zone_def_of[slot]].policy) {
        case ZonePolicy::Hidden: c.visibility = Visibility::Hidden; break;
        case ZonePolicy::Owner: c.visibility = Visibility::Owner; break;
        case ZonePolicy::Keep:
        case ZonePolicy::Public: c.visibility = Visibility::Public; break;
      }
    }
  }
  if (sink_) emit(Event{EventType::GameStart, -1, -1, -1, -1, players, {}, ~SeatMask{0}});
}

bool GameState::visible_to(int id, int seat) const {
  const Component& c = components_[id];
  if (seat < 0 || c.visibility == Visibility::Public) return true;
  if (c.known_to & seat_bit(seat)) return true;
  return c.visibility == Visibility::Owner && c.owner == seat;
}

int GameState::zone_owner(int slot) const {
  const ZoneDef& z = def_->zone_defs[def_->zone_def_of[slot]];
  return z.per_player ? def_->zone_key_of[slot] : -1;
}

std::string GameState::zone_title(int slot) const {
  const ZoneDef& z = def_->zone_defs[def_->zone_def_of[slot]];
  std::string title = z.title;
  if (z.per_player) {
    const int seat = def_->zone_key_of[slot];
    const std::string name = seat < player_count() ? players_[seat].name : fmt::format("seat {}", seat);
    auto at = title.find("{player}");
    if (at != std::string::npos) title.replace(at, 8, name);
  } else if (z.board >= 0) {
    const auto& g = def_->boards[z.board].geometry;
    const int cell = def_->zone_key_of[slot];
    title = fmt::format("{} ({},{})", title, g.x(cell) + 1, g.y(cell) + 1);
  }
  return title;
}

std::string GameState::zone_id(int slot) const {
  const ZoneDef& z = def_->zone_defs[def_->zone_def_of[slot]];
  if (z.per_player) return fmt::format("{}@{}", z.name, def_->zone_key_of[slot]);
  if (z.board >= 0) {
    const auto& g = def_->boards[z.board].geometry;
    const int cell = def_->zone_key_of[slot];
    return fmt::format("{}@{},{}", z.name, g.x(cell) + 1, g.y(cell) + 1);
  }
  return z.name;
}

int GameState::count_showing(int slot, int face) const {
  int n = 0;
  for (int id : zones_[slot]) n += this->face_id(id) == face;
  return n;
}

void GameState::begin_turn(int seat) {
  turns_.begin(seat);
  if (sink_) emit(Event{EventType::TurnBegin, seat, -1, -1, -1, turns_.round(), {}, ~SeatMask{0}});
}














void GameState::record_choice(int seat, int index, const std::string& label) {
  if (sink_) emit(Event{EventType::Choice, seat, -1, -1, -1, index, label, ~SeatMask{0}});
}

void GameState::message(int seat, std::string text) {
  if (sink_) emit(Event{EventType::Message, seat, -1, -1, -1, 0, std::move(text), ~SeatMask{0}});
}

json GameState::component_json(int id, int seat) const {
  const Component& c = components_[id];
  if (!visible_to(id, seat)) return json{{"hidden", true}};
  const ComponentType& t = def_->types[c.type];
  json j{{"id", id}, {"type", t.name}, {"face", t.faces[c.face]}};
  if (c.facing >= 0) j["facing"] = to_string(static_cast<Direction>(c.facing));
  if (c.owner >= 0) j["owner"] = c.owner;
  if (c.visibility != Visibility::Public) j["known"] = true;
  return j;
}

json GameState::view(int seat) const {
  json v;
  v["seat"] = seat;
  json players = json::array();
  for (int s = 0; s < player_count(); ++s)
    players.push_back({{"seat", s}, {"name", players_[s].name}, {"score", players_[s].score},
                       {"eliminated", players_[s].eliminated}});
  v["players"] = std::move(players);
  v["turn"] = {{"current", turns_.current()}, {"round", turns_.round()}};
  json zones = json::object();
  json boards = json::object();
  for (int slot = 0; slot < def_->zone_count(); ++slot) {
    const ZoneDef& z = def_->zone_defs[def_->zone_def_of[slot]];
    if (z.per_player && def_->zone_key_of[slot] >= player_count()) continue;
    const auto& items = zones_[slot];
    if (z.board >= 0) {
      if (items.empty()) continue;
      json cell = json::array();
      for (auto it = items.rbegin(); it != items.rend(); ++it) cell.push_back(component_json(*it, seat));
      const auto& g = def_->boards[z.board].geometry;
      const int c = def_->zone_key_of[slot];
      boards[z.name][fmt::format("{},{}", g.x(c) + 1, g.y(c) + 1)] = std::move(cell);
      continue;
    }
    json zone{{"title", zone_title(slot)}, {"count", items.size()}};
    bool any_visible = false;
    for (int id : items) any_visible = any_visible || visible_to(id, seat);
    if (any_visible) {
      json list = json::array();  // top first
      for (auto it = items.rbegin(); it != items.rend(); ++it) list.push_back(component_json(*it, seat));
      zone["components"] = std::move(list);
    }
    zones[zone_id(slot)] = std::move(zone);
  }
  v["zones"] = std::move(zones);
  if (!boards.empty()) v["boards"] = std::move(boards);
  return v;
}

}  // namespace rulebook
