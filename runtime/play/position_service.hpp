#pragma once
// The position service: "bring this game to the decision where these
// answers leave it". Every place that needs a game again at a position
// (Match::fork, undo, replaying a log, the determinizer's saved decision,
// check's worlds) asks here, so "answer a prefix of a log, check that the
// seat asked is the one the log says, hand over" is written once:
//
// - `answer_check`: whether a logged answer answers a decision (the seat,
//   alone or together, an option it offers), in words when it does not;
// - `LogReplayAgent`: the one replaying agent, for games whose other seats
//   have agents (a log replayed with events, an undo with agents at the
//   seats): it answers every seat from the log up to `keep`, checked, then
//   hands each seat over to the agent given for it;
// - `bring_to`: the same with the step API (no agents: the game pauses at
//   every decision), stopping where answer `keep` is asked;
// - `PositionService`: a match of its own on an engine it alone uses, which
//   brings its game to a position by restoring its snapshot when it holds
//   that very position (same start, same answers) and by replaying
//   otherwise, saving the position it reached (GameCheckpoint: the Lua heap,
//   the run, the state) when one seat decides there.
//
// What it may see: the game's start (players, chance seed, names, prepare
// code) and the answers it is given. It is the runtime's, never a bot's:
// a bot reaches it only through the worlds it sampled itself.
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/agent.hpp"
#include "lua/rule_engine.hpp"

namespace rulebook {

class Match;

// What playing a game again from the start needs, besides its answers.
struct ReplayStart {
  int players = 0;
  uint64_t seed = 0;
  std::vector<std::string> names;
};

// Whether `a`, answer number `number` (1-based) of a log, answers decision
// `d`: "" when it does, else why not, in words ("log answer 3 was given by
// seat 1, but seat 0 is asked \"Bid?\"").
std::string answer_check(const AnswerRecord& a, size_t number, const Decision& d);
// The same as a yes or no, building no words (a search's hot path).
inline bool answers_decision(const AnswerRecord& a, const Decision& d) {
  return a.seat == d.seat() && a.index >= 0 && a.index < d.count() && (a.together != 0) == !d.together().empty();
}

// A place in a log being replayed: answers [0, keep) are given in order,
// each checked against the decision it answers (answers_decision). The
// core of every log replay: the one replaying agent's (below), the
// determinizer's seats' (which hand over to a search's policy), and the
// worlds of `rulebook check` (whose seats share one cursor).
struct LogCursor {
  const std::vector<AnswerRecord>* log = nullptr;
  size_t keep = 0, next = 0;
  bool replaying() const { return next < keep; }
  // The next logged answer, consumed, checked against `d`: its index, or
  // -1 when it does not answer `d` (last() is then the answer, to word why).
  int take(const Decision& d) {
    const AnswerRecord& a = (*log)[next++];
    return answers_decision(a, d) ? a.index : -1;
  }
  const AnswerRecord& last() const { return (*log)[next - 1]; }
  // The next logged answer, not consumed (a world that answers by label
  // reads it first: check's leak worlds).
  const AnswerRecord& peek() const { return (*log)[next]; }
};

// The one replaying agent: at every seat of a game, it answers from `log`
// (answers [0, keep)), each answer checked (answer_check; AgentFailure
// with its words otherwise), then hands each seat over to `after[seat]`
// (null or missing: AgentFailure "the log has no answer left"). While it
// replays, the seats' own agents hear nothing (it tells them nothing).
class LogReplayAgent : public Agent {
 public:
  LogReplayAgent() = default;
  LogReplayAgent(const std::vector<AnswerRecord>* log, size_t keep) { replay(log, keep); }
  // The next game answers log[0, keep) first.
  void replay(const std::vector<AnswerRecord>* log, size_t keep) { cursor_ = LogCursor{log, keep, 0}; }
  void hand_over_to(std::vector<Agent*> after) { after_ = std::move(after); }
  // Called once, just before the first decision after the replay is asked
  // of its seat's agent (the undo's news to the agents).
  void on_hand_over(std::function<void()> f) { on_hand_over_ = std::move(f); }
  bool replaying() const { return cursor_.replaying(); }
  size_t next() const { return cursor_.next; }

  std::string kind() const override { return "replay"; }
  bool answers_at_once() const override { return true; }
  void asked_together(const Decision& d) override;
  int choose(const Decision& d) override;
  // The agent a seat is handed over to (null: none).
  Agent* after(Seat seat) const { return seat.index() < after_.size() ? after_[seat.index()] : nullptr; }

 protected:
  LogCursor cursor_;  // the determinizer's seats read and move it too

 private:
  void handing_over();
  std::vector<Agent*> after_;
  std::function<void()> on_hand_over_;
};

// The answers do not retrace the game (bring_to): another seat decides, or
// the game is over before them.
struct ReplayMismatch : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Starts the game again on `match` (whose seats have no agents) and gives
// it answers [0, keep) through the step API: the match then waits where
// answer `keep` is asked (true) or the game is over (false). Only the last
// decision's request is built (the others are bare). Throws
// ReplayMismatch naming the first answer that does not retrace the game
// (another seat decides, or the game is over); ScriptError as the rules do.
bool bring_to(Match& match, const ReplayStart& start, const std::vector<AnswerRecord>& answers, size_t keep);

// A game of its own (a Match on an engine only it uses), brought to
// positions: restored from its snapshot when that holds the very position
// asked (the same start, prepare code and answers), replayed otherwise.
class PositionService {
 public:
  // `engine` must serve this service alone (a restore puts its whole Lua
  // state back) and outlive it.
  PositionService(std::shared_ptr<const GameDefinition> definition, RuleEngine& engine);
  ~PositionService();
  PositionService(const PositionService&) = delete;
  PositionService& operator=(const PositionService&) = delete;

  // The prepare code and turn limit of the games it brings (a scenario's).
  void follow(const Match& original);
  // Brings the game to where answers [0, keep) leave it (bring_to): true
  // when it waits at a decision there. A snapshot of the same position is
  // restored instead of a replay; a replay that reaches a decision saves
  // one (with `save`: a collection and a copy of the Lua heap) for the
  // next call.
  // `ready`, when given, is asked before a save (the game waits at the
  // position): it may hand the game over to agents and read what every
  // restore should find built; it answers whether to save at all.
  bool bring(const ReplayStart& start, const std::vector<AnswerRecord>& answers, size_t keep, bool save = true,
             const std::function<bool(Match&)>& ready = {});
  // Whether the last bring() restored the snapshot.
  bool last_restored() const { return restored_; }
  // Whether a snapshot is held (of the last position replayed).
  bool has_snapshot() const { return !snapshot_.empty(); }
  // Puts the snapshot back (the position the last replay reached) without
  // asking which: a search restores its decision before every simulation.
  // Throws std::logic_error when there is none.
  void restore();
  // The bytes of Lua heap a restore copies.
  size_t snapshot_bytes() const { return snapshot_.heap_bytes(); }
  // Forgets the snapshot (another game started on the match).
  void forget();
  Match& match() { return *match_; }

 private:
  std::unique_ptr<Match> match_;
  GameCheckpoint snapshot_;
  // The position the snapshot holds.
  ReplayStart at_start_;
  std::vector<AnswerRecord> at_answers_;
  std::string at_prepare_;
  bool restored_ = false;
};

}  // namespace rulebook
