#pragma once
// A game played by random agents with its answers recorded: the played game
// that the worlds tests (check's and the bots') compare other worlds with.
#include <memory>
#include <vector>

#include "lua/rule_engine.hpp"
#include "play/match.hpp"
#include "core/game_definition.hpp"

namespace rulebook::test {

// The answers of a game random agents play on `engine` at `seed`.
inline std::vector<AnswerRecord> random_game_answers(const std::shared_ptr<const GameDefinition>& def,
                                                     RuleEngine& engine, int players, uint64_t seed) {
  Match match(def, engine);
  match.record_answers();
  for (Seat s : Seat::all(players)) match.set_agent(s, std::make_unique<RandomAgent>());
  match.play(players, seed);
  return match.answers();
}

}  // namespace rulebook::test
