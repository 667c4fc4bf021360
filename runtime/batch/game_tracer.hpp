#pragma once
// Follows a game as it is played and keeps its trace (analysis/game_trace.hpp)
// for the metrics of how it felt (analysis/game_metrics.hpp): before each
// decision, every seat's evaluation of the position -- the rules'
// rules.evaluate where the game gives it, else the scores -- the turn and
// the seats already out; the final position is valued by the returns where
// the rules give them. Costs no search: one protected call (rules.evaluate
// for every seat) per decision, nothing at all for a game without
// rules.evaluate (scores are read from the state).
#include <vector>

#include "analysis/game_trace.hpp"
#include "analysis/stat_tally.hpp"
#include "play/match.hpp"

namespace rulebook::batch {

class GameTracer {
 public:
  // A new game on `match` (the tracer reads it; it must outlive the game).
  // `search_evaluator`: a search agent's value estimates are on hand
  // (--evaluator); they value the positions of a game without
  // rules.evaluate (searched() is then true), in place of its scores.
  void begin(Match& match, int players, bool search_evaluator = false);
  // Whether this game's positions are valued by a search (see begin).
  bool searched() const { return match_ != nullptr && searched_; }
  // `seat` is asked to decide (its agent calls this before answering).
  // `searched_values`: with searched(), the search's value of the position
  // for every seat (bots/search_agent.hpp: search_root_values); null or
  // empty (the search found nothing) keeps the last position's values.
  void before_decision(Seat seat, const std::vector<double>* searched_values = nullptr);
  // The game is over: its final position, then the metrics into `into`.
  // Lead metrics (lead_changes, drama, decisiveness) only when the
  // evaluation ever told the seats apart: a game without rules.evaluate
  // that keeps no scores has no leader to follow.
  void finish(const GameResult& result, analysis::GameStats& into);
  const analysis::GameTrace& trace() const { return trace_; }
  bool active() const { return match_ != nullptr; }

 private:
  void values_now();  // fills values_ from the match
  Match* match_ = nullptr;
  bool evaluates_ = false;  // rules.evaluate or a search, else scores
  bool searched_ = false;   // a search agent's values (--evaluator)
  bool told_apart_ = false;
  analysis::GameTrace trace_;
  std::vector<double> values_;
};

// The seat whose return is highest, alone, as a bit (0: a tie, or none):
// the eventual winner of a game that names no winner but gives returns.
uint64_t sole_best(const std::vector<double>& returns);

// The seats out of the game (eliminated) as bits.
uint64_t seats_out(const GameState& state);

}  // namespace rulebook::batch
