// The Lua bindings, end to end: small game folders written to a temporary
// directory, loaded like any game, run through RuleEngine with a GameState
// and agents. Each script reports what it saw through game:finish{details};
// the C++ side checks the details, the result, the views and the state.
#include <catch2/catch.hpp>

#include "inline_game.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "core/game_state.hpp"
#include "core/rng.hpp"
#include "lua/rule_engine.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using nlohmann::json;
using namespace rulebook;
namespace fs = std::filesystem;

namespace {

// A game folder in the temporary directory, removed afterwards. Names are
// short: Lua shortens long chunk names in messages.
using rulebook::test::rules_lua;
using rulebook::test::TempGame;

const char* const kYaml = R"(name: bindings
title: Bindings
script: rules.lua
players: {min: 2, max: 4, default: 3, names: [Ann, Bob, Cy]}
options:
  target: 3
  nested: {a: 1}
zones:
  - {name: supply, title: the box}
  - {name: deck, visibility: hidden}
  - {name: discard}
  - {name: hand, per_player: true, visibility: owner}
  - {name: pool, per_player: true, title: "{player}'s dice"}
boards:
  - name: grid
    title: the grid
    width: 4
    height: 4
    paths:
      - {name: ring, ring: [1, 1, 4, 4]}
      - {name: track, cells: [[1, 1], [2, 1], [3, 1]], cyclic: false}
components:
  - {name: die, kind: die, faces: [one, two, three, four, five, six], count: 4, zone: supply}
  - {name: red_card, kind: card, title: card, faces: [red], count: 2, zone: deck,
     attributes: {points: 2, colour: crimson}}
  - {name: blue_card, kind: card, title: card, faces: [blue], count: 3, zone: deck,
     attributes: {points: 1}}
  - {name: tile, kind: tile, faces: [front, back], face: back, zone: supply}
  - {name: pawn, kind: piece, count: 2, zone: supply}
)";
// Component ids: die 0..3, red_card 4..5, blue_card 6..8, tile 9, pawn 10..11.

struct Recorder : EventSink {
  std::vector<Event> events;
  void on_event(const GameState&, const Event& e) override { events.push_back(e); }
  std::vector<std::string> texts(EventType t) const {
    std::vector<std::string> out;
    for (const auto& e : events)
      if (e.type == t) out.push_back(e.text);
    return out;
  }
};

// One loaded game as a match, ready to play (FirstAgent at every seat
// unless agents are given).
struct Table {
  explicit Table(const TempGame& game, EngineLimits limits = {})
      : def(load_game(game.dir())), match(def, limits), state(match.state()) {}
  GameResult play(int players, uint64_t seed, std::vector<Agent*> agents = {}) {
    if (agents.empty()) {
      firsts.resize(static_cast<size_t>(players));
      for (auto& a : firsts) agents.push_back(&a);
    }
    match.set_agents(agents);
    return match.play(players, seed);
  }
  // Starts a game where every seat's decisions pause it (the step API).
  bool start_paused(int players, uint64_t seed) {
    match.set_agents(std::vector<Agent*>(static_cast<size_t>(players), nullptr));
    return match.start(players, seed);
  }
  void listen(EventSink* sink) {
    match.clear_sinks();
    match.add_sink(sink);
  }
  std::shared_ptr<const GameDefinition> def;
  Match match;
  GameState& state;
  std::vector<FirstAgent> firsts;
};


// A Lua helper for the board tests: the ids of a list of zones.
const char* const kZoneIds = R"(
  local function ids(list)
    local out = {}
    for i, z in ipairs(list) do out[i] = z:id() end
    return out
  end)";

std::vector<std::string> strings(const json& j) { return j.get<std::vector<std::string>>(); }

}  // namespace

TEST_CASE("bindings: game (players, options, state, components, say, scores, finish)", "[bindings]") {
  TempGame game(kYaml, rules_lua(R"(
  local d = {}
  d.players = game:player_count()
  d.names = {game:player_name(0), game:player_name(1), game:player_name(2)}
  d.seats = game:seats()
  d.target = game.options.target
  d.nested = game.options.nested.a
  local ok, err = pcall(function() game.options.target = 9 end)
  d.options_write_ok = ok
  d.options_write_err = err
  d.target_after = game.options.target
  d.all_components = #game:components()
  d.dice = #game:components("die")
  d.first_card = game:components("blue_card")[1]:id()
  d.listening = game:listening()
  game:say("%s has %d points", game:player_name(1), 7)
  d.score_total = game:add_score(1, 3)
  game:add_score(1, 2)
  game:add_score(2, -1)
  d.score = game:score(1)
  d.score0 = game:score(0)
  d.mine = game.mine
  game.state.phase = "play"
  game.state.list = {1, 2, 3}
  game:finish{winners = {1}, losers = {0, 2}, summary = "Bob wins", details = d}
  error("not reached: game:finish must end the game at once")
)", R"(
  game.state.phase = "setup"
  game.mine = (game.mine or 0) + 1
)"));
  Table t(game);
  Recorder rec;
  t.listen(&rec);
  const GameResult r = t.play(3, 1);
  CHECK(r.finished);
  CHECK_FALSE(r.stopped);
  CHECK(r.winners == std::vector<Seat>{Seat{1}});
  CHECK(r.losers == std::vector<Seat>{Seat{0}, Seat{2}});
  CHECK(r.summary == "Bob wins");
  const json& d = r.details;
  CHECK(d.at("players") == 3);
  CHECK(strings(d.at("names")) == std::vector<std::string>{"Ann", "Bob", "Cy"});
  CHECK(d.at("seats") == json::array({0, 1, 2}));
  CHECK(d.at("target") == 3);
  CHECK(d.at("nested") == 1);
  CHECK(d.at("options_write_ok") == false);
  CHECK_THAT(d.at("options_write_err").get<std::string>(), Catch::Contains("read-only"));
  CHECK(d.at("target_after") == 3);
  CHECK(d.at("all_components") == 12);
  CHECK(d.at("dice") == 4);
  CHECK(d.at("first_card") == 6);
  CHECK(d.at("listening") == true);
  CHECK(d.at("score_total") == 3);
  CHECK(d.at("score") == 5);
  CHECK(d.at("score0") == 0);
  CHECK(d.at("mine") == 1);  // `game` is fresh for every game
  CHECK(t.state.player(Seat{1}).score == 5);
  CHECK(t.state.player(Seat{2}).score == -1);
  CHECK(rec.texts(EventType::Message) == std::vector<std::string>{"Bob has 7 points"});
  CHECK(rec.texts(EventType::GameEnd) == std::vector<std::string>{"Bob wins"});

  // game.state is public: it is in every seat's view.
  const json view = t.match.view(Seat{0});
  CHECK(view.at("state").at("phase") == "play");
  CHECK(view.at("state").at("list") == json::array({1, 2, 3}));
  CHECK(view.at("players").size() == 3u);

  // The same engine plays again; nobody listens this time.
  t.listen(nullptr);
  const GameResult again = t.play(4, 2);
  CHECK(again.details.at("players") == 4);
  CHECK(again.details.at("listening") == false);
  CHECK(again.details.at("mine") == 1);
  CHECK(again.details.at("names").size() == 3u);
}

TEST_CASE("bindings: finish without a summary, and play that never finishes", "[bindings]") {
  TempGame game(kYaml, rules_lua(R"(
  if game:player_count() == 2 then return end
  game:finish{winners = {0, 2}}
)"));
  Table t(game);
  Recorder rec;
  t.listen(&rec);
  const GameResult r = t.play(3, 1);
  CHECK(r.winners == std::vector<Seat>{Seat{0}, Seat{2}});
  CHECK(rec.texts(EventType::GameEnd) == std::vector<std::string>{"Ann, Cy win"});
  CHECK_THROWS_WITH(t.play(2, 1), Catch::Contains("returned without calling game:finish"));
  CHECK(t.play(3, 1).finished);
}

TEST_CASE("bindings: a read-only table converts to JSON through its contents", "[bindings]") {
  // game.options is frozen (its fields live in a shadow table it reads
  // through): converted as such it used to come out empty.
  TempGame game(kYaml, rules_lua(R"(
  game:finish{details = {options = game.options, nested = game.options.nested, list = {game.options}}}
)"));
  Table t(game);
  const GameResult r = t.play(3, 1);
  REQUIRE(r.finished);
  CHECK(r.details.at("options").at("target") == 3);
  CHECK(r.details.at("options").at("nested") == json{{"a", 1}});
  CHECK(r.details.at("nested") == json{{"a", 1}});
  CHECK(r.details.at("list").at(0).at("target") == 3);
}

TEST_CASE("bindings: turns", "[bindings]") {
  TempGame game(kYaml, rules_lua(R"(
  local d = {}
  d.current_before = game:current_seat() == nil
  d.next_before = game:next_seat()
  d.first = game:first_seat()
  d.round_before = game:round()
  d.first_round_before = game:first_round()
  local order, rounds = {}, {}
  local seat = game:first_seat()
  for i = 1, 7 do
    game:begin_turn(seat)
    order[#order + 1] = game:current_seat()
    rounds[#rounds + 1] = game:round()
    if i == 2 then game:eliminate(2) end
    seat = game:next_seat()
  end
  d.order, d.rounds = order, rounds
  d.first_round = game:first_round()
  d.turns = game:turns_started()
  d.is_eliminated = game:is_eliminated(2)
  d.active = game:active_count()
  d.next_of_1 = game:next_seat(1)
  d.previous_of_3 = game:previous_seat(3)
  game:reinstate(2)
  d.reinstated = not game:is_eliminated(2)
  d.next_after_reinstate = game:next_seat(1)
  game:set_direction(-1)
  d.next_ccw = game:next_seat(0)
  d.previous_ccw = game:previous_seat(0)
  local _, err = pcall(function() game:set_direction(2) end)
  d.direction_error = err
  -- game:finish inside pcall still ends the game: pcall cannot catch it.
  pcall(function() game:finish{winners = {3}, details = d} end)
  error("not reached")
)"));
  Table t(game);
  const GameResult r = t.play(4, 1);
  const json& d = r.details;
  CHECK(d.at("current_before") == true);
  CHECK(d.at("next_before") == 0);
  CHECK(d.at("first") == 0);
  CHECK(d.at("round_before") == 0);
  CHECK(d.at("first_round_before") == true);
  CHECK(d.at("order") == json::array({0, 1, 3, 0, 1, 3, 0}));
  CHECK(d.at("rounds") == json::array({1, 1, 1, 2, 2, 2, 3}));
  CHECK(d.at("first_round") == false);
  CHECK(d.at("turns") == 7);
  CHECK(d.at("is_eliminated") == true);
  CHECK(d.at("active") == 3);
  CHECK(d.at("next_of_1") == 3);
  CHECK(d.at("previous_of_3") == 1);
  CHECK(d.at("reinstated") == true);
  CHECK(d.at("next_after_reinstate") == 2);
  CHECK(d.at("next_ccw") == 3);
  CHECK(d.at("previous_ccw") == 1);
  CHECK_THAT(d.at("direction_error").get<std::string>(),
             Catch::Contains("bad argument #1 to 'set_direction' (1 (clockwise) or -1 expected)"));
  CHECK(r.winners == std::vector<Seat>{Seat{3}});
  CHECK(r.turns == 7);
  CHECK(t.state.turns().round() == 3);
  CHECK_FALSE(t.state.player(Seat{2}).eliminated);

  SECTION("a turn limit stops the game when the next turn would begin") {
    t.match.set_turn_limit(4);
    const GameResult stopped = t.play(4, 1);
    CHECK(stopped.stopped);
    CHECK_FALSE(stopped.finished);
    CHECK(stopped.turns == 4);
    t.match.set_turn_limit(0);  // as the first turn would begin
    const GameResult at_once = t.play(4, 1);
    CHECK(at_once.stopped);
    CHECK(at_once.turns == 0);
    t.match.set_turn_limit(-1);
    CHECK(t.play(4, 1).finished);
  }
}

namespace {

const char* const kChoices = R"(
  local d = {}
  local v, i = game:choose(0, "Colour?", {"red", "green", "blue"})
  d.colour, d.colour_index = v, i
  local s, si = game:choose(1, "Give to", {0, 2}, "seat")
  d.seat, d.seat_index = s, si
  local plan = game:choose(2, "Plan?", {{label = "Attack", power = 3}, {label = "Defend", power = 1}})
  d.plan_power = plan.power
  d.sure = game:choose(0, "Sure?", {true, false})
  local die = game:components("die")[1]
  local picked = game:choose(1, "Which?", {die, game:zone("supply")})
  d.picked_zone = picked == game:zone("supply")
  local only, oi = game:choose(2, "Only one", {"alone"})
  d.only, d.only_index = only, oi
  local _, err = pcall(function() game:choose(0, "Nothing", {}) end)
  d.empty_error = err
  local _, err2 = pcall(function() game:choose(5, "Who?", {"a", "b"}) end)
  d.seat_error = err2
  game:finish{details = d}
)";

void check_choice_details(const json& d) {
  CHECK(d.at("colour") == "blue");
  CHECK(d.at("colour_index") == 3);
  CHECK(d.at("seat") == 2);
  CHECK(d.at("seat_index") == 2);
  CHECK(d.at("plan_power") == 1);
  CHECK(d.at("sure") == true);
  CHECK(d.at("picked_zone") == true);
  CHECK(d.at("only") == "alone");
  CHECK(d.at("only_index") == 1);
  CHECK_THAT(d.at("empty_error").get<std::string>(),
             Catch::Contains("bad argument #3 to 'choose' (no options to choose from)"));
  CHECK_THAT(d.at("seat_error").get<std::string>(),
             Catch::Contains("bad argument #1 to 'choose' (seat 5 is not in 0..2)"));
}

}  // namespace

TEST_CASE("bindings: decisions with agents", "[bindings]") {
  TempGame game(kYaml, rules_lua(kChoices));
  Table t(game);
  Recorder rec;
  t.listen(&rec);
  t.match.record_answers();
  ScriptedAgent ann({"BLUE", "yes"}), bob({"Cy", "the box"}), cy({"2"});
  const GameResult r = t.play(3, 1, {&ann, &bob, &cy});
  check_choice_details(r.details);
  CHECK(ann.remaining() == 0u);
  CHECK(bob.remaining() == 0u);
  CHECK(cy.remaining() == 0u);  // a single option is taken without asking
  CHECK(rec.texts(EventType::Choice) ==
        std::vector<std::string>{"blue", "Cy", "Defend", "yes", "the box", "alone"});
  // Every answer an agent gave, in order; a lone option asks nobody, so a
  // replay expects no answer for it.
  const std::vector<AnswerRecord> log = t.match.answers();
  REQUIRE(log.size() == 5u);
  CHECK(log[0].seat == Seat{0});
  CHECK(log[0].index == 2);
  CHECK(log[1].seat == Seat{1});
  CHECK(log[1].index == 1);
  CHECK(log[2].seat == Seat{2});
  CHECK(log[2].index == 1);
  CHECK(log[4].seat == Seat{1});
  CHECK(log[4].index == 1);

  SECTION("an agent that cannot answer fails the game, not the engine") {
    ScriptedAgent wrong({"purple"}), out_of_answers({});
    CHECK_THROWS_AS(t.play(3, 1, {&wrong, &bob, &cy}), AgentFailure);
    CHECK_THROWS_WITH(t.play(3, 1, {&wrong, &bob, &cy}), Catch::Contains("not among the options"));
    CHECK_THROWS_WITH(t.play(3, 1, {&out_of_answers, &bob, &cy}), Catch::Contains("ran out of answers"));
    check_choice_details(t.play(3, 1, {&ann, &bob, &cy}).details);
  }
  SECTION("component labels show the face") {
    TempGame labels(kYaml, rules_lua(R"(
  local die = game:components("die")[1]
  die:set_face("five")
  game:choose(0, "Which?", {die, game:components("pawn")[1], game:zone("pool", 1), 2.5, 7})
  game:finish{}
)"));
    Table u(labels);
    REQUIRE(u.start_paused(3, 1));
    CHECK(u.match.pending().labels ==
          std::vector<std::string>{"die (five)", "pawn", "Bob's dice", "2.5", "7"});
  }
}

TEST_CASE("bindings: a paused decision builds its labels when the request is read", "[bindings]") {
  // The label comes from a metatable that counts its reads in game.state.
  TempGame game(kYaml, rules_lua(R"(
  local reads = 0
  local labelled = {__index = function(option, key)
    if key ~= "label" then return nil end
    reads = reads + 1
    game.state.label_reads = reads
    return "plan " .. option.n
  end}
  local plan = game:choose(0, "Plan?", {setmetatable({n = 1}, labelled), setmetatable({n = 2}, labelled)})
  game:choose(1, "Sure?", {setmetatable({n = 3}, labelled), "no"})
  game.state.after = plan.n
  game:finish{}
)"));
  Table t(game);
  REQUIRE(t.start_paused(3, 1));
  // Paused, nobody has read the request: no label is built.
  CHECK(t.match.evaluate("game.state.label_reads", "test").is_null());
  CHECK(t.match.pending().seat == Seat{0});  // reading it builds them, once
  CHECK(t.match.pending().labels == std::vector<std::string>{"plan 1", "plan 2"});
  CHECK(t.match.pending().count() == 2);
  CHECK(t.match.evaluate("game.state.label_reads", "test") == 2);
  // Answered without a look at the next request: its labels are never built.
  REQUIRE(t.match.answer(1));
  REQUIRE_FALSE(t.match.answer(1));
  CHECK(t.match.evaluate("game.state.label_reads", "test") == 2);
  CHECK(t.match.evaluate("game.state.after", "test") == 2);

  SECTION("the view too: a request only answered never runs rules.describe") {
    TempGame described(kYaml, R"(local rules = {}
function rules.setup(game) end
function rules.play(game)
  game:choose(0, "First?", {"a", "b"})
  game:choose(1, "Second?", {"c", "d"})
  game:finish{}
end
function rules.describe(game, seat) error("describe was run") end
return rules
)");
    Table u(described);
    REQUIRE(u.start_paused(2, 1));
    CHECK(u.match.pending_seat() == Seat{0});
    REQUIRE(u.match.answer(0));  // unread: no describe, no error
    CHECK(u.match.pending_seat() == Seat{1});
    CHECK_THROWS_WITH(u.match.pending(), Catch::Contains("describe was run"));
    REQUIRE_FALSE(u.match.answer(1));
  }
  SECTION("a label that changes the game is refused when read") {
    TempGame changing(kYaml, rules_lua(R"(
  local bad = setmetatable({}, {__index = function(option, key)
    game:add_score(0, 1)
    return "bad"
  end})
  game:choose(0, "Plan?", {bad, "good"})
  game:finish{}
)"));
    Table u(changing);
    REQUIRE(u.start_paused(3, 1));
    CHECK_THROWS_WITH(u.match.pending(), Catch::Contains("labels of the options of \"Plan?\" changed the game"));
  }
}

TEST_CASE("bindings: decisions step by step (no agent)", "[bindings]") {
  TempGame game(kYaml, rules_lua(kChoices));
  Table t(game);
  REQUIRE(t.start_paused(3, 1));
  CHECK(t.match.pending().seat == Seat{0});
  CHECK(t.match.pending().prompt == "Colour?");
  CHECK(t.match.pending().labels == std::vector<std::string>{"red", "green", "blue"});
  CHECK_THROWS_AS(t.match.answer(3), std::out_of_range);
  REQUIRE(t.match.answer(2));
  CHECK(t.match.pending().seat == Seat{1});
  CHECK(t.match.pending().labels == std::vector<std::string>{"Ann", "Cy"});
  REQUIRE(t.match.answer(1));
  CHECK(t.match.pending().labels == std::vector<std::string>{"Attack", "Defend"});
  REQUIRE(t.match.answer(1));
  CHECK(t.match.pending().labels == std::vector<std::string>{"yes", "no"});
  // The view can be read while the game waits.
  CHECK(t.match.view(Seat{0}).at("zones").at("supply").at("count") == 7);
  REQUIRE(t.match.answer(0));
  CHECK(t.match.pending().labels == std::vector<std::string>{"die (one)", "the box"});
  CHECK_FALSE(t.match.answer(1));
  check_choice_details(t.match.result().details);
  CHECK_THROWS_AS(t.match.answer(0), std::logic_error);

  // Abandoning a game half-way leaves the engine usable.
  REQUIRE(t.start_paused(3, 1));
  ScriptedAgent ann({"BLUE", "yes"}), bob({"Cy", "the box"}), cy({"2"});
  check_choice_details(t.play(3, 1, {&ann, &bob, &cy}).details);
}

TEST_CASE("bindings: components", "[bindings]") {
  TempGame game(kYaml, rules_lua(R"(
  local d = {}
  local die = game:components("die")[1]
  local card = game:components("red_card")[1]
  local tile = game:components("tile")[1]
  local pawn = game:components("pawn")[1]
  d.id, d.type, d.kind, d.title = die:id(), die:type(), die:kind(), card:title()
  d.face, d.is_one, d.is_six = die:face(), die:is("one"), die:is("six")
  d.faces = die:faces()
  die:set_face("four")
  d.after_set = die:face()
  d.turned = tile:turn_over()
  d.turned_again = tile:turn_over()
  d.points, d.colour = card:attr("points"), card:attr("colour")
  d.missing_attr = card:attr("nope") == nil
  d.card_zone = card:zone():name()
  d.tile_zone = tile:zone():id()
  card:move(game:zone("hand", 1))
  d.owner = card:owner()
  d.public_in_hand = card:is_public()
  d.known0, d.known1 = card:known_by(0), card:known_by(1)
  card:peek(0)
  d.known0_after_peek = card:known_by(0)
  d.known2_after_peek = card:known_by(2)
  card:reveal()
  d.public, d.known2 = card:is_public(), card:known_by(2)
  card:hide()
  d.hidden_known2 = card:known_by(2)
  card:set_owner(2)
  d.new_owner = card:owner()
  card:set_owner(nil)
  d.no_owner = card:owner() == nil
  d.facing_before = pawn:facing() == nil
  pawn:face_to("ne")
  d.facing = pawn:facing()
  local discard = game:zone("discard")
  local dice = game:components("die")
  dice[2]:move(discard)
  dice[3]:move(discard, "top")
  dice[4]:move(discard, "bottom")
  d.discard_top, d.discard_bottom = discard:top():id(), discard:bottom():id()
  d.str = tostring(die)
  d.zone_str = tostring(discard)
  local _, e1 = pcall(function() die:set_face("seven") end)
  local _, e2 = pcall(function() die:is("seven") end)
  local _, e3 = pcall(function() die:move(discard, "middle") end)
  local _, e4 = pcall(function() pawn:face_to("up") end)
  local _, e5 = pcall(function() die:move(die) end)
  local _, e6 = pcall(function() die.move(die, nil) end)
  local _, e7 = pcall(function() die:move() end)
  local _, e8 = pcall(function() die.face(game) end)
  d.errors = {e1, e2, e3, e4, e5, e6, e7, e8}
  game:finish{details = d}
)"));
  Table t(game);
  const GameResult r = t.play(3, 1);
  const json& d = r.details;
  CHECK(d.at("id") == 0);
  CHECK(d.at("type") == "die");
  CHECK(d.at("kind") == "die");
  CHECK(d.at("title") == "card");
  CHECK(d.at("face") == "one");
  CHECK(d.at("is_one") == true);
  CHECK(d.at("is_six") == false);
  CHECK(strings(d.at("faces")) == std::vector<std::string>{"one", "two", "three", "four", "five", "six"});
  CHECK(d.at("after_set") == "four");
  CHECK(d.at("turned") == "front");
  CHECK(d.at("turned_again") == "back");
  CHECK(d.at("points") == 2);
  CHECK(d.at("colour") == "crimson");
  CHECK(d.at("missing_attr") == true);
  CHECK(d.at("card_zone") == "deck");
  CHECK(d.at("tile_zone") == "supply");
  CHECK(d.at("owner") == 1);
  CHECK(d.at("public_in_hand") == false);
  CHECK(d.at("known0") == false);
  CHECK(d.at("known1") == true);
  CHECK(d.at("known0_after_peek") == true);
  CHECK(d.at("known2_after_peek") == false);
  CHECK(d.at("public") == true);
  CHECK(d.at("known2") == true);
  CHECK(d.at("hidden_known2") == false);
  CHECK(d.at("new_owner") == 2);
  CHECK(d.at("no_owner") == true);
  CHECK(d.at("facing_before") == true);
  CHECK(d.at("facing") == "northeast");
  CHECK(d.at("discard_top") == 2);
  CHECK(d.at("discard_bottom") == 3);
  CHECK(d.at("str") == "die #0");
  CHECK(d.at("zone_str") == "discard");
  const auto errors = strings(d.at("errors"));
  REQUIRE(errors.size() == 8u);
  CHECK_THAT(errors[0], Catch::Contains("bad argument #1 to 'set_face' ('die' has no face 'seven')"));
  CHECK_THAT(errors[1], Catch::Contains("bad argument #1 to 'is' (no component has a face 'seven')"));
  CHECK_THAT(errors[2], Catch::Contains("bad argument #2 to 'move' ('top' or 'bottom' expected)"));
  CHECK_THAT(errors[3], Catch::Contains("bad argument #1 to 'face_to' (direction expected"));
  CHECK_THAT(errors[4], Catch::Contains("bad argument #1 to 'move' (zone expected, got component)"));
  CHECK_THAT(errors[5], Catch::Contains("bad argument #2 to 'move' (zone expected, got nil)"));
  CHECK_THAT(errors[6], Catch::Contains("bad argument #1 to 'move' (zone expected, got no value)"));
  CHECK_THAT(errors[7], Catch::Contains("bad argument #1 to 'face' (component expected, got game)"));
  for (const auto& e : errors) CHECK_THAT(e, Catch::Contains("rules.lua:"));

  // The state agrees with what the script saw.
  const GameDefinition& def = *t.def;
  const int hand1 = def.zone_slot(def.find_zone_def("hand"), 1);
  CHECK(t.state.component(ComponentId{4}).zone == hand1);
  CHECK(t.state.component(ComponentId{4}).owner.is_none());
  CHECK(t.state.component(ComponentId{4}).visibility == Visibility::Hidden);
  CHECK(t.state.component(ComponentId{10}).facing == static_cast<int>(Direction::NorthEast));
  CHECK(t.state.face_name(ComponentId{0}) == "four");
  CHECK(t.state.face_name(ComponentId{9}) == "back");
  // Seat 0 peeked at the card: it sees it; seat 2 does not.
  CHECK(t.state.visible_to(ComponentId{4}, Seat{0}));
  CHECK_FALSE(t.state.visible_to(ComponentId{4}, Seat{2}));
  const std::string hidden_view = t.match.view(Seat{2}).dump();
  CHECK(hidden_view.find("red") == std::string::npos);
  CHECK(t.match.view(Seat{0}).dump().find("red_card") != std::string::npos);
}

TEST_CASE("bindings: dice roll from the game's chance stream", "[bindings]") {
  TempGame game(kYaml, rules_lua(R"(
  local d = {}
  local pool = game:zone("pool", 0)
  d.moved = game:zone("supply"):move_matching("die", pool)
  local rolls = {}
  for _ = 1, 5 do rolls[#rolls + 1] = game:components("die")[1]:roll() end
  d.rolls = rolls
  d.rolled = pool:roll()
  local faces = {}
  for _, c in ipairs(pool:items()) do faces[#faces + 1] = c:face() end
  d.faces = faces
  d.random = math.random(6)
  d.sixes = pool:count("six")
  game:finish{details = d}
)"));
  Table t(game);
  const GameResult r = t.play(3, 5);
  const json& d = r.details;
  CHECK(d.at("moved") == 4);
  CHECK(d.at("rolled") == 4);
  // Replay the chance stream by hand: five rolls of die 0, then the pool
  // bottom to top (dice 3, 2, 1, 0), then math.random.
  const std::vector<std::string> names{"one", "two", "three", "four", "five", "six"};
  Rng chance;
  chance.reseed(5, kChanceStream);
  std::vector<std::string> rolls;
  for (int i = 0; i < 5; ++i) rolls.push_back(names[chance.below(6)]);
  CHECK(strings(d.at("rolls")) == rolls);
  std::vector<std::string> pool(4);
  for (int i = 3; i >= 0; --i) pool[static_cast<size_t>(i)] = names[chance.below(6)];
  CHECK(strings(d.at("faces")) == pool);  // top first: die 0, 1, 2, 3
  CHECK(d.at("random") == static_cast<int>(chance.below(6)) + 1);
  for (int id = 0; id < 4; ++id) CHECK(t.state.face_name(ComponentId{id}) == pool[static_cast<size_t>(id)]);

  // Same seed, same game; another seed, other dice.
  CHECK(t.play(3, 5).details == d);
  CHECK(t.play(3, 6).details.at("rolls") != d.at("rolls"));
}

TEST_CASE("bindings: pool:roll(face, ...) rolls and counts the faces in one call", "[bindings]") {
  TempGame game(kYaml, rules_lua(R"(
  local d = {}
  local pool = game:zone("pool", 0)
  game:zone("supply"):move_matching("die", pool)
  -- A face no die has: an error, and nothing rolled.
  local ok, err = pcall(function() return pool:roll("six", "sevens") end)
  d.ok, d.error = ok, err
  d.counts = {pool:roll("one", "six", "two", "six")}
  d.recounted = {pool:count("one", "six", "two", "six")}
  local faces = {}
  for _, c in ipairs(pool:items()) do faces[#faces + 1] = c:face() end
  d.faces = faces
  d.plain = {pool:roll()}
  d.empty = {game:zone("pool", 1):roll("six")}
  game:finish{details = d}
)"));
  Table t(game);
  const GameResult r = t.play(3, 5);
  const json& d = r.details;
  CHECK(d.at("ok") == false);
  CHECK_THAT(d.at("error").get<std::string>(), Catch::Contains("bad argument #2 to 'roll'") &&
                                                   Catch::Contains("no component has a face 'sevens'"));
  // The failed call drew nothing: the pool's roll is the stream's first
  // four draws, bottom to top (dice 3, 2, 1, 0), as for pool:roll().
  const std::vector<std::string> names{"one", "two", "three", "four", "five", "six"};
  Rng chance;
  chance.reseed(5, kChanceStream);
  std::vector<std::string> faces(4);
  for (int i = 3; i >= 0; --i) faces[static_cast<size_t>(i)] = names[chance.below(6)];
  CHECK(strings(d.at("faces")) == faces);
  auto showing = [&](const std::string& face) { return static_cast<int>(std::count(faces.begin(), faces.end(), face)); };
  // The number of dice, then one count per face asked for (a face asked
  // twice is counted twice), the same as pool:count() says afterwards.
  const json expected = json::array({4, showing("one"), showing("six"), showing("two"), showing("six")});
  CHECK(d.at("counts") == expected);
  CHECK(d.at("recounted") == json::array({showing("one"), showing("six"), showing("two"), showing("six")}));
  CHECK(d.at("plain") == json::array({4}));
  CHECK(d.at("empty") == json::array({0, 0}));
}

TEST_CASE("bindings: zones and decks", "[bindings]") {
  TempGame game(kYaml, rules_lua(R"(
  local d = {}
  local supply, deck, discard = game:zone("supply"), game:zone("deck"), game:zone("discard")
  local hand0 = game:zone("hand", 0)
  d.name, d.id, d.owner = hand0:name(), hand0:id(), hand0:owner()
  d.pool_title = game:zone("pool", 1):title()
  d.supply_owner = supply:owner() == nil
  d.supply_title = supply:title()
  d.deck_count = deck:count()
  d.reds, d.blues = deck:count("red", "blue")
  d.discard_empty, d.deck_empty = discard:empty(), deck:empty()
  d.get1, d.get5 = deck:get(1):id(), deck:get(5):id()
  d.get6, d.get0 = deck:get(6) == nil, deck:get(0) == nil
  d.top, d.bottom = deck:top():id(), deck:bottom():id()
  d.discard_top = discard:top() == nil
  local ids = {}
  for _, c in ipairs(deck:items()) do ids[#ids + 1] = c:id() end
  d.items = ids
  d.find_red = deck:find("red"):id()
  d.find_type = deck:find("blue_card"):id()
  d.find_none = discard:find("red") == nil
  d.contains, d.not_contains = deck:contains(deck:top()), discard:contains(deck:top())
  d.moved_top = deck:move_top(2, discard)
  d.discard_count = discard:count()
  d.moved_matching = discard:move_matching("blue", hand0, 1)
  d.moved_all = deck:move_all(discard)
  d.deck_after = deck:count()
  deck:shuffle()
  local drawn = 0
  while deck:draw(hand0, discard) do drawn = drawn + 1 end
  d.drawn = drawn
  d.hand_count = hand0:count()
  d.no_refill = deck:draw(hand0) == nil
  d.exchanged = {hand0:exchange(game:zone("hand", 1))}
  d.cell_of_supply = select("#", supply:cell())
  local board, x, y = game:board("grid"):cell(2, 3):cell()
  d.cell = {board:name(), x, y}
  local _, e1 = pcall(function() deck:move_all(deck) end)
  local _, e2 = pcall(function() deck:find("purple") end)
  local _, e3 = pcall(function() deck:count("red", "purple") end)
  local _, e4 = pcall(function() deck:move_top(-1, discard) end)
  local _, e5 = pcall(function() deck:draw(deck) end)
  local _, e6 = pcall(function() game:zone("hand") end)
  local _, e7 = pcall(function() game:zone("attic") end)
  local _, e8 = pcall(function() game:zone("hand", 3) end)
  d.errors = {e1, e2, e3, e4, e5, e6, e7, e8}
  game:finish{details = d}
)"));
  Table t(game);
  const GameResult r = t.play(3, 1);
  const json& d = r.details;
  CHECK(d.at("name") == "hand");
  CHECK(d.at("id") == "hand@0");
  CHECK(d.at("owner") == 0);
  CHECK(d.at("pool_title") == "Bob's dice");
  CHECK(d.at("supply_owner") == true);
  CHECK(d.at("supply_title") == "the box");
  CHECK(d.at("deck_count") == 5);
  CHECK(d.at("reds") == 2);
  CHECK(d.at("blues") == 3);
  CHECK(d.at("discard_empty") == true);
  CHECK(d.at("deck_empty") == false);
  CHECK(d.at("get1") == 8);  // position 1 is the top
  CHECK(d.at("get5") == 4);
  CHECK(d.at("get6") == true);
  CHECK(d.at("get0") == true);
  CHECK(d.at("top") == 8);
  CHECK(d.at("bottom") == 4);
  CHECK(d.at("discard_top") == true);
  CHECK(d.at("items") == json::array({8, 7, 6, 5, 4}));
  CHECK(d.at("find_red") == 5);
  CHECK(d.at("find_type") == 8);
  CHECK(d.at("find_none") == true);
  CHECK(d.at("contains") == true);
  CHECK(d.at("not_contains") == false);
  CHECK(d.at("moved_top") == 2);
  CHECK(d.at("discard_count") == 2);
  CHECK(d.at("moved_matching") == 1);
  CHECK(d.at("moved_all") == 3);
  CHECK(d.at("deck_after") == 0);
  CHECK(d.at("drawn") == 4);  // the discard pile, reshuffled into the deck
  CHECK(d.at("hand_count") == 5);
  CHECK(d.at("no_refill") == true);
  CHECK(d.at("exchanged") == json::array({5, 0}));
  CHECK(d.at("cell_of_supply") == 0);
  CHECK(d.at("cell") == json::array({"grid", 2, 3}));
  const auto errors = strings(d.at("errors"));
  REQUIRE(errors.size() == 8u);
  CHECK_THAT(errors[0], Catch::Contains("bad argument #1 to 'move_all' (a zone cannot move into itself)"));
  CHECK_THAT(errors[1], Catch::Contains("bad argument #1 to 'find' ('purple' is neither a face nor a component name)"));
  CHECK_THAT(errors[2], Catch::Contains("bad argument #2 to 'count' (no component has a face 'purple')"));
  CHECK_THAT(errors[3], Catch::Contains("bad argument #1 to 'move_top' (count must not be negative)"));
  CHECK_THAT(errors[4], Catch::Contains("bad argument #1 to 'draw' (cannot draw into the deck itself)"));
  CHECK_THAT(errors[5], Catch::Contains("bad argument #2 to 'zone' (zone 'hand' is per player: give a seat)"));
  CHECK_THAT(errors[6], Catch::Contains("bad argument #1 to 'zone' (no zone named 'attic')"));
  CHECK_THAT(errors[7], Catch::Contains("bad argument #2 to 'zone' (seat 3 is not in 0..2)"));

  // Hand 1 now holds the five cards, known to Bob and to Ann, who gave them
  // (knowledge survives a move into a hand; tests/unit/play/test_hidden_information.cpp).
  const GameDefinition& def = *t.def;
  const int hand1 = def.zone_slot(def.find_zone_def("hand"), 1);
  CHECK(t.state.zone_size(hand1) == 5);
  for (ComponentId id : t.state.zone(hand1)) {
    CHECK(t.state.component(id).owner == Seat{1});
    CHECK(t.state.visible_to(id, Seat{0}));
  }
  CHECK(t.match.view(Seat{0}).at("zones").at("hand@1").at("count") == 5);
  CHECK(t.match.view(Seat{0}).at("zones").at("hand@1").at("components").size() == 5u);
  CHECK(t.match.view(Seat{1}).at("zones").at("hand@1").at("components").size() == 5u);
}

TEST_CASE("bindings: boards", "[bindings]") {
  TempGame game(kYaml, rules_lua(kZoneIds + std::string(R"(
  local d = {}
  local g = game:board("grid")
  d.name, d.w, d.h = g:name(), g:width(), g:height()
  d.off, d.off0 = g:cell(5, 1) == nil, g:cell(0, 1) == nil
  local c = g:cell(2, 3)
  d.cell_id = c:id()
  d.cell_title = c:title()
  d.xy = {g:xy(c)}
  d.cells = #g:cells()
  d.first_cell, d.fifth_cell = g:cells()[1]:id(), g:cells()[5]:id()
  d.step_n = g:step(c, "north"):id()
  d.step_off = g:step(1, 1, "nw") == nil
  d.step_se = g:step(2, 3, "se"):id()
  d.neighbours = ids(g:neighbours(c))
  d.corner_neighbours = #g:neighbours(1, 1, true)
  d.adjacent = g:adjacent(c, g:cell(2, 4))
  d.adjacent_diagonal = g:adjacent(c, 3, 4, true)
  d.not_adjacent = g:adjacent(c, 3, 4)
  d.line = ids(g:line(c, "east"))
  d.direction = g:direction(c, g:cell(4, 1))
  d.no_direction = g:direction(c, g:cell(3, 1)) == nil
  d.directions = g:directions()
  d.all_directions = #g:directions(true)
  d.ring = ids(g:path("ring"))
  d.along_back = g:along("ring", 1, 1, -1):id()
  d.along = g:along("ring", g:cell(4, 1), 2):id()
  d.track_end = g:along("track", 3, 1, 1) == nil
  d.track = g:along("track", 1, 1, 2):id()
  d.at_empty = g:at(c) == nil
  game:components("pawn")[1]:move(c)
  game:components("pawn")[2]:move(c)
  d.at = g:at(2, 3):id()
  local _, e1 = pcall(function() g:xy(9, 9) end)
  local _, e2 = pcall(function() g:path("nowhere") end)
  local _, e3 = pcall(function() g:xy(game:zone("supply")) end)
  local _, e4 = pcall(function() g:step(c, "up") end)
  local _, e5 = pcall(function() game:board("chess") end)
  local _, e6 = pcall(function() g:step(c) end)
  d.errors = {e1, e2, e3, e4, e5, e6}
  game:finish{details = d}
)")));
  Table t(game);
  const json d = t.play(3, 1).details;
  CHECK(d.at("name") == "grid");
  CHECK(d.at("w") == 4);
  CHECK(d.at("h") == 4);
  CHECK(d.at("off") == true);
  CHECK(d.at("off0") == true);
  CHECK(d.at("cell_id") == "grid@2,3");
  CHECK(d.at("cell_title") == "the grid (2,3)");
  CHECK(d.at("xy") == json::array({2, 3}));
  CHECK(d.at("cells") == 16);
  CHECK(d.at("first_cell") == "grid@1,1");
  CHECK(d.at("fifth_cell") == "grid@1,2");
  CHECK(d.at("step_n") == "grid@2,2");
  CHECK(d.at("step_off") == true);
  CHECK(d.at("step_se") == "grid@3,4");
  CHECK(strings(d.at("neighbours")) == std::vector<std::string>{"grid@2,2", "grid@3,3", "grid@2,4", "grid@1,3"});
  CHECK(d.at("corner_neighbours") == 3);
  CHECK(d.at("adjacent") == true);
  CHECK(d.at("adjacent_diagonal") == true);
  CHECK(d.at("not_adjacent") == false);
  CHECK(strings(d.at("line")) == std::vector<std::string>{"grid@3,3", "grid@4,3"});
  CHECK(d.at("direction") == "northeast");
  CHECK(d.at("no_direction") == true);
  CHECK(strings(d.at("directions")) == std::vector<std::string>{"north", "east", "south", "west"});
  CHECK(d.at("all_directions") == 8);
  CHECK(strings(d.at("ring")) ==
        std::vector<std::string>{"grid@1,1", "grid@2,1", "grid@3,1", "grid@4,1", "grid@4,2", "grid@4,3",
                                 "grid@4,4", "grid@3,4", "grid@2,4", "grid@1,4", "grid@1,3", "grid@1,2"});
  CHECK(d.at("along_back") == "grid@1,2");
  CHECK(d.at("along") == "grid@4,3");
  CHECK(d.at("track_end") == true);
  CHECK(d.at("track") == "grid@3,1");
  CHECK(d.at("at_empty") == true);
  CHECK(d.at("at") == 11);  // the top one
  const auto errors = strings(d.at("errors"));
  REQUIRE(errors.size() == 6u);
  CHECK_THAT(errors[0], Catch::Contains("bad argument #1 to 'xy' ((9,9) is off the 4x4 board)"));
  CHECK_THAT(errors[1], Catch::Contains("bad argument #1 to 'path' (board has no path 'nowhere')"));
  CHECK_THAT(errors[2], Catch::Contains("bad argument #1 to 'xy' (a cell of this board expected)"));
  CHECK_THAT(errors[3], Catch::Contains("bad argument #2 to 'step' (direction expected"));
  CHECK_THAT(errors[4], Catch::Contains("bad argument #1 to 'board' (no board named 'chess')"));
  CHECK_THAT(errors[5], Catch::Contains("bad argument #2 to 'step' (string expected, got no value)"));

  // Board cells show in the view.
  const json view = t.match.view(Seat{0});
  CHECK(view.at("boards").at("grid").at("2,3").size() == 2u);
  CHECK(view.at("boards").at("grid").at("2,3")[0].at("id") == 11);
}

TEST_CASE("bindings: a board's face-down cells", "[bindings]") {
  // The grid (4x4), x across and y down: cards from the hidden deck lie
  // face down at (1,1), (3,1), (4,1), (2,2) and (1,3); a pawn (public) on
  // (2,1).
  TempGame game(kYaml, rules_lua(kZoneIds + std::string(R"(
  local d = {}
  local g = game:board("grid")
  local deck = game:zone("deck")
  for _, xy in ipairs({{1, 1}, {3, 1}, {4, 1}, {2, 2}, {1, 3}}) do deck:top():move(g:cell(xy[1], xy[2])) end
  game:components("pawn")[1]:move(g:cell(2, 1))
  local all, n = g:face_down_cells()
  d.all, d.all_n = ids(all), n
  d.but = ids(g:face_down_cells(g:cell(4, 1)))
  d.seeing = ids(g:face_down_seeing(2))
  d.seeing_but = ids(g:face_down_seeing(2, g:cell(4, 1)))
  d.seeing_diagonal = ids(g:face_down_seeing(2, nil, nil, true))
  local list = {"a", "b", "c", "d", "e", "f", "g"}
  local same, m = g:face_down_seeing(2, nil, list)
  d.refilled, d.refilled_n, d.refilled_len, d.refilled_rest = same == list, m, #list, list[3] == nil and list[7] == nil
  d.line = ids(g:face_down_line(g:cell(1, 1), "east"))
  d.line_xy = ids(g:face_down_line(4, 1, "w"))
  local _, none = g:face_down_line(g:cell(1, 1), "north", list)
  d.line_none, d.line_none_len = none, #list
  local dirs, k = g:face_down_directions(g:cell(1, 1), 1)
  d.directions, d.directions_n = dirs, k
  d.directions_diagonal = g:face_down_directions(1, 3, 1, nil, true)
  local two = {"x", "y", "z"}
  g:face_down_directions(g:cell(4, 1), 2, two)
  d.directions_refilled = two
  -- A card turned face up leaves the list; a look at it does not.
  g:cell(4, 1):top():reveal()
  g:cell(1, 1):top():peek(1)
  d.after_reveal = ids(g:face_down_cells())
  local errors = {}
  for _, f in ipairs({
    function() g:face_down_cells(game:zone("supply")) end,
    function() g:face_down_cells(3) end,
    function() g:face_down_cells(nil, 5) end,
    function() g:face_down_seeing("x") end,
    function() g:face_down_line(g:cell(1, 1), "up") end,
    function() g:face_down_directions(g:cell(1, 1)) end,
  }) do
    local _, e = pcall(f)
    errors[#errors + 1] = e
  end
  d.errors = errors
  game:finish{details = d}
)")));
  Table t(game);
  const json d = t.play(3, 1).details;
  using Ids = std::vector<std::string>;
  CHECK(strings(d.at("all")) == Ids{"grid@1,1", "grid@3,1", "grid@4,1", "grid@2,2", "grid@1,3"});
  CHECK(d.at("all_n") == 5);
  CHECK(strings(d.at("but")) == Ids{"grid@1,1", "grid@3,1", "grid@2,2", "grid@1,3"});
  // (1,1) sees (3,1) and (4,1) eastwards, (4,1) sees them westwards; the
  // others see at most one face-down card in any orthogonal direction.
  CHECK(strings(d.at("seeing")) == Ids{"grid@1,1", "grid@4,1"});
  CHECK(strings(d.at("seeing_but")) == Ids{"grid@1,1"});
  // Diagonally (3,1) sees (2,2) and (1,3), and (1,3) the other way.
  CHECK(strings(d.at("seeing_diagonal")) == Ids{"grid@1,1", "grid@3,1", "grid@4,1", "grid@1,3"});
  CHECK(d.at("refilled") == true);
  CHECK(d.at("refilled_n") == 2);
  CHECK(d.at("refilled_len") == 2);
  CHECK(d.at("refilled_rest") == true);
  CHECK(strings(d.at("line")) == Ids{"grid@3,1", "grid@4,1"});
  CHECK(strings(d.at("line_xy")) == Ids{"grid@3,1", "grid@1,1"});
  CHECK(d.at("line_none") == 0);
  CHECK(d.at("line_none_len") == 0);
  CHECK(strings(d.at("directions")) == Ids{"east", "south"});
  CHECK(d.at("directions_n") == 2);
  CHECK(strings(d.at("directions_diagonal")) == Ids{"north", "northeast"});
  CHECK(strings(d.at("directions_refilled")) == Ids{"west"});
  CHECK(strings(d.at("after_reveal")) == Ids{"grid@1,1", "grid@3,1", "grid@2,2", "grid@1,3"});
  const auto errors = strings(d.at("errors"));
  REQUIRE(errors.size() == 6u);
  CHECK_THAT(errors[0], Catch::Contains("bad argument #1 to 'face_down_cells' (a cell of this board expected)"));
  CHECK_THAT(errors[1], Catch::Contains("bad argument #1 to 'face_down_cells' (cell or nil expected, got number)"));
  CHECK_THAT(errors[2], Catch::Contains("bad argument #2 to 'face_down_cells' (table expected, got number)"));
  CHECK_THAT(errors[3], Catch::Contains("bad argument #1 to 'face_down_seeing' (number expected, got string)"));
  CHECK_THAT(errors[4], Catch::Contains("bad argument #2 to 'face_down_line' (direction expected"));
  CHECK_THAT(errors[5], Catch::Contains("bad argument #2 to 'face_down_directions' (number expected, got no value)"));
}

TEST_CASE("bindings: argument errors surface as ScriptError with file, line and traceback", "[bindings]") {
  TempGame game(kYaml, R"(local rules = {}
function rules.setup(game) end
local function place(game)
  local die = game:components("die")[1]
  die.move(die, game.nowhere)
end
function rules.play(game)
  if game:player_count() == 2 then
    place(game)
  end
  game:finish{winners = {0}}
end
return rules
)");
  Table t(game);
  std::string message;
  try {
    t.play(2, 1);
  } catch (const ScriptError& e) {
    message = e.what();
  }
  INFO(message);
  CHECK_THAT(message, Catch::Contains("rules.lua:5: bad argument #2 to 'move' (zone expected, got nil)"));
  CHECK_THAT(message, Catch::Contains("stack traceback:"));
  CHECK_THAT(message, Catch::Contains("rules.lua:9:"));  // the caller, in the traceback
  CHECK_THAT(message, Catch::Contains("place"));
  // The engine plays the next game normally.
  const GameResult r = t.play(3, 1);
  CHECK(r.finished);
  CHECK(r.winners == std::vector<Seat>{Seat{0}});
}

TEST_CASE("bindings: errors raised by the rules name the file and line", "[bindings]") {
  SECTION("error() in play") {
    TempGame game(kYaml, rules_lua("  local x = 1\n  error(\"the rules broke\")"));
    Table t(game);
    CHECK_THROWS_WITH(t.play(3, 1), Catch::Contains("rules.lua:5: the rules broke") &&
                                        Catch::Contains("stack traceback:"));
  }
  SECTION("a runtime error in setup") {
    TempGame game(kYaml, rules_lua("  game:finish{}", "  local t = nil\n  local y = t.field"));
    Table t(game);
    CHECK_THROWS_WITH(t.play(3, 1), Catch::Contains("rules.lua:4: attempt to index a nil value"));
  }
  SECTION("a syntax error when loading") {
    TempGame game(kYaml, "local rules = {}\nfunction rules.setup(game)\n  if then\nend\nreturn rules\n");
    CHECK_THROWS_AS(Table(game), ScriptError);
    CHECK_THROWS_WITH(Table(game), Catch::Contains("rules.lua:3:"));
  }
  SECTION("a script that returns no table") {
    TempGame game(kYaml, "return 42\n");
    CHECK_THROWS_WITH(Table(game), Catch::Contains("must return a table"));
  }
  SECTION("a script without play") {
    TempGame game(kYaml, "return {setup = function() end}\n");
    CHECK_THROWS_WITH(Table(game), Catch::Contains("no function 'play'"));
  }
  SECTION("bad seats in finish") {
    TempGame game(kYaml, rules_lua("  game:finish{winners = {7}}"));
    Table t(game);
    CHECK_THROWS_WITH(t.play(3, 1), Catch::Contains("winners[1] is not a seat"));
  }
}

TEST_CASE("bindings: prepare code and evaluate", "[bindings]") {
  TempGame game(kYaml, rules_lua(R"(
  game.state.seen = game:zone("discard"):count()
  game:finish{details = {seen = game.state.seen}}
)"));
  Table t(game);
  t.match.set_prepare("game:zone('supply'):move_top(2, game:zone('discard'))", "prepare.yaml");
  CHECK(t.play(3, 1).details.at("seen") == 2);
  CHECK(t.match.evaluate("game:zone('discard'):count()", "check.yaml") == 2);
  CHECK(t.match.evaluate("{game.state.seen, game:player_count()}", "check.yaml") == json::array({2, 3}));
  CHECK_THROWS_AS(t.match.evaluate("game:zone('attic')", "check.yaml"), ScriptError);
  CHECK_THROWS_WITH(t.match.evaluate("(", "check.yaml"), Catch::Contains("check.yaml"));
  t.match.set_prepare("", "");
  CHECK(t.play(3, 1).details.at("seen") == 0);
}

TEST_CASE("bindings: the game table's methods cannot be overwritten by rules data", "[bindings]") {
  TempGame game(kYaml, rules_lua(R"(
  game.score_sheet = {1, 2}       -- the rules' own fields are fine
  local ok, err = pcall(function() game.board = {} end)
  game.state.error = err
  game.state.still_a_method = game:board("grid") ~= nil
  game:finish{details = {own = game.score_sheet[2]}}
)"));
  Table t(game);
  const GameResult r = t.play(2, 1);
  CHECK(r.details.at("own") == 2);
  const json st = t.match.view(Seat::none()).at("state");
  CHECK_THAT(st.at("error").get<std::string>(),
             Catch::Contains("game.board is a method of game and cannot be assigned"));
  CHECK(st.at("still_a_method") == true);
}

TEST_CASE("bindings: numbers too large for the runtime's ints are checked, never truncated", "[bindings]") {
  SECTION("add_score: a delta beyond 32 bits, and an overflowing total") {
    TempGame game(kYaml, rules_lua(R"(
  local ok1, e1 = pcall(function() return game:add_score(0, 1 << 40) end)
  game:add_score(1, 2147483647)
  local ok2, e2 = pcall(game.add_score, game, 1, 1)
  game.state.e1, game.state.e2 = e1, e2
  game.state.score = game:score(1)
  game:finish{}
)"));
    Table t(game);
    t.play(2, 1);
    const json st = t.match.view(Seat::none()).at("state");
    CHECK_THAT(st.at("e1").get<std::string>(),
               Catch::Contains("bad argument #2 to 'add_score' (number has no integer representation"));
    CHECK_THAT(st.at("e2").get<std::string>(), Catch::Contains("overflows"));
    CHECK(st.at("score") == 2147483647);
  }
  SECTION("counts, coordinates and steps") {
    TempGame game(kYaml, rules_lua(R"(
  local supply, discard = game:zone("supply"), game:zone("discard")
  game.state.moved = supply:move_top(1 << 33, discard)        -- means "all"
  local grid = game:board("grid")
  game.state.off = grid:cell((1 << 32) + 1, 1) == nil         -- not cell (1,1)
  game.state.far = grid:along("track", 1, 1, 1 << 33) == nil
  game.state.ring = tostring(grid:along("ring", 1, 1, (1 << 40) * 12 + 1))
  game:finish{}
)"));
    Table t(game);
    t.play(2, 1);
    const json st = t.match.view(Seat::none()).at("state");
    CHECK(st.at("moved") == 7);  // 4 dice, the tile and 2 pawns: everything in the box
    CHECK(st.at("off") == true);
    CHECK(st.at("far") == true);
    CHECK_FALSE(st.at("ring").get<std::string>().empty());
  }
}

TEST_CASE("bindings: option labels from a metatable are read safely", "[bindings]") {
  // A label built by __index when read is used; an __index that raises
  // must not unwind past the agent's C++ objects: the numbered label is
  // used instead.
  TempGame game(kYaml, rules_lua(R"(
  local raising = setmetatable({}, {__index = function() error("boom") end})
  local lazy = setmetatable({}, {__index = function(_, key) if key == "label" then return "lazy" end end})
  local labelled = setmetatable({label = "mine"}, {__index = function() error("boom") end})
  local picked = game:choose(0, "Which?", {raising, lazy, labelled})
  game.state.picked = picked == labelled
  game:finish{}
)"));
  Table t(game);
  Recorder rec;
  t.listen(&rec);
  ScriptedAgent ann({"mine"});
  FirstAgent bob;
  const GameResult r = t.play(2, 1, {&ann, &bob});
  CHECK(r.finished);
  CHECK(t.match.view(Seat::none()).at("state").at("picked") == true);
  CHECK(rec.texts(EventType::Choice) == std::vector<std::string>{"mine"});
  ScriptedAgent wrong({"boom"});
  CHECK_THROWS_WITH(t.play(2, 1, {&wrong, &bob}), Catch::Contains("option 1, lazy, mine"));
}
