// Narration of a game without turns: tricks and phases the rules declare
// (game:begin_trick, game:begin_phase) head the narration instead of
// "Round 1, Ann's turn"; their events and views; the length in tricks;
// a game round of a game without turns, which has no first player.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using rulebook::test::read_text;
using rulebook::test::run_rulebook;
using rulebook::test::temp_folder;
using rulebook::test::write_file;

namespace {

// Two tricks: each a phase of bidding, both seats choosing without turns;
// then a round with a trick led by Bob, and a turn within it.
std::string trick_game() {
  const std::string dir = temp_folder("tricks");
  write_file(dir + "/game.yaml", "name: tricks\ntitle: Tricks\nplayers: {min: 2, max: 2, default: 2, names: [Ann, Bob]}\nscript: rules.lua\n");
  write_file(dir + "/rules.lua", R"(return {setup = function() end, play = function(game)
  assert(game:trick() == 0 and game:phase() == nil)
  game:begin_phase("dealing")
  game:say("cards are dealt")
  for t = 1, 2 do
    game:begin_trick()
    game:begin_phase("bidding")
    game:choose(0, "Bid", {1, 2})
    game:choose(1, "Bid", {1, 2})
    game:say("trick %d is over", game:trick())
  end
  assert(game:phase() == "bidding")
  local bad = select(2, pcall(function() game:begin_phase("") end))
  assert(tostring(bad):find("bad argument #1 to 'begin_phase' (a name of 1 to 64", 1, true), bad)
  game:finish{winners = {0}}
end})");
  return dir;
}

}  // namespace

TEST_CASE("narration: a game without turns is told by its tricks and phases", "[narration]") {
  const std::string dir = trick_game();
  auto normal = run_rulebook("play " + dir + " --seed 2");
  INFO(normal.out << normal.err);
  REQUIRE(normal.exit_code == 0);
  CHECK(normal.out.find("'s turn") == std::string::npos);
  CHECK(normal.out.find("-- Dealing --\ncards are dealt\n-- Trick 1 --\n-- Trick 1: bidding --\n") != std::string::npos);
  CHECK(normal.out.find("-- Trick 2: bidding --") != std::string::npos);
  auto brief = run_rulebook("play " + dir + " --seed 2 --narrate brief");
  REQUIRE(brief.exit_code == 0);
  CHECK(brief.out.find("Dealing: cards are dealt\n") != std::string::npos);
  CHECK(brief.out.find("Trick 1: bidding: ") != std::string::npos);
  CHECK(brief.out.find("trick 1 is over\n") != std::string::npos);
  CHECK(brief.out.find("trick 2 is over\n") != std::string::npos);
  // Events and the length: two tricks make the game's two "turns".
  const std::string log = temp_folder("tricks-log") + "/g.json";
  REQUIRE(run_rulebook("play " + dir + " --seed 2 --log " + log).exit_code == 0);
  const auto j = nlohmann::json::parse(read_text(log));
  CHECK(j["result"]["turns"] == 2);
  int tricks = 0, phases = 0;
  for (const auto& e : j["events"]) {
    if (e["type"] == "trick") {
      ++tricks;
      CHECK(e["trick"] == tricks);
      CHECK_FALSE(e.contains("leader"));
    }
    if (e["type"] == "phase") ++phases;
  }
  CHECK(tricks == 2);
  CHECK(phases == 3);
  CHECK(run_rulebook("replay " + log).exit_code == 0);
  CHECK(run_rulebook("validate " + log).exit_code == 0);
}

TEST_CASE("narration: tricks within rounds, with a leader and turns", "[narration]") {
  const std::string dir = temp_folder("round-tricks");
  write_file(dir + "/game.yaml", "name: rt\ntitle: RT\nplayers: {min: 2, max: 2, default: 2, names: [Ann, Bob]}\nscript: rules.lua\n");
  write_file(dir + "/rules.lua", R"(return {setup = function() end, play = function(game)
  game:begin_round(0)
  game:begin_trick(1)
  game:begin_turn(1)
  game:choose(1, "Lead", {"a", "b"})
  game:begin_phase("scoring")
  game:begin_round(1)
  assert(game:trick() == 0)
  game:begin_phase("scoring")
  game:finish{winners = {1}}
end})");
  auto r = run_rulebook("play " + dir);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("-- Round 1, trick 1, Bob leads --\n-- Round 1, trick 1, Bob's turn --\n") != std::string::npos);
  CHECK(r.out.find("-- Round 1, trick 1: scoring --") != std::string::npos);
  CHECK(r.out.find("-- Round 2: scoring --") != std::string::npos);
  const std::string log = temp_folder("rt-log") + "/g.json";
  REQUIRE(run_rulebook("play " + dir + " --log " + log).exit_code == 0);
  const auto j = nlohmann::json::parse(read_text(log));
  CHECK(j["result"]["turns"] == 1);  // a game with turns counts its turns
  bool led = false;
  for (const auto& e : j["events"])
    if (e["type"] == "trick") led = e["leader"] == 1 && e["game_round"] == 1;
  CHECK(led);
}

TEST_CASE("narration: a round of a game without turns names no first player", "[narration]") {
  const std::string dir = temp_folder("rounds-at-once");
  write_file(dir + "/game.yaml", "name: ra\ntitle: RA\nplayers: {min: 2, max: 2, default: 2, names: [Ann, Bob]}\nscript: rules.lua\n");
  write_file(dir + "/rules.lua", R"(return {setup = function() end, play = function(game)
  for _ = 1, 2 do
    game:begin_round()
    game:begin_trick()
    game:choose_together(game:seats(), "Bid", function() return {1, 2} end)
  end
  game:finish{winners = {0}}
end})");
  const std::string log = temp_folder("ra-log") + "/g.json";
  auto r = run_rulebook("play " + dir + " --log " + log);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("== Round 1 begins ==\n-- Round 1, trick 1 --\n") != std::string::npos);
  CHECK(r.out.find("== Round 2 begins ==\n") != std::string::npos);
  CHECK(r.out.find("plays first") == std::string::npos);
  const auto j = nlohmann::json::parse(read_text(log));
  int rounds = 0;
  for (const auto& e : j["events"])
    if (e["type"] == "round") {
      ++rounds;
      CHECK_FALSE(e.contains("first"));
    }
  CHECK(rounds == 2);
  CHECK(run_rulebook("replay " + log).exit_code == 0);
  CHECK(run_rulebook("validate " + log).exit_code == 0);
}

TEST_CASE("narration: a round begun without a seat in a game of turns names the first seat so far", "[narration]") {
  const std::string dir = temp_folder("rounds-in-turns");
  write_file(dir + "/game.yaml", "name: rt2\ntitle: RT2\nplayers: {min: 2, max: 2, default: 2, names: [Ann, Bob]}\nscript: rules.lua\n");
  write_file(dir + "/rules.lua", R"(return {setup = function() end, play = function(game)
  game:begin_turn(1)
  game:choose(1, "Pick", {"a", "b"})
  game:begin_round()
  game:begin_round(1)
  game:begin_round()
  game:finish{winners = {1}}
end})");
  auto r = run_rulebook("play " + dir);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("== Round 1 begins: Ann plays first ==\n") != std::string::npos);
  CHECK(r.out.find("== Round 2 begins: Bob plays first ==\n== Round 3 begins: Bob plays first ==\n") != std::string::npos);
}

TEST_CASE("narration: Goofspiel's suits start numbered (game.yaml), so its setup turns no face", "[narration]") {
  auto r = run_rulebook("play goofspiel --seed 3 --set options.cards=4");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Goofspiel for 2 players: Ann, Bob (seed 3)\n"
                   "8 cards are dealt from the box: 4 to Ann's hand, 4 to Bob's hand\n"
                   "the prize pile is shuffled (4 items)\n-- Trick 1 --\n") == 0);
  CHECK(r.out.find("turns to") == std::string::npos);
  // Each hand holds its suit 1 to N, 1 on top, as the rules describe it.
  auto view = run_rulebook("play goofspiel --seed 3 --set options.cards=4 --view 0 --agent all=first");
  REQUIRE(view.exit_code == 0);
  CHECK(view.out.find("Ann chooses: card (1)\n") != std::string::npos);
}
