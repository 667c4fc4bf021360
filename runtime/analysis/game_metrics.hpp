#pragma once
// The per-game metrics of how a game feels (docs/judging-a-rule.md), by
// name, computed from one game's trace: what `simulate`, `compare`,
// `sweep` and `report` tally under metrics.NAME, as game:finish's stats are
// tallied under stats.NAME (stat_tally.hpp). A metric a game cannot give
// (drama without a sole winner) is left out of that game's.
#include <string>
#include <vector>

#include "analysis/game_trace.hpp"
#include "analysis/stat_tally.hpp"

namespace rulebook::analysis {

// Adds the trace's metrics to `into`; without `with_lead` (the evaluation
// never told the seats apart) only those that need no leader.
void add_trace_metrics(const GameTrace& trace, GameStats& into, bool with_lead = true);

// What a metric means, for the text, the page and the docs.
struct MetricInfo {
  const char* name;     // its name, or its family's ("downtime_seat" for downtime_seat0...)
  const char* unit;     // "decisions", "share", "evaluation", "changes"
  const char* words;    // one line for people
  const char* source;   // where the idea comes from
  int better;           // which way a designer usually hopes for: +1 more, -1 less, 0 neither
};
const std::vector<MetricInfo>& metric_catalogue();
// The entry of `name` (a seat's metric finds its family); null if none.
const MetricInfo* metric_info(const std::string& name);

// The mean of metric `name` over its games with its 95% interval. A share
// (unit "share": sit_out, decisiveness...) stays within [0, 1]: a 0/1 share
// per game (sit_out, kingmaking) gets the Wilson score interval of the
// games where it was 1, any other share Student's t clipped to [0, 1];
// every other metric, StatTally::mean().
Interval metric_mean(const std::string& name, const StatTally& tally);

}  // namespace rulebook::analysis
