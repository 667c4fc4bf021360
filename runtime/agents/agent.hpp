#pragma once
// Agents answer decisions. The interface is all a future search bot or an
// external bot needs: a new game begins (with the agent's own stream seed,
// never the game's chance seed), events it may see arrive, a decision asks
// for an option index.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/decision.hpp"
#include "agents/seat_protocol.hpp"
#include "core/rng.hpp"

namespace rulebook {

// Plain records of the rules engine (lua/rule_engine.hpp), named here
// only as what GameAccess hands over: a seat's answer in a game's log, and
// the rules' limits (time, instructions, memory) a game runs under.
struct AnswerRecord;
struct EngineLimits;
class GameDefinition;  // core/game_definition.hpp

// The record of a game a seat sits in, as the runtime replays it: the
// definition, how it began (the chance seed included), every answer given
// (other seats' private ones included), the rules' limits, and -- the
// oracle's door -- its components' true identities. The runtime's only
// (the sampler, the oracle, the test-only cheater): a searching agent is
// handed a GameAccess, whose type reads none of it. Match implements it
// (play/match.hpp).
class TrueGame {
 public:
  // How the game began: with its definition, what a replay starts from.
  struct Beginning {
    int players = 0;
    uint64_t seed = 0;  // the chance seed: it says where components go, not which they are
    std::vector<std::string> names;
    // Code run before the rules play (scenarios' `prepare`): see GameRunSettings::prepare.
    std::string prepare_code, prepare_chunk;
    bool prepare_at_first_turn = false;
  };

  virtual ~TrueGame() = default;
  virtual std::shared_ptr<const GameDefinition> definition_ptr() const = 0;
  virtual Beginning beginning() const = 0;
  // Every answer given so far, in order (every seat's).
  virtual const std::vector<AnswerRecord>& answers() const = 0;
  // The forks run under the same limits, so a runaway script stops as soon there.
  virtual EngineLimits limits() const = 0;
  // CHEATING: the identity each component has in the true game, as start
  // identities (Match::set_start_identities).
  virtual std::vector<int> true_identities() const = 0;
};

class Determinizer;     // determinize/determinizer.hpp: the sampler, which replays the seat's game
struct OracleDoor;      // bots/search_agent.cpp: oracle=1, which cheats on purpose and says so
namespace test {
struct TruthDoor;       // tests/unit/support/truth_door.hpp: the no-peek tests' reference cheater
}

// What a searching agent (greedy, mcts, ismcts) is handed of the game it
// sits in: a sealed handle. Its type has no way to reach the chance seed,
// another seat's answer or a true identity: the record behind it is
// private, read only by the runtime's sampler (the Determinizer, which
// gives the agent worlds it cannot tell apart from the game), by the
// oracle's named door and by the tests' door. It is no Match, so no cast
// reaches the game either. A Match hands one to each agent that asks.
class GameAccess final {
 public:
  explicit GameAccess(const TrueGame& record) : record_(&record) {}
  // The rules: the seat may know them.
  std::shared_ptr<const GameDefinition> definition_ptr() const { return record_->definition_ptr(); }

 private:
  friend class Determinizer;
  friend struct OracleDoor;
  friend struct test::TruthDoor;
  const TrueGame* record_;
};

class Agent {
 public:
  virtual ~Agent() = default;
  virtual std::string kind() const = 0;
  // A new game starts. `stream_seed` seeds the agent's own randomness: it
  // is derived from the game's seed (agent_stream_seed) and is never the
  // seed of the game's chance, so no agent can rebuild a hidden deck order.
  virtual void begin_game(uint64_t /*stream_seed*/, Seat /*seat*/) {}
  // Called just before begin_game by a Match: the game's name, title,
  // players' names and options (what a seat outside the process is told).
  virtual void prepare_game(const seat_protocol::GameInfo& /*game*/) {}
  // Returns an index in [0, decision.count()). Throws AgentFailure when it
  // cannot answer. Or kPause: the decision stays pending and the game
  // pauses there, as for a seat without an agent (GameRun::begin and
  // answer return true); a search saves the paused game (GameCheckpoint).
  // Not in a simultaneous decision.
  virtual int choose(const Decision& decision) = 0;
  static constexpr int kPause = -2;
  // A simultaneous decision (game:choose_together; decision.together() is
  // not empty) asks every seat before any answer is read: first each asked
  // seat's agent is told its decision here, seat by seat in ascending
  // order, then choose() is called for each, in the same order, with the
  // same decision. An agent answered from outside the process (an exec
  // bot, a web page) sends the question now, so that every seat of the
  // group decides at the same time; the others need do nothing.
  virtual void asked_together(const Decision& /*decision*/) {}
  // An agent that answers at once (no search, no waiting: random, first,
  // scripted, a replay) says so: the rules' time budget is not paused for
  // its decisions, since a pause costs two reads of the thread's CPU clock,
  // a system call each, at every decision of every simulated game.
  virtual bool answers_at_once() const { return false; }
  // Agents that want them receive every event their seat may see, as
  // JSON already redacted for that seat (see observation/event_view.hpp).
  virtual bool wants_events() const { return false; }
  virtual void observe(const nlohmann::json& /*event*/) {}
  // Agents that search (greedy, mcts, ismcts) are given the game they play
  // in, before begin_game, to ask the runtime for determinizations.
  virtual bool wants_game_access() const { return false; }
  virtual void attach(const GameAccess* /*game*/) {}
  // The game is over; `result` as the log writes it (winners, scores, ...).
  // Sent by a Match to the agents that want events.
  virtual void end_game(const nlohmann::json& /*result*/) {}
  // An undo took decisions back: this seat keeps its first `kept_decisions`
  // decisions of the game and the game is where the next one is asked;
  // `view` is the seat's view there. Events it saw since are void.
  virtual void taken_back(int /*kept_decisions*/, const nlohmann::json& /*view*/) {}
};

// A bad agent specification (`--agent` kind unknown, answers file
// unreadable): found before any game starts, a usage error.
struct AgentSpecError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An agent could not answer during a game (a scripted agent ran out of
// answers, the terminal closed, a replay log disagrees): a game failure.
struct AgentFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The seed of a seat's agent stream in a game of seed `game_seed`. The
// game's chance is seeded from `game_seed` alone, so it never depends on
// this value, and agents are handed this value, never `game_seed`. It is
// derived with a one-way hash (SHA-256): knowing it, and the seat, gives
// no way back to `game_seed`.
uint64_t agent_stream_seed(uint64_t game_seed, Seat seat);

// Uniform over the options, each decision independent; its own stream.
class RandomAgent : public Agent {
 public:
  std::string kind() const override { return "random"; }
  void begin_game(uint64_t stream_seed, Seat) override { rng_.reseed(stream_seed, kAgentStream); }
  int choose(const Decision& d) override { return static_cast<int>(rng_.below(static_cast<uint32_t>(d.count()))); }
  bool answers_at_once() const override { return true; }

 private:
  Rng rng_;
};

class FirstAgent : public Agent {
 public:
  std::string kind() const override { return "first"; }
  int choose(const Decision&) override { return 0; }
  bool answers_at_once() const override { return true; }
};

// Answers from a list: each answer is an option label or a 1-based number.
class ScriptedAgent : public Agent {
 public:
  explicit ScriptedAgent(std::vector<std::string> answers, std::string source = "answers")
      : answers_(std::move(answers)), source_(std::move(source)) {}
  static std::unique_ptr<ScriptedAgent> from_file(const std::string& path);
  std::string kind() const override { return "scripted"; }
  void begin_game(uint64_t, Seat) override { next_ = 0; }
  int choose(const Decision& d) override;
  bool answers_at_once() const override { return true; }
  size_t remaining() const { return answers_.size() - next_; }

 private:
  std::vector<std::string> answers_;
  std::string source_;
  size_t next_ = 0;
};

// The bots this layer builds, which answer for every seat of a scenario
// alike (play/scenario.cpp): exactly "random", "first" or
// "scripted:FILE"; null for any other text, which the agent registry
// (agents/agent_registry.hpp, bots/agent_factory.hpp) checks and builds.
// Throws AgentSpecError for an unreadable answers file.
std::unique_ptr<Agent> make_bot(const std::string& spec);

// The options' labels, comma-separated, for messages.
std::string option_list(const Decision& d);

// Matches an answer (label, case-insensitive, or 1-based number) to an option.
int match_answer(const Decision& d, const std::string& answer);
// Matches a label only (case-insensitive): "1" is the option labelled "1".
int match_label(const Decision& d, const std::string& label);

}  // namespace rulebook
