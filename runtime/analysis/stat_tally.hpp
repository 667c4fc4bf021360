#pragma once
// A game's own statistics (game:finish{stats = {margin = 3}}), tallied over
// a batch of games: for each name, how many games gave each value. The
// exact histogram is the sufficient statistic: two batches merge by adding
// counts, in any order, to what one batch of all the games gives, and the
// mean, spread and quantiles are computed from it in value order, so that
// they do not depend on how workers or shards split the games either.
// (Its size is the number of distinct values: small for counts and margins.)
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/intervals.hpp"

namespace rulebook::analysis {

// A game's statistics by name (finite numbers).
using GameStats = std::map<std::string, double>;

class StatTally {
 public:
  void add(double value, int64_t games = 1);
  void merge(const StatTally& other);

  int64_t count() const { return count_; }
  const std::map<double, int64_t>& histogram() const { return histogram_; }
  // Student-t 95% interval of the mean (mean_interval's rules: values that
  // are all equal get the width zero_of_n_bound, in units of one).
  Interval mean() const;
  double standard_deviation() const;
  // The value at quantile q in [0, 1]: the nearest-rank order statistic
  // (the ceil(q n)-th smallest; q = 0 is the smallest). 0 with no values.
  double quantile(double q) const;
  // Games whose value is not 0 (for paired differences).
  int64_t nonzero() const;
  // The sum and the sum of squares of the values, added in value order.
  void sums(double& sum, double& sum_squares) const;

  // [[value, games], ...] in value order.
  nlohmann::json to_json() const;
  // Throws std::invalid_argument naming `name` for anything malformed.
  static StatTally from_json(const nlohmann::json& j, const std::string& name);

  bool operator==(const StatTally& o) const { return histogram_ == o.histogram_; }

 private:
  // Sum and sum of squared deviations from the mean, in value order.
  void moments(long double& sum, long double& squares) const;
  int64_t count_ = 0;
  std::map<double, int64_t> histogram_;
};

// Whether `name` may name a statistic: a letter or '_' then letters,
// digits and '_' (at most 64), so that it reads as stats.NAME everywhere.
bool valid_stat_name(const std::string& name);

// Every statistic's tally, by name.
using StatTallies = std::map<std::string, StatTally>;
void add_stats(StatTallies& tallies, const GameStats& stats);
void merge_stats(StatTallies& into, const StatTallies& other);
nlohmann::json stats_to_json(const StatTallies& tallies);
StatTallies stats_from_json(const nlohmann::json& j);  // throws std::invalid_argument

}  // namespace rulebook::analysis
