// SeatKnowledge, what one seat knows, on a GameState built from an inline
// document: the components it observed and saw unseen again, dice rolled
// out of its sight, the other seats' private answers, the redacted events
// it was shown, and whether another game shows it the same.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/deck.hpp"
#include "core/dice.hpp"
#include "core/game_definition.hpp"
#include "core/game_state.hpp"
#include "core/tile.hpp"
#include "core/zone.hpp"
#include "observation/seat_knowledge.hpp"
#include "observation/unseen_identities.hpp"
#include "setup/definition_builder.hpp"

using nlohmann::json;
using namespace rulebook;

namespace {

// Components: ruby cards 0..1, sapphire cards 2..3 (all in the deck), die 4
// (on the table). Zones: table 0, deck 1, hand@0..1 2..3.
const char* const kDocument = R"({
  "name": "knowledge-game",
  "title": "Knowledge Game",
  "script": "rules.lua",
  "players": {"min": 2, "max": 2},
  "zones": [
    {"name": "table"},
    {"name": "deck", "visibility": "hidden"},
    {"name": "hand", "per_player": true, "visibility": "owner"}
  ],
  "components": [
    {"name": "ruby", "kind": "card", "faces": ["ruby"], "count": 2, "zone": "deck"},
    {"name": "sapphire", "kind": "card", "faces": ["sapphire"], "count": 2, "zone": "deck"},
    {"name": "die", "kind": "die", "faces": ["one", "two", "three", "four", "five", "six"], "count": 1,
     "zone": "table"}
  ]
})";

constexpr int kTable = 0, kDeck = 1, kHand0 = 2;
constexpr ComponentId kRuby{0}, kSapphire{2}, kDie{4};

GameDefinition definition() { return build_game_definition(json::parse(kDocument), "/nonexistent/knowledge", {}); }

// Both seats' knowledge, fed by the state's events.
struct Table {
  GameDefinition def = definition();
  GameState state{def};
  SeatKnowledge mine{Seat{0}, def.component_count()};
  SeatKnowledge theirs{Seat{1}, def.component_count()};
  struct Both : EventSink {
    SeatKnowledge* a;
    SeatKnowledge* b;
    void on_event(const GameState& s, const Event& e) override {
      a->on_event(s, e);
      b->on_event(s, e);
    }
  } both;
  Table() {
    both.a = &mine;
    both.b = &theirs;
    state.set_sink(&both);
    state.reset(2, 1);
  }
};

bool carries_component(const json& event, ComponentId id) {
  return event.contains("component") && event.at("component") == json(id);
}

}  // namespace

TEST_CASE("SeatKnowledge: a card seen face up, then shuffled back out of sight, is unseen again", "[knowledge]") {
  Table t;
  CHECK_FALSE(t.mine.observed(kRuby));  // in the deck from the start
  move_component(t.state, kRuby, kTable);
  CHECK(t.mine.observed(kRuby));
  move_component(t.state, kRuby, kDeck);
  CHECK(t.mine.observed(kRuby));  // it saw the card go in: it knows where it lies
  shuffle_zone(t.state, kDeck);
  CHECK_FALSE(t.mine.observed(kRuby));  // which one lies where is a fresh outcome
  CHECK(t.mine.ever_seen(kRuby));
  CHECK_FALSE(t.mine.ever_seen(kSapphire));
  CHECK_FALSE(t.mine.rolled_unseen(kRuby));  // shuffled, not rolled
}

TEST_CASE("SeatKnowledge: a die rolled out of the seat's sight is news to it", "[knowledge]") {
  Table t;
  CHECK(t.mine.observed(kDie));  // on the table from the start
  move_component(t.state, kDie, kHand0 + 1);
  roll_die(t.state, kDie);
  CHECK_FALSE(t.mine.observed(kDie));
  CHECK(t.mine.rolled_unseen(kDie));
  CHECK(t.theirs.observed(kDie));  // its owner saw the roll
  CHECK_FALSE(t.theirs.rolled_unseen(kDie));
  move_component(t.state, kDie, kTable);
  CHECK(t.mine.observed(kDie));
  CHECK_FALSE(t.mine.rolled_unseen(kDie));
}

TEST_CASE("SeatKnowledge: another seat's private answer is listed with its place and option count", "[knowledge]") {
  Table t;
  t.state.record_choice(ChoiceRecord{Seat{0}, 1, "b", ComponentId::none(), 3, false, "public"});      // answer 0
  t.state.record_choice(ChoiceRecord{Seat{1}, 0, "only", ComponentId::none(), 1, true, "lone"});       // not asked
  t.state.record_choice(ChoiceRecord{Seat{1}, 2, "three", ComponentId::none(), 4, true, "a number"});  // answer 1
  t.state.record_choice(ChoiceRecord{Seat{1}, 1, "ruby", kRuby, 2, true, "a card"});                  // answer 2
  t.state.record_choice(ChoiceRecord{Seat{0}, 0, "x", ComponentId::none(), 2, true, "mine"});          // answer 3
  const auto& hidden = t.mine.hidden_answers();
  REQUIRE(hidden.size() == 2u);
  CHECK(hidden[0].at == 1u);
  CHECK(hidden[0].options == 4);
  CHECK_FALSE(hidden[0].component);
  CHECK(hidden[1].at == 2u);
  CHECK(hidden[1].options == 2);
  CHECK(hidden[1].component);
  CHECK(t.mine.private_answers() == std::vector<std::pair<size_t, int>>{{1, 4}});
  // Seat 1 sees its own answers; seat 0's private one is hidden from it.
  REQUIRE(t.theirs.hidden_answers().size() == 1u);
  CHECK(t.theirs.hidden_answers()[0].at == 3u);
  CHECK(t.theirs.private_answers() == std::vector<std::pair<size_t, int>>{{3, 2}});
}

TEST_CASE("SeatKnowledge: a redacted event never carries what the seat may not see", "[knowledge]") {
  Table t;
  move_component(t.state, kSapphire, kHand0 + 1);  // dealt to seat 1
  peek(t.state, kRuby, Seat{1});                   // heard by seat 1 only
  t.state.record_choice(ChoiceRecord{Seat{1}, 2, "three", ComponentId::none(), 4, true, "a number"});
  for (const json& e : t.mine.events()) {
    CHECK_FALSE(carries_component(e, kSapphire));
    CHECK_FALSE(carries_component(e, kRuby));
    CHECK_FALSE(e.contains("name"));
    if (e.at("type") == "choice") {
      CHECK_FALSE(e.contains("index"));
      CHECK_FALSE(e.contains("label"));
    }
  }
  // What seat 1 was shown names both, and its own answer.
  bool sapphire = false, ruby = false, answer = false;
  for (const json& e : t.theirs.events()) {
    sapphire |= carries_component(e, kSapphire);
    ruby |= carries_component(e, kRuby);
    answer |= e.at("type") == "choice" && e.value("label", "") == "three";
  }
  CHECK(sapphire);
  CHECK(ruby);
  CHECK(answer);
  CHECK(t.mine.events().size() + 1 == t.theirs.events().size());  // the peek
}

TEST_CASE("SeatKnowledge: another game shows the seat the same, or not", "[knowledge]") {
  Table played;
  move_component(played.state, kSapphire, kHand0 + 1);
  move_component(played.state, kRuby, kTable);
  played.mine.asked("which card?|ruby");

  // A replay compared in place: another card dealt to seat 1 looks the same
  // to seat 0; another card turned face up does not.
  auto replay = [&](ComponentId dealt, ComponentId shown) {
    Table again;
    again.mine.expect(&played.mine.events());
    move_component(again.state, dealt, kHand0 + 1);
    move_component(again.state, shown, kTable);
    return again.mine.showed_all();
  };
  CHECK(replay(ComponentId{3}, kRuby));
  CHECK_FALSE(replay(kSapphire, ComponentId{1}));

  // The events as the seat's agent received them, compared the same way.
  SeatKnowledge received(Seat{0}, 0);
  received.expect(&played.mine.events());
  for (const json& e : played.mine.events()) received.receive(e);
  CHECK(received.showed_all());
  received.receive(json{{"type", "message"}});
  CHECK_FALSE(received.agrees());

  // Kept events and questions, compared up to a question.
  Table other;
  move_component(other.state, ComponentId{3}, kHand0 + 1);
  move_component(other.state, kRuby, kTable);
  other.mine.asked("which card?|ruby");
  CHECK(played.mine.same_until(other.mine, 0));
  CHECK_FALSE(played.mine.same_until(other.mine, 1));  // no second question
  other.theirs.asked("which card?|ruby");
  CHECK_FALSE(played.mine.same_until(other.theirs, 0));  // shown other events
}

TEST_CASE("SeatKnowledge: what is new to the seat since it last looked", "[knowledge]") {
  Table t;
  SeatKnowledge& k = t.mine;
  k.note_in_sight(t.state);
  CHECK_FALSE(k.sees_anew(t.state, kDie));  // in sight already
  move_component(t.state, kRuby, kTable);
  CHECK(k.sees_anew(t.state, kRuby));
  CHECK_FALSE(k.sees_anew(t.state, kRuby));  // noted
  move_component(t.state, kRuby, kDeck);
  CHECK_FALSE(k.sees_anew(t.state, kRuby));  // hidden: noted out of sight
  move_component(t.state, kRuby, kTable);
  CHECK(k.sees_anew(t.state, kRuby));  // shown again: news again
}

TEST_CASE("exchange_unseen_identities: the unseen components trade identities within kind and start zone",
          "[knowledge]") {
  const GameDefinition def = definition();
  bool changed_once = false;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Rng rng(seed);
    const ExchangedIdentities x = exchange_unseen_identities(def, [](int id) { return id != 0; }, rng);
    REQUIRE(x.identities.size() == 5u);
    CHECK(x.identities[0] == 0);  // seen: its own
    CHECK(x.identities[4] == 4);  // the only die: nobody to trade with
    std::vector<int> cards(x.identities.begin() + 1, x.identities.begin() + 4);
    std::sort(cards.begin(), cards.end());
    CHECK(cards == std::vector<int>{1, 2, 3});
    bool changed = false;
    for (int id = 1; id <= 3; ++id) changed |= def.component_type[static_cast<size_t>(id)] !=
                                              def.component_type[static_cast<size_t>(x.identities[static_cast<size_t>(id)])];
    CHECK(x.changed == changed);
    changed_once |= changed;
    // The same stream draws the same world.
    Rng again(seed);
    CHECK(exchange_unseen_identities(def, [](int id) { return id != 0; }, again).identities == x.identities);
  }
  CHECK(changed_once);
}
