#include "batch/game_tracer.hpp"

#include "analysis/game_metrics.hpp"

namespace rulebook::batch {

uint64_t seats_out(const GameState& state) {
  uint64_t out = 0;
  for (Seat s : Seat::all(state.player_count()))
    if (state.turns().eliminated(static_cast<int>(s.index()))) out |= uint64_t{1} << s.index();
  return out;
}

void GameTracer::begin(Match& match, int players) {
  match_ = &match;
  evaluates_ = match.engine().has_evaluation();
  told_apart_ = false;
  trace_.begin(players);
  values_.assign(static_cast<size_t>(players), 0.0);
}

void GameTracer::values_now() {
  const GameState& state = match_->state();
  for (Seat s : Seat::all(trace_.players()))
    values_[s.index()] = evaluates_ ? match_->evaluation(s).value_or(0.0) : state.player(s).score;
  if (!told_apart_)
    for (double v : values_) told_apart_ = told_apart_ || v != values_[0];
}

void GameTracer::before_decision(Seat seat) {
  if (!match_) return;
  values_now();
  const GameState& state = match_->state();
  trace_.add(static_cast<int>(seat.index()), state.turns().turns_played(), values_, seats_out(state));
}

void GameTracer::finish(const GameResult& result, analysis::GameStats& into) {
  if (!match_) return;
  uint64_t winners = 0;
  for (Seat w : result.winners) winners |= uint64_t{1} << w.index();
  if (evaluates_) {
    for (Seat s : Seat::all(trace_.players())) values_[s.index()] = outcome_share(result, s);
  } else {
    for (Seat s : Seat::all(trace_.players())) values_[s.index()] = match_->state().player(s).score;
  }
  trace_.add(-1, result.turns, values_, seats_out(match_->state()));
  trace_.finish(winners, result.turns);
  into.clear();
  analysis::add_trace_metrics(trace_, into, told_apart_ || evaluates_);
}

}  // namespace rulebook::batch
