#pragma once
// What `simulate` and `merge` print (text or one JSON object, see
// schemas/simulate.schema.json), made only from a run's description and its
// sufficient statistics, so that merged shards print what one run prints.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/run_statistics.hpp"
#include "cli/simulation_runner.hpp"

namespace rulebook::cli {

// The parameters that decide which games a run plays.
struct RunDescription {
  std::string game;   // the game's name
  std::string title;  // its title, for people
  int players = 0;
  std::vector<std::string> variants;
  std::vector<std::string> sets;
  std::vector<std::string> agents;  // agent kind by seat
  uint64_t seed = 1;
  int64_t games = 0;  // games of the whole run (every shard)
  std::string rules_hash;  // run_provenance.hpp: the game folder's files, variants and sets

  nlohmann::json to_json() const;
  static RunDescription from_json(const nlohmann::json& j);  // throws std::invalid_argument
  bool operator==(const RunDescription& o) const { return to_json() == o.to_json(); }
};

nlohmann::json interval_json(const analysis::Interval& i);
// A game's own statistics (game:finish stats), each with its games, mean
// and 95% interval, standard deviation and quantiles: {"NAME": {...}}.
// `metrics`: the tallies are metrics (analysis/game_metrics.hpp: a share's interval stays within [0, 1]).
nlohmann::json stats_json(const analysis::StatTallies& stats, bool metrics = false);
// Each seat's return (game:finish returns): {"by_seat": [{"seat", "games",
// "mean", "low", "high", "sd"}, ...]}, the mean with its 95% interval
// (Student t) and the standard deviation.
nlohmann::json returns_json(const std::vector<analysis::StatTally>& by_seat);
// "  seat 0: mean +0.112 [0.050, 0.174] (sd 1.402, 2000 games)", a line a seat.
void print_returns(std::ostream& out, const std::vector<analysis::StatTally>& by_seat);
// "mean 1.2 ± 0.4 (standard deviation 3.10, 1000 games); min -9, 25% -1, median 1, 75% 3, max 12".
// `metric`: the metric's name when the tally is one (its mean is then metric_mean's).
std::string stat_text(const analysis::StatTally& tally, const std::string& metric = "");
// Whole numbers without decimals, others to 4 significant digits.
std::string stat_value_text(double value);
// Every figure of a batch of games, with its 95% interval.
nlohmann::json figures_json(const analysis::RunStatistics& s);
// The run's parameters (variants and sets only `with_setup`), what
// produced it (rulebook_version, rules_hash) and its wall-clock figures:
// jobs, games, seconds, games_per_second.
nlohmann::json run_header_json(const RunDescription& d, int64_t games, const RunTiming& t, bool with_setup);
// The whole `simulate --json` object: description, timing and figures.
nlohmann::json simulation_json(const RunDescription& d, const analysis::RunStatistics& s, const RunTiming& t);

// "agents: random" or "agents: 0=first 1=random ...".
std::string agents_text(const std::vector<std::string>& agents);
// "Pass the Pandas with 4 players (panda-monium; options.points_target=10)".
std::string setup_text(const RunDescription& d);
// The text report; the wall-clock figures are alone on the line starting "time:".
void print_simulation(std::ostream& out, const RunDescription& d, const analysis::RunStatistics& s,
                      const RunTiming& t);

}  // namespace rulebook::cli
