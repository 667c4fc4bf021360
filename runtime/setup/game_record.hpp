#pragma once
// Playing a game from a specification with a full log, and replaying a log
// to verify that every event comes out the same.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lua/rule_engine.hpp"
#include "setup/game_loader.hpp"

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

// The log object (see schemas/log.schema.json).
nlohmann::json make_log(const GameSpec& spec, const GameState& state, const GameResult& result,
                        const std::vector<AnswerRecord>& answers,
                        const std::vector<nlohmann::json>& events,
                        const std::vector<std::string>& agent_kinds);

// Answers decisions from a recorded list, checking that the same seats ask.
class ReplayAgent : public Agent {
 public:
  ReplayAgent(const std::vector<AnswerRecord>* answers, size_t* next) : answers_(answers), next_(next) {}
  std::string kind() const override { return "replay"; }
  void begin_game(uint64_t, int seat) override { seat_ = seat; }
  int choose(const Decision& d) override;

 private:
  const std::vector<AnswerRecord>* answers_;
  size_t* next_;
  int seat_ = -1;
};

struct ReplayReport {
  bool ok = false;
  size_t events = 0;
  std::string message;  // why it failed, naming the first difference
  std::string summary;  // the replayed result's summary, when ok
};

// Re-runs the game a log describes and checks every field of the log
// against the replay: game_name, names, agents (count and kinds), every
// answer (seat and index), every event and the result. The report names the
// first difference. Throws SetupError when the log does not follow its
// schema (check it against log.schema.json first).
ReplayReport replay_log(const nlohmann::json& log, const EngineLimits& limits = {});

}  // namespace rulebook
