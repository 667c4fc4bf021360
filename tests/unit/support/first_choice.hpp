#pragma once
// The first answer a bot gives at seat 0 of a two-seat inline game, seat 1
// playing at random: what the bots' tests of a single decision look at.
#include <catch2/catch.hpp>

#include <string>

#include "bots/agent_factory.hpp"
#include "inline_game.hpp"
#include "play/match.hpp"
#include "setup/game_loader.hpp"

namespace rulebook::test {

// Seat 0's first answer (its option's index) with the agent `spec` at `seed`.
inline int first_choice(const std::shared_ptr<const GameDefinition>& def, const std::string& spec, uint64_t seed) {
  Match match(def);
  auto bot = build_agent(spec);
  RandomAgent other;
  match.set_agent(Seat{0}, bot.get());
  match.set_agent(Seat{1}, &other);
  match.record_answers();
  match.play(2, seed);
  REQUIRE(!match.answers().empty());
  REQUIRE(match.answers()[0].seat == Seat{0});
  return match.answers()[0].index;
}

// The same on the game written out as `yaml` and `lua`.
inline int first_choice(const std::string& yaml, const std::string& lua, const std::string& spec, uint64_t seed) {
  TempGame game(yaml, lua);
  return first_choice(load_game(game.dir()), spec, seed);
}

}  // namespace rulebook::test
