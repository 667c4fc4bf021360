#pragma once
// A paired difference (analysis/paired_intervals.hpp) as compare, sweep
// and report write it in JSON.
#include <nlohmann/json.hpp>

#include "analysis/paired_intervals.hpp"

namespace rulebook::cli {

// {difference: {estimate, low, high}, significant, p_value, games_differing, no_game_differed}
nlohmann::json difference_json(const analysis::Difference& d);

}  // namespace rulebook::cli
