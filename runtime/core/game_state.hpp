#pragma once
// The state of one game: where every component lies and how it shows, the
// players, the turn order and the chance stream. Every change is made by
// an operation of its concept (dice, tile, piece, zone, deck, players),
// which emits the matching event when somebody listens.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/component.hpp"
#include "core/event.hpp"
#include "core/game_definition.hpp"
#include "core/players.hpp"
#include "core/rng.hpp"
#include "core/turn_order.hpp"

namespace rulebook {

// Fixes chance outcomes (scenario files): consulted before the generator.
class ChanceOverride {
 public:
  virtual ~ChanceOverride() = default;
  // Return true and set `face` to force a die roll.
  virtual bool forced_roll(const GameState& state, ComponentId die, int& face) = 0;
  // Return true after rearranging `items` (top last) to force a shuffle.
  virtual bool forced_shuffle(const GameState& state, int zone, std::vector<ComponentId>& items) = 0;
  // Called when a die is rolled as part of rolling a whole zone (group = its zone).
  virtual void begin_roll_group(const GameState&, int /*zone*/, int /*dice*/) {}
};

// A decision as it was taken, for its event.
struct ChoiceRecord {
  Seat seat;
  int index = 0;
  std::string label;
  ComponentId component;  // the chosen option's component, when it is one
  int options = 0;     // how many there were (1: taken without asking)
  bool secret = false; // private: other seats learn that a choice was made, not which
  std::string prompt;
};

class GameState {
 public:
  explicit GameState(const GameDefinition& def);

  // Starts a new game: components back to their starting zones and faces.
  void reset(int players, uint64_t seed, std::vector<std::string> names = {});

  const GameDefinition& definition() const { return *def_; }
  int player_count() const { return static_cast<int>(players_.size()); }
  const Player& player(Seat seat) const { return players_[seat.index()]; }
  const std::vector<Player>& players() const { return players_; }
  TurnOrder& turns() { return turns_; }
  const TurnOrder& turns() const { return turns_; }
  Rng& chance() { return chance_; }
  const Rng& chance() const { return chance_; }
  // The seed chance was last seeded from: the game's, or, in a search's
  // simulated game past the seat's decision, the simulation's own
  // (reseed_chance), so a rollout never reads the true game's seed.
  uint64_t seed() const { return seed_; }
  // Chance from here on is drawn from `seed` (the chance stream), and
  // seed() says so.
  void reseed_chance(uint64_t seed) {
    seed_ = seed;
    chance_.reseed(seed, kChanceStream);
  }

  void set_sink(EventSink* sink) { sink_ = sink; }
  EventSink* sink() const { return sink_; }
  bool listening() const { return sink_ != nullptr; }
  void set_chance_override(ChanceOverride* o) { override_ = o; }

  // Components.
  const Component& component(ComponentId id) const { return components_[id.index()]; }
  int component_count() const { return static_cast<int>(components_.size()); }
  const ComponentType& type_of(ComponentId id) const { return def_->types[component(id).type]; }
  const std::string& face_name(ComponentId id) const { return type_of(id).faces[component(id).face]; }
  bool visible_to(ComponentId id, Seat seat) const;  // none: seen by an onlooker who sees everything
  // The seats that may know the component now (visible_to, as a mask).
  SeatMask knowers(ComponentId id) const;
  SeatMask all_seats() const;

  // Zones: items[0] is the bottom, items.back() the top.
  const std::vector<ComponentId>& zone(int slot) const { return zones_[slot]; }
  int zone_size(int slot) const { return static_cast<int>(zones_[slot].size()); }
  Seat zone_owner(int slot) const;  // seat for per-player zones, else none
  std::string zone_title(int slot) const;
  std::string zone_id(int slot) const;  // "dice@2", "sea#5", "supply"
  FaceId face_id(ComponentId id) const { return type_of(id).face_ids[component(id).face]; }
  int count_showing(int slot, FaceId face) const;

  // Which zones changed, for readers that keep what they read of the
  // zones between two questions (core/face_down.hpp): every change a zone
  // may see (its list, a component's visibility in it) counts one, and the
  // last kRecentChanges changed zones are kept. A zone that none of the
  // changes since a reader's count names holds what it held. Counts run
  // within one history, new for every state, copy and reset, so a reader
  // keys what it keeps on both.
  static constexpr int kRecentChanges = 32;
  uint64_t history() const { return history_.id; }
  uint64_t changes() const { return changes_; }
  // The zone of change number n (changes() - kRecentChanges <= n < changes()).
  int changed_zone(uint64_t n) const { return recent_zones_[n % kRecentChanges]; }

  // Changes that belong to no component: each emits its event. The
  // component operations are in dice.hpp, tile.hpp, piece.hpp, zone.hpp,
  // deck.hpp and players.hpp.
  void begin_turn(Seat seat);
  // The conformance check reads the chosen component to know which
  // identity the label may name.
  void record_choice(const ChoiceRecord& choice);
  // `to`: the seats it is said to (everybody by default).
  void message(Seat seat, std::string text, SeatMask to = ~SeatMask{0});

  // Raw access for those operations, which keep the state consistent and
  // emit the events; nothing else should change a state through these.
  // Each counts a change of the zone it may change (a component: the zone it lies in;
  // an operation that moves it asks for both zones).
  Component& mutable_component(ComponentId id) {
    Component& c = components_[id.index()];
    if (c.zone >= 0) touch(c.zone);
    return c;
  }
  std::vector<ComponentId>& mutable_zone(int slot) {
    touch(slot);
    return zones_[slot];
  }
  Player& mutable_player(Seat seat) { return players_[seat.index()]; }
  ChanceOverride* chance_override() const { return override_; }
  void emit(Event e) {
    if (sink_) sink_->on_event(*this, e);
  }

 private:
  // A history's number: unique in the process, a new one for a copy.
  struct History {
    uint64_t id;
    History();
    History(const History&);
    History& operator=(const History&);
  };
  void touch(int slot) { recent_zones_[changes_++ % kRecentChanges] = slot; }

  const GameDefinition* def_;
  std::vector<Component> components_;
  std::vector<std::vector<ComponentId>> zones_;
  uint64_t changes_ = 0;
  int recent_zones_[kRecentChanges] = {};
  History history_;
  std::vector<int> start_slot_;  // by component type: its starting zone's slot (-1: none)
  std::vector<Player> players_;
  TurnOrder turns_;
  Rng chance_;
  uint64_t seed_ = 0;
  EventSink* sink_ = nullptr;
  ChanceOverride* override_ = nullptr;
};

}  // namespace rulebook
