// The bindings' fast paths give what their slow paths give: game:finish's
// raw reads of its table (a metatable, or a list whose metamethods change
// the table, take the lookups), game:player_name's names kept by seat (a
// game of other names, the next game on the same engine), game:choose's
// prompt kept once checked (an ill-formed prompt repaired each time).
#include <catch2/catch.hpp>

#include "inline_game.hpp"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using nlohmann::json;
using namespace rulebook;
using rulebook::test::one_die_game_yaml;
using rulebook::test::rules_lua;
using rulebook::test::TempGame;

namespace {

// One loaded game as a match of two seats, each answered by `agent`.
struct TwoSeats {
  explicit TwoSeats(const TempGame& game, Agent& agent) : def(load_game(game.dir())), match(def) {
    match.set_agents({&agent, &agent});
  }
  std::shared_ptr<const GameDefinition> def;
  Match match;
};

// Takes option 1 and keeps every prompt it was asked.
struct PromptAgent : Agent {
  std::vector<std::string> prompts;
  std::string kind() const override { return "prompts"; }
  int choose(const Decision& d) override {
    prompts.emplace_back(d.prompt());
    return 0;
  }
  bool answers_at_once() const override { return true; }
};

GameResult play(const std::string& play_body, std::vector<std::string> names = {}) {
  TempGame game(one_die_game_yaml("fast", "Fast"), rules_lua(play_body));
  FirstAgent first;
  TwoSeats t(game, first);
  return t.match.play(2, 1, std::move(names));
}

}  // namespace

TEST_CASE("fast paths: game:finish reads its table as lookups would", "[bindings][finish]") {
  SECTION("a plain table, keys that name no field ignored") {
    const GameResult r = play(
        "  game:finish{winners = {1}, losers = {0}, reason = 'bid', [1] = 'x', winnersx = {0}, [true] = 1}");
    CHECK(r.winners == std::vector<Seat>{Seat{1}});
    CHECK(r.losers == std::vector<Seat>{Seat{0}});
    CHECK(r.reason == "bid");
    CHECK(r.summary.empty());
  }
  SECTION("a table whose metatable gives the fields") {
    const GameResult r = play(R"(
  local fields = {winners = {0}, reason = 'given', stats = {n = 2}}
  game:finish(setmetatable({losers = {1}}, {__index = function(_, key) return fields[key] end})))");
    CHECK(r.winners == std::vector<Seat>{Seat{0}});
    CHECK(r.losers == std::vector<Seat>{Seat{1}});
    CHECK(r.reason == "given");
    CHECK(r.stats.at("n") == 2.0);
  }
  SECTION("a list whose metamethods change the table before its next field is read") {
    const GameResult r = play(R"(
  local t = {reason = 'before'}
  t.winners = setmetatable({}, {__len = function() t.losers = {0}; t.reason = 'after'; return 1 end,
                                __index = function() return 1 end})
  game:finish(t))");
    CHECK(r.winners == std::vector<Seat>{Seat{1}});
    CHECK(r.losers == std::vector<Seat>{Seat{0}});
    CHECK(r.reason == "after");
  }
  SECTION("a list whose metamethods give the table a metatable") {
    const GameResult r = play(R"(
  local t = {}
  t.winners = setmetatable({}, {__len = function()
    setmetatable(t, {__index = function(_, key) if key == 'reason' then return 'through' end end})
    return 0
  end})
  game:finish(t))");
    CHECK(r.winners.empty());
    CHECK(r.reason == "through");
  }
  SECTION("the same errors either way") {
    for (const std::string& wrap : {std::string("t"), std::string("setmetatable(t, {})")}) {
      INFO(wrap);
      CHECK_THROWS_WITH(play("  local t = {winners = {0, 5}}\n  game:finish(" + wrap + ")"),
                        Catch::Contains("bad argument #1 to 'finish' (winners[2] is not a seat)"));
      CHECK_THROWS_WITH(play("  local t = {losers = 3}\n  game:finish(" + wrap + ")"),
                        Catch::Contains("field 'losers' must be a list of seats"));
      CHECK_THROWS_WITH(play("  local t = {reason = 7}\n  game:finish(" + wrap + ")"),
                        Catch::Contains("field 'reason' must be a string, got number"));
    }
  }
}

TEST_CASE("fast paths: game:player_name keeps names only while they are the game's", "[bindings][names]") {
  TempGame game(one_die_game_yaml("names", "Names"),
                rules_lua("  game:finish{summary = game:player_name(0) .. ',' .. game:player_name(1) .. ',' .. "
                          "game:player_name(1)}"));
  FirstAgent first;
  TwoSeats t(game, first);
  CHECK(t.match.play(2, 1).summary == "Player 1,Player 2,Player 2");
  CHECK(t.match.play(2, 1, {"Ann", "Bob"}).summary == "Ann,Bob,Bob");
  CHECK(t.match.play(2, 1, {"Ann", ""}).summary == "Ann,Player 2,Player 2");
  CHECK(t.match.play(2, 1).summary == "Player 1,Player 2,Player 2");
  CHECK(t.match.play(2, 1, {"Player 10", "Player"}).summary == "Player 10,Player,Player");
}

TEST_CASE("fast paths: game:choose checks a prompt it has not kept", "[bindings][prompt]") {
  TempGame game(one_die_game_yaml("prompt", "Prompt"), rules_lua(R"(
  local bad = 'bid \xff!'
  game:choose(0, bad, {1, 2})
  game:choose(1, bad, {1, 2})
  game:choose(0, 'fine', {1, 2})
  game:choose(0, 12, {1, 2})
  game:choose(0, bad, {1, 2})
  game:finish{})"));
  PromptAgent agent;
  TwoSeats t(game, agent);
  t.match.play(2, 1);
  const std::string repaired = "bid \xef\xbf\xbd!";
  CHECK(agent.prompts == std::vector<std::string>{repaired, repaired, "fine", "12", repaired});
  agent.prompts.clear();
  t.match.play(2, 1);  // the next game on the same engine
  CHECK(agent.prompts == std::vector<std::string>{repaired, repaired, "fine", "12", repaired});
}
