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

RunStatistics::RunStatistics(int players)
    : players_(players),
      wins_(static_cast<size_t>(std::max(0, players)), 0),
      games_by_winner_count_(static_cast<size_t>(std::max(0, players)) + 1, 0) {}

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
  ++games_by_winner_count_[static_cast<size_t>(winners)];
  turns_.add(game.turns);
  decisions_.add(game.decisions);
  ++turns_histogram_[game.turns];
  ++end_reasons_[game.reason.empty() ? kUnspecifiedReason : game.reason];
  add_stats(stats_, game.stats);
  add_stats(metrics_, game.metrics);
  if (!game.returns.empty()) {
    if (game.returns.size() != static_cast<size_t>(players_))
      throw std::invalid_argument("a game's returns must hold one number for each seat");
    returns_.resize(static_cast<size_t>(players_));
    for (size_t s = 0; s < returns_.size(); ++s) returns_[s].add(game.returns[s]);
  }
}

void RunStatistics::merge(const RunStatistics& other) {
  if (other.players_ != players_)
    throw std::invalid_argument("cannot merge statistics of " + std::to_string(other.players_) + " players into " +
                                std::to_string(players_));
  games_ += other.games_;
  for (size_t s = 0; s < wins_.size(); ++s) wins_[s] += other.wins_[s];
  shared_wins_ += other.shared_wins_;
  no_winner_ += other.no_winner_;
  for (size_t r = 0; r < games_by_winner_count_.size(); ++r) games_by_winner_count_[r] += other.games_by_winner_count_[r];
  turns_.merge(other.turns_);
  decisions_.merge(other.decisions_);
  for (const auto& [turns, games] : other.turns_histogram_) turns_histogram_[turns] += games;
  for (const auto& [reason, games] : other.end_reasons_) end_reasons_[reason] += games;
  merge_stats(stats_, other.stats_);
  merge_stats(metrics_, other.metrics_);
  if (!other.returns_.empty()) {
    returns_.resize(static_cast<size_t>(players_));
    for (size_t s = 0; s < returns_.size(); ++s) returns_[s].merge(other.returns_[s]);
  }
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
  nlohmann::json j = {{"players", players_},
          {"games", games_},
          {"wins_by_seat", wins_},
          {"shared_wins", shared_wins_},
          {"no_winner", no_winner_},
          {"games_by_winner_count", games_by_winner_count_},
          {"turns", moments_json(turns_)},
          {"decisions", moments_json(decisions_)},
          {"turns_histogram", histogram},
          {"end_reasons", end_reasons_}};
  // Only when some game gave statistics: a part without them is what older versions wrote and read.
  if (!stats_.empty()) j["stats"] = stats_to_json(stats_);
  if (!metrics_.empty()) j["metrics"] = stats_to_json(metrics_);
  if (!returns_.empty()) {  // likewise: only when some game gave returns
    nlohmann::json by_seat = nlohmann::json::array();
    for (const StatTally& seat : returns_) by_seat.push_back(seat.to_json());
    j["returns"] = std::move(by_seat);
  }
  return j;
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
  const auto& by_count = member(j, "games_by_winner_count", &nlohmann::json::is_array);
  if (by_count.size() != s.games_by_winner_count_.size())
    throw std::invalid_argument("statistics: 'games_by_winner_count' must have one count for 0 to 'players' winners");
  for (size_t r = 0; r < by_count.size(); ++r) {
    if (!by_count[r].is_number_integer()) throw std::invalid_argument("statistics: 'games_by_winner_count' must hold integers");
    s.games_by_winner_count_[r] = by_count[r].get<int64_t>();
  }
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
  if (j.contains("stats")) s.stats_ = stats_from_json(j.at("stats"));  // optional: older parts have none
  if (j.contains("metrics")) s.metrics_ = stats_from_json(j.at("metrics"));
  if (j.contains("returns")) {  // optional too
    const auto& by_seat = member(j, "returns", &nlohmann::json::is_array);
    if (by_seat.size() != s.wins_.size())
      throw std::invalid_argument("statistics: 'returns' must have one histogram per seat");
    for (size_t seat = 0; seat < by_seat.size(); ++seat)
      s.returns_.push_back(StatTally::from_json(by_seat[seat], "returns of seat " + std::to_string(seat)));
  }
  if (const std::string problem = s.contradiction(); !problem.empty())
    throw std::invalid_argument("statistics contradict themselves: " + problem);
  return s;
}

std::string RunStatistics::contradiction() const {
  auto text = [](int64_t v) { return std::to_string(v); };
  if (games_ < 0) return "'games' is negative";
  for (size_t seat = 0; seat < wins_.size(); ++seat) {
    if (wins_[seat] < 0) return "seat " + text(static_cast<int64_t>(seat)) + " has negative wins";
    if (wins_[seat] > games_)
      return "seat " + text(static_cast<int64_t>(seat)) + " won " + text(wins_[seat]) + " of " + text(games_) + " games";
  }
  int64_t counted = 0, winners = 0, several = 0;
  for (size_t r = 0; r < games_by_winner_count_.size(); ++r) {
    const int64_t g = games_by_winner_count_[r];
    if (g < 0) return "'games_by_winner_count' holds a negative count";
    counted += g;
    winners += g * static_cast<int64_t>(r);
    if (r > 1) several += g;
  }
  if (counted != games_) return "'games_by_winner_count' counts " + text(counted) + " games, not " + text(games_);
  int64_t wins = 0;
  for (int64_t w : wins_) wins += w;
  if (wins != winners) return "the seats' wins add up to " + text(wins) + " but the games had " + text(winners) + " winners";
  if (no_winner_ != games_by_winner_count_[0])
    return "'no_winner' is " + text(no_winner_) + " but " + text(games_by_winner_count_[0]) + " games had no winner";
  if (shared_wins_ != several)
    return "'shared_wins' is " + text(shared_wins_) + " but " + text(several) + " games had several winners";
  if (turns_.count != games_ || decisions_.count != games_) return "the counts of turns and decisions must equal 'games'";
  int64_t histogram_games = 0, turn_sum = 0, turn_squares = 0;
  for (const auto& [turns, games] : turns_histogram_) {
    if (games < 0 || turns < 0) return "'turns_histogram' holds a negative number";
    histogram_games += games;
    turn_sum += turns * games;
    turn_squares += turns * turns * games;
  }
  if (histogram_games != games_) return "'turns_histogram' counts " + text(histogram_games) + " games, not " + text(games_);
  if (turn_sum != turns_.sum) return "the turns add up to " + text(turns_.sum) + " but the histogram says " + text(turn_sum);
  if (turn_squares != turns_.sum_squares)
    return "the squared turns add up to " + text(turns_.sum_squares) + " but the histogram says " + text(turn_squares);
  if (decisions_.sum < 0) return "the decisions add up to a negative number";
  // Cauchy-Schwarz: n sum x² >= (sum x)².
  if (static_cast<long double>(decisions_.sum) * decisions_.sum >
      static_cast<long double>(decisions_.sum_squares) * games_ * (1 + 1e-12L))
    return "the decisions' sum of squares is smaller than their sum allows";
  int64_t ended = 0;
  for (const auto& [reason, games] : end_reasons_) {
    if (games < 0) return "'end_reasons' holds a negative count";
    ended += games;
  }
  if (ended != games_) return "'end_reasons' counts " + text(ended) + " games, not " + text(games_);
  for (const auto& [name, tally] : stats_)
    if (tally.count() > games_) return "stats." + name + " counts " + text(tally.count()) + " of " + text(games_) + " games";
  for (const auto& [name, tally] : metrics_)
    if (tally.count() > games_) return "metrics." + name + " counts " + text(tally.count()) + " of " + text(games_) + " games";
  for (size_t seat = 0; seat < returns_.size(); ++seat) {
    if (returns_[seat].count() != returns_[0].count()) return "the seats' returns count different numbers of games";
    if (returns_[seat].count() > games_)
      return "the returns of seat " + text(static_cast<int64_t>(seat)) + " count " + text(returns_[seat].count()) +
             " of " + text(games_) + " games";
  }
  return "";
}

bool RunStatistics::operator==(const RunStatistics& o) const {
  return players_ == o.players_ && games_ == o.games_ && wins_ == o.wins_ && shared_wins_ == o.shared_wins_ &&
         games_by_winner_count_ == o.games_by_winner_count_ &&
         no_winner_ == o.no_winner_ && turns_ == o.turns_ && decisions_ == o.decisions_ &&
         turns_histogram_ == o.turns_histogram_ && end_reasons_ == o.end_reasons_ && stats_ == o.stats_ &&
         metrics_ == o.metrics_ && returns_ == o.returns_;
}

}  // namespace rulebook::analysis
