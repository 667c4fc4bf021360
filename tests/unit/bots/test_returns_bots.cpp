// The search bots maximise the seat's expected return when the game gives
// returns (game:finish returns), not its share of the win.
#include <catch2/catch.hpp>

#include "first_choice.hpp"
#include "inline_game.hpp"

#include "bots/agent_factory.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;

namespace {

const std::string kYaml = test::one_die_game_yaml("payoffs", "Payoffs");

// Seat 0 picks: 'win' makes it the winner for a return of 1; 'rich' makes
// seat 1 the winner but pays seat 0 `rich`. The game ends at once, so
// that greedy, one decision deep, sees the outcome too.
std::string rules_paying(const std::string& rich, bool with_returns) {
  const std::string returns_win = with_returns ? ", returns = {1, -1}" : "";
  const std::string returns_rich = with_returns ? ", returns = {" + rich + ", -(" + rich + ")}" : "";
  return "local rules = {}\n"
         "function rules.setup(game) end\n"
         "function rules.play(game)\n"
         "  local _, i = game:choose(0, 'pick', {'win', 'rich'})\n"
         "  if i == 1 then return game:finish{winners = {0}" + returns_win + "} end\n"
         "  return game:finish{winners = {1}" + returns_rich + "}\n"
         "end\n"
         "return rules\n";
}

int first_choice(const std::string& lua, const std::string& spec, uint64_t seed) {
  return test::first_choice(kYaml, lua, spec, seed);
}

}  // namespace

TEST_CASE("bots: with returns each search bot takes the richer option over the win", "[returns][bots]") {
  for (const std::string spec : {"greedy", "mcts:iterations=200", "ismcts:iterations=200"}) {
    INFO(spec);
    for (uint64_t seed : {1, 2, 3}) {
      // Without returns the win is all there is.
      CHECK(first_choice(rules_paying("5", false), spec, seed) == 0);
      // With returns, 5 chips beat a win worth 1; returns far beyond [0, 1].
      CHECK(first_choice(rules_paying("5", true), spec, seed) == 1);
      CHECK(first_choice(rules_paying("50", true), spec, seed) == 1);
      // Both below -1 (the greedy rollout's old floor): the lesser loss.
      CHECK(first_choice("local rules = {}\nfunction rules.setup(game) end\nfunction rules.play(game)\n"
                         "  local _, i = game:choose(0, 'pick', {'worse', 'bad'})\n"
                         "  return game:finish{winners = {1}, returns = {i == 1 and -9 or -3, 0}}\nend\nreturn rules\n",
                         spec, seed) == 1);
    }
  }
}

TEST_CASE("bots: mcts keeps exploring when returns are far from [0, 1]", "[returns][bots]") {
  // 'steady' pays 40 always; 'gamble' pays 0 or 210 by seat 1's pick (seat
  // 1 earns nothing either way, so it has no preference), 105 on average.
  // With UCB's means in the range seen, ismcts explores both and finds the
  // gamble; with raw means (a scale of 210 against c = 1.41) a first 0
  // would leave the gamble unexplored for good.
  const std::string lua = "local rules = {}\nfunction rules.setup(game) end\nfunction rules.play(game)\n"
                          "  local _, i = game:choose(0, 'pick', {'steady', 'gamble'})\n"
                          "  local _, j = game:choose(1, 'then', {'x', 'y'})\n"
                          "  local r = i == 1 and 40 or (j == 1 and 0 or 210)\n"
                          "  return game:finish{winners = {}, returns = {r, 0}}\nend\nreturn rules\n";
  int gamble = 0;
  for (uint64_t seed = 1; seed <= 5; ++seed) gamble += first_choice(lua, "ismcts:iterations=2000", seed);
  CHECK(gamble >= 4);
}

TEST_CASE("bots: others=random models the other seats as random players", "[returns][bots]") {
  // 'dare' lets seat 1 punish (-3 for seat 0) or spare (+5): a searching
  // opponent punishes, so daring is worth -3 and 'safe' (0) is better; a
  // random one spares half the time, so daring is worth +1.
  const std::string lua = "local rules = {}\nfunction rules.setup(game) end\nfunction rules.play(game)\n"
                          "  local _, i = game:choose(0, 'pick', {'safe', 'dare'})\n"
                          "  if i == 1 then return game:finish{winners = {}, returns = {0, 0}} end\n"
                          "  local _, j = game:choose(1, 'answer', {'punish', 'spare'})\n"
                          "  local r = j == 1 and -3 or 5\n"
                          "  return game:finish{winners = {}, returns = {r, -r}}\nend\nreturn rules\n";
  for (const std::string kind : {"ismcts", "mcts"})
    for (uint64_t seed : {1, 2, 3}) {
      INFO(kind << " seed " << seed);
      CHECK(first_choice(lua, kind + ":iterations=500", seed) == 0);
      CHECK(first_choice(lua, kind + ":iterations=500,others=random", seed) == 1);
    }
}
