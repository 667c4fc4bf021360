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
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "agents/decision.hpp"
#include "core/game_definition.hpp"
#include "core/game_state.hpp"
#include "core/ids.hpp"
#include "lua/engine_limits.hpp"
#include "lua/game_result.hpp"
#include "lua/game_run_settings.hpp"
#include "lua/line_coverage.hpp"
#include "lua/script_error.hpp"

namespace rulebook {

// The step API's pending decision (a DecisionRequest with the seat's view).
using PendingDecision = DecisionRequest;

class RuleEngine;

// A game paused at a decision, saved whole: its engine's Lua state (every
// byte of the state's heap: lua_heap.hpp), the run (its thread, pending
// decision, result so far) and the game's state, with the answers recorded
// up to there. GameRun::restore puts all of it back in place, exactly: a
// search plays many futures from one position without replaying the game
// to it. Filled by GameRun::save; only that run may restore it.
class GameCheckpoint {
 public:
  GameCheckpoint();
  ~GameCheckpoint();
  GameCheckpoint(GameCheckpoint&&) noexcept;
  GameCheckpoint& operator=(GameCheckpoint&&) noexcept;
  bool empty() const;
  // Bytes of the Lua heap it holds (what a restore copies back).
  size_t heap_bytes() const;

 private:
  friend class GameRun;
  std::unique_ptr<struct GameCheckpointImpl> impl_;
};

class GameRun {
 public:
  // `state` must have been reset() for this game; `agents` has one entry per
  // seat, null for seats whose decisions pause the game (the step API).
  // Compiles the settings' prepare code: throws ScriptError.
  GameRun(RuleEngine& engine, GameState& state, std::vector<Agent*> agents, const GameRunSettings& settings = {});
  ~GameRun();
  GameRun(const GameRun&) = delete;
  GameRun& operator=(const GameRun&) = delete;

  // Every answer given is appended here (for logs and forks); null = none.
  void set_answer_log(std::vector<AnswerRecord>* log);
  // Bare requests from the next decision on (GameRunSettings::bare_requests):
  // a fork replays its answers bare and reads the last request whole.
  void set_bare_requests(bool on);

  // The game under way goes on with `agents` at its seats (one per seat,
  // null: that seat pauses the game). What they hear of events stays as
  // begin() set it: agents handed a game mid-way (a search's replaying
  // agents, after the step API brought it to a decision) want none.
  void hand_over(const std::vector<Agent*>& agents);

  // Runs until a seat without an agent must decide (true) or the game is
  // over (false; see result()). Throws ScriptError / AgentFailure. A run
  // begins once, then waits at decisions and answers them until it is
  // over, a script error included: begin() on a run that has begun, and
  // answer() while no decision waits, throw std::logic_error.
  bool begin();
  // Answers the decision of the lowest seat still to answer.
  bool answer(int index);
  // Answers `seat`'s decision. A simultaneous decision (game:choose_together)
  // waits for several seats at once, answered in any order: the game goes
  // on once the last is in (until then this returns true with the others
  // still pending). Throws std::logic_error when `seat` has no decision
  // pending, std::out_of_range for an index that is no option.
  bool answer(Seat seat, int index);
  // The decision the game waits for from the lowest seat still to answer
  // (an empty request when none). Its labels, targets and view are built
  // on the first read, so a caller that only answers (a replay) never has
  // them built. Throws ScriptError when reading a label changes the game,
  // or rules.describe fails. Not for two threads at once.
  const DecisionRequest& pending() const;
  // `seat`'s pending decision, built the same way; throws std::logic_error
  // when the seat has none.
  const DecisionRequest& pending(Seat seat) const;
  // Who decides, without building the request (Seat::none(): nobody): the
  // lowest seat still to answer.
  Seat pending_seat() const;
  // Every seat the game waits for, ascending: one, or the seats of a
  // simultaneous decision that have not answered yet.
  std::vector<Seat> pending_seats() const;
  // The same, into `into` (its capacity kept: a search asks every simulation).
  void pending_seats(std::vector<Seat>& into) const;
  // The answers given so far to the simultaneous decision under way
  // (empty when none is): the true game's, which no seat may see. For the
  // runtime (undo's refusal) and for tests' cheating agents only.
  std::vector<AnswerRecord> together_answers() const;
  const GameResult& result() const;
  GameState& state();

  // Asks `decide` for `seat`'s pending decision the way an agent in the
  // game is asked (labels, view and targets read on demand, never built
  // whole), and returns its index unchecked; answer it with answer(). A
  // search decides its own position this way after restore().
  int decide_pending(Seat seat, const std::function<int(const Decision&)>& decide);
  // Saves the game, which waits at a decision, into `into` (its buffers
  // reused): see GameCheckpoint. Throws std::logic_error when no decision
  // waits. From then on the engine's heap keeps every chunk it has (a
  // restore needs them back), so a checkpoint is for one engine's search.
  void save(GameCheckpoint& into);
  // Puts the game, its engine's Lua state, its state and its answer log
  // back as save() left them. Throws std::logic_error for a checkpoint of
  // another run. Any other game on the same engine is lost with it: only
  // the saved run may have run on the engine since.
  void restore(const GameCheckpoint& from);
  // Whether `from` was saved by this run (the only one it may go back into).
  bool can_restore(const GameCheckpoint& from) const;

  // The rules' public data and the components, as `seat` may know them.
  nlohmann::json view(Seat seat) const;
  // Evaluates a Lua expression with `game` in scope, after (or during) the
  // game; returns its value as JSON. Throws ScriptError.
  nlohmann::json evaluate(const std::string& expression, const std::string& chunk_name);
  // The game's estimate of `seat`'s share of the win, in [0, 1]: once the
  // game is over, its payoff (seat_payoff: its return when the rules gave
  // returns, any scale; else outcome_share); before, rules.evaluate(game,
  // seat) when the rules define it, and nullopt when they do not. Runs in
  // the sandbox under the budget, on this run's state as it stands (a
  // search bot calls it on its determinized forks, never on the true
  // game). Throws ScriptError when evaluate fails, returns anything but a
  // number in [0, 1], or changes the game.
  std::optional<double> evaluation(Seat seat);
  // rules.evaluate for every seat (or only `only`), in one call under one
  // budget: the values by seat, as evaluation() gives them one by one.
  std::optional<std::vector<double>> evaluations(Seat only = Seat::none());
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
  // Compiles scenario code for GameRunSettings::prepare; throws ScriptError.
  void check_prepare(const std::string& code, const std::string& chunk_name);
  // Collects all garbage and gives back every byte of the heap no live
  // block needs (LuaHeap::trim: a checkpoint's pinned memory included),
  // for an engine kept to play others' games (engine_pool.hpp). No run may
  // be under way on it.
  void trim_memory();

 private:
  friend class GameRun;
  std::unique_ptr<struct EngineImpl> impl_;
};

// The Lua release the runtime is built with, e.g. "Lua 5.4.4".
const char* lua_version();

}  // namespace rulebook
