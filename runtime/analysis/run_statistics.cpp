#include "analysis/run_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rulebook::analysis {

const char* const kUnspecifiedReason = "unspecified";

void Moments::merge(const Moments& other) {
  count += other.count;
  sum += other.sum;
  sum_squares += other.sum_squares;
}

Interval Moments::mean() const {
  return mean_interval(count, static_cast<double>(sum), static_cast<double>(sum_squares));
}

double Moments::standard_deviation() const {
  return analysis::standard_deviation(count, static_cast<double>(sum), static_cast<double>(sum_squares));
}

int64_t nice_bin_width(int64_t lowest, int64_t highest, int target) {
  const int64_t span = highest - lowest + 1;
  for (int64_t scale = 1;; scale *= 10)
    for (int64_t step : {1, 2, 5})
      if (span <= step * scale * std::max(1, target)) return step * scale;
}

std::vector<HistogramBin> bin_histogram(const std::map<int64_t, int64_t>& counts, int target, int64_t bin_width) {
  std::vector<HistogramBin> bins;
  if (counts.empty()) return bins;
  const int64_t lowest = counts.begin()->first, highest = counts.rbegin()->first;
  const int64_t width = bin_width > 0 ? bin_width : nice_bin_width(lowest, highest, target);
  // Floor division, so that bins line up on multiples of the width.
  auto floor_to = [width](int64_t v) { return (v >= 0 ? v / width : -((-v + width - 1) / width)) * width; };
  for (int64_t from = floor_to(lowest); from <= highest; from += width) bins.push_back({from, from + width - 1, 0});
  for (const auto& [turns, games] : counts) bins[static_cast<size_t>((turns - bins.front().from) / width)].games += games;
  return bins;
}

RunStatistics::RunStatistics(int players) : players_(players), wins_(static_cast<size_t>(std::max(0, players)), 0) {}

void RunStatistics::add(const GameOutcome& game) {
  ++games_;
  int winners = 0;
  for (int s = 0; s < players_; ++s)
    if (game.winners & (uint64_t{1} << s)) {
      ++wins_[static_cast<size_t>(s)];
      ++winners;
    }
  if (winners == 0) ++no_winner_;
  if (winners > 1) ++shared_wins_;
  turns_.add(game.turns);
  decisions_.add(game.decisions);
  ++turns_histogram_[game.turns];
  ++end_reasons_[game.reason.empty() ? kUnspecifiedReason : game.reason];
}

void RunStatistics::merge(const RunStatistics& other) {
  if (other.players_ != players_)
    throw std::invalid_argument("cannot merge statistics of " + std::to_string(other.players_) + " players into " +
                                std::to_string(players_));
  games_ += other.games_;
  for (size_t s = 0; s < wins_.size(); ++s) wins_[s] += other.wins_[s];
  shared_wins_ += other.shared_wins_;
  no_winner_ += other.no_winner_;
  turns_.merge(other.turns_);
  decisions_.merge(other.decisions_);
  for (const auto& [turns, games] : other.turns_histogram_) turns_histogram_[turns] += games;
  for (const auto& [reason, games] : other.end_reasons_) end_reasons_[reason] += games;
}

double RunStatistics::fair_win_rate() const {
  if (games_ == 0 || players_ == 0) return 0;
  int64_t total = 0;
  for (int64_t w : wins_) total += w;
  return static_cast<double>(total) / static_cast<double>(games_) / players_;
}

int RunStatistics::most_unequal_seat() const {
  int best = 0;
  int64_t best_gap = -1;
  int64_t total = 0;
  for (int64_t w : wins_) total += w;
  for (int s = 0; s < players_; ++s) {
    // |players * wins - total| compares |rate - fair| exactly, in integers.
    const int64_t gap = std::llabs(players_ * wins_[static_cast<size_t>(s)] - total);
    if (gap > best_gap) {
      best_gap = gap;
      best = s;
    }
  }
  return best;
}

int64_t RunStatistics::turns_at_rank(int64_t rank) const {
  int64_t seen = 0;
  for (const auto& [turns, games] : turns_histogram_) {
    seen += games;
    if (seen >= rank) return turns;
  }
  return turns_histogram_.empty() ? 0 : turns_histogram_.rbegin()->first;
}

int64_t RunStatistics::turns_quantile(double q) const {
  if (games_ == 0) return 0;
  const auto rank = static_cast<int64_t>(std::ceil(q * static_cast<double>(games_) - 1e-9));
  return turns_at_rank(std::clamp<int64_t>(rank, 1, games_));
}

Interval RunStatistics::turns_quantile_interval(double q) const {
  if (games_ == 0) return {};
  const double n = static_cast<double>(games_);
  const double spread = kZ95 * std::sqrt(n * q * (1 - q));
  const auto low = std::clamp<int64_t>(static_cast<int64_t>(std::floor(n * q - spread)), 1, games_);
  const auto high = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(n * q + spread)) + 1, 1, games_);
  return {static_cast<double>(turns_quantile(q)), static_cast<double>(turns_at_rank(low)),
          static_cast<double>(turns_at_rank(high))};
}

namespace {

nlohmann::json moments_json(const Moments& m) {
  return {{"count", m.count}, {"sum", m.sum}, {"sum_squares", m.sum_squares}};
}

int64_t integer(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number_integer())
    throw std::invalid_argument(std::string("statistics: '") + key + "' must be an integer");
  return j[key].get<int64_t>();
}

const nlohmann::json& member(const nlohmann::json& j, const char* key, bool (nlohmann::json::*is)() const noexcept) {
  if (!j.is_object() || !j.contains(key) || !(j[key].*is)())
    throw std::invalid_argument(std::string("statistics: '") + key + "' is missing or has the wrong type");
  return j[key];
}

Moments moments_from(const nlohmann::json& j) {
  return Moments{integer(j, "count"), integer(j, "sum"), integer(j, "sum_squares")};
}

}  // namespace

nlohmann::json RunStatistics::to_json() const {
  nlohmann::json histogram = nlohmann::json::array();
  for (const auto& [turns, games] : turns_histogram_) histogram.push_back({turns, games});
  return {{"players", players_},
          {"games", games_},
          {"wins_by_seat", wins_},
          {"shared_wins", shared_wins_},
          {"no_winner", no_winner_},
          {"turns", moments_json(turns_)},
          {"decisions", moments_json(decisions_)},
          {"turns_histogram", histogram},
          {"end_reasons", end_reasons_}};
}

RunStatistics RunStatistics::from_json(const nlohmann::json& j) {
  const int64_t players = integer(j, "players");
  if (players < 1 || players > 64) throw std::invalid_argument("statistics: 'players' must be 1 to 64");
  RunStatistics s(static_cast<int>(players));
  s.games_ = integer(j, "games");
  const auto& wins = member(j, "wins_by_seat", &nlohmann::json::is_array);
  if (wins.size() != s.wins_.size()) throw std::invalid_argument("statistics: 'wins_by_seat' must have one count per seat");
  for (size_t i = 0; i < wins.size(); ++i) {
    if (!wins[i].is_number_integer()) throw std::invalid_argument("statistics: 'wins_by_seat' must hold integers");
    s.wins_[i] = wins[i].get<int64_t>();
  }
  s.shared_wins_ = integer(j, "shared_wins");
  s.no_winner_ = integer(j, "no_winner");
  s.turns_ = moments_from(member(j, "turns", &nlohmann::json::is_object));
  s.decisions_ = moments_from(member(j, "decisions", &nlohmann::json::is_object));
  for (const auto& bin : member(j, "turns_histogram", &nlohmann::json::is_array)) {
    if (!bin.is_array() || bin.size() != 2 || !bin[0].is_number_integer() || !bin[1].is_number_integer())
      throw std::invalid_argument("statistics: 'turns_histogram' must hold [turns, games] pairs");
    s.turns_histogram_[bin[0].get<int64_t>()] += bin[1].get<int64_t>();
  }
  for (const auto& [reason, games] : member(j, "end_reasons", &nlohmann::json::is_object).items()) {
    if (!games.is_number_integer()) throw std::invalid_argument("statistics: 'end_reasons' must map reasons to counts");
    s.end_reasons_[reason] = games.get<int64_t>();
  }
  if (s.turns_.count != s.games_ || s.decisions_.count != s.games_)
    throw std::invalid_argument("statistics: the counts of turns and decisions must equal 'games'");
  return s;
}

bool RunStatistics::operator==(const RunStatistics& o) const {
  return players_ == o.players_ && games_ == o.games_ && wins_ == o.wins_ && shared_wins_ == o.shared_wins_ &&
         no_winner_ == o.no_winner_ && turns_ == o.turns_ && decisions_ == o.decisions_ &&
         turns_histogram_ == o.turns_histogram_ && end_reasons_ == o.end_reasons_;
}

}  // namespace rulebook::analysis
