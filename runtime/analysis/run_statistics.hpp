#pragma once
// The sufficient statistics of a batch of games: counts, sums, sums of
// squares and exact histograms, all integers. Two batches merge by adding
// them, in any order, to exactly what one batch of all the games gives:
// that is what lets `--jobs` workers and `--shard` machines split a run.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/fairness.hpp"
#include "analysis/intervals.hpp"
#include "analysis/stat_tally.hpp"

namespace rulebook::analysis {

// What one game leaves for the statistics.
struct GameOutcome {
  int turns = 0;
  int64_t decisions = 0;      // decisions an agent answered
  uint64_t winners = 0;       // bit s: seat s won
  std::string reason;         // game:finish's reason ("" = not said)
  nlohmann::json details;     // game:finish's details, when asked for (--export); else null
  GameStats stats;            // game:finish's stats (none: the rules gave none)
  GameStats metrics;          // how the game felt (game_metrics.hpp); none when not measured
  std::vector<double> returns;  // game:finish's returns, in seat order (empty: the rules gave none)
};

// The reason tallied for games whose rules gave none.
extern const char* const kUnspecifiedReason;

// Count, sum and sum of squares of integer values.
struct Moments {
  int64_t count = 0;
  int64_t sum = 0;
  int64_t sum_squares = 0;
  void add(int64_t value) {
    ++count;
    sum += value;
    sum_squares += value * value;
  }
  void merge(const Moments& other);
  Interval mean() const;  // Student t, 95% (see mean_interval)
  double standard_deviation() const;
  bool operator==(const Moments& o) const {
    return count == o.count && sum == o.sum && sum_squares == o.sum_squares;
  }
};

// One bin of a histogram made for people: [from, to], both included.
struct HistogramBin {
  int64_t from = 0;
  int64_t to = 0;
  int64_t games = 0;
};

// Bins of a "nice" width (1, 2, 5, 10, 20, 50...) covering `counts`, about
// `target` of them; `bin_width` (> 0) forces the width.
std::vector<HistogramBin> bin_histogram(const std::map<int64_t, int64_t>& counts, int target = 20,
                                        int64_t bin_width = 0);
int64_t nice_bin_width(int64_t lowest, int64_t highest, int target = 20);

class RunStatistics {
 public:
  explicit RunStatistics(int players = 0);

  void add(const GameOutcome& game);
  // Adds another batch of the same players. Throws std::invalid_argument otherwise.
  void merge(const RunStatistics& other);

  int players() const { return players_; }
  int64_t games() const { return games_; }
  const std::vector<int64_t>& wins() const { return wins_; }
  int64_t shared_wins() const { return shared_wins_; }   // games with two or more winners
  int64_t no_winner() const { return no_winner_; }       // games nobody won
  // Games by their number of winners, 0 to players: what the equal-seats
  // test needs when games have several winners.
  const std::vector<int64_t>& games_by_winner_count() const { return games_by_winner_count_; }
  const Moments& turns() const { return turns_; }
  const Moments& decisions() const { return decisions_; }
  const std::map<int64_t, int64_t>& turns_histogram() const { return turns_histogram_; }
  const std::map<std::string, int64_t>& end_reasons() const { return end_reasons_; }
  // The game's own statistics by name; a statistic counts only the games that gave it.
  const StatTallies& stats() const { return stats_; }
  // The metrics of how games felt (game_metrics.hpp), tallied as stats are.
  const StatTallies& metrics() const { return metrics_; }
  // Each seat's returns (game:finish returns), as exact histograms, so that
  // parts merge to exactly one run's figures; empty when no game gave
  // returns, else one per seat, counting only the games that gave them.
  const std::vector<StatTally>& returns() const { return returns_; }

  Interval win_rate(int seat) const { return wilson_interval(wins_.at(seat), games_); }
  Interval shared_win_rate() const { return wilson_interval(shared_wins_, games_); }
  Interval no_winner_rate() const { return wilson_interval(no_winner_, games_); }
  // What every seat would win if seats were equal: the mean of their rates.
  double fair_win_rate() const;
  // The seat whose win rate is furthest from the fair rate (lowest seat on ties).
  int most_unequal_seat() const;
  // Test that every seat wins equally often: Cochran's Q (players - 1 df),
  // right for several winners, shared wins and no winner (fairness.hpp).
  ChiSquareTest equal_seats_test() const { return cochran_q_test(wins_, games_by_winner_count_); }
  // The game's unfairness: the RMS seat advantage with its 95% interval (fairness.hpp).
  Interval unfairness() const { return analysis::unfairness(wins_, games_by_winner_count_); }
  // Unbiased estimate of unfairness² (may be negative): ranks setups by fairness.
  double unfairness_rank() const { return unfairness_squared_estimate(wins_, games_by_winner_count_); }

  // The game length at quantile q in [0, 1]: the nearest-rank order
  // statistic (the ceil(q n)-th shortest game; q = 0 is the shortest).
  int64_t turns_quantile(double q) const;
  // Its 95% distribution-free interval: the order statistics at ranks
  // n q -/+ 1.96 sqrt(n q (1 - q)), from the binomial distribution.
  Interval turns_quantile_interval(double q) const;

  nlohmann::json to_json() const;
  // Throws std::invalid_argument naming the bad field, or the figures that
  // contradict each other (more wins than games, a turn sum that disagrees
  // with the histogram...): a damaged or edited part is refused, not merged.
  static RunStatistics from_json(const nlohmann::json& j);
  // The contradiction among the figures, or "" when they agree.
  std::string contradiction() const;

  bool operator==(const RunStatistics& o) const;

 private:
  int64_t turns_at_rank(int64_t rank) const;  // 1-based

  int players_ = 0;
  int64_t games_ = 0;
  std::vector<int64_t> wins_;
  int64_t shared_wins_ = 0;
  int64_t no_winner_ = 0;
  std::vector<int64_t> games_by_winner_count_;
  Moments turns_;
  Moments decisions_;
  std::map<int64_t, int64_t> turns_histogram_;
  std::map<std::string, int64_t> end_reasons_;
  StatTallies stats_;
  StatTallies metrics_;
  std::vector<StatTally> returns_;
};

}  // namespace rulebook::analysis
