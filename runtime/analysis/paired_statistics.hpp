#pragma once
// Differences between two sides of a comparison played on common random
// numbers: game i of each side starts from the same seed, so the
// per-game differences (with - base) have a much smaller variance than two
// independent runs, and their mean gets a paired normal interval.
#include <vector>

#include "analysis/run_statistics.hpp"

namespace rulebook::analysis {

class PairedStatistics {
 public:
  explicit PairedStatistics(int players = 0);

  void add(const GameOutcome& base, const GameOutcome& with);
  void merge(const PairedStatistics& other);

  int players() const { return players_; }
  int64_t games() const { return turns_.count; }

  // 95% intervals of the mean difference, with - base.
  Interval turns() const { return turns_.mean(); }
  Interval decisions() const { return decisions_.mean(); }
  Interval win_rate(int seat) const { return wins_.at(seat).mean(); }
  Interval no_winner_rate() const { return no_winner_.mean(); }
  Interval shared_win_rate() const { return shared_wins_.mean(); }
  // A seat's advantage is its win rate minus the fair rate (the mean of
  // all seats' rates): this is the change of that, in rate units.
  Interval seat_advantage(int seat) const;

 private:
  int players_ = 0;
  Moments turns_, decisions_, no_winner_, shared_wins_;
  std::vector<Moments> wins_;
  std::vector<Moments> advantage_;  // scaled by players_ to stay integer
};

}  // namespace rulebook::analysis
