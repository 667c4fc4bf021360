#pragma once
// A shard of a simulation (`simulate --shard K/N --out PART.json`): the
// run's parameters, which shard it is, and the sufficient statistics of its
// games. `merge` checks that parts belong to one run and adds them up.
#include <string>
#include <vector>

#include "analysis/run_statistics.hpp"
#include "cli/simulation_report.hpp"

namespace rulebook::cli {

struct SimulationPart {
  RunDescription run;
  int shard = 0;
  int shards = 1;
  RunTiming timing;
  analysis::RunStatistics statistics;
  std::string file;  // where it was read from (for messages)
};

// "K/N" with 0 <= K < N; throws SetupError.
void parse_shard(const std::string& text, int& shard, int& shards);

void write_part(const std::string& path, const SimulationPart& part);  // throws SetupError
SimulationPart read_part(const std::string& path);                     // throws SetupError

// One run's statistics from all its shards. Throws SetupError when the parts
// come from different runs, or a shard is missing or given twice. The
// timing of the merged run: the slowest shard's seconds (the wall-clock
// time when the shards run at the same time) and the sum of their jobs.
SimulationPart merge_parts(const std::vector<SimulationPart>& parts);

}  // namespace rulebook::cli
