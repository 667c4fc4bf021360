// greedy: one decision deep, the best by the game's evaluation, on its
// seat's determinized game.
#include <catch2/catch.hpp>

#include "first_choice.hpp"
#include "inline_game.hpp"

#include "bots/agent_factory.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

using namespace rulebook;

namespace {

const std::string kYaml = test::one_die_game_yaml("choosy", "Choosy");

// Seat 0 picks among options; `after` runs with the chosen index `i`.
std::string rules_with(const std::string& options, const std::string& after, const std::string& evaluate = "") {
  return "local rules = {}\n"
         "function rules.setup(game) game.state.score = 0 end\n"
         "function rules.play(game)\n"
         "  local _, i = game:choose(0, 'pick', " + options + ")\n" + after +
         "\n  game:choose(1, 'then', {'x', 'y'})\n"
         "  game:finish{winners = {game.state.score > 0 and 0 or 1}}\n"
         "end\n" + evaluate + "\nreturn rules\n";
}

int greedy_choice(const std::string& lua, uint64_t seed) { return test::first_choice(kYaml, lua, "greedy", seed); }

}  // namespace

TEST_CASE("greedy takes the option that ends the game in its favour", "[greedy]") {
  // Option 3 wins at once; the others go on (and, without evaluate, look alike).
  const std::string lua = rules_with("{'a', 'b', 'win', 'd'}",
                                     "  if i == 3 then return game:finish{winners = {0}} end");
  for (uint64_t seed : {1, 2, 3, 4, 5}) CHECK(greedy_choice(lua, seed) == 2);
}

TEST_CASE("greedy keeps the best option by rules.evaluate", "[greedy]") {
  const std::string lua = rules_with("{'one', 'three', 'two'}", "  game.state.score = ({1, 3, 2})[i]",
                                     "function rules.evaluate(game, seat)\n"
                                     "  local v = game.state.score / 4\n"
                                     "  return seat == 0 and v or 1 - v\n"
                                     "end");
  for (uint64_t seed : {1, 2, 3}) CHECK(greedy_choice(lua, seed) == 1);
}

TEST_CASE("greedy breaks ties with its own stream, the same for the same seed", "[greedy]") {
  const std::string lua = rules_with("{'a', 'b', 'c', 'd', 'e', 'f'}", "");
  std::set<int> seen;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const int first = greedy_choice(lua, seed);
    CHECK(greedy_choice(lua, seed) == first);
    seen.insert(first);
  }
  CHECK(seen.size() > 1);
}

TEST_CASE("greedy reports a failing evaluation", "[greedy]") {
  const std::string lua = rules_with("{'a', 'b'}", "", "function rules.evaluate(game, seat) return 7 end");
  CHECK_THROWS_WITH(greedy_choice(lua, 1), Catch::Contains("rules.evaluate(game, 0) returned 7"));
}

TEST_CASE("rollout=greedy: a search whose rollouts look one decision deep sees the trap random rollouts miss",
          "[greedy][search]") {
  // 'trap' lets seat 1 win with one answer in ten (seat 0 wins otherwise),
  // after a decision that changes nothing (so that the answer is played by
  // rollouts, not the tree, at this budget); 'coin' is an even chance.
  // Random rollouts rate the trap 0.9, greedy rollouts (seat 1 looks at
  // each answer) 0.
  const std::string lua =
      "local rules = {}\n"
      "function rules.setup(game) end\n"
      "function rules.play(game)\n"
      "  local _, i = game:choose(0, 'pick', {'trap', 'coin'})\n"
      "  if i == 1 then\n"
      "    game:choose(1, 'wait', {'p', 'q', 'r', 's', 't', 'u'})\n"
      "    local _, j = game:choose(1, 'answer', {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'})\n"
      "    return game:finish{winners = {j == 7 and 1 or 0}}\n"
      "  end\n"
      "  game:finish{winners = {math.random(2) == 1 and 0 or 1}}\n"
      "end\n"
      "return rules\n";
  test::TempGame game(kYaml, lua);
  auto def = load_game(game.dir());
  const auto first_choice = [&](const std::string& spec, uint64_t seed) { return test::first_choice(def, spec, seed); };
  for (uint64_t seed : {1, 2, 3}) {
    CHECK(first_choice("ismcts:iterations=30,c=0.3,rollout=greedy", seed) == 1);
    CHECK(first_choice("mcts:iterations=30,c=0.3,rollout=greedy", seed) == 1);
    // The same seed, the same choice (the look-ahead draws nothing).
    CHECK(first_choice("ismcts:iterations=30,c=0.3,rollout=greedy", seed) ==
          first_choice("ismcts:iterations=30,c=0.3,rollout=greedy", seed));
  }
  // Random rollouts fall for it at this budget (fixed seeds: the same games every run).
  int trapped = 0;
  for (uint64_t seed : {1, 2, 3}) trapped += first_choice("ismcts:iterations=30,c=0.3", seed) == 0;
  CHECK(trapped >= 2);
}
