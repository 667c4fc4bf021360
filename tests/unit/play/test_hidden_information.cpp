// Hidden-information games (issue 10): private decisions, messages to some
// seats, knowledge that survives moves, rounds of the game and sitting out,
// read-only lists wherever the API takes a list. Each game is a small
// folder; what each seat is told is read back per seat from narrators and
// event recorders, as a player of that seat would see it.
#include <catch2/catch.hpp>

#include "inline_game.hpp"

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "observation/event_recorder.hpp"
#include "observation/narrator.hpp"
#include "play/match.hpp"
#include "play/scenario.hpp"
#include "setup/game_loader.hpp"

using nlohmann::json;
using namespace rulebook;
using rulebook::test::TempGame;

namespace {

const char* const kYaml = R"(name: hidden
title: Hidden
script: rules.lua
players: {min: 2, max: 4, default: 3, names: [Ann, Bob, Cy]}
options:
  order: [2, 0]
zones:
  - {name: deck, title: the deck, visibility: hidden}
  - {name: table, title: the table, visibility: public}
  - {name: aside, title: set aside, visibility: keep}
  - {name: hand, per_player: true, title: "{player}'s hand", visibility: owner}
components:
  - {name: guard, kind: card, title: Guard, count: 2, zone: deck}
  - {name: priest, kind: card, title: Priest, zone: deck}
  - {name: king, kind: card, title: King, zone: deck}
)";
// Component ids: guard 0, 1; priest 2; king 3 (the top of the deck).

std::string script(const std::string& play_body) { return rulebook::test::rules_lua(play_body); }

// A game played with a narrator and an event recorder for every seat and
// for an onlooker (-1), FirstAgent at every seat.
struct Seats {
  explicit Seats(const TempGame& game, int players = 3) : match(load_game(game.dir())) {
    for (Seat s : Seat::range(-1, players)) {
      texts.push_back(std::make_unique<std::ostringstream>());
      narrators.push_back(std::make_unique<Narrator>(*texts.back(), s));
      recorders.push_back(std::make_unique<EventRecorder>(s));
      match.add_sink(narrators.back().get());
      match.add_sink(recorders.back().get());
    }
    firsts.resize(static_cast<size_t>(players));
    std::vector<Agent*> agents;
    for (auto& a : firsts) agents.push_back(&a);
    match.set_agents(agents);
    this->players = players;
  }
  GameResult play(uint64_t seed = 1) {
    GameResult r = match.play(players, seed);
    for (auto& n : narrators) n->flush();
    return r;
  }
  // What seat `s` (-1: the onlooker) read, and the events it received.
  std::string narration(int s) const { return texts[static_cast<size_t>(s + 1)]->str(); }
  const std::vector<json>& events(int s) const { return recorders[static_cast<size_t>(s + 1)]->events(); }
  std::vector<json> of_type(int s, const std::string& type) const {
    std::vector<json> out;
    for (const auto& e : events(s))
      if (e.at("type") == type) out.push_back(e);
    return out;
  }

  Match match;
  int players = 3;
  std::vector<std::unique_ptr<std::ostringstream>> texts;
  std::vector<std::unique_ptr<Narrator>> narrators;
  std::vector<std::unique_ptr<EventRecorder>> recorders;
  std::vector<FirstAgent> firsts;
};

}  // namespace

TEST_CASE("hidden: a decision among hidden cards is private; the rules can say so either way", "[hidden]") {
  TempGame game(kYaml, script(R"(
  local hand = game:zone("hand", 0)
  game:zone("deck"):move_top(2, hand)       -- King, then Priest on top
  local d = {}
  d.kept = game:choose(0, "Keep a card", hand:items()):title()               -- private by itself
  d.named = game:choose(0, "Name a card", {"Guard", "King"}, {private = true})
  d.shown = game:choose(0, "Show a card", hand:items(), {private = false}):title()
  d.whom = game:choose(1, "Whom", game.options.order, {labels = "seat"})    -- a read-only list
  d.old = game:choose(1, "Old style", {0, 1}, "seat")
  local function err(f) local ok, e = pcall(f) return e end
  d.bad_field = err(function() game:choose(0, "x", {1, 2}, {secret = true}) end)
  d.bad_private = err(function() game:choose(0, "x", {1, 2}, {private = "yes"}) end)
  d.bad_labels = err(function() game:choose(0, "x", {1, 2}, {labels = "names"}) end)
  d.bad_style = err(function() game:choose(0, "x", {1, 2}, 7) end)
  game:finish{details = d}
)"));
  Seats t(game);
  const GameResult r = t.play();
  REQUIRE(r.finished);
  CHECK(r.details.at("kept") == "Priest");
  CHECK(r.details.at("named") == "Guard");
  CHECK(r.details.at("shown") == "Priest");
  CHECK(r.details.at("whom") == 2);
  CHECK(r.details.at("old") == 0);
  CHECK_THAT(r.details.at("bad_field").get<std::string>(),
             Catch::Contains("bad argument #4 to 'choose' (unknown field 'secret' (fields: private, labels))"));
  CHECK_THAT(r.details.at("bad_private").get<std::string>(), Catch::Contains("field 'private' must be a boolean"));
  CHECK_THAT(r.details.at("bad_labels").get<std::string>(), Catch::Contains("field 'labels' must be 'seat'"));
  CHECK_THAT(r.details.at("bad_style").get<std::string>(),
             Catch::Contains("'seat' or a table of decision options expected, got number"));

  // Bob and Cy learn that Ann chose, not what; Ann, the onlooker and the
  // full log see the answer.
  for (int other : {1, 2}) {
    const auto choices = t.of_type(other, "choice");
    REQUIRE(choices.size() == 5);
    CHECK(choices[0] == json({{"type", "choice"}, {"seat", 0}, {"private", true}}));
    CHECK(choices[1] == json({{"type", "choice"}, {"seat", 0}, {"private", true}}));
    CHECK(choices[2].at("label") == "Priest");
    CHECK_FALSE(choices[2].contains("private"));
    CHECK(choices[3].at("label") == "Cy");
    CHECK(choices[4].at("label") == "Ann");
  }
  for (int seat : {-1, 0}) {
    const auto choices = t.of_type(seat, "choice");
    REQUIRE(choices.size() == 5);
    CHECK(choices[0] == json({{"type", "choice"}, {"seat", 0}, {"private", true}, {"index", 0}, {"label", "Priest"}}));
    CHECK(choices[1].at("label") == "Guard");
    CHECK(choices[1].at("private") == true);
  }
  CHECK_THAT(t.narration(1), Catch::Contains("Ann makes a choice\nAnn makes a choice\nAnn chooses: Priest\n"
                                             "Bob chooses: Cy\nBob chooses: Ann"));
  CHECK_THAT(t.narration(0), Catch::Contains("Ann chooses: Priest\nAnn chooses: Guard\nAnn chooses: Priest"));
  CHECK_THAT(t.narration(-1), Catch::Contains("Ann chooses: Priest\nAnn chooses: Guard\nAnn chooses: Priest"));
  CHECK(t.narration(2).find("Guard") == std::string::npos);
}

TEST_CASE("hidden: game:say_to reaches only the seats it names", "[hidden]") {
  TempGame game(kYaml, script(R"(
  game:say_to(1, "Bob alone: %d", 7)
  game:say_to({0, 2}, "Ann and Cy")
  game:say_to(game.options.order, "a read-only list")
  game:say("everybody")
  local d = {}
  local function err(f) local ok, e = pcall(f) return e end
  d.bad_seat = err(function() game:say_to(7, "x") end)
  d.bad_item = err(function() game:say_to({0, "x"}, "x") end)
  d.no_text = err(function() game:say_to(0) end)
  game:finish{details = d}
)"));
  Seats t(game);
  const GameResult r = t.play();
  CHECK_THAT(r.details.at("bad_seat").get<std::string>(), Catch::Contains("bad argument #1 to 'say_to' (seat 7 is not in 0..2)"));
  CHECK_THAT(r.details.at("bad_item").get<std::string>(), Catch::Contains("bad argument #1 to 'say_to' (item 2 is not a seat in 0..2)"));
  CHECK_THAT(r.details.at("no_text").get<std::string>(), Catch::Contains("bad argument #2 to 'say_to' (string expected, got no value)"));
  CHECK(t.narration(0) == "Hidden for 3 players: Ann, Bob, Cy (seed 1)\nAnn and Cy\na read-only list\neverybody\nGame over: nobody wins\n");
  CHECK(t.narration(1) == "Hidden for 3 players: Ann, Bob, Cy (seed 1)\nBob alone: 7\neverybody\nGame over: nobody wins\n");
  CHECK_THAT(t.narration(-1), Catch::Contains("(to Bob) Bob alone: 7\n(to Ann, Cy) Ann and Cy\n(to Ann, Cy) a read-only list\neverybody"));
  const auto bob = t.of_type(1, "message");
  REQUIRE(bob.size() == 2);
  CHECK(bob[0] == json({{"type", "message"}, {"text", "Bob alone: 7"}, {"to", {1}}}));
  CHECK(bob[1] == json({{"type", "message"}, {"text", "everybody"}}));
  CHECK(t.of_type(-1, "message").size() == 4);
  CHECK(t.of_type(2, "message").size() == 3);
}

TEST_CASE("hidden: who knows a card survives a move unless the move hides it", "[hidden]") {
  TempGame game(kYaml, script(R"(
  local deck, tbl, aside = game:zone("deck"), game:zone("table"), game:zone("aside")
  local ann, bob, cy = game:zone("hand", 0), game:zone("hand", 1), game:zone("hand", 2)
  local function knowers(c)
    local k = {}
    for seat = 0, 2 do if c:known_by(seat) then k[#k + 1] = seat end end
    return k
  end
  local d = {}
  deck:move_top(1, ann)
  deck:move_top(1, bob)
  local king, priest = ann:top(), bob:top()
  priest:peek(2)                                -- Cy looks at Bob's card
  d.dealt = {king = knowers(king), priest = knowers(priest)}
  ann:exchange(bob)                             -- Ann and Bob trade hands
  d.traded = {king = knowers(king), priest = knowers(priest)}
  king:move(deck)                               -- back into the deck: forgotten
  d.in_deck = knowers(king)
  priest:move(deck, {position = "bottom", seen_by = 0})
  d.seen_by = knowers(priest)
  d.bottom = deck:bottom() == priest
  deck:shuffle()
  d.shuffled = knowers(priest)
  local guard = deck:find("guard")
  guard:move(tbl)                               -- face up: everybody
  guard:move(cy)                                -- taken into a hand in view of all
  d.public_to_hand = knowers(guard)
  local other = deck:find("guard")
  other:peek(1)
  other:move(aside)                             -- a keep zone keeps who knew it
  d.kept = knowers(other)
  d.bulk_bottom = deck:move_matching("king", aside, {position = "bottom"})
  d.king_at_bottom = aside:bottom() == king
  deck:move_top(1, aside, {seen_by = {0, 2}})
  d.bulk = knowers(aside:top())
  local function err(f) local ok, e = pcall(f) return e end
  d.bad_field = err(function() king:move(deck, {seenby = 1}) end)
  d.bad_position = err(function() king:move(deck, {position = "middle"}) end)
  d.bad_word = err(function() king:move(deck, "middle") end)
  d.bad_seen = err(function() king:move(deck, {seen_by = "Ann"}) end)
  d.bad_seat = err(function() king:move(deck, {seen_by = {0, 9}}) end)
  game:finish{details = d}
)"));
  Seats t(game);
  const GameResult r = t.play();
  REQUIRE(r.finished);
  const json& d = r.details;
  CHECK(d.at("dealt") == json({{"king", {0}}, {"priest", {1, 2}}}));
  // Each keeps in mind what they gave; Cy still knows the Priest.
  CHECK(d.at("traded") == json({{"king", {0, 1}}, {"priest", {0, 1, 2}}}));
  CHECK(d.at("in_deck").empty());
  CHECK(d.at("seen_by") == json({0}));
  CHECK(d.at("bottom") == true);
  CHECK(d.at("shuffled").empty());
  CHECK(d.at("public_to_hand") == json({0, 1, 2}));
  CHECK(d.at("kept") == json({1}));
  CHECK(d.at("bulk") == json({0, 2}));
  CHECK(d.at("bulk_bottom") == 1);
  CHECK(d.at("king_at_bottom") == true);
  CHECK_THAT(d.at("bad_field").get<std::string>(),
             Catch::Contains("bad argument #2 to 'move' (unknown field 'seenby' (fields: position, seen_by))"));
  CHECK_THAT(d.at("bad_position").get<std::string>(), Catch::Contains("bad argument #2 to 'move' ('top' or 'bottom' expected)"));
  CHECK_THAT(d.at("bad_word").get<std::string>(), Catch::Contains("bad argument #2 to 'move' ('top' or 'bottom' expected)"));
  CHECK_THAT(d.at("bad_seen").get<std::string>(), Catch::Contains("field 'seen_by' must be a seat or a list of seats"));
  CHECK_THAT(d.at("bad_seat").get<std::string>(), Catch::Contains("item 2 is not a seat in 0..2"));

  // Each seat is told a move as it saw it: whoever knew the card before
  // it moved reads its name, even where it ends up hidden.
  CHECK_THAT(t.narration(0), Catch::Contains("King moves from Ann's hand to Bob's hand\n"
                                             "Priest moves from Bob's hand to Ann's hand\n"
                                             "King moves from Bob's hand to the deck\n"
                                             "Priest moves from Ann's hand to the deck\n"));
  CHECK_THAT(t.narration(1), Catch::Contains("King moves from Ann's hand to Bob's hand\n"
                                             "Priest moves from Bob's hand to Ann's hand\n"
                                             "King moves from Bob's hand to the deck\n"
                                             "Priest moves from Ann's hand to the deck\n"));
  CHECK_THAT(t.narration(2), Catch::Contains("a card moves from Ann's hand to Bob's hand\n"
                                             "Priest moves from Bob's hand to Ann's hand\n"
                                             "a card moves from Bob's hand to the deck\n"
                                             "Priest moves from Ann's hand to the deck\n"));
  // The same in events: the card's id for those who knew it.
  const auto cy_moves = t.of_type(2, "move");
  const auto bob_moves = t.of_type(1, "move");
  REQUIRE(cy_moves.size() >= 5);
  CHECK(cy_moves[2].at("component") == nullptr);  // Ann's King into Bob's hand
  CHECK(cy_moves[3].at("component") == 2);        // the Priest Cy peeked at
  CHECK(bob_moves[4].at("component") == 3);       // the King Bob held, into the deck
}

TEST_CASE("hidden: rounds of the game, sitting out, and views that show them", "[hidden]") {
  TempGame game(kYaml, script(R"(
  local d = {}
  d.before = game:game_round()
  game:begin_round(2)
  d.round = game:game_round()
  d.first = game:first_seat()
  d.current = game:current_seat()
  game:begin_turn(2)
  game:sit_out(0)
  game:sit_out(0)                               -- once is enough
  d.next = game:next_seat(2)
  d.previous = game:previous_seat(1)
  d.active = game:active_count()
  d.out = game:is_sitting_out(0)
  d.eliminated = game:is_eliminated(0)
  game:choose(1, "Go on?", {"yes", "no"})       -- the views, at a decision
  game:begin_turn(1)
  game:begin_turn(2)
  d.lap = game:round()
  game:begin_round()                            -- the same first seat
  d.round2 = {game:game_round(), game:first_seat(), game:is_sitting_out(0), game:round(), game:active_count()}
  game:begin_round(1)
  game:begin_turn(1)
  d.round3_lap = game:round()
  d.bad = select(2, pcall(function() game:begin_round(5) end))
  game:finish{details = d}
)"));
  Seats t(game);
  json view_at_decision;
  struct Viewer : Agent {
    Match* match = nullptr;
    json* out = nullptr;
    std::string kind() const override { return "viewer"; }
    int choose(const Decision& d) override {
      *out = d.view();
      return 0;
    }
  } viewer;
  viewer.out = &view_at_decision;
  t.match.set_agent(Seat{1}, &viewer);
  const GameResult r = t.play();
  REQUIRE(r.finished);
  const json& d = r.details;
  CHECK(d.at("before") == 0);
  CHECK(d.at("round") == 1);
  CHECK(d.at("first") == 2);
  CHECK_FALSE(d.contains("current"));  // nobody's turn yet
  CHECK(d.at("next") == 1);            // Ann sits out
  CHECK(d.at("previous") == 2);
  CHECK(d.at("active") == 2);
  CHECK(d.at("out") == true);
  CHECK(d.at("eliminated") == false);
  CHECK(d.at("lap") == 2);
  CHECK(d.at("round2") == json({2, 2, false, 0, 3}));
  CHECK(d.at("round3_lap") == 1);
  CHECK_THAT(d.at("bad").get<std::string>(), Catch::Contains("bad argument #1 to 'begin_round' (seat 5 is not in 0..2)"));

  CHECK(view_at_decision.at("turn") == json({{"current", 2}, {"round", 1}, {"game_round", 1}}));
  CHECK(view_at_decision.at("players").at(0).at("sitting_out") == true);
  CHECK(view_at_decision.at("players").at(1).at("sitting_out") == false);

  CHECK_THAT(t.narration(1), Catch::Contains("== Round 1 begins: Cy plays first ==\n-- Round 1, Cy's turn --\n"
                                             "Ann is out of this round\n"));
  CHECK_THAT(t.narration(1), Catch::Contains("== Round 3 begins: Bob plays first ==\n-- Round 3, Bob's turn --\n"));
  const std::string all = t.narration(-1);
  CHECK(all.find("Ann is out of this round") == all.rfind("Ann is out of this round"));
  CHECK(t.of_type(-1, "round").at(0) == json({{"type", "round"}, {"round", 1}, {"first", 2}}));
  CHECK(t.of_type(-1, "sit_out") == std::vector<json>{json({{"type", "sit_out"}, {"seat", 0}})});
  CHECK(t.of_type(-1, "turn").at(0) == json({{"type", "turn"}, {"seat", 2}, {"round", 1}, {"game_round", 1}}));
}

TEST_CASE("hidden: a game without rounds keeps its views and turn events", "[hidden]") {
  TempGame game(kYaml, script(R"(
  game:begin_turn(0)
  game:finish{}
)"));
  Seats t(game);
  t.play();
  CHECK(t.of_type(-1, "turn").at(0) == json({{"type", "turn"}, {"seat", 0}, {"round", 1}}));
  const json v = t.match.view(Seat{0});
  CHECK(v.at("turn") == json({{"current", 0}, {"round", 1}}));
  CHECK_FALSE(v.at("players").at(0).contains("sitting_out"));
}

TEST_CASE("hidden: a turn limit of 0 stops as the first turn would begin, after the deal", "[hidden]") {
  TempGame game(kYaml, script(R"(
  game:begin_round(1)
  game:zone("deck"):move_top(2, game:zone("hand", 0))
  game:begin_turn(1)
  game:finish{}
)"));
  Seats t(game);
  t.match.set_turn_limit(0);
  const GameResult r = t.play();
  CHECK(r.stopped);
  CHECK_FALSE(r.finished);
  CHECK(r.turns == 0);
  CHECK(t.match.state().zone_size(t.match.definition().zone_slot(t.match.definition().find_zone_def("hand"), 0)) == 2);
  t.match.set_turn_limit(-1);
  CHECK(t.play().finished);
}

TEST_CASE("hidden: read-only lists are accepted wherever the API takes a list", "[hidden]") {
  TempGame game(kYaml, script(R"(
  local d = {}
  d.choice = game:choose(0, "From the options", game.options.order)
  game:finish{winners = game.options.order, details = d}
)"));
  Seats t(game);
  const GameResult r = t.play();
  CHECK(r.details.at("choice") == 2);
  CHECK(r.winners == std::vector<Seat>{Seat{2}, Seat{0}});
}

namespace {

const char* const kDealt = R"(
  game:begin_round(0)
  game:zone("deck"):move_top(1, game:zone("hand", 0))
  game:zone("deck"):move_top(1, game:zone("hand", 1))
  game:begin_turn(0)
  game:choose(0, "Discard", {"the Guard"})
  game.state.pick = game:choose(0, "Pick", {"left", "right"})
  game:begin_turn(1)
  game:finish{}
)";

std::string all_failures(const ScenarioOutcome& o) {
  std::string out;
  for (const auto& f : o.failures) out += f + "\n";
  return out;
}

}  // namespace

TEST_CASE("hidden: an answer written for a decision taken without asking is reported at that answer", "[hidden][scenario]") {
  TempGame game(kYaml, script(kDealt),
                {{"scenarios/auto.yaml", "name: auto\nplayers: 2\nanswers:\n  - the Guard\n  - left\nexpect:\n  finished: true\n"},
                 {"scenarios/fine.yaml", "name: fine\nplayers: 2\nanswers: [right]\nexpect:\n  state: {pick: right}\n"},
                 {"scenarios/short.yaml", "name: short\nplayers: 2\nanswers: [the Guard]\nexpect: {}\n"}});
  const ScenarioOutcome bad = run_scenario(game.dir() + "/scenarios/auto.yaml");
  CHECK_FALSE(bad.passed);
  CHECK_THAT(all_failures(bad), Catch::Contains("scenario answer 1 'the Guard' (" + game.dir() +
                                                "/scenarios/auto.yaml:4:5) answers \"Discard\" asked of Ann, which has a "
                                                "single option ('the Guard') and is taken without asking"));
  CHECK(run_scenario(game.dir() + "/scenarios/fine.yaml").passed);
  // Also when the misplaced answer happens to fit the next decision badly
  // only at the end (here: no answer left for "Pick").
  const ScenarioOutcome shortened = run_scenario(game.dir() + "/scenarios/short.yaml");
  CHECK_THAT(all_failures(shortened), Catch::Contains("answers \"Discard\" asked of Ann"));
}

TEST_CASE("hidden: scenario code names the scenario file and its line; prepare can wait for the deal", "[hidden][scenario]") {
  TempGame game(kYaml, script(kDealt),
                {{"scenarios/lua.yaml",
                  "name: lua\n"                          // 1
                  "players: 2\n"                         // 2
                  "answers: [left]\n"                    // 3
                  "expect:\n"                            // 4
                  "  lua:\n"                             // 5
                  "    - 'game.state.pick == \"left\"'\n"  // 6
                  "    - 'game.nothing.here == 1'\n"},     // 7
                 {"scenarios/prepare.yaml",
                  "name: prepare\n"                      // 1
                  "players: 2\n"                         // 2
                  "prepare: |\n"                         // 3
                  "  local x = 1\n"                      // 4
                  "  game.missing:call()\n"              // 5
                  "expect: {}\n"},
                 {"scenarios/dealt.yaml",
                  "name: dealt\nplayers: 2\nprepare_at: first_turn\n"
                  "prepare: |\n"
                  "  game:zone('hand', 1):move_all(game:zone('hand', 0))\n"
                  "  game:sit_out(1)\n"
                  "stop_after_turns: 0\n"
                  "expect:\n"
                  "  finished: false\n"
                  "  turns: 0\n"
                  "  zones: {\"hand@Ann\": 2, \"hand@Bob\": 0, deck: 2}\n"
                  "  lua: ['game:is_sitting_out(1)', 'game:game_round() == 1']\n"},
                 {"scenarios/setup-only.yaml",
                  "name: setup only\nplayers: 2\nprepare: |\n  game.state.hands = game:zone('hand', 0):count()\n"
                  "stop_after_turns: 0\nexpect:\n  finished: false\n  state: {hands: 0}\n  zones: {\"hand@Ann\": 1}\n"}});
  const ScenarioOutcome lua = run_scenario(game.dir() + "/scenarios/lua.yaml");
  REQUIRE(lua.failures.size() == 1u);
  CHECK_THAT(lua.failures[0], Catch::Contains("lua: `game.nothing.here == 1` failed: " + game.dir() +
                                              "/scenarios/lua.yaml:7: attempt to index a nil value (field 'nothing')"));
  CHECK_THAT(lua.failures[0], Catch::Contains("7 |     - 'game.nothing.here == 1'"));  // the line itself
  const ScenarioOutcome prepare = run_scenario(game.dir() + "/scenarios/prepare.yaml");
  CHECK_THAT(all_failures(prepare), Catch::Contains(game.dir() + "/scenarios/prepare.yaml:5: attempt to index a nil value (field 'missing')"));
  const ScenarioOutcome dealt = run_scenario(game.dir() + "/scenarios/dealt.yaml");
  INFO(all_failures(dealt));
  CHECK(dealt.passed);
  const ScenarioOutcome setup_only = run_scenario(game.dir() + "/scenarios/setup-only.yaml");
  INFO(all_failures(setup_only));
  CHECK(setup_only.passed);
}

TEST_CASE("hidden: a decision paused for a person is private once answered, as with a bot", "[hidden][step]") {
  // With no agent the game pauses inside game:choose (the step API) and the
  // choice is recorded when the answer comes: whether it is private is
  // worked out then, from the options still on the paused call's stack.
  TempGame game(kYaml, script(R"(
  local hand = game:zone("hand", 0)
  game:zone("deck"):move_top(2, hand)       -- King, then Priest on top
  local kept = game:choose(0, "Keep a card", hand:items())
  local said = game:choose(0, "Say", {"yes", "no"})
  game:finish{details = {kept = kept:title(), said = said}}
)"));
  Match match(load_game(game.dir()));
  EventRecorder ann(Seat{0}), bob(Seat{1});
  match.add_sink(&ann);
  match.add_sink(&bob);
  REQUIRE(match.start(3, 1));
  CHECK(match.pending_seat() == Seat{0});
  REQUIRE(match.answer(0));  // the Priest (the list holds the top first)
  REQUIRE_FALSE(match.answer(1));
  const GameResult& r = match.result();
  REQUIRE(r.finished);
  CHECK(r.details.at("kept") == "Priest");
  CHECK(r.details.at("said") == "no");
  std::vector<json> bob_saw, ann_saw;
  for (const auto& e : bob.events())
    if (e.at("type") == "choice") bob_saw.push_back(e);
  for (const auto& e : ann.events())
    if (e.at("type") == "choice") ann_saw.push_back(e);
  REQUIRE(bob_saw.size() == 2);
  CHECK(bob_saw[0] == json({{"type", "choice"}, {"seat", 0}, {"private", true}}));
  CHECK(bob_saw[1].at("label") == "no");
  REQUIRE(ann_saw.size() == 2);
  CHECK(ann_saw[0].at("label") == "Priest");
}
