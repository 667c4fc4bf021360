#pragma once
// --export FILE.csv|FILE.jsonl: one row per game, so that results can be
// recomputed elsewhere (R, pandas, scipy): the game's index and seed, its
// winners, turns, end reason, decisions and game:finish's details.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/run_statistics.hpp"

namespace rulebook::cli {

struct ExportedGame {
  int64_t index = 0;
  uint64_t seed = 0;
  std::string side;  // compare: "base" or "with"; sweep: the setting; simulate: ""
  analysis::GameOutcome outcome;
};

// Refuses (SetupError, exit 2) a file that does not end in .csv or .jsonl.
void check_export_file(const std::string& path);
// Writes the games, sorted by index then side order as given.
void write_export(const std::string& path, std::vector<ExportedGame> games, int players);

}  // namespace rulebook::cli
