#include "analysis/game_metrics.hpp"

#include <algorithm>
#include <numeric>

#include "analysis/lead_metrics.hpp"
#include "analysis/wait_metrics.hpp"

namespace rulebook::analysis {

namespace {
// "downtime_seat3", made once per seat and name (no string built per game).
const std::string& seat_name(const char* family, int seat) {
  static thread_local std::vector<std::string> names[2];
  auto& made = names[family[8] == '_' ? 1 : 0];  // "downtime" or "downtime_p90"
  while (static_cast<int>(made.size()) <= seat)
    made.push_back(std::string(family) + "_seat" + std::to_string(made.size()));
  return made[static_cast<size_t>(seat)];
}
}  // namespace

void add_trace_metrics(const GameTrace& trace, GameStats& into, bool with_lead) {
  if (with_lead) {
    const int changes = lead_changes(trace);
    into["lead_changes"] = changes;
    if (trace.turns() > 0) into["lead_changes_per_10_turns"] = 10.0 * changes / trace.turns();
    if (const double d = drama(trace); d >= 0) into["drama"] = d;
    if (const double d = decisiveness(trace); d >= 0) into["decisiveness"] = d;
  }
  std::vector<int> all;
  for (int seat = 0; seat < trace.players(); ++seat) {
    std::vector<int> mine = waits(trace, seat);
    if (mine.empty()) continue;
    into[seat_name("downtime", seat)] = std::accumulate(mine.begin(), mine.end(), 0.0) / static_cast<double>(mine.size());
    all.insert(all.end(), mine.begin(), mine.end());
    into[seat_name("downtime_p90", seat)] = nearest_rank(mine, 0.9);
  }
  if (!all.empty()) {
    into["downtime"] = std::accumulate(all.begin(), all.end(), 0.0) / static_cast<double>(all.size());
    into["downtime_p90"] = nearest_rank(all, 0.9);
  }
  const SitOut out = sit_out(trace);
  into["sit_out"] = out.seats > 0 ? 1 : 0;
  if (out.seats > 0) into["sit_out_wait"] = out.wait_share;
}

const std::vector<MetricInfo>& metric_catalogue() {
  static const std::vector<MetricInfo> catalogue = {
      {"lead_changes", "changes", "how often the leading seat changes in a game", "Ludii LeadChange; CardStock", 0},
      {"lead_changes_per_10_turns", "changes", "lead changes per 10 turns", "Ludii LeadChange, per length", 0},
      {"drama", "evaluation",
       "how far behind the eventual winner was, averaged over the decisions where it trailed (0: it never trailed)",
       "Ludii Drama (average); TabletopGames DramaMetrics; CardStock", 1},
      {"decisiveness", "share", "share of the game played after the eventual winner took the lead for good",
       "Ludii Decisiveness; CardStock", -1},
      {"downtime", "decisions", "other seats' decisions between two of a seat's own (mean in a game)",
       "designers' downtime", -1},
      {"downtime_p90", "decisions", "the 90th percentile of a game's waits between two of a seat's decisions",
       "designers' downtime", -1},
      {"downtime_seat", "decisions", "that seat's mean wait between two of its decisions", "designers' downtime", -1},
      {"downtime_p90_seat", "decisions", "that seat's 90th-percentile wait between two of its decisions",
       "designers' downtime", -1},
      {"sit_out", "share", "share of games in which a seat is out before the end", "player elimination", -1},
      {"sit_out_wait", "share", "share of the game a seat that is out then waits (games with one)",
       "player elimination", -1},
      {"kingmaking", "share",
       "share of games in which a seat that could no longer win made a decision whose alternatives change the winner",
       "kingmaker problem; TabletopGames", -1},
  };
  return catalogue;
}

const MetricInfo* metric_info(const std::string& name) {
  std::string family = name;
  if (const auto at = name.rfind("_seat"); at != std::string::npos && at + 5 < name.size())
    family = name.substr(0, at + 5);
  for (const auto& m : metric_catalogue())
    if (family == m.name) return &m;
  return nullptr;
}

Interval metric_mean(const std::string& name, const StatTally& tally) {
  const MetricInfo* info = metric_info(name);
  if (!info || std::string(info->unit) != "share" || tally.count() == 0) return tally.mean();
  const auto& bins = tally.histogram();
  const bool zero_one = std::all_of(bins.begin(), bins.end(), [](const auto& bin) { return bin.first == 0 || bin.first == 1; });
  if (zero_one) return wilson_interval(tally.nonzero(), tally.count());
  Interval mean = tally.mean();
  mean.low = std::clamp(mean.low, 0.0, 1.0);
  mean.high = std::clamp(mean.high, 0.0, 1.0);
  return mean;
}

}  // namespace rulebook::analysis
