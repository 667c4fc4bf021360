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

void GameState::move(int id, int to_zone, bool to_bottom) {
  Component& c = components_[id];
  const int from = c.zone;
  if (from >= 0) {
    auto& items = zones_[from];
    items.erase(std::find(items.begin(), items.end(), id));
  }
  auto& dest = zones_[to_zone];
  if (to_bottom) dest.insert(dest.begin(), id);
  else dest.push_back(id);
  c.zone = to_zone;
  const ZoneDef& z = def_->zone_defs[def_->zone_def_of[to_zone]];
  switch (z.policy) {
    case ZonePolicy::Keep: break;
    case ZonePolicy::Public: c.visibility = Visibility::Public; c.known_to = 0; break;
    case ZonePolicy::Hidden: c.visibility = Visibility::Hidden; c.known_to = 0; break;
    case ZonePolicy::Owner:
      c.visibility = Visibility::Owner;
      c.known_to = 0;
      break;
  }
  if (z.per_player) c.owner = zone_owner(to_zone);
  if (sink_) emit(Event{EventType::Move, c.owner, id, from, to_zone, 0, {}, ~SeatMask{0}});
}

int GameState::roll(int id) {
  Component& c = components_[id];
  const int faces = static_cast<int>(def_->types[c.type].faces.size());
  int face = 0;
  if (!(override_ && override_->forced_roll(*this, id, face)))
    face = static_cast<int>(chance_.below(static_cast<uint32_t>(faces)));
  c.face = face;
  if (sink_) emit(Event{EventType::Roll, c.owner, id, c.zone, -1, face, {}, ~SeatMask{0}});
  return face;
}

void GameState::roll_zone(int slot) {
  if (override_) override_->begin_roll_group(*this, slot, zone_size(slot));
  // Bottom to top: the order is part of the game's determinism.
  for (int id : zones_[slot]) roll(id);
}

void GameState::set_face(int id, int face) {
  components_[id].face = face;
  if (sink_) emit(Event{EventType::SetFace, -1, id, components_[id].zone, -1, face, {}, ~SeatMask{0}});
}

void GameState::reveal(int id) {
  components_[id].visibility = Visibility::Public;
  if (sink_) emit(Event{EventType::Reveal, -1, id, components_[id].zone, -1, components_[id].face, {}, ~SeatMask{0}});
}

void GameState::hide(int id) {
  components_[id].visibility = Visibility::Hidden;
  if (sink_) emit(Event{EventType::Hide, -1, id, components_[id].zone, -1, 0, {}, ~SeatMask{0}});
}

void GameState::peek(int id, int seat) {
  components_[id].known_to |= seat_bit(seat);
  if (sink_) emit(Event{EventType::Peek, seat, id, components_[id].zone, -1, 0, {}, seat_bit(seat)});
}

void GameState::set_facing(int id, int direction) {
  components_[id].facing = direction;
  if (sink_) emit(Event{EventType::Facing, -1, id, components_[id].zone, -1, direction, {}, ~SeatMask{0}});
}

void GameState::set_owner(int id, int seat) { components_[id].owner = seat; }

void GameState::shuffle(int slot) {
  auto& items = zones_[slot];
  if (!(override_ && override_->forced_shuffle(*this, slot, items))) {
    // Fisher-Yates with the portable generator.
    for (size_t i = items.size(); i > 1; --i) {
      const size_t j = chance_.below(static_cast<uint32_t>(i));
      std::swap(items[i - 1], items[j]);
    }
  }
  for (int id : items) components_[id].known_to = 0;
  if (sink_) emit(Event{EventType::Shuffle, -1, -1, slot, -1, zone_size(slot), {}, ~SeatMask{0}});
}

void GameState::add_score(int seat, int delta) {
  players_[seat].score += delta;
  if (sink_) emit(Event{EventType::Score, seat, -1, -1, players_[seat].score, delta, {}, ~SeatMask{0}});
}

void GameState::eliminate(int seat) {
  players_[seat].eliminated = true;
  turns_.eliminate(seat);
  if (sink_) emit(Event{EventType::Eliminate, seat, -1, -1, -1, 0, {}, ~SeatMask{0}});
}

void GameState::reinstate(int seat) {
  players_[seat].eliminated = false;
  turns_.reinstate(seat);
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
