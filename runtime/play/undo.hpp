#pragma once
// Undo that cannot peek. A seat may take back its last decision and every
// decision after it, unless something was revealed to anybody since that
// decision: a chance outcome (a roll, a shuffle, the rules' math.random) or
// a component that some seat can see now and could not see then (a draw,
// a flip, a reveal, a peek, a card shown). Taking back such a decision
// would let a player decide again knowing what came of it.
//
// Generic, by replay: the game is played again from its seed with the
// recorded answers (the same seed and answers give the same game), the
// seats' knowledge is taken where the decision was asked and watched over
// every event after it. The terminal (`rulebook play`) and the web table
// both ask here.
#include <memory>
#include <string>
#include <vector>

#include "lua/rule_engine.hpp"
#include "play/position_service.hpp"

namespace rulebook {

class Match;

struct UndoCheck {
  bool allowed = false;
  // Refused: why, in words for the player ("a card was drawn since").
  std::string reason;
  // Allowed: the answers that stay; answers[keep] is the decision taken back
  // (keep == answers.size(): an answer to the simultaneous decision under way).
  size_t keep = 0;
  Seat seat;  // who asked
};

// "Ann takes back 2 decisions." (or "... takes back her answer.")
std::string undo_line(const std::string& player, size_t taken);

// Whether `seat` may take back its last decision of the game that
// `answers` (every answer so far, in order) played from `start`. Plays the
// game again on a fresh engine for `definition`. Throws ScriptError, and
// std::runtime_error if the answers do not replay.
//
// A simultaneous decision (game:choose_together) is taken back only while
// no other seat's answer to it is in: `together` holds the seats that have
// answered the one under way (Match::together_answers, and answers a page
// sent that the game has not read yet). When only `seat` has answered it,
// that answer is what is taken back (keep = answers.size(): the decision
// is asked again). A decision of the log answered with other seats at once
// is refused too.
UndoCheck check_undo(std::shared_ptr<const GameDefinition> definition, const EngineLimits& limits,
                     const ReplayStart& start, const std::vector<AnswerRecord>& answers, Seat seat,
                     const std::vector<Seat>& together = {});
// The same on an engine the caller keeps (one not running a game right now).
UndoCheck check_undo(std::shared_ptr<const GameDefinition> definition, RuleEngine& engine,
                     const ReplayStart& start, const std::vector<AnswerRecord>& answers, Seat seat,
                     const std::vector<Seat>& together = {});

// How many of the first `count` answers are `seat`'s.
int decisions_of(const std::vector<AnswerRecord>& answers, size_t count, Seat seat);

// Starts the game again on `match`, whose seats have no agents, and gives
// it the first `keep` answers: the match then pauses where answer `keep`
// was asked (true), or the game is over (false). Throws std::runtime_error
// (ReplayMismatch) if a different seat decides than the answers say. The
// position service's bring_to, under the name undo's callers know.
bool replay_answers(Match& match, const ReplayStart& start, const std::vector<AnswerRecord>& answers, size_t keep);

// Undo with agents at the seats (the terminal's play): each seat's agent is
// wrapped, and after rewind() the next game the match starts answers its
// first `keep` decisions from the recorded answers, quietly (the gated
// sinks hear nothing, the agents see nothing), then tells every agent what
// was taken back (Agent::taken_back) and lets them play on.
class Rewinder {
 public:
  Rewinder(Match& match, std::vector<Agent*> agents);
  ~Rewinder();
  // Puts the wrappers at the match's seats.
  void install();
  // A sink that hears nothing while answers are replayed.
  EventSink* gate(EventSink* sink);
  // The next game replays answers[0, keep) first.
  void rewind(std::vector<AnswerRecord> answers, size_t keep);
  bool replaying() const { return replaying_; }

 private:
  class SeatAgent;  // the wrapper at one seat
  class Gate;
  void finish();
  Match& match_;
  std::vector<Agent*> agents_;
  std::vector<std::unique_ptr<SeatAgent>> seats_;
  std::vector<std::unique_ptr<Gate>> gates_;
  std::vector<AnswerRecord> answers_;
  size_t keep_ = 0;
  LogReplayAgent replay_;  // answers the kept decisions, then hands each seat back to its agent
  bool replaying_ = false;
};

}  // namespace rulebook
