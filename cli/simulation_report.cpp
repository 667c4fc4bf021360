#include "cli/simulation_report.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

#include "analysis/game_metrics.hpp"
#include "analysis/verdict.hpp"
#include "cli/run_provenance.hpp"
#include "core/safe_text.hpp"

namespace rulebook::cli {

using analysis::Interval;
using analysis::RunStatistics;

namespace {

std::vector<std::string> strings(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_array()) throw std::invalid_argument(std::string("'") + key + "' must be a list");
  std::vector<std::string> out;
  for (const auto& v : j[key]) {
    if (!v.is_string()) throw std::invalid_argument(std::string("'") + key + "' must hold strings");
    out.push_back(v.get<std::string>());
  }
  return out;
}

template <typename T>
T field(const nlohmann::json& j, const char* key, bool (nlohmann::json::*is)() const noexcept, const char* what) {
  if (!j.contains(key) || !(j[key].*is)()) throw std::invalid_argument(std::string("'") + key + "' must be " + what);
  return j[key].get<T>();
}

// The quantiles reported, with their JSON names and words.
struct QuantileName {
  double q;
  const char* key;
  const char* words;
};
constexpr QuantileName kQuantiles[] = {{0.1, "p10", "10%"}, {0.5, "median", "median"}, {0.9, "p90", "90%"}};
// A statistic's quantiles: the five-number summary.
constexpr QuantileName kStatQuantiles[] = {
    {0, "min", "min"}, {0.25, "p25", "25%"}, {0.5, "median", "median"}, {0.75, "p75", "75%"}, {1, "max", "max"}};

}  // namespace

nlohmann::json RunDescription::to_json() const {
  return {{"game", game},   {"title", title}, {"players", players}, {"variants", variants}, {"sets", sets},
          {"agents", agents}, {"seed", seed},   {"games", games},     {"rules_hash", rules_hash}};
}

RunDescription RunDescription::from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("the run's description must be an object");
  RunDescription d;
  d.game = field<std::string>(j, "game", &nlohmann::json::is_string, "a string");
  d.title = field<std::string>(j, "title", &nlohmann::json::is_string, "a string");
  d.players = field<int>(j, "players", &nlohmann::json::is_number_integer, "an integer");
  d.variants = strings(j, "variants");
  d.sets = strings(j, "sets");
  d.agents = strings(j, "agents");
  d.seed = field<uint64_t>(j, "seed", &nlohmann::json::is_number_unsigned, "a non-negative integer");
  d.games = field<int64_t>(j, "games", &nlohmann::json::is_number_integer, "an integer");
  d.rules_hash = field<std::string>(j, "rules_hash", &nlohmann::json::is_string, "a string");
  if (d.players < 1 || static_cast<int>(d.agents.size()) != d.players)
    throw std::invalid_argument("'agents' must name one agent per player");
  return d;
}

nlohmann::json interval_json(const Interval& i) {
  return {{"estimate", i.estimate}, {"low", i.low}, {"high", i.high}};
}

nlohmann::json stats_json(const analysis::StatTallies& stats, bool metrics) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, tally] : stats) {
    nlohmann::json one = {{"games", tally.count()},
                          {"mean", interval_json(metrics ? analysis::metric_mean(name, tally) : tally.mean())},
                          {"standard_deviation", tally.standard_deviation()}};
    for (const auto& q : kStatQuantiles) one[q.key] = tally.quantile(q.q);
    j[name] = std::move(one);
  }
  return j;
}

nlohmann::json returns_json(const std::vector<analysis::StatTally>& by_seat) {
  nlohmann::json seats = nlohmann::json::array();
  for (size_t seat = 0; seat < by_seat.size(); ++seat) {
    const Interval mean = by_seat[seat].mean();
    seats.push_back({{"seat", seat},
                     {"games", by_seat[seat].count()},
                     {"mean", mean.estimate},
                     {"low", mean.low},
                     {"high", mean.high},
                     {"sd", by_seat[seat].standard_deviation()}});
  }
  return {{"by_seat", seats}};
}

void print_returns(std::ostream& out, const std::vector<analysis::StatTally>& by_seat) {
  for (size_t seat = 0; seat < by_seat.size(); ++seat) {
    const Interval mean = by_seat[seat].mean();
    out << fmt::format("  seat {}: mean {:+.4g} [{:.4g}, {:.4g}] (sd {:.4g}, {} game{})\n", seat, mean.estimate,
                       mean.low, mean.high, by_seat[seat].standard_deviation(), by_seat[seat].count(),
                       by_seat[seat].count() == 1 ? "" : "s");
  }
}

std::string stat_value_text(double value) {
  if (std::floor(value) == value && std::fabs(value) < 1e15) return fmt::format("{}", static_cast<int64_t>(value));
  return fmt::format("{:.4g}", value);
}

std::string stat_text(const analysis::StatTally& tally, const std::string& metric) {
  const Interval mean = metric.empty() ? tally.mean() : analysis::metric_mean(metric, tally);
  std::string text = fmt::format("mean {} (standard deviation {:.2f}, {} game{})", analysis::plus_minus(mean),
                                 tally.standard_deviation(), tally.count(), tally.count() == 1 ? "" : "s");
  for (size_t k = 0; k < std::size(kStatQuantiles); ++k)
    text += fmt::format("{} {} {}", k ? "," : ";", kStatQuantiles[k].words, stat_value_text(tally.quantile(kStatQuantiles[k].q)));
  return text;
}

nlohmann::json figures_json(const RunStatistics& s) {
  nlohmann::json j;
  j["mean_turns"] = s.turns().mean().estimate;
  nlohmann::json rates = nlohmann::json::array(), seats = nlohmann::json::array();
  for (int seat = 0; seat < s.players(); ++seat) {
    rates.push_back(s.win_rate(seat).estimate);
    seats.push_back({{"seat", seat}, {"wins", s.wins()[seat]}, {"win_rate", interval_json(s.win_rate(seat))}});
  }
  j["win_rate_by_seat"] = rates;
  j["confidence_level"] = 0.95;
  j["methods"] = {{"rates", "Wilson score interval"},
                  {"means", "Student t"},
                  {"quantiles", "binomial order statistics"},
                  {"equal_seats", "Cochran's Q test"},
                  {"unfairness", "root mean square seat advantage; noncentral chi-square interval of Cochran's Q"}};
  j["seats"] = seats;
  j["fair_win_rate"] = s.fair_win_rate();
  const int seat = s.most_unequal_seat();
  j["seat_advantage"] = {{"seat", seat},
                         {"win_rate", interval_json(s.games() ? s.win_rate(seat) : Interval{})},
                         {"fair_win_rate", s.fair_win_rate()},
                         {"text", analysis::seat_advantage_sentence(s)}};
  const auto test = s.equal_seats_test();
  j["equal_seats_test"] = {{"statistic", test.statistic},
                           {"degrees_of_freedom", test.degrees_of_freedom},
                           {"p_value", test.p_value},
                           {"significant", test.significant()},
                           {"text", analysis::equal_seats_sentence(test)}};
  j["unfairness"] = interval_json(s.unfairness());
  j["unfairness"]["text"] = analysis::unfairness_sentence(s);
  j["games_by_winner_count"] = s.games_by_winner_count();
  j["shared_wins"] = {{"games", s.shared_wins()}, {"rate", interval_json(s.shared_win_rate())}};
  j["no_winner"] = {{"games", s.no_winner()}, {"rate", interval_json(s.no_winner_rate())}};
  nlohmann::json quantiles = nlohmann::json::object();
  for (const auto& q : kQuantiles) quantiles[q.key] = interval_json(s.turns_quantile_interval(q.q));
  nlohmann::json bins = nlohmann::json::array();
  for (const auto& b : analysis::bin_histogram(s.turns_histogram()))
    bins.push_back({{"from", b.from}, {"to", b.to}, {"games", b.games}});
  j["turns"] = {{"mean", interval_json(s.turns().mean())},
                {"standard_deviation", s.turns().standard_deviation()},
                {"min", s.turns_quantile(0)},
                {"max", s.turns_quantile(1)},
                {"quantiles", quantiles},
                {"histogram", bins}};
  j["decisions_per_game"] = {{"mean", interval_json(s.decisions().mean())},
                             {"standard_deviation", s.decisions().standard_deviation()}};
  nlohmann::json reasons = nlohmann::json::array();
  for (const auto& [reason, games] : s.end_reasons())
    reasons.push_back({{"reason", reason}, {"games", games}, {"rate", interval_json(analysis::wilson_interval(games, s.games()))}});
  j["end_reasons"] = reasons;
  j["stats"] = stats_json(s.stats());
  // Only for a game that gives returns: the reports of the others are as they were.
  if (!s.returns().empty()) j["returns"] = returns_json(s.returns());
  if (!s.metrics().empty()) j["metrics"] = stats_json(s.metrics(), true);
  return j;
}

nlohmann::json run_header_json(const RunDescription& d, int64_t games, const RunTiming& t, bool with_setup) {
  nlohmann::json j;
  j["game"] = d.game;
  j["title"] = d.title;
  j["players"] = d.players;
  if (with_setup) {
    j["variants"] = d.variants;
    j["sets"] = d.sets;
  }
  j["agents"] = d.agents;
  j["seed"] = d.seed;
  j["rulebook_version"] = rulebook_version();
  j["rules_hash"] = d.rules_hash;
  j["jobs"] = t.jobs;
  j["games"] = games;
  j["seconds"] = t.seconds;
  j["games_per_second"] = t.seconds > 0 ? static_cast<double>(games) / t.seconds : 0.0;
  return j;
}

nlohmann::json simulation_json(const RunDescription& d, const RunStatistics& s, const RunTiming& t) {
  nlohmann::json j = run_header_json(d, s.games(), t, true);
  j.update(figures_json(s));
  return j;
}

std::string agents_text(const std::vector<std::string>& agents) {
  if (!agents.empty() && std::all_of(agents.begin(), agents.end(), [&](const auto& a) { return a == agents[0]; }))
    return "agents: " + agents[0];
  std::string text = "agents:";
  for (size_t s = 0; s < agents.size(); ++s) text += fmt::format(" {}={}", s, agents[s]);
  return text;
}

std::string setup_text(const RunDescription& d) {
  std::string text = fmt::format("{} with {} players", d.title, d.players);
  std::vector<std::string> changes = d.variants;
  changes.insert(changes.end(), d.sets.begin(), d.sets.end());
  if (!changes.empty()) text += fmt::format(" ({})", fmt::join(changes, ", "));
  return text;
}

namespace {

std::string range_percent(const Interval& i) {
  return fmt::format("{:5.1f}% [{:.1f}%, {:.1f}%]", i.estimate * 100, i.low * 100, i.high * 100);
}


void print_histogram(std::ostream& out, const RunStatistics& s) {
  const auto bins = analysis::bin_histogram(s.turns_histogram());
  int64_t most = 1;
  for (const auto& b : bins) most = std::max(most, b.games);
  const size_t digits = std::to_string(bins.empty() ? 0 : bins.back().to).size();
  for (const auto& b : bins) {
    const auto bar = static_cast<size_t>((b.games * 40 + most - 1) / most);
    const std::string label = b.from == b.to ? fmt::format("{:>{}}", b.from, 2 * digits + 1)
                                             : fmt::format("{:>{}}-{:<{}}", b.from, digits, b.to, digits);
    out << fmt::format("  {} | {:<40} {}\n", label, std::string(bar, '#'), b.games);
  }
}

}  // namespace

void print_simulation(std::ostream& out, const RunDescription& d, const RunStatistics& s, const RunTiming& t) {
  out << fmt::format("{} games of {}, seed {}, {}\n", s.games(), setup_text(d), d.seed, agents_text(d.agents));
  const double rate = t.seconds > 0 ? static_cast<double>(s.games()) / t.seconds : 0.0;
  out << fmt::format("time: {:.3f} s ({:.0f} games/s, {} job{})\n", t.seconds, rate, t.jobs, t.jobs == 1 ? "" : "s");
  out << "95% confidence intervals: Wilson for rates, Student t for means, "
         "binomial order statistics for quantiles\n";
  out << "win rate by seat (seat 0 plays first):\n";
  for (int seat = 0; seat < s.players(); ++seat)
    out << fmt::format("  seat {}: {}  ({} wins)\n", seat, range_percent(s.win_rate(seat)), s.wins()[seat]);
  out << fmt::format("seat advantage: {}\n", analysis::seat_advantage_sentence(s));
  out << fmt::format("equal seats: {}\n", analysis::equal_seats_sentence(s.equal_seats_test()));
  out << fmt::format("unfairness: {}\n", analysis::unfairness_sentence(s));
  out << fmt::format("shared wins: {}  ({} games)\n", range_percent(s.shared_win_rate()), s.shared_wins());
  out << fmt::format("no winner:   {}  ({} games)\n", range_percent(s.no_winner_rate()), s.no_winner());
  out << fmt::format("mean turns: {} (standard deviation {:.2f})\n", analysis::plus_minus(s.turns().mean()),
                     s.turns().standard_deviation());
  out << fmt::format("game length in turns: min {}", s.turns_quantile(0));
  for (const auto& q : kQuantiles) {
    const Interval i = s.turns_quantile_interval(q.q);
    out << fmt::format(", {} {} [{}, {}]", q.words, i.estimate, i.low, i.high);
  }
  out << fmt::format(", max {}\n", s.turns_quantile(1));
  out << "games by length in turns:\n";
  print_histogram(out, s);
  out << fmt::format("decisions per game: {} (standard deviation {:.2f})\n",
                     analysis::plus_minus(s.decisions().mean()), s.decisions().standard_deviation());
  out << "how games ended:\n";
  for (const auto& [reason, games] : s.end_reasons())
    out << fmt::format("  {}: {}  ({} games)\n", terminal_text(reason, true), range_percent(analysis::wilson_interval(games, s.games())),
                       games);
  if (!s.returns().empty()) {  // likewise for a game without returns
    out << "returns by seat (game:finish returns), mean with its 95% interval:\n";
    print_returns(out, s.returns());
  }
  if (!s.stats().empty()) {  // the report of a game without statistics is as it was
    out << "the game's statistics (game:finish stats):\n";
    for (const auto& [name, tally] : s.stats()) out << fmt::format("  {}: {}\n", name, stat_text(tally));
  }
  if (s.metrics().empty()) return;
  out << "how the games felt (metrics, see docs/judging-a-rule.md):\n";
  for (const auto& [name, tally] : s.metrics()) out << fmt::format("  {}: {}\n", name, stat_text(tally, name));
}

}  // namespace rulebook::cli
