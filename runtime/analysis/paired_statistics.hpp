#pragma once
// Differences between two sides of a comparison played on common random
// numbers: game i of each side starts from the same seed, so the
// per-game differences (with - base) have a much smaller variance than two
// independent runs. Rates get the paired intervals of paired_intervals.hpp
// (exact McNemar, Tango's score interval), means a paired t interval, and
// unfairness a paired bootstrap over the games' winners.
#include <map>
#include <string>
#include <vector>

#include "analysis/paired_intervals.hpp"
#include "analysis/run_statistics.hpp"

namespace rulebook::analysis {

class PairedStatistics {
 public:
  explicit PairedStatistics(int players = 0);

  // `index`: the game's index in the run (orders the kept winners, so that
  // the bootstrap does not depend on how workers split the games).
  void add(const GameOutcome& base, const GameOutcome& with, int64_t index = -1);
  void merge(const PairedStatistics& other);

  int players() const { return players_; }
  int64_t games() const { return turns_.moments.count; }

  // 95% intervals of the mean difference, with - base.
  Difference turns() const { return turns_.difference(); }
  Difference decisions() const { return decisions_.difference(); }
  Difference win_rate(int seat) const { return rate(wins_.at(static_cast<size_t>(seat))); }
  Difference no_winner_rate() const { return rate(no_winner_); }
  Difference shared_win_rate() const { return rate(shared_wins_); }
  // A seat's advantage is its win rate minus the fair rate (the mean of
  // all seats' rates): this is the change of that, in rate units.
  Difference seat_advantage(int seat) const;
  // The change of the game's unfairness (fairness.hpp), with - base.
  Difference unfairness(uint64_t seed) const;
  // A game's own statistic (game:finish stats), with - base, over the
  // games whose both sides gave it (games: 0 when none did).
  Difference stat(const std::string& name) const;
  // Whether a statistic's values are too large for a paired difference:
  // some game's two finite values differ by more than a double holds
  // (1.7e308 and -1.7e308), or the differences' spread does. stat() then
  // gives no meaningful interval; a report says so by the statistic's name.
  bool stat_too_large(const std::string& name) const;
  // The statistics some game of both sides gave, by name: per-game differences.
  const StatTallies& stat_differences() const { return stat_differences_; }
  // A metric of how the game felt (game_metrics.hpp), with - base, likewise.
  Difference metric(const std::string& name) const;
  const StatTallies& metric_differences() const { return metric_differences_; }
  // A seat's return (game:finish returns), with - base, over the games
  // whose both sides gave returns (games: 0 when none did).
  Difference seat_return(int seat) const;
  bool has_returns() const { return !return_differences_.empty(); }
  // Skill: the mean win rate of `seats` (whose agents differ between the
  // sides) with the "with" agents minus with the "base" agents.
  Difference win_rate_of(const std::vector<int>& seats) const;

 private:
  struct Figure {
    Moments moments;
    int64_t differing = 0;
    void add(int64_t d) {
      moments.add(d);
      differing += d != 0 ? 1 : 0;
    }
    void merge(const Figure& o) {
      moments.merge(o.moments);
      differing += o.differing;
    }
    Difference difference() const {
      return paired_mean_difference(moments.count, static_cast<double>(moments.sum),
                                    static_cast<double>(moments.sum_squares), differing);
    }
  };
  struct Winners {
    int64_t index;
    uint64_t base, with;
  };
  static Difference rate(const Figure& f);
  std::vector<Winners> sorted_winners() const;

  int players_ = 0;
  Figure turns_, decisions_, no_winner_, shared_wins_;
  std::vector<Figure> wins_;
  std::vector<Figure> advantage_;  // scaled by players_ to stay integer
  std::vector<Winners> winners_;   // each game's, for unfairness and skill
  StatTallies stat_differences_;   // by name: with - base, per game
  StatTallies metric_differences_;  // likewise
  // By name: the games whose difference is past the largest double (kept
  // out of stat_differences_, whose values are finite).
  std::map<std::string, int64_t> stat_overflows_;
  std::vector<StatTally> return_differences_;  // by seat: with - base, per game (empty: none)
};

}  // namespace rulebook::analysis
