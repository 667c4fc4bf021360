#include "analysis/stat_tally.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rulebook::analysis {

void StatTally::add(double value, int64_t games) {
  if (!std::isfinite(value)) throw std::invalid_argument("a statistic must be a finite number");
  if (games <= 0) return;
  histogram_[value == 0 ? 0.0 : value] += games;  // -0 and 0 are one value
  count_ += games;
}

void StatTally::merge(const StatTally& other) {
  for (const auto& [value, games] : other.histogram_) histogram_[value] += games;
  count_ += other.count_;
}

void StatTally::moments(long double& sum, long double& squares) const {
  sum = 0;
  for (const auto& [value, games] : histogram_) sum += static_cast<long double>(value) * games;
  squares = 0;
  if (count_ == 0) return;
  const long double mean = sum / count_;
  for (const auto& [value, games] : histogram_) squares += (value - mean) * (value - mean) * games;
}

double StatTally::standard_deviation() const {
  if (count_ < 2) return 0;
  long double sum = 0, squares = 0;
  moments(sum, squares);
  return static_cast<double>(std::sqrt(squares / (count_ - 1)));
}

Interval StatTally::mean() const {
  if (count_ == 0) return {};
  long double sum = 0, squares = 0;
  moments(sum, squares);
  const double mean = static_cast<double>(sum / count_);
  if (count_ < 2) return {mean, mean, mean};
  const double sd = standard_deviation();
  const double margin = sd > 0 ? student_t_critical(static_cast<double>(count_ - 1)) * sd /
                                     std::sqrt(static_cast<double>(count_))
                               : zero_of_n_bound(count_);
  return {mean, mean - margin, mean + margin};
}

double StatTally::quantile(double q) const {
  if (count_ == 0) return 0;
  const auto rank = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(q * static_cast<double>(count_) - 1e-9)), 1,
                                        count_);
  int64_t seen = 0;
  for (const auto& [value, games] : histogram_) {
    seen += games;
    if (seen >= rank) return value;
  }
  return histogram_.rbegin()->first;
}

int64_t StatTally::nonzero() const {
  const auto zero = histogram_.find(0.0);
  return count_ - (zero == histogram_.end() ? 0 : zero->second);
}

void StatTally::sums(double& sum, double& sum_squares) const {
  long double s = 0, s2 = 0;
  for (const auto& [value, games] : histogram_) {
    s += static_cast<long double>(value) * games;
    s2 += static_cast<long double>(value) * value * games;
  }
  sum = static_cast<double>(s);
  sum_squares = static_cast<double>(s2);
}

nlohmann::json StatTally::to_json() const {
  nlohmann::json bins = nlohmann::json::array();
  for (const auto& [value, games] : histogram_) {
    // Whole values are written as integers: "3", not "3.0".
    if (std::floor(value) == value && std::fabs(value) < 9e15)
      bins.push_back({static_cast<int64_t>(value), games});
    else
      bins.push_back({value, games});
  }
  return bins;
}

StatTally StatTally::from_json(const nlohmann::json& j, const std::string& name) {
  const std::string where = "statistics: stats." + name;
  if (!j.is_array()) throw std::invalid_argument(where + " must be a list of [value, games] pairs");
  StatTally t;
  for (const auto& bin : j) {
    if (!bin.is_array() || bin.size() != 2 || !bin[0].is_number() || !bin[1].is_number_integer())
      throw std::invalid_argument(where + " must hold [value, games] pairs");
    const double value = bin[0].get<double>();
    const int64_t games = bin[1].get<int64_t>();
    if (!std::isfinite(value) || games <= 0)
      throw std::invalid_argument(where + " holds a value that is not finite or a count that is not positive");
    t.add(value, games);
  }
  return t;
}

bool valid_stat_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!letter(name[0])) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

void add_stats(StatTallies& tallies, const GameStats& stats) {
  for (const auto& [name, value] : stats) tallies[name].add(value);
}

void merge_stats(StatTallies& into, const StatTallies& other) {
  for (const auto& [name, tally] : other) into[name].merge(tally);
}

nlohmann::json stats_to_json(const StatTallies& tallies) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, tally] : tallies) j[name] = tally.to_json();
  return j;
}

StatTallies stats_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("statistics: 'stats' must map names to histograms");
  StatTallies tallies;
  for (const auto& [name, bins] : j.items()) {
    if (!valid_stat_name(name)) throw std::invalid_argument("statistics: '" + name + "' cannot name a statistic");
    tallies[name] = StatTally::from_json(bins, name);
  }
  return tallies;
}

}  // namespace rulebook::analysis
