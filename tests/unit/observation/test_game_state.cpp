// GameState on a GameDefinition built from an inline document: starting
// zones, moves, zone policies, rolls, shuffles, visibility, redacted views,
// events and chance overrides.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/game_definition.hpp"
#include "core/deck.hpp"
#include "core/dice.hpp"
#include "core/game_state.hpp"
#include "observation/view.hpp"
#include "core/tile.hpp"
#include "core/zone.hpp"
#include "core/rng.hpp"
#include "setup/definition_builder.hpp"
#include "setup/setup_error.hpp"

using nlohmann::json;
using namespace rulebook;

namespace {

// Component ids: die 0..2, ruby 3..4, sapphire 5..7, tile 8.
// Zone slots: grid cells 0..8 (boards come first), supply 9, deck 10,
// hand@0..2 11..13, table 14, pool@0..2 15..17.
const char* const kDocument = R"({
  "name": "test-game",
  "title": "Test Game",
  "script": "rules.lua",
  "players": {"min": 2, "max": 3, "default": 3, "names": ["Ann", "Bob"]},
  "options": {"target": 3},
  "boards": [
    {"name": "grid", "title": "the grid", "width": 3, "height": 3,
     "paths": [{"name": "ring", "ring": [1, 1, 3, 3]},
               {"name": "diag", "cells": [[1, 1], [2, 2], [3, 3]], "cyclic": false}]}
  ],
  "zones": [
    {"name": "supply", "title": "the box"},
    {"name": "deck", "visibility": "hidden"},
    {"name": "hand", "per_player": true, "visibility": "owner"},
    {"name": "table"},
    {"name": "pool", "per_player": true, "title": "{player}'s pool"}
  ],
  "components": [
    {"name": "die", "kind": "die", "faces": ["one", "two", "three", "four", "five", "six"],
     "count": 3, "zone": "supply"},
    {"name": "ruby_card", "kind": "card", "title": "card", "faces": ["ruby"], "count": 2,
     "zone": "deck", "attributes": {"colour": "red"}},
    {"name": "sapphire_card", "kind": "card", "title": "card", "faces": ["sapphire"],
     "count": 3, "zone": "deck"},
    {"name": "tile", "kind": "tile", "faces": ["front", "back"], "face": "back"}
  ]
})";

constexpr int kGrid0 = 0, kSupply = 9, kDeck = 10, kHand0 = 11, kTable = 14, kPool0 = 15;
constexpr ComponentId kTile{8};

// Components by number, bottom first, as a zone lists them.
std::vector<ComponentId> ids(std::initializer_list<int> numbers) {
  std::vector<ComponentId> out;
  for (int n : numbers) out.push_back(ComponentId{n});
  return out;
}

GameDefinition make_definition(const char* text = kDocument) {
  return build_game_definition(json::parse(text), "/nonexistent/test-game", {});
}

struct Recorder : EventSink {
  std::vector<Event> events;
  void on_event(const GameState&, const Event& e) override { events.push_back(e); }
  size_t count(EventType t) const {
    return static_cast<size_t>(std::count_if(events.begin(), events.end(),
                                             [t](const Event& e) { return e.type == t; }));
  }
};

std::vector<int> ids_in_view(const json& j) {
  std::vector<int> out;
  if (j.is_object()) {
    if (j.contains("id")) out.push_back(j.at("id").get<int>());
    for (const auto& [k, v] : j.items()) {
      auto sub = ids_in_view(v);
      out.insert(out.end(), sub.begin(), sub.end());
    }
  } else if (j.is_array()) {
    for (const auto& v : j) {
      auto sub = ids_in_view(v);
      out.insert(out.end(), sub.begin(), sub.end());
    }
  }
  return out;
}

}  // namespace

TEST_CASE("GameDefinition::build lays out types, zones and boards", "[state]") {
  const GameDefinition def = make_definition();
  CHECK(def.name == "test-game");
  CHECK(def.min_players == 2);
  CHECK(def.max_players == 3);
  CHECK(def.component_count() == 9);
  CHECK(def.zone_count() == 18);
  CHECK(def.find_type("sapphire_card") == 2);
  CHECK(def.find_type("nothing") == -1);
  CHECK(def.zone_slot(def.find_zone_def("hand"), 2) == kHand0 + 2);
  CHECK(def.zone_slot(def.find_zone_def("hand"), 3) == -1);
  CHECK(def.zone_slot(def.find_zone_def("grid"), 4) == kGrid0 + 4);
  CHECK(def.zone_defs[def.find_zone_def("grid")].policy == ZonePolicy::Keep);
  CHECK(def.zone_defs[def.find_zone_def("deck")].policy == ZonePolicy::Hidden);
  CHECK(def.types[def.find_type("tile")].initial_face == 1);
  // Face ids are shared by every type.
  CHECK_FALSE(def.face_id("ruby").is_none());
  CHECK(def.face_id("ruby") != def.face_id("sapphire"));
  CHECK(def.face_id("emerald").is_none());
  CHECK(def.face_index(def.find_type("die"), "three") == 2);
  const BoardDef& grid = def.boards.at(0);
  REQUIRE(grid.geometry.path("ring") != nullptr);
  CHECK(grid.geometry.path("ring")->cells == std::vector<int>{0, 1, 2, 5, 8, 7, 6, 3});
  CHECK(grid.geometry.path("diag")->cells == std::vector<int>{0, 4, 8});
  CHECK_FALSE(grid.geometry.path("diag")->cyclic);
}

TEST_CASE("GameDefinition::build rejects semantic errors", "[state]") {
  json doc = json::parse(kDocument);
  SECTION("unknown starting zone") {
    doc["components"][0]["zone"] = "nowhere";
    CHECK_THROWS_WITH(build_game_definition(doc, "/g", {}), Catch::Contains("unknown zone 'nowhere'"));
  }
  SECTION("starting zone per player") {
    doc["components"][0]["zone"] = "hand";
    CHECK_THROWS_AS(build_game_definition(doc, "/g", {}), SetupError);
  }
  SECTION("duplicate zone name") {
    doc["zones"][1]["name"] = "supply";
    CHECK_THROWS_WITH(build_game_definition(doc, "/g", {}), Catch::Contains("used twice"));
  }
  SECTION("bad initial face") {
    doc["components"][3]["face"] = "edge";
    CHECK_THROWS_WITH(build_game_definition(doc, "/g", {}), Catch::Contains("/g/game.yaml"));
  }
  SECTION("path off the board") {
    doc["boards"][0]["paths"][1]["cells"][2] = json::array({4, 3});
    CHECK_THROWS_WITH(build_game_definition(doc, "/g", {}), Catch::Contains("leaves the board"));
  }
}

TEST_CASE("GameState::reset places components in their start zones", "[state]") {
  const GameDefinition def = make_definition();
  GameState state(def);
  state.reset(3, 42);
  CHECK(state.player_count() == 3);
  CHECK(state.player(Seat{0}).name == "Ann");
  CHECK(state.player(Seat{1}).name == "Bob");
  CHECK(state.player(Seat{2}).name == "Player 3");
  CHECK(state.seed() == 42);
  CHECK(state.zone(kSupply) == ids({0, 1, 2}));
  CHECK(state.zone(kDeck) == ids({3, 4, 5, 6, 7}));
  CHECK(state.component(kTile).zone == -1);
  CHECK(state.face_name(kTile) == "back");
  CHECK(state.face_name(ComponentId{0}) == "one");
  CHECK(state.component(ComponentId{0}).visibility == Visibility::Public);
  CHECK(state.component(ComponentId{3}).visibility == Visibility::Hidden);  // deck policy
  CHECK(state.turns().seats() == 3);

  // A second reset undoes everything the first game did.
  move_component(state, ComponentId{0}, kTable);
  set_face(state, ComponentId{1}, 4);
  add_score(state, Seat{1}, 5);
  eliminate(state, Seat{2});
  reveal(state, ComponentId{3});
  state.reset(2, 7, {"Xia", ""});
  CHECK(state.player_count() == 2);
  CHECK(state.player(Seat{0}).name == "Xia");
  CHECK(state.player(Seat{1}).name == "Bob");  // empty name: the default
  CHECK(state.player(Seat{1}).score == 0);
  CHECK(state.zone(kSupply) == ids({0, 1, 2}));
  CHECK(state.zone_size(kTable) == 0);
  CHECK(state.face_name(ComponentId{1}) == "one");
  CHECK(state.component(ComponentId{3}).visibility == Visibility::Hidden);
  CHECK_FALSE(state.turns().eliminated(1));
}

TEST_CASE("GameState: moves to the top and to the bottom", "[state]") {
  const GameDefinition def = make_definition();
  GameState state(def);
  state.reset(3, 1);
  move_component(state, ComponentId{0}, kTable);
  move_component(state, ComponentId{1}, kTable);
  move_component(state, ComponentId{2}, kTable, /*to_bottom=*/true);
  CHECK(state.zone(kTable) == ids({2, 0, 1}));  // bottom .. top
  CHECK(state.zone_size(kSupply) == 0);
  CHECK(state.component(ComponentId{2}).zone == kTable);
  // Moving within a zone puts it on top again.
  move_component(state, ComponentId{2}, kTable);
  CHECK(state.zone(kTable) == ids({0, 1, 2}));
  // A component that lay nowhere can be placed.
  move_component(state, kTile, kGrid0 + 4);
  CHECK(state.zone(kGrid0 + 4) == std::vector<ComponentId>{kTile});
  CHECK(state.zone_id(kGrid0 + 4) == "grid@2,2");
  CHECK(state.zone_title(kGrid0 + 5) == "the grid (3,2)");
  CHECK(state.zone_id(kHand0 + 1) == "hand@1");
  CHECK(state.zone_title(kHand0 + 1) == "Bob's hand");
  CHECK(state.zone_title(kPool0 + 2) == "Player 3's pool");
  CHECK(state.zone_id(kSupply) == "supply");
  CHECK(state.zone_title(kSupply) == "the box");
  CHECK(state.zone_owner(kHand0 + 2) == Seat{2});
  CHECK(state.zone_owner(kTable).is_none());
}

TEST_CASE("GameState: zone policies set visibility and owner", "[state]") {
  const GameDefinition def = make_definition();
  GameState state(def);
  state.reset(3, 1);
  const ComponentId card{7};  // top of the deck
  REQUIRE(state.component(card).visibility == Visibility::Hidden);

  move_component(state, card, kHand0 + 1);  // owner policy
  CHECK(state.component(card).visibility == Visibility::Owner);
  CHECK(state.component(card).owner == Seat{1});
  CHECK(state.visible_to(card, Seat{1}));
  CHECK_FALSE(state.visible_to(card, Seat{0}));
  CHECK_FALSE(state.visible_to(card, Seat{2}));

  move_component(state, card, kTable);  // public
  CHECK(state.component(card).visibility == Visibility::Public);
  CHECK(state.component(card).owner == Seat{1});  // a shared zone keeps the owner
  for (Seat seat : Seat::all(3)) CHECK(state.visible_to(card, seat));

  move_component(state, card, kPool0 + 2);  // per-player, public
  CHECK(state.component(card).owner == Seat{2});
  CHECK(state.component(card).visibility == Visibility::Public);

  move_component(state, card, kDeck);  // hidden
  CHECK(state.component(card).visibility == Visibility::Hidden);
  for (Seat seat : Seat::all(3)) CHECK_FALSE(state.visible_to(card, seat));

  // A board keeps whatever visibility a component had.
  move_component(state, card, kGrid0);
  CHECK(state.component(card).visibility == Visibility::Hidden);
  move_component(state, ComponentId{0}, kGrid0 + 1);
  CHECK(state.component(ComponentId{0}).visibility == Visibility::Public);

  // Who knows a card survives a move into another hand (the one who had
  // peeked, the former owner); a hidden zone forgets them all.
  move_component(state, ComponentId{6}, kHand0);
  peek(state, ComponentId{6}, Seat{2});
  CHECK(state.visible_to(ComponentId{6}, Seat{2}));
  move_component(state, ComponentId{6}, kHand0 + 1);
  CHECK(state.visible_to(ComponentId{6}, Seat{2}));
  CHECK(state.visible_to(ComponentId{6}, Seat{0}));
  CHECK(state.visible_to(ComponentId{6}, Seat{1}));
  move_component(state, ComponentId{6}, kDeck);
  for (Seat seat : Seat::all(3)) CHECK_FALSE(state.visible_to(ComponentId{6}, seat));
  move_component(state, ComponentId{6}, kDeck, MoveOptions{true, seat_bit(1)});  // seen by seat 1 as it goes under
  CHECK(state.visible_to(ComponentId{6}, Seat{1}));
  CHECK_FALSE(state.visible_to(ComponentId{6}, Seat{0}));
  CHECK(state.zone(kDeck).front() == ComponentId{6});
}

TEST_CASE("GameState: reveal, hide, peek and visible_to", "[state]") {
  const GameDefinition def = make_definition();
  GameState state(def);
  state.reset(3, 1);
  const ComponentId card{3};
  CHECK(state.visible_to(card, Seat::none()));  // the onlooker sees everything
  CHECK_FALSE(state.visible_to(card, Seat{0}));
  peek(state, card, Seat{0});
  CHECK(state.visible_to(card, Seat{0}));
  CHECK_FALSE(state.visible_to(card, Seat{1}));
  reveal(state, card);
  for (Seat seat : Seat::all(3)) CHECK(state.visible_to(card, seat));
  hide(state, card);
  CHECK(state.component(card).visibility == Visibility::Hidden);
  CHECK_FALSE(state.visible_to(card, Seat{1}));
  CHECK(state.visible_to(card, Seat{0}));  // still remembers what it peeked
  // A shuffle makes everybody forget.
  shuffle_zone(state, kDeck);
  CHECK_FALSE(state.visible_to(card, Seat{0}));
}

TEST_CASE("GameState: rolls draw from the seeded chance stream", "[state]") {
  const GameDefinition def = make_definition();
  GameState a(def), b(def);
  a.reset(3, 2024);
  b.reset(3, 2024);
  Rng expected;
  expected.reseed(2024, kChanceStream);
  std::vector<int> ra, rb;
  for (int i = 0; i < 30; ++i) {
    const ComponentId id{i % 3};
    ra.push_back(roll_die(a, id));
    rb.push_back(roll_die(b, id));
    CHECK(ra.back() == static_cast<int>(expected.below(6)));
    CHECK(a.component(id).face == ra.back());
  }
  CHECK(ra == rb);
  // Another seed, other rolls.
  GameState c(def);
  c.reset(3, 2025);
  std::vector<int> rc;
  for (int i = 0; i < 30; ++i) rc.push_back(roll_die(c, ComponentId{i % 3}));
  CHECK(rc != ra);
  // roll_zone rolls bottom to top.
  GameState d(def);
  d.reset(3, 2024);
  roll_dice(d, kSupply);
  CHECK(d.component(ComponentId{0}).face == ra[0]);
  CHECK(d.component(ComponentId{1}).face == ra[1]);
  CHECK(d.component(ComponentId{2}).face == ra[2]);
  CHECK(d.count_showing(kSupply, def.face_id(def.types[0].faces[ra[0]])) >= 1);
}

TEST_CASE("GameState: shuffle is a deterministic permutation", "[state]") {
  const GameDefinition def = make_definition();
  auto shuffled = [&](uint64_t seed) {
    GameState s(def);
    s.reset(3, seed);
    shuffle_zone(s, kDeck);
    return s.zone(kDeck);
  };
  const std::vector<ComponentId> original = ids({3, 4, 5, 6, 7});
  for (uint64_t seed = 0; seed < 20; ++seed) {
    auto order = shuffled(seed);
    CHECK(order == shuffled(seed));
    std::vector<ComponentId> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == original);
  }
  // Different seeds give different orders (most of 20 differ from seed 0).
  int differ = 0;
  for (uint64_t seed = 1; seed < 20; ++seed) differ += shuffled(seed) != shuffled(0);
  CHECK(differ >= 15);
  // Components know their new place.
  GameState s(def);
  s.reset(3, 5);
  shuffle_zone(s, kDeck);
  for (ComponentId id : s.zone(kDeck)) CHECK(s.component(id).zone == kDeck);
  // Shuffling an empty or one-card zone is fine.
  shuffle_zone(s, kTable);
  move_component(s, ComponentId{0}, kTable);
  shuffle_zone(s, kTable);
  CHECK(s.zone(kTable) == ids({0}));
}

TEST_CASE("GameState::view never shows what a seat may not know", "[state]") {
  const GameDefinition def = make_definition();
  GameState state(def);
  state.reset(3, 1);
  move_component(state, ComponentId{7}, kHand0 + 1);  // sapphire card in Bob's hand
  move_component(state, ComponentId{4}, kHand0 + 1);  // ruby card in Bob's hand
  move_component(state, ComponentId{6}, kTable);      // public sapphire
  move_component(state, ComponentId{5}, kGrid0 + 4);  // hidden sapphire on the board
  hide(state, ComponentId{6});              // ... and the table's card turned face down
  move_component(state, ComponentId{0}, kTable);      // a die on top of it

  const json v0 = seat_view(state, Seat{0});
  const std::string text0 = v0.dump();
  // Seat 0 knows nothing of the hidden cards: no ruby or sapphire at all,
  // and the only ids it may see are the dice's.
  CHECK(text0.find("ruby") == std::string::npos);
  CHECK(text0.find("sapphire") == std::string::npos);
  auto ids0 = ids_in_view(v0);
  std::sort(ids0.begin(), ids0.end());
  CHECK(ids0 == std::vector<int>{0, 1, 2});  // the dice
  // Bob's hand: a count only.
  const json& bob = v0.at("zones").at("hand@1");
  CHECK(bob.at("count") == 2);
  CHECK_FALSE(bob.contains("components"));
  // The deck: a count only.
  CHECK(v0.at("zones").at("deck").at("count") == 1);
  CHECK_FALSE(v0.at("zones").at("deck").contains("components"));
  // The table: the die is visible (top first), the card under it is not.
  const json& table = v0.at("zones").at("table").at("components");
  REQUIRE(table.size() == 2u);
  CHECK(table[0].at("id") == 0);
  CHECK(table[0].at("face") == "one");
  CHECK(table[1] == json{{"hidden", true}});
  // The board cell shows a hidden component.
  CHECK(v0.at("boards").at("grid").at("2,2") == json::array({json{{"hidden", true}}}));
  // Empty cells are left out.
  CHECK(v0.at("boards").at("grid").size() == 1u);
  CHECK(v0.at("zones").contains("hand@2"));

  // Bob sees his own hand (top first) but nothing else that is hidden.
  const json v1 = seat_view(state, Seat{1});
  const json& hand = v1.at("zones").at("hand@1").at("components");
  REQUIRE(hand.size() == 2u);
  CHECK(hand[0].at("id") == 4);
  CHECK(hand[0].at("type") == "ruby_card");
  CHECK(hand[0].at("owner") == 1);
  CHECK(hand[1].at("face") == "sapphire");
  auto ids1 = ids_in_view(v1);
  std::sort(ids1.begin(), ids1.end());
  CHECK(ids1 == std::vector<int>{0, 1, 2, 4, 7});

  // A peek lets one seat, and only that seat, see the board's card.
  peek(state, ComponentId{5}, Seat{2});
  CHECK(seat_view(state, Seat{2}).at("boards").at("grid").at("2,2")[0].at("face") == "sapphire");
  CHECK(seat_view(state, Seat{0}).dump().find("sapphire") == std::string::npos);

  // The onlooker (-1) sees everything.
  auto all = ids_in_view(seat_view(state, Seat::none()));
  std::sort(all.begin(), all.end());
  CHECK(all == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(seat_view(state, Seat::none()).at("zones").at("deck").at("components").size() == 1u);

  // Zones of seats beyond the player count are left out.
  GameState two(def);
  two.reset(2, 1);
  CHECK(seat_view(two, Seat{0}).at("zones").contains("hand@1"));
  CHECK_FALSE(seat_view(two, Seat{0}).at("zones").contains("hand@2"));
  CHECK(seat_view(two, Seat{0}).at("players").size() == 2u);
}

TEST_CASE("GameState: events are emitted only when a sink listens", "[state]") {
  const GameDefinition def = make_definition();
  GameState state(def);
  CHECK_FALSE(state.listening());
  state.reset(3, 1);
  move_component(state, ComponentId{0}, kTable);
  roll_die(state, ComponentId{0});
  state.message(Seat::none(), "nobody hears this");

  Recorder rec;
  state.set_sink(&rec);
  CHECK(state.listening());
  state.reset(3, 1);
  REQUIRE(rec.events.size() == 1u);
  CHECK(rec.events[0].type == EventType::GameStart);
  CHECK(rec.events[0].value == 3);
  state.begin_turn(Seat{0});
  move_component(state, ComponentId{7}, kHand0 + 2);
  roll_die(state, ComponentId{1});
  peek(state, ComponentId{3}, Seat{1});
  shuffle_zone(state, kDeck);
  add_score(state, Seat{2}, 4);
  state.message(Seat{0}, "hello");
  REQUIRE(rec.events.size() == 8u);
  CHECK(rec.events[1].type == EventType::TurnBegin);
  CHECK(rec.events[1].value == 1);  // round 1
  const Event& move = rec.events[2];
  CHECK(move.type == EventType::Move);
  CHECK(move.component == ComponentId{7});
  CHECK(move.from == kDeck);
  CHECK(move.to == kHand0 + 2);
  CHECK(move.seat == Seat{2});
  CHECK(rec.events[3].type == EventType::Roll);
  CHECK(rec.events[3].value == state.component(ComponentId{1}).face);
  const Event& peek = rec.events[4];
  CHECK(peek.type == EventType::Peek);
  CHECK(peek.audience == seat_bit(1));  // the others never hear of it
  CHECK(rec.events[5].type == EventType::Shuffle);
  CHECK(rec.events[6].type == EventType::Score);
  CHECK(rec.events[6].to == 4);
  CHECK(rec.events[7].text == "hello");

  state.set_sink(nullptr);
  move_component(state, ComponentId{0}, kTable);
  CHECK(rec.events.size() == 8u);
}

namespace {

struct Forcing : ChanceOverride {
  int face = 5;
  int groups = 0, group_zone = -1, group_dice = 0;
  bool reverse_shuffles = false;
  bool forced_roll(const GameState&, ComponentId, int& f) override {
    if (face < 0) return false;
    f = face;
    return true;
  }
  bool forced_shuffle(const GameState&, int, std::vector<ComponentId>& items) override {
    if (!reverse_shuffles) return false;
    std::reverse(items.begin(), items.end());
    return true;
  }
  void begin_roll_group(const GameState&, int zone, int dice) override {
    ++groups;
    group_zone = zone;
    group_dice = dice;
  }
};

}  // namespace

TEST_CASE("GameState: a ChanceOverride forces rolls and shuffles", "[state]") {
  const GameDefinition def = make_definition();
  GameState state(def);
  Forcing forcing;
  state.set_chance_override(&forcing);
  state.reset(3, 77);
  for (int i = 0; i < 10; ++i) CHECK(roll_die(state, ComponentId{i % 3}) == 5);
  CHECK(state.face_name(ComponentId{0}) == "six");

  roll_dice(state, kSupply);
  CHECK(forcing.groups == 1);
  CHECK(forcing.group_zone == kSupply);
  CHECK(forcing.group_dice == 3);
  for (ComponentId id : ids({0, 1, 2})) CHECK(state.face_name(id) == "six");

  // Forced outcomes consume nothing from the chance stream: the first free
  // roll is the one an unforced game would have made first.
  forcing.face = -1;
  GameState plain(def);
  plain.reset(3, 77);
  CHECK(roll_die(state, ComponentId{0}) == roll_die(plain, ComponentId{0}));

  forcing.reverse_shuffles = true;
  shuffle_zone(state, kDeck);
  CHECK(state.zone(kDeck) == ids({7, 6, 5, 4, 3}));
  forcing.reverse_shuffles = false;
  state.set_chance_override(nullptr);
  roll_die(state, ComponentId{1});  // no crash without an override
}
