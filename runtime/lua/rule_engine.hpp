#pragma once
// Runs a game's Lua rules against GameStates. One engine per game
// definition and worker: its Lua state is built once (scripts loaded,
// bindings registered, modules frozen) and reused for every game, which is
// what makes bulk simulation fast. This header does not expose Lua.
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/agent.hpp"
#include "core/game_definition.hpp"
#include "core/game_state.hpp"

namespace rulebook {

struct EngineLimits {
  uint64_t max_instructions = 0;           // exact count per game, 0 = none (costs a hook)
  size_t max_memory = 256u * 1024 * 1024;  // per Lua state, in bytes
  double max_seconds = 5.0;                // CPU time per run of the rules, 0 = none
};

// A rule script failed: message names the file and line, with a traceback.
struct ScriptError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An agent could not answer (a scripted agent ran out, the terminal closed).
struct AgentFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct AnswerRecord {
  int seat = 0;
  int index = 0;
};

struct GameResult {
  bool finished = false;  // game:finish was called
  bool stopped = false;   // stopped early by a turn limit (scenarios)
  std::vector<int> winners;
  std::vector<int> losers;
  std::string summary;
  // How the game ended, in the rules' own words ("dead-field"): games that
  // can end in several ways name the way, so statistics can count them.
  std::string reason;
  int turns = 0;
  nlohmann::json details = nlohmann::json::object();
};

// The lines of the rule scripts that ran, by chunk ("rules/x/rules.lua"):
// what mutation testing needs to know which scenarios reach a change.
struct LineCoverage {
  std::map<std::string, std::set<int>> lines;
  // The last chunk seen, so that the line hook rarely looks a name up.
  const void* last_source = nullptr;
  std::set<int>* last_lines = nullptr;
};

struct PendingDecision {
  int seat = -1;
  std::string prompt;
  std::vector<std::string> labels;
};

class RuleEngine {
 public:
  // Loads the game's scripts and variants. Throws ScriptError. With
  // `coverage`, every line that runs (loading included) is recorded there.
  RuleEngine(std::shared_ptr<const GameDefinition> definition, EngineLimits limits = {},
             LineCoverage* coverage = nullptr);
  ~RuleEngine();
  RuleEngine(const RuleEngine&) = delete;
  RuleEngine& operator=(const RuleEngine&) = delete;

  const GameDefinition& definition() const;
  // The methods scripts can call on each API object ("game", "zone",
  // "component", "board"), sorted: what the LuaLS definitions must cover.
  std::map<std::string, std::vector<std::string>> api_methods() const;

  // Plays a whole game; `agents` has one entry per seat. The state must
  // have been reset() for this game. Throws ScriptError / AgentFailure.
  GameResult play(GameState& state, const std::vector<Agent*>& agents);

  // Step by step: seats whose agent is null make the game pause at their
  // decisions; answer() resumes it. begin() and answer() return true while
  // a decision is pending, false once the game is over (see result()).
  bool begin(GameState& state, const std::vector<Agent*>& agents);
  bool answer(int index);
  const PendingDecision& pending() const;
  const GameResult& result() const;

  // Stop a game when turn N+1 would begin (0 = no limit).
  void set_turn_limit(int turns);
  // Every answer given is appended here (for logs and forks); null = none.
  void set_answer_log(std::vector<AnswerRecord>* log);
  // The rules' public data (game.state) and the components, as `seat` may
  // know them. Only valid while a game is loaded in the engine.
  nlohmann::json view(int seat) const;
  // Lua code run between the rules' setup and play, with `game` in scope
  // (scenarios use it to arrange a mid-game situation). Empty = none.
  void set_prepare(const std::string& code, const std::string& chunk_name);
  // Evaluates a Lua expression with `game` in scope, after (or during) a
  // game; returns its value as JSON. Throws ScriptError.
  nlohmann::json evaluate(const std::string& expression, const std::string& chunk_name);

 private:
  std::unique_ptr<struct EngineImpl> impl_;
};

// The Lua release the runtime is built with, e.g. "Lua 5.4.4".
const char* lua_version();

}  // namespace rulebook
