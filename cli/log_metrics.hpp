#pragma once
// People beside bots (rulebook report --logs DIR): the games people played
// (the lobby's --logs-dir, play --log) replayed from their logs, with the
// same figures the bots' games give -- win rates, length, the metrics of
// how the games felt -- and the difference people minus bots with its 95%
// interval (Welch, normal approximation: the two are independent samples).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/run_statistics.hpp"
#include "lua/engine_limits.hpp"

namespace rulebook::cli {

// One side of the report the logs are matched to (by game, variants and sets).
struct LogSide {
  std::string name;  // "base", "with"
  std::string game;
  std::vector<std::string> variants, sets;
  int players = 0;
  const analysis::RunStatistics* bots = nullptr;
};

// Reads every *.json log under `dir`, replays each that matches a side,
// and returns {logs, games, skipped: [{file, why}], figures: [...], text}.
// Throws SetupError when `dir` is not a folder.
nlohmann::json people_json(const std::string& dir, const std::vector<LogSide>& sides, const EngineLimits& limits);

}  // namespace rulebook::cli
