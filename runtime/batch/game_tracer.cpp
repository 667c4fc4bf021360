#include "batch/game_tracer.hpp"

#include <cmath>
#include <iterator>
#include <limits>

#include "analysis/game_metrics.hpp"

namespace rulebook::batch {

uint64_t seats_out(const GameState& state) {
  uint64_t out = 0;
  for (Seat s : Seat::all(state.player_count()))
    if (state.turns().eliminated(static_cast<int>(s.index()))) out |= uint64_t{1} << s.index();
  return out;
}

uint64_t sole_best(const std::vector<double>& returns) {
  int best = -1;
  bool tied = false;
  for (int s = 0; s < static_cast<int>(returns.size()); ++s) {
    if (best < 0 || returns[static_cast<size_t>(s)] > returns[static_cast<size_t>(best)]) {
      best = s;
      tied = false;
    } else if (returns[static_cast<size_t>(s)] == returns[static_cast<size_t>(best)]) {
      tied = true;
    }
  }
  return best < 0 || tied ? 0 : uint64_t{1} << best;
}

void GameTracer::begin(Match& match, int players, bool search_evaluator) {
  match_ = &match;
  searched_ = search_evaluator && !match.engine().has_evaluation();
  evaluates_ = match.engine().has_evaluation() || searched_;
  told_apart_ = false;
  trace_.begin(players);
  values_.assign(static_cast<size_t>(players), 0.0);
}

void GameTracer::values_now() {
  const GameState& state = match_->state();
  if (searched_) {
    // values_ already holds the search's (or the last position's).
  } else if (evaluates_) {
    // Every seat's in one call under one budget (rules.evaluate for each).
    if (const std::optional<std::vector<double>> all = match_->evaluations()) values_ = *all;
  } else {
    for (Seat s : Seat::all(trace_.players())) values_[s.index()] = state.player(s).score;
  }
  if (!told_apart_)
    for (double v : values_) told_apart_ = told_apart_ || v != values_[0];
}

void GameTracer::before_decision(Seat seat, const std::vector<double>* searched_values) {
  if (!match_) return;
  if (searched_ && searched_values && searched_values->size() == values_.size()) values_ = *searched_values;
  values_now();
  const GameState& state = match_->state();
  trace_.add(static_cast<int>(seat.index()), state.turns().turns_played(), values_, seats_out(state));
}

void GameTracer::finish(const GameResult& result, analysis::GameStats& into) {
  if (!match_) return;
  uint64_t winners = 0;
  for (Seat w : result.winners) winners |= uint64_t{1} << w.index();
  // The final position's value: the returns where the rules gave them (the
  // game's own payoff), else the share of the win on rules.evaluate's scale,
  // else the scores.
  if (!result.returns.empty()) {
    values_ = result.returns;
    if (winners == 0) winners = sole_best(result.returns);
  } else if (evaluates_) {
    for (Seat s : Seat::all(trace_.players())) values_[s.index()] = outcome_share(result, s);
  } else {
    for (Seat s : Seat::all(trace_.players())) values_[s.index()] = match_->state().player(s).score;
  }
  trace_.add(-1, result.turns, values_, seats_out(match_->state()));
  trace_.finish(winners, result.turns);
  // `into` keeps the last game's names: each metric this game gives
  // overwrites its entry, and only those it does not give are erased, so
  // a run allocates no map node nor name per metric per game.
  for (auto& [name, value] : into) value = std::numeric_limits<double>::quiet_NaN();
  analysis::add_trace_metrics(trace_, into, told_apart_ || evaluates_);
  for (auto it = into.begin(); it != into.end();) it = std::isnan(it->second) ? into.erase(it) : std::next(it);
}

}  // namespace rulebook::batch
