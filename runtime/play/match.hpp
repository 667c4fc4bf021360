#pragma once
// A match: one game in progress with everything wired to it -- the
// definition, the state, the rules engine, an agent per seat, the answer
// log and the event sinks. Every place that plays a game (rulebook play,
// simulate, replay, scenarios, the step API, the conformance suite) goes
// through it, so a search bot, a protocol or a server adds a kind of seat
// or a sink, not another hand-wired game loop.
//
// Seats with an agent are answered on the spot; a seat without one makes
// the game pause (start()/answer() return true) with a serialisable
// DecisionRequest in pending(). The engine may be borrowed (a worker's, to
// play many games on one Lua state) or owned.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/agent.hpp"
#include "core/event_tee.hpp"
#include "core/game_state.hpp"
#include "lua/rule_engine.hpp"

namespace rulebook {

class Match : public TrueGame {
 public:
  // Plays on a worker's engine (it must outlive the match).
  Match(std::shared_ptr<const GameDefinition> definition, RuleEngine& engine);
  // Loads its own engine. Throws ScriptError.
  explicit Match(std::shared_ptr<const GameDefinition> definition, const EngineLimits& limits = {});
  ~Match();
  Match(const Match&) = delete;
  Match& operator=(const Match&) = delete;

  // Seats, sinks and settings, for the games started afterwards. The
  // settings each game runs with are one value (settings()), which the
  // setters below fill in.
  void set_agent(Seat seat, Agent* agent);                  // borrowed; null: the seat pauses the game
  void set_agent(Seat seat, std::unique_ptr<Agent> agent);  // owned by the match
  void set_agents(const std::vector<Agent*>& agents);       // borrowed, one per seat
  void add_sink(EventSink* sink);                           // events of every game, in order
  void clear_sinks();
  void set_chance_override(ChanceOverride* chance);
  void set_turn_limit(int turns);  // GameRunSettings::turn_limit
  // GameRunSettings::prepare. Throws ScriptError (checked now, before any game).
  void set_prepare(const std::string& code, const std::string& chunk_name, bool at_first_turn = false);
  void record_answers(bool on = true);  // keep every answer given (answers())
  void set_keep_details(bool on);       // GameRunSettings::keep_details
  // GameRunSettings::bare_requests, for the next games and the game under
  // way (a replay builds no request but its last: play/position_service.hpp).
  void set_bare_requests(bool on);
  // Component identities at the start of the next games: component i
  // starts as the type (and first face) of component source[i], in its own
  // start zone. Empty: as the definition says. Determinizations and the
  // no-peek tests permute identities the seat never observed this way.
  void set_start_identities(std::vector<int> source);

  // Starts a new game and runs it until a seat without an agent must decide
  // (true: see pending(), then answer()) or it is over (false: result()).
  // Throws ScriptError / AgentFailure.
  bool start(int players, uint64_t seed, std::vector<std::string> names = {});
  // Answers the lowest seat still to answer (GameRun::answer).
  bool answer(int index);
  // Answers `seat`'s decision: a simultaneous decision's seats answer in
  // any order, and the game goes on once the last is in (GameRun::answer).
  bool answer(Seat seat, int index);
  // A whole game with an agent at every seat (throws std::invalid_argument
  // otherwise).
  const GameResult& play(int players, uint64_t seed, std::vector<std::string> names = {});

  // The game so far, again, on the same engine (no new Lua state; the
  // engine must outlive the fork): a new match with this one's seed,
  // players, names, turn limit and prepare code replays
  // this game's answers and stops where this one is. Its seats have no
  // agents (every decision pauses: answer it, or give its seats agents for
  // the next game) and no sinks; it records its answers, so it can be
  // forked again. The replay builds no labels or views but for the last
  // decision. Needs record_answers() before start(); throws
  // std::logic_error otherwise, with a chance override (scenarios' forced
  // dice are used up as they play), or if the replay does not retrace the
  // game (rules that are not deterministic).
  std::unique_ptr<Match> fork() const;

  // Checkpoints (GameCheckpoint): the game, waiting at a decision, saved
  // whole and put back in place as often as wanted, exactly, without a
  // replay. A search saves its position once and restores it before every
  // simulation. Restoring also restores the engine's Lua state, so the
  // engine must serve this match alone (not a worker's shared one), and
  // start() makes the checkpoint useless (a new run). Throws
  // std::logic_error when no decision waits, or for another run's
  // checkpoint.
  void save(GameCheckpoint& into);
  void restore(const GameCheckpoint& from);
  // Whether `from` is of the game under way (restore would take it).
  bool can_restore(const GameCheckpoint& from) const { return run_ && run_->can_restore(from); }
  // The game under way goes on with `agents` at its seats (one per seat,
  // null: the seat pauses the game): a game the position service brought
  // to a decision by the step API is handed over to the agents that play
  // it from there (GameRun::hand_over). The next games keep set_agents'.
  void hand_over(const std::vector<Agent*>& agents);
  // Asks `decide` for `seat`'s pending decision as an agent would be asked
  // (GameRun::decide_pending); answer it with answer(seat, index).
  int decide_pending(Seat seat, const std::function<int(const Decision&)>& decide);

  const DecisionRequest& pending() const;  // built on first read (GameRun::pending)
  const DecisionRequest& pending(Seat seat) const;  // that seat's (GameRun::pending)
  Seat pending_seat() const;               // who decides (the lowest seat waited for), building nothing
  std::vector<Seat> pending_seats() const;  // every seat the game waits for
  void pending_seats(std::vector<Seat>& into) const;  // the same, into a kept buffer
  // The answers given so far to the simultaneous decision under way: the
  // true game's, which no seat may see (GameRun::together_answers).
  std::vector<AnswerRecord> together_answers() const;
  const GameResult& result() const;
  const std::vector<AnswerRecord>& answers() const override { return answers_; }
  GameState& state() { return state_; }
  const GameState& state() const { return state_; }
  const GameDefinition& definition() const { return *definition_; }
  std::shared_ptr<const GameDefinition> definition_ptr() const override { return definition_; }
  RuleEngine& engine() { return *engine_; }
  EngineLimits limits() const override { return engine_->limits(); }
  // TrueGame: how the current game began, and (cheating) its components' identities.
  Beginning beginning() const override;
  std::vector<int> true_identities() const override;
  const GameRunSettings& settings() const { return settings_; }
  const std::string& prepare_code() const { return settings_.prepare.code; }
  const std::string& prepare_chunk() const { return settings_.prepare.chunk_name; }
  bool prepare_at_first_turn() const { return settings_.prepare.at_first_turn; }
  ChanceOverride* chance_override() const { return chance_; }

  // The game as `seat` may know it (the rules' game.state included).
  nlohmann::json view(Seat seat) const;
  // A Lua expression with `game` in scope, after or during the game.
  nlohmann::json evaluate(const std::string& expression, const std::string& chunk_name);
  // The game's estimate of `seat`'s share of the win (GameRun::evaluation).
  std::optional<double> evaluation(Seat seat);
  // Every seat's, in one call under one budget (GameRun::evaluations).
  std::optional<std::vector<double>> evaluations();
  // The game's sampling hint (GameRun::deal_unseen), on this game as it stands.
  std::vector<int> deal_unseen(Seat seat, const std::vector<int>& unseen, uint64_t stream_seed);

 private:
  GameRun& run() const;
  // Tells the agents that want events that the game is over (when it is).
  bool after_run(bool pending);

  std::shared_ptr<const GameDefinition> definition_;
  std::unique_ptr<RuleEngine> owned_engine_;
  RuleEngine* engine_;
  GameState state_;
  std::vector<Agent*> agents_;
  std::vector<std::unique_ptr<Agent>> owned_agents_;
  std::vector<EventSink*> sinks_;
  EventTee tee_;
  ChanceOverride* chance_ = nullptr;  // set on the state: dice and decks read it there
  GameRunSettings settings_;
  bool record_answers_ = false;
  std::vector<int> start_identities_;
  std::vector<AnswerRecord> answers_;
  int players_ = 0;  // the current game's start (for fork)
  uint64_t seed_ = 0;
  std::vector<std::string> names_;
  std::unique_ptr<GameRun> run_;
  GameAccess access_{*this};  // what searching agents are handed (attach): sealed
  seat_protocol::GameInfo info_;  // what prepare_game tells the agents, rebuilt when names change
  int info_players_ = -1;
  std::vector<std::string> info_names_;
};

}  // namespace rulebook
