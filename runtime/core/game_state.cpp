#include "core/game_state.hpp"

#include <algorithm>
#include <atomic>

#include <fmt/format.h>

namespace rulebook {

using nlohmann::json;

namespace {
uint64_t new_history() {
  static std::atomic<uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}
}  // namespace

GameState::History::History() : id(new_history()) {}
GameState::History::History(const History&) : id(new_history()) {}
GameState::History& GameState::History::operator=(const History&) {
  id = new_history();
  return *this;
}

GameState::GameState(const GameDefinition& def) : def_(&def) {
  components_.resize(def.component_count());
  zones_.resize(def.zone_count());
  // Each type's starting zone, found by name once instead of once per
  // component at every reset.
  start_slot_.assign(def.types.size(), -1);
  for (size_t t = 0; t < def.types.size(); ++t)
    if (!def.types[t].zone.empty()) start_slot_[t] = def.zone_slot(def.find_zone_def(def.types[t].zone), 0);
}

void GameState::reset(int players, uint64_t seed, std::vector<std::string> names) {
  history_ = History();  // every zone may change: what readers kept is forgotten
  changes_ = 0;
  seed_ = seed;
  chance_.reseed(seed, kChanceStream);
  players_.assign(players, Player{});
  for (int s = 0; s < players; ++s) {
    if (s < static_cast<int>(names.size()) && !names[s].empty()) players_[s].name = names[s];
    else players_[s].name = def_->default_name(s);
  }
  turns_.reset(players);
  for (auto& z : zones_) z.clear();
  for (int id = 0; id < component_count(); ++id) {
    Component& c = components_[id];
    const ComponentType& t = def_->types[def_->component_type[id]];
    c = Component{};
    c.type = def_->component_type[id];
    c.face = def_->start_face(id);
    // A count that follows the player count: the copies below the top
    // in_play(players) stay out of the game.
    const bool in_play = t.first_component + t.count - 1 - id < t.in_play(players);
    if (!t.zone.empty() && in_play) {
      const int slot = start_slot_[static_cast<size_t>(c.type)];
      c.zone = slot;
      zones_[slot].push_back(ComponentId{id});
      // The start zone's policy applies as if the component had moved in.
      switch (def_->zone_defs[def_->zone_def_of[slot]].policy) {
        case ZonePolicy::Hidden: c.visibility = Visibility::Hidden; break;
        case ZonePolicy::Owner: c.visibility = Visibility::Owner; break;
        case ZonePolicy::Others: c.visibility = Visibility::Others; break;
        case ZonePolicy::Keep:
        case ZonePolicy::Public: c.visibility = Visibility::Public; break;
      }
    }
  }
  if (sink_) emit(Event::game_start(players));
}

bool GameState::visible_to(ComponentId id, Seat seat) const {
  const Component& c = component(id);
  if (seat.is_none() || c.visibility == Visibility::Public) return true;
  if (c.known_to & seat_bit(seat)) return true;
  if (c.visibility == Visibility::Others) return c.owner != seat;
  return c.visibility == Visibility::Owner && c.owner == seat;
}

Seat GameState::zone_owner(int slot) const {
  const ZoneDef& z = def_->zone_defs[def_->zone_def_of[slot]];
  return z.per_player ? Seat{def_->zone_key_of[slot]} : Seat::none();
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
    // A named square is called by its name alone ("e4"), as players say it.
    title = g.named() ? g.cell_name(cell) : fmt::format("{} ({},{})", title, g.x(cell) + 1, g.y(cell) + 1);
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

int GameState::count_showing(int slot, FaceId face) const {
  int n = 0;
  for (ComponentId id : zones_[slot]) n += this->face_id(id) == face;
  return n;
}

void GameState::begin_turn(Seat seat) {
  turns_.begin(seat.value());
  if (sink_) emit(Event::turn_begin(seat, turns_.round(), turns_.game_round()));
}

void GameState::record_choice(const ChoiceRecord& choice) {
  if (sink_)
    emit(Event::choice(choice.seat, choice.index, choice.label, choice.component, choice.options, choice.secret,
                       choice.prompt));
}

void GameState::message(Seat seat, std::string text, SeatMask to) {
  if (sink_) emit(Event::message(seat, std::move(text), to));
}

SeatMask GameState::knowers(ComponentId id) const {
  SeatMask mask = 0;
  for (Seat s : Seat::all(player_count()))
    if (visible_to(id, s)) mask |= seat_bit(s);
  return mask;
}

SeatMask GameState::all_seats() const {
  return player_count() >= 32 ? ~SeatMask{0} : (SeatMask{1} << player_count()) - 1;
}

}  // namespace rulebook
