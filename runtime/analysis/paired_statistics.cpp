#include "analysis/paired_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace rulebook::analysis {

PairedStatistics::PairedStatistics(int players)
    : players_(players), wins_(static_cast<size_t>(std::max(0, players))), advantage_(wins_.size()) {}

namespace {
int winner_count(uint64_t winners, int players) {
  int n = 0;
  for (int s = 0; s < players; ++s) n += (winners >> s) & 1 ? 1 : 0;
  return n;
}

// The per-game differences (with - base) of the figures both sides gave.
void add_differences(StatTallies& into, const GameStats& base, const GameStats& with) {
  for (const auto& [name, value] : base) {
    const auto other = with.find(name);
    if (other != with.end()) into[name].add(other->second - value);
  }
}
}  // namespace

void PairedStatistics::add(const GameOutcome& base, const GameOutcome& with, int64_t index) {
  winners_.push_back({index < 0 ? static_cast<int64_t>(winners_.size()) : index, base.winners, with.winners});
  turns_.add(int64_t{with.turns} - base.turns);
  decisions_.add(with.decisions - base.decisions);
  const int base_winners = winner_count(base.winners, players_), with_winners = winner_count(with.winners, players_);
  no_winner_.add(int64_t{with_winners == 0} - int64_t{base_winners == 0});
  shared_wins_.add(int64_t{with_winners > 1} - int64_t{base_winners > 1});
  for (int s = 0; s < players_; ++s) {
    const int64_t w = (with.winners >> s) & 1, b = (base.winners >> s) & 1;
    wins_[static_cast<size_t>(s)].add(w - b);
    advantage_[static_cast<size_t>(s)].add((players_ * w - with_winners) - (players_ * b - base_winners));
  }
  for (const auto& [name, value] : base.stats) {
    const auto other = with.stats.find(name);
    if (other == with.stats.end()) continue;
    // Two finite values may differ by more than a double holds: counted,
    // never added as an infinity (a tally's values are finite).
    const double difference = other->second - value;
    if (std::isfinite(difference)) stat_differences_[name].add(difference);
    else ++stat_overflows_[name];
  }
  if (base.returns.size() == static_cast<size_t>(players_) && with.returns.size() == base.returns.size()) {
    return_differences_.resize(base.returns.size());
    for (size_t s = 0; s < base.returns.size(); ++s) return_differences_[s].add(with.returns[s] - base.returns[s]);
  }
  add_differences(metric_differences_, base.metrics, with.metrics);
}

void PairedStatistics::merge(const PairedStatistics& other) {
  if (other.players_ != players_) throw std::invalid_argument("cannot merge comparisons of different player counts");
  turns_.merge(other.turns_);
  decisions_.merge(other.decisions_);
  no_winner_.merge(other.no_winner_);
  shared_wins_.merge(other.shared_wins_);
  for (size_t s = 0; s < wins_.size(); ++s) {
    wins_[s].merge(other.wins_[s]);
    advantage_[s].merge(other.advantage_[s]);
  }
  winners_.insert(winners_.end(), other.winners_.begin(), other.winners_.end());
  merge_stats(stat_differences_, other.stat_differences_);
  merge_stats(metric_differences_, other.metric_differences_);
  for (const auto& [name, games] : other.stat_overflows_) stat_overflows_[name] += games;
  if (!other.return_differences_.empty()) {
    return_differences_.resize(static_cast<size_t>(players_));
    for (size_t s = 0; s < return_differences_.size(); ++s) return_differences_[s].merge(other.return_differences_[s]);
  }
}

namespace {
Difference mean_difference(const StatTally& differences) {
  double sum = 0, sum_squares = 0;
  differences.sums(sum, sum_squares);
  return paired_mean_difference(differences.count(), sum, sum_squares, differences.nonzero());
}

Difference tally_difference(const StatTallies& differences, const std::string& name) {
  const auto it = differences.find(name);
  return it == differences.end() ? Difference{} : mean_difference(it->second);
}
}  // namespace

Difference PairedStatistics::stat(const std::string& name) const { return tally_difference(stat_differences_, name); }
Difference PairedStatistics::metric(const std::string& name) const { return tally_difference(metric_differences_, name); }

Difference PairedStatistics::seat_return(int seat) const {
  return return_differences_.empty() ? Difference{} : mean_difference(return_differences_.at(static_cast<size_t>(seat)));
}

bool PairedStatistics::stat_too_large(const std::string& name) const {
  if (stat_overflows_.count(name)) return true;
  const Difference d = stat(name);
  return !std::isfinite(d.interval.estimate) || !std::isfinite(d.interval.low) || !std::isfinite(d.interval.high) ||
         !std::isfinite(d.p_value);
}

Difference PairedStatistics::rate(const Figure& f) {
  // Differences of 0/1 outcomes: sum = up - down, sum of squares = up + down.
  const int64_t up = (f.moments.sum_squares + f.moments.sum) / 2, down = (f.moments.sum_squares - f.moments.sum) / 2;
  return paired_rate_difference(up, down, f.moments.count);
}

Difference PairedStatistics::seat_advantage(int seat) const {
  Difference d = advantage_.at(static_cast<size_t>(seat)).difference();
  const double k = players_;
  d.interval = {d.interval.estimate / k, d.interval.low / k, d.interval.high / k};
  return d;
}

std::vector<PairedStatistics::Winners> PairedStatistics::sorted_winners() const {
  std::vector<Winners> sorted = winners_;
  std::sort(sorted.begin(), sorted.end(), [](const Winners& a, const Winners& b) { return a.index < b.index; });
  return sorted;
}

Difference PairedStatistics::unfairness(uint64_t seed) const {
  std::vector<uint64_t> base, with;
  for (const auto& w : sorted_winners()) {
    base.push_back(w.base);
    with.push_back(w.with);
  }
  return unfairness_difference(base, with, players_, seed);
}

Difference PairedStatistics::win_rate_of(const std::vector<int>& seats) const {
  if (seats.empty()) return {};
  if (seats.size() == 1) return win_rate(seats[0]);
  // Several seats: the per-game mean over them, in units of 1/|seats|.
  Figure sum;
  for (const auto& w : winners_) {
    int64_t d = 0;
    for (int s : seats) d += static_cast<int64_t>((w.with >> s) & 1) - static_cast<int64_t>((w.base >> s) & 1);
    sum.add(d);
  }
  Difference d = sum.difference();
  const double k = static_cast<double>(seats.size());
  d.interval = {d.interval.estimate / k, d.interval.low / k, d.interval.high / k};
  return d;
}

}  // namespace rulebook::analysis
