#pragma once
// The bots' no-peek test on any game: a bot's choice at a seat's decision
// must not change between worlds the seat cannot tell apart. From a game
// played (its seed and every answer), other worlds are made by changing
// only what the seat may not know -- the identities of components it never
// saw, exchanged; the other seats' private answers that are no component,
// redrawn; at the seat's part of a simultaneous decision, the other seats'
// answers to it and their earlier ones it was not shown, redrawn (a world
// for that decision); the chance seed, which redraws every roll it did not see -- and
// each is kept for a decision only if the seat was shown exactly the same
// things up to it (every event, every question). The bot, with a fixed
// seed of its own, then answers that decision in both worlds.
// `rulebook check` runs it with ismcts (the "bots" test); the tests run it
// with every bot kind and with a bot that reads the true state.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agents/agent.hpp"
#include "lua/rule_engine.hpp"

namespace rulebook {

struct BotWorldsOptions {
  // A fresh bot of the kind under test (the same kind and budget each time).
  std::function<std::unique_ptr<Agent>()> make_bot;
  uint64_t bot_seed = 7;   // the bot's own stream, the same in every world
  int decisions = 2;       // the seat's decisions compared, spread over its game (first and last among them)
  int seeds = 6;           // other chance seeds tried
};

struct BotWorldsResult {
  int decisions_compared = 0;  // (decision, other world) pairs where the bot answered in both
  bool peeked = false;         // the bot chose differently in two worlds the seat cannot tell apart
  std::string where;           // "decision N of seat S (\"prompt\")"
  std::string message;
  int worlds_compared = 0;  // other worlds in which at least one decision was compared
  int worlds_skipped = 0;   // other worlds that showed the seat something else before every decision compared
};

// Seat `seat`'s decisions in the game of `seed` whose answers are `answers`
// (every seat's, in order). Plays on `engine` (reused, like the check's).
BotWorldsResult compare_bot_in_worlds(std::shared_ptr<const GameDefinition> definition, RuleEngine& engine,
                                      int players, uint64_t seed, const std::vector<AnswerRecord>& answers,
                                      Seat seat, const BotWorldsOptions& options);

}  // namespace rulebook
