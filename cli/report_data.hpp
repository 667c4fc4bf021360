#pragma once
// What `rulebook report` finds, as one JSON object (its --json, and the
// only thing its page is drawn from, so the page's figures are the
// JSON's): each side's figures (simulate's, metrics included), their
// paired differences, the skill trace, people's games beside the bots',
// a sentence for each finding in plain words, a verdict, and where it all
// came from.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/paired_statistics.hpp"
#include "analysis/run_statistics.hpp"

namespace rulebook::cli {

struct ReportSide {
  std::string description;  // "the game as written", "Panda-monium"
  std::vector<std::string> variants, sets;
  std::string rules_hash;
  const analysis::RunStatistics* statistics = nullptr;
};

struct ReportInput {
  std::string game, title, command;
  int players = 0;
  uint64_t seed = 1;
  std::vector<std::string> agents;
  ReportSide base;
  std::optional<ReportSide> with;                      // the variant, when one is given
  const analysis::PairedStatistics* paired = nullptr;  // with `with`
  double seconds = 0;  // the bots' games
  int jobs = 1;
  nlohmann::json skill;   // skill_json, or null (not played)
  nlohmann::json people;  // people_json (log_metrics.hpp), or null (no --logs)
};

nlohmann::json report_json(const ReportInput& in);

// The metrics the report shows, in its order (each also in the page's table).
const std::vector<std::string>& report_metric_names();

}  // namespace rulebook::cli
