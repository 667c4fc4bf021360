#pragma once
// Runs a game's Lua rules against GameStates. This header does not expose
// Lua.
//
// RuleEngine is one Lua state with the rules loaded: scripts run, bindings
// registered, modules frozen. Build one per game definition and worker and
// reuse it for every game: that is what makes bulk simulation fast.
//
// GameRun is one running game on an engine: its thread, its `game` table,
// its agents, its pending decision and its result. An engine may hold
// several runs at once (a search bot exploring forks); they share the
// rules' module-level locals, which are restored whenever a run begins, so
// rules keep per-game data in `game.state` as documented.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "agents/decision.hpp"
#include "core/game_definition.hpp"
#include "core/game_state.hpp"
#include "core/ids.hpp"

namespace rulebook {

struct EngineLimits {
  uint64_t max_instructions = 0;           // exact count per game, 0 = none (costs a hook)
  size_t max_memory = 256u * 1024 * 1024;  // per Lua state, in bytes
  double max_seconds = 5.0;                // CPU time per run of the rules, 0 = none

  bool operator==(const EngineLimits& o) const {
    return max_instructions == o.max_instructions && max_memory == o.max_memory && max_seconds == o.max_seconds;
  }
  bool operator!=(const EngineLimits& o) const { return !(*this == o); }
};

// A rule script failed: message names the file and line, with a traceback.
struct ScriptError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A rule script ran over a limit (its time or instruction budget, its
// memory cap): a ScriptError that cost the whole budget to find.
struct ScriptLimitError : ScriptError {
  using ScriptError::ScriptError;
};

struct AnswerRecord {
  Seat seat{0};
  int index = 0;
};

struct GameResult {
  bool finished = false;  // game:finish was called
  bool stopped = false;   // stopped early by a turn limit (scenarios)
  std::vector<Seat> winners;
  std::vector<Seat> losers;
  std::string summary;
  // How the game ended, in the rules' own words ("dead-field"): games that
  // can end in several ways name the way, so statistics can count them.
  std::string reason;
  int turns = 0;
  nlohmann::json details = nlohmann::json::object();
};

// A seat's share of a finished game's win: 1 for a sole winner, 1/k for
// each of k winners, 0 otherwise (a loss, or a game with no winner).
double outcome_share(const GameResult& result, Seat seat);

// The lines of the rule scripts that ran, by chunk ("rules/x/rules.lua"):
// what mutation testing needs to know which scenarios reach a change.
struct LineCoverage {
  std::map<std::string, std::set<int>> lines;
  // The last chunk seen, so that the line hook rarely looks a name up.
  const void* last_source = nullptr;
  std::set<int>* last_lines = nullptr;
};

// The step API's pending decision (a DecisionRequest with the seat's view).
using PendingDecision = DecisionRequest;

class RuleEngine;

class GameRun {
 public:
  // `state` must have been reset() for this game; `agents` has one entry per
  // seat, null for seats whose decisions pause the game (the step API).
  GameRun(RuleEngine& engine, GameState& state, std::vector<Agent*> agents);
  ~GameRun();
  GameRun(const GameRun&) = delete;
  GameRun& operator=(const GameRun&) = delete;

  // Stop the game when turn N+1 would begin (-1 = no limit; 0 = stop as
  // the first turn would begin, right after setup and the first deal).
  void set_turn_limit(int turns);
  // Every answer given is appended here (for logs and forks); null = none.
  void set_answer_log(std::vector<AnswerRecord>* log);
  // Bare requests: a paused decision has its seat, prompt and number of
  // options, but empty labels and no view, even when read (no label, view
  // or JSON is built). For replaying answers chosen already (Match::fork);
  // off by default. (A request nobody reads is never built either way.)
  void set_bare_requests(bool on);
  // Off: game:finish still checks that its details convert to JSON (the
  // same error when they do not), but keeps none: result().details stays
  // empty. For callers that read only winners, turns and reason
  // (simulate). On by default.
  void set_keep_details(bool on);
  // Lua code run between the rules' setup and play, with `game` in scope
  // (scenarios use it to arrange a mid-game situation). Empty = none.
  // With `at_first_turn`, it runs instead as the first turn begins: after
  // `play` has dealt, so a mid-round situation can be arranged.
  void set_prepare(const std::string& code, const std::string& chunk_name, bool at_first_turn = false);

  // Runs until a seat without an agent must decide (true) or the game is
  // over (false; see result()). Throws ScriptError / AgentFailure.
  bool begin();
  bool answer(int index);
  // The decision the game waits for. Its labels, targets and view are
  // built on the first read, so a caller that only answers (a replay)
  // never has them built. Throws ScriptError when reading a label changes
  // the game, or rules.describe fails. Not for two threads at once.
  const DecisionRequest& pending() const;
  // Who decides, without building the request (Seat::none(): nobody).
  Seat pending_seat() const;
  const GameResult& result() const;
  GameState& state();

  // The rules' public data and the components, as `seat` may know them.
  nlohmann::json view(Seat seat) const;
  // Evaluates a Lua expression with `game` in scope, after (or during) the
  // game; returns its value as JSON. Throws ScriptError.
  nlohmann::json evaluate(const std::string& expression, const std::string& chunk_name);
  // The game's estimate of `seat`'s share of the win, in [0, 1]: once the
  // game is over, its outcome (outcome_share); before, rules.evaluate(game,
  // seat) when the rules define it, and nullopt when they do not. Runs in
  // the sandbox under the budget, on this run's state as it stands (a
  // search bot calls it on its determinized forks, never on the true
  // game). Throws ScriptError when evaluate fails, returns anything but a
  // number in [0, 1], or changes the game.
  std::optional<double> evaluation(Seat seat);
  // The game's sampling hint for search bots: rules.deal_unseen(game, seat,
  // unseen) with `unseen` as component handles, on this run's state as it
  // stands (a search bot's determinized game, stopped at the seat's
  // decision). Returns the components it answered, in its order (the
  // caller checks that they are a permutation of `unseen`). Runs in the
  // sandbox under the budget, with math.random drawn from `stream_seed`;
  // throws ScriptError when it fails, returns anything but a list of
  // #unseen components, or changes the game.
  std::vector<int> deal_unseen(Seat seat, const std::vector<int>& unseen, uint64_t stream_seed);

 private:
  friend class RuleEngine;
  std::unique_ptr<struct GameRunImpl> impl_;
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
  // The limits its games run under.
  EngineLimits limits() const;
  // The methods scripts can call on each API object ("game", "zone",
  // "component", "board"), sorted: what the LuaLS definitions must cover.
  std::map<std::string, std::vector<std::string>> api_methods() const;
  // The rules define rules.evaluate(game, seat) (see GameRun::evaluation).
  bool has_evaluation() const;
  // The rules define rules.deal_unseen(game, seat, unseen) (GameRun::deal_unseen).
  bool has_deal_unseen() const;
  // Compiles scenario code for GameRun::set_prepare; throws ScriptError.
  void check_prepare(const std::string& code, const std::string& chunk_name);

 private:
  friend class GameRun;
  std::unique_ptr<struct EngineImpl> impl_;
};

// The Lua release the runtime is built with, e.g. "Lua 5.4.4".
const char* lua_version();

}  // namespace rulebook
