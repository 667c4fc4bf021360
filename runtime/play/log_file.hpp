#pragma once
// The replay log (see schemas/log.schema.json): what it takes to play a
// game again (game, variants, overrides, players, seed, answers), its
// result and every event as JSON. Written deterministically, so the same
// game gives a byte-identical file.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lua/rule_engine.hpp"

namespace rulebook {

struct GameSpec {
  std::string game;  // name or folder, as the user gave it
  std::vector<std::string> variants;
  std::vector<std::string> sets;
  int players = 0;  // 0: the game's default
  uint64_t seed = 1;
  std::vector<std::string> names;
};

nlohmann::json result_json(const GameState& state, const GameResult& result);

// The log object.
nlohmann::json make_log(const GameSpec& spec, const GameState& state, const GameResult& result,
                        const std::vector<AnswerRecord>& answers,
                        const std::vector<nlohmann::json>& events,
                        const std::vector<std::string>& agent_kinds);

// Serialises a log object with one event per line (readable, diffable).
std::string dump_log(const nlohmann::json& log);

}  // namespace rulebook
